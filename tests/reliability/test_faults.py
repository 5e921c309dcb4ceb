"""Hardware faults in the middle of a game: the camera goes away and comes back, the OLED's I2C
bus fails, the seat panel's Pico is pulled and plugged in again, the disk fills up. Each time the device
keeps running, says what is wrong on the OLED and in the log (one line, not one a frame), and carries on
from where it was once the fault clears: the game then ends exactly as the reference game does, every
event once.

The game is the recorded Cribbage game of ``table_script``, played through the device's loop with real
parts where the fault is: ``tablescore run``'s own camera loop, luma's SSD1306 driver and I2C interface
on a bus that fails as a loose wire does, the seat panel's firmware on a pty (``firmware.rig``), and
SQLite on a small filesystem that really fills up.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from luma.core.interface.serial import i2c
from luma.oled.device import ssd1306

from device import display as display_module
from device import notify, run_command
from device.camera import CameraError
from device.display import Display, Oled, connect, open_device
from device.inputs import Press
from device.journal import Journal
from device.lifecycle import Lifecycle
from device.notify import Notifier
from device.panel import PanelEvent, SeatPanel
from device.screens import Screen, render
from firmware.rig import PanelRig
from tests.device.notify_standin import NotifySocket
from tests.device.panel_waits import WAIT, until
from tests.reliability.table_script import (
    FRAME,
    Device,
    Keeper,
    Push,
    Reference,
    Script,
    ScriptedCamera,
    device,
    digest,
)

FAULT_AT = 20
"""The move (of the recorded game's 133) at which each fault strikes: mid-game, in the second hand."""


def step(run: Device, frames: int = 1) -> Screen:
    for _ in range(frames):
        run.players.frame()
        page = run.loop.step(FRAME)
    return page


def play_to(run: Device, move: int) -> None:
    while run.players.move < move:
        step(run)


def assert_carried_on(run: Device, reference: Reference) -> None:
    """Play on to the end of the game: it must be the reference game, every event once."""
    while not run.players.done:
        step(run)
    first = run.journal.games()[0]
    assert [(e.kind, e.data) for e in run.journal.events(first.id)] == list(reference.events)
    assert first.result == reference.result


def assert_intact(run: Device, reference: Reference, move: int) -> None:
    """The game stands where it stood when the fault struck: journal and state."""
    assert len(run.journal.events(run.play.session.game_id)) == move
    assert digest(run.play.state) == reference.states[move]


def logged(caplog: pytest.LogCaptureFixture, level: int) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.levelno == level]


# The camera


class Cable:
    """The camera on its cable, pulled at a move: reads fail, then so do ``attempts`` tries to open it."""

    def __init__(self, run: Device, display: Display, life: Lifecycle, reference: Reference,
                 at: int, attempts: int = 3) -> None:
        self.run, self.display, self.life, self.reference = run, display, life, reference
        self.camera = ScriptedCamera(run.players)
        self.at, self.attempts = at, attempts
        self.pulled = self.was_pulled = False
        self.tries = 0
        self.seen: list[Screen] = []
        """What the OLED showed at each try while the camera was gone."""
        self.after: list[Screen] = []
        """What it showed at the first frames after."""

    def open(self) -> ScriptedCamera | Cable:
        if self.pulled:
            self.tries += 1
            self.seen.append(self.display.pages[0])
            assert_intact(self.run, self.reference, self.at)  # nothing lost, nothing taken while it is gone
            if self.tries <= self.attempts:
                raise CameraError("the camera 0 cannot be opened (is it plugged in?)")
            self.pulled = False
        return self

    def read(self) -> object:
        if self.run.players.move == self.at and not self.was_pulled:
            self.pulled = self.was_pulled = True
            raise CameraError("the camera 0 gives no frames (unplugged, or the video ended)")
        if self.was_pulled and not self.pulled and len(self.after) < 3:
            self.after.append(self.display.pages[0])
        if self.run.players.done:
            self.life.stop("the game is over")
        return self.camera.read()

    def close(self) -> None:
        pass


