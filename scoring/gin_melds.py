"""Gin Rummy melds and deadwood: the exact minimum deadwood of a hand, fast, with the melds behind it.

A meld is a set (3 or 4 cards of one rank) or a run (3 or more consecutive cards of one suit; ace low,
or ace low or high with ``Aces.HIGH_LOW``, never round the corner K-A-2). Deadwood is the value of the
cards in no meld: face cards 10, aces 1, others their pip value.

How it is exact and fast: a hand is four 13-bit suit masks (bit ``r - 1`` for rank ``r``). Within one
suit, the most value runs can meld is looked up in a table of all 8,192 suit masks, built once by dynamic
programming over every run. Sets are the only thing that ties the suits together, so the engine tries every
choice of sets (each rank held 3 or 4 times: no set, the whole set, or, with four, each set of three) and
looks up the best runs for what each choice leaves. That is exhaustive, hence exactly minimal; most hands
hold no three of a rank, so they cost four table look-ups. For 11 cards a second table holds, for each
suit mask, how much the best discard from that suit lowers its deadwood.

>>> deadwood(parse_cards("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S"))
11
>>> deadwood_after_discard(parse_cards("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C"))
3
>>> melding = best_discard(parse_cards("3S 4S 5S 2C 3C 4C 5D 2H 3H 4H 5H"))
>>> melding.deadwood, melding.discard, [" ".join(map(str, m)) for m in melding.melds]
(0, Card.parse('5D'), ['3S 4S 5S', '2H 3H 4H 5H', '2C 3C 4C'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, lru_cache

from scoring.cards import DECK, Card, Suit, parse_cards  # noqa: F401 (parse_cards: for the doctests)

__all__ = [
    "Aces",
    "Melding",
    "arrangements",
    "best_discard",
    "card_value",
    "cards_of_mask",
    "deadwood",
    "deadwood_after_discard",
    "mask_deadwood",
    "mask_deadwood_after_discard",
    "mask_of",
    "meld",
    "melding_of",
]

SUIT_BITS = 0x1FFF
"""The 13 bits of one suit in a hand mask; suit ``s`` (spades 0 ... clubs 3) is shifted by ``13 * s``."""

_RANK_BITS = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The aces of the four suits in a hand mask; shifted left by ``r``, the cards of rank ``r + 1``."""

_NO_DISCARD = -1000
"""A suit with no cards offers no discard: this 'saving' is never the best."""


class Aces(Enum):
    """Where an ace may sit in a run: low only (A-2-3, the Hoyle rule), or low or high (also Q-K-A)."""

    LOW = "low"
    HIGH_LOW = "high-low"


def card_value(card: Card) -> int:
    """A card's deadwood value: face cards 10, aces 1, the rest their pips.

    >>> [card_value(c) for c in parse_cards("AS 7H TD KC")]
    [1, 7, 10, 10]
    """
    return min(int(card.rank), 10)


def mask_of(cards: Iterable[Card]) -> int:
    """The 52-bit mask of ``cards`` (bit ``card.index``).

    Written for speed (hashing a Card is slow): the suit's letter, ``_value_``, is the Enum's own field.

    >>> mask_of(parse_cards("AS KS AH")) == 1 | 1 << 12 | 1 << 13
    True
    """
    mask = 0
    for card in cards:
        mask |= 1 << (_SHIFT[card.suit._value_] + card.rank)
    return mask >> 1


_SHIFT = {suit.value: 13 * suit.index for suit in Suit}


