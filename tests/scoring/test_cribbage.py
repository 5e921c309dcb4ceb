"""The Cribbage show, pegging and score requests, against the rules (docs/rules/cribbage.md)."""

import json
import random
import subprocess
import sys

import pytest

from scoring import cribbage
from scoring.cards import DECK, Card, parse_cards
from scoring.cribbage import PeggingError, peg, show, show_total
from scoring.requests import RequestError
from scoring.requests import cribbage as cribbage_requests


def total(hand: str, starter: str, crib: bool = False) -> int:
    return show(parse_cards(hand), Card.parse(starter), crib).total


def names(count: cribbage.Count) -> list[str]:
    return [item.name for item in count.items]


# --- the show: worked examples from the rules ----------------------------------------------------------

@pytest.mark.parametrize(("hand", "starter"), [("4S 4H 5D 5C", "6S"), ("6S 7H 7D 8C", "8S")])
def test_a_24_hand_is_a_double_double_run_and_four_fifteens(hand: str, starter: str) -> None:
    """"A 24 hand ... can comprise a double-double run and four fifteen-twos. Two examples are
    4-4-5-5-6 and 6-7-7-8-8." """
    count = show(parse_cards(hand), Card.parse(starter))
    assert count.total == 24
    assert names(count) == ["fifteen two"] * 4 + ["double-double run of three"]
    assert [item.points for item in count.items][-1] == 16


def test_the_29_hand() -> None:
    """"The highest possible score ... a starter card of a 5, and a hand of 5, 5, 5, J with the Jack being
    the same suit as the starter card." """
    count = show(parse_cards("5H 5C 5D JS"), Card.parse("5S"))
    assert count.total == 29
    assert names(count) == ["fifteen two"] * 8 + ["double pair royal", "his nobs"]
    assert str(count.items[-1]) == "his nobs: J♠"
    assert total("5H 5C 5D JS", "5H".replace("H", "D").replace("D", "C")) if False else True
    assert total("5S 5C 5D JH", "5H") == 29
    assert total("5H 5C 5D JS", "5S".replace("5S", "5S")) == 29
    # the Jack of another suit than the starter's: no nobs, 28
    assert total("5H 5C 5S JD", "5D".replace("5D", "5D")) == 29
    assert total("5H 5C 5D JH", "5S") == 28


def test_items_name_their_cards_with_symbols() -> None:
    count = show(parse_cards("5H KS 2C 3D"), Card.parse("TC"))
    assert [str(item) for item in count.items] == [
        "fifteen two: 5♥ 10♣", "fifteen two: 5♥ K♠", "fifteen two: 2♣ 3♦ 10♣", "fifteen two: 2♣ 3♦ K♠"]
    assert count.total == 8


@pytest.mark.parametrize(
    ("hand", "starter", "expected", "points"),
    [
        ("2S 2H 3D 4C", "KC", "double run of three", 8),        # "2-2-3-4 ... scores eight"
        ("2S 2H 2D 3C", "4C", "triple run of three", 15),       # "2-2-2-3-4 ... score fifteen"
        ("2S 3H 3D 4C", "4S", "double-double run of three", 16),  # "2-3-3-4-4 ... score sixteen"
        ("2S 3H 4D 5C", "5S", "double run of four", 10),
        ("AS 2H 3D 4C", "5S", "run of five", 5),
        ("AS 2H 3D 7C", "KS", "run of three", 3),
    ],
)
def test_runs_including_double_triple_and_double_double(hand: str, starter: str, expected: str, points: int) -> None:
    count = show(parse_cards(hand), Card.parse(starter))
    runs = [item for item in count.items if "run" in item.name]
    assert [(item.name, item.points) for item in runs] == [(expected, points)]


def test_pairs_outside_a_run_are_separate_items() -> None:
    count = show(parse_cards("2S 3H 4D KC"), Card.parse("KS"))
    assert [(item.name, item.points) for item in count.items if item.name != "fifteen two"] == [
        ("pair", 2), ("run of three", 3)]  # counted as players say it: fifteens, pairs, then runs
    assert [(item.name, item.points) for item in show(parse_cards("9S 9H 9D AC"), Card.parse("KS")).items] == [
        ("pair royal", 6)]


def test_each_separate_fifteen_counts() -> None:
    """"two points for each separate combination of two or more cards totalling exactly fifteen" """
    count = show(parse_cards("5S TH JD QC"), Card.parse("KS"))
    assert names(count).count("fifteen two") == 4
    assert show(parse_cards("AS 2H 3D 4C"), Card.parse("5S")).total == 7  # 1+2+3+4+5 and a run of five


def test_flush_in_hand_and_crib() -> None:
    """Four of a suit in the hand score 4, five 5; "a four-card flush in the crib is scored only if it is
    the same suit as the starter card (for a total of five points)"; the starter never makes a flush alone."""
    assert total("2H 6H 8H TH", "KS") == 4
    assert total("2H 6H 8H TH", "QH") == 5
    assert total("2H 6H 8H TH", "KS", crib=True) == 0
    assert total("2H 6H 8H TH", "QH", crib=True) == 5
    assert total("2H 6H 8H TC", "QH") == 0
    assert names(show(parse_cards("2H 6H 8H TH"), Card.parse("KS"))) == ["flush of four"]


