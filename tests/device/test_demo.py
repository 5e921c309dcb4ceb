"""`tablescore demo`: every recording played through the whole pipeline (real card and dice readers,
zones, tracker, flows, engines, journal, screens) ends at the scores the engines give the same cards;
the headless run writes every OLED frame and exits 0; a press hands over to live play; bad input gets one
clear message.

The recordings depend on the card reader: when a new model misreads them, ``test_each_recording_ends_at_
the_engines_scores`` says which recording, and the demo's message the frame and the card (remake them with
``python -m tools.demo.make``)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from argparse import Namespace
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from device.demo import command
from device.demo.recording import ORDER, RECORDINGS, Playback, Recording, recordings
from device.display import Display, open_device
from device.journal import Journal
from scoring.barbu import Contract, Double, trick_hand, tricks_from_cards
from scoring.barbu_game import Game as BarbuGame
from scoring.cards import Card, Suit, parse_cards
from scoring.cribbage_game import Deal, Discard, Game, Go, Lay, Settings, ShowCrib, ShowHand, Starter
from scoring.gin import GameRules, score_game, settle
from scoring.ofc import Board
from scoring.ofc import settle as settle_ofc
from scoring.pinzique_game import Game as PinziqueGame
from vision.observations import CardSighting


def command_line() -> list[str]:
    script = Path(sys.executable).parent / "tablescore"
    return [str(script)] if script.exists() else [sys.executable, "-m", "device.cli"]


@dataclass
class Run:
    status: int
    out: str
    err: str
    frames: list[Path]


@pytest.fixture(scope="module", name="headless")
def headless_fixture(tmp_path_factory: pytest.TempPathFactory) -> Run:
    """One headless run of the whole demo, shared by the tests that look at what it did."""
    folder = tmp_path_factory.mktemp("demo") / "frames"
    done = subprocess.run([*command_line(), "demo", "--headless", "--once", "--out", str(folder)],
                          capture_output=True, text=True, timeout=600,
                          env={name: value for name, value in os.environ.items() if name != "TABLESCORE_CONFIG"})
    return Run(done.returncode, done.stdout, done.stderr, sorted(folder.glob("*.png")))


# --- what the engines say each recording's game scores ------------------------------------------------

def cribbage_scores(recording: Recording) -> tuple[int, ...]:
    game = Game(Settings(len(recording.players), recording.settings.get("target", 121)))
    make = {"deal": lambda a: Deal(a[0]), "discard": lambda a: Discard(a[0], tuple(parse_cards(" ".join(a[1])))),
            "starter": lambda a: Starter(Card.parse(a[0])), "lay": lambda a: Lay(a[0], Card.parse(a[1])),
            "go": lambda a: Go(a[0]), "show": lambda a: ShowHand(a[0]), "crib": lambda a: ShowCrib()}
    for kind, *args in recording.script["events"]:
        game = game.apply(make[kind](args))
    assert game.outcome is not None, "the recorded Cribbage game does not reach its end"
    return game.scores


def gin_scores(recording: Recording) -> tuple[int, ...]:
    hands: list[tuple[int | None, int]] = []
    for hand in recording.script["hands"]:
        if hand["knocker"] is None:
            hands.append((None, 0))
            continue
        knocker = hand["knocker"]
        settled = settle(parse_cards(" ".join(hand["knocker_cards"])), parse_cards(" ".join(hand["defender_cards"])))
        hands.append((knocker if settled.winner == "knocker" else 1 - knocker, settled.points))
    score = score_game(hands, GameRules(limit=recording.script["limit"]))
    assert score.over, "the recorded Gin Rummy game does not reach its limit"
    return score.totals


def barbu_scores(recording: Recording) -> tuple[int, ...]:
    game = BarbuGame(first_dealer=recording.script["first_dealer"])
    for hand in recording.script["hands"]:
        trump = Suit.parse(hand["trump"]) if hand["trump"] else None
        tricks = tricks_from_cards(hand["declarer"], parse_cards(" ".join(hand["played"])), trump)
        doubles = [Double(by, on, redoubled) for by, on, redoubled in hand["doubles"]]
        game = game.record(trick_hand(Contract.parse(hand["contract"]), hand["declarer"], tricks, doubles, trump))
    return game.totals


def ofc_scores(recording: Recording) -> tuple[int, ...]:
    totals, fantasy = [0] * len(recording.players), [False] * len(recording.players)
    for boards in recording.script["hands"]:
        settled = settle_ofc([Board.parse(board) for board in boards], in_fantasyland=fantasy)
        totals = [total + net for total, net in zip(totals, settled.net, strict=True)]
        fantasy = [cards > 0 for cards in settled.fantasyland_cards]
    return tuple(totals)


def pinzique_scores(recording: Recording) -> tuple[int, ...]:
    game = PinziqueGame.new(list(recording.players), rounds=recording.settings["rounds"])
    for kind, *args in recording.script["turns"]:
        game = game.roll(parse_cards(" ".join(args[0]))) if kind == "roll" else game.stand()
    assert game.over, "the recorded Pinzique game does not reach its end"
    return game.totals


ENGINES = {"cribbage": cribbage_scores, "gin": gin_scores, "barbu": barbu_scores, "ofc": ofc_scores,
           "pinzique": pinzique_scores}


# --- the headless run ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ORDER)
def test_each_recording_ends_at_the_engines_scores(headless: Run, name: str) -> None:
    recording = Recording.load(name)
    expected = ENGINES[recording.game](recording)
    assert tuple(recording.expect) == tuple(expected)
    line = next((line for line in headless.out.splitlines() if line.startswith(f"{name}: ")), None)
    assert line is not None, f"no summary for the {name} recording: {headless.err[-2000:]}"
    body = line.split(" (")[0].split(": ", 1)[1]  # "Ann 60, Bob 61"
    scores = tuple(int(score) for score in re.findall(r"(?:^|, )\w+(?: & \w+)? (-?\d+)", body))
    assert scores == tuple(expected), f"{line}\n{headless.err[-2000:]}"


def test_headless_once_writes_every_oled_frame_and_exits_0(headless: Run) -> None:
    assert headless.status == 0, headless.err[-3000:]
    assert [line.split(":")[0] for line in headless.out.splitlines()] == list(ORDER)
    names = [path.name for path in headless.frames]
    games = [re.fullmatch(r"\d{5}-(\w+)\.png", name)[1] for name in names]  # type: ignore[index]
    assert [int(name[:5]) for name in names] == list(range(1, len(names) + 1))
    assert [game for n, game in enumerate(games) if n == 0 or games[n - 1] != game] == [*ORDER, "end"]
    for name in ORDER:  # every screen counted in the summary was written
        shown = int(re.search(rf"^{name}: .* (\d+) OLED frames", headless.out, re.M)[1])  # type: ignore[index]
        assert games.count(name) == shown + 1  # and the title before it
    with Image.open(headless.frames[0]) as first:
        assert first.size == (128, 64)


def test_the_recordings_are_small() -> None:
    size = sum(path.stat().st_size for path in RECORDINGS.iterdir())
    assert size < 1_000_000
    assert [recording.name for recording in recordings()] == list(ORDER)


def test_a_bad_out_folder_is_named_in_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "file").write_text("")
    assert command.demo(Namespace(config=None, headless=True, once=True, out=tmp_path / "file" / "frames")) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [f"tablescore demo: cannot write the OLED frames into {tmp_path / 'file' / 'frames'}: "
                                "Not a directory"]


# --- a reader gone wrong is named ----------------------------------------------------------------------

def test_a_misread_names_the_recording_frame_and_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in reader that reads the table perfectly except one card: the demo's report names it."""
    played: list[Playback] = []

    class Watched(Playback):
        def __post_init__(self) -> None:
            super().__post_init__()
            played.append(self)

    def reader(frame: Any) -> list[CardSighting]:
        return [CardSighting(None if pose.code == "QS" else Card.parse(pose.code), (pose.x, pose.y), (), 0.99)
                for pose in played[-1].stage.lying()]

    monkeypatch.setattr("device.demo.recording.Playback", Watched)
    monkeypatch.setattr("vision.live.LiveReader", lambda: reader)
    recording = Recording.load("ofc")
    result = command.play(recording, Display(open_device("dummy")), tmp_path / "j.db", lambda: True)
    assert not result.right
    problem = result.problem()
    assert problem.startswith(f"the ofc recording ended at {list(result.scores)}, not the expected {list(recording.expect)}")
    assert re.search(r"the first card misread at a confirmation: frame \d+: Q♠ at \(\d+, \d+\) read as \?\?$", problem)


