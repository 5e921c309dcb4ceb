"""Barbu hands: trick winners, the seven contracts, doubling, irregularities and the batch request.

Rules relied on (docs/rules/barbu.md): contract points and totals, doubling, dominoes; 4 players, 13
tricks, no heart leads in H and K unless only hearts are held, in T the declarer names trumps and players
must follow suit; must-trump is a setting. Where the rules text the game was specified from is
silent on who redoubles, the standard published rule: any player who was doubled may redouble the player
who doubled them (the declarer may only redouble); only the declarer redoubling is a setting.
"""

from __future__ import annotations

import copy
import json
import random
import re
import subprocess
import sys
from typing import Any

import pytest

from device import cli
from scoring import barbu
from scoring.barbu import BarbuError, Contract, Dominoes, Double, Rules, Trick, settle
from scoring.barbu_random import random_request
from scoring.cards import Card, Rank, Suit, parse_cards
from scoring.requests import RequestError
from scoring.requests import barbu as barbu_requests
from scoring.requests.barbu import SAMPLES, score_request

TRICK_CONTRACTS = [contract for contract in Contract if contract is not Contract.DOMINOES]
ORDER = "23456789TJQKA"  # aces high, twos low


# An independent reference, written plainly from the rules (docs/rules/barbu.md), to check the engine against.

def reference_winner(leader: int, cards: list[str], trump: str | None) -> int:
    suits = [code[1] for code in cards]
    suit = trump if trump in suits else suits[0]
    best = max((ORDER.index(code[0]), position) for position, code in enumerate(cards) if code[1] == suit)
    return (leader + best[1]) % 4


def reference_scores(request: dict[str, Any]) -> list[int]:
    """Raw scores as the rules state them, from a legal request."""
    scores = [0, 0, 0, 0]
    if request["contract"] == "D":
        for seat, points in zip(request["order"], (45, 20, 5, -5), strict=True):
            scores[seat] = points
        return scores
    for number, trick in enumerate(request["tricks"], 1):
        winner = reference_winner(trick["leader"], trick["cards"], request.get("trump"))
        cards = trick["cards"]
        scores[winner] += {
            "NT": -2,
            "Q": -6 * sum(code[0] == "Q" for code in cards),
            "LT": {12: -10, 13: -20}.get(number, 0),
            "H": sum(-6 if code == "AH" else -2 for code in cards if code[1] == "H"),
            "K": -20 * ("KH" in cards),
            "T": 5,
        }[request["contract"]]
    return scores


def reference_irregularities(request: dict[str, Any]) -> set[tuple[str, int, int, int]]:
    """(kind, seat, trick, trick shown) for every revoke and (H, K) heart lead later play proves."""
    plays: list[list[tuple[int, str, bool]]] = [[], [], [], []]  # per seat: (trick, card, led it)
    led_suits = []
    for number, trick in enumerate(request["tricks"], 1):
        led_suits.append(trick["cards"][0][1])
        for position, code in enumerate(trick["cards"]):
            plays[(trick["leader"] + position) % 4].append((number, code, position == 0))
    found = set()
    for seat, played in enumerate(plays):
        for number, code, led in played:
            later = [(at, card) for at, card, _ in played if at > number]
            suit = led_suits[number - 1]
            if code[1] != suit:
                shown = [at for at, card in later if card[1] == suit]
                if shown:
                    found.add(("revoke", seat, number, shown[0]))
            if led and code[1] == "H" and request["contract"] in ("H", "K"):
                shown = [at for at, card in later if card[1] != "H"]
                if shown:
                    found.add(("heart lead", seat, number, shown[0]))
    return found


def reference_net(request: dict[str, Any], scores: list[int]) -> list[int]:
    """Net scores as the rules state them: each double moves the difference of the two raw scores to the
    higher from the lower, twice it if the doubled player redoubled."""
    net = list(scores)
    for by, on in request.get("doubles", []):
        times = 2 if [on, by] in request.get("redoubles", []) else 1
        net[by] += (scores[by] - scores[on]) * times
        net[on] -= (scores[by] - scores[on]) * times
    return net


def reference_legal(request: dict[str, Any]) -> bool:
    """Whether a request's doubling is legal: a non-declarer doubles any other player, a pair of players
    once; a redouble answers a double made on the redoubler, once; under ``redoubles_by: "declarer"`` only
    the declarer redoubles."""
    declarer, doubles, redoubles = request["declarer"], request["doubles"], request["redoubles"]
    pairs = [frozenset(double) for double in doubles]
    return (all(by not in (on, declarer) for by, on in doubles) and len(set(pairs)) == len(pairs)
            and all([on, by] in doubles for by, on in redoubles)
            and len({tuple(pair) for pair in redoubles}) == len(redoubles)
            and (request.get("redoubles_by", "any") == "any" or all(by == declarer for by, _ in redoubles)))


def found(result: dict[str, Any]) -> set[tuple[str, int, int, int]]:
    return {(item["kind"], item["seat"], item["trick"], item["shown_in_trick"]) for item in result["irregularities"]}


