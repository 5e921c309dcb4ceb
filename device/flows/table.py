"""What a flow knows of the table: the cards counted in each zone, in the order they arrived, and the dice.

A ``TableView`` folds the tracker's events (``vision.tracker.CardEvent``): a card that appeared is on the
table in its zone until it is removed; a card read late (``??`` then ``TH`` on one track) keeps its place
in the order of play. Zones are named as in ``vision.zones``: ``seat1`` ... ``seat4`` with their rows
``seat1.front`` ..., ``centre``, ``crib``, ``starter``, ``tray``. Flows count seats from 0 (the engines'
seats), so seat 0 is the zone ``seat1``.

>>> from scoring.cards import Card
>>> from vision.observations import CardSighting
>>> from vision.tracker import CardEvent
>>> def event(kind, code, zone, since, track):
...     card = Card.parse(code) if code != "??" else None
...     return CardEvent(kind, CardSighting(card, (0.0, 0.0), (), 1.0, zone), since, since, track)
>>> table = TableView()
>>> table.see([event("appeared", "5H", "seat2", 4, 1), event("appeared", "??", "seat1.back", 2, 2)])
>>> table.see([event("appeared", "KS", "seat1.front", 7, 3)])
>>> [card.code for card in table.cards(seat_zone(0))], table.unread(seat_zone(0)), table.cards("seat2")
(['KS'], 1, (Card.parse('5H'),))
>>> table.see([event("removed", "??", "seat1.back", 2, 2), event("appeared", "TD", "seat1.back", 2, 2)])
>>> [card.code for card in table.cards(seat_zone(0))], [card.code for card in table.cards("seat1.back")]
(['TD', 'KS'], ['TD'])

A new hand sets the cards on the table aside: they no longer count, but cards laid after do.

>>> table.since = table.frame
>>> table.see([event("appeared", "2C", "seat2", 9, 4)])
>>> table.cards(), [p.card.code for p in table.placed("seat2", aside=True)]
((Card.parse('2C'),), ['5H'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.cards import Card
from vision.tracker import CardEvent


def seat_zone(seat: int) -> str:
    """The zone of the engine's ``seat`` (counted from 0).

    >>> seat_zone(0), seat_zone(3)
    ('seat1', 'seat4')
    """
    return f"seat{seat + 1}"


def within(zone: str | None, place: str) -> bool:
    """Whether ``zone`` is ``place`` or one of its parts (``seat1.back`` is within ``seat1``).

    >>> within("seat1.back", "seat1"), within("seat1", "seat1.back"), within("seat10", "seat1")
    (True, False, False)
    """
    return zone is not None and (zone == place or zone.startswith(place + "."))


@dataclass(frozen=True, slots=True)
class Placed:
    """A card counted on the table: ``card`` None when it could not be read."""

    card: Card | None
    zone: str | None
    since: int
    track: int


class TableView:
    """The cards on the table by zone, in arrival order, and the latest still reading of the dice tray."""

    def __init__(self) -> None:
        self._placed: dict[int, Placed] = {}
        self.frame = -1
        """The latest frame the tracker reported on."""
        self.since = -1
        """Cards that arrived in this frame or before are set aside: left from an earlier hand."""
        self.dice: tuple[Card | None, ...] = ()
        """The dice faces last read lying still in the tray (None for a face not read)."""

    def see(self, events: Iterable[CardEvent]) -> None:
        """Take the tracker's events, in the order it gave them."""
        for event in events:
            self.frame = max(self.frame, event.frame)
            if event.kind == "removed":
                self._placed.pop(event.track, None)
            else:
                self._placed[event.track] = Placed(event.card, event.zone, event.since, event.track)

    def see_dice(self, faces: Sequence[Card | None]) -> None:
        """Take a reading of the dice lying still in the tray."""
        self.dice = tuple(faces)

    def placed(self, *places: str, aside: bool = False) -> list[Placed]:
        """The cards within any of ``places`` (every card with none given), in arrival order; with
        ``aside``, the cards set aside instead of those that count."""
        chosen = [p for p in self._placed.values() if (p.since <= self.since) == aside
                  and (not places or any(within(p.zone, place) for place in places))]
        return sorted(chosen, key=lambda p: (p.since, p.track))

    def cards(self, *places: str) -> tuple[Card, ...]:
        """The read cards within any of ``places``, in arrival order."""
        return tuple(p.card for p in self.placed(*places) if p.card is not None)

    def unread(self, *places: str) -> int:
        """How many cards within ``places`` could not be read."""
        return sum(p.card is None for p in self.placed(*places))

