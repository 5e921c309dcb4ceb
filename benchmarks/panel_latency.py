"""Seat panel round trips: from a button to the event reaching the flow, and from an LED command to its
acknowledgement, with the firmware's own loop in a child process on a pty (`firmware.rig`).

    .venv/bin/python benchmarks/panel_latency.py [--presses 60] [--holds 8]

A press is reported when the button is released (it could still become a hold), so press latency runs
from the release edge (a clean one: contact bounce only adds its own length); it includes the firmware's
DEBOUNCE_MS by design. A hold is
reported once the button has been down HOLD_MS, so hold latency runs from that moment. Both end when
`SeatPanel.get()` returns the event. Timings are CLOCK_MONOTONIC in both processes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from device.panel import SeatPanel  # noqa: E402
from firmware import main, protocol  # noqa: E402
from firmware.rig import PanelRig  # noqa: E402


def summary(name: str, samples_ms: list[float]) -> str:
    ordered = sorted(samples_ms)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"| {name} | {len(ordered)} | {statistics.median(ordered):.1f} | {p95:.1f} | {ordered[0]:.1f} | {ordered[-1]:.1f} |"


def wait_for_event(panel: SeatPanel) -> float:
    event = panel.get(timeout=5)
    if event is None:
        raise SystemExit("no event arrived: the link is broken")
    return time.monotonic()


def main_() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--holds", type=int, default=8)
    args = parser.parse_args()
    press_ms: list[float] = []
    hold_ms: list[float] = []
    led_ms: list[float] = []
    with PanelRig() as rig, SeatPanel(finder=rig.port) as panel:
        deadline = time.monotonic() + 5
        while not panel.status().connected:
            if time.monotonic() > deadline:
                raise SystemExit("the panel never connected")
            time.sleep(0.01)
        for n in range(args.presses):
            seat, button = n % protocol.SEATS + 1, protocol.BUTTONS[n // protocol.SEATS % 2]
            _, released = rig.press(seat, button, ms=60, bounce=False)
            press_ms.append((wait_for_event(panel) - released) * 1000)
        for n in range(args.holds):
            down, _ = rig.press_down(n % protocol.SEATS + 1, "confirm", ms=main.HOLD_MS + 150, bounce=False)
            hold_ms.append((wait_for_event(panel) - down - main.HOLD_MS / 1000) * 1000)
            time.sleep(0.3)
        for n in range(args.presses):
            started = time.monotonic()
            panel.set_led(n % protocol.SEATS + 1, protocol.LED_MODES[n % 3])
            while not panel.leds_confirmed():
                if time.monotonic() - started > 5:
                    raise SystemExit("an LED command was never acknowledged")
                time.sleep(0.0005)
            led_ms.append((time.monotonic() - started) * 1000)
        status = panel.status()
    print(
        f"seat panel round trips, firmware loop in a child process on a pty; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"(press latency includes the {main.DEBOUNCE_MS} ms debounce; {status.repeats} repeats dropped)")
    print("| round trip | n | median ms | p95 ms | min ms | max ms |")
    print("|---|---|---|---|---|---|")
    print(summary("press: release to event in the flow", press_ms))
    print(summary(f"hold: {main.HOLD_MS} ms down to event in the flow", hold_ms))
    print(summary("LED command to the panel's acknowledgement", led_ms))
    return 0


if __name__ == "__main__":
    sys.exit(main_())
