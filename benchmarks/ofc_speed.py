"""How fast Open-Face Chinese Poker scoring is: the hand evaluator beside treys, and whole settlements.

1. **Evaluator**: random five-card hands, dealt once, each evaluator given them in its own card format
   beforehand; timed interleaved, best of ``--repeat`` rounds:
   - ``treys evaluate``: ``Evaluator().evaluate(hand[:2], hand[2:])``, treys' public call;
   - ``treys _five``: its five-card routine called directly (faster: no list join, no dispatch);
   - ``scalar value5``: ``scoring.poker.value5``, one hand per call;
   - ``batch values``: ``scoring.poker.values`` on the whole (n, 5) NumPy array at once.
   The hands' values are checked to order exactly as treys ranks them.
2. **Exhaustive**: every one of the 2,598,960 five-card hands dealt, valued and counted by category.
3. **Settlements** of 2, 3 and 4 players: each player's 13 cards dealt at random and set in rows at random
   (for nine boards in ten, the first of up to 20 settings that does not foul), settled three ways:
   - ``engine``: ``settle`` on boards already parsed (the device's game flow): every board assessed (three
     hand values, foul, royalties, Fantasyland), every pair settled, net points;
   - ``request``: ``score_request`` on the JSON-shaped request (every card and field checked, the result
     dict): what ``tablescore score ofc --batch`` does per line;
   - ``batch line``: the same from the JSON text line to the JSON text answer.

Speeds are given by CPU time (one core's speed, what the machine's load does not change much) and by the
wall clock. Goals: at least 1.5 times treys; the exhaustive count in at most 3 seconds.

    .venv/bin/python benchmarks/ofc_speed.py [--hands 500000] [--deals 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from timing import best_rates
from treys import Card as TreysCard
from treys import Evaluator

from scoring.cards import DECK, Card
from scoring.ofc import ROWS, Board, assess, settle
from scoring.poker import Category, all_hands, value5, values
from scoring.requests.ofc import score_request

GOAL_RATIO = 1.5
GOAL_EXHAUSTIVE_SECONDS = 3.0


# 1. The evaluator beside treys.


def deal_hands(count: int, seed: int = 2026) -> npt.NDArray[np.int64]:
    """``count`` random five-card hands as rows of ``Card.index`` numbers."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :5]


def treys_cards(hands: npt.NDArray[np.int64]) -> list[list[int]]:
    """The same hands in treys' card integers."""
    codes = [TreysCard.new(card.rank.letter + card.suit.letter.lower()) for card in DECK]
    return [[codes[index] for index in hand] for hand in hands.tolist()]


def check_same_order(ours: npt.NDArray[np.int32], theirs: npt.NDArray[np.int64]) -> int:
    """Check our values order the hands exactly as treys' ranks do (1 best); return how many classes were seen."""
    order = np.argsort(ours, kind="stable")
    ours_sorted, theirs_sorted = ours[order], theirs[order]
    if not ((np.diff(ours_sorted) == 0) == (np.diff(theirs_sorted) == 0)).all() or (np.diff(theirs_sorted) > 0).any():
        raise SystemExit("scoring.poker and treys disagree on the order of these hands")
    return int(len(np.unique(ours)))


def evaluator_figures(count: int, repeat: int) -> None:
    hands = deal_hands(count)
    ours_lists = hands.tolist()
    theirs_lists = treys_cards(hands)
    theirs_split = [(hand[:2], hand[2:]) for hand in theirs_lists]
    evaluator = Evaluator()
    five = evaluator._five
    ours = values(hands)
    if list(map(value5, ours_lists)) != ours.tolist():
        raise SystemExit("the scalar and batch paths disagree")
    classes = check_same_order(ours, np.array([five(hand) for hand in theirs_lists]))

    runs: dict[str, Callable[[], object]] = {
        "treys evaluate": lambda: [evaluator.evaluate(hand, board) for hand, board in theirs_split],
        "treys _five": lambda: [five(hand) for hand in theirs_lists],
        "scalar value5": lambda: [value5(hand) for hand in ours_lists],
        "batch values": lambda: values(hands),
    }
    cpu = {name: 0.0 for name in runs}
    wall = {name: 0.0 for name in runs}
    for _ in range(repeat):  # interleaved, so a burst of load from elsewhere hits every contender
        for name, run in runs.items():
            by_cpu, by_wall = best_rates(run, count, 1)
            cpu[name], wall[name] = max(cpu[name], by_cpu), max(wall[name], by_wall)

    print(f"1. {count:,} random five-card hands ({classes:,} distinct values), valued in the same order as "
          f"treys; best of {repeat}")
    treys_cpu = max(cpu["treys evaluate"], cpu["treys _five"])
    treys_wall = max(wall["treys evaluate"], wall["treys _five"])
    print(f"  {'':<15} {'CPU (one core)':>16} {'wall':>16} {'x treys (CPU, wall)':>21}")
    for name in runs:
        print(f"  {name:<15} {cpu[name] / 1e6:9.2f} M/s {wall[name] / 1e6:11.2f} M/s "
              f"{cpu[name] / treys_cpu:10.1f} {wall[name] / treys_wall:6.1f}")
    for name in ("scalar value5", "batch values"):
        ratio = min(cpu[name] / treys_cpu, wall[name] / treys_wall)
        verdict = "met" if ratio >= GOAL_RATIO else "NOT met"
        print(f"  goal {GOAL_RATIO}x treys' faster call, {name}: at least {ratio:.1f}x, {verdict}")