def cards_of_mask(mask: int) -> list[Card]:
    """The cards in a 52-bit mask, in deck order (spades A-K, hearts, diamonds, clubs)."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(DECK[low.bit_length() - 1])
        mask ^= low
    return cards


def _suit_runs(aces: Aces) -> list[int]:
    """Every run as a 13-bit suit mask: ranks a..b, and with high aces also ranks a..K plus the ace."""
    runs = [((1 << (b + 1)) - 1) ^ ((1 << a) - 1) for a in range(13) for b in range(a + 2, 13)]
    if aces is Aces.HIGH_LOW:
        runs += [(SUIT_BITS ^ ((1 << a) - 1)) | 1 for a in range(1, 12)]
    return runs


@dataclass(frozen=True)
class _Tables:
    """Per-suit-mask tables for one ace rule (index: a 13-bit suit mask)."""

    value: list[int]  # total card value
    melded: list[int]  # the most value runs can meld
    dead: list[int]  # value - melded: the suit's own minimum deadwood
    cut: list[int]  # how much the best discard from this suit lowers ``dead`` (_NO_DISCARD if empty)


@cache
def _build_tables(aces: Aces) -> _Tables:
    """The tables by dynamic programming over suit masks in increasing order (each needs only smaller ones).

    >>> tables = _build_tables(Aces.LOW)
    >>> tables.dead[0b1111], tables.dead[0b1011], tables.cut[0b1011]  # A-4; A 2 4; discard the 4
    (0, 7, 4)
    """
    runs = _suit_runs(aces)
    value = [sum(min(r + 1, 10) for r in range(13) if m >> r & 1) for m in range(1 << 13)]
    runs_with = [[run for run in runs if run >> bit & 1] for bit in range(13)]
    melded = [0] * (1 << 13)
    for m in range(1, 1 << 13):
        low = m & -m
        best = melded[m ^ low]  # the lowest card stays out of runs, or is in some run inside m
        for run in runs_with[low.bit_length() - 1]:
            if run & m == run:
                best = max(best, value[run] + melded[m ^ run])
        melded[m] = best
    dead = [v - b for v, b in zip(value, melded, strict=True)]
    cut = [_NO_DISCARD] + [
        dead[m] - min(dead[m ^ (1 << r)] for r in range(13) if m >> r & 1) for m in range(1, 1 << 13)
    ]
    return _Tables(value, melded, dead, cut)


_ACE_LOW = _build_tables(Aces.LOW)
"""The Hoyle tables, built on import (about 60 ms); those for high-low aces are built when first used."""


def _tables(aces: Aces) -> _Tables:
    return _ACE_LOW if aces is Aces.LOW else _build_tables(aces)


_SET_FLAGS = {
    present: [(0, 0, 0, 0), tuple(present >> s & 1 for s in range(4))]
    + (
        [tuple(int(s != left) for s in range(4)) for left in range(4)]
        if present == 0b1111
        else []
    )
    for present in (0b0111, 0b1011, 0b1101, 0b1110, 0b1111)
}
"""For the suits holding a rank (3 or 4 of them, as a 4-bit pattern), the sets it can form, as per-suit
flags: none, all of them, and with four each set of three."""


def _trips(s0: int, s1: int, s2: int, s3: int) -> int:
    """The ranks held 3 or 4 times, as a 13-bit mask."""
    return (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))


@lru_cache(maxsize=4096)
def _set_choices(t0: int, t1: int, t2: int, t3: int) -> tuple[tuple[int, int, int, int], ...]:
    """Every choice of sets from the cards of ranks held 3 or 4 times (suit masks ``t0``-``t3``, holding
    only those ranks), as the per-suit masks of the cards the sets use. Cached: hands repeat these shapes.

    >>> len(_set_choices(0b1, 0b1, 0b1, 0))  # three aces: no set, or the set
    2
    >>> len(_set_choices(0b11, 0b11, 0b11, 0b10))  # three aces and four twos: 2 x 6
    12
    """
    choices = [(0, 0, 0, 0)]
    ranks = t0 | t1 | t2 | t3
    while ranks:
        bit = ranks & -ranks
        ranks ^= bit
        present = bool(t0 & bit) | bool(t1 & bit) << 1 | bool(t2 & bit) << 2 | bool(t3 & bit) << 3
        choices = [
            (c0 | bit * f0, c1 | bit * f1, c2 | bit * f2, c3 | bit * f3)
            for c0, c1, c2, c3 in choices
            for f0, f1, f2, f3 in _SET_FLAGS[present]
        ]
    return tuple(choices)


def mask_deadwood(hand: int, aces: Aces = Aces.LOW) -> int:
    """The exact minimum deadwood of the cards in a 52-bit mask (any number of cards, no discard).

    >>> mask_deadwood(mask_of(parse_cards("AS 2S 3S KH")))
    10
    """
    s0, s1, s2, s3 = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    dead = (_ACE_LOW if aces is Aces.LOW else _build_tables(aces)).dead  # _tables, inline for speed
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))  # _trips, inline for speed
    if not ranks:
        return dead[s0] + dead[s1] + dead[s2] + dead[s3]
    return min(
        dead[s0 & ~c0] + dead[s1 & ~c1] + dead[s2 & ~c2] + dead[s3 & ~c3]
        for c0, c1, c2, c3 in _set_choices(s0 & ranks, s1 & ranks, s2 & ranks, s3 & ranks)
    )


def mask_deadwood_after_discard(hand: int, aces: Aces = Aces.LOW) -> int:
    """The exact minimum deadwood left after the best discard from the cards in a 52-bit mask.

    >>> mask_deadwood_after_discard(mask_of(parse_cards("AS 2S 3S KH")))
    0
    """
    s0, s1, s2, s3 = hand & SUIT_BITS, hand >> 13 & SUIT_BITS, hand >> 26 & SUIT_BITS, hand >> 39
    tables = _ACE_LOW if aces is Aces.LOW else _build_tables(aces)  # _tables, inline for speed
    dead, cut = tables.dead, tables.cut
    ranks = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))  # _trips, inline for speed
    if not ranks:
        return dead[s0] + dead[s1] + dead[s2] + dead[s3] - max(cut[s0], cut[s1], cut[s2], cut[s3])
    # A discard from a set of four is the set of three without it: a choice _set_choices makes.
    best = 1000
    for c0, c1, c2, c3 in _set_choices(s0 & ranks, s1 & ranks, s2 & ranks, s3 & ranks):
        r0, r1, r2, r3 = s0 & ~c0, s1 & ~c1, s2 & ~c2, s3 & ~c3
        best = min(best, dead[r0] + dead[r1] + dead[r2] + dead[r3] - max(cut[r0], cut[r1], cut[r2], cut[r3]))
    return best


def deadwood(cards: Iterable[Card], aces: Aces = Aces.LOW) -> int:
    """The exact minimum deadwood of ``cards`` (normally 10), all kept."""
    return mask_deadwood(mask_of(cards), aces)


def deadwood_after_discard(cards: Iterable[Card], aces: Aces = Aces.LOW) -> int:
    """The exact minimum deadwood of ``cards`` (normally 11) after the best discard."""
    return mask_deadwood_after_discard(mask_of(cards), aces)


# Arrangements: which melds give the minimum (slower; for showing a hand and settling a knock).


@dataclass(frozen=True)
class Melding:
    """A hand arranged for the least deadwood: its melds, unmatched cards and, from 11 cards, the discard.

    Runs are listed low to high (a high ace last), sets in suit order S H D C.
    """

    deadwood: int
    melds: tuple[tuple[Card, ...], ...]
    unmatched: tuple[Card, ...]
    discard: Card | None = None


def _run_order(run: Sequence[Card]) -> list[Card]:
    """A run's cards low to high; an ace goes last when the run holds a king (Q-K-A)."""
    high = any(card.rank == 13 for card in run)
    return sorted(run, key=lambda card: 14 if high and card.rank == 1 else int(card.rank))


