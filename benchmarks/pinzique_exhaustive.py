"""Every one of the 6^8 = 1,679,616 rolls of the eight Pinzique dice, scored: the odds table.

Rolls are enumerated die by die in the score guide's layout; each roll's best score is memoised on its
sorted face multiset (the camera's view: eight faces in any order), so each distinct multiset is scored
once by the engine (``best_patterns``, the search ``score_roll`` runs after checking the faces) and every
roll is counted. Prints the distribution of best scores, how often each meld occurs, how often all eight
dice score (a bonus round if nothing is taken away), and the time.

Goal: all rolls in at most 60 s on one core.

    .venv/bin/python benchmarks/pinzique_exhaustive.py [--all-scores]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from collections import Counter

from scoring.pinzique_roll import FACE_NUMBER, best_patterns, default_guide

GOAL_SECONDS = 60
BUCKETS = (0, 1, 50, 100, 200, 400, 650, 700, 1000, 1300, 2600)
"""Lower bounds of the score bands the summary prints."""


def tally() -> tuple[Counter[int], Counter[str], int, int]:
    """Rolls by best score, rolls holding each meld (by code), rolls scoring on all eight dice, and the
    number of distinct face multisets."""
    guide = default_guide()
    dice = [[FACE_NUMBER[face] for face in die] for die in guide.dice]
    memo: dict[tuple[int, ...], tuple[int, tuple[str, ...], bool]] = {}
    scores: Counter[int] = Counter()
    melds: Counter[tuple[str, ...]] = Counter()
    all_dice = 0
    for roll in itertools.product(*dice):
        key = tuple(sorted(roll))
        found = memo.get(key)
        if found is None:
            patterns, scored = best_patterns(key, guide)
            found = memo[key] = (sum(p.rule.points for p in patterns), tuple(p.code for p in patterns), scored == 8)
        scores[found[0]] += 1
        melds[found[1]] += 1
        all_dice += found[2]
    by_code: Counter[str] = Counter()
    for codes, rolls in melds.items():
        for code in codes:
            by_code[code] += rolls
    return scores, by_code, all_dice, len(memo)


def family(code: str) -> str:
    """The meld a code names without its suit: MH -> M, SMH -> SM, 5Q -> 5Q."""
    return code if code[0].isdigit() or code in ("P", "DP") else code[:-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all-scores", action="store_true", help="print every best score, not score bands")
    args = parser.parse_args()
    wall, cpu = time.perf_counter(), time.process_time()
    scores, by_code, all_dice, distinct = tally()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    rolls = sum(scores.values())
    assert rolls == 6 ** 8
    print(f"{rolls:,} rolls, {distinct:,} distinct face multisets; load average {os.getloadavg()[0]:.1f}")
    print(f"time: {cpu:.1f} s CPU (one core), {wall:.1f} s wall; goal at most {GOAL_SECONDS} s "
          f"({'met' if cpu <= GOAL_SECONDS else 'NOT met'})")
    mean = sum(score * count for score, count in scores.items()) / rolls
    median = next(score for score, seen in itertools.accumulate(sorted(scores.items()), lambda a, b: (b[0], a[1] + b[1]))
                  if seen * 2 >= rolls)
    print(f"best score: mean {mean:.1f}, median {median}, highest {max(scores)}; "
          f"all eight dice score in {all_dice:,} rolls ({all_dice / rolls:.3%}, 1 in {rolls / all_dice:.0f})")
    print()
    print("| best score | rolls | share |")
    print("|---|---:|---:|")
    if args.all_scores:
        bands = [(score, score, scores[score]) for score in sorted(scores)]
    else:
        bounds = [*BUCKETS, max(scores) + 1]
        bands = [(low, high - 1, sum(n for s, n in scores.items() if low <= s < high))
                 for low, high in itertools.pairwise(bounds)]
    for low, high, count in bands:
        label = str(low) if low == high else f"{low}-{high}"
        print(f"| {label} | {count:,} | {count / rolls:.3%} |")
    print()
    print("| meld | rolls holding it | share | by suit |")
    print("|---|---:|---:|---|")
    families: dict[str, list[str]] = {}
    for code in by_code:
        families.setdefault(family(code), []).append(code)
    order = ["M", "DM", "P", "DP", *(f"{n}{r}" for r in "JQKA" for n in range(4, 9)), "SM", "MR", "LR"]
    for name in sorted(families, key=lambda name: order.index(name) if name in order else len(order)):
        codes = sorted(families[name])
        count = sum(by_code[code] for code in codes)
        suits = ", ".join(f"{code[-1]} {by_code[code]:,}" for code in codes) if len(codes) > 1 else ""
        print(f"| {name} | {count:,} | {count / rolls:.3%} | {suits} |")


if __name__ == "__main__":
    main()
