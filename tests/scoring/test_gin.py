"""Settling knocks (against the exhaustive referee too), the game's bonuses, and gin requests."""

import io
import json
import random
import re

import pytest

from benchmarks.gin_hands import knock_deal
from device import cli, games, score_command
from scoring.cards import Card, parse_cards
from scoring.gin import GameRules, Rules, score_game, settle
from scoring.gin_melds import Aces
from scoring.requests import RequestError
from scoring.requests import gin as gin_requests
from scoring.requests.gin import score_request
from tests.scoring import test_gin_brute as brute


@pytest.mark.parametrize(("aces", "count"), [(Aces.LOW, 500), (Aces.HIGH_LOW, 200)])
def test_settlement_matches_exhaustive_lay_offs(aces: Aces, count: int) -> None:
    """The referee tries every minimum arrangement of the knocker, every order of single-card lay-offs
    and every meld of what the defender keeps."""
    rng = random.Random(f"settle{aces}")
    high = aces is Aces.HIGH_LOW
    for _ in range(count):
        knocker, defender = knock_deal(rng, aces)
        hand = settle(knocker, defender, Rules(aces=aces))
        assert (hand.result, hand.points) == brute.settle(frozenset(knocker), frozenset(defender), high), (knocker, defender)
        # What is shown adds up: the lay-offs go on the knocker's melds, the rest is the defender's arrangement.
        laid = frozenset(hand.layoffs)
        assert brute.defender_after_layoffs(tuple(map(frozenset, hand.knocker.melds)), laid, high) == 0
        assert hand.defender.deadwood == brute.min_deadwood(frozenset(defender) - laid, high)


def test_a_run_extended_twice_and_from_both_ends() -> None:
    """TH then JH go on 5H-9H one after the other, and 4H below it."""
    hand = settle(parse_cards("5H 6H 7H 8H 9H KS KH KD 2C 3D"), parse_cards("TH JH 4H 2S 2D 2H 9C 9D 9S QC"))
    assert set(hand.layoffs) == set(parse_cards("4H TH JH")) and (hand.result, hand.points) == ("knock", 5)


def test_a_gap_between_two_runs_fills_from_both_sides_and_a_set_is_completed() -> None:
    knocker = parse_cards("2S 3S 4S 9S TS JS 7H 7D 7C AD")
    hand = settle(knocker, parse_cards("5S 6S 8S AH 2H 3C 4D QD KH 5C"))
    assert set(hand.layoffs) == set(parse_cards("5S 6S 8S"))  # 5S then 6S above 4S, 8S below 9S
    assert hand.defender.deadwood == 1 + 2 + 3 + 4 + 10 + 10 + 5
    assert settle(knocker, parse_cards("7S AH 2H 3C 4D QD KH 5C 8C 9D")).layoffs == (Card.parse("7S"),)


def test_the_defender_keeps_its_own_meld_rather_than_lay_off() -> None:
    hand = settle(parse_cards("6H 7H 8H 2S 3S 4S KC KD KS AD"), parse_cards("9H 9S 9C 5D 5C 5H QD JC 2D 3C"))
    assert hand.layoffs == () and hand.defender.deadwood == 10 + 10 + 2 + 3


def test_ties_between_arrangements_go_the_knockers_way() -> None:
    """4H 5H 6H 5S 5D is the run (5S 5D left) or the three 5s (4H 6H left): 10 either way. The defender's
    3H, 2H and 7H would go on the run, so the knocker shows the set."""
    knocker = parse_cards("4H 5H 6H 5S 5D 9C TC JC QC KC")
    hand = settle(knocker, parse_cards("2H 3H 7H AS 8S 8D 8H KS QS JS"))
    assert tuple(parse_cards("5S 5H 5D")) in hand.knocker.melds
    assert hand.layoffs == () and (hand.result, hand.winner, hand.points) == ("knock", "knocker", 13 - 10)
    # Shown as the run, 3H 2H and 7H would go on it and the defender would undercut.


def test_undercut_on_a_tie_scores_the_bonus() -> None:
    hand = settle(parse_cards("2S 3S 4S 6H 7H 8H 9C 9D 9H 2D"), parse_cards("5S TC JC QC KC 7C 7D 7S AD AH"))
    assert (hand.knocker.deadwood, hand.defender.deadwood) == (2, 2)
    assert (hand.result, hand.winner, hand.points) == ("undercut", "defender", 25)
    assert settle(parse_cards("2S 3S 4S 6H 7H 8H 9C 9D 9H 2D"), parse_cards("5S TC JC QC KC 7C 7D 7S AD AH"),
                  Rules(undercut_bonus=20)).points == 20


def test_gin_scores_25_and_the_defender_may_not_lay_off() -> None:
    defender = parse_cards("9H 4H 2S 3D 7C TC 9D QS QC JD")  # 9H and 4H would go on 5H-8H after a knock
    gin_cards = parse_cards("5H 6H 7H 8H KS KH KD 3C 4C 5C")
    hand = settle(gin_cards, defender)
    assert (hand.result, hand.winner, hand.layoffs, hand.defender.deadwood) == ("gin", "knocker", (), 74)
    assert hand.points == 25 + 74
    assert settle(gin_cards, defender, Rules(gin_bonus=20)).points == 20 + 74
    assert score_request({"knocker": codes(gin_cards), "defender": codes(defender), "gin_bonus": 30})["points"] == 104
    knock = settle(parse_cards("5H 6H 7H 8H KS KH KD 3C 4C AC"), defender)
    assert knock.result == "knock" and set(knock.layoffs) == set(parse_cards("9H 4H"))


