"""The best score of a Pinzique roll: the fragment's worked examples, the rules for dice counting twice,
an independent brute-force search by dice, and the faces-to-dice check."""

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from scoring.cards import Card, Rank, Suit, parse_cards
from scoring.pinzique_guide import PINOCHLE_RANKS, ScoreGuide, load_guide, parse_guide
from scoring.pinzique_roll import (
    FACE_NUMBER,
    Meld,
    RollError,
    RollScore,
    best_patterns,
    best_score,
    check_roll,
    default_guide,
    score_roll,
)
from tests.scoring.test_pinzique_guide import shipped

GUIDE = default_guide()


def melds(roll: RollScore) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(meld.code, meld.points, meld.dice) for meld in roll.melds]


# --- the fragment's worked examples -------------------------------------------------------------------

def test_example_2_small_run_and_marriage_in_hearts_not_a_double_marriage() -> None:
    """"The King and the Queen within the leftmost five dice cannot be used to form a double marriage in
    Hearts with the other King and Queen of Hearts." Scored 650-SM + 35-MH."""
    roll = score_roll(parse_cards("9H TH JH QH KH KH QH 9C"))
    assert melds(roll) == [("SMH", 650, (0, 1, 2, 3, 4)), ("MH", 35, (5, 6))]
    assert roll.total == 685 and not roll.all_dice and not roll.provisional


def test_example_3_player_1_pinzique_four_queens_and_marriages_in_hearts_and_clubs() -> None:
    """"50-P + 60-4Q + 70 ... MH & MC": 180 before Player 2 takes the four Queens."""
    roll = score_roll(parse_cards("QS QH QD QC JS KH KC 9S"))
    assert [(meld.code, meld.points) for meld in roll.melds] == [("MH", 35), ("MC", 35), ("P", 50), ("4Q", 60)]
    assert roll.total == 180


def test_example_3_player_2_five_queens_score_as_four() -> None:
    """"60-5Q + 70 = 180 MH & MD": five Queens score the 60 of four (180 with the Pinzique the total implies)."""
    roll = score_roll(parse_cards("QS QH QD QC QH KH KD JS"))
    assert [(meld.code, meld.points) for meld in roll.melds] == [("MH", 35), ("MD", 35), ("P", 50), ("5Q", 60)]
    assert roll.total == 180 and roll.all_dice


def test_bonus_example_four_jacks_pinzique_and_two_marriages_score_on_all_eight_dice() -> None:
    """"four Jacks - one of each suit, a Pinzique (Jack of Spades and Queen of Hearts) and two marriages of
    different suits": the JS counts in 4J and P, the QH in P and MH."""
    roll = score_roll(parse_cards("JS JH JD JC QH KH KC QC"))
    assert melds(roll) == [("MH", 35, (4, 5)), ("MC", 35, (6, 7)), ("P", 50, (0, 4)), ("4J", 40, (0, 1, 2, 3))]
    assert roll.all_dice and roll.total == 160 and roll.provisional  # 4J's 40 is assumed


# --- melds and which dice may count twice --------------------------------------------------------------

@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        ("QC QH QH QD QS QC QD QS", [("8Q", 600)]),
        ("JH QH QH AH 9H TH KH KH", [("LRH", 2600)]),
        ("9H TH JH QH KH AH 9D AC", [("MRH", 1300)]),
        ("TH JH QH KH AH 9D TS AC", [("SMH", 650)]),
        ("KH KH QH QH 9C 9C TS 9S", [("DMH", 350)]),
        ("JS JS QH QH 9C 9C TS 9S", [("DP", 500)]),
        ("KH QH QH 9C 9C TS 9S TC", [("MH", 35)]),  # one King: one marriage (a die counts once a kind)
        ("AS AH AD AC AS 9C TS 9S", [("5A", 100)]),
        ("9C 9C 9S 9S 9D 9H TH TC", []),  # nines score only in runs
        ("9C TD JD QD KC AH 9H TC", []),
    ],
)
def test_each_meld_scores_its_points(faces: str, expected: list[tuple[str, int]]) -> None:
    assert [(meld.code, meld.points) for meld in score_roll(parse_cards(faces)).melds] == expected


def test_a_run_takes_the_other_dice_of_its_suit_as_extras_unless_they_marry() -> None:
    """Extras only win takeaways; a K and Q left over make the suit's marriage instead (35 more)."""
    roll = score_roll(parse_cards("9H TH JH QH KH 9H 9C 9D"))
    assert melds(roll) == [("SMH", 650, (0, 1, 2, 3, 4, 5))]
    assert roll.melds[0].strength == (1, 4, 0)  # small, tops at K, an extra 9


