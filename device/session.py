"""A game in progress: its confirmed events in the journal, folded into the game's state.

A game's ``Rules`` say how to start a state and apply one confirmed event to it. A ``Session`` checks
each event against the state first (an impossible event is refused and nothing is stored), commits it
to the journal, and only then moves to the new state, so what the screen shows is always on disk. An
undo is an event too; replaying the journal (after a power cut) rebuilds exactly the same state.

>>> import tempfile, pathlib
>>> from device.journal import Journal
>>> class Tally:
...     "Adds points per seat; a toy game for the example."
...     def start(self, players, settings): return tuple(0 for _ in players)
...     def apply(self, state, kind, data):
...         if data["points"] < 0: raise ValueError("points cannot be negative")
...         return tuple(s + data["points"] * (seat == data["seat"]) for seat, s in enumerate(state))
>>> journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "j.db")
>>> session = Session.resume_or_start(journal, Tally(), "tally", ["Ann", "Bob"], {})
>>> session.confirm("score", {"seat": 1, "points": 5})
(0, 5)
>>> session.confirm("score", {"seat": 0, "points": -1})
Traceback (most recent call last):
...
ValueError: points cannot be negative
>>> session.confirm("score", {"seat": 0, "points": 3}); session.undo()
(3, 5)
(0, 5)
>>> Session.resume_or_start(journal, Tally(), "tally", ["Ann", "Bob"], {}).state
(0, 5)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Generic, Protocol, TypeVar

from device.journal import Event, Journal

State = TypeVar("State")

UNDO = "undo"


class Rules(Protocol[State]):
    """How one game's state starts and moves on; ``apply`` raises ValueError for an impossible event."""

    def start(self, players: list[str], settings: dict[str, Any]) -> State: ...

    def apply(self, state: State, kind: str, data: dict[str, Any]) -> State: ...


def effective(events: Iterable[Event]) -> list[Event]:
    """The events that stand once each undo has taken back the latest event still standing.

    >>> effective([Event(1, "a", {}, 0), Event(2, "b", {}, 0), Event(3, UNDO, {}, 0), Event(4, "c", {}, 0)])
    [Event(seq=1, kind='a', data={}, at=0), Event(seq=4, kind='c', data={}, at=0)]
    """
    standing: list[Event] = []
    for event in events:
        if event.kind != UNDO:
            standing.append(event)
        elif standing:
            standing.pop()
    return standing


class Session(Generic[State]):
    """One game's state, kept equal to the fold of its journaled events."""

    def __init__(self, journal: Journal, rules: Rules[State], game_id: int) -> None:
        self.journal, self.rules, self.game_id = journal, rules, game_id
        record = journal.game(game_id)
        self.players, self.settings = record.players, record.settings
        self.state = self._replay()

    @classmethod
    def resume_or_start(cls, journal: Journal, rules: Rules[State], game: str, players: list[str],
                        settings: dict[str, Any]) -> Session[State]:
        """The newest unfinished ``game`` in the journal, resumed; or a new one."""
        current = journal.current_game(game)
        if current is not None:
            return cls(journal, rules, current.id)
        return cls(journal, rules, journal.start_game(game, players, settings))

    def _replay(self) -> State:
        state = self.rules.start(self.players, self.settings)
        for event in effective(self.journal.events(self.game_id)):
            state = self.rules.apply(state, event.kind, event.data)
        return state

    def confirm(self, kind: str, data: dict[str, Any]) -> State:
        """Check ``kind``/``data`` against the state, commit it, and return the new state."""
        state = self.rules.apply(self.state, kind, data)
        self.journal.append(self.game_id, kind, data)
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