def test_the_camera_pulled_mid_game_is_reported_and_reopened(
        tmp_path: Path, recorded: tuple[Script, Reference], caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    script, reference = recorded
    caplog.set_level(logging.INFO)
    monkeypatch.setattr(run_command, "CAMERA_RETRY_SECONDS", 0.01)
    display = Display(open_device("dummy"))
    run = device(script, tmp_path / "journal.db", display)
    with Lifecycle(Notifier(environ={}), display) as life:
        cable = Cable(run, display, life, reference, FAULT_AT)
        run_command._loop(life, run.loop, display, cable.open, 0.0)  # tablescore run's loop, to the game's end
    assert cable.tries == cable.attempts + 1
    assert {page.title for page in cable.seen} == {"Camera: retrying"}
    said = [" ".join(page.lines) for page in cable.seen]
    assert said[0] == "the camera 0 gives no frames (unplugged, or the video ended)"
    assert said[-1] == "the camera 0 cannot be opened (is it plugged in?)"
    assert cable.after[-1].title != "Camera: retrying"  # the game's page is back
    camera_lines = [m for m in logged(caplog, logging.WARNING) + logged(caplog, logging.INFO) if "camera" in m]
    assert camera_lines == ["the camera 0 gives no frames (unplugged, or the video ended)",
                            "the camera works again"]  # one line when it goes, one when it is back
    assert_carried_on(run, reference)


# The OLED


class Bus:
    """An I2C bus (the smbus calls luma makes) to an SSD1306, keeping each whole frame of pixels it carried;
    while ``broken`` every transfer fails as with a loose wire (EREMOTEIO: no acknowledgement). ``lit``
    says whether the OLED is switched on (0xAF) since it last lost power (``power_off``): an SSD1306
    starts dark and must be set up again."""

    def __init__(self, broken: bool = False) -> None:
        self.broken = broken
        self.lit = False
        self.frames: list[bytes] = []
        self.data = bytearray()

    def power_off(self) -> None:
        self.broken, self.lit = True, False

    def write_i2c_block_data(self, address: int, mode: int, data: list[int]) -> None:
        if self.broken:
            raise OSError(errno.EREMOTEIO, os.strerror(errno.EREMOTEIO))
        if mode == 0x40:
            self.data += bytes(data)
            if len(self.data) == 128 * 64 // 8:
                self.frames.append(bytes(self.data))
        else:
            self.data.clear()  # commands: the next frame starts
            for command in data:  # (no parameter luma sends is 0xAE or 0xAF)
                self.lit = {0xAE: False, 0xAF: True}.get(command, self.lit)


def pixels(screen: Screen) -> bytes:
    """The bytes an SSD1306 is sent to show ``screen``."""
    bus = Bus()
    ssd1306(i2c(bus=bus)).display(render(screen))
    return bus.frames[-1]


def test_the_oled_bus_failing_mid_game_is_logged_once_and_the_page_redrawn(
        tmp_path: Path, recorded: tuple[Script, Reference], caplog: pytest.LogCaptureFixture) -> None:
    script, reference = recorded
    caplog.set_level(logging.INFO)
    bus = Bus()
    display = Display(ssd1306(i2c(bus=bus)))
    run = device(script, tmp_path / "journal.db", display)
    play_to(run, FAULT_AT)
    assert bus.frames[-1] == pixels(run.loop.shown)
    bus.broken = True
    drawn = len(bus.frames)
    play_to(run, FAULT_AT + 5)  # the device keeps scoring, with the OLED dark
    assert_intact(run, reference, FAULT_AT + 5)
    assert len(bus.frames) == drawn and display.fault is not None
    assert logged(caplog, logging.ERROR) == [
        "the OLED cannot be written: I2C device not found on address: 0x3C"]
    page = run.loop.step(FRAME)  # a frame that changes nothing: no new page to draw
    bus.broken = False
    assert run.loop.step(FRAME) == page
    assert bus.frames[-1] == pixels(page) and len(bus.frames) == drawn + 1  # redrawn once the bus works
    assert display.fault is None and logged(caplog, logging.INFO)[-1] == "the OLED works again"
    run.loop.step(FRAME)
    assert len(bus.frames) == drawn + 1  # and then only when the page changes
    assert_carried_on(run, reference)


class Clock:
    """Time for the display's retries, moved on by the test."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_an_oled_that_lost_power_is_set_up_again_once_it_answers(
        tmp_path: Path, recorded: tuple[Script, Reference], caplog: pytest.LogCaptureFixture) -> None:
    script, reference = recorded
    caplog.set_level(logging.INFO)
    bus, clock = Bus(), Clock()
    display = Display(Oled("ssd1306", lambda: i2c(bus=bus)), clock)
    run = device(script, tmp_path / "journal.db", display)
    play_to(run, FAULT_AT)
    assert bus.lit and bus.frames[-1] == pixels(run.loop.shown)
    bus.power_off()
    play_to(run, FAULT_AT + 5)  # the device keeps scoring, with the OLED dark
    assert_intact(run, reference, FAULT_AT + 5)
    assert logged(caplog, logging.ERROR) == ["the OLED cannot be written: I2C device not found on address: 0x3C"]
    bus.broken = False  # power back: the OLED answers, blank and switched off
    page = run.loop.step(FRAME)
    assert not bus.lit and display.fault is not None  # not asked again within RETRY_SECONDS
    clock.now += display_module.RETRY_SECONDS
    assert run.loop.step(FRAME) == page
    assert bus.lit and bus.frames[-1] == pixels(page)  # set up afresh, the page drawn
    assert display.fault is None and logged(caplog, logging.INFO)[-1] == "the OLED works again"
    assert len(logged(caplog, logging.ERROR)) == 1
    assert_carried_on(run, reference)
    assert bus.frames[-1] == pixels(run.loop.shown)


def test_an_oled_missing_at_the_start_is_logged_and_set_up_once_it_answers(
        tmp_path: Path, recorded: tuple[Script, Reference], caplog: pytest.LogCaptureFixture) -> None:
    script, reference = recorded
    caplog.set_level(logging.INFO)
    bus, clock = Bus(broken=True), Clock()
    display = Display(Oled("ssd1306", lambda: i2c(bus=bus)), clock)
    assert logged(caplog, logging.ERROR) == ["the OLED cannot be set up: I2C device not found on address: 0x3C"]
    run = device(script, tmp_path / "journal.db", display)
    while run.players.move < FAULT_AT:
        step(run)
        clock.now += 0.1  # asked again about once a second, in vain
    assert_intact(run, reference, FAULT_AT)  # scored without it
    assert bus.frames == [] and len(logged(caplog, logging.ERROR)) == 1
    bus.broken = False  # plugged in
    clock.now += display_module.RETRY_SECONDS
    page = run.loop.step(FRAME)
    assert bus.lit and bus.frames[-1] == pixels(page)
    assert logged(caplog, logging.INFO)[-1] == "the OLED works"
    assert_carried_on(run, reference)


def test_tablescore_run_starts_without_its_oled(caplog: pytest.LogCaptureFixture) -> None:
    """``tablescore run`` opens its display with ``connect``: an I2C bus that is not there is a fault, not
    the end of the device."""
    display = connect("ssd1306", port=99)
    assert display.fault is not None and display.oled is not None
    assert logged(caplog, logging.ERROR) == [f"the OLED cannot be set up: {display.fault[len('OLED: '):]}"]
    display.show(Screen("Gin", big="Ann 25"))  # drawn nowhere, no error
    assert display.fault is not None


def test_tablescore_demo_sets_up_its_oled_once_it_answers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, mock_pins: object
) -> None:
    """``tablescore demo`` shows the kiosk on the display ``tablescore run`` opens, with its re-set-up: an
    OLED missing at the start is set up, and the demo drawn on it, once it answers. Its main buttons are on
    gpiozero's mock pins, so gpiozero does not look for a Pi's GPIO (warning as it falls back) and find none."""
    from device.demo import command as demo_command

    caplog.set_level(logging.INFO)
    bus = Bus(broken=True)
    opened: list[Display] = []

    def open_display(config: object) -> Display:
        opened.append(Display(Oled("ssd1306", lambda: i2c(bus=bus))))
        return opened[-1]

    monkeypatch.setattr(run_command, "open_display", open_display)
    monkeypatch.setattr(demo_command, "TITLE_SECONDS", 0.0)
    config = tmp_path / "tablescore.toml"
    journal = tmp_path / "live.db"
    config.write_text(f'[table]\ngame = "gin"\nplayers = ["Eve", "Flo"]\n[panel]\nport = "none"\n'
                      f'[journal]\npath = "{journal}"\n')

    def plug_in_then_stop() -> None:
        until(lambda: bool(opened) and opened[0].fault is not None)
        threading.Event().wait(0.3)  # the demo plays on, its OLED asked about in vain
        bus.broken = False
        until(lambda: bool(bus.frames), timeout=30)
        os.kill(os.getpid(), signal.SIGTERM)

    plugger = threading.Thread(target=plug_in_then_stop)
    plugger.start()
    try:
        status = demo_command.demo(argparse.Namespace(config=config, headless=False, once=False, out=None))
    finally:
        plugger.join()
    assert status == 0
    display = opened[0]
    assert bus.lit and bus.frames[-1] == pixels(display.pages[display.page])
    assert [line for line in logged(caplog, logging.ERROR) if "OLED" in line] == [
        "the OLED cannot be set up: I2C device not found on address: 0x3C"]
    assert "the OLED works" in logged(caplog, logging.INFO)
    assert not [line for line in logged(caplog, logging.WARNING) if "no main buttons" in line]


# The seat panel


class Waiting:
    """The seat panel as the loop sees it, waiting up to WAIT for a press a player has just made (the
    firmware's press takes real time), and not at all otherwise."""

    def __init__(self, link: SeatPanel) -> None:
        self.link = link
        self.expected = 0

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        event = self.link.get(timeout=WAIT if self.expected else 0)
        if event is not None and self.expected:
            self.expected -= 1
        return event

    def status(self) -> object:
        return self.link.status()


def test_the_seat_panel_pulled_mid_game_is_reported_and_taken_up_again(
        tmp_path: Path, recorded: tuple[Script, Reference], caplog: pytest.LogCaptureFixture) -> None:
    script, reference = recorded
    caplog.set_level(logging.INFO)
    display = Display(open_device("dummy"))
    with PanelRig() as rig, SeatPanel(finder=rig.port) as link:
        assert until(lambda: link.status().connected)
        panel = Waiting(link)
        run = device(script, tmp_path / "journal.db", display, panel)
        pressed = main_buttons = run.players.press
        unplugged: list[Screen] = []

        def seat_panel(push: Push) -> None:
            """OK from seat 1's Confirm; NEXT and BACK on the main buttons."""
            if push.button != "ok" or push.held:
                return main_buttons(push)
            if rig.port() is None:  # pressed while the cable is out: the panel keeps it until plugged in
                unplugged.append(display.pages[0])
                rig.press(1, "confirm", ms=40)
                rig.plug()
            else:
                rig.press(1, "confirm", ms=40)
            panel.expected += 1

        play_to(run, FAULT_AT)
        run.players.press = seat_panel
        play_to(run, FAULT_AT + 2)  # confirmed from the seat panel
        rig.unplug()
        assert until(lambda: not link.status().connected)
        assert run.loop.step(FRAME).title == "Panel unplugged"  # a frame with nothing new on the table
        assert display.pages[0].title == "Panel unplugged"
        play_to(run, FAULT_AT + 3)  # the next confirmation is pressed while the cable is out
        play_to(run, FAULT_AT + 5)
        run.players.press = pressed
        assert_intact(run, reference, FAULT_AT + 5)
        assert [page.title for page in unplugged] == ["Panel unplugged"]
        assert link.status().connections == 2 and link.status().events == 5
        assert step(run).title != "Panel unplugged"
        assert_carried_on(run, reference)
    panel_lines = [m for m in logged(caplog, logging.WARNING) + logged(caplog, logging.INFO) if "panel" in m]
    assert panel_lines == ["the seat panel is unplugged: its buttons wait until it is back",
                           "the seat panel is back"]


# The disk


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """An 8 MB filesystem of its own (tmpfs), which can really fill up; mounting needs root."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem to fill needs root")
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Fill the filesystem to the last byte with one file; returns it (delete it to free the space)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as file:
        for size in (1 << 16, 1 << 12, 1 << 8, 1):
            with contextlib.suppress(OSError):
                while True:
                    file.write(b"\0" * size)
    return filler


def test_a_full_disk_takes_no_confirmation_says_so_and_takes_it_once_there_is_room(
        small_disk: Path, recorded: tuple[Script, Reference], caplog: pytest.LogCaptureFixture) -> None:
    script, reference = recorded
    caplog.set_level(logging.INFO)
    keeper = Keeper()
    run = device(script, small_disk / "journal.db", keeper)
    play_to(run, FAULT_AT)
    filler = fill(small_disk)
    while run.play.flow.error is None:  # play on to the next confirmation: it cannot be written
        page = step(run)
        assert run.players.move == FAULT_AT
    assert_intact(run, reference, FAULT_AT)
    assert page.lines[0].startswith("OK: ")  # still offered, with why it was not taken:
    assert " ".join(page.lines[1:3]) == "! the disk is full: not saved"
    assert keeper.shown[-1] == page
    assert logged(caplog, logging.ERROR) == [f"not saved: the disk is full (journal {small_disk / 'journal.db'})"]
    assert script.moves[FAULT_AT][-1] == Push("ok")
    filler.unlink()  # room again: the same confirmation, pressed again, is taken
    run.stand_in.presses.append(Press("ok", held=False))
    run.loop.step(FRAME)
    assert run.play.flow.error is None
    assert_intact(run, reference, FAULT_AT + 1)
    assert_carried_on(run, reference)


def test_a_full_disk_at_the_start_is_named_and_the_journal_opened_once_there_is_room(
        small_disk: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """In WAL mode the journal cannot even be opened without room for its side files ("disk I/O error").
    ``tablescore run`` stays up (READY, the watchdog fed), says so on the OLED and in the log, and opens the
    journal once there is room, the game in progress resumed."""
    caplog.set_level(logging.INFO)
    path = small_disk / "journal.db"
    with Journal(path) as journal:
        journal.append(journal.start_game("cribbage", ["Ann", "Bob"], {}), "deal", {"dealer": 0})
    filler = fill(small_disk)
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(30):
        cv2.imwrite(str(frames / f"{n:03}.png"), np.full((180, 320, 3), (40, 110, 30), np.uint8))
    config = tmp_path / "tablescore.toml"
    config.write_text(f'[table]\ngame = "cribbage"\nplayers = ["Ann", "Bob"]\n[display]\nkind = "dummy"\n'
                      f'[camera]\nsource = "{frames}"\nwidth = 320\nheight = 180\n[panel]\nport = "none"\n'
                      f'[journal]\npath = "{path}"\n')
    displays: list[Display] = []

    def open_display(config: object) -> Display:
        displays.append(connect("dummy"))
        return displays[0]

    monkeypatch.setattr(run_command, "open_display", open_display)
    monkeypatch.setattr(run_command, "JOURNAL_RETRY_SECONDS", 0.05)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    seen: list[Screen] = []
    with NotifySocket() as listener:
        monkeypatch.setenv("NOTIFY_SOCKET", listener.address)
        monkeypatch.setattr(notify, "_notifier", None)  # the process's notifier is made afresh from this socket

        ended = threading.Event()

        def at_the_table() -> None:
            """Wait for the OLED to say what is wrong, make room, wait for the journal, stop the device."""
            try:
                if until(lambda: ended.is_set() or bool(displays and displays[0].pages
                                                        and displays[0].pages[0].title == "Journal: retrying"), timeout=60):
                    seen.append(displays[0].pages[0])
                    filler.unlink()
                    until(lambda: any("room again" in r.getMessage() for r in list(caplog.records)), timeout=60)
            finally:
                os.kill(os.getpid(), signal.SIGTERM)

        previous = signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a SIGTERM after run has ended does nothing
        helper = threading.Thread(target=at_the_table)
        helper.start()
        try:
            status = run_command.run(argparse.Namespace(config=config, keys=False))
        finally:
            ended.set()
            helper.join()
            signal.signal(signal.SIGTERM, previous)
        notified = listener.received()
    assert status == 0
    assert [(page.title, " ".join(page.lines)) for page in seen] == [
        ("Journal: retrying", "the disk is full: no room to open the journal")]
    assert notified[:2] == ["READY=1", "STATUS=waiting for room: the disk is full"]
    assert logged(caplog, logging.ERROR) == [
        f"the disk is full: the journal {path} cannot be opened (disk I/O error): waiting for room"]
    assert "there is room again: the journal is open" in logged(caplog, logging.INFO)
    with Journal(path) as journal:
        game = journal.current_game()
        assert game is not None and [e.kind for e in journal.events(game.id)] == ["deal"]
