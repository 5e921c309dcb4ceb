"""Power cuts at length: the device killed with SIGKILL at random moments of a scripted game, restarted each
time, its journal checked after every kill (docs/RELIABILITY.md).

    .venv/bin/python benchmarks/power_cut.py [--cuts 2000] [--seed 1] [--longest 0.2] [--head-start N] [--folder DIR]

The harness is the CI test's (tests/reliability/power_cut.py, test_power_cut.py runs 200 cuts): a
recorded Cribbage game played through the device's loop on a journal on disk, each restart forked from
this process. Prints cuts, losses (a confirmation the OLED showed, missing from the journal), corruptions
(integrity check failed, or the journal unreadable), mismatches (the journal or the resumed game not the
reference game), crashes, and restarts a second. The exit status is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.reliability.power_cut import power_cuts  # noqa: E402 - after the path is set
from tests.reliability.table_script import record, reference  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=2000, help="how many times to kill the device (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the moments of the kills (default 1)")
    parser.add_argument("--longest", type=float, default=0.2,
                        help="the longest run before a kill, in seconds (default 0.2)")
    parser.add_argument("--head-start", type=int, default=0,
                        help="play the game to this event before the first cut (the CI test starts 40 from the end)")
    parser.add_argument("--folder", type=Path, default=None,
                        help="where the journal goes (default: a new temporary folder; it should be on a disk)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="power-cut-"))
    folder.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    script = record(folder)
    game = reference(script, folder)
    print(f"power cuts: {args.cuts} kills (SIGKILL after 0-{args.longest * 1000:.0f} ms, seed {args.seed}) of "
          f"the device playing a recorded {len(game.events)}-event Cribbage game; journal in {folder}; "
          f"load average {load:.1f} at the start", flush=True)
    started = time.perf_counter()
    (folder / "cuts").mkdir(exist_ok=True)
    tally = power_cuts(script, game, folder / "cuts", args.cuts, seed=args.seed, longest=args.longest,
                       head_start=args.head_start)
    rows = [
        ("cuts", tally.cuts), ("losses", tally.losses), ("corruptions", tally.corruptions),
        ("mismatches", tally.mismatches), ("crashes", tally.crashes),
        ("confirmations shown and checked", tally.shown), ("restarts that resumed the game", tally.resumes),
        ("cuts between a commit and its screen", tally.pending), ("games finished", tally.games),
        ("events in the journal", tally.events),
    ]
    for name, value in rows:
        print(f"  {name:<38} {value:>8,}")
    print(f"  {'restarts a second':<38} {tally.cuts / tally.seconds:>8.1f}   "
          f"({time.perf_counter() - started:.1f} s in all)")
    for problem in tally.problems:
        print(f"  ! {problem}")
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
