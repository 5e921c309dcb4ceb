"""Poker hand values: five-card hands and three-card hands (the Open-Face front row) on one scale.

A hand's **value** is an int, higher is better, equal for hands of equal strength. It is the category
(0 high card ... 8 straight flush) then the five ranks in order of significance, four bits each:

    value = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

Ranks run 2 ... 14 (ace); cards of a set come before the kickers (QQ654 is Q Q 6 5 4, KK55J is K K 5 5 J),
the ace of a wheel (5-4-3-2-A) counts 1, and a three-card hand's missing fourth and fifth cards count 0,
below any card. So three-card and five-card hands compare directly, as the fouling rule needs: QQ7
ranks above QQ654 but below QQ982.

>>> value(parse_cards("QS QH 7D")) > value(parse_cards("QD QC 6S 5S 4S"))
True
>>> value(parse_cards("QS QH 7D")) < value(parse_cards("QD QC 9S 8S 2S"))
True
>>> hex(value(parse_cards("5C 4D 3H 2S AS")))
'0x454321'
>>> describe(value(parse_cards("TH TD TS KC KH")))
'full house, tens full of kings'

There is one definition of the ranking, ``_value_of`` below. It is compiled once, at import, into a
lookup table indexed by a sum of per-card keys; the scalar path (``value``, ``value5``, ``value3``, one
hand at a time) and the batch path (``values``, a NumPy array of hands at once) both read that same
table, so they cannot disagree.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import cache

import numpy as np
import numpy.typing as npt

from scoring.cards import Card, parse_cards

__all__ = [
    "Category",
    "all_hands",
    "category",
    "describe",
    "parse_cards",
    "ranks_of",
    "value",
    "value3",
    "value5",
    "values",
]


class Category(IntEnum):
    """The kinds of poker hand, weakest first. A three-card hand is only ever the first, second or fourth."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """The category's name in words: ``three of a kind``."""
        return self.name.lower().replace("_", " ")


WHEEL = (14, 5, 4, 3, 2)
"""The ace-low straight 5-4-3-2-A, which ranks as five-high (its ace counts 1)."""


def _value_of(ranks: Sequence[int], flush: bool) -> int:
    """The value of a hand of three or five cards with these ranks (2-14); ``flush``: all one suit.

    This is the ranking itself; everything else reads the table built from it.

    >>> hex(_value_of((12, 7, 12), flush=False)), hex(_value_of((14, 13, 12, 11, 10), flush=True))
    ('0x1cc700', '0x8edcba')
    """
    counts = Counter(ranks)
    ordered = sorted(ranks, key=lambda rank: (counts[rank], rank), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    five_singles = len(ranks) == 5 and shape == [1] * 5
    if five_singles and tuple(ordered) == WHEEL:
        ordered = [5, 4, 3, 2, 1]
    straight = five_singles and ordered[0] - ordered[4] == 4
    flush = flush and five_singles
    if straight or flush:
        kind = Category.STRAIGHT_FLUSH if straight and flush else Category.STRAIGHT if straight else Category.FLUSH
    else:
        kind = {
            (4,): Category.FOUR_OF_A_KIND,
            (3, 2): Category.FULL_HOUSE,
            (3,): Category.THREE_OF_A_KIND,
            (2, 2): Category.TWO_PAIR,
            (2,): Category.PAIR,
        }.get(tuple(count for count in shape if count > 1), Category.HIGH_CARD)
    result = int(kind)
    for rank in [*ordered, 0, 0][:5]:
        result = result << 4 | rank
    return result


# How the table is indexed. Each card has a key: its rank key times 512 plus its suit key. A hand's keys
# add up to (sum of rank keys) * 512 + (sum of suit keys):
# - the rank keys are the smallest found by a greedy search such that every multiset of five ranks (at most
#   four of each) has its own sum, and so does every multiset of three; tests/scoring/test_poker.py checks it;
# - the suit keys 0, 1, 8, 57 add up to 0, 5, 40 or 285 for five cards exactly when all five share a suit.
# The table has three regions of SPAN entries, indexed by the rank-key sum: five cards not all one suit,
# five cards of one suit, and three cards.
_RANK_KEYS = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)  # ranks 2 ... ace
_SUIT_KEYS = (0, 1, 8, 57)  # spades, hearts, diamonds, clubs
_SPAN = 5 * _RANK_KEYS[-1] + 1
_FLUSH, _FRONT = _SPAN, 2 * _SPAN


def _poker_rank(index: int) -> int:
    """The rank 2-14 (ace high) of the card numbered ``index`` (``Card.index``: ace is 0 in each suit)."""
    return index % 13 + 1 if index % 13 else 14


