"""A game of Barbu as it is played: the 28-hand ``Game`` and the hand in progress (its contract, trump,
doubling and the cards played or laid out), moved on by typed events.

A ``Progress`` is immutable; ``progress.apply(event)`` returns it after the event, or raises
``BarbuError`` saying why the event cannot happen. The events, in the order of a hand:

- ``DealerChosen(seat)``: who deals (and so declares) first, once a game;
- ``Declared(contract, trump, start)``: the declarer's contract, with the trump suit for Trumps or the
  starting rank for Dominoes;
- ``Doubled(by, on)`` and ``Redoubled(by, on)`` (``on``, the declarer if None, redoubles ``by``, who
  doubled them), before the first card;
- ``TrickPlayed(cards)``: four cards in order of play (the leader's first); the 13th trick scores the
  hand;
- ``Laid(cards)``: Dominoes cards laid, each the turn of the seat to play; ``Passed(seat, cards)``: after
  the cards laid before it, ``seat`` cannot lay. The last card scores the hand.

>>> progress = Progress().apply(DealerChosen(0)).apply(Declared(Contract.NO_KING))
>>> progress = progress.apply(Doubled(1, 0)).apply(Doubled(3, 2)).apply(Redoubled(3, 2))
>>> progress.contract.title, progress.doubles
('No King of Hearts', (Double(by=1, on=0, redoubled=False), Double(by=3, on=2, redoubled=True)))
>>> progress.apply(Laid(()))
Traceback (most recent call last):
...
scoring.barbu.BarbuError: No King of Hearts is played in tricks
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from scoring.barbu import (
    SEATS,
    STANDARD_RULES,
    TRICKS,
    BarbuError,
    Contract,
    Dominoes,
    Double,
    Hand,
    Rules,
    check_doubles,
    high,
    trick_hand,
    tricks_from_cards,
)
from scoring.barbu_game import Game
from scoring.cards import Card, Rank, Suit
from scoring.events import Record
from scoring.requests import cards_of, check_fields, int_field

__all__ = [
    "DealerChosen", "Declared", "Doubled", "Event", "Laid", "Passed", "Progress", "Redoubled", "TrickPlayed",
    "decode", "laid",
]


@dataclass(frozen=True, slots=True)
class DealerChosen:
    """Who deals (and so declares) first."""

    kind: ClassVar[str] = "dealer"
    seat: int

    def record(self) -> Record:
        return self.kind, {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Declared:
    """The declarer's contract, with its trump suit (Trumps) or starting rank (Dominoes)."""

    kind: ClassVar[str] = "contract"
    contract: Contract
    trump: Suit | None = None
    start: Rank | None = None

    def record(self) -> Record:
        data: dict[str, Any] = {"contract": self.contract.value}
        if self.trump is not None:
            data["trump"] = self.trump.letter
        if self.start is not None:
            data["start"] = self.start.letter
        return self.kind, data


@dataclass(frozen=True, slots=True)
class Doubled:
    """Seat ``by`` doubles seat ``on``."""

    kind: ClassVar[str] = "double"
    by: int
    on: int

    def record(self) -> Record:
        return self.kind, {"by": self.by, "on": self.on}


@dataclass(frozen=True, slots=True)
class Redoubled:
    """Seat ``on`` (the declarer if None) redoubles seat ``by``, who doubled them."""

    kind: ClassVar[str] = "redouble"
    by: int
    on: int | None = None

    def record(self) -> Record:
        return self.kind, {"by": self.by} | ({} if self.on is None else {"on": self.on})


@dataclass(frozen=True, slots=True)
class TrickPlayed:
    """A trick's four cards, in order of play."""

    kind: ClassVar[str] = "trick"
    cards: tuple[Card, ...]

    def record(self) -> Record:
        return self.kind, {"cards": [card.code for card in self.cards]}


@dataclass(frozen=True, slots=True)
class Laid:
    """Dominoes cards laid, each in the turn of the seat to play."""

    kind: ClassVar[str] = "lay"
    cards: tuple[Card, ...]

    def record(self) -> Record:
        return self.kind, {"cards": [card.code for card in self.cards]}


