"""How fast Cribbage scores: every deal's distribution, single shows through the API, and the batch command.

Run from the repository root:

    .venv/bin/python benchmarks/cribbage_speed.py [--deals 100000] [--lines 100000]

Prints wall-clock and CPU seconds (the machine is shared: CPU time is the steadier figure), and the
goals: both distributions over all 12,994,800 deals within 10 s on one core; the best
PyPI scorer counts about 48,000 shows a second on this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.cards import DECK, Card  # noqa: E402
from scoring.cribbage import show, show_total  # noqa: E402
from scoring.cribbage_distribution import DEALS, distribution  # noqa: E402


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds taken by ``work()``."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def distributions() -> None:
    wall, cpu = timed(lambda: (distribution(), distribution(crib=True)))
    print(f"hand + crib distributions over all {DEALS:,} deals (rank table built from the scalar scorer "
          f"included): {wall:.2f} s wall, {cpu:.2f} s CPU (goal: at most 10 s)")


def single_shows(count: int) -> None:
    rng = random.Random(1)
    deals: list[list[Card]] = [rng.sample(DECK, 5) for _ in range(count)]
    def itemised() -> None:
        for deal in deals:
            show(deal[:4], deal[4])

    def totals() -> None:
        for deal in deals:
            show_total(deal[:4], deal[4])

    # The first pass fills the rank-pattern cache (6,175 patterns) as it goes; later passes find them all.
    for name, work in (("show() itemised, cache filling", itemised), ("show() itemised", itemised),
                       ("show_total()", totals)):
        wall, cpu = timed(work)
        print(f"{name:<31} {count / wall:>9,.0f} shows/s wall, {count / cpu:>9,.0f} /s CPU "
              f"({count:,} random deals; best PyPI scorer ~48,000/s)")


def batch(lines: int) -> None:
    rng = random.Random(2)
    with tempfile.TemporaryDirectory() as folder:
        requests = Path(folder, "requests.jsonl")
        with requests.open("w") as out:
            for _ in range(lines):
                *hand, starter = rng.sample(DECK, 5)
                out.write(json.dumps({"hand": [c.code for c in hand], "starter": starter.code,
                                      "crib": rng.random() < 0.5}) + "\n")
        command = [str(Path(sys.executable).with_name("tablescore")), "score", "cribbage", "--batch"]
        with requests.open("rb") as source:
            start, before = time.perf_counter(), os.times()
            result = subprocess.run(command, stdin=source, capture_output=True, check=True)
            wall, after = time.perf_counter() - start, os.times()
    cpu = after.children_user + after.children_system - before.children_user - before.children_system
    answers = result.stdout.splitlines()
    errors = sum(b'"error"' in answer for answer in answers)
    print(f"tablescore score cribbage --batch: {lines / wall:,.0f} requests/s wall, {lines / cpu:,.0f} /s CPU "
          f"({lines:,} show requests, {len(answers):,} answers, {errors} errors, process start-up included)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=100_000, help="random deals shown through the API")
    parser.add_argument("--lines", type=int, default=100_000, help="requests sent to the batch command")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    single_shows(args.deals)
    distributions()
    batch(args.lines)


if __name__ == "__main__":
    main()