_KEYS: list[int] = [_RANK_KEYS[_poker_rank(i) - 2] * 512 + _SUIT_KEYS[i // 13] for i in range(52)]
_SUIT_OFFSET: list[int] = [0] * 512
for _suit in _SUIT_KEYS:
    _SUIT_OFFSET[5 * _suit] = _FLUSH


def _build_table() -> npt.NDArray[np.int32]:
    table = np.zeros(3 * _SPAN, dtype=np.int32)
    for size, offset in ((5, 0), (3, _FRONT)):
        for ranks in itertools.combinations_with_replacement(range(2, 15), size):
            if max(Counter(ranks).values()) > 4:
                continue
            index = sum(_RANK_KEYS[rank - 2] for rank in ranks)
            table[offset + index] = _value_of(ranks, flush=False)
            if size == 5 and len(set(ranks)) == 5:
                table[_FLUSH + index] = _value_of(ranks, flush=True)
    return table


_TABLE_ARRAY = _build_table()
_TABLE: list[int] = _TABLE_ARRAY.tolist()
_KEYS_ARRAY = np.array(_KEYS, dtype=np.int32)
_SUIT_OFFSET_ARRAY = np.array(_SUIT_OFFSET, dtype=np.int32)


def value5(hand: Sequence[int]) -> int:
    """The value of five different cards given by ``Card.index`` (0-51, not checked): the fast scalar path.

    >>> describe(value5([card.index for card in parse_cards("AH KH QH JH TH")]))
    'royal flush'
    """
    a, b, c, d, e = hand
    keys = _KEYS
    key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e]
    return _TABLE[(key >> 9) + _SUIT_OFFSET[key & 511]]


def value3(hand: Sequence[int]) -> int:
    """The value of three cards (a front row) given by ``Card.index``; never a straight or flush.

    >>> describe(value3([card.index for card in parse_cards("AH KH QH")]))
    'ace high'
    """
    a, b, c = hand
    keys = _KEYS
    return _TABLE[((keys[a] + keys[b] + keys[c]) >> 9) + _FRONT]


def value(cards: Sequence[Card]) -> int:
    """The value of a hand of three or five cards.

    >>> describe(value(parse_cards("6S 6H 2D")))
    'pair of sixes'
    """
    if len(cards) == 5:
        return value5([card.index for card in cards])
    if len(cards) == 3:
        return value3([card.index for card in cards])
    raise ValueError(f"a poker hand here has 3 or 5 cards, not {len(cards)}")


def values(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """The values of many hands at once: an (n, 5) or (n, 3) array of ``Card.index`` numbers (each row's
    cards different: not checked).

    >>> [describe(v) for v in values([[0, 13, 26, 1, 14], [12, 24, 10, 9, 8]])]
    ['full house, aces full of twos', 'straight, king high']
    >>> describe(values([[12, 11, 10]])[0])
    'king high'
    """
    cards = np.asarray(hands)
    if cards.ndim != 2 or cards.shape[1] not in (3, 5):
        raise ValueError(f"hands are an (n, 5) or (n, 3) array of card numbers, not shape {cards.shape}")
    if not np.issubdtype(cards.dtype, np.integer):
        raise ValueError(f"card numbers are whole numbers, not {cards.dtype}")
    columns = np.ascontiguousarray(cards.T, dtype=np.intp)  # a column at a time: 3 times faster than rows
    if columns.size and not 0 <= columns.min() <= columns.max() <= 51:
        raise ValueError("card numbers run from 0 to 51")
    key = np.zeros(len(cards), dtype=np.int32)
    for column in columns:
        key += np.take(_KEYS_ARRAY, column)
    offset = np.take(_SUIT_OFFSET_ARRAY, key & 511) if cards.shape[1] == 5 else _FRONT
    result: npt.NDArray[np.int32] = np.take(_TABLE_ARRAY, (key >> 9) + offset)
    return result


def category(hand_value: int) -> Category:
    """The category of a hand value.

    >>> category(value(parse_cards("9S 9H 9D")))
    <Category.THREE_OF_A_KIND: 3>
    """
    return _CATEGORIES[hand_value >> 20]


_CATEGORIES = tuple(Category)


def ranks_of(hand_value: int) -> list[int]:
    """The five ranks of a hand value in order of significance (0 for a three-card hand's missing cards).

    >>> ranks_of(value(parse_cards("QS QH 7D")))
    [12, 12, 7, 0, 0]
    """
    return [hand_value >> shift & 15 for shift in (16, 12, 8, 4, 0)]


_NAMES = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
          10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace", 1: "ace"}


def _plural(rank: int) -> str:
    return "sixes" if rank == 6 else _NAMES[rank] + "s"


@cache
def describe(hand_value: int) -> str:
    """A hand value in words, as a player would say it.

    >>> [describe(value(parse_cards(hand))) for hand in ("KS KH 5D 5C JS", "5C 4D 3H 2S AS", "7C 7D 7H")]
    ['two pair, kings and fives', 'straight, five high', 'three sevens']
    """
    kind = category(hand_value)
    ranks = ranks_of(hand_value)
    top, second = ranks[0], ranks[3] if kind is Category.FULL_HOUSE else ranks[2]
    if kind is Category.STRAIGHT_FLUSH and top == 14:
        return "royal flush"
    return {
        Category.HIGH_CARD: f"{_NAMES[top]} high",
        Category.PAIR: f"pair of {_plural(top)}",
        Category.TWO_PAIR: f"two pair, {_plural(top)} and {_plural(second)}",
        Category.THREE_OF_A_KIND: f"three {_plural(top)}",
        Category.FULL_HOUSE: f"full house, {_plural(top)} full of {_plural(second)}",
        Category.FOUR_OF_A_KIND: f"four {_plural(top)}",
    }.get(kind, f"{kind.label}, {_NAMES[top]} high")


def all_hands(size: int) -> npt.NDArray[np.int8]:
    """Every hand of ``size`` cards from the deck, one row of ascending ``Card.index`` numbers each.

    >>> all_hands(5).shape, all_hands(3)[:2].tolist()
    ((2598960, 5), [[0, 1, 2], [0, 1, 3]])
    """
    hands = np.arange(52, dtype=np.int8)[:, None]
    for _ in range(size - 1):
        last = hands[:, -1].astype(np.int64)
        above = 51 - last  # how many cards can follow each partial hand
        rows = np.repeat(np.arange(len(hands)), above)
        first = np.cumsum(above) - above
        following = np.arange(int(above.sum())) - np.repeat(first - last - 1, above)
        hands = np.column_stack([hands[rows], following.astype(np.int8)])
    return hands
