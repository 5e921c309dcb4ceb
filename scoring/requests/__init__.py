"""Score requests: what each game's request module offers ``tablescore score`` (``Requests``), and the checks
they share, the fields a request may have and the cards it names.

Each game's module here (``scoring.requests.barbu``, ...) reads a JSON-shaped request into its engine's
rules and writes the result out; the checks below give a bad request the same kind of clear message
whichever game it is for.

>>> request = {"hand": ["5H", "5C", "5D", "JS"], "starter": "5S"}
>>> check_fields(request, required={"hand", "starter"}, optional={"crib"})
>>> hand = card_list(request, "hand", count=4)
>>> starter = card_field(request, "starter")
>>> check_distinct({"hand": hand, "starter": [starter]})
>>> check_fields({"hand": [], "colour": "red"}, required={"hand"})
Traceback (most recent call last):
...
scoring.requests.RequestError: unknown field 'colour' (expected: hand)
>>> card_list({"hand": ["5H", "5C"]}, "hand", count=4)
Traceback (most recent call last):
...
scoring.requests.RequestError: 'hand' needs 4 cards, got 2
>>> check_distinct({"hand": parse_cards("5H 5C"), "starter": parse_cards("5H")})
Traceback (most recent call last):
...
scoring.requests.RequestError: card 5H is used twice (in 'hand' and 'starter')
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, Protocol

from scoring.cards import Card, CardError, parse_cards
from scoring.errors import RuleError

__all__ = [
    "Option",
    "RequestError",
    "Requests",
    "card_field",
    "card_list",
    "cards_of",
    "check_count",
    "check_distinct",
    "check_fields",
    "int_field",
    "kind_of",
    "parse_cards",
]


Option = str | list[str] | bool
"""A readable-form option's value: a flag, one word, or several words."""


class Requests(Protocol):
    """What a game's request module offers the score command.

    - ``score_request(request)``: a JSON-shaped request (a dict) to a JSON-shaped result, raising
      ``RequestError`` with a clear message for a bad request; pure, no I/O.
    - ``request_from_args(cards, options)``: the same request from the readable command line, where
      ``cards`` are the positional arguments and ``options`` the ``--name value...`` options.
    - ``render(result)``: the result as itemised text for a person.
    - ``SAMPLES``: a few requests, scored by the main job and checked by the tests.
    """

    SAMPLES: Sequence[Mapping[str, Any]]

    def score_request(self, request: Mapping[str, Any]) -> dict[str, Any]: ...

    def request_from_args(self, cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]: ...

    def render(self, result: Mapping[str, Any]) -> str: ...


class RequestError(RuleError):
    """A request that cannot be scored; the message says what is wrong with it."""


def kind_of(value: object) -> str:
    """What a JSON (or TOML) value is, in words for a message.

    >>> kind_of("5H"), kind_of(3), kind_of([]), kind_of({}), kind_of(None), kind_of(True)
    ('a string', 'a number', 'a list', 'an object', 'null', 'true or false')
    """
    if isinstance(value, bool):
        return "true or false"
    kinds = ((str, "a string"), (int | float, "a number"), (list, "a list"), (Mapping, "an object"),
             (type(None), "null"))
    return next((words for kind, words in kinds if isinstance(value, kind)), "a value of another kind")


def check_fields(request: object, required: Collection[str], optional: Collection[str] = ()) -> None:
    """Check that ``request`` is an object with every required field and no unknown one."""
    if not isinstance(request, Mapping):
        raise RequestError(f"a request is a JSON object, not {kind_of(request)}")
    known = set(required) | set(optional)
    for name in request:
        if name not in known:
            raise RequestError(f"unknown field {name!r} (expected: {', '.join(sorted(known))})")
    for name in required:
        if name not in request:
            raise RequestError(f"missing field {name!r}")


def card_field(request: Mapping[str, Any], name: str) -> Card:
    """The single card in field ``name``."""
    try:
        return Card.parse(request[name])
    except CardError as error:
        raise RequestError(f"{name!r}: {error}") from None


def card_list(request: Mapping[str, Any], name: str, count: int | range | None = None) -> list[Card]:
    """The list of distinct cards in field ``name``, optionally of ``count`` cards (a number or a range)."""
    return cards_of(request[name], name, count)


def cards_of(value: object, name: str, count: int | range | None = None) -> list[Card]:
    """Distinct cards from a JSON list of codes; ``name`` says where the list is (``players[1].front``).

    >>> cards_of("5H", "players[0].front")
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: 'players[0].front' is a list of card codes, not a string
    """
    if not isinstance(value, list):
        raise RequestError(f"{name!r} is a list of card codes, not {kind_of(value)}")
    try:
        cards = parse_cards(value)
    except CardError as error:
        raise RequestError(f"{name!r}: {error}") from None
    check_count(cards, name, count)
    check_distinct({name: cards})
    return cards


def check_count(cards: Collection[Card], name: str, count: int | range | None) -> None:
    """Check that ``name`` holds ``count`` cards (a number or a range; None: any number).

    >>> check_count(parse_cards("5H 6H"), "defender", range(10, 12))
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: 'defender' needs 10 to 11 cards, got 2
    """
    if isinstance(count, int) and len(cards) != count:
        raise RequestError(f"{name!r} needs {count} cards, got {len(cards)}")
    if isinstance(count, range) and len(cards) not in count:
        raise RequestError(f"{name!r} needs {count.start} to {count.stop - 1} cards, got {len(cards)}")


def check_distinct(groups: Mapping[str, Iterable[Card]]) -> None:
    """Check that no card appears twice, within or across the named groups of cards."""
    seen: dict[Card, str] = {}
    for name, cards in groups.items():
        for card in cards:
            if card in seen:
                where = repr(name) if seen[card] == name else f"{seen[card]!r} and {name!r}"
                raise RequestError(f"card {card} is used twice (in {where})")
            seen[card] = name


def int_field(request: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """The whole number in field ``name``, which must lie in ``low``..``high``.

    >>> int_field({"declarer": 5}, "declarer", 0, 3)
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: 'declarer' must be a whole number from 0 to 3, not 5
    """
    value = request[name]
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise RequestError(f"{name!r} must be a whole number from {low} to {high}, not {value!r}")
    return value
