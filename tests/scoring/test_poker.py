"""The poker hand evaluator: exhaustive counts, an independent reference, and the scalar and batch paths."""

import itertools
from collections import Counter
from math import comb

import numpy as np
import pytest

from scoring import poker
from scoring.cards import DECK, Card, Rank, Suit, parse_cards
from scoring.poker import Category, all_hands, category, describe, value, value3, value5, values

# Published counts: every five-card hand (of 2,598,960) and three-card hand (of 22,100) by category, and
# the number of distinct hand strengths in each five-card category (7,462 in all).
FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40, Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3744, Category.FLUSH: 5108,
    Category.STRAIGHT: 10200, Category.THREE_OF_A_KIND: 54912, Category.TWO_PAIR: 123552, Category.PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}
FIVE_CARD_CLASSES = {
    Category.STRAIGHT_FLUSH: 10, Category.FOUR_OF_A_KIND: 156, Category.FULL_HOUSE: 156, Category.FLUSH: 1277,
    Category.STRAIGHT: 10, Category.THREE_OF_A_KIND: 858, Category.TWO_PAIR: 858, Category.PAIR: 2860,
    Category.HIGH_CARD: 1277,
}
THREE_CARD_COUNTS = {Category.THREE_OF_A_KIND: 52, Category.PAIR: 3744, Category.HIGH_CARD: 18304}


@pytest.fixture(scope="module")
def five_card_hands() -> np.ndarray:
    return all_hands(5)


@pytest.fixture(scope="module")
def five_card_values(five_card_hands: np.ndarray) -> np.ndarray:
    return values(five_card_hands)


def test_all_hands_lists_every_hand_once(five_card_hands: np.ndarray) -> None:
    for size, hands in ((5, five_card_hands), (3, all_hands(3)), (1, all_hands(1))):
        assert hands.shape == (comb(52, size), size)
        assert (np.diff(hands, axis=1) > 0).all()  # each row ascending: a set of cards
        codes = np.zeros(len(hands), dtype=np.int64)
        for column in hands.T:
            codes = codes * 52 + column
        assert (np.diff(codes) > 0).all()  # rows in strictly increasing order: no hand twice


def test_every_five_card_hand_falls_in_its_published_category(five_card_values: np.ndarray) -> None:
    counts = np.bincount(five_card_values >> 20, minlength=9)
    assert dict(zip(Category, counts.tolist(), strict=True)) == FIVE_CARD_COUNTS
    distinct = np.unique(five_card_values)
    assert len(distinct) == 7462
    assert dict(zip(Category, np.bincount(distinct >> 20).tolist(), strict=True)) == FIVE_CARD_CLASSES


def test_every_three_card_hand_falls_in_its_category() -> None:
    front = values(all_hands(3))
    counts = np.bincount(front >> 20, minlength=9).tolist()
    assert {kind: n for kind, n in zip(Category, counts, strict=True) if n} == THREE_CARD_COUNTS  # no straights
    assert len(np.unique(front)) == 455  # 286 high cards, 156 pairs with a kicker, 13 trips


def test_the_scalar_path_agrees_with_the_batch_path_on_every_hand(
    five_card_hands: np.ndarray, five_card_values: np.ndarray
) -> None:
    for start in range(0, len(five_card_hands), 100_000):  # in slices, to keep the lists small
        chunk = slice(start, start + 100_000)
        assert list(map(value5, five_card_hands[chunk].tolist())) == five_card_values[chunk].tolist()
    front = all_hands(3)
    assert list(map(value3, front.tolist())) == values(front).tolist()


def test_rank_keys_give_every_rank_multiset_its_own_sum() -> None:
    for size in (3, 5):
        multisets = [ranks for ranks in itertools.combinations_with_replacement(range(13), size)
                     if max(Counter(ranks).values()) <= 4]
        sums = {sum(poker._RANK_KEYS[rank] for rank in ranks) for ranks in multisets}
        assert len(sums) == len(multisets)


def test_suit_keys_add_up_to_a_flush_sum_exactly_for_five_of_one_suit() -> None:
    for suits in itertools.product(range(4), repeat=5):
        total = sum(poker._SUIT_KEYS[suit] for suit in suits)
        assert (poker._SUIT_OFFSET[total] != 0) == (len(set(suits)) == 1)


def reference(cards: list[Card]) -> tuple[int, tuple[int, ...]]:
    """A textbook ranking, written apart from the module: (category, ranks by group size then rank).

    Tuples compare as the rules want across sizes too: QQ7 is (1, (12, 7)), above QQ654's (1, (12, 6, 5, 4)).
    """
    ranks = [14 if card.rank is Rank.ACE else int(card.rank) for card in cards]
    groups = sorted(((ranks.count(rank), rank) for rank in set(ranks)), reverse=True)
    sizes = [size for size, _ in groups]
    tops = tuple(rank for _, rank in groups)
    flush = len(cards) == 5 and len({card.suit for card in cards}) == 1
    straight = len(cards) == 5 and len(groups) == 5 and (tops[0] - tops[4] == 4 or tops == (14, 5, 4, 3, 2))
    if straight and tops[0] == 14 and tops[1] == 5:
        tops = (5,)
    if straight and flush:
        return 8, tops[:1]
    if sizes[0] == 4:
        return 7, tops
    if sizes[:2] == [3, 2]:
        return 6, tops
    if flush:
        return 5, tops
    if straight:
        return 4, tops[:1]
    return {3: 3, 2: 2 if sizes[:2] == [2, 2] else 1, 1: 0}[sizes[0]], tops