# Trick winners

@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        ("2C 5C AC 3H", None, 2),  # highest of the suit led; aces high
        ("KC 5C QC AH", None, 0),  # an ace of another suit does not win
        ("2C 5C AC 3H", "H", 3),  # the only trump wins
        ("2C 5H AC 3H", "H", 1),  # the highest trump wins
        ("2H 5C AC 3C", "H", 0),  # trumps led
        ("TD JD QD KD", "S", 3),
    ],
)
def test_trick_winner(cards: str, trump: str | None, winner: int) -> None:
    assert Trick(0, tuple(parse_cards(cards))).winner(Suit.parse(trump) if trump else None) == winner
    assert Trick(2, tuple(parse_cards(cards))).winner(Suit.parse(trump) if trump else None) == (winner + 2) % 4


# Random legal play, every contract

@pytest.mark.parametrize("contract", list(Contract))
def test_random_legal_hands_keep_every_invariant(contract: Contract) -> None:
    rng = random.Random(f"barbu {contract.value}")
    for number in range(150):
        rules = Rules(must_trump=number % 2 == 1, redoubles=("any", "declarer")[number // 2 % 2])
        request = random_request(rng, contract, declarer=number % 4, rules=rules)
        result = score_request(request)
        scores, net = result["scores"], result["net"]
        assert net == reference_net(request, reference_scores(request | {"order": result.get("order")}))
        assert sum(scores) == contract.total  # -26, -24, -30, -30, -20, +65, +65
        assert sum(net) == contract.total  # doubling is zero-sum
        for seat in range(4):
            moved = sum(d["amount"] for d in result["doubling"] if d["from"] == seat) - sum(
                d["amount"] for d in result["doubling"] if d["to"] == seat)
            assert net[seat] == scores[seat] + moved
        assert result["irregularities"] == []  # legal play shows nothing
        if contract is Contract.DOMINOES:
            request["order"] = result["order"]
            assert sorted(scores) == [-5, 5, 20, 45]
        else:
            assert result["winners"] == [reference_winner(t["leader"], t["cards"], request.get("trump"))
                                         for t in request["tricks"]]
        assert scores == reference_scores(request)
        # the same hand scores the same given only the finishing order, or as readable arguments
        if contract is Contract.DOMINOES:
            assert score_request({k: v for k, v in request.items() if k not in ("plays", "start")})["net"] == net
        else:
            options = {name: str(value) for name, value in request.items() if name in ("contract", "declarer", "trump")}
            readable = barbu_requests.request_from_args([code for t in request["tricks"] for code in t["cards"]], options)
            assert readable["tricks"] == request["tricks"]


def test_contract_specific_shapes_on_random_play() -> None:
    rng = random.Random(6)
    for _ in range(100):
        for contract in TRICK_CONTRACTS:
            result = score_request(random_request(rng, contract, rng.randrange(4), doubles=False))
            won, scores = result["tricks_won"], result["scores"]
            if contract is Contract.NO_TRICKS:
                assert scores == [-2 * count for count in won]
            elif contract is Contract.TRUMPS:
                assert scores == [5 * count for count in won]
            elif contract is Contract.NO_LAST_TRICK:
                assert sorted(score for score in scores if score) in ([-30], [-20, -10])
            elif contract is Contract.NO_KING:
                assert sorted(scores) == [-20, 0, 0, 0]
            elif contract is Contract.NO_QUEENS:
                assert all(score % 6 == 0 for score in scores)
            assert result["net"] == scores


# Doubling, worked by hand

def test_doubling_worked_by_hand_with_a_redouble_and_a_player_doubling_two_others() -> None:
    """No Tricks, declarer seat 0. Raw: seat 0 took 5 tricks (-10), seat 1 one (-2), seat 2 none (0),
    seat 3 seven (-14). Seat 1 doubles seat 0 (0 redoubles) and seat 3; seat 2 doubles seat 0.

    1 v 0, redoubled: difference 8, twice = 16: seat 1 +16, seat 0 -16.
    1 v 3: difference 12: seat 1 +12, seat 3 -12.
    2 v 0: difference 10: seat 2 +10, seat 0 -10.
    Net: seat 0 -10-16-10 = -36; seat 1 -2+16+12 = 26; seat 2 0+10 = 10; seat 3 -14-12 = -26. Sum -26.
    """
    doubles = [Double(1, 0, redoubled=True), Double(1, 3), Double(2, 0)]
    assert settle((-10, -2, 0, -14), doubles) == (-36, 26, 10, -26)


def test_a_double_pays_the_higher_even_when_the_doubler_loses() -> None:
    """Trumps: the declarer, seat 2, takes 9 tricks (45), seat 0 two (10). Seat 0 doubles seat 2, who
    redoubles: twice the difference of 35 goes from seat 0 to seat 2."""
    assert settle((10, 5, 45, 5), [Double(0, 2, redoubled=True)]) == (-60, 5, 115, 5)
    assert settle((10, 5, 45, 5), [Double(0, 2)]) == (-25, 5, 80, 5)


def test_sample_hand_worked_by_hand() -> None:
    """SAMPLES[0], No Hearts declared by seat 0. Hearts taken: seat 3 wins 3H (trick 7), 9H (trick 8) and
    6H AH TH KH (trick 11): -2 -2 -2-6-2-2 = -16; seat 2 wins JH (trick 9): -2; seat 1 wins 4H 7H 8H 5H
    (trick 12) and 2H QH (trick 13): -12; seat 0 none. Total -30.
    Seat 1 doubles 0, who redoubles: 2 x (-12 - 0) = -24 to seat 1. Seat 3 doubles 0: -16 - 0 = -16.
    Seat 3 doubles 2 (a player doubling two others): -16 - -2 = -14.
    """
    result = score_request(SAMPLES[0])
    assert result["scores"] == [0, -12, -2, -16]
    assert result["net"] == [0 + 24 + 16, -12 - 24, -2 + 14, -16 - 16 - 14]
    assert [d["amount"] for d in result["doubling"]] == [-24, -16, -14]


def test_a_non_declarer_redoubles_a_non_declarer_in_a_negative_contract_worked_by_hand() -> None:
    """SAMPLES[0], No Hearts declared by seat 0; raw 0, -12, -2, -16 (as above). Seat 1 doubles seat 0,
    seat 3 doubles seats 0 and 2, and seat 2 (not the declarer) redoubles seat 3.

    1 v 0: -12 - 0 = -12: seat 1 -12, seat 0 +12.
    3 v 0: -16 - 0 = -16: seat 3 -16, seat 0 +16.
    3 v 2, redoubled: twice (-16 - -2) = -28: seat 3 -28, seat 2 +28.
    Net: seat 0 0+12+16 = 28; seat 1 -12-12 = -24; seat 2 -2+28 = 26; seat 3 -16-16-28 = -60. Sum -30.
    """
    request = copy.deepcopy(SAMPLES[0]) | {"doubles": [[1, 0], [3, 0], [3, 2]], "redoubles": [[2, 3]]}
    result = score_request(request)
    assert result["scores"] == [0, -12, -2, -16]
    assert result["net"] == [28, -24, 26, -60]
    assert result["doubling"][2] == {"from": 3, "to": 2, "redoubled": True, "amount": -28}
    assert barbu_requests.render(result).splitlines()[-1] == "player 4 doubled player 3, redoubled: player 4 -28"


def test_the_declarer_redoubles_two_players_worked_by_hand() -> None:
    """Dominoes declared by seat 1, finishing order 1, 3, 0, 2: raw seat 0 +5, seat 1 +45, seat 2 -5,
    seat 3 +20. Seats 0, 2 and 3 double seat 1; seat 1 redoubles seats 0 and 2.

    0 v 1, redoubled: twice (5 - 45) = -80: seat 0 -80, seat 1 +80.
    2 v 1, redoubled: twice (-5 - 45) = -100: seat 2 -100, seat 1 +100.
    3 v 1: 20 - 45 = -25: seat 3 -25, seat 1 +25.
    Net: seat 0 5-80 = -75; seat 1 45+80+100+25 = 250; seat 2 -5-100 = -105; seat 3 20-25 = -5. Sum 65.
    """
    request = {"contract": "D", "declarer": 1, "order": [1, 3, 0, 2], "doubles": [[0, 1], [2, 1], [3, 1]],
               "redoubles": [[1, 0], [1, 2]]}
    for redoubles_by in ("any", "declarer"):
        result = score_request(request | {"redoubles_by": redoubles_by})
        assert result["scores"] == [5, 45, -5, 20]
        assert result["net"] == [-75, 250, -105, -5]
        assert [d["redoubled"] for d in result["doubling"]] == [True, True, False]


def test_only_the_declarer_redoubles_under_the_house_rule() -> None:
    """With ``redoubles_by: "declarer"`` the same non-declarer's redouble is refused, naming both seats and
    the declarer; the declarer's own redouble still stands."""
    request = copy.deepcopy(SAMPLES[0]) | {"doubles": [[1, 0], [3, 0], [3, 2]], "redoubles": [[2, 3]],
                                           "redoubles_by": "declarer"}
    with pytest.raises(BarbuError) as error:
        score_request(request)
    assert str(error.value) == "seat 2 cannot redouble seat 3: only the declarer (seat 0) redoubles"
    assert score_request(SAMPLES[0] | {"redoubles_by": "declarer"})["net"] == score_request(SAMPLES[0])["net"]
    with pytest.raises(BarbuError, match="seat 2 cannot redouble seat 3: only the declarer"):
        barbu.trick_hand(Contract.NO_HEARTS, 0, barbu.tricks_from_cards(0, [Card.parse(code) for trick in SAMPLES[0]["tricks"]
                                                                             for code in trick["cards"]]),
                         [Double(3, 2, redoubled=True)], rules=Rules(redoubles="declarer"))
    with pytest.raises(BarbuError, match="seat 2 cannot redouble seat 1: only the declarer"):
        barbu.dominoes_hand(0, [0, 1, 2, 3], [Double(1, 2, redoubled=True)], rules=Rules(redoubles="declarer"))
    for value in ("all", None, True):
        with pytest.raises(BarbuError) as error:
            score_request(SAMPLES[0] | {"redoubles_by": value})
        assert str(error.value) == f"'redoubles_by' is \"any\" or \"declarer\", not {value!r}"


def test_doubling_agrees_with_a_plain_reading_of_the_rules_on_random_doubles() -> None:
    """Random doublings, legal or not (doubles by any seat on any seat, some twice or both ways; redoubles of
    doubles made, not made, or twice), under both settings: the engine refuses exactly those the rules
    forbid, and settles the others as the reference does."""
    rng = random.Random("barbu doubling")
    hands = [*SAMPLES, *({"contract": "D", "declarer": declarer, "order": rng.sample(range(4), 4)}
                         for declarer in range(4))]
    legal = 0
    for number in range(3000):
        hand = hands[number % len(hands)]
        odds = {True: 0.03, False: 0.3}  # a seat doubling themself, or the declarer doubling, is rarer
        doubles = [[by, on] for by in range(4) for on in range(4) if rng.random() < odds[by in (on, hand["declarer"])]]
        doubles += rng.sample(doubles, min(len(doubles), rng.choice((0, 0, 0, 1))))
        redoubles = [[on, by] for by, on in doubles if rng.random() < 0.4]
        redoubles += [[rng.randrange(4), rng.randrange(4)] for _ in range(rng.choice((0, 0, 0, 1)))]
        request = hand | {"doubles": doubles, "redoubles": redoubles, "redoubles_by": rng.choice(("any", "declarer"))}
        try:
            result = score_request(request)
        except BarbuError as error:
            assert not reference_legal(request), (request, error)
            assert re.search(r"seats? \d", str(error)), error  # it names the seats
        else:
            assert reference_legal(request), request
            legal += 1
            assert result["net"] == reference_net(request, result["scores"])
    assert 500 < legal < 2500, legal  # legal and illegal doubling were both tried often


@pytest.mark.parametrize(
    ("doubles", "redoubles", "message"),
    [
        ([[0, 1]], [], "seat 0 cannot double seat 1: the declarer may only redouble"),
        ([[2, 2]], [], "seat 2 cannot double themself"),
        ([[1, 0]], [[0, 2]], "seat 0 cannot redouble seat 2, who did not double them"),
        ([[1, 2]], [[0, 1]], "seat 0 cannot redouble seat 1, who did not double them"),
        ([[1, 0]], [[1, 0]], "seat 1 cannot redouble seat 0, who did not double them"),
        ([[1, 2]], [[2, 3]], "seat 2 cannot redouble seat 3, who did not double them"),
        ([[1, 2]], [[1, 2]], "seat 1 cannot redouble seat 2, who did not double them"),
        ([[1, 0], [1, 0]], [], "seat 1 doubles seat 0 twice"),
        ([[1, 2], [2, 1]], [], "seats 2 and 1 cannot double each other: a pair doubles once (seat 2 may redouble seat 1)"),
        ([[1, 0]], [[0, 1], [0, 1]], "seat 0 redoubles seat 1 twice"),
        ([[3, 2]], [[2, 3], [2, 3]], "seat 2 redoubles seat 3 twice"),
        ([[1, 4]], [], "'doubles': each entry is a [from, to] pair of seats 0-3, not [1, 4]"),
        ([[1]], [], "each entry is a [from, to] pair"),
        ([[True, 0]], [], "each entry is a [from, to] pair"),
        ("1:0", [], "'doubles' is a list of [from, to] seat pairs, not a string"),
    ],
)
def test_illegal_doubles_are_clear_errors(doubles: Any, redoubles: Any, message: str) -> None:
    request = copy.deepcopy(SAMPLES[0]) | {"doubles": doubles, "redoubles": redoubles}
    with pytest.raises(BarbuError) as error:
        score_request(request)
    assert message in str(error.value)


# Bad requests

def sample_with(**changes: Any) -> dict[str, Any]:
    request = copy.deepcopy(SAMPLES[0])
    for name, value in changes.items():
        if value is None:
            del request[name]
        else:
            request[name] = value
    return request


def tricks_with(change: Any) -> list[dict[str, Any]]:
    tricks = copy.deepcopy(SAMPLES[0]["tricks"])
    change(tricks)
    return tricks


def _swap_cards(tricks: list[dict[str, Any]]) -> None:
    tricks[0]["cards"][3] = tricks[12]["cards"][3]


def _wrong_leader(tricks: list[dict[str, Any]]) -> None:
    tricks[4]["leader"] = 3


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (sample_with(tricks=tricks_with(lambda t: t.pop())), "'tricks' needs 13 tricks, got 12"),
        (sample_with(tricks=tricks_with(_swap_cards)), "card QS is played twice (again in trick 13)"),
        (sample_with(tricks=tricks_with(_wrong_leader)), "trick 5 is led by seat 3, but the winner of trick 4 is seat 1"),
        (sample_with(declarer=2, doubles=None, redoubles=None), "trick 1 is led by seat 0, but the declarer is seat 2"),
        (sample_with(tricks=tricks_with(lambda t: t[2]["cards"].pop())), "tricks[2]: 'cards' needs 4 card codes in play order, got 3 cards"),
        (sample_with(tricks=tricks_with(lambda t: t[2]["cards"].__setitem__(0, "XD"))), "tricks[2]: bad card code 'XD'"),
        (sample_with(tricks=tricks_with(lambda t: t[2].__setitem__("leader", 7))), "tricks[2]: 'leader' must be a whole number from 0 to 3"),
        (sample_with(tricks=tricks_with(lambda t: t[2].pop("leader"))), "tricks[2]: missing field 'leader'"),
        (sample_with(tricks=tricks_with(lambda t: t.__setitem__(2, "QD AD"))), "tricks[2]: a request is a JSON object"),
        (sample_with(tricks="all of them"), "'tricks' is a list of 13 tricks, not a string"),
        (sample_with(tricks=None), "missing field 'tricks'"),
        (sample_with(contract="X"), "'contract' must be one of NT, Q, LT, H, K, T, D, not 'X'"),
        (sample_with(contract=None), "missing field 'contract'"),
        (sample_with(declarer="north"), "'declarer' must be a whole number from 0 to 3"),
        (sample_with(trump="S"), "'trump' is only for T (Trumps)"),
        (sample_with(must_trump=True), "'must_trump' is only for T (Trumps)"),
        (sample_with(order=[0, 1, 2, 3]), "'order' is only for D (Dominoes)"),
        (sample_with(colour="red"), "unknown field 'colour'"),
        (sample_with(contract="T"), "missing field 'trump'"),
        (sample_with(contract="T", trump="X"), "'trump' must be a suit (S, H, D or C), not 'X'"),
        (sample_with(contract="T", trump="S", must_trump="yes"), "'must_trump' is true or false"),
        ({"contract": "D", "declarer": 0}, "missing field 'order'"),
        ({"contract": "D", "declarer": 0, "order": [0, 1, 1, 2]}, "names each seat 0-3 once, not [0, 1, 1, 2]"),
        ({"contract": "D", "declarer": 0, "order": "0123"}, "'order' is a list of the 4 seats in finishing order, not a string"),
        ({"contract": "D", "declarer": 0, "order": [0, 1, 2, 3], "tricks": []}, "'tricks' is only for trick contracts"),
        ({"contract": "D", "declarer": 0, "start": "5", "order": [0, 1, 2, 3]}, "'start' goes with 'plays'"),
        ({"contract": "D", "declarer": 0, "plays": ["5H"]}, "missing field 'start'"),
        ({"contract": "D", "declarer": 0, "start": "1", "plays": ["5H"]}, "'start' must be a rank"),
        ({"contract": "D", "declarer": 0, "start": "5", "plays": ["5H", "7H"]}, "turn 2: 7H cannot be laid (playable: 4H 5C 5D 5S 6H)"),
        ({"contract": "D", "declarer": 0, "start": "5", "plays": ["5H", "5H"]}, "turn 2: 5H is already on the layout"),
        ({"contract": "D", "declarer": 0, "start": "5", "plays": ["5H", "pass"]}, "the layout is not finished: 1 of 52 cards laid"),
        ({"contract": "D", "declarer": 0, "start": "5", "plays": "5H"}, "'plays' is a list of card codes and \"pass\" in turn order, not a string"),
        ({"contract": "D", "declarer": 0, "start": "5", "plays": [5]}, "plays[0]: bad card code 5"),
    ],
)
def test_bad_requests_get_one_clear_message(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError) as error:
        score_request(request_)
    assert message in str(error.value)