# --- the kiosk hands over to live play -------------------------------------------------------------------

def test_a_press_hands_over_to_live_play(tmp_path: Path, mock_pins: Any) -> None:
    camera = tmp_path / "camera"
    camera.mkdir()
    Image.new("RGB", (1280, 720), (40, 110, 30)).save(camera / "0001.png")
    config = tmp_path / "tablescore.toml"
    config.write_text(f"""
[table]
game = "gin"
players = ["Eve", "Flo"]
[display]
kind = "emulator"
folder = "{tmp_path / 'oled'}"
[camera]
source = "{camera}"
[panel]
port = "none"
[journal]
path = "{tmp_path / 'live.db'}"
""")

    def press_then_stop() -> None:
        time.sleep(1.0)
        mock_pins.pin(17).drive_low()  # OK, during the first recording's title
        mock_pins.pin(17).drive_high()
        deadline = time.monotonic() + 30
        while not (tmp_path / "live.db").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    presser = threading.Thread(target=press_then_stop)
    presser.start()
    try:
        status = command.demo(Namespace(config=config, headless=False, once=False, out=tmp_path / "frames"))
    finally:
        presser.join()
    assert status == 0
    with Journal(tmp_path / "live.db") as journal:  # live play: the configured game, in the configured journal
        game = journal.current_game()
        assert game is not None and (game.game, game.players) == ("gin", ["Eve", "Flo"])
    frames = sorted(path.name for path in (tmp_path / "frames").glob("*.png"))
    assert frames[0].endswith("-cribbage.png") and frames[-1].endswith("-end.png")
    assert not any(name.endswith(("-gin.png", "-barbu.png")) for name in frames)  # the demo stopped at once


# --- what the Barbu recording shows ---------------------------------------------------------------------

def test_the_barbu_recording_shows_a_defender_redoubling_another(tmp_path: Path) -> None:
    """Any player doubled may redouble: in the recording Di, not the declarer, redoubles Cy; the OLED offers
    it, and once it is confirmed shows the double as redoubled."""
    recording = Recording.load("barbu")
    hand = recording.script["hands"][0]
    assert [2, 3, True] in hand["doubles"] and hand["declarer"] == 1

    class Screens:
        fault = None

        def __init__(self) -> None:
            self.lines: list[str] = []

        def show(self, screen: Any) -> None:
            self.lines += screen.lines

    screens = Screens()
    result = command.play(recording, screens, tmp_path / "j.db", lambda: True)  # type: ignore[arg-type]
    assert result.right, result.problem()
    offered = screens.lines.index("OK: Di redoubles Cy")
    assert "Cy doubled Di," in screens.lines[offered:]
