"""The ``tablescore score cribbage`` requests: a hand or crib shown with the starter, and a pegging sequence, as
JSON in and out; the readable command line, and the result as text.

The rules are ``scoring.cribbage``'s; this module reads a request into them and writes the result out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.cards import parse_cards
from scoring.cribbage import (
    HAND_SIZE,
    Count,
    PeggingError,
    peg,
    pegging_count,
    show,
)
from scoring.requests import (
    Option,
    RequestError,
    card_field,
    card_list,
    cards_of,
    check_distinct,
    check_fields,
)

SAMPLES: tuple[dict[str, Any], ...] = (
    {"hand": ["5H", "5C", "5D", "JS"], "starter": "5S", "crib": False},
    {"hand": ["4S", "4H", "5D", "6C"], "starter": "5C"},
    {"hand": ["2H", "6H", "8H", "TH"], "starter": "KS", "crib": True},
    {"pegging": ["2S", "4S", "6H", "AD", "3C", "5S", "7S"]},
    {"pegging": ["5S", "5H", "5D"]},
)


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score a show request ``{"hand", "starter", "crib"}`` or a pegging request ``{"pegging"}``.

    >>> score_request({"hand": ["5H", "5C", "5D", "JS"], "starter": "5S"})["total"]
    29
    >>> score_request({"pegging": ["3S", "4H", "8D"]})
    {'total': 2, 'pegging': ['3S', '4H', '8D'], 'count': 15, 'items': [{'name': 'fifteen two', 'cards': ['3S', '4H', '8D'], 'points': 2, 'text': 'fifteen two: 3♠ 4♥ 8♦'}]}
    >>> score_request({"hand": ["5H", "5C", "5D", "JS"], "starter": "5H"})
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: card 5H is used twice (in 'hand' and 'starter')
    """
    if isinstance(request, Mapping) and "pegging" in request:
        check_fields(request, required={"pegging"})
        laid = cards_of(request["pegging"], "pegging", range(1, 53))
        try:
            scored = peg(laid)
        except PeggingError as error:
            raise RequestError(f"'pegging': {error}") from None
        return {"total": scored.total, "pegging": [card.code for card in laid], "count": pegging_count(laid),
                **_items(scored)}
    check_fields(request, required={"hand", "starter"}, optional={"crib"})
    hand = card_list(request, "hand", count=HAND_SIZE)
    starter = card_field(request, "starter")
    check_distinct({"hand": hand, "starter": [starter]})
    crib = request.get("crib", False)
    if not isinstance(crib, bool):
        raise RequestError(f"'crib' must be true or false, not {crib!r}")
    counted = show(hand, starter, crib)
    return {"total": counted.total, "hand": [card.code for card in hand], "starter": starter.code,
            "crib": crib, **_items(counted)}


def _items(count: Count) -> dict[str, Any]:
    return {"items": [item.as_json() for item in count.items]}


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    """The request the readable form names: four hand cards and ``--starter``, or ``--pegging`` cards.

    >>> request_from_args(["5H", "5C", "5D", "JS"], {"starter": "5S", "crib": True})
    {'hand': ['5H', '5C', '5D', 'JS'], 'starter': '5S', 'crib': True}
    >>> request_from_args([], {"pegging": ["5S", "5H"]})
    {'pegging': ['5S', '5H']}
    >>> request_from_args(["5H", "5C", "5D", "JS"], {})
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: give the starter: --starter CARD (or --pegging CARD... to score a card laid)
    """
    unknown = set(options) - {"starter", "crib", "pegging"}
    if unknown:
        raise RequestError(f"unknown option --{min(unknown)} (cribbage takes --starter CARD, --crib, --pegging CARD...)")
    if "pegging" in options:
        laid = options["pegging"]
        if cards or len(options) > 1 or isinstance(laid, bool):
            raise RequestError("--pegging takes the cards laid since the last reset, oldest first, and nothing else")
        return {"pegging": [laid] if isinstance(laid, str) else laid}
    starter = options.get("starter", True)
    if starter is True:
        raise RequestError("give the starter: --starter CARD (or --pegging CARD... to score a card laid)")
    if not isinstance(starter, str):
        raise RequestError("--starter takes one card")
    crib = options.get("crib", False)
    if crib is not True and crib is not False:
        raise RequestError("--crib is a flag and takes no value")
    return {"hand": cards, "starter": starter, "crib": crib}


def render(result: Mapping[str, Any]) -> str:
    """A result as a person reads it: one line an item with its points, then the total.

    >>> print(render(score_request({"hand": ["4S", "4H", "5D", "6C"], "starter": "5C", "crib": True})))
    crib 4♠ 4♥ 5♦ 6♣, starter 5♣
      fifteen two: 4♠ 5♦ 6♣                 2
      fifteen two: 4♠ 5♣ 6♣                 2
      fifteen two: 4♥ 5♦ 6♣                 2
      fifteen two: 4♥ 5♣ 6♣                 2
      double-double run of three: 4♠ 4♥ 5♦ 5♣ 6♣   16
    total 24
    """
    if "pegging" in result:
        head = f"pegging {' '.join(_symbols(result['pegging']))}, count {result['count']}"
    else:
        symbols = " ".join(_symbols(result["hand"]))
        head = f"{'crib' if result['crib'] else 'hand'} {symbols}, starter {_symbols([result['starter']])[0]}"
    width = max((len(item["text"]) for item in result["items"]), default=0)
    lines = [head, *(f"  {item['text']:<{width}} {item['points']:>3}" for item in result["items"])]
    return "\n".join([*lines, f"total {result['total']}"])


def _symbols(codes: Sequence[str]) -> list[str]:
    return [card.symbol for card in parse_cards(codes)]