def test_dice_are_positions_in_the_request_in_any_order() -> None:
    faces = parse_cards("JS JH JD JC QH KH KC QC")
    order = [5, 2, 7, 0, 3, 6, 1, 4]
    shuffled = score_roll([faces[i] for i in order])
    for meld, original in zip(shuffled.melds, score_roll(faces).melds, strict=True):
        assert sorted(order[d] for d in meld.dice) == sorted(original.dice)
        assert meld.code == original.code


def test_on_a_tie_the_choice_scoring_on_more_dice_wins() -> None:
    """With a double marriage worth a small run and a marriage, SMH + MH (7 dice) beats DMH (4 dice)."""
    data = shipped()
    data["melds"]["DM"]["points"] = 685
    roll = score_roll(parse_cards("9H TH JH QH KH KH QH 9C"), parse_guide(data, "tie.toml"))
    assert [meld.code for meld in roll.melds] == ["SMH", "MH"] and roll.total == 685


def test_a_double_marriage_worth_more_than_run_and_marriage_is_chosen() -> None:
    data = shipped()
    data["melds"]["DM"]["points"] = 700
    roll = score_roll(parse_cards("9H TH JH QH KH KH QH 9C"), parse_guide(data, "big-dm.toml"))
    assert [meld.code for meld in roll.melds] == ["DMH"]


# --- an independent brute force: every legal choice of melds by dice, from docs/rules/pinzique.md ---

@dataclass(frozen=True)
class Candidate:
    code: str
    points: int
    kind: str
    suit: str
    dice: frozenset[int]


def candidates(faces: Sequence[Card], guide: ScoreGuide) -> list[list[Candidate]]:
    """Every meld the roll holds, one list a family; a family holds at most one meld."""
    def at(rank: Rank, suit: Suit) -> list[int]:
        return [i for i, face in enumerate(faces) if face == Card(rank, suit)]

    def rule(code: str) -> int:
        found = guide.meld(code)
        assert found is not None
        return found.points

    families = []
    for suit in Suit:
        s = suit.letter
        kings, queens = at(Rank.KING, suit), at(Rank.QUEEN, suit)
        families.append([Candidate(f"M{s}", rule("M"), "marriage", s, frozenset({k, q})) for k in kings for q in queens]
                        + [Candidate(f"DM{s}", rule("DM"), "marriage", s, frozenset({*k, *q}))
                           for k in itertools.combinations(kings, 2) for q in itertools.combinations(queens, 2)])
        in_suit = [i for i, face in enumerate(faces) if face.suit == suit]
        runs = []
        for code, ranks in (("SM", PINOCHLE_RANKS[:5]), ("SM", PINOCHLE_RANKS[1:]), ("MR", PINOCHLE_RANKS)):
            for core in itertools.product(*(at(rank, suit) for rank in ranks)):
                rest = [i for i in in_suit if i not in core]
                runs += [Candidate(f"{code}{s}", rule(code), "run", s, frozenset({*core, *extra}))
                         for size in range(len(rest) + 1) for extra in itertools.combinations(rest, size)]
        if len(in_suit) == len(faces) and all(at(rank, suit) for rank in PINOCHLE_RANKS):
            runs.append(Candidate(f"LR{s}", rule("LR"), "run", s, frozenset(in_suit)))
        families.append(sorted(set(runs), key=str))  # different cores with extras can be the same dice
    jacks, queens = at(Rank.JACK, Suit.SPADES), at(Rank.QUEEN, Suit.HEARTS)
    families.append([Candidate("P", rule("P"), "pinzique", "", frozenset({j, q})) for j in jacks for q in queens]
                    + [Candidate("DP", rule("DP"), "pinzique", "", frozenset({*j, *q}))
                       for j in itertools.combinations(jacks, 2) for q in itertools.combinations(queens, 2)])
    for rank in PINOCHLE_RANKS:
        if guide.meld(f"4{rank.letter}") is None:
            continue
        of_rank = [i for i, face in enumerate(faces) if face.rank == rank]
        families.append([
            Candidate(f"{size}{rank.letter}", rule(f"{8 if size == 8 else 4}{rank.letter}"), "rank", "",
                      frozenset(dice))
            for size in range(4, len(of_rank) + 1) for dice in itertools.combinations(of_rank, size)
            if {faces[i].suit for i in dice} == set(Suit)])
    return families


def legal(chosen: Sequence[Candidate]) -> bool:
    """A die counts once in each kind; a run's dice are not also a marriage of its suit."""
    for one, other in itertools.combinations(chosen, 2):
        same_kind = one.kind == other.kind
        run_and_marriage = {one.kind, other.kind} == {"run", "marriage"} and one.suit == other.suit
        if (same_kind or run_and_marriage) and one.dice & other.dice:
            return False
    return True


