"""How many Barbu hands a second the engine settles on one core.

Random hands of every contract, played legally with random doubles and redoubles
(``scoring.barbu_random``), are settled three ways:

- ``request``: ``score_request`` on the JSON-shaped request (parsing, checking every card, winners,
  irregularities, scores, doubling, the result dict): what ``tablescore score barbu --batch`` does per line;
- ``batch line``: the same from the JSON text line to the JSON text answer;
- ``engine``: ``trick_hand`` / ``dominoes_hand`` on cards already parsed (the device's game flow);
- ``dominoes laid``: Dominoes requests that give every card laid and pass (``plays``), each card checked
  against the layout, rather than only the finishing order.

Goal: at least 20,000 hands a second on one core.

    .venv/bin/python benchmarks/barbu_speed.py [--hands 4000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Callable
from typing import Any

from timing import best_rates

from scoring.barbu import Contract, Double, Trick, dominoes_hand, trick_hand
from scoring.barbu_random import random_request
from scoring.cards import Card, Suit
from scoring.requests.barbu import score_request

GOAL = 20_000


def requests(count: int, seed: int = 2026) -> list[dict[str, Any]]:
    """``count`` random hands, the seven contracts in turn (Dominoes given by its finishing order)."""
    rng = random.Random(seed)
    contracts = list(Contract)
    hands = []
    for number in range(count):
        request = random_request(rng, contracts[number % len(contracts)], declarer=number % 4)
        if request["contract"] == "D":
            request["order"] = score_request(request)["order"]
            del request["plays"], request["start"]
        hands.append(request)
    return hands


def engine_call(request: dict[str, Any]) -> Callable[[], object]:
    """The engine call for one request, with its cards parsed beforehand."""
    declarer = request["declarer"]
    redoubled = {(on, by) for by, on in request["redoubles"]}
    doubles = [Double(by, on, (by, on) in redoubled) for by, on in request["doubles"]]
    if request["contract"] == "D":
        order = request["order"]
        return lambda: dominoes_hand(declarer, order, doubles)
    contract = Contract.parse(request["contract"])
    trump = Suit.parse(request["trump"]) if "trump" in request else None
    tricks = [Trick(t["leader"], tuple(Card.parse(code) for code in t["cards"])) for t in request["tricks"]]
    return lambda: trick_hand(contract, declarer, tricks, doubles, trump)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    hands = requests(args.hands)
    rng = random.Random(7)
    laid = [random_request(rng, Contract.DOMINOES, number % 4) for number in range(args.hands // 7)]
    lines = [json.dumps(request) for request in hands]
    calls = [engine_call(request) for request in hands]

    def through_requests() -> None:
        for request in hands:
            score_request(request)

    def through_lines() -> None:
        for line in lines:
            json.dumps(score_request(json.loads(line)))

    def through_engine() -> None:
        for call in calls:
            call()

    def through_layouts() -> None:
        for request in laid:
            score_request(request)

    print(f"Barbu: {args.hands} random hands (all seven contracts, random doubles), best of "
          f"{args.repeat}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    runs = (("request", through_requests, len(hands)), ("batch line", through_lines, len(hands)),
            ("engine", through_engine, len(hands)), ("dominoes laid", through_layouts, len(laid)))
    for name, run, count in runs:
        cpu, wall = best_rates(run, count, args.repeat)
        verdict = "meets" if cpu >= GOAL else "BELOW"
        print(f"  {name:<13} {cpu:>9,.0f} hands/s CPU {wall:>9,.0f} wall  ({verdict} the {GOAL:,}/s goal)")

if __name__ == "__main__":
    main()