def _blocks(cover: int, ace_high: bool) -> list[int] | None:
    """A suit mask's maximal blocks of consecutive ranks (the ace above the king if ``ace_high``) as
    13-bit masks, or None if a block is shorter than 3 (so ``cover`` is not runs that way)."""
    line = (cover >> 1) | (cover & 1) << 12 if ace_high else cover  # ace high: bits 0-11 are 2-K, 12 the ace
    blocks = []
    while line:
        low = line & -line
        block = ((line + low) ^ line) & line  # the consecutive bits from ``low`` up
        if block.bit_count() < 3:
            return None
        blocks.append(((block << 1) & SUIT_BITS) | block >> 12 if ace_high else block)
        line ^= block
    return blocks


def _run_splits(cover: int, aces: Aces) -> list[list[int]]:
    """The ways a suit mask that runs can wholly meld splits into runs, adjacent runs joined: one way,
    or with high-low aces sometimes two (A-2-3-4 J-Q-K or 2-3-4 J-Q-K-A)."""
    ways = [_blocks(cover, False)]
    if aces is Aces.HIGH_LOW and cover & 1:
        ways.append(_blocks(cover, True))
    return [way for way in ways if way is not None]


def _suit_melds(rest: int, aces: Aces) -> list[list[int]]:
    """Every way runs meld the most of one suit mask: each a list of runs (13-bit masks)."""
    tables = _tables(aces)
    target = tables.melded[rest]
    ways: list[list[int]] = []
    cover = rest
    while True:  # every sub-mask of rest, rest itself first
        if tables.melded[cover] == tables.value[cover] == target:
            ways += _run_splits(cover, aces)
        if not cover:
            return ways
        cover = (cover - 1) & rest