@dataclass(frozen=True, slots=True)
class Passed:
    """After ``cards`` laid, ``seat`` (whose turn it then is) cannot lay."""

    kind: ClassVar[str] = "pass"
    seat: int
    cards: tuple[Card, ...] = ()

    def record(self) -> Record:
        return self.kind, {"seat": self.seat, "cards": [card.code for card in self.cards]}


Event = DealerChosen | Declared | Doubled | Redoubled | TrickPlayed | Laid | Passed
"""Every event of a game of Barbu."""

_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "dealer": (("seat",), ()), "contract": (("contract",), ("trump", "start")), "double": (("by", "on"), ()),
    "redouble": (("by",), ("on",)), "trick": (("cards",), ()), "lay": (("cards",), ()), "pass": (("seat",), ("cards",)),
}
"""Each event's required and optional data fields, by its kind."""


def decode(kind: str, data: Mapping[str, Any]) -> Event:
    """The event a journal's record holds; ``BarbuError`` (or ``RequestError``) for one that cannot be.

    >>> decode("contract", {"contract": "T", "trump": "S"})
    Declared(contract=<Contract.TRUMPS: 'T'>, trump=<Suit.SPADES: 'S'>, start=None)
    >>> decode("pass", {"seat": 4})
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: 'seat' must be a whole number from 0 to 3, not 4
    """
    if kind not in _FIELDS:
        raise BarbuError(f"unknown Barbu event {kind!r}")
    check_fields(data, *_FIELDS[kind])
    if kind == "dealer":
        return DealerChosen(int_field(data, "seat", 0, 3))
    if kind == "contract":
        return Declared(Contract.parse(data["contract"]), Suit.parse(data["trump"]) if "trump" in data else None,
                        Rank.parse(data["start"]) if "start" in data else None)
    if kind == "double":
        return Doubled(int_field(data, "by", 0, 3), int_field(data, "on", 0, 3))
    if kind == "redouble":
        return Redoubled(int_field(data, "by", 0, 3), int_field(data, "on", 0, 3) if "on" in data else None)
    if kind == "trick":
        return TrickPlayed(tuple(cards_of(data["cards"], "cards", 4)))
    if kind == "lay":
        return Laid(tuple(cards_of(data["cards"], "cards")))
    return Passed(int_field(data, "seat", 0, 3), tuple(cards_of(data.get("cards", []), "cards")))


