"""A game of Cribbage as a table scores it: ``scoring.cribbage_game`` with what the table leaves unsaid.

At a table the discards go in face down, a player who cannot lay lays nothing, and the deal passes left
by itself. So a ``Progress`` takes the game's events as a table confirms them and fills in the rest:
``Starter`` puts in the discards still to come, face down; ``Lay`` first says go for each seat whose turn
came before it (a player must lay when able), so the goes, their points and the resets at 31 follow from
the order of the cards; ``ShowCrib``, once the crib is counted, deals the next hand from the left. It keeps
what the latest event pegged and how many hands have been dealt.

>>> from scoring.cards import Card
>>> progress = Progress.start(Settings(2)).apply(Deal(1)).apply(Starter(Card.parse("JD")))
>>> progress.game.scores, [str(peg) for peg in progress.pegs]
((0, 2), ['seat 1: his heels 2'])
>>> progress = progress.apply(Lay(0, Card.parse("KS"))).apply(decode("lay", {"seat": 1, "card": "5H"}))
>>> progress.game.count, [str(peg) for peg in progress.pegs]
(15, ['seat 1: play 2 (fifteen two: K♠ 5♥)'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from scoring.cribbage import HAND_SIZE, value
from scoring.cribbage_game import (
    Deal,
    Discard,
    Game,
    GameError,
    Go,
    Lay,
    Peg,
    Phase,
    Settings,
    ShowCrib,
    ShowHand,
    Starter,
)
from scoring.cribbage_game import Event as GameEvent
from scoring.requests import card_field, cards_of, check_fields, int_field

__all__ = ["Event", "Progress", "decode"]

Event = Deal | Starter | Lay | Go | ShowHand | ShowCrib
"""The events a table confirms."""

_FIELDS = {"deal": ("dealer",), "starter": ("card",), "lay": ("seat", "card"), "go": ("seat",), "show": ("seat",),
           "crib": ("cards",)}
"""Each event's data fields, by its kind."""


def decode(kind: str, data: Mapping[str, Any]) -> Event:
    """The event a journal's record holds; ``RuleError`` for one that cannot be (seats are checked against
    the game when it is applied).

    >>> decode("crib", {"cards": ["5H"]}), decode("deal", {"dealer": 1}).record()
    (ShowCrib(cards=(Card.parse('5H'),)), ('deal', {'dealer': 1}))
    """
    if kind not in _FIELDS:
        raise GameError(f"unknown Cribbage event {kind!r}")
    check_fields(data, _FIELDS[kind])
    if kind == "deal":
        return Deal(int_field(data, "dealer", 0, 3))
    if kind == "starter":
        return Starter(card_field(data, "card"))
    if kind == "lay":
        return Lay(int_field(data, "seat", 0, 3), card_field(data, "card"))
    if kind == "crib":
        return ShowCrib(tuple(cards_of(data["cards"], "cards")))
    seat = int_field(data, "seat", 0, 3)
    return Go(seat) if kind == "go" else ShowHand(seat)


@dataclass(frozen=True)
class Progress:
    """The game, what the latest event pegged, and how many hands have been dealt."""

    game: Game
    pegs: tuple[Peg, ...] = ()
    hands: int = 0

    @classmethod
    def start(cls, settings: Settings) -> Progress:
        """A game not yet dealt."""
        return cls(Game(settings))

    def apply(self, event: Event) -> Progress:
        """The game after ``event`` and what the table left unsaid before it; ``GameError`` (saying why) if
        it cannot happen."""
        game = self.game
        if isinstance(event, Lay):
            return self._lay(event)
        events: list[GameEvent] = [event]
        if isinstance(event, Starter) and game.phase is Phase.DISCARD:
            events[:0] = [Discard(seat) for seat in range(game.settings.players) if seat not in game.discarded]
        after, pegs = _run(game, events)
        if isinstance(event, ShowCrib) and after.phase is Phase.DEAL:  # the deal passes to the left by itself
            assert game.dealer is not None
            after = after.apply(Deal((game.dealer + 1) % game.settings.players))
        return Progress(after, pegs, self.hands + (after.phase is Phase.DISCARD and game.phase is not Phase.DISCARD))

    def _lay(self, event: Lay) -> Progress:
        """Lay a card, after the goes of the seats whose turn came first."""
        game, pegs, seat, card = self.game, list[Peg](), event.seat, event.card
        game.check_seat(seat)
        if game.phase is Phase.PLAY:
            if len(game.laid[seat]) >= HAND_SIZE:
                raise GameError(f"seat {seat} has laid all {HAND_SIZE} cards: {card.symbol} is another seat's")
            while game.phase is Phase.PLAY and not (game.turn == seat and game.count + value(card) <= 31):
                game = game.apply(Go(game.turn))
                pegs += game.last
        game = game.apply(event)
        return replace(self, game=game, pegs=(*pegs, *game.last))


def _run(game: Game, events: Iterable[GameEvent]) -> tuple[Game, tuple[Peg, ...]]:
    pegs: list[Peg] = []
    for event in events:
        game = game.apply(event)
        pegs += game.last
    return game, tuple(pegs)

