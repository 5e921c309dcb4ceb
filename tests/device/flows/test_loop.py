"""The device loop: frames through a (stand-in) card reader, the zones and the tracker into a game;
presses from the buttons and the seat panel; the page on the display only when it changes."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from device.flows.loop import Loop
from device.flows.play import Play
from device.games import flow_for
from device.inputs import Press
from device.journal import Journal
from device.panel import PanelEvent
from device.screens import Screen
from scoring.cards import Card
from vision.observations import CardSighting
from vision.tracker import Settings, Tracker
from vision.zones import Calibration


class Scripted:
    """Stand-ins: a reader that sees the cards it is told, buttons and a panel pressed by the test, and a
    display that keeps what it was shown."""

    def __init__(self) -> None:
        self.cards: dict[str, tuple[float, float]] = {}
        self.presses: list[Press] = []
        self.events: list[PanelEvent] = []
        self.shown: list[Screen] = []

    def read(self, frame: np.ndarray) -> list[CardSighting]:
        return [CardSighting(Card.parse(code), at, (), 0.99) for code, at in self.cards.items()]

    def take(self) -> list[Press]:
        taken, self.presses = self.presses, []
        return taken

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        return self.events.pop(0) if self.events else None

    def show(self, screen: Screen) -> None:
        self.shown.append(screen)


def test_frames_and_presses_play_a_game(tmp_path: Path) -> None:
    stand_in = Scripted()
    play = Play(Journal(tmp_path / "j.db"), flow_for("cribbage", ["Ann", "Bob"], {}))
    loop = Loop(play, stand_in.read, Calibration.default(2, size=(1000, 1000)), stand_in,
                tracker=Tracker(Settings(steady=2, absent=2)), buttons=stand_in, panel=stand_in)
    frame = np.zeros((1000, 1000, 3), np.uint8)
    stand_in.presses = [Press("next", False), Press("ok", False)]
    loop.step(frame)
    assert play.state.game.dealer == 1
    stand_in.cards["JD"] = (850.0, 850.0)  # the starter corner
    for _ in range(3):
        page = loop.step(frame)
    assert page.lines[0] == "OK: starter J♦"
    shown = len(stand_in.shown)
    loop.step(frame)
    assert len(stand_in.shown) == shown  # nothing changed: the display is not written again
    stand_in.events = [PanelEvent(1, "confirm", "press", 1)]
    loop.step(frame)
    assert play.state.game.scores == (0, 2)
    stand_in.cards["5H"] = (500.0, 950.0)  # Ann's seat
    for _ in range(3):
        loop.step(frame)
    stand_in.presses = [Press("ok", False)]
    assert loop.step(frame).title == "Bob to lay"
    assert play.state.game.laid[0] == (Card.parse("5H"),)


def test_the_title_bar_shows_the_club_link(tmp_path: Path) -> None:
    class Link:
        brief = "offline"

    link = Link()
    stand_in = Scripted()
    play = Play(Journal(tmp_path / "j.db"), flow_for("gin", ["Ann", "Bob"], {}))
    loop = Loop(play, stand_in.read, Calibration.default(2, size=(1000, 1000)), stand_in,
                link=type("Brief", (), {"brief": lambda self: link.brief})())
    frame = np.zeros((1000, 1000, 3), np.uint8)
    assert loop.step(frame).title == "Gin Rummy · offline"
    link.brief = "queued 2"
    assert loop.step(frame).title == "Gin Rummy · queued 2"
    assert [screen.title for screen in stand_in.shown] == ["Gin Rummy · offline", "Gin Rummy · queued 2"]
