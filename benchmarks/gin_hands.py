"""Hand generators for the Gin Rummy tests and benchmarks: random deals; meld-rich hands built from two or
three overlapping melds (a set sharing a card with a run, a run through the set, or a second set);
crowded hands from five ranks; and knocks whose defender holds cards next to the knocker's melds."""

from __future__ import annotations

import random

from scoring.cards import DECK, Card, Rank, Suit
from scoring.gin_melds import Aces, deadwood

SUITS = list(Suit)


def card(rank: int, suit: Suit) -> Card:
    return Card(Rank(rank), suit)


def random_hand(rng: random.Random, size: int) -> list[Card]:
    return rng.sample(DECK, size)


def _run(rng: random.Random, through: int | None = None, suit: Suit | None = None) -> set[Card]:
    """A run of 3-5 in a random suit (or ``suit``), passing through rank ``through`` if given."""
    length = rng.randint(3, 5)
    lowest = rng.randint(1, 14 - length) if through is None else rng.randint(max(1, through - length + 1), min(through, 14 - length))
    suit = suit or rng.choice(SUITS)
    return {card(rank, suit) for rank in range(lowest, lowest + length)}


def _set(rank: int, rng: random.Random) -> set[Card]:
    return {card(rank, suit) for suit in rng.sample(SUITS, rng.choice((3, 4, 4)))}


def meld_rich_hand(rng: random.Random, size: int) -> list[Card]:
    """Two or three overlapping melds, the rest of the hand drawn near them (within a rank or two)."""
    first = _run(rng)
    shared = rng.choice(sorted(first, key=lambda c: c.index))
    cards = first | _set(shared.rank, rng)
    if rng.random() < 0.6:  # a third meld, overlapping the others: a run through the set, or another set
        if rng.random() < 0.5:
            cards |= _run(rng, through=shared.rank, suit=rng.choice([s for s in SUITS if s != shared.suit]))
        else:
            cards |= _set(rng.choice(sorted(first, key=lambda c: c.index)).rank, rng)
    hand = rng.sample(sorted(cards, key=lambda c: c.index), min(size, len(cards)))
    near = [c for c in DECK if c not in hand and any(abs(c.rank - h.rank) <= 2 for h in hand)]
    return hand + rng.sample(near, size - len(hand))


def crowded_hand(rng: random.Random, size: int) -> list[Card]:
    """Cards from a window of five ranks in all suits: melds overlap everywhere."""
    low = rng.randint(1, 9)
    return rng.sample([c for c in DECK if low <= c.rank < low + 5], size)


def knock_deal(rng: random.Random, aces: Aces) -> tuple[list[Card], list[Card]]:
    """A knocker with 10 or less deadwood, and a defender holding cards next to the knocker's (lay-offs)."""
    while deadwood(knocker := meld_rich_hand(rng, 10), aces) > 10:
        pass
    rest = [c for c in DECK if c not in knocker]
    near = [c for c in rest if any(c.suit == k.suit and abs(c.rank - k.rank) <= 2 or c.rank == k.rank for k in knocker)]
    defender = rng.sample(near, min(len(near), rng.randint(3, 7)))
    return knocker, defender + rng.sample([c for c in rest if c not in defender], 10 - len(defender))
