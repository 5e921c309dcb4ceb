"""What once ended `tablescore run` with a traceback, over and over under systemd's restarts, now either
keeps the device up with the reason on the OLED, or stops it once (exit status 2, which the unit does not
restart) with the reason on the OLED; the journal is left whole each time.

Every test runs the real command as the service does, on stand-ins: mock GPIO pins, the emulated OLED
(luma.emulator, a PNG a frame), a folder of frames as the camera, SQLite on disk. What the OLED shows is
read back from those PNGs: a line of text is found where the font's pixels for it are drawn.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from device.journal import SET_ASIDE, Journal
from device.screens import GLYPH, draw_text, text_width
from vision.zones import Calibration

START_SECONDS = 90.0
"""How long the command may take to show its first page (imports, the card reader) on a busy machine."""


def command() -> list[str]:
    script = Path(sys.executable).parent / "tablescore"
    return [str(script)] if script.exists() else [sys.executable, "-m", "device.cli"]


def table(folder: Path, *, players: str = '["Ann", "Bob"]', game: str = "cribbage", frame: tuple[int, int] = (320, 180),
          camera: tuple[int, int] = (320, 180), extra: str = "", oled: str = "oled") -> Path:
    """A configuration of stand-ins in ``folder`` (a green, empty table as frames of ``frame`` size, the camera
    set to ``camera``), written to ``folder/tablescore.toml``; the journal is ``folder/journal.db``."""
    frames = folder / "frames"
    if not frames.exists():
        frames.mkdir()
        width, height = frame
        cv2.imwrite(str(frames / "0001.png"), np.full((height, width, 3), (40, 110, 30), np.uint8))
    path = folder / "tablescore.toml"
    path.write_text(f"""{extra}
[table]
game = "{game}"
players = {players}
[display]
kind = "emulator"
folder = "{folder / oled}"
[camera]
source = "{frames}"
width = {camera[0]}
height = {camera[1]}
[panel]
port = "none"
[journal]
path = "{folder / 'journal.db'}"
""", encoding="utf-8")
    return path


def shown(folder: Path, text: str, latest: bool = False) -> bool:
    """Whether any frame the emulated OLED wrote into ``folder`` (or the ``latest``) shows ``text`` on a line
    of its own font."""
    frames = sorted(folder.glob("*.png"))
    return any(drawn(image, text) for png in (frames[-1:] if latest else frames) if (image := whole(png)))


def whole(png: Path) -> Image.Image | None:
    """The frame in ``png``, or None while the emulator is still writing it."""
    try:
        with Image.open(png) as image:
            image.load()
            return image.copy()
    except OSError:
        return None


def drawn(image: Image.Image, text: str) -> bool:
    """Whether ``image`` holds ``text`` drawn white on black (a line), black on white (the title bar), or
    twice as tall (the line saying what OK would confirm)."""
    pixels = np.asarray(image.convert("L")) > 127
    assert text_width(text) <= pixels.shape[1], f"{text!r} is wider than a line: look for a part of it"
    for tall in (1, 2):
        stamp = Image.new("1", (text_width(text), GLYPH * tall), 0)
        draw_text(ImageDraw.Draw(stamp), (0, 0), text, tall=tall)
        pattern = np.asarray(stamp, dtype=bool)
        windows = np.lib.stride_tricks.sliding_window_view(pixels, pattern.shape)
        if ((windows == pattern).all(axis=(2, 3)) | (windows == ~pattern).all(axis=(2, 3))).any():
            return True
    return False


def environment() -> dict[str, str]:
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "TABLESCORE_CONFIG"):
        env.pop(name, None)
    return env


@contextmanager
def device(config: Path, *options: str) -> Iterator[subprocess.Popen[str]]:
    """``tablescore run --config CONFIG OPTIONS`` running (its standard input a pipe); on leaving, stopped
    with SIGTERM, as systemd stops it: it must still be running then, and exit 0."""
    child = subprocess.Popen([*command(), "run", "--config", str(config), *options], cwd=config.parent,
                             env=environment(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    status: int | None = None
    try:
        yield child
        running = child.poll() is None
        if running:
            child.send_signal(signal.SIGTERM)
            status = child.wait(timeout=15)
    finally:
        child.kill()
        output = child.communicate()[0]
    assert running, f"it stopped by itself (exit {child.returncode}): {output}"
    assert status == 0, output


def until_shown(child: subprocess.Popen[str], folder: Path, text: str, latest: bool = False) -> None:
    """Wait for the OLED to show ``text`` (on its ``latest`` frame), the device running all the while."""
    deadline = time.monotonic() + START_SECONDS
    while not (folder.exists() and shown(folder, text, latest)):
        assert child.poll() is None, f"it stopped (exit {child.returncode}): {child.stdout.read() if child.stdout else ''}"
        assert time.monotonic() < deadline, f"the OLED never showed {text!r}"
        time.sleep(0.2)


def refused(config: Path) -> tuple[int, str]:
    """``tablescore run --config CONFIG`` run to its end: the exit status and what it printed on stderr."""
    done = subprocess.run([*command(), "run", "--config", str(config)], cwd=config.parent, env=environment(),
                          capture_output=True, text=True, timeout=START_SECONDS)
    return done.returncode, done.stderr


def events(path: Path) -> list[tuple[int, int, str, dict[str, object]]]:
    """Every game's events in the journal, as (game, seq, kind, data)."""
    with Journal(path) as journal:
        return [(game.id, event.seq, event.kind, event.data) for game in journal.games()
                for event in journal.events(game.id)]