def test_dominoes_plays_must_match_a_given_order_and_stop_when_all_are_laid() -> None:
    request = copy.deepcopy(SAMPLES[2])
    assert score_request(request | {"order": [1, 2, 3, 0]})["order"] == [1, 2, 3, 0]
    with pytest.raises(BarbuError, match=r"'order' \[0, 1, 2, 3\] does not match the plays"):
        score_request(request | {"order": [0, 1, 2, 3]})
    with pytest.raises(BarbuError, match="turn 64: every card is already laid"):
        score_request(request | {"plays": request["plays"] + ["pass"]})


# Irregularities shown by later play

def test_sample_revoke_is_reported_with_trick_and_seat_and_scored_as_played() -> None:
    """SAMPLES[3], No King of Hearts: seat 1 drops K♥ on a club lead at trick 6 and plays 5♣ at 13."""
    result = score_request(SAMPLES[3])
    assert result["irregularities"] == [{
        "kind": "revoke", "seat": 1, "trick": 6, "shown_in_trick": 13, "shown_by": "5C", "suit": "C",
        "message": "trick 6, seat 1: revoke, did not follow ♣ yet played 5♣ at trick 13"}]
    assert result["scores"] == [-20, 0, 0, 0]  # the king went to seat 0's trick, as played


def perturbed(rng: random.Random, contract: Contract) -> dict[str, Any] | None:
    """A legal hand with two cards of one seat swapped between tricks, if the play stays consistent."""
    request = random_request(rng, contract, rng.randrange(4), doubles=False)
    tricks = request["tricks"]
    first, second = rng.sample(range(13), 2)
    seat = rng.randrange(4)
    a, b = ((seat - tricks[n]["leader"]) % 4 for n in (first, second))
    tricks[first]["cards"][a], tricks[second]["cards"][b] = tricks[second]["cards"][b], tricks[first]["cards"][a]
    if any(trick["leader"] != reference_winner(prev["leader"], prev["cards"], request.get("trump"))
           for prev, trick in zip(tricks, tricks[1:], strict=False)):
        return None
    return request


