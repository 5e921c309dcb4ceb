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


def _set(through: Card, rng: random.Random) -> set[Card]:
    """A set of 3 or 4 including the card ``through``."""
    others = rng.sample([s for s in SUITS if s != through.suit], rng.choice((2, 3, 3)))
    return {through} | {card(through.rank, suit) for suit in others}


def meld_rich_hand(rng: random.Random, size: int) -> list[Card]:
    """Two or three overlapping melds (a run and a set sharing a card, maybe a second run through another
    card of the set or a second set through another card of the run), the rest drawn within two ranks."""
    run = _run(rng)
    shared = rng.choice(sorted(run, key=lambda c: c.index))
    rank_set = _set(shared, rng)
    cards = run | rank_set
    if rng.random() < 0.6:
        if rng.random() < 0.5:
            crossing = rng.choice(sorted(rank_set - {shared}, key=lambda c: c.index))
            cards |= _run(rng, through=crossing.rank, suit=crossing.suit)
        else:
            cards |= _set(rng.choice(sorted(run - {shared}, key=lambda c: c.index)), rng)
    hand = rng.sample(sorted(cards, key=lambda c: c.index), min(size, len(cards)))
    near = [c for c in DECK if c not in hand and any(abs(c.rank - h.rank) <= 2 for h in hand)]
    return hand + rng.sample(near, size - len(hand))


def crowded_hand(rng: random.Random, size: int) -> list[Card]:
    """Cards from a window of five ranks in all suits: melds overlap everywhere."""
    low = rng.randint(1, 9)
    return rng.sample([c for c in DECK if low <= c.rank < low + 5], size)


def knock_deal(rng: random.Random, aces: Aces) -> tuple[list[Card], list[Card]]:
    """A knocker with 10 or less deadwood, and a defender holding cards next to the knocker's (lay-offs)
    or, half the time, a meld-rich hand of its own (so that undercuts happen)."""
    while deadwood(knocker := meld_rich_hand(rng, 10), aces) > 10:
        pass
    rest = [c for c in DECK if c not in knocker]
    near = [c for c in rest if any(c.suit == k.suit and abs(c.rank - k.rank) <= 2 or c.rank == k.rank for k in knocker)]

    if rng.random() < 0.5:
        defender = rng.sample(near, min(len(near), rng.randint(3, 7)))
        return knocker, defender + rng.sample([c for c in rest if c not in defender], 10 - len(defender))
    while set(defender := meld_rich_hand(rng, 10)) & set(knocker):
        pass
    return knocker, defender
