"""An independent, exhaustive Gin Rummy referee for the other tests (and the tests of the referee itself):
simple rather than fast.

It knows nothing of scoring.gin_melds' tables: a meld is any 3+ cards that are all one rank (at most 4) or
one suit in consecutive ranks (ace low, or also high after the king when ``high_aces``; never K-A-2), and
every collection of disjoint melds is tried.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from scoring.cards import Card, parse_cards

Hand = frozenset[Card]


def value(cards: Hand) -> int:
    return sum(min(int(card.rank), 10) for card in cards)


def is_meld(cards: Hand, high_aces: bool) -> bool:
    if len(cards) < 3:
        return False
    if len({card.rank for card in cards}) == 1:
        return True
    if len({card.suit for card in cards}) != 1:
        return False
    orders = [sorted(int(card.rank) for card in cards)]
    if high_aces:
        orders.append(sorted(14 if card.rank == 1 else int(card.rank) for card in cards))
    return any(order == list(range(order[0], order[0] + len(order))) for order in orders)


def melds_in(hand: Hand, high_aces: bool) -> list[Hand]:
    """Every meld within ``hand``: each is a subset of the cards of one rank or of one suit."""
    groups = [[c for c in hand if c.rank == card.rank] for card in hand] + [[c for c in hand if c.suit == card.suit] for card in hand]
    found = {
        frozenset(subset)
        for group in groups
        for size in range(3, len(group) + 1)
        for subset in itertools.combinations(group, size)
    }
    return [meld for meld in found if is_meld(meld, high_aces)]


def collections(melds: list[Hand], start: int = 0, used: Hand = frozenset()) -> Iterator[tuple[Hand, ...]]:
    """Every collection of disjoint melds (the empty one first)."""
    yield ()
    for i in range(start, len(melds)):
        if not melds[i] & used:
            for rest in collections(melds, i + 1, used | melds[i]):
                yield (melds[i], *rest)


def min_deadwood(hand: Hand, high_aces: bool = False) -> int:
    return min(value(hand - frozenset().union(*chosen)) for chosen in collections(melds_in(hand, high_aces)))


def min_deadwood_after_discard(hand: Hand, high_aces: bool = False) -> int:
    """Every (melds, discard) pair: melds from the hand, the discard any card outside them."""
    best = 1000
    for chosen in collections(melds_in(hand, high_aces)):
        left = hand - frozenset().union(*chosen)
        for discard in left:
            best = min(best, value(left - {discard}))
    return best


def min_arrangements(hand: Hand, high_aces: bool) -> list[tuple[Hand, ...]]:
    """Every collection of melds leaving the least deadwood."""
    chosen = list(collections(melds_in(hand, high_aces)))
    best = min(value(hand - frozenset().union(*c)) for c in chosen)
    return [c for c in chosen if value(hand - frozenset().union(*c)) == best]


def defender_after_layoffs(melds: tuple[Hand, ...], defender: Hand, high_aces: bool) -> int:
    """The defender's least deadwood: lay off any card that keeps a knocker's meld a meld, one at a
    time in every order, and meld the rest as well as possible."""
    best = 1000
    seen = set()
    stack = [(melds, defender)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        table, held = state
        best = min(best, min_deadwood(held, high_aces))
        for i, meld in enumerate(table):
            for card in held:
                if is_meld(meld | {card}, high_aces):
                    stack.append(((*table[:i], meld | {card}, *table[i + 1:]), held - {card}))
    return best


def settle(knocker: Hand, defender: Hand, high_aces: bool = False) -> tuple[str, int]:
    """(result, points) of a legal knock with Hoyle's bonuses: gin 25, undercut 25 (on a tie too)."""
    arrangements = min_arrangements(knocker, high_aces)
    knocked = value(knocker - frozenset().union(*arrangements[0]))
    if knocked == 0:
        return "gin", 25 + min_deadwood(defender, high_aces)
    left = max(defender_after_layoffs(melds, defender, high_aces) for melds in arrangements)
    if left <= knocked:
        return "undercut", knocked - left + 25
    return "knock", left - knocked


def hand(codes: str) -> Hand:
    return frozenset(parse_cards(codes))


def test_referee_melds() -> None:
    assert is_meld(hand("QS KS AS"), high_aces=True) and not is_meld(hand("QS KS AS"), high_aces=False)
    assert not is_meld(hand("KS AS 2S"), high_aces=True)
    assert is_meld(hand("7S 7H 7D 7C"), high_aces=False) and not is_meld(hand("7S 7H 8H"), high_aces=False)
    assert len(melds_in(hand("4S 5S 6S 7S"), high_aces=False)) == 3  # 4-6, 5-7, 4-7


def test_referee_on_the_issue_hands() -> None:
    assert min_deadwood_after_discard(hand("4S 4C 4D 4H 5S 5C 5D 6S 2C 3S 3C")) == 3
    assert min_deadwood_after_discard(hand("3S 4S 5S 2C 3C 4C 5D 2H 3H 4H 5H")) == 0


def test_referee_settles_by_hoyle() -> None:
    # Lay-offs in a chain: 4H below 5H-9H, TH then JH above.
    assert settle(hand("5H 6H 7H 8H 9H KS KH KD 2C 3D"), hand("TH JH 4H 2S 2D 2H 9C 9D 9S QC")) == ("knock", 5)
    assert settle(hand("2S 3S 4S 6H 7H 8H 9C 9D 9H 2D"), hand("5S TC JC QC KC 7C 7D 7S AD AH")) == ("undercut", 25)
