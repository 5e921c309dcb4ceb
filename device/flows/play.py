"""One table's play: a game flow and its session, between the tracker and buttons and the screen.

``Play`` feeds the tracker's events to the flow, turns presses into confirmations (committed to the
journal before the screen shows them), takes OK held (or a panel's Confirm held) as undo, and shows a
refused confirmation's reason on the screen. When the game is over, OK records its result and starts the
next game with the same players and settings.

>>> import pathlib, tempfile
>>> from device.buttons import Press
>>> from device.flows.flow import Flow, Option, Prompt
>>> from device.journal import Journal
>>> class Tally(Flow[int]):
...     name = "tally"
...     def start(self, players, settings): return 0
...     def apply(self, state, kind, data):
...         if state + data["n"] > 3: raise ValueError("3 is the most")
...         return state + data["n"]
...     def prompt(self, state): return Prompt("Tally", str(state), options=(Option("add 2", "add", {"n": 2}),))
>>> journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "j.db")
>>> play = Play(journal, Tally(["Ann", "Bob"], {}))
>>> play.press(Press("ok", held=False)); play.press(Press("ok", held=False)); play.screen().lines
('OK: add 2', '! 3 is the most')
>>> play.press(Press("ok", held=True)); play.state
0

A long screen is paged, each page headed by what OK would confirm; NEXT turns the pages, then (on the
last) moves to the next option:

>>> class Long(Tally):
...     def prompt(self, state):
...         return Prompt("Long", lines=tuple(f"line {n}" for n in range(9)),
...                       options=(Option("add 1", "add", {"n": 1}), Option("add 2", "add", {"n": 2})))
>>> play = Play(Journal(pathlib.Path(tempfile.mkdtemp()) / "j.db"), Long(["Ann", "Bob"], {}))
>>> play.view().footer, play.press(Press("next", held=False)), play.view().footer, play.view().lines[:2]
('1/2', None, '2/2', ('OK: add 1', 'line 5'))
>>> play.press(Press("next", held=False)); play.view().footer, play.view().choice, play.view().lines[0]
('2/2', '2/2', 'OK: add 2')
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Generic

from device.buttons import Press
from device.flows.flow import Flow, Input, State
from device.journal import Journal, JournalError
from device.panel import PanelEvent
from device.screens import Screen
from device.session import Session
from scoring.cards import Card
from vision.tracker import CardEvent

log = logging.getLogger(__name__)


class Play(Generic[State]):
    """A game in progress at the table: resumed from the journal if one was left unfinished."""

    def __init__(self, journal: Journal, flow: Flow[State]) -> None:
        self.journal, self.flow = journal, flow
        self.session: Session[State] = Session.resume_or_start(journal, flow, flow.name, flow.players,
                                                               flow.settings)
        flow.note(self.state)

    @property
    def state(self) -> State:
        """The confirmed state."""
        return self.session.state

    def see(self, events: Iterable[CardEvent]) -> None:
        """Cards that appeared on or left the table."""
        self.flow.table.see(events)

    def see_dice(self, faces: Sequence[Card | None]) -> None:
        """The dice lying still in the tray."""
        self.flow.table.see_dice(faces)

    def press(self, pressed: Input) -> None:
        """A button pressed: undo, a move of the selection, or a confirmation."""
        flow = self.flow
        undo = pressed.kind == "hold" if isinstance(pressed, PanelEvent) and pressed.button == "confirm" else (
            isinstance(pressed, Press) and pressed.button == "ok" and pressed.held)
        try:
            if undo:
                flow.note(self.session.undo())
                flow.afresh()
                return
            result = flow.result(self.state)
            if result is not None and _is_ok(pressed):
                self.session.finish(result)
                self.session = Session(self.journal, flow, self.journal.start_game(flow.name, flow.players,
                                                                                    flow.settings))
                flow.begin(self.state)
                return
            proposal = flow.press(self.state, pressed)
            if proposal is not None:
                flow.note(self.session.confirm(*proposal))
                flow.afresh()
        except ValueError as error:
            flow.error = flow.explain(error)
        except JournalError as error:  # nothing was confirmed: the same press can be made again
            log.error("not saved: %s", error)
            flow.error = error.brief

    def screen(self) -> Screen:
        """What the game shows now, all of it (``view`` is the page on the OLED)."""
        return self.flow.screen(self.state)

    def view(self) -> Screen:
        """The page of the screen the OLED shows: the first, or the one NEXT and BACK turned to."""
        return self.flow.view(self.state)


def _is_ok(pressed: Input) -> bool:
    if isinstance(pressed, PanelEvent):
        return pressed.button == "confirm" and pressed.kind == "press"
    return pressed.button == "ok" and not pressed.held
