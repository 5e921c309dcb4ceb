"""How many Open-Face Chinese Poker hands a second the engine settles, for 2, 3 and 4 players.

Each player's 13 cards are dealt at random and set in rows at random, keeping the first of up to 20 settings
that does not foul (so most boards are proper, some foul, as at a table). Each deal is settled three ways:

- ``engine``: ``settle`` on boards already parsed (the device's game flow): assess every board (three hand
  values, foul, royalties, Fantasyland), settle every pair, net points;
- ``request``: ``score_request`` on the JSON-shaped request (checking every card and field, the result dict):
  what ``tablescore score ofc --batch`` does per line;
- ``batch line``: the same from the JSON text line to the JSON text answer.

    .venv/bin/python benchmarks/ofc_speed.py [--deals 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

from scoring.cards import DECK
from scoring.ofc import ROWS, Board, assess, score_request, settle


def random_board(rng: random.Random, cards: list[Any]) -> Board:
    """The 13 cards set in rows at random, the first of up to 20 settings that does not foul."""
    for _ in range(20):
        rng.shuffle(cards)
        board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        if not assess(board).fouled:
            break
    return board


def deals(players: int, count: int, seed: int = 2026) -> list[list[Board]]:
    rng = random.Random(seed + players)
    result = []
    for _ in range(count):
        cards = rng.sample(DECK, 13 * players)
        result.append([random_board(rng, cards[i:i + 13]) for i in range(0, 13 * players, 13)])
    return result


def as_request(boards: list[Board]) -> dict[str, Any]:
    return {"players": [{name: [card.code for card in row] for name, row in zip(ROWS, board.rows, strict=True)}
                        for board in boards]}


def best_rate(count: int, run: Callable[[], object], repeat: int) -> float:
    """Settlements a second, best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def rates(tables: list[list[Board]], repeat: int) -> tuple[float, float, float]:
    """Settlements a second of the engine, of requests, and of batch lines."""
    requests = [as_request(boards) for boards in tables]
    lines = [json.dumps(request) for request in requests]
    return (
        best_rate(len(tables), lambda: [settle(boards) for boards in tables], repeat),
        best_rate(len(tables), lambda: [score_request(request) for request in requests], repeat),
        best_rate(len(tables), lambda: [json.dumps(score_request(json.loads(text))) for text in lines], repeat),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3000, help="random deals for each table size (default 3,000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds; the best counts (default 5)")
    args = parser.parse_args()
    print(f"settlements a second, best of {args.repeat} runs over {args.deals:,} random deals; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'players':>7} {'fouled':>7} {'engine':>9} {'request':>9} {'batch line':>11}")
    for players in (2, 3, 4):
        tables = deals(players, args.deals)
        fouled = sum(hand.fouled for boards in tables for hand in settle(boards).hands) / (players * len(tables))
        engine, request, line = rates(tables, args.repeat)
        print(f"{players:>7} {fouled:>7.0%} {engine:>9,.0f} {request:>9,.0f} {line:>11,.0f}")


if __name__ == "__main__":
    main()
