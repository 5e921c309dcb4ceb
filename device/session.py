"""A game in progress: its confirmed events in the journal, folded into the game's state.

A game's ``Fold`` says how to start a state, apply one confirmed event (``scoring.events.Event``) to it,
and read an event back from the journal's record of it. A ``Session`` checks each event against the state
first (an impossible event is refused and nothing is stored), commits its record to the journal, and only
then moves to the new state, so what the screen shows is always on disk. An undo is a record too;
replaying the journal (after a power cut) rebuilds exactly the same state.

>>> import tempfile, pathlib
>>> from dataclasses import dataclass
>>> from device.journal import Journal
>>> from scoring.errors import RuleError
>>> @dataclass(frozen=True)
... class Scored:
...     seat: int
...     points: int
...     def record(self): return "score", {"seat": self.seat, "points": self.points}
>>> class Tally:
...     "Adds points per seat; a toy game for the example."
...     def start(self, players, settings): return tuple(0 for _ in players)
...     def apply(self, state, event):
...         if event.points < 0: raise RuleError("points cannot be negative")
...         return tuple(s + event.points * (seat == event.seat) for seat, s in enumerate(state))
...     def decode(self, kind, data): return Scored(**data)
>>> journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "j.db")
>>> session = Session.resume_or_start(journal, Tally(), "tally", ["Ann", "Bob"], {})
>>> session.confirm(Scored(seat=1, points=5))
(0, 5)
>>> session.confirm(Scored(seat=0, points=-1))
Traceback (most recent call last):
...
scoring.errors.RuleError: points cannot be negative
>>> session.confirm(Scored(seat=0, points=3)); session.undo()
(3, 5)
(0, 5)
>>> Session.resume_or_start(journal, Tally(), "tally", ["Ann", "Bob"], {}).state
(0, 5)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from device.journal import Journal, Recorded
from scoring.events import Event

State = TypeVar("State")

UNDO = "undo"


class Fold(Protocol[State]):
    """How one game's state starts and moves on; ``apply`` raises ``RuleError`` for an impossible event,
    ``decode`` reads an event back from its record."""

    def start(self, players: list[str], settings: dict[str, Any]) -> State: ...

    def apply(self, state: State, event: Event) -> State: ...

    def decode(self, kind: str, data: Mapping[str, Any]) -> Event: ...


def effective(events: Iterable[Recorded]) -> list[Recorded]:
    """The records that stand once each undo has taken back the latest one still standing.

    >>> effective([Recorded(1, "a", {}, 0), Recorded(2, "b", {}, 0), Recorded(3, UNDO, {}, 0), Recorded(4, "c", {}, 0)])
    [Recorded(seq=1, kind='a', data={}, at=0), Recorded(seq=4, kind='c', data={}, at=0)]
    """
    standing: list[Recorded] = []
    for event in events:
        if event.kind != UNDO:
            standing.append(event)
        elif standing:
            standing.pop()
    return standing


class Session(Generic[State]):
    """One game's state, kept equal to the fold of its journaled events."""

    def __init__(self, journal: Journal, fold: Fold[State], game_id: int) -> None:
        self.journal, self.fold, self.game_id = journal, fold, game_id
        record = journal.game(game_id)
        self.players, self.settings = record.players, record.settings
        self.state = self._replay()

    @classmethod
    def resume_or_start(cls, journal: Journal, fold: Fold[State], game: str, players: list[str],
                        settings: dict[str, Any]) -> Session[State]:
        """The newest unfinished ``game`` in the journal, resumed; or a new one."""
        current = journal.current_game(game)
        if current is not None:
            return cls(journal, fold, current.id)
        return cls(journal, fold, journal.start_game(game, players, settings))

    def _replay(self) -> State:
        state = self.fold.start(self.players, self.settings)
        for recorded in effective(self.journal.events(self.game_id)):
            state = self.fold.apply(state, self.fold.decode(recorded.kind, recorded.data))
        return state

    def confirm(self, event: Event) -> State:
        """Check ``event`` against the state, commit its record, and return the new state."""
        state = self.fold.apply(self.state, event)
        self.journal.append(self.game_id, *event.record())
        self.state = state
        return state

    def undo(self) -> State:
        """Take back the latest confirmed event (if any) and return the state before it."""
        if not effective(self.journal.events(self.game_id)):
            return self.state
        self.journal.append(self.game_id, UNDO, {})
        self.state = self._replay()
        return self.state

    def finish(self, result: dict[str, Any]) -> None:
        """Record the game's final result; the next start begins a new game."""
        self.journal.finish(self.game_id, result)