@pytest.mark.parametrize("contract", [Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_KING, Contract.TRUMPS])
def test_broken_play_is_found_exactly_as_a_plain_reading_of_the_rules_finds_it(contract: Contract) -> None:
    rng = random.Random(f"perturbed {contract.value}")
    kinds: set[str] = set()
    checked = 0
    while checked < 300:
        request = perturbed(rng, contract)
        if request is None:
            continue
        checked += 1
        result = score_request(request)
        assert found(result) == reference_irregularities(request)
        kinds |= {kind for kind, *_ in found(result)}
        assert sum(result["scores"]) == contract.total  # scored as played all the same
    assert "revoke" in kinds
    assert ("heart lead" in kinds) == (contract in (Contract.NO_HEARTS, Contract.NO_KING))


def hand_of(contract: str, declarer: int, cards: str, **options: Any) -> dict[str, Any]:
    return score_request(barbu_requests.request_from_args(cards.split(), {"contract": contract, "declarer": str(declarer)}
                                                 | options))


def test_heart_lead_when_only_hearts_are_held_is_legal() -> None:
    """Seat 1 holds only hearts and leads them: nothing to report in No Hearts."""
    cards = " ".join(rank + suit for rank in "AKQJT98765432" for suit in "HDCS")
    result = hand_of("H", 1, cards)
    assert result["irregularities"] == [] and result["scores"] == [0, -30, 0, 0]