@dataclass(frozen=True)
class Progress:
    """The game (None until the first dealer is chosen), the hand being played, and the last hand."""

    rules: Rules = STANDARD_RULES
    game: Game | None = None
    contract: Contract | None = None
    trump: Suit | None = None
    doubles: tuple[Double, ...] = ()
    played: tuple[Card, ...] = ()
    """The trick contracts' cards in order of play."""
    layout: Dominoes | None = None
    last: Hand | None = None

    @property
    def begun(self) -> bool:
        """Whether the play has begun (and the doubling is over)."""
        return bool(self.played) or self.layout is not None and self.layout.turns > 0

    def redoubles(self) -> list[Double]:
        """The doubles that may still be redoubled: each not yet redoubled, on the declarer or (unless only
        the declarer redoubles) on anyone."""
        declarer = self.game.declarer if self.game else None
        return [d for d in self.doubles
                if not d.redoubled and (d.on == declarer or self.rules.redoubles == "any")]

    def owing(self) -> list[int]:
        """Who must still double the declarer before the play begins."""
        game = self.game
        if self.begun or game is None:
            return []
        return [by for by in game.must_double() if not any(d.by == by and d.on == game.declarer for d in self.doubles)]

    def apply(self, event: Event) -> Progress:
        """The game after ``event``; ``BarbuError`` (saying why) for an event that cannot happen."""
        if isinstance(event, DealerChosen):
            if self.game is not None:
                raise BarbuError("the first dealer is chosen")
            return replace(self, game=Game(event.seat, self.rules))
        game = self.game
        if game is None or game.declarer is None:
            raise BarbuError("choose the first dealer" if game is None else "the game is over")
        declarer = game.declarer
        if isinstance(event, Declared):
            return self._declare(game, declarer, event)
        if self.contract is None:
            raise BarbuError(f"seat {declarer} has not chosen a contract")
        if isinstance(event, Doubled | Redoubled):
            if self.begun:
                raise BarbuError("the doubling is over: the play has begun")
            return replace(self, doubles=self._doubled(declarer, event))
        owing = self.owing()
        if owing:
            raise BarbuError(f"seat {owing[0]} must double seat {declarer} in this hand: they owe "
                             f"{game.owed()[owing[0]]}")
        if isinstance(event, TrickPlayed):
            return self._trick(game, declarer, event.cards)
        if self.layout is None:
            raise BarbuError(f"{self.contract.title} is played in tricks")
        layout = self.layout.play(event.cards)
        if isinstance(event, Passed):
            if event.seat != layout.to_play:
                raise BarbuError(f"it is seat {layout.to_play}'s turn to lay, not seat {event.seat}'s")
            layout = layout.pass_turn()
        if not layout.over:
            return replace(self, layout=layout)
        return self._scored(game, layout.hand(self.doubles, self.rules))

    def _declare(self, game: Game, declarer: int, event: Declared) -> Progress:
        if self.contract is not None:
            raise BarbuError(f"seat {declarer} has chosen {self.contract.title}")
        contract = event.contract
        if contract not in game.contracts_left(declarer):
            raise BarbuError(f"seat {declarer} has already declared {contract.title}")
        if (event.trump is not None) != (contract is Contract.TRUMPS) or \
                (event.start is not None) != (contract is Contract.DOMINOES):
            raise BarbuError("Trumps needs a 'trump' suit, Dominoes a 'start' rank, and nothing else either")
        layout = Dominoes.begin(declarer, event.start) if event.start is not None else None
        return replace(self, contract=contract, trump=event.trump, layout=layout)

    def _doubled(self, declarer: int, event: Doubled | Redoubled) -> tuple[Double, ...]:
        """The doubles after a double or a redouble, checked."""
        doubles, by = self.doubles, event.by
        if isinstance(event, Doubled):
            return check_doubles(declarer, (*doubles, Double(by, event.on)), self.rules)
        on = declarer if event.on is None else event.on
        for n, double in enumerate(doubles):
            if double.by == by and double.on == on and not double.redoubled:
                return check_doubles(declarer, (*doubles[:n], Double(by, on, True), *doubles[n + 1:]), self.rules)
        raise BarbuError(f"seat {on} can redouble only a player who doubled them and is not yet redoubled, "
                         f"not seat {by}")

    def _trick(self, game: Game, declarer: int, cards: tuple[Card, ...]) -> Progress:
        assert self.contract is not None
        if self.layout is not None:
            raise BarbuError("Dominoes is laid out, not played in tricks")
        again = [card.symbol for card in cards if card in self.played]
        if again:
            raise BarbuError(f"{' '.join(again)} played in an earlier trick")
        played = (*self.played, *cards)
        if len(played) < SEATS * TRICKS:
            return replace(self, played=played)
        tricks = tricks_from_cards(declarer, played, self.trump)
        return self._scored(game, trick_hand(self.contract, declarer, tricks, self.doubles, self.trump, self.rules))

    def _scored(self, game: Game, hand: Hand) -> Progress:
        return Progress(self.rules, game.record(hand), last=hand)


def laid(layout: Dominoes) -> set[Card]:
    """The cards on a Dominoes layout.

    >>> layout = Dominoes.begin(0, Rank.JACK).play([Card.parse("JS"), Card.parse("QS")])
    >>> sorted(card.code for card in laid(layout))
    ['JS', 'QS']
    """
    return {card for suit, ends in zip(Suit, layout.layout, strict=True) if ends
            for card in (Card(rank, suit) for rank in Rank) if ends[0] <= high(card.rank) <= ends[1]}