def test_big_gin_is_a_setting() -> None:
    eleven = parse_cards("5H 6H 7H 8H 9H KS KH KD 3C 4C 5C")
    defender = parse_cards("TH JH 4H 2H 3D 7C 9C 9D QS QC")
    hand = settle(eleven, defender, Rules(big_gin_bonus=31))
    assert (hand.result, hand.big_gin, hand.points) == ("gin", True, 31 + 74)
    with pytest.raises(ValueError, match="only for big gin"):
        settle(eleven, defender)
    with pytest.raises(RequestError, match="'knocker' needs 10 cards, got 11"):
        score_request({"knocker": codes(eleven), "defender": codes(defender)})
    assert score_request({"knocker": codes(eleven), "defender": codes(defender), "big_gin_bonus": 31})["points"] == 105


def codes(cards: list[Card]) -> list[str]:
    return [c.code for c in cards]


ILLEGAL = {"knocker": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "KD", "KH", "QC"], "defender": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TD", "JC"]}


def test_an_illegal_knock_says_the_deadwood_and_the_defender_accepts_or_refuses() -> None:
    with pytest.raises(RequestError, match="illegal knock: the knocker's deadwood is 30, over the knock limit of 10"):
        score_request(ILLEGAL)
    accepted = score_request({**ILLEGAL, "accept_illegal": True})
    assert (accepted["result"], accepted["winner"], accepted["points"], accepted["legal"]) == ("undercut", "defender", 30 - 20 + 25, False)
    refused = score_request({**ILLEGAL, "accept_illegal": False})
    assert (refused["result"], refused["winner"], refused["points"]) == ("refused", None, 0)
    assert settle(parse_cards(" ".join(ILLEGAL["knocker"])), parse_cards(" ".join(ILLEGAL["defender"]))).result == "illegal"


def test_knock_limit_and_oklahoma() -> None:
    knocker, defender = parse_cards("5H 6H 7H 8H 9H KS KH KD 2C 6D"), parse_cards("TS JH 4S 2S 2D 2H 9C 9D 9S QC")
    assert settle(knocker, defender).result == "knock"  # deadwood 8
    assert settle(knocker, defender, Rules(knock_limit=7)).result == "illegal"
    assert settle(knocker, defender, Rules(upcard=Card.parse("7D"))).result == "illegal"
    assert settle(knocker, defender, Rules(upcard=Card.parse("8D"))).points == settle(knocker, defender).points
    doubled = settle(knocker, defender, Rules(upcard=Card.parse("8S"), spade_double=True))
    assert doubled.points == 2 * settle(knocker, defender).points
    with pytest.raises(RequestError, match="over the knock limit of 0"):  # an ace up: gin only
        score_request({"knocker": codes(knocker), "defender": codes(defender), "upcard": "AD"})
    with pytest.raises(RequestError, match="card 9C is used twice"):
        score_request({"knocker": codes(knocker), "defender": codes(defender), "upcard": "9C"})


def test_a_full_game_with_every_bonus() -> None:
    # A to 100: 30 + 75 = 105 in two hands won, B 12 in one.
    game = score_game([(0, 30), (1, 12), (None, 0), (0, 75)])
    assert (game.over, game.winner, game.points, game.hands_won) == (True, 0, (105, 12), (2, 1))
    assert (game.game_bonus, game.box_bonuses, game.shutout) == (100, (50, 25), False)
    assert game.totals == (105 + 100 + 50, 12 + 25) and game.margin == 255 - 37
    # A shutout doubles the winner's whole total by default; what it doubles is a setting.
    shutout = score_game([(1, 60), (1, 45)])
    assert shutout.shutout and shutout.totals == (0, (105 + 100 + 50) * 2)
    assert score_game([(1, 60), (1, 45)], GameRules(shutout_doubles=frozenset({"points"}))).totals == (0, 210 + 100 + 50)
    assert score_game([(1, 60), (1, 45)], GameRules(game_bonus=200, box_bonus=20, shutout_multiplier=1)).totals == (0, 345)


def test_the_game_limit_and_unfinished_games() -> None:
    hands = [(0, 90), (1, 120), (0, 40)]
    assert score_game(hands, GameRules(limit=250)).over is False
    assert score_game(hands, GameRules(limit=250)).totals == (130, 120)
    assert score_game(hands, GameRules(limit=200)).over is False
    with pytest.raises(ValueError, match="hand 3 comes after the game was won"):
        score_game(hands)
    with pytest.raises(ValueError, match="the game limit is one of 100, 200, 250, 300, 500, not 150"):
        GameRules(limit=150)


