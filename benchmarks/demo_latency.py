"""How fast the device answers a table: the demo's recordings replayed through the whole pipeline.

1. Latency, replayed in real time at 10 frames a second: for each confirmation that follows cards laid,
   the time from the frame in which the last of those cards came down (to stay) to ``display.show`` of
   the page that offers the event with its score. Goal: at most 1 second.
2. Throughput: the recordings played as fast as they go on one core (OpenCV and BLAS on one thread), in
   frames a second (wall clock and CPU).

    .venv/bin/python benchmarks/demo_latency.py [--games cribbage,barbu] [--fps 10]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: set before NumPy loads its BLAS
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402

from device.demo.command import play  # noqa: E402
from device.demo.recording import ORDER, Recording  # noqa: E402
from device.display import Display, open_device  # noqa: E402
from device.screens import Screen  # noqa: E402


class Clocked:
    """The OLED, noting when each page was shown and in which frame."""

    def __init__(self) -> None:
        self.display = Display(open_device("dummy"))
        self.frame = 0
        self.shown: list[tuple[float, int, Screen]] = []

    def show(self, screen: Screen) -> None:
        self.display.show(screen)
        self.shown.append((time.perf_counter(), self.frame, screen))


def latencies(recording: Recording, fps: float, folder: Path) -> list[float]:
    """Seconds from the last card of each confirmed event lying still to its page on the OLED."""
    period = 1.0 / fps
    oled = Clocked()
    read_at: list[float] = []
    start = time.perf_counter()
    read_at.append(start)

    def pace(pressed: bool) -> None:
        oled.frame += 1
        due = start + oled.frame * period
        time.sleep(max(0.0, due - time.perf_counter()))
        read_at.append(time.perf_counter())

    play(recording, oled, folder / f"{recording.name}.db", lambda: True, pace)  # type: ignore[arg-type]
    out = []
    last_press = -1
    for frame, kind, *args in recording.acts:
        if kind != "press" or args != ["ok", 0]:
            continue
        puts = [act[0] for act in recording.acts if (act[1] == "put" or act[1] == "dice" and act[2] >= 0)
                and last_press < act[0] <= frame]  # cards laid, or the dice come to rest
        last_press = frame
        if not puts:
            continue  # a confirmation of what was already on the table (a show, a go)
        down = max(puts)  # the last card came down in this frame and stayed
        out.append(_first_offer(oled, down, frame) - read_at[down])
    return out


def _first_offer(oled: Clocked, down: int, press: int) -> float:
    """When the page the OK at frame ``press`` confirmed was first shown (after the frame ``down``)."""
    pages = [(at, shown_in, screen) for at, shown_in, screen in oled.shown if shown_in < press]
    at, _, page = pages[-1]
    for earlier_at, shown_in, screen in reversed(pages):
        if shown_in < down or screen.lines[:1] != page.lines[:1]:
            break
        at = earlier_at
    return at


def throughput(recordings: list[Recording], folder: Path) -> tuple[int, float, float]:
    """Frames, wall seconds and CPU seconds to play the recordings as fast as they go."""
    frames = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for recording in recordings:
        frames += play(recording, Display(open_device("dummy")), folder / f"fast-{recording.name}.db", lambda: True).frames
    return frames, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(ORDER), help="the recordings, comma-separated")
    parser.add_argument("--fps", type=float, default=10.0)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    chosen = [Recording.load(name) for name in args.games.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        frames, wall, cpu = throughput(chosen, folder)
        print(f"throughput: {frames} frames in {wall:.1f} s wall, {cpu:.1f} s CPU: "
              f"{frames / wall:.1f} frames/s ({frames / cpu:.1f} per CPU second), one thread")
        found = []
        for recording in chosen:
            seconds = latencies(recording, args.fps, folder)
            found += seconds
            if seconds:
                print(f"{recording.name}: {len(seconds)} confirmations after cards laid, latency median "
                      f"{statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms")
    print(f"all: {len(found)} confirmations, cards still to score on the OLED at {args.fps:g} fps: median "
          f"{statistics.median(found) * 1000:.0f} ms, max {max(found) * 1000:.0f} ms (goal: at most 1000 ms)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