def brute_force(faces: Sequence[Card], guide: ScoreGuide) -> tuple[int, int]:
    """The best (total, dice scored) over every legal choice of at most one meld a family."""
    families = candidates(faces, guide)

    def search(index: int, chosen: list[Candidate]) -> tuple[int, int]:
        if index == len(families):
            return sum(c.points for c in chosen), len(frozenset().union(*(c.dice for c in chosen)))
        best = search(index + 1, chosen)
        for candidate in families[index]:
            if legal([*chosen, candidate]):
                best = max(best, search(index + 1, [*chosen, candidate]))
        return best

    return search(0, [])


def as_candidate(meld: Meld, options: list[list[Candidate]]) -> Candidate:
    matches = [c for family in options for c in family if c.code == meld.code and c.dice == frozenset(meld.dice)]
    assert len(matches) == 1, f"{meld} is not a meld the roll holds"
    assert matches[0].points == meld.points
    return matches[0]


def check_against_brute_force(faces: Sequence[Card], guide: ScoreGuide = GUIDE) -> None:
    roll = score_roll(faces, guide)
    options = candidates(faces, guide)
    chosen = [as_candidate(meld, options) for meld in roll.melds]
    assert legal(chosen), roll
    assert len({c.code for c in chosen}) == len(chosen)  # at most one meld a family
    scored = len(frozenset().union(*(c.dice for c in chosen)))
    assert (roll.total, scored) == brute_force(faces, guide), faces
    assert roll.all_dice == (scored == len(faces))


def random_rolls(count: int, seed: int) -> list[list[Card]]:
    """Rolls of the dice, most leaning to one suit or one rank so that runs and rank melds are common."""
    rng = random.Random(seed)
    rolls = []
    for _ in range(count):
        lean = rng.choice([*Suit, *PINOCHLE_RANKS, None])
        roll = []
        for die in GUIDE.dice:
            liked = [face for face in die if lean in (face.suit, face.rank)]
            roll.append(rng.choice(liked if liked and rng.random() < 0.75 else die))
        rng.shuffle(roll)
        rolls.append(roll)
    return rolls


@pytest.mark.parametrize("seed", range(4))
def test_best_score_is_the_brute_force_best_over_every_legal_choice(seed: int) -> None:
    for faces in random_rolls(250, seed):
        check_against_brute_force(faces)


def test_the_worked_examples_agree_with_the_brute_force() -> None:
    for faces in ("9H TH JH QH KH KH QH 9C", "QS QH QD QC JS KH KC 9S", "QS QH QD QC QH KH KD JS",
                  "JS JH JD JC QH KH KC QC", "JH QH QH AH 9H TH KH KH", "9H TH JH QH KH 9H 9C 9D",
                  "JS JS QH QH 9C 9C TS 9S", "KH KH QH QH 9C 9C TS 9S"):
        check_against_brute_force(parse_cards(faces))


def test_brute_force_agreement_holds_under_other_points() -> None:
    """Exact, not greedy, whatever the guide says: single melds dear, doubles and runs cheap."""
    data = shipped()
    for code, points in {"M": 300, "DM": 301, "P": 400, "DP": 401, "SM": 10, "MR": 11, "LR": 12}.items():
        data["melds"][code]["points"] = points
    guide = parse_guide(data, "odd.toml")
    for faces in random_rolls(300, 99):
        check_against_brute_force(faces, guide)


# --- the faces must lie on the eight dice at once ---------------------------------------------------------

@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ("9C TC JH QC KS AD 2H QH", "face 2H (position 6) is not on any die: the dice show 9, 10, J, Q, K and A"),
        ("QH QH QH 9C TC JH QC KS", "no set of dice can show this roll: QH, QH, QH need 3 dice but only dice 1, 2"),
        ("JS KH KH 9S 9D 9C 9H TH", "JS, KH, KH need 3 dice but only dice 6, 7 show them"),
        ("9C TC JH QC KS AD 9S", "a roll is 8 faces, one a die, not 7"),
    ],
)
def test_a_roll_the_dice_cannot_show_is_refused(faces: str, message: str) -> None:
    with pytest.raises(RollError) as raised:
        score_roll(parse_cards(faces))
    assert message in str(raised.value)


def fits(faces: Sequence[Card], dice: Sequence[tuple[Card, ...]]) -> bool:
    """Whether the faces can lie on distinct dice: try each die for the first face, then the rest."""
    if not faces:
        return True
    return any(faces[0] in die and fits(faces[1:], [*dice[:i], *dice[i + 1:]]) for i, die in enumerate(dice))