# 2. Every five-card hand.


def exhaustive_figures() -> None:
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    hand_values = values(all_hands(5))
    counts = np.bincount(hand_values >> 20, minlength=len(Category)).tolist()
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start_wall
    verdict = "met" if max(cpu, wall) <= GOAL_EXHAUSTIVE_SECONDS else "NOT met"
    print(f"2. all 2,598,960 five-card hands dealt, valued and counted in {cpu:.2f} s CPU, {wall:.2f} s wall "
          f"(goal {GOAL_EXHAUSTIVE_SECONDS:.0f} s, {verdict}); {len(np.unique(hand_values)):,} distinct values")
    print("  " + ", ".join(f"{kind.label} {count:,}" for kind, count in zip(Category, counts, strict=True)))


# 3. Whole settlements.


def random_board(rng: random.Random, cards: list[Card]) -> Board:
    """The 13 cards set in rows at random: for nine boards in ten, the first of 20 settings that does not foul."""
    for _ in range(20 if rng.random() < 0.9 else 1):
        rng.shuffle(cards)
        board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
        if not assess(board).fouled:
            break
    return board


def deal_tables(players: int, count: int, seed: int = 2026) -> list[list[Board]]:
    rng = random.Random(seed + players)
    tables = []
    for _ in range(count):
        cards = rng.sample(DECK, 13 * players)
        tables.append([random_board(rng, cards[i:i + 13]) for i in range(0, 13 * players, 13)])
    return tables


def as_request(boards: list[Board]) -> dict[str, Any]:
    return {"players": [{name: [card.code for card in row] for name, row in zip(ROWS, board.rows, strict=True)}
                        for board in boards]}


def settlement_rates(tables: list[list[Board]], repeat: int) -> list[tuple[float, float]]:
    """Settlements a second (CPU, wall) of the engine, of requests, and of batch lines."""
    requests = [as_request(boards) for boards in tables]
    lines = [json.dumps(request) for request in requests]
    return [
        best_rates(lambda: [settle(boards) for boards in tables], len(tables), repeat),
        best_rates(lambda: [score_request(request) for request in requests], len(tables), repeat),
        best_rates(lambda: [json.dumps(score_request(json.loads(text))) for text in lines], len(tables), repeat),
    ]


def settlement_figures(count: int, repeat: int) -> None:
    print(f"3. settlements a second, CPU (one core) / wall, best of {repeat} runs over {count:,} random deals")
    print(f"  {'players':>7} {'fouled':>7} {'engine':>17} {'request':>17} {'batch line':>17}")
    for players in (2, 3, 4):
        tables = deal_tables(players, count)
        fouled = sum(hand.fouled for boards in tables for hand in settle(boards).hands) / (players * len(tables))
        figures = " ".join(f"{cpu:>8,.0f} / {wall:<6,.0f}" for cpu, wall in settlement_rates(tables, repeat))
        print(f"  {players:>7} {fouled:>7.0%} {figures}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=500_000, help="random hands to time (default 500,000)")
    parser.add_argument("--deals", type=int, default=3000, help="random deals a table size (default 3,000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds; the best counts (default 5)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    evaluator_figures(args.hands, args.repeat)
    exhaustive_figures()
    settlement_figures(args.deals, args.repeat)


if __name__ == "__main__":
    main()
