"""What vision reports about one frame: the cards and dice it saw, where, and how sure it is.

Positions are in image pixels. A sighting whose ``card`` (or ``face``) is None was found but could not
be read surely: it is reported as unknown, never guessed.

>>> from scoring.cards import Card
>>> seen = CardSighting(Card.parse("TH"), (640.0, 360.0), ((600.0, 300.0), (680.0, 300.0),
...                     (680.0, 420.0), (600.0, 420.0)), 0.99)
>>> seen.code, seen.as_json()["center"]
('TH', [640.0, 360.0])
>>> CardSighting(None, (10.0, 10.0), (), 0.4).code
'??'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from scoring.cards import Card

Point = tuple[float, float]

UNKNOWN = "??"
"""The code reported for a card or die face that was found but not read surely."""


@dataclass(frozen=True, slots=True)
class CardSighting:
    """One face-up card seen in one frame."""

    card: Card | None
    center: Point
    outline: tuple[Point, ...]
    confidence: float
    zone: str | None = None
    index_size: float | None = None  # pixels from its index's rank mark to its suit mark, where measured

    @property
    def code(self) -> str:
        """The card's code, or ``??`` when unread."""
        return self.card.code if self.card else UNKNOWN

    def as_json(self) -> dict[str, Any]:
        """The ``tablescore recognize --json`` form of this card (``index_size`` only where measured)."""
        seen = {
            "card": self.code,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline],
            "zone": self.zone,
            "confidence": round(self.confidence, 3),
        }
        if self.index_size is not None:
            seen["index_size"] = round(self.index_size, 1)
        return seen


@dataclass(frozen=True, slots=True)
class DieSighting:
    """One die's top face seen in one frame."""

    face: Card | None
    center: Point
    confidence: float

    @property
    def code(self) -> str:
        """The face's code, or ``??`` when unread."""
        return self.face.code if self.face else UNKNOWN

    def as_json(self) -> dict[str, Any]:
        """The ``tablescore recognize --json`` form of this die."""
        return {
            "face": self.code,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
        }


def same_cards(a: list[CardSighting], b: list[CardSighting], reach: float = 6.0) -> bool:
    """Whether two readings of one frame give the same cards (unknown ones too), each within ``reach``
    pixels of where the other has it.

    >>> ten = CardSighting(Card.parse("TH"), (100.0, 100.0), (), 0.99)
    >>> near, far = CardSighting(ten.card, (104.0, 97.0), (), 0.9), CardSighting(ten.card, (120.0, 100.0), (), 0.9)
    >>> same_cards([ten], [near]), same_cards([ten], [far]), same_cards([ten], [near, near])
    (True, False, False)
    """
    left = list(b)
    for seen in a:
        match = next((other for other in left if other.code == seen.code
                      and math.dist(other.center, seen.center) <= reach), None)
        if match is None:
            return False
        left.remove(match)
    return not left
