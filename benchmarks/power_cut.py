"""Power cuts at length: the device killed with SIGKILL at random moments of a demo recording, restarted each
time, its journal checked after every kill (docs/RELIABILITY.md).

    .venv/bin/python benchmarks/power_cut.py [--cuts 2000] [--seed 1] [--longest 0.2] [--head-start N]
                                             [--recording cribbage] [--folder DIR]

The harness is the CI test's (tests/reliability/power_cut.py; test_power_cut.py runs 200 cuts): a demo
recording (device/demo: rendered frames and the players' presses) played through the real card reader,
tracker, flow and journal on disk, each restart forked from this process. A quarter of the kills fall at a
random moment after the start, the others around a confirmation. Prints cuts, losses (a confirmation the
OLED showed, missing from the journal), corruptions (integrity check failed, or the journal unreadable),
mismatches (the journal or the resumed game not the reference game), crashes, and restarts a second. The
exit status is 1 when anything failed.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as on the device: set before NumPy loads its BLAS

import argparse  # noqa: E402 - after the environment is set
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from device.demo.recording import ORDER  # noqa: E402 - after the path is set
from tests.reliability.demo_table import recorded  # noqa: E402
from tests.reliability.power_cut import START_SHARE, WINDOW, power_cuts, resumes  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuts", type=int, default=2000, help="how many times to kill the device (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the moments of the kills (default 1)")
    parser.add_argument("--longest", type=float, default=0.2,
                        help="the longest run before a kill at a random moment from the start, seconds (default 0.2)")
    parser.add_argument("--head-start", type=int, default=0,
                        help="play the game to this event before the first cut (the CI test starts 25 from the end)")
    parser.add_argument("--recording", choices=ORDER, default="cribbage", help="the demo recording played")
    parser.add_argument("--folder", type=Path, default=None,
                        help="where the journal goes (default: a new temporary folder; it should be on a disk)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="power-cut-"))
    folder.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    try:
        table = recorded(folder, args.recording)
    except ValueError as error:
        print(f"power_cut: {error}", file=sys.stderr)
        return 2
    print(f"power cuts: {args.cuts} kills (seed {args.seed}; {START_SHARE:.0%} at 0-{args.longest * 1000:.0f} ms "
          f"from the start, the others within {WINDOW:g} frame times of a frame carrying a press) of the device "
          f"playing the demo's {args.recording} recording ({len(table.reference.events)} events, "
          f"{table.recording.frames} frames) through the card reader; journal in {folder}; load average "
          f"{load:.1f} at the start", flush=True)
    started = time.perf_counter()
    (folder / "resumes").mkdir(exist_ok=True)
    astray = resumes(table, folder / "resumes")
    points = len(table.reference.events) + 1
    print(f"  resumed at each event (0 to {points - 1}), played to the next: {points - len(astray)} of {points} "
          f"as the reference{f'; astray from {astray}' if astray else ''} ({time.perf_counter() - started:.1f} s)",
          flush=True)
    started = time.perf_counter()
    (folder / "cuts").mkdir(exist_ok=True)
    tally = power_cuts(table, folder / "cuts", args.cuts, seed=args.seed, longest=args.longest,
                       head_start=args.head_start)
    rows = [
        ("cuts", tally.cuts), ("losses", tally.losses), ("corruptions", tally.corruptions),
        ("mismatches", tally.mismatches), ("crashes", tally.crashes),
        ("cuts around a confirmation", tally.near), ("  of which after its commit", tally.committed),
        ("cuts between a commit and its screen", tally.pending),
        ("pages shown and checked", tally.shown), ("restarts that resumed the game", tally.resumes),
        ("games finished", tally.games), ("events in the journal", tally.events),
    ]
    for name, value in rows:
        print(f"  {name:<38} {value:>8,}")
    print(f"  {'restarts a second':<38} {tally.cuts / tally.seconds:>8.1f}   "
          f"({time.perf_counter() - started:.1f} s in all, load average {os.getloadavg()[0]:.1f} at the end)")
    for problem in tally.problems:
        print(f"  ! {problem}")
    return 1 if tally.failures or astray else 0


if __name__ == "__main__":
    sys.exit(main())