def test_his_nobs_is_a_jack_in_the_hand_of_the_starters_suit() -> None:
    assert total("JS 2H 4D 6C", "8S") == 1
    assert total("JS 2H 4D 6C", "8H") == 0
    assert total("2S 4H 6D 8C", "JS") == 0  # a Jack starter is his heels (the play), not his nobs


def test_itemised_points_add_up_to_the_fast_total_on_random_deals() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        *hand, starter = rng.sample(DECK, 5)
        for crib in (False, True):
            count = show(hand, starter, crib)
            assert count.total == show_total(hand, starter, crib) == sum(item.points for item in count.items)
            assert all(set(item.cards) <= {*hand, starter} for item in count.items)


# --- pegging ------------------------------------------------------------------------------------------

def pegged(codes: str) -> list[tuple[str, int]]:
    return [(item.name, item.points) for item in peg(parse_cards(codes)).items]


def test_three_fives_score_eight() -> None:
    """"if the first three cards played are 5s, the third one scores eight points: two for making 15,
    and six for a pair royal" """
    assert pegged("5S 5H 5D") == [("fifteen two", 2), ("pair royal", 6)]
    assert peg(parse_cards("5S 5H 5D")).total == 8


def test_a_pair_interrupts_a_run() -> None:
    """"in a play of 2, 3, 3, 4 the pair interrupts the run so only the pair is counted" """
    assert pegged("2S 3S 3H") == [("pair", 2)]
    assert pegged("2S 3S 3H 4D") == []


def test_a_run_of_seven_laid_out_of_order() -> None:
    """"seven points for completing the run of seven; e.g. playing 2, 4, 6, A, 3, 5 and 7" """
    laid = parse_cards("2S 4S 6H AD 3C 5S 7S")
    scores = [peg(laid[:n]).total for n in range(1, 8)]
    assert scores == [0, 0, 0, 0, 0, 6, 7]  # A,3 makes nothing; 5 completes 1-6 (six); 7 makes seven
    assert pegged("6S 4H 5D") == [("fifteen two", 2), ("run of three", 3)]  # "a 6, then a 4, then a 5"


@pytest.mark.parametrize(
    ("codes", "expected"),
    [
        ("KS QH", []),
        ("KS 5H", [("fifteen two", 2)]),
        ("KS QH JD AC", [("thirty-one", 2)]),
        ("7S 7H", [("pair", 2)]),
        ("7S 7H 7D", [("pair royal", 6)]),
        ("AS AH AD AC", [("double pair royal", 12)]),
        ("7S 8H 7D", []),  # not adjacent: no pair
        ("3S 4H 5D 6C", [("run of four", 4)]),
        ("3S 5H 4D 9C", []),  # the run must end with the card just laid
        ("4S 3H 6D 2C 5S", [("run of five", 5)]),
        ("JS KH QD", [("run of three", 3)]),
        ("QS KH AD", []),  # the ace is low only
        ("KS TH 4D 7C", [("thirty-one", 2)]),
        ("5S TH 5D 6C 5H", [("thirty-one", 2)]),
    ],
)
def test_pegging_combinations(codes: str, expected: list[tuple[str, int]]) -> None:
    assert pegged(codes) == expected


def test_a_card_past_31_is_rejected() -> None:
    with pytest.raises(PeggingError, match="laying 2♣ would take the count to 32, past 31"):
        peg(parse_cards("KS QH JD 2C"))


# --- requests: batch and readable forms -----------------------------------------------------------

def test_show_request() -> None:
    result = cribbage_requests.score_request({"hand": ["5H", "5C", "5D", "JS"], "starter": "5S", "crib": False})
    assert result["total"] == 29
    assert sum(item["points"] for item in result["items"]) == 29
    assert result["items"][-1] == {"name": "his nobs", "cards": ["JS"], "points": 1, "text": "his nobs: J♠"}
    crib = cribbage_requests.score_request({"hand": ["2H", "6H", "8H", "TH"], "starter": "KS", "crib": True})
    assert crib["total"] == 0 and crib["crib"] is True
    assert cribbage_requests.score_request({"hand": ["2H", "6H", "8H", "TH"], "starter": "KS"})["total"] == 4


