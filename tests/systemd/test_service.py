"""The service's own command, `tablescore run`, as systemd runs it: under a stand-in notify socket with a
watchdog, on a configuration of stand-ins (emulated OLED, mock GPIO, a recorded camera, no seat panel).
It must say READY=1, feed the watchdog periodically, and on SIGTERM stop cleanly: exit 0, STOPPING=1,
the journal whole, the stopped screen on the OLED."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageChops

from device import cli
from device.journal import Journal
from device.lifecycle import stopped_screen
from device.screens import render
from tests.device.notify_standin import NotifySocket

NOT_BUILT = "run" in getattr(cli, "LATER", {})
pytestmark = pytest.mark.skipif(NOT_BUILT, reason="tablescore run is not built yet")

WATCHDOG_SECONDS = 2.0
"""The stand-in watchdog: systemd would kill a service silent for this long."""


def command() -> list[str]:
    """The console script the unit's ExecStart runs, from the environment running the tests."""
    script = Path(sys.executable).parent / "tablescore"
    return [str(script)] if script.exists() else [sys.executable, "-m", "device.cli"]


@pytest.fixture(name="listener")
def listener_fixture() -> Iterator[NotifySocket]:
    with NotifySocket() as listener:
        yield listener


def configuration(folder: Path) -> Path:
    frames = folder / "frames"
    frames.mkdir()
    table = np.full((180, 320, 3), (40, 110, 30), np.uint8)  # an empty green table, 60 s of it at 10 fps
    for n in range(600):
        cv2.imwrite(str(frames / f"{n:04}.png"), table)
    path = folder / "tablescore.toml"
    path.write_text(f"""
[table]
game = "cribbage"
players = ["Ann", "Bob"]
[display]
kind = "emulator"
folder = "{folder / 'oled'}"
[camera]
source = "{frames}"
width = 320
height = 180
[panel]
port = "none"
[journal]
path = "{folder / 'journal.db'}"
""")
    return path


def run_as_systemd_would(listener: NotifySocket, *args: str) -> None:
    """Run ``tablescore ARGS`` under the stand-in notify socket with a watchdog: it must say READY=1, feed
    the watchdog for three watchdog periods, and on SIGTERM exit 0 with STOPPING=1 last."""
    folder = listener.folder
    env = {**os.environ, "NOTIFY_SOCKET": listener.address,
           "WATCHDOG_USEC": str(int(WATCHDOG_SECONDS * 1_000_000)), "GPIOZERO_PIN_FACTORY": "mock"}
    env.pop("WATCHDOG_PID", None)
    child = subprocess.Popen([*command(), *args], cwd=folder, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    received: list[tuple[float, str]] = []

    def take(until: float, wanted: str | None = None) -> None:
        """Collect notifications until the time ``until`` (monotonic), or until ``wanted`` arrives."""
        while (left := until - time.monotonic()) > 0:
            listener.socket.settimeout(left)
            try:
                message = listener.socket.recv(4096).decode()
            except TimeoutError:
                return
            received.extend((time.monotonic(), line) for line in message.splitlines())
            if wanted in message.splitlines():
                return

    try:
        take(time.monotonic() + 90, "READY=1")
        assert "READY=1" in [line for _, line in received], f"no READY=1 (exit {child.poll()})"
        ready_at = time.monotonic()
        take(ready_at + 3 * WATCHDOG_SECONDS)
        assert child.poll() is None, f"tablescore {args[0]} stopped by itself"
        child.send_signal(signal.SIGTERM)
        status = child.wait(timeout=15)  # TimeoutStopSec= of the unit
        take(time.monotonic() + 0.5, "STOPPING=1")
    finally:
        child.kill()
        output = child.communicate()[0]
    assert status == 0, output
    lines = [line for _, line in received]
    pings = [at for at, line in received if line == "WATCHDOG=1" and at >= ready_at]
    assert len(pings) >= 3, lines
    gaps = np.diff([ready_at, *pings])
    assert gaps.max() < WATCHDOG_SECONDS, f"the watchdog went unfed for {gaps.max():.2f} s"
    assert lines[-1] == "STOPPING=1"


def test_run_under_systemd_notify_and_watchdog(listener: NotifySocket) -> None:
    folder = listener.folder
    run_as_systemd_would(listener, "run", "--config", str(configuration(folder)))
    with Journal(folder / "journal.db") as journal:  # opens only a whole, undamaged journal
        assert journal.current_game() is not None
    frames = sorted((folder / "oled").glob("*.png"))
    last = Image.open(frames[-1]).convert("L")
    assert ImageChops.difference(last, render(stopped_screen()).convert("L")).getbbox() is None
