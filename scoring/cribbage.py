"""Cribbage scoring: the show (a hand or the crib with the starter) and pegging (its requests:
``scoring.requests.cribbage``).

The show names the cards of every item, so a screen can show the count as a player would say it:

>>> count = show(parse_cards("5H 5C 5D JS"), Card.parse("5S"))
>>> count.total
29
>>> print(count)
fifteen two: 5♥ J♠
fifteen two: 5♣ J♠
fifteen two: 5♦ J♠
fifteen two: 5♠ J♠
fifteen two: 5♥ 5♣ 5♦
fifteen two: 5♥ 5♣ 5♠
fifteen two: 5♥ 5♦ 5♠
fifteen two: 5♣ 5♦ 5♠
double pair royal: 5♥ 5♣ 5♦ 5♠
his nobs: J♠
>>> [str(item) for item in show(parse_cards("2S 2H 3D 4C"), Card.parse("KC")).items]
['fifteen two: 2♠ 3♦ K♣', 'fifteen two: 2♥ 3♦ K♣', 'double run of three: 2♠ 2♥ 3♦ 4♣']

Pegging scores the card just laid, given the cards laid since the count was last reset:

>>> [str(item) for item in peg(parse_cards("5S 5H 5D")).items]
['fifteen two: 5♠ 5♥ 5♦', 'pair royal: 5♠ 5♥ 5♦']
>>> peg(parse_cards("KS QH JD 2C")).total
Traceback (most recent call last):
...
scoring.cribbage.PeggingError: laying 2♣ would take the count to 32, past 31
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import prod
from operator import attrgetter, itemgetter
from typing import Any, cast

from scoring.cards import Card, Rank, parse_cards  # noqa: F401 (parse_cards: for the doctests)
from scoring.errors import RuleError

__all__ = [
    "Count",
    "HAND_SIZE",
    "Item",
    "PeggingError",
    "pattern_points",
    "peg",
    "pegging_count",
    "show",
    "show_total",
    "value",
]

HAND_SIZE = 4
"""Cards in a hand (and in the crib) at the show; the starter makes a fifth."""

_NUMBERS = ("", "", "two", "three", "four", "five", "six", "seven")
_PAIRS = {2: "pair", 3: "pair royal", 4: "double pair royal"}
_RUN_KINDS = {1: "run", 2: "double run", 3: "triple run", 4: "double-double run"}


def value(card: Card) -> int:
    """A card's value in counting to fifteen and 31: ace 1, two to ten their number, pictures 10.

    >>> value(Card.parse("AS")), value(Card.parse("9H")), value(Card.parse("QD"))
    (1, 9, 10)
    """
    return min(int(card.rank), 10)


@dataclass(frozen=True, slots=True)
class Item:
    """One scoring combination and the cards that make it.

    >>> Item("fifteen two", (Card.parse("5H"), Card.parse("KS")), 2)
    Item(name='fifteen two', cards=(Card.parse('5H'), Card.parse('KS')), points=2)
    """

    name: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.name}: {' '.join(card.symbol for card in self.cards)}"

    def as_json(self) -> dict[str, Any]:
        """The item for a JSON result: its name, card codes, points and screen text."""
        return {"name": self.name, "cards": [card.code for card in self.cards], "points": self.points,
                "text": str(self)}


@dataclass(frozen=True, slots=True)
class Count:
    """What a show or a laid card scores: the itemised combinations and their total (the sum of their points)."""

    items: tuple[Item, ...]
    total: int

    def __str__(self) -> str:
        return "\n".join(map(str, self.items))


# --- the show ---------------------------------------------------------------------------------------

_Template = tuple[str, "itemgetter[tuple[Card, ...]]", int]
"""An item of a rank pattern: its name, what takes its cards from the five in rank order, its points."""


@cache
def _pattern(ranks: tuple[int, ...]) -> tuple[tuple[_Template, ...], int]:
    """The fifteens, pairs and runs of five ranks in ascending order, and their points.

    These depend only on the ranks, so they are worked out once for each of the 6,175 patterns.
    Runs take in the pairs among their cards ("a run of three cards with an additional card matching
    one of the three in value, e.g. 2-2-3-4, is termed a double run, and scores eight").
    """
    items: list[tuple[str, tuple[int, ...], int]] = []
    values = [min(rank, 10) for rank in ranks]
    positions = range(len(ranks))
    for size in range(2, len(ranks) + 1):
        items += [("fifteen two", combo, 2) for combo in combinations(positions, size)
                  if sum(values[i] for i in combo) == 15]
    run = _longest_run(sorted(set(ranks)))
    for rank in sorted(set(ranks)):
        count = ranks.count(rank)
        if rank not in run and count > 1:
            items.append((_PAIRS[count], tuple(i for i in positions if ranks[i] == rank), count * (count - 1)))
    if run:
        counts = [ranks.count(rank) for rank in run]
        runs = prod(counts)
        kind = _RUN_KINDS[runs]  # with five cards, four runs can only come from two pairs
        points = len(run) * runs + sum(count * (count - 1) for count in counts)
        items.append((f"{kind} of {_NUMBERS[len(run)]}", tuple(i for i in positions if ranks[i] in run), points))
    items.sort(key=lambda item: item[0] != "fifteen two")
    templates = tuple((name, _take(positions), points) for name, positions, points in items)
    return templates, sum(points for _, _, points in items)


def _take(positions: tuple[int, ...]) -> itemgetter[tuple[Card, ...]]:
    """What picks the cards at ``positions`` (always two or more, so it gives a tuple)."""
    return cast("itemgetter[tuple[Card, ...]]", itemgetter(*positions))


def _longest_run(ranks: list[int]) -> range:
    """The longest stretch of three or more consecutive ranks among distinct ascending ``ranks``."""
    best = range(0)
    start = 0
    for i in range(1, len(ranks) + 1):
        if i == len(ranks) or ranks[i] != ranks[i - 1] + 1:
            if i - start >= 3 and i - start > len(best):
                best = range(ranks[start], ranks[i - 1] + 1)
            start = i
    return best


def pattern_points(ranks: Sequence[int]) -> int:
    """The points for fifteens, pairs and runs among five ranks (1-13), in any order.

    >>> pattern_points([4, 4, 5, 5, 6]), pattern_points([8, 7, 6, 7, 8])
    (24, 24)
    """
    return _pattern(tuple(sorted(ranks)))[1]


def show(hand: Sequence[Card], starter: Card, crib: bool = False) -> Count:
    """The show of a four-card hand (or the crib, with ``crib=True``) with the starter.

    Fifteens, pairs and runs; a flush of the four hand cards scores 4, or 5 with the starter, but a
    crib scores a flush only with all five of one suit; a Jack of the starter's suit in the hand is
    "his nobs", one point. Cards are assumed distinct (``scoring.requests.cribbage`` checks requests). Each item
    lists its cards by rank, ties in the order given (the starter last).

    >>> show(parse_cards("2H 6H 8H TH"), Card.parse("KS")).total, show(parse_cards("2H 6H 8H TH"), Card.parse("KS"), crib=True).total
    (4, 0)
    """
    cards = sorted((*hand, starter), key=_RANK)
    templates, pattern_points = _pattern(tuple(map(_RANK, cards)))
    items = [Item(name, take(cards), points) for name, take, points in templates]
    flush = _flush(hand, starter, crib)
    if flush:
        items.append(Item(_FLUSHES[flush], tuple(cards if flush == 5 else sorted(hand, key=_RANK)), flush))
    nobs = _nobs(hand, starter)
    items += [Item("his nobs", (card,), 1) for card in nobs]
    return Count(tuple(items), pattern_points + flush + len(nobs))


def show_total(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """What ``show(hand, starter, crib).total`` is, without itemising: for counting many hands fast.

    >>> show_total(parse_cards("4S 4H 5D 5C"), Card.parse("6S"))
    24
    """
    ranks = tuple(sorted(map(_RANK, (*hand, starter))))
    return _pattern(ranks)[1] + _flush(hand, starter, crib) + len(_nobs(hand, starter))


_RANK = attrgetter("rank")
_FLUSHES = {4: "flush of four", 5: "flush of five"}


def _flush(hand: Sequence[Card], starter: Card, crib: bool) -> int:
    """Five of a suit score 5; four of a suit in the hand 4, but nothing in the crib."""
    first, second, third, fourth = hand
    if not first.suit is second.suit is third.suit is fourth.suit:
        return 0
    return 5 if starter.suit is first.suit else 0 if crib else 4


def _nobs(hand: Sequence[Card], starter: Card) -> list[Card]:
    """His nobs: a Jack in the hand of the starter's suit."""
    return [card for card in hand if card.rank == Rank.JACK and card.suit is starter.suit]


# --- pegging ----------------------------------------------------------------------------------------

class PeggingError(RuleError):
    """A card that cannot be laid: it would take the count past 31."""


def peg(laid: Sequence[Card]) -> Count:
    """What the last of ``laid`` scores, given the cards laid since the count was reset, oldest first.

    Fifteen 2, thirty-one 2, pairs 2, 6 or 12, and runs of three to seven in any order among the latest
    cards. "Run combinations cannot span a pair; in a play of 2, 3, 3, 4 ... only the pair is counted."

    >>> peg(parse_cards("2S 3S 3H 4D")).items
    ()
    >>> [str(item) for item in peg(parse_cards("2S 4S 6H AD 3C 5S 7S")).items]
    ['run of seven: 2♠ 4♠ 6♥ A♦ 3♣ 5♠ 7♠']
    """
    if not laid:
        raise ValueError("no card has been laid")
    last = laid[-1]
    count = pegging_count(laid)
    if count > 31:
        raise PeggingError(f"laying {last.symbol} would take the count to {count}, past 31")
    items = [Item(name, tuple(laid), 2) for total, name in ((15, "fifteen two"), (31, "thirty-one"))
             if count == total]
    same = next(n for n in range(len(laid), 0, -1) if all(card.rank == last.rank for card in laid[-n:]))
    if same > 1:
        items.append(Item(_PAIRS[same], tuple(laid[-same:]), same * (same - 1)))
    run = next((n for n in range(len(laid), 2, -1) if _is_run(laid[-n:])), 0)
    if run:
        items.append(Item(f"run of {_NUMBERS[run]}", tuple(laid[-run:]), run))
    return Count(tuple(items), sum(item.points for item in items))


def _is_run(cards: Sequence[Card]) -> bool:
    ranks = {card.rank for card in cards}
    return len(ranks) == len(cards) and max(ranks) - min(ranks) == len(cards) - 1


def pegging_count(laid: Sequence[Card]) -> int:
    """The count after ``laid``: the sum of the cards' values.

    >>> pegging_count(parse_cards("KS 5H AD"))
    16
    """
    return sum(map(value, laid))