def saved_game(path: Path, game: str, players: list[str], played: list[tuple[str, dict[str, object]]]) -> int:
    with Journal(path) as journal:
        number = journal.start_game(game, players, {})
        for kind, data in played:
            journal.append(number, kind, data)
    return number


# 1. A frame of another shape than the camera was set to.

def test_frames_of_another_shape_are_taken_with_the_default_layout(tmp_path: Path) -> None:
    config = table(tmp_path, frame=(320, 240), camera=(1280, 720))  # a webcam that gives 4:3 when asked 16:9
    with device(config) as child:
        until_shown(child, tmp_path / "oled", "OK: Ann deals")
        time.sleep(1.0)
        assert not shown(tmp_path / "oled", "Camera: retrying")
    with Journal(tmp_path / "journal.db") as journal:
        assert [game.game for game in journal.games()] == ["cribbage"]


def test_frames_of_another_shape_than_the_calibration_are_said_and_retried(tmp_path: Path) -> None:
    zones = tmp_path / "table.toml"
    measured = Calibration.default(2, size=(1280, 720))
    zones.write_text(Calibration(measured.corners, measured.zones, size=(1280, 720)).to_toml())
    config = table(tmp_path, frame=(320, 240), camera=(1280, 720), extra=f'zones = "{zones}"')
    saved_game(tmp_path / "journal.db", "cribbage", ["Ann", "Bob"], [("deal", {"dealer": 1})])
    before = events(tmp_path / "journal.db")
    with device(config) as child:
        until_shown(child, tmp_path / "oled", "the calibration is")
        first = len(list((tmp_path / "oled").glob("*.png")))
        time.sleep(2.5)  # still up, still trying
        assert child.poll() is None
        assert len(list((tmp_path / "oled").glob("*.png"))) > first
    assert events(tmp_path / "journal.db") == before


# 2. A saved game that no longer replays.