def arrangements(hand: int, aces: Aces = Aces.LOW) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every minimum-deadwood arrangement of a 52-bit hand (no discard), as (melds, unmatched) masks.

    Runs next to each other in a suit are joined into one (laying off treats them alike).

    >>> [(list(map(cards_of_mask, m)), cards_of_mask(u)) for m, u in arrangements(mask_of(parse_cards("7S 7H 7D 8S 9S")))]
    [([[Card.parse('7S'), Card.parse('8S'), Card.parse('9S')]], [Card.parse('7H'), Card.parse('7D')])]
    """
    best = mask_deadwood(hand, aces)
    suits = [hand >> (13 * s) & SUIT_BITS for s in range(4)]
    dead = _tables(aces).dead
    ranks = _trips(*suits)
    for choice in _set_choices(*(suit & ranks for suit in suits)):
        rests = [suit & ~used for suit, used in zip(suits, choice, strict=True)]
        if sum(dead[rest] for rest in rests) != best:
            continue
        used = sum(c << (13 * s) for s, c in enumerate(choice))
        sets = tuple(used & (_RANK_BITS << r) for r in range(13) if used & (_RANK_BITS << r))
        per_suit = [[[run << (13 * s) for run in way] for way in _suit_melds(rest, aces)] for s, rest in enumerate(rests)]
        for ways in itertools.product(*per_suit):
            runs = tuple(run for way in ways for run in way)
            yield sets + runs, hand & ~(used | sum(runs))


def melding_of(melds: Iterable[int], unmatched: int, discard: Card | None = None) -> Melding:
    """The Melding for an arrangement given as meld and unmatched masks: runs first, by suit and rank."""
    shown = sorted(
        (_run_order(cards) if len({c.suit for c in cards}) == 1 else cards for cards in map(cards_of_mask, melds)),
        key=lambda cards: (len({c.suit for c in cards}) > 1, cards[0].suit.index, cards[0].rank),
    )
    left = cards_of_mask(unmatched)
    return Melding(sum(map(card_value, left)), tuple(map(tuple, shown)), tuple(left), discard)


def _melding(hand: int, aces: Aces, discard: Card | None = None) -> Melding:
    return melding_of(*next(arrangements(hand, aces)), discard)


def meld(cards: Iterable[Card], aces: Aces = Aces.LOW) -> Melding:
    """``cards`` (normally 10) arranged for the least deadwood."""
    return _melding(mask_of(cards), aces)


def best_discard(cards: Sequence[Card], aces: Aces = Aces.LOW) -> Melding:
    """The discard from ``cards`` (normally 11) leaving the least deadwood, and that arrangement.

    Of equally good discards, the highest-ranked goes (spades first among equals).

    >>> best_discard(parse_cards("AS 2S 3S 7H 7D 7C 9D TD JD QC KH")).discard
    Card.parse('KH')
    """
    hand = mask_of(cards)
    discard = min(cards, key=lambda c: (mask_deadwood(hand ^ 1 << c.index, aces), -card_value(c), -c.rank, c.index))
    return _melding(hand ^ 1 << discard.index, aces, discard)
