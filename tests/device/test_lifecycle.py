"""A clean stop: SIGTERM lets the loop finish its step, the journal stays whole, the OLED says stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from device.display import Display, open_device
from device.journal import Journal
from device.lifecycle import Lifecycle, stopped_screen
from device.notify import Notifier
from device.screens import render
from tests.device.notify_standin import NotifySocket

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(name="listener")
def listener_fixture() -> Iterator[NotifySocket]:
    with NotifySocket() as listener:
        yield listener


def same_image(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a.convert("L"), b.convert("L")).getbbox() is None


def test_sigterm_mid_step_finishes_the_step(listener: NotifySocket) -> None:
    display = Display(open_device("dummy"))
    done: list[tuple[int, str]] = []
    before = signal.getsignal(signal.SIGTERM)
    with Lifecycle(Notifier({"NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "60000000"}), display) as life:
        life.ready("tiny loop")
        step = 0
        while life.alive():
            step += 1
            done.append((step, "begin"))
            if step == 3:
                os.kill(os.getpid(), signal.SIGTERM)  # arrives in the middle of step 3
            done.append((step, "end"))
    assert done == [(n, half) for n in (1, 2, 3) for half in ("begin", "end")]
    assert life.reason == "SIGTERM"
    assert signal.getsignal(signal.SIGTERM) is before
    assert listener.received() == ["READY=1", "STATUS=tiny loop", "WATCHDOG=1", "STOPPING=1"]
    assert same_image(display.device.image, render(stopped_screen()))
    display.device.cleanup()  # what luma does when the process exits: the stopped screen stays up
    assert same_image(display.device.image, render(stopped_screen()))


def test_wait_wakes_at_once_on_sigint() -> None:
    with Lifecycle(Notifier({})) as life:
        timer = threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        started = time.monotonic()
        assert not life.wait(60)
        timer.join()
    assert time.monotonic() - started < 30  # woken by the signal, long before the 60 s were up
    assert life.reason == "SIGINT" and not life.alive()


def test_wait_feeds_the_watchdog(listener: NotifySocket) -> None:
    with Lifecycle(Notifier({"NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "200000"})) as life:
        assert life.wait(0.3)
    assert listener.received().count("WATCHDOG=1") >= 2


def test_a_second_signal_stops_at_once() -> None:
    display = Display(open_device("dummy"))
    with pytest.raises(KeyboardInterrupt), Lifecycle(Notifier({}), display) as life:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # the step hangs; whoever stops us insists
    assert life.reason == "SIGTERM"
    assert same_image(display.device.image, render(stopped_screen()))


def test_an_error_shows_on_the_stopped_screen(listener: NotifySocket) -> None:
    display = Display(open_device("dummy"))
    with pytest.raises(OSError), Lifecycle(Notifier({"NOTIFY_SOCKET": listener.address}), display):
        raise OSError("camera gone")
    assert listener.received() == ["STOPPING=1", "STATUS=stopped: camera gone"]
    assert same_image(display.device.image, render(stopped_screen(OSError("camera gone"))))


TINY_LOOP = """
import sys, time
from device.display import Display, open_device
from device.journal import Journal
from device.lifecycle import Lifecycle

folder = sys.argv[1]
with Journal(folder + "/journal.db") as journal, \\
        Lifecycle(display=Display(open_device("emulator", folder=folder + "/oled"))) as life:
    game = journal.start_game("tally", ["Ann", "Bob"], {})
    life.ready()
    step = 0
    while life.alive():
        step += 1
        journal.append(game, "begin", {"step": step})
        print("mid-step", step, flush=True)
        time.sleep(0.3)                       # a slow step: the signal arrives here
        journal.append(game, "end", {"step": step})
        life.wait(0.05)
"""


def test_a_service_loop_stops_cleanly_on_sigterm(listener: NotifySocket) -> None:
    folder = listener.folder
    env = {**os.environ, "NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "1000000", "PYTHONPATH": str(ROOT)}
    env.pop("WATCHDOG_PID", None)
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(TINY_LOOP), str(folder)], env=env,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        while (line := child.stdout.readline()) != "mid-step 2\n":
            assert line, "the loop ended before its second step"
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()
        child.wait()
    with Journal(folder / "journal.db") as journal:
        game = journal.current_game()
        assert game is not None
        events = [(event.kind, event.data["step"]) for event in journal.events(game.id)]
    assert events == [("begin", 1), ("end", 1), ("begin", 2), ("end", 2)]
    messages = listener.received()
    assert messages[0] == "READY=1" and messages[-1] == "STOPPING=1" and "WATCHDOG=1" in messages
    frames = sorted((folder / "oled").glob("*.png"))
    assert same_image(Image.open(frames[-1]), render(stopped_screen()))