def test_game_requests() -> None:
    result = score_request({"hands": [{"winner": "A", "points": 30}, {"winner": None}, {"winner": "B", "points": 80},
                                      {"winner": "A", "points": 75}], "limit": 100, "box_bonus": 20})
    assert result["winner"] == "A" and result["totals"] == {"A": 105 + 100 + 40, "B": 80 + 20}
    for bad, message in [
        ({"hands": [{"winner": "C", "points": 3}]}, "'hands[0].winner' is \"A\", \"B\" or null, not 'C'"),
        ({"hands": [{"winner": "A"}]}, "missing field 'points' in 'hands[0]'"),
        ({"hands": [{"winner": None, "points": 5}]}, "dead hand"),
        ({"hands": "A30"}, "'hands' is a list of hands, not a string"),
        ({"hands": [], "limit": 150}, "the game limit is one of"),
        ({"hands": [], "shutout_doubles": ["everything"]}, "'shutout_doubles' is a list of some of points, game, box"),
    ]:
        with pytest.raises(RequestError, match=re.escape(message)):
            score_request(bad)


def test_hand_requests_keep_the_contract() -> None:
    ten = score_request({"hand": ["7S", "8S", "9S", "TS", "7H", "7D", "2C", "3C", "4C", "KD"]})
    assert list(ten) == ["deadwood", "melds", "unmatched"] and ten["deadwood"] == 10
    eleven = score_request({"hand": ["3S", "4S", "5S", "2C", "3C", "4C", "5D", "2H", "3H", "4H", "5H"]})
    assert (eleven["deadwood"], eleven["discard"], eleven["unmatched"]) == (0, "5D", [])
    assert score_request({"hand": ["QS", "KS", "AS", "2D", "3D", "4H", "6H", "8H", "TC", "9C"], "aces": "high-low"})["melds"] == [["QS", "KS", "AS"]]
    knock = score_request(gin_requests.SAMPLES[2])
    assert {"winner", "points", "result", "layoffs"} <= set(knock) and knock["layoffs"] == ["4H", "TH", "JH"]
    for bad, message in [
        ({"hand": ["7S", "8S", "9S"]}, "'hand' needs 10 to 11 cards, got 3"),
        ({"hand": ["7S", "8S", "9S", "TS", "7H", "7D", "2C", "3C", "4C", "KD"], "aces": "up"}, "'aces' must be \"low\" or \"high-low\""),
        ({"knocker": ILLEGAL["knocker"]}, "missing field 'defender'"),
        ({**ILLEGAL, "defender": ILLEGAL["knocker"]}, "card AS is used twice (in 'knocker' and 'defender')"),
        ({**ILLEGAL, "knock_limit": "ten"}, "'knock_limit' must be a whole number from 0 to 99"),
        ({**ILLEGAL, "accept_illegal": "yes"}, "'accept_illegal' must be true or false"),
        ({"deck": []}, "unknown field 'deck'"),
        ({}, "a gin request has a 'hand'"),
    ]:
        with pytest.raises(RequestError, match=re.escape(message)):
            score_request(bad)


def test_samples_score_and_render() -> None:
    for request in gin_requests.SAMPLES:
        assert gin_requests.render(score_request(request))


def test_the_readable_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "gin", "3S", "4S", "5S", "2C", "3C", "4C", "5D", "2H", "3H", "4H", "5H"]) == 0
    assert capsys.readouterr().out.startswith("discard 5D, deadwood 0: melds 3S 4S 5S")
    assert cli.main(["score", "gin", "--knocker", *ILLEGAL["knocker"], "--defender", *ILLEGAL["defender"],
                     "--accept-illegal", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == "undercut"
    assert cli.main(["score", "gin", "--knocker", *ILLEGAL["knocker"], "--defender", *ILLEGAL["defender"]]) == 2
    assert "the knocker's deadwood is 30" in capsys.readouterr().err
    assert cli.main(["score", "gin", "--hands", "A60", "B:10", "-", "A45", "--limit", "100"]) == 0
    assert "A wins: game bonus 100" in capsys.readouterr().out
    assert cli.main(["score", "gin", "--knocker", *ILLEGAL["knocker"], "--defender", *ILLEGAL["defender"],
                     "--accept-illegal", "no"]) == 0
    assert capsys.readouterr().out.startswith("refused: no score, the knocker's cards stay face up (an illegal knock: "
                                              "deadwood 30 over 10)")
    assert cli.main(["score", "gin", "--hands", "A60", "--limit", "lots"]) == 2
    assert "--limit takes a whole number, not 'lots'" in capsys.readouterr().err


def test_a_batch_answers_each_line() -> None:
    lines = [json.dumps(gin_requests.SAMPLES[0]), json.dumps(ILLEGAL), "{\"hand\": [\"5H\"]}", json.dumps(gin_requests.SAMPLES[4])]
    out = io.BytesIO()
    score_command.score_batch(games.game("gin"), io.BytesIO("\n".join(lines).encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0]["deadwood"] == 3 and answers[0]["discard"] == "6S"
    assert "the knocker's deadwood is 30" in answers[1]["error"]
    assert answers[2] == {"error": "'hand' needs 10 to 11 cards, got 1"}
    assert answers[3]["winner"] == "A"
