"""The kiosk unit's command, `tablescore demo`, as systemd runs it: under a stand-in notify socket with a
watchdog, on a configuration of stand-ins (emulated OLED, mock GPIO, no seat panel). It must say READY=1,
feed the watchdog while it plays the recordings at the camera's pace, and on SIGTERM stop cleanly: exit 0,
STOPPING=1 last, the stopped screen on the OLED, nothing in the configured journal."""

from __future__ import annotations

from PIL import Image, ImageChops

from device.lifecycle import stopped_screen
from device.screens import render
from tests.device.notify_standin import NotifySocket
from tests.systemd.test_service import run_as_systemd_would


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
        run_as_systemd_would(listener, "demo", "--config", str(config))
        frames = sorted((folder / "oled").glob("*.png"))
        assert len(frames) >= 3  # the first recording's title, then its screens
        last = Image.open(frames[-1]).convert("L")
        assert ImageChops.difference(last, render(stopped_screen()).convert("L")).getbbox() is None
        assert not (folder / "journal.db").exists()  # the demo's games go to a scratch journal