def play_out(contract: str, declarer: int, hands: list[str], first: list[str], trump: str | None = None,
             must_trump: bool = False) -> dict[str, Any]:
    """A request whose first trick is ``first`` (played from ``hands``, legal or not) and whose other
    tricks are played legally from what is left: follow suit, else trump if ``must_trump``; no heart
    leads in H and K while holding another suit; the lowest such card."""
    held = [sorted(hand.split(), key=lambda code: (code[1], ORDER.index(code[0]))) for hand in hands]
    tricks = []
    leader = declarer
    for number in range(13):
        cards = []
        for position in range(4):
            hand = held[(leader + position) % 4]
            if number == 0:
                card = first[position]
            elif position == 0:
                card = ([c for c in hand if not (contract in "HK" and c[1] == "H")] or hand)[0]
            else:
                card = ([c for c in hand if c[1] == cards[0][1]]
                        or [c for c in hand if must_trump and c[1] == trump] or hand)[0]
            hand.remove(card)
            cards.append(card)
        tricks.append({"leader": leader, "cards": cards})
        leader = reference_winner(leader, cards, trump)
    request: dict[str, Any] = {"contract": contract, "declarer": declarer, "tricks": tricks}
    return request | ({"trump": trump, "must_trump": must_trump} if trump else {})