def test_a_game_that_no_longer_replays_is_set_aside_and_a_new_one_begins(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    damaged = saved_game(journal, "cribbage", ["Ann", "Bob"], [("deal", {"dealer": 1}), ("deal", {"dealer": 0})])
    before = events(journal)
    with device(table(tmp_path)) as child:
        until_shown(child, tmp_path / "oled", "damaged: set aside")
        until_shown(child, tmp_path / "oled", "OK: Ann deals")
    assert events(journal) == before  # kept, every event
    with Journal(journal) as kept:
        aside, new = kept.games()
        assert aside.id == damaged and aside.finished is not None and SET_ASIDE in (aside.result or {})
        assert kept.current_game() == new and new.players == ["Ann", "Bob"]
    with device(table(tmp_path, oled="oled-again")) as child:  # the next start resumes the new game, quietly
        until_shown(child, tmp_path / "oled-again", "OK: Ann deals")
        assert not shown(tmp_path / "oled-again", "damaged: set aside")
    with Journal(journal) as kept:
        assert len(kept.games()) == 2


# 3. Two devices on one journal.

def test_a_second_device_on_the_same_journal_is_refused_with_one_line(tmp_path: Path) -> None:
    config = table(tmp_path)
    with device(config) as child:
        until_shown(child, tmp_path / "oled", "OK: Ann deals")
        second = table(tmp_path, oled="oled-second")
        status, said = refused(second)
        assert status == 2
        assert said.strip().splitlines() == [said.strip()]
        assert "is in use by another tablescore (process" in said
        assert not list((tmp_path / "oled-second").glob("*.png"))  # the running device's OLED is left alone
        assert child.poll() is None
    with Journal(tmp_path / "journal.db") as journal:
        assert len(journal.games()) == 1


def test_a_device_killed_outright_leaves_its_journal_free_for_the_next(tmp_path: Path) -> None:
    config = table(tmp_path)
    first = subprocess.Popen([*command(), "run", "--config", str(config)], cwd=tmp_path, env=environment(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        until_shown(first, tmp_path / "oled", "OK: Ann deals")
    finally:
        first.kill()  # as a power cut: no clean stop, the lock file left behind
        first.wait()
    assert (tmp_path / "journal.db.lock").exists()
    with device(table(tmp_path, oled="oled-next")) as child:
        until_shown(child, tmp_path / "oled-next", "OK: Ann deals")


# 4. A blank player name. 6. Fatal start-up errors are drawn on the OLED.

def test_a_blank_player_name_is_refused_on_the_oled_and_in_one_line(tmp_path: Path) -> None:
    config = table(tmp_path, game="barbu", players='["", "Bob", "Cy", "Di"]')
    status, said = refused(config)
    assert status == 2
    assert said.strip() == f"tablescore run: {config}: [table] players: player 1's name is blank"
    assert shown(tmp_path / "oled", "Config: [table]") and shown(tmp_path / "oled", "name is blank")
    assert not (tmp_path / "journal.db").exists()


def test_a_bad_setting_is_drawn_on_the_oled_before_exiting(tmp_path: Path) -> None:
    config = table(tmp_path, extra="[games.cribbage]\ntarget = 100")
    status, said = refused(config)
    assert status == 2 and "[games.cribbage] the game is to 121 or 61 points, not 100" in said
    assert shown(tmp_path / "oled", "Config:") and shown(tmp_path / "oled", "[games.cribbage]")


def test_a_damaged_journal_is_drawn_on_the_oled_before_exiting(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    saved_game(journal, "cribbage", ["Ann", "Bob"], [("deal", {"dealer": 1})])
    raw = bytearray(journal.read_bytes())
    raw[4096:4096 + 512] = bytes(range(256)) * 2  # a torn page, as a power cut on an SD card leaves one
    journal.write_bytes(bytes(raw))
    status, said = refused(table(tmp_path))
    assert status == 2 and "is damaged" in said
    assert shown(tmp_path / "oled", "Journal damaged:") and shown(tmp_path / "oled", "see the log")
    assert journal.read_bytes() == bytes(raw)  # left as it is, for repair


# 5. The configuration changed in the middle of a game.

def test_a_game_resumes_with_its_own_players_whatever_the_configuration_says_now(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    played = [("deal", {"dealer": 1})]
    number = saved_game(journal, "cribbage", ["Ann", "Bob"], played)
    before = events(journal)
    with device(table(tmp_path, players='["Bob", "Ann", "Cy"]')) as child:
        until_shown(child, tmp_path / "oled", "resumed as saved:")
        until_shown(child, tmp_path / "oled", "Ann v Bob")
    assert events(journal) == before
    with Journal(journal) as kept:
        assert [game.id for game in kept.games()] == [number] and kept.current_game() == kept.game(number)


def test_changing_the_game_keeps_the_saved_game_for_when_it_is_named_again(tmp_path: Path) -> None:
    journal = tmp_path / "journal.db"
    number = saved_game(journal, "cribbage", ["Ann", "Bob"], [("deal", {"dealer": 1})])
    with device(table(tmp_path, game="gin")) as child:
        until_shown(child, tmp_path / "oled", "game kept: game =")
    with device(table(tmp_path, oled="oled-again")) as child:
        until_shown(child, tmp_path / "oled-again", "turn the starter")  # after the deal: its own next step
    with Journal(journal) as kept:
        assert kept.current_game("cribbage") == kept.game(number)
        assert [(event.kind, event.data) for event in kept.events(number)] == [("deal", {"dealer": 1})]
