"""Every (hand, starter) deal counted, against the published Cribbage hand distribution."""

import random
from functools import cache
from itertools import combinations

import numpy as np

from scoring.cards import DECK
from scoring.cribbage import show, show_total
from scoring.cribbage_distribution import DEALS, all_hands, distribution, show_totals

# Published distribution of hand scores over all 12,994,800 (hand, starter) deals (the
# "Cribbage statistics" tables): 19, 25, 26 and 27 cannot be scored.
HANDS = {
    0: 1_009_008, 1: 99_792, 2: 2_813_796, 3: 505_008, 4: 2_855_676, 5: 697_508, 6: 1_800_268, 7: 751_324,
    8: 1_137_236, 9: 361_224, 10: 388_740, 11: 51_680, 12: 317_340, 13: 19_656, 14: 90_100, 15: 9_168,
    16: 58_248, 17: 11_196, 18: 2_708, 20: 8_068, 21: 2_496, 22: 444, 23: 356, 24: 3_680, 28: 76, 29: 4,
}


@cache
def hand_distribution() -> dict[int, int]:
    return distribution()


@cache
def crib_distribution() -> dict[int, int]:
    return distribution(crib=True)


def test_all_hands_reproduce_the_published_distribution() -> None:
    assert len(all_hands()) == 270_725 and sum(HANDS.values()) == DEALS
    assert hand_distribution() == HANDS


def test_crib_distribution() -> None:
    """The crib differs from a hand only in the flush: "a four-card flush in the crib is scored only if
    it is the same suit as the starter card". So it has 1,022,208 scoreless deals (published), and
    exactly the four-card flushes with an off-suit starter move down by 4 points."""
    crib = crib_distribution()
    assert sum(crib.values()) == DEALS
    assert crib[0] == 1_022_208
    assert not {19, 25, 26, 27} & set(crib) and crib[29] == 4
    # Independently of the vectorised path: score each moved deal with the scalar scorer.
    moved: dict[int, int] = {}
    for suit in range(4):
        suited = DECK[13 * suit:13 * suit + 13]
        for hand in combinations(suited, 4):
            for starter in DECK:
                if starter.suit is not hand[0].suit:
                    points = show_total(hand, starter)
                    moved[points] = moved.get(points, 0) + 1
    assert sum(moved.values()) == 4 * 715 * 39
    expected = dict(HANDS)
    for points, n in moved.items():
        expected[points] -= n
        expected[points - 4] = expected.get(points - 4, 0) + n
    assert crib == {points: n for points, n in expected.items() if n}


def test_vectorised_and_scalar_scores_agree_on_random_deals() -> None:
    rng = random.Random(21)
    deals = [rng.sample(range(52), 5) for _ in range(20_000)]
    deals += [[*hand, starter] for hand, starter in [([4, 17, 30, 10], 43), ([1, 5, 7, 9], 12), ([1, 5, 7, 9], 25)]]
    cards = np.array(deals)
    for crib in (False, True):
        fast = show_totals(cards[:, :4], cards[:, 4], crib).tolist()
        slow = [show([DECK[i] for i in deal[:4]], DECK[deal[4]], crib).total for deal in deals]
        assert fast == slow