def suit_cards(suit: str, ranks: str) -> str:
    return " ".join(rank + suit for rank in ranks)


def test_heart_lead_shown_by_a_later_card_of_another_suit() -> None:
    """No King of Hearts: seat 1 leads 2H at trick 1 while holding spades, which it plays later."""
    hands = [suit_cards("C", ORDER), suit_cards("H", "2345678") + " " + suit_cards("S", "234567"),
             suit_cards("D", ORDER), suit_cards("H", "9TJQKA") + " " + suit_cards("S", "89TJQKA")]
    request = play_out("K", 1, hands, ["2H", "2D", "9H", "2C"])
    spade_tricks = [n for n, t in enumerate(request["tricks"], 1) if t["cards"][(1 - t["leader"]) % 4][1] == "S"]
    result = score_request(request)
    assert found(result) == {("heart lead", 1, 1, spade_tricks[0])}
    assert "led ♥ while holding another suit" in result["irregularities"][0]["message"]
    assert score_request(request | {"contract": "NT"})["irregularities"] == []  # leading hearts is fine there


def test_must_trump_is_a_setting_and_its_breach_is_shown_by_a_later_trump() -> None:
    """Trumps, spades: seat 2, void in clubs, discards 2H at trick 1 while holding spades. Legal by default;
    with must_trump it failed to trump, shown when it plays a spade."""
    hands = [suit_cards("C", ORDER), suit_cards("D", ORDER), suit_cards("H", "2345678") + " " +
             suit_cards("S", "234567"), suit_cards("H", "9TJQKA") + " " + suit_cards("S", "89TJQKA")]
    for must_trump in (False, True):
        request = play_out("T", 0, hands, ["2C", "2D", "2H", "8S"], trump="S", must_trump=must_trump)
        result = score_request(request)
        if not must_trump:
            assert result["irregularities"] == []
            continue
        spades = [n for n, t in enumerate(request["tricks"], 1) if t["cards"][(2 - t["leader"]) % 4][1] == "S"]
        assert found(result) == {("no trump", 2, 1, spades[0])}
        assert result["irregularities"][0]["suit"] == "S"


