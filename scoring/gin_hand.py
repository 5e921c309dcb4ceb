"""A game of Gin Rummy as it is played: the hands scored so far and a knock waiting for the hands to be
shown, moved on by typed events.

A ``Progress`` is immutable; ``progress.apply(event)`` returns it after the event, or raises ``RuleError``
saying why the event cannot happen. The events:

- ``Knocked(seat)``: a player knocks;
- ``Shown(knocker, defender, accept)``: both hands as laid out, settled; for an illegal knock (deadwood
  over the limit) ``accept`` says whether the defender accepted it: a refused knock scores nothing and the
  hand goes on (Hoyle: the knocker shows their cards);
- ``DeadHand()``: a hand that ends with no knock.

>>> from scoring.cards import parse_cards
>>> progress = Progress().apply(Knocked(0))
>>> progress = progress.apply(Shown(tuple(parse_cards("5H 6H 7H 8H 9H KS KH KD 2C 3D")),
...                                 tuple(parse_cards("TH JH 4H 2S 2D 2H 9C 9D 9S QC"))))
>>> knocker, settled = progress.last
>>> progress.score.points, settled.result, [card.code for card in settled.layoffs]
((5, 0), 'knock', ['4H', 'TH', 'JH'])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from scoring.cards import Card
from scoring.errors import RuleError
from scoring.events import Record
from scoring.gin import GameRules, GameScore, Rules, Settlement, score_game, settle
from scoring.requests import cards_of, check_count, check_fields, int_field

__all__ = ["DeadHand", "Event", "Knocked", "Progress", "Shown", "decode"]


@dataclass(frozen=True, slots=True)
class Knocked:
    """A player knocks."""

    kind: ClassVar[str] = "knock"
    seat: int

    def record(self) -> Record:
        return self.kind, {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class Shown:
    """Both hands laid out after a knock; ``accept`` whether the defender accepts an illegal knock."""

    kind: ClassVar[str] = "hand"
    knocker: tuple[Card, ...]
    defender: tuple[Card, ...]
    accept: bool | None = None

    def record(self) -> Record:
        data: dict[str, Any] = {"knocker": [card.code for card in self.knocker],
                                "defender": [card.code for card in self.defender]}
        return self.kind, data | ({} if self.accept is None else {"accept": self.accept})


@dataclass(frozen=True, slots=True)
class DeadHand:
    """A hand that ends with no knock."""

    kind: ClassVar[str] = "dead"

    def record(self) -> Record:
        return self.kind, {}


Event = Knocked | Shown | DeadHand
"""Every event of a game of Gin Rummy."""


def decode(kind: str, data: Mapping[str, Any]) -> Event:
    """The event a journal's record holds; ``RuleError`` for one that cannot be.

    >>> decode("hand", {"knocker": [], "defender": [], "accept": "yes"})
    Traceback (most recent call last):
    ...
    scoring.errors.RuleError: 'accept' is true or false, not 'yes'
    """
    if kind == "knock":
        check_fields(data, ("seat",))
        return Knocked(int_field(data, "seat", 0, 1))
    if kind == "dead":
        check_fields(data, ())
        return DeadHand()
    if kind != "hand":
        raise RuleError(f"unknown Gin Rummy event {kind!r}")
    check_fields(data, ("knocker", "defender"), ("accept",))
    accept = data.get("accept")
    if accept is not None and not isinstance(accept, bool):
        raise RuleError(f"'accept' is true or false, not {accept!r}")
    return Shown(tuple(cards_of(data["knocker"], "knocker")), tuple(cards_of(data["defender"], "defender")), accept)


@dataclass(frozen=True)
class Progress:
    """The hands scored so far (winner and points; a dead hand has no winner), a knock waiting for the
    hands to be laid out, the latest settlement, and how many knocks have been settled (or refused)."""

    rules: Rules = field(default_factory=Rules)
    game_rules: GameRules = field(default_factory=GameRules)
    hands: tuple[tuple[int | None, int], ...] = ()
    knocker: int | None = None
    last: tuple[int, Settlement] | None = None
    """The latest knock settled: the knocker and the settlement."""
    settled: int = 0
    score: GameScore = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "score", score_game(self.hands, self.game_rules))

    def apply(self, event: Event) -> Progress:
        """The game after ``event``; ``RuleError`` (saying why) for an event that cannot happen."""
        if self.score.over:
            raise RuleError("the game is over")
        if isinstance(event, Knocked):
            if self.knocker is not None:
                raise RuleError(f"seat {self.knocker} has knocked: lay out both hands")
            return replace(self, knocker=event.seat)
        if isinstance(event, DeadHand):
            if self.knocker is not None:
                raise RuleError(f"seat {self.knocker} has knocked: the hand is not dead")
            return replace(self, hands=(*self.hands, (None, 0)), last=None)
        if self.knocker is None:
            raise RuleError("nobody has knocked")
        big = range(10, 12) if self.rules.big_gin_bonus else 10
        check_count(event.knocker, "knocker", big)
        check_count(event.defender, "defender", 10)
        settled = settle(list(event.knocker), list(event.defender), self.rules, event.accept)
        if settled.result == "illegal":
            raise RuleError(f"illegal knock: deadwood {settled.knocker.deadwood}, over {settled.limit}; the "
                            "defender accepts or refuses it")
        after = replace(self, knocker=None, last=(self.knocker, settled), settled=self.settled + 1)
        if settled.result == "refused":  # the hand goes on
            return after
        winner = self.knocker if settled.winner == "knocker" else 1 - self.knocker
        return replace(after, hands=(*self.hands, (winner, settled.points)))
