"""The 28-hand game of Barbu: rotation, contracts left, running totals and the doubling obligation.

Rules relied on (docs/rules/barbu.md): the dealer declares a contract not yet played by them; each
player declares all 7, so a game is 28 hands; each player must double every other player at least
twice while that player is declarer.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from scoring.barbu import STANDARD_RULES, BarbuError, Contract, Double, Hand, Rules, dominoes_hand
from scoring.barbu_game import HANDS, Game
from scoring.barbu_random import random_request
from scoring.requests.barbu import score_request


def hand_from(result: dict[str, Any]) -> Hand:
    """A settled hand from a request's result (the game takes hands, the command takes requests)."""
    doubles = [Double(d["from"], d["to"], d["redoubled"]) for d in result["doubling"]]
    return Hand(Contract.parse(result["contract"]), result["declarer"], tuple(result["scores"]), tuple(doubles))


def with_owed_doubles(game: Game, request: dict[str, Any]) -> dict[str, Any]:
    """Add the doubles the game says cannot wait."""
    declarer = request["declarer"]
    request["doubles"] += [[by, declarer] for by in game.must_double() if [by, declarer] not in request["doubles"]]
    return request


def play_game(seed: int, rules: Rules = STANDARD_RULES) -> Game:
    rng = random.Random(seed)
    game = Game(first_dealer=seed % 4, rules=rules)
    while not game.over:
        declarer = game.declarer
        assert declarer is not None
        contract = rng.choice(game.contracts_left(declarer))
        request = with_owed_doubles(game, random_request(rng, contract, declarer, rules))
        before = game.totals
        game = game.record(hand_from(score_request(request)))
        assert sum(game.totals) - sum(before) == contract.total
    return game


@pytest.mark.parametrize("seed", range(6))
def test_a_whole_game_of_random_hands(seed: int) -> None:
    game = play_game(seed)
    assert len(game.hands) == HANDS == 28
    # each player declares seven hands in succession, one of each contract
    for turn in range(4):
        hands = game.hands[turn * 7:(turn + 1) * 7]
        assert {hand.declarer for hand in hands} == {(seed % 4 + turn) % 4}
        assert {hand.contract for hand in hands} == set(Contract)
    # zero-sum doubling: the totals sum to four times the contracts' totals, which is 0
    assert sum(game.totals) == 4 * sum(contract.total for contract in Contract) == 0
    assert game.totals == tuple(sum(hand.net[seat] for hand in game.hands) for seat in range(4))
    # every player doubled every declarer at least twice
    assert all(game.doubles(by, on) >= 2 for by in range(4) for on in range(4) if by != on)
    assert game.declarer is None and game.owed() == {} and game.reminder() is None
    with pytest.raises(BarbuError, match="the game is over: all 28 hands are played"):
        game.record(game.hands[0])


def test_the_deal_may_pass_after_every_hand() -> None:
    game = play_game(9, Rules(deal_passes_each_hand=True))
    assert [hand.declarer for hand in game.hands[:8]] == [1, 2, 3, 0, 1, 2, 3, 0]
    assert sum(game.totals) == 0


def nt_hand(declarer: int, doubles: tuple[Double, ...] = ()) -> Hand:
    return Hand(Contract.NO_TRICKS, declarer, (-8, -6, -6, -6), doubles)


def test_wrong_declarer_and_repeated_contract_are_refused() -> None:
    game = Game().record(nt_hand(0))
    with pytest.raises(BarbuError, match="hand 2 is declared by seat 0, not seat 1"):
        game.record(nt_hand(1))
    with pytest.raises(BarbuError, match=r"seat 0 has already declared No Tricks \(left: Q, LT, H, K, T, D\)"):
        game.record(nt_hand(0))
    with pytest.raises(BarbuError, match="first dealer must be a seat 0-3"):
        Game(first_dealer=4)
    with pytest.raises(BarbuError, match=r"hand 2's raw scores \[-8, -6, -6, -5\] do not sum to No Queens's -24"):
        game.record(Hand(Contract.NO_QUEENS, 0, (-8, -6, -6, -5)))
    with pytest.raises(BarbuError, match="seat 0 cannot double seat 1: the declarer may only redouble"):
        game.record(Hand(Contract.NO_QUEENS, 0, (-6, -6, -6, -6), (Double(0, 1),)))