def test_dominoes_pass_while_holding_a_playable_card_is_reported() -> None:
    """Seat 1 passes at turn 2 though 6H was playable, and lays 6H at turn 6."""
    layout = Dominoes.begin(0, Rank.FIVE).lay(Card.parse("5H")).pass_turn().lay(Card.parse("5S"))
    layout = layout.lay(Card.parse("4S")).lay(Card.parse("4H")).lay(Card.parse("6H"))
    assert [str(i) for i in layout.irregularities] == [
        "turn 2, seat 1: pass, passed while holding a playable card, shown by 6♥ at turn 6"]
    assert layout.to_play == 2 and layout.irregularities[0].as_dict()["shown_in_turn"] == 6


# Dominoes

def test_dominoes_layout_aces_high_twos_low_and_the_turn_skips_players_who_are_out() -> None:
    layout = Dominoes.begin(3, Rank.ACE)
    assert layout.playable() == frozenset(parse_cards("AS AH AD AC"))
    layout = layout.lay(Card.parse("AS"))
    assert layout.playable() == frozenset(parse_cards("KS AH AD AC"))  # no wrap from ace to two
    two = Dominoes.begin(0, Rank.TWO).lay(Card.parse("2D"))
    assert Card.parse("3D") in two.playable() and Card.parse("AD") not in two.playable()
    with pytest.raises(BarbuError, match="QS cannot be laid"):
        layout.lay(Card.parse("QS"))


def test_dominoes_random_layouts_record_the_finishing_order() -> None:
    rng = random.Random(3)
    for _ in range(40):
        request = random_request(rng, Contract.DOMINOES, rng.randrange(4), doubles=False)
        layout = Dominoes.begin(request["declarer"], Rank.parse(request["start"]))
        out: list[int] = []
        held = [13] * 4
        for play in request["plays"]:
            seat = layout.to_play
            assert held[seat] > 0  # a player who is out is skipped
            if play == "pass":
                layout = layout.pass_turn()
            else:
                layout = layout.lay(Card.parse(play))
                held[seat] -= 1
                if held[seat] == 0:
                    out.append(seat)
        assert layout.over and list(layout.order) == out
        assert score_request(request)["order"] == out
        last = [card for card in request["plays"] if card != "pass"][-1]
        assert last[0] in "A2"  # the last card laid is an ace or a two (the rules' Dominoes)


def test_dominoes_after_the_end_is_an_error() -> None:
    request = SAMPLES[2]
    layout = Dominoes.begin(2, Rank.QUEEN)
    for play in request["plays"]:
        layout = layout.pass_turn() if play == "pass" else layout.lay(Card.parse(play))
    with pytest.raises(BarbuError, match="every card is already laid"):
        layout.pass_turn()
    with pytest.raises(BarbuError, match="the layout is not finished: 0 of 52"):
        Dominoes.begin(0, Rank.TWO).hand()


# Samples, readable form, command line

def test_samples_score_and_sum_to_their_totals() -> None:
    for request in SAMPLES:
        result = score_request(request)
        total = Contract.parse(request["contract"]).total
        assert sum(result["scores"]) == sum(result["net"]) == total
        assert json.loads(json.dumps(result)) == result
        assert barbu_requests.render(result).startswith(result["title"])