def test_every_roll_of_the_dice_is_accepted_and_only_those() -> None:
    rng = random.Random(7)
    for _ in range(1000):
        check_roll([rng.choice(die) for die in reversed(GUIDE.dice)], GUIDE)
    faces = sorted({face for die in GUIDE.dice for face in die}, key=str)
    accepted = refused = 0
    for _ in range(3000):
        roll = rng.sample(faces * 2, 8)  # any eight faces, at most two of each
        try:
            check_roll(roll, GUIDE)
            accepted += 1
            assert fits(roll, GUIDE.dice), roll
        except RollError:
            refused += 1
            assert not fits(roll, GUIDE.dice), roll
    assert accepted > 20 and refused > 20


def test_best_score_with_the_default_guide_needs_no_guide_argument() -> None:
    faces = parse_cards("9H TH JH QH KH KH QH 9C")
    assert best_score(faces) == best_score(faces, GUIDE)
    assert load_guide() is not GUIDE  # a fresh load is a new guide; the default one is loaded once


# --- every roll of the eight dice -----------------------------------------------------------------------

def rolled_multisets() -> dict[tuple[int, ...], int]:
    """Every set of faces (sorted face numbers) the eight dice can show, with how many of the 6^8 rolls show
    it: die by die, each set so far gains each face of the next die."""
    counts: dict[tuple[int, ...], int] = {(): 1}
    for die in GUIDE.dice:
        grown: dict[tuple[int, ...], int] = {}
        for faces, rolls in counts.items():
            for face in die:
                key = tuple(sorted((*faces, FACE_NUMBER[face])))
                grown[key] = grown.get(key, 0) + rolls
        counts = grown
    return counts


def rank_meld_rolls(rank: Rank) -> dict[int, int]:
    """Independently: rolls holding n dice of the rank, all four suits among them (each die has one face
    of each rank: the dice showing the rank are any subset, the others show one of five other faces)."""
    found: dict[int, int] = {}
    faces = [next(face for face in die if face.rank == rank) for die in GUIDE.dice]
    for size in range(4, 9):
        for dice in itertools.combinations(range(8), size):
            if {faces[d].suit for d in dice} == set(Suit):
                found[size] = found.get(size, 0) + 5 ** (8 - size)
    return found


def large_run_rolls(suit: Suit) -> int:
    """Independently: rolls with all eight dice in the suit holding 9 to A."""
    return sum({face.rank for face in roll} == set(PINOCHLE_RANKS)
               for roll in itertools.product(*([face for face in die if face.suit == suit] for die in GUIDE.dice)))


def pinzique_rolls() -> tuple[int, int]:
    """Independently: rolls with a Pinzique (a JS and a QH, not two of each) and with a double Pinzique.
    Each die shows its JS or QH face, if it has one, or one of its other faces."""
    wanted = parse_cards("JS QH")
    single = double = 0
    for picks in itertools.product(*([*(face for face in die if face in wanted), None] for die in GUIDE.dice)):
        rolls = math.prod(6 - sum(face in die for face in wanted) if pick is None else 1
                          for pick, die in zip(picks, GUIDE.dice, strict=True))
        pairs = min(picks.count(wanted[0]), picks.count(wanted[1]), 2)
        single += rolls * (pairs == 1)
        double += rolls * (pairs == 2)
    return single, double


def test_every_one_of_the_6_to_the_8_rolls_scores() -> None:
    """Each distinct set of faces the dice can show is scored once, weighted by the rolls showing it; the
    meld counts agree with counts made independently of the engine."""
    multisets = rolled_multisets()
    assert sum(multisets.values()) == 6 ** 8 == 1_679_616
    melds: dict[str, int] = {}
    best = 0
    for faces, rolls in multisets.items():
        patterns, scored = best_patterns(faces, GUIDE)
        for pattern in patterns:
            melds[pattern.code] = melds.get(pattern.code, 0) + rolls
        best = max(best, sum(pattern.rule.points for pattern in patterns))
        assert 0 <= scored <= 8
    for rank in PINOCHLE_RANKS[2:]:
        assert {n: melds.get(f"{n}{rank.letter}", 0) for n in range(4, 9)} == \
            {n: rank_meld_rolls(rank).get(n, 0) for n in range(4, 9)}, rank
    for suit in Suit:
        assert melds.get(f"LR{suit.letter}", 0) == large_run_rolls(suit)
    assert (melds.get("P", 0), melds.get("DP", 0)) == pinzique_rolls()
    assert best == 2600  # a large run
