"""Random Barbu hands played legally, as score requests: for the demo, the tests and the benchmarks.

Pure given its random source: the same ``random.Random`` seed gives the same hands.

>>> import random
>>> from scoring.barbu import Contract
>>> from scoring.requests.barbu import score_request
>>> request = random_request(random.Random(1), Contract.NO_HEARTS, declarer=2)
>>> request["tricks"][0]["leader"], sum(score_request(request)["scores"])
(2, -30)
"""

from __future__ import annotations

import random
from typing import Any

from scoring.barbu import SEATS, STANDARD_RULES, TRICKS, Contract, Dominoes, Rules, Trick
from scoring.cards import DECK, Card, Rank, Suit

__all__ = ["deal", "random_request"]


def deal(rng: random.Random) -> list[list[Card]]:
    """Four hands of 13 from a shuffled deck."""
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[seat * TRICKS:(seat + 1) * TRICKS] for seat in range(SEATS)]


def random_request(rng: random.Random, contract: Contract, declarer: int, rules: Rules = STANDARD_RULES,
                   doubles: bool = True) -> dict[str, Any]:
    """A request for one hand of ``contract`` dealt and played at random within the rules, with random
    legal doubles and redoubles, and the rules' ``redoubles_by``, if ``doubles``."""
    hands = deal(rng)
    request: dict[str, Any] = {"contract": contract.value, "declarer": declarer}
    if contract is Contract.DOMINOES:
        start = rng.choice(list(Rank))
        request |= {"start": start.letter, "plays": _lay_out(rng, hands, declarer, start)}
    else:
        trump = rng.choice(list(Suit)) if contract is Contract.TRUMPS else None
        if trump is not None:
            request["trump"] = trump.letter
            request["must_trump"] = rules.must_trump
        request["tricks"] = _play(rng, hands, declarer, contract, trump, rules)
    if doubles:
        request |= _random_doubles(rng, declarer, rules)
    return request


def _play(rng: random.Random, hands: list[list[Card]], declarer: int, contract: Contract, trump: Suit | None,
          rules: Rules) -> list[dict[str, Any]]:
    tricks = []
    leader = declarer
    for _ in range(TRICKS):
        cards: list[Card] = []
        for position in range(SEATS):
            hand = hands[(leader + position) % SEATS]
            card = rng.choice(_legal(hand, cards, contract, trump, rules))
            hand.remove(card)
            cards.append(card)
        tricks.append({"leader": leader, "cards": [card.code for card in cards]})
        leader = Trick(leader, tuple(cards)).winner(trump)
    return tricks


def _legal(hand: list[Card], played: list[Card], contract: Contract, trump: Suit | None,
           rules: Rules) -> list[Card]:
    """The cards of ``hand`` that may be played to a trick that holds ``played`` so far."""
    if not played:
        if contract in (Contract.NO_HEARTS, Contract.NO_KING):
            return [card for card in hand if card.suit is not Suit.HEARTS] or hand
        return hand
    following = [card for card in hand if card.suit is played[0].suit]
    if following:
        return following
    if rules.must_trump and trump is not None:
        return [card for card in hand if card.suit is trump] or hand
    return hand


def _lay_out(rng: random.Random, hands: list[list[Card]], declarer: int, start: Rank) -> list[str]:
    layout = Dominoes.begin(declarer, start)
    plays = []
    while not layout.over:
        hand = hands[layout.to_play]
        playable = layout.playable()
        choices = [card for card in hand if card in playable]
        if choices:
            card = rng.choice(choices)
            hand.remove(card)
            layout = layout.lay(card)
            plays.append(card.code)
        else:
            layout = layout.pass_turn()
            plays.append("pass")
    return plays


def _random_doubles(rng: random.Random, declarer: int, rules: Rules) -> dict[str, Any]:
    """Legal doubles: each non-declarer doubles some others (a pair at most once); some who were doubled
    redouble (under ``rules.redoubles``, only the declarer)."""
    doubles: list[list[int]] = []
    for by in range(SEATS):
        for on in range(SEATS):
            if by not in (on, declarer) and [on, by] not in doubles and rng.random() < 0.4:
                doubles.append([by, on])
    may_redouble = range(SEATS) if rules.redoubles == "any" else (declarer,)
    redoubles = [[on, by] for by, on in doubles if on in may_redouble and rng.random() < 0.5]
    return {"doubles": doubles, "redoubles": redoubles, "redoubles_by": rules.redoubles}