def test_readable_form_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    cards = [code for trick in SAMPLES[0]["tricks"] for code in trick["cards"]]
    args = ["score", "barbu", *cards, "--contract", "H", "--declarer", "0", "--doubles", "1:0", "3:0", "3:2",
            "--redoubles", "0:1"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["No Hearts, declared by player 1", "player        1    2    3    4"]  # from 1, as every game
    assert out[4] == "net          40  -36   12  -46"
    assert cli.main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == score_request(SAMPLES[0])
    assert cli.main(["score", "barbu", "--contract", "D", "--declarer", "1", "--order", "1", "0", "3", "2"]) == 0
    assert "raw          20   45   -5    5" in capsys.readouterr().out
    trumps = [code for trick in SAMPLES[1]["tricks"] for code in trick["cards"]]
    assert cli.main(["score", "barbu", *trumps, "--contract", "T", "--declarer", "2", "--trump", "D"]) == 0
    assert "IRREGULARITIES" not in capsys.readouterr().out
    assert cli.main(["score", "barbu", *trumps, "--contract", "T", "--declarer", "2", "--trump", "D", "--must-trump"]) == 0
    assert "trick 3, player 1: no trump, did not trump while holding ♦, shown by J♦ at trick 4" in capsys.readouterr().out
    redoubling = [*args[:-5], "3:2", "--redoubles", "2:3"]  # seat 3 doubles seat 2, who redoubles
    assert cli.main(redoubling) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "player 4 doubled player 3, redoubled: player 4 -28"
    assert cli.main([*redoubling, "--redoubles-by", "declarer"]) == 2
    assert "seat 2 cannot redouble seat 3: only the declarer (seat 0) redoubles" in capsys.readouterr().err


def test_the_batch_command_takes_any_doubled_players_redouble() -> None:
    lines = [SAMPLES[0] | {"redoubles": [[0, 1], [2, 3]]},
             SAMPLES[0] | {"redoubles": [[0, 1], [2, 3]], "redoubles_by": "declarer"}]
    proc = subprocess.run([sys.executable, "-m", "device.cli", "score", "barbu", "--batch"], check=True,
                          input="".join(json.dumps(line) + "\n" for line in lines), capture_output=True, text=True)
    results = [json.loads(line) for line in proc.stdout.splitlines()]
    assert results[0]["net"] == [0 + 24 + 16, -12 - 24, -2 + 28, -16 - 16 - 28]
    assert results[1] == {"error": "seat 2 cannot redouble seat 3: only the declarer (seat 0) redoubles"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--contract", "H"], "give --contract (NT, Q, LT, H, K, T or D) and --declarer (seat 0-3)"),
        (["2C", "--contract", "H", "--declarer", "0"], "give the 52 cards in play order, trick by trick (got 1)"),
        (["--contract", "H", "--declarer", "0", "--doubles", "1-0"], "a double is written FROM:TO (seats), like 1:0"),
        (["ZZ", "--contract", "H", "--declarer", "0"], "cards: bad card code 'ZZ'"),
        (["--contract", "H", "--declarer", "five"], "'declarer' must be a whole number from 0 to 3, not 'five'"),
    ],
)
def test_readable_form_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "barbu", *args]) == 2
    assert message in capsys.readouterr().err


def test_irregularities_appear_in_the_readable_form() -> None:
    text = barbu_requests.render(score_request(SAMPLES[3]))
    assert "IRREGULARITIES" in text and "trick 6, player 2: revoke" in text


def test_other_spellings_of_cards_score_the_same() -> None:
    """Lower case, 10 for T and suit symbols take the careful path and give the same answer."""
    spelled = copy.deepcopy(SAMPLES[0])
    for trick in spelled["tricks"]:
        trick["cards"] = [code.lower().replace("t", "10") for code in trick["cards"]]
    spelled["tricks"][0]["cards"][0] = "Q♦"
    assert score_request(spelled) == score_request(SAMPLES[0])
    broken = copy.deepcopy(SAMPLES[0])
    broken["tricks"][5]["cards"] = "KD KS 2D JD"
    with pytest.raises(BarbuError, match=r"tricks\[5\]: 'cards' needs 4 card codes in play order, got a string"):
        score_request(broken)
    broken["tricks"][5] = {"leader": 0, "cards": ["KD", "KS", "2D", "JD"], "note": "x"}
    with pytest.raises(RequestError, match=r"tricks\[5\]: unknown field 'note'"):
        score_request(broken)


JUNK: list[Any] = [None, -1, 4, 0, 1, 3.5, True, "", "x", "pass", "QS", "10h", [], [0], [1, 0], {}, {"leader": 0}]


def mutate(value: Any, rng: random.Random) -> Any:
    """``value`` with one randomly chosen part (or itself) replaced by junk, dropped or duplicated."""
    if isinstance(value, dict) and value and rng.random() < 0.95:
        key = rng.choice([key for key in value for _ in range(1 + len(value[key]) if isinstance(value[key], list) else 1)])
        choice = rng.random()
        if choice < 0.15:
            return {k: v for k, v in value.items() if k != key}
        return value | {key: mutate(value[key], rng)}
    if isinstance(value, list) and value and rng.random() < 0.9:
        index = rng.randrange(len(value))
        choice = rng.random()
        if choice < 0.15:
            return value[:index] + value[index + 1:]
        if choice < 0.3:
            return value + [value[index]]
        return value[:index] + [mutate(value[index], rng)] + value[index + 1:]
    return rng.choice(JUNK)


def test_no_malformed_request_crashes() -> None:
    """Bad input gets a RequestError with a message, never another exception."""
    rng = random.Random(13)
    for number in range(1500):
        request = mutate(copy.deepcopy(SAMPLES[number % len(SAMPLES)]), rng)
        try:
            result = score_request(request)
        except RequestError as error:
            assert str(error)
        else:
            assert sum(result["net"]) == Contract.parse(result["contract"]).total
