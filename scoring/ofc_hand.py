"""A game of Open-Face Chinese Poker as it is played: running totals and Fantasyland from hand to hand,
moved on by typed events.

A ``Progress`` is immutable; ``progress.apply(event)`` returns it after the event, or raises ``RuleError``
saying why the event cannot happen. The one event is ``Settled(boards)``: every seat's board, settled among
the players; who goes to (or stays in) Fantasyland plays the next hand there.

>>> from scoring.ofc import Board
>>> boards = (Board.parse("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"),
...           Board.parse("KS KH 7H / KD KC 6S 5S 4S / 3S 3H 3D 2C 8D"))
>>> progress = Progress.start(Rules(), players=2).apply(Settled(boards))
>>> progress.totals, progress.fantasyland
((19, -19), (13, 0))
>>> decode(*Settled(boards).record()) == Settled(boards)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from scoring.cards import Card
from scoring.errors import RuleError
from scoring.events import Record
from scoring.ofc import ROWS, SIZES, Board, Rules, Settlement, settle
from scoring.requests import cards_of, check_distinct, check_fields

__all__ = ["Event", "Progress", "Settled", "decode"]


@dataclass(frozen=True, slots=True)
class Settled:
    """Every seat's board as set, in seat order."""

    kind: ClassVar[str] = "hand"
    boards: tuple[Board, ...]

    def record(self) -> Record:
        return self.kind, {"boards": [{row: [card.code for card in cards] for row, cards in zip(ROWS, board.rows, strict=True)}
                                      for board in self.boards]}


Event = Settled
"""Every event of a game of Open-Face Chinese Poker."""


def decode(kind: str, data: Mapping[str, Any]) -> Event:
    """The event a journal's record holds; ``RuleError`` for one that cannot be."""
    if kind != "hand":
        raise RuleError(f"unknown Open-Face Chinese Poker event {kind!r}")
    check_fields(data, ("boards",))
    boards = data["boards"]
    if not isinstance(boards, list):
        raise RuleError("'boards' is a list of boards, one a seat")
    rows: dict[str, list[Card]] = {}
    for seat, board in enumerate(boards):
        check_fields(board, ROWS)
        rows |= {f"seat {seat} {row}": cards_of(board[row], f"seat {seat} {row}", SIZES[row]) for row in ROWS}
    check_distinct(rows)  # before any board: a card twice is named by its seats and rows
    return Settled(tuple(Board(*(tuple(rows[f"seat {seat} {row}"]) for row in ROWS)) for seat in range(len(boards))))


@dataclass(frozen=True)
class Progress:
    """The running totals, how many cards each seat is dealt in Fantasyland next hand (0: not there), the
    hands played and the latest settlement."""

    rules: Rules
    totals: tuple[int, ...]
    fantasyland: tuple[int, ...]
    hands: int = 0
    last: Settlement | None = None

    @classmethod
    def start(cls, rules: Rules, players: int) -> Progress:
        """A game for ``players`` players before the first hand."""
        return cls(rules, (0,) * players, (0,) * players)

    def apply(self, event: Event) -> Progress:
        """The game after ``event``; ``RuleError`` (saying why) for an event that cannot happen."""
        if len(event.boards) != len(self.totals):
            raise RuleError(f"'boards' is a list of {len(self.totals)} boards, one a seat")
        settled = settle(list(event.boards), self.rules, tuple(cards > 0 for cards in self.fantasyland))
        running = tuple(total + net for total, net in zip(self.totals, settled.net, strict=True))
        return replace(self, totals=running, fantasyland=settled.fantasyland_cards, hands=self.hands + 1,
                       last=settled)
