"""Minimum deadwood against the exhaustive referee (test_gin_brute) on thousands of random, meld-rich
(two or three overlapping melds) and crowded hands, with ace low and with high-low aces."""

import random
from collections.abc import Callable

import pytest

from benchmarks.gin_hands import crowded_hand, meld_rich_hand, random_hand
from scoring.cards import Card, parse_cards
from scoring.gin_melds import (
    Aces,
    arrangements,
    best_discard,
    card_value,
    cards_of_mask,
    deadwood,
    deadwood_after_discard,
    mask_of,
    meld,
)
from tests.scoring import test_gin_brute as brute

Maker = Callable[[random.Random, int], list[Card]]
MAKERS: dict[str, Maker] = {"random": random_hand, "meld-rich": meld_rich_hand, "crowded": crowded_hand}


def check_melding(cards: list[Card], aces: Aces) -> None:
    """The arrangement shown is real: melds are melds, nothing is lost or doubled, the count adds up."""
    melding = best_discard(cards, aces) if len(cards) == 11 else meld(cards, aces)
    shown = [c for m in melding.melds for c in m] + list(melding.unmatched) + [melding.discard] * (len(cards) == 11)
    assert sorted(shown, key=lambda c: c.index) == sorted(cards, key=lambda c: c.index)
    assert all(brute.is_meld(frozenset(m), aces is Aces.HIGH_LOW) for m in melding.melds)
    assert melding.deadwood == sum(map(card_value, melding.unmatched))


@pytest.mark.parametrize("aces", list(Aces))
@pytest.mark.parametrize("kind", list(MAKERS))
@pytest.mark.parametrize("size", [10, 11])
def test_minimum_deadwood_matches_exhaustive_search(kind: str, size: int, aces: Aces) -> None:
    rng = random.Random(f"{kind}{size}{aces}")
    high = aces is Aces.HIGH_LOW
    count = 4000 if aces is Aces.LOW else 1000
    for _ in range(count):
        cards = MAKERS[kind](rng, size)
        hand = frozenset(cards)
        if size == 10:
            assert deadwood(cards, aces) == brute.min_deadwood(hand, high), cards
        else:
            assert deadwood_after_discard(cards, aces) == brute.min_deadwood_after_discard(hand, high), cards
        if rng.random() < 0.1:
            check_melding(cards, aces)


@pytest.mark.parametrize("aces", list(Aces))
def test_every_minimum_arrangement_is_found(aces: Aces) -> None:
    """``arrangements`` yields exactly the referee's minimum collections (adjacent runs joined)."""
    rng = random.Random(7)
    high = aces is Aces.HIGH_LOW
    for _ in range(300):
        cards = meld_rich_hand(rng, 10)
        ours = {frozenset(frozenset(cards_of_mask(m)) for m in melds) for melds, _ in arrangements(mask_of(cards), aces)}
        theirs = {frozenset(melds) for melds in brute.min_arrangements(frozenset(cards), high)}
        # The referee also lists long runs split into pieces: those join to ours.
        assert ours <= theirs and {join_runs(melds, high) for melds in theirs} == ours, cards


def join_runs(melds: frozenset[frozenset[Card]], high: bool) -> frozenset[frozenset[Card]]:
    """Melds with runs that continue each other (together one run) joined into one."""
    joined = set(melds)
    while pair := next(((a, b) for a in joined for b in joined
                        if a != b and len({c.suit for c in a | b}) == 1 and brute.is_meld(a | b, high)), None):
        joined -= set(pair)
        joined.add(pair[0] | pair[1])
    return frozenset(joined)


def test_the_issue_hands() -> None:
    # Overlapping sets and runs: keep 2C-3C-4C, three 4s and three 5s, discard 6S, 3S left: 3.
    overlapping = best_discard(parse_cards("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C"))
    assert overlapping.deadwood == 3 and overlapping.discard == Card.parse("6S")
    # Keeping the most melded value is wrong: discarding 5D leaves gin.
    gin = best_discard(parse_cards("3S 4S 5S 2C 3C 4C 5D 2H 3H 4H 5H"))
    assert (gin.deadwood, gin.discard, gin.unmatched) == (0, Card.parse("5D"), ())


def test_card_values_and_ace_rules() -> None:
    assert deadwood(parse_cards("AS KS QS JS TS 9S 2H 3D 4C 5C")) == 1 + 2 + 3 + 4 + 5  # 9S-KS melded
    assert deadwood(parse_cards("QS KS AS")) == 21 and deadwood(parse_cards("QS KS AS"), Aces.HIGH_LOW) == 0
    assert deadwood(parse_cards("KS AS 2S"), Aces.HIGH_LOW) == 13  # never round the corner
    assert deadwood(parse_cards("AS 2S 3S")) == 0


def test_high_low_ace_goes_where_it_saves_most() -> None:
    melding = meld(parse_cards("AS 2S 3S JS QS KS 9D 9H 9C 5H"), Aces.HIGH_LOW)
    assert melding.deadwood == 5
    assert {tuple(map(str, m)) for m in melding.melds} >= {("9H", "9D", "9C")}
    assert len(list(arrangements(mask_of(parse_cards("AS 2S 3S 4S JS QS KS")), Aces.HIGH_LOW))) == 2
