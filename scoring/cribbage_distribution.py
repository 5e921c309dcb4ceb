"""The show scores of many hands at once (NumPy), and their distribution over every deal.

Fifteens, pairs and runs depend only on the five ranks, so a table of them is built once from the
scalar scorer (``scoring.cribbage.pattern_points``): the rules have one definition. The flush and his
nobs depend on suits and are added here array-wide, with the same rule as ``scoring.cribbage.show``.

Cards are given by their ``Card.index`` (0-51, suit-major: ``index // 13`` is the suit, ``index % 13``
the rank less one).

>>> from scoring.cards import Card, parse_cards
>>> hands = np.array([[c.index for c in parse_cards("5H 5C 5D JS")], [c.index for c in parse_cards("2H 6H 8H TH")]])
>>> starters = np.array([Card.parse("5S").index, Card.parse("KS").index])
>>> show_totals(hands, starters).tolist(), show_totals(hands, starters, crib=True).tolist()
([29, 4], [29, 0])
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.cribbage import HAND_SIZE, pattern_points

__all__ = ["DEALS", "all_hands", "distribution", "show_totals"]

DEALS = 12_994_800
"""(Four-card hand, starter) pairs: 270,725 hands, each with any of the 48 other cards as starter."""

_JACK = 10  # rank index of the Jack (ace is 0)
_KEY_WEIGHTS = np.array([13**3, 13**2, 13, 1])


@cache
def _rank_table() -> NDArray[np.int8]:
    """Fifteens, pairs and runs for [four hand ranks in ascending order, as base-13 digits][starter rank].

    Filled from the scalar scorer for the 1,820 rank patterns of a hand and each starter rank
    (entries that would need five cards of one rank stay unused).
    """
    table = np.zeros((13**4, 13), dtype=np.int8)
    for ranks in combinations_with_replacement(range(13), HAND_SIZE):
        key = int(np.dot(ranks, _KEY_WEIGHTS))
        for starter in range(13):
            if ranks.count(starter) < 4:
                table[key, starter] = pattern_points([rank + 1 for rank in (*ranks, starter)])
    table.flags.writeable = False
    return table


def show_totals(hands: NDArray[np.integer[Any]], starters: NDArray[np.integer[Any]], crib: bool = False) -> NDArray[np.int8]:
    """The show score of each hand (rows of four card indices) with its starter (a card index).

    Same rules as ``scoring.cribbage.show_total``: a four-card flush scores 4 in a hand, not in the crib;
    five of a suit score 5; a Jack of the starter's suit in the hand scores 1 (his nobs).
    """
    return _score(_features(hands), starters, crib)


_Features = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]


def _features(hands: NDArray[np.integer[Any]]) -> _Features:
    """What of each hand the show needs besides the starter: its sorted ranks as a table key, the suit
    of its four-card flush (-1 for none), and the suits of its Jacks as bits."""
    suits, ranks = np.divmod(hands.astype(np.int64), 13)
    key = np.sort(ranks, axis=1) @ _KEY_WEIGHTS
    flush_suit = np.where((suits == suits[:, :1]).all(axis=1), suits[:, 0], -1)
    jack_suits = ((ranks == _JACK) << suits).sum(axis=1)
    return key, flush_suit, jack_suits


def _score(features: _Features, starters: NDArray[np.integer[Any]] | int, crib: bool) -> NDArray[np.int8]:
    key, flush_suit, jack_suits = features
    starter_suit, starter_rank = np.divmod(starters, 13)
    points: NDArray[np.int8] = _rank_table()[key, starter_rank]
    five = flush_suit == starter_suit
    points += (5 * five if crib else 4 * (flush_suit >= 0) + five).astype(np.int8)
    points += ((jack_suits >> starter_suit) & 1).astype(np.int8)
    return points


@cache
def all_hands() -> NDArray[np.int8]:
    """Every four-card hand, as rows of card indices in ascending order (270,725 rows)."""
    return np.array(list(combinations(range(52), HAND_SIZE)), dtype=np.int8)


def distribution(crib: bool = False) -> dict[int, int]:
    """How many of the 12,994,800 (hand, starter) deals score each total at the show.

    For the crib (``crib=True``) the four cards are the crib, which scores a flush only with the starter.
    Deals are enumerated starter by starter: each of the 52 cards with the 249,900 hands without it.
    """
    hands = all_hands()
    key, flush_suit, jack_suits = _features(hands)
    holds = np.zeros((len(hands), 52), dtype=bool)
    holds[np.arange(len(hands))[:, None], hands] = True
    counts = np.zeros(30, dtype=np.int64)
    for starter in range(52):
        rest = ~holds[:, starter]
        counts += np.bincount(_score((key[rest], flush_suit[rest], jack_suits[rest]), starter, crib), minlength=30)
    return {int(total): int(n) for total, n in enumerate(counts) if n}