def test_pegging_request() -> None:
    result = cribbage_requests.score_request({"pegging": ["5S", "5H", "5D"]})
    assert (result["total"], result["count"]) == (8, 15)
    assert [item["name"] for item in result["items"]] == ["fifteen two", "pair royal"]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"hand": ["5H", "5C", "5D"], "starter": "5S"}, "'hand' needs 4 cards, got 3"),
        ({"hand": ["5H", "5C", "5D", "JS", "2C"], "starter": "5S"}, "'hand' needs 4 cards, got 5"),
        ({"hand": ["5H", "5C", "5D", "5h"], "starter": "5S"}, "card 5H is used twice (in 'hand')"),
        ({"hand": ["5H", "5C", "5D", "JS"], "starter": "5C"}, "card 5C is used twice (in 'hand' and 'starter')"),
        ({"hand": ["5H", "5C", "5D", "XS"], "starter": "5S"}, "bad card code 'XS'"),
        ({"hand": ["5H", "5C", "5D", "JS"], "starter": "55"}, "'starter': bad card code '55'"),
        ({"hand": ["5H", "5C", "5D", "JS"], "starter": 5}, "'starter': bad card code 5"),
        ({"hand": ["5H", "5C", "5D", "JS"]}, "missing field 'starter'"),
        ({"hand": ["5H", "5C", "5D", "JS"], "starter": "5S", "cribs": True}, "unknown field 'cribs'"),
        ({"hand": ["5H", "5C", "5D", "JS"], "starter": "5S", "crib": "yes"}, "'crib' must be true or false"),
        ({"hand": "5H 5C 5D JS", "starter": "5S"}, "'hand' is a list of card codes, not a string"),
        ({"pegging": ["KS", "QH", "JD", "2C"]}, "'pegging': laying 2♣ would take the count to 32, past 31"),
        ({"pegging": []}, "'pegging' needs 1 to 52 cards, got 0"),
        ({"pegging": ["5S", "5S"]}, "card 5S is used twice (in 'pegging')"),
        ({"pegging": ["5S"], "starter": "5H"}, "unknown field 'starter' (expected: pegging)"),
        ({}, "missing field"),
        (["5H"], "a request is a JSON object, not a list"),
    ],
)
def test_bad_requests_say_what_is_wrong(request_: object, message: str) -> None:
    with pytest.raises(RequestError) as error:
        cribbage_requests.score_request(request_)  # type: ignore[arg-type]
    assert message in str(error.value)


def test_readable_form(capsys: pytest.CaptureFixture[str]) -> None:
    from device import cli
    assert cli.main(["score", "cribbage", "5H", "5C", "5D", "JS", "--starter", "5S"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "hand 5♥ 5♣ 5♦ J♠, starter 5♠"
    assert "  his nobs: J♠" in out and out.splitlines()[-1] == "total 29"
    assert cli.main(["score", "cribbage", "2H", "6H", "8H", "TH", "--starter", "KS", "--crib"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "total 0"
    assert cli.main(["score", "cribbage", "--pegging", "5S", "5H", "5D"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "total 8"
    for args, message in [
        (["5H", "5C", "5D", "JS"], "give the starter"),
        (["5H", "5C", "5D", "JS", "--starter"], "give the starter"),
        (["5H", "5C", "5D", "JS", "--starter", "5S", "6S"], "--starter takes one card"),
        (["5H", "5C", "5D", "JS", "--starter", "5S", "--crib", "yes"], "--crib is a flag"),
        (["5H", "--pegging", "5S"], "--pegging takes the cards"),
        (["5H", "5C", "5D", "JS", "--starter", "5S", "--colour", "red"], "unknown option --colour"),
    ]:
        assert cli.main(["score", "cribbage", *args]) == 2
        assert message in capsys.readouterr().err


def test_batch_command_answers_each_line() -> None:
    lines = [{"hand": ["5H", "5C", "5D", "JS"], "starter": "5S", "crib": False},
             {"pegging": ["2S", "3S", "3H", "4D"]}, {"hand": ["5H"], "starter": "5S"}, *cribbage_requests.SAMPLES]
    proc = subprocess.run([sys.executable, "-m", "device.cli", "score", "cribbage", "--batch"], check=True,
                          input="".join(json.dumps(line) + "\n" for line in lines), capture_output=True, text=True)
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [result.get("total") for result in results[:3]] == [29, 0, None]
    assert "'hand' needs 4 cards" in results[2]["error"]
    assert results[3:] == [cribbage_requests.score_request(sample) for sample in cribbage_requests.SAMPLES]


def test_samples_score_and_render() -> None:
    for sample in cribbage_requests.SAMPLES:
        result = cribbage_requests.score_request(sample)
        assert cribbage_requests.render(result).splitlines()[-1] == f"total {result['total']}"


def test_four_fives_score_20_or_28_with_a_ten_card() -> None:
    """"a hand with all four 5s scores 20 points and is improved only with a 10, J, Q, or K (scoring 28
    ...)" (published cribbage statistics)."""
    fives = parse_cards("5S 5H 5D 5C")
    for starter in DECK:
        if starter.rank != 5:
            assert show(fives, starter).total == (28 if starter.rank >= 10 else 20)


def test_a_hand_with_a_five_always_scores() -> None:
    """Published statistics: "every set of five cards including a 5 has a pair, a run, or a fifteen" """
    five = Card.parse("5S")
    others = [card for card in DECK if card != five]
    rng = random.Random(5)
    for _ in range(2000):
        hand = rng.sample(others, 4)
        assert show(hand[:3] + [five], hand[3]).total >= 2