def test_the_obligation_is_tracked_reminded_and_enforced() -> None:
    """Seat 3 never doubles seat 0; seats 1 and 2 double in the first two hands. With two hands left,
    the game reminds that seat 3 owes 2 and must double in each; a hand without that double is refused."""
    game = Game()
    contracts = list(Contract)
    for number in range(5):
        doubles = (Double(1, 0), Double(2, 0)) if number < 2 else ()
        assert game.reminder() is None
        game = game.record(Hand(contracts[number], 0, (0, 0, 0, contracts[number].total), doubles))
    assert game.owed() == {3: 2} and game.must_double() == (3,)
    assert game.reminder() == ("seat 0 has 2 hands left to declare; doubles owed them: seat 3 owes 2; "
                               "must double in this hand: seat 3")
    with pytest.raises(BarbuError, match="seat 3 must double seat 0 in hand 6: they owe 2 and seat 0 has 2 hands"):
        game.record(Hand(Contract.TRUMPS, 0, (65, 0, 0, 0)))
    game = game.record(Hand(Contract.TRUMPS, 0, (65, 0, 0, 0), (Double(3, 0, redoubled=True),)))
    assert game.reminder() == ("seat 0 has 1 hand left to declare; doubles owed them: seat 3 owes 1; "
                               "must double in this hand: seat 3")
    game = game.record(dominoes_hand(0, [0, 1, 2, 3], [Double(3, 0)]))
    assert game.declarer == 1 and game.owed() == {0: 2, 2: 2, 3: 2} and game.doubles(3, 0) == 2


def test_doubling_another_non_declarer_does_not_pay_the_obligation() -> None:
    game = Game()
    for contract in list(Contract)[:5]:
        game = game.record(Hand(contract, 0, (0, 0, contract.total, 0), (Double(1, 2), Double(2, 0))))
    assert game.owed() == {1: 2, 3: 2}
    assert game.doubles(1, 2) == 0  # seat 2 was not declaring


def test_running_totals_add_each_net_score() -> None:
    rng = random.Random(4)
    game = Game()
    hands = []
    for contract in (Contract.NO_HEARTS, Contract.TRUMPS):
        request = random_request(rng, contract, 0)
        hands.append(hand_from(score_request(request)))
        game = game.record(hands[-1])
    assert game.totals == tuple(a + b for a, b in zip(hands[0].net, hands[1].net, strict=True))
    assert game.contracts_left(0) == (Contract.NO_TRICKS, Contract.NO_QUEENS, Contract.NO_LAST_TRICK,
                                      Contract.NO_KING, Contract.DOMINOES)
    assert game.hands_left(0) == 5 and game.hands_left(1) == 7


def test_a_hand_from_the_trick_engine_records() -> None:
    request = random_request(random.Random(2), Contract.NO_QUEENS, 0, doubles=False)
    result = score_request(request)
    assert Game().record(hand_from(result)).totals == tuple(result["net"])


def test_the_number_of_doubles_owed_is_a_setting() -> None:
    game = Game(rules=Rules(doubles_owed=3))
    for contract in list(Contract)[:4]:
        game = game.record(Hand(contract, 0, (contract.total, 0, 0, 0)))
    assert game.owed() == {1: 3, 2: 3, 3: 3} and game.must_double() == (1, 2, 3)
    assert game.reminder() is not None and "seat 1 owes 3" in game.reminder()


def test_any_doubled_player_redoubles_and_redoubles_pay_no_obligation() -> None:
    """Seat 0 declares; seat 1 doubles seat 0 and seat 2, seat 2 redoubles seat 1: the redouble stands (the
    standard rule) and pays nothing seat 2 owes seat 0. Under the house rule only the declarer redoubles."""
    doubles = (Double(1, 0), Double(1, 2, redoubled=True))
    game = Game().record(Hand(Contract.NO_TRICKS, 0, (-8, -4, -8, -6), doubles))
    assert game.hands[0].net == (-12, 8, -16, -6)  # 1 v 0: 4 to seat 1; 1 v 2, redoubled: 2 x 4 to seat 1
    assert game.owed() == {1: 1, 2: 2, 3: 2} and game.doubles(2, 0) == 0
    house = Game(rules=Rules(redoubles="declarer"))
    with pytest.raises(BarbuError, match=r"seat 2 cannot redouble seat 1: only the declarer \(seat 0\) redoubles"):
        house.record(Hand(Contract.NO_TRICKS, 0, (-8, -4, -8, -6), doubles))
    assert house.record(Hand(Contract.NO_TRICKS, 0, (-8, -4, -8, -6), (Double(1, 0, redoubled=True),))).owed()[1] == 1


@pytest.mark.parametrize("redoubles", ["any", "declarer"])
def test_a_whole_game_under_each_redoubling_rule(redoubles: str) -> None:
    game = play_game(11, Rules(redoubles=redoubles))
    assert game.over and sum(game.totals) == 0
    by_others = [d for hand in game.hands for d in hand.doubles if d.redoubled and d.on != hand.declarer]
    assert bool(by_others) == (redoubles == "any")