def representatives() -> list[list[Card]]:
    """One hand for each rank multiset of three or five cards, and each five distinct ranks as a flush."""
    hands = []
    for size in (3, 5):
        for ranks in itertools.combinations_with_replacement(list(Rank), size):
            if max(Counter(ranks).values()) > 4:
                continue
            seen: Counter[Rank] = Counter()
            cards = []
            for rank in ranks:
                cards.append(Card(rank, list(Suit)[seen[rank]]))
                seen[rank] += 1
            if size == 5 and len(seen) == 5:
                hands.append(cards)  # all spades: the flush
                cards = [*cards[:4], Card(cards[4].rank, Suit.HEARTS)]
            hands.append(cards)
    return hands


def test_the_ranking_orders_every_kind_of_hand_as_the_reference_does() -> None:
    """Across all 7,462 five-card and 455 three-card strengths together, as the fouling rule compares them."""
    hands = representatives()
    assert len(hands) == 7462 + 455
    ours = [value(hand) for hand in hands]
    theirs = [reference(hand) for hand in hands]
    assert len(set(ours)) == len(set(theirs)) == len(hands)
    order = sorted(range(len(hands)), key=ours.__getitem__)
    for earlier, later in itertools.pairwise(order):
        assert (ours[earlier] < ours[later]) == (theirs[earlier] < theirs[later]), (hands[earlier], hands[later])
        assert theirs[earlier] <= theirs[later]
    assert [category(v) for v in ours] == [Category(kind) for kind, _ in theirs]


@pytest.mark.parametrize(
    ("lower", "higher"),
    [
        ("QS QH 7D", "QD QC 9S 8S 2S"),  # the rules' example: QQ7 front with QQ982 middle is a proper set...
        ("QD QC 6S 5S 4S", "QS QH 7D"),  # ... and QQ7 front over QQ654 middle is a foul
        ("QS QH 7D", "QD QC 7S 3S 2H"),  # missing cards count lowest: QQ7 is under QQ732
        ("AS 2H 3D 4C 5S", "2S 3H 4D 5C 6S"),  # the wheel is the lowest straight
        ("AS KS QS JS 9H", "AS 2H 3D 4C 5S"),
        ("5S 4S 3S 2S AS", "6H 5H 4H 3H 2H"),  # the steel wheel is the lowest straight flush
        ("KS KH KD 2S 2H", "AS AH AD 2D 2C"),
        ("AS AH AD KS KH", "2S 2H 2D 2C 3S"),  # quads beat any full house, so back 2222x over middle AAAKK
        ("AS AH AD", "2S 2H 2D 3S 3H"),  # any five-card full house beats front trips
        ("KS KH AD", "AS AC 2D"),
        ("9S 9H 5D 5C KS", "9D 9C 5H 5S AS"),  # two pair: the kicker decides
    ],
)
def test_ordering_examples(lower: str, higher: str) -> None:
    assert value(parse_cards(lower)) < value(parse_cards(higher))


def test_suits_never_split_equal_hands() -> None:
    assert value(parse_cards("8S 8H 5D")) == value(parse_cards("8D 8C 5S"))
    assert value(parse_cards("AS KS QS JS 9S")) == value(parse_cards("AH KH QH JH 9H"))


@pytest.mark.parametrize(
    ("hand", "words"),
    [
        ("AS KD 9H 5C 3S", "ace high"), ("6S 6H 2D", "pair of sixes"), ("KS KH 5D 5C JS", "two pair, kings and fives"),
        ("7C 7D 7H", "three sevens"), ("5C 4D 3H 2S AS", "straight, five high"), ("2H 7H 9H JH KH", "flush, king high"),
        ("TH TD TS KC KH", "full house, tens full of kings"), ("2S 2H 2D 2C 3S", "four twos"),
        ("9C 8C 7C 6C 5C", "straight flush, nine high"), ("AH KH QH JH TH", "royal flush"),
    ],
)
def test_describe_names_every_category(hand: str, words: str) -> None:
    assert describe(value(parse_cards(hand))) == words


def test_bad_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="3 or 5 cards, not 4"):
        value(parse_cards("2S 3S 4S 5S"))
    with pytest.raises(ValueError, match=r"not shape \(2, 4\)"):
        values(np.zeros((2, 4), dtype=int))
    for bad in (-1, 52, -256, 2**40):
        with pytest.raises(ValueError, match="card numbers run from 0 to 51"):
            values([[0, 1, 2, 3, bad]])
    with pytest.raises(ValueError, match="card numbers are whole numbers, not float64"):
        values([[0.0, 1, 2]])


def test_card_numbers_follow_the_card_model() -> None:
    """The evaluator reads ``Card.index``: check it ranks the deck's aces high and twos low."""
    aces = [card.index for card in DECK if card.rank is Rank.ACE]
    assert describe(value5([*aces, 1])) == "four aces"
    assert describe(value3([card.index for card in DECK if card.rank is Rank.TWO][:3])) == "three twos"
