"""The kiosk unit's command, `tablescore demo`, as systemd runs it: under a stand-in notify socket with a
watchdog, on a configuration of stand-ins (emulated OLED, mock GPIO, no seat panel). It must say READY=1,
feed the watchdog while it plays the recordings at the camera's pace, and on SIGTERM stop cleanly: exit 0,
STOPPING=1 last, the stopped screen on the OLED."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops

from device.lifecycle import stopped_screen
from device.screens import render
from tests.device.notify_standin import NotifySocket
from tests.systemd.test_service import WATCHDOG_SECONDS, command


def test_the_demo_under_systemd_notify_and_watchdog() -> None:
    with NotifySocket() as listener:
        folder = listener.folder
        config = folder / "tablescore.toml"
        config.write_text(f"""
[display]
kind = "emulator"
folder = "{folder / 'oled'}"
[panel]
port = "none"
[journal]
path = "{folder / 'journal.db'}"
""")
        env = {**os.environ, "NOTIFY_SOCKET": listener.address, "GPIOZERO_PIN_FACTORY": "mock",
               "WATCHDOG_USEC": str(int(WATCHDOG_SECONDS * 1_000_000))}
        env.pop("WATCHDOG_PID", None)
        child = subprocess.Popen([*command(), "demo", "--config", str(config)], cwd=folder, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        received: list[tuple[float, str]] = []

        def take(until: float, wanted: str | None = None) -> None:
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
            assert child.poll() is None, "tablescore demo stopped by itself"
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
        assert np.diff([ready_at, *pings]).max() < WATCHDOG_SECONDS
        assert lines[-1] == "STOPPING=1"
        frames = sorted((folder / "oled").glob("*.png"))
        assert len(frames) >= 3  # the title, then the first recording's screens
        last = Image.open(frames[-1]).convert("L")
        assert ImageChops.difference(last, render(stopped_screen()).convert("L")).getbbox() is None
        assert not Path(folder / "journal.db").exists()  # the demo's games go to a scratch journal
