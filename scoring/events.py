"""What every game's events share: an event is a frozen dataclass that the game's state applies, and a
journal keeps it as a ``Record``, its kind and JSON-shaped data, that the game's ``decode`` reads back.

>>> from scoring.barbu_hand import Doubled, decode
>>> Doubled(by=1, on=0).record()
('double', {'by': 1, 'on': 0})
>>> decode(*Doubled(by=1, on=0).record())
Doubled(by=1, on=0)
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["Event", "Record"]

Record = tuple[str, dict[str, Any]]
"""An event as a journal stores it: its kind and its data, a JSON object."""


class Event(Protocol):
    """A confirmed event of some game."""

    def record(self) -> Record:
        """The event as the journal stores it."""
        ...
