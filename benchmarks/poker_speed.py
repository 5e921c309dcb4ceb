"""How fast the five-card evaluator (``scoring.poker``) is, side by side with treys on the same hands.

Random five-card hands are dealt once; each evaluator gets them in its own card format, prepared beforehand.
Timed, interleaved, best of ``--repeat`` rounds:

- ``treys evaluate``: ``Evaluator().evaluate(hand[:2], hand[2:])``, treys' public call;
- ``treys _five``: its five-card routine called directly (faster: no list join, no dispatch);
- ``scalar value5``: ``scoring.poker.value5``, one hand per call;
- ``batch values``: ``scoring.poker.values`` on the whole (n, 5) NumPy array at once.

The hands' values are checked to order exactly as treys ranks them. Then the exhaustive count: every one of
the 2,598,960 five-card hands dealt, valued and counted by category, timed from nothing.

Goals (issue 5): at least 1.5 times treys' speed; the exhaustive count in at most 3 seconds.

    .venv/bin/python benchmarks/poker_speed.py [--hands 500000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
from treys import Card as TreysCard
from treys import Evaluator

from scoring.cards import DECK
from scoring.poker import Category, all_hands, value5, values

GOAL_RATIO = 1.5
GOAL_EXHAUSTIVE_SECONDS = 3.0


def deal(count: int, seed: int = 2026) -> npt.NDArray[np.int64]:
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
    same_ours = np.diff(ours_sorted) == 0
    same_theirs = np.diff(theirs_sorted) == 0
    if not (same_ours == same_theirs).all() or (np.diff(theirs_sorted) > 0).any():
        raise SystemExit("scoring.poker and treys disagree on the order of these hands")
    return int(len(np.unique(ours)))


def best_rate(count: int, run: Callable[[], object], repeat: int) -> float:
    """Hands a second, best of ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return count / best


def exhaustive() -> tuple[float, list[int], int]:
    """Deal, value and count every five-card hand: seconds, counts by category, distinct values."""
    start = time.perf_counter()
    hand_values = values(all_hands(5))
    counts = np.bincount(hand_values >> 20, minlength=len(Category)).tolist()
    seconds = time.perf_counter() - start
    return seconds, counts, len(np.unique(hand_values))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=500_000, help="random hands to time (default 500,000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds; the best counts (default 5)")
    args = parser.parse_args()

    hands = deal(args.hands)
    ours_lists = hands.tolist()
    theirs_lists = treys_cards(hands)
    theirs_split = [(hand[:2], hand[2:]) for hand in theirs_lists]
    evaluator = Evaluator()
    five = evaluator._five

    ours = values(hands)
    theirs = np.array([five(hand) for hand in theirs_lists])
    if list(map(value5, ours_lists)) != ours.tolist():
        raise SystemExit("the scalar and batch paths disagree")
    classes = check_same_order(ours, theirs)

    runs: dict[str, Callable[[], object]] = {
        "treys evaluate": lambda: [evaluator.evaluate(hand, board) for hand, board in theirs_split],
        "treys _five": lambda: [five(hand) for hand in theirs_lists],
        "scalar value5": lambda: [value5(hand) for hand in ours_lists],
        "batch values": lambda: values(hands),
    }
    rates = {name: 0.0 for name in runs}
    for _ in range(args.repeat):  # interleaved, so a burst of load from elsewhere hits every contender
        for name, run in runs.items():
            rates[name] = max(rates[name], best_rate(args.hands, run, 1))

    load = os.getloadavg()[0]
    print(f"{args.hands:,} random five-card hands ({classes:,} distinct values), same order as treys; "
          f"best of {args.repeat}; load average {load:.1f} on {os.cpu_count()} cores")
    fastest_treys = max(rates["treys evaluate"], rates["treys _five"])
    for name, rate in rates.items():
        print(f"  {name:<15} {rate / 1e6:8.2f} M hands/s  {rate / fastest_treys:6.1f}x treys' best")
    for name in ("scalar value5", "batch values"):
        ratio = rates[name] / fastest_treys
        verdict = "met" if ratio >= GOAL_RATIO else "NOT met"
        print(f"goal {GOAL_RATIO}x treys, {name}: {ratio:.1f}x, {verdict}")

    seconds, counts, distinct = exhaustive()
    verdict = "met" if seconds <= GOAL_EXHAUSTIVE_SECONDS else "NOT met"
    print(f"exhaustive: all 2,598,960 hands dealt, valued and counted in {seconds:.2f} s "
          f"(goal {GOAL_EXHAUSTIVE_SECONDS:.0f} s, {verdict}); {distinct:,} distinct values")
    for kind, count in zip(Category, counts, strict=True):
        print(f"  {kind.label:<16} {count:>9,}")


if __name__ == "__main__":
    main()
