"""One table's play: a game flow and its session, between the tracker and buttons and the screen.

``Play`` feeds the tracker's events to the flow, turns presses into confirmations (committed to the
journal before the screen shows them), takes OK held (or a panel's Confirm held) as undo, and shows a
refused confirmation's reason on the screen. When the game is over, OK records its result and starts the
next game with the same players and settings.

>>> import pathlib, tempfile
>>> from dataclasses import dataclass
>>> from device.inputs import Button, Press
>>> from device.flows.flow import Flow, Option, Prompt
>>> from device.journal import Journal
>>> from scoring.errors import RuleError
>>> @dataclass(frozen=True)
... class Add:
...     n: int
...     def record(self): return "add", {"n": self.n}
>>> class Tally(Flow[int]):
...     name = "tally"
...     def start(self, players, settings): return 0
...     def apply(self, state, event):
...         if state + event.n > 3: raise RuleError("3 is the most")
...         return state + event.n
...     def decode(self, kind, data): return Add(data["n"])
...     def prompt(self, state): return Prompt("Tally", str(state), options=(Option("add 2", Add(2)),))
>>> journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "j.db")
>>> play = Play(journal, Tally(["Ann", "Bob"], {}))
>>> play.press(Press(Button.OK, held=False)); play.press(Press(Button.OK, held=False)); play.screen().lines
('OK: add 2', '! 3 is the most')
>>> play.press(Press(Button.OK, held=True)); play.state
0

A long screen is paged, each page headed by what OK would confirm; NEXT turns the pages, then (on the
last) moves to the next option:

>>> class Long(Tally):
...     def prompt(self, state):
...         return Prompt("Long", lines=tuple(f"line {n}" for n in range(7)),
...                       options=(Option("add 1", Add(1)), Option("add 2", Add(2))))
>>> play = Play(Journal(pathlib.Path(tempfile.mkdtemp()) / "j.db"), Long(["Ann", "Bob"], {}))
>>> play.view().footer, play.press(Press(Button.NEXT, held=False)), play.view().footer, play.view().lines[:2]
('1/2', None, '2/2', ('OK: add 1', 'line 4'))
>>> play.press(Press(Button.NEXT, held=False)); play.view().footer, play.view().choice, play.view().lines[0]
('2/2', '2/2', 'OK: add 2')
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Generic

from device.flows.flow import Flow, State
from device.inputs import Press
from device.journal import Journal, JournalError
from device.screens import Screen
from device.session import Session
from scoring.cards import Card
from scoring.errors import RuleError
from vision.tracker import CardEvent

log = logging.getLogger(__name__)


class Play(Generic[State]):
    """A game in progress at the table: resumed from the journal if one was left unfinished.

    ``flow`` is the configured game, players and settings. The newest unfinished game of that kind is
    resumed with the players and settings it was started with, whatever the configuration says now (seats
    are never relabelled); the configured ones start the next game. A saved game that no longer replays is
    set aside in the journal (kept, never deleted) and a new game begins. An unfinished game of another
    kind is kept for when the configuration names its game again. Each of these is said on the screen
    until the first confirmation, and in the log.
    """

    def __init__(self, journal: Journal, flow: Flow[State]) -> None:
        self.journal, self.configured, self.flow = journal, flow, flow
        notices: list[str] = []
        other = journal.current_game()
        if other is not None and other.game != flow.name:
            log.warning("the journal keeps an unfinished %s game (%d): set game = %r to resume it",
                        other.game, other.id, other.game)
            notices.append(f"saved {other.game} game kept: game = {other.game} resumes it")
        self.session: Session[State] = self._resume(notices)
        self.flow.note(self.state)
        self.flow.error = "; ".join(notices) or None

    def _resume(self, notices: list[str]) -> Session[State]:
        """The session of the newest unfinished game of the configured kind (its flow made ``self.flow``),
        or of a new one; ``notices`` gets what the players should be told."""
        journal, configured = self.journal, self.configured
        saved = journal.current_game(configured.name)
        if saved is None:
            return Session(journal, configured, journal.start_game(configured.name, configured.players,
                                                                   configured.settings))
        same = (saved.players, saved.settings) == (configured.players, configured.settings)
        flow = configured if same else type(configured)(saved.players, saved.settings)
        try:
            session = Session(journal, flow, saved.id)
        except (ValueError, KeyError, TypeError) as error:  # whatever the journal holds: this game's fault
            journal.set_aside(saved.id, flow.explain(error))
            log.error("the saved %s game (%d) no longer replays (%s): set aside in the journal, a new game "
                      "begins", saved.game, saved.id, flow.explain(error))
            notices.append("saved game damaged: set aside (see the log)")
            return Session(journal, configured, journal.start_game(configured.name, configured.players,
                                                                   configured.settings))
        if not same:
            log.warning("resuming the saved %s game (%d) as it was started: %s %s; the configuration's %s %s "
                        "start the next game", saved.game, saved.id, ", ".join(saved.players), saved.settings,
                        ", ".join(configured.players), configured.settings)
            notices.append(f"resumed as saved: {' v '.join(saved.players)}")
        self.flow = flow
        return session

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

    def press(self, pressed: Press) -> None:
        """A button pressed: undo, a move of the selection, or a confirmation."""
        flow = self.flow
        try:
            if pressed.undo:
                flow.note(self.session.undo())
                flow.afresh()
                return
            result = flow.result(self.state)
            if result is not None and pressed.ok:
                self.session.finish(result)
                self._next_game()
                return
            event = flow.press(self.state, pressed)
            if event is not None:
                flow.note(self.session.confirm(event))
                flow.afresh()
        except RuleError as error:
            flow.error = flow.explain(error)
        except JournalError as error:  # nothing was confirmed: the same press can be made again
            log.error("not saved: %s", error)
            flow.error = error.brief

    def _next_game(self) -> None:
        """A new game with the configured players and settings, on the table as it lies."""
        flow = self.configured
        flow.table = self.flow.table
        self.session = Session(self.journal, flow, self.journal.start_game(flow.name, flow.players,
                                                                            flow.settings))
        self.flow = flow
        flow.begin(self.state)

    def screen(self) -> Screen:
        """What the game shows now, all of it (``view`` is the page on the OLED)."""
        return self.flow.screen(self.state)

    def view(self) -> Screen:
        """The page of the screen the OLED shows: the first, or the one NEXT and BACK turned to."""
        return self.flow.view(self.state)

