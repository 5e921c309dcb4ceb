"""The ``tablescore score gin`` requests: a hand's melds, a knock settled, a whole game's bonuses, as JSON in and
out; the readable command line, the result as text, and the settings a request or a configuration names
(``knock_rules``, ``game_rules``).

The rules are ``scoring.gin``'s and ``scoring.gin_melds``'; this module reads a request into them and
writes the result out.

>>> score_request({"hand": "7S 8S 9S TS 7H 7D 2C 3C 4C KD".split()})
{'deadwood': 10, 'melds': [['8S', '9S', 'TS'], ['2C', '3C', '4C'], ['7S', '7H', '7D']], 'unmatched': ['KD']}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.cards import Card
from scoring.gin import (
    PARTS,
    GameRules,
    Rules,
    score_game,
    settle,
)
from scoring.gin_melds import (
    Aces,
    Melding,
    best_discard,
    meld,
)
from scoring.requests import (
    Option,
    RequestError,
    card_field,
    card_list,
    check_distinct,
    check_fields,
    int_field,
    kind_of,
)

SAMPLES: tuple[dict[str, Any], ...] = (
    {"hand": ["4S", "4C", "4D", "4H", "5S", "5C", "5D", "6S", "2C", "3S", "3C"]},
    {"hand": ["3S", "4S", "5S", "2C", "3C", "4C", "5D", "2H", "3H", "4H", "5H"]},
    {"knocker": ["5H", "6H", "7H", "8H", "9H", "KS", "KH", "KD", "2C", "3D"], "defender": ["TH", "JH", "4H", "2S", "2D", "2H", "9C", "9D", "9S", "QC"]},
    {"knocker": ["2S", "3S", "4S", "6H", "7H", "8H", "9C", "9D", "9H", "2D"], "defender": ["5S", "TC", "JC", "QC", "KC", "7C", "7D", "7S", "AD", "AH"]},
    {"hands": [{"winner": "A", "points": 30}, {"winner": "B", "points": 12}, {"winner": "A", "points": 75}]},
)
"""A hand with overlapping sets and runs, a gin after the right discard, a knock with lay-offs in chains,
an undercut on a tie, and a game."""

HAND_SETTINGS = ("aces",)
KNOCK_SETTINGS = ("aces", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", "upcard", "spade_double",
                  "accept_illegal")
GAME_SETTINGS = ("limit", "game_bonus", "box_bonus", "shutout_multiplier", "shutout_doubles")
PLAYERS = ("A", "B")


def _flag(request: Mapping[str, Any], name: str, default: bool | None) -> bool | None:
    value = request.get(name, default)
    if value is not None and not isinstance(value, bool):
        raise RequestError(f"{name!r} must be true or false, not {value!r}")
    return value


def _aces(request: Mapping[str, Any]) -> Aces:
    try:
        return Aces(request.get("aces", "low"))
    except ValueError:
        raise RequestError(f"'aces' must be \"low\" or \"high-low\", not {request['aces']!r}") from None


def _cards_json(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _melding_json(melding: Melding) -> dict[str, Any]:
    """``deadwood``, ``melds``, ``unmatched`` and, after a discard, ``discard``."""
    result = {"deadwood": melding.deadwood, "melds": [_cards_json(m) for m in melding.melds],
              "unmatched": _cards_json(melding.unmatched)}
    return result if melding.discard is None else {**result, "discard": melding.discard.code}


def _hand_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"hand"}, optional=HAND_SETTINGS)
    cards = card_list(request, "hand", count=range(10, 12))
    return _melding_json(best_discard(cards, _aces(request)) if len(cards) == 11 else meld(cards, _aces(request)))


def knock_rules(request: Mapping[str, Any]) -> Rules:
    """The knock rules a request's settings name (the device's configuration uses the same names)."""
    ints = {name: int_field(request, name, 0, 100) for name in ("gin_bonus", "undercut_bonus", "big_gin_bonus")
            if name in request}
    if "knock_limit" in request:
        ints["knock_limit"] = int_field(request, "knock_limit", 0, 99)
    upcard = card_field(request, "upcard") if "upcard" in request else None
    return Rules(aces=_aces(request), upcard=upcard, spade_double=bool(_flag(request, "spade_double", False)), **ints)


def _knock_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"knocker", "defender"}, optional=KNOCK_SETTINGS)
    rules = knock_rules(request)
    knocker = card_list(request, "knocker", count=range(10, 12) if rules.big_gin_bonus else 10)
    defender = card_list(request, "defender", count=10)
    check_distinct({"knocker": knocker, "defender": defender, **({"upcard": [rules.upcard]} if rules.upcard else {})})
    try:
        hand = settle(knocker, defender, rules, _flag(request, "accept_illegal", None))
    except ValueError as error:
        raise RequestError(str(error)) from None
    if hand.result == "illegal":
        raise RequestError(
            f"illegal knock: the knocker's deadwood is {hand.knocker.deadwood}, over the knock limit of "
            f"{hand.limit} (the defender accepts it with \"accept_illegal\": true, or refuses with false)"
        )
    return {
        "winner": hand.winner,
        "points": hand.points,
        "result": hand.result,
        "layoffs": _cards_json(hand.layoffs),
        "legal": hand.legal,
        "big_gin": hand.big_gin,
        "knock_limit": hand.limit,
        "knocker": _melding_json(hand.knocker),
        "defender": _melding_json(hand.defender),
    }


def game_rules(request: Mapping[str, Any]) -> GameRules:
    """The game rules (limit, bonuses, shutout) a request's settings name."""
    settings: dict[str, Any] = {name: int_field(request, name, 0, 1000) for name in GAME_SETTINGS[:4] if name in request}
    if "shutout_doubles" in request:
        parts = request["shutout_doubles"]
        if not isinstance(parts, list) or not all(part in PARTS for part in parts):  # parts may be unhashable
            raise RequestError(f"'shutout_doubles' is a list of some of {', '.join(PARTS)}, not {parts!r}")
        settings["shutout_doubles"] = frozenset(parts)
    try:
        return GameRules(**settings)
    except ValueError as error:
        raise RequestError(str(error)) from None


def _game_hand(number: int, hand: object) -> tuple[int | None, int]:
    where = f"hands[{number}]"
    if not isinstance(hand, Mapping):
        raise RequestError(f"{where!r} is an object like {{\"winner\": \"A\", \"points\": 25}}, not {hand!r}")
    try:  # the shared checks name the field; say which hand it is in
        check_fields(hand, required={"winner"}, optional={"points"})
        points = int_field(hand, "points", 0, 10000) if "points" in hand else None
    except RequestError as error:
        raise RequestError(f"{where!r}: {error}") from None
    if hand["winner"] is None:
        if points:
            raise RequestError(f"{where!r} has no winner (a dead hand), so it scores no points")
        return None, 0
    if hand["winner"] not in PLAYERS:
        raise RequestError(f"{where + '.winner'!r} is \"A\", \"B\" or null, not {hand['winner']!r}")
    if points is None:
        raise RequestError(f"missing field 'points' in {where!r}")
    return PLAYERS.index(hand["winner"]), points


def _game_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"hands"}, optional=GAME_SETTINGS)
    rules = game_rules(request)
    hands = request["hands"]
    if not isinstance(hands, list):
        raise RequestError(f"'hands' is a list of hands, not {kind_of(hands)}")
    try:
        game = score_game((_game_hand(n, hand) for n, hand in enumerate(hands)), rules)
    except ValueError as error:
        raise RequestError(str(error)) from None
    return {
        "over": game.over,
        "winner": None if game.winner is None else PLAYERS[game.winner],
        "points": dict(zip(PLAYERS, game.points, strict=True)),
        "hands_won": dict(zip(PLAYERS, game.hands_won, strict=True)),
        "game_bonus": game.game_bonus,
        "box_bonuses": dict(zip(PLAYERS, game.box_bonuses, strict=True)),
        "shutout": game.shutout,
        "totals": dict(zip(PLAYERS, game.totals, strict=True)),
        "margin": game.margin,
    }


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one batch request: a ``hand`` (10 or 11 cards), a ``knocker`` and ``defender``, or a game's
    ``hands``, each with optional settings.

    >>> score_request({"knocker": "AS 2S 3S 4S 5S 6S 7S KD KH QC".split(), "defender": "2C 3C 4C 5C 6C 7C 8C 9C TC JC".split()})
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: illegal knock: the knocker's deadwood is 30, over the knock limit of 10 (...)
    """
    check_fields(request, required=(), optional={"hand", "knocker", "defender", "hands", *KNOCK_SETTINGS, *GAME_SETTINGS})
    if "hand" in request:
        return _hand_request(request)
    if "knocker" in request or "defender" in request:
        return _knock_request(request)
    if "hands" in request:
        return _game_request(request)
    raise RequestError("a gin request has a 'hand', a 'knocker' and a 'defender', or a game's 'hands'")


INT_OPTIONS = {"knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", *GAME_SETTINGS[:4]}


def _words(value: Option) -> list[str]:
    return [value] if isinstance(value, str) else [] if value is True else list(value)  # type: ignore[arg-type]


def _option(name: str, value: Option) -> Any:
    if name in ("knocker", "defender", "shutout_doubles"):
        return _words(value)
    if name in ("accept_illegal", "spade_double"):
        if value is True or value in ("yes", "true"):
            return True
        if value in ("no", "false"):
            return False
        raise RequestError(f"--{name.replace('_', '-')} takes yes or no, not {value!r}")
    if isinstance(value, (bool, list)):
        raise RequestError(f"--{name.replace('_', '-')} takes one value")
    if name in INT_OPTIONS:
        if not value.isdigit():
            raise RequestError(f"--{name.replace('_', '-')} takes a whole number, not {value!r}")
        return int(value)
    return value


def _game_hand_arg(word: str) -> dict[str, Any]:
    """``A25``, ``B:12`` or ``-`` (a dead hand) as a game hand."""
    if word == "-":
        return {"winner": None}
    player, points = word[:1].upper(), word[1:].lstrip(":")
    if player not in PLAYERS or not points.isdigit():
        raise RequestError(f"a game hand is A or B then its points (A25, B:12), or - for a dead hand; not {word!r}")
    return {"winner": player, "points": int(points)}


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    """The readable form: ``gin 10-or-11 CARDS``, ``gin --knocker CARDS --defender CARDS [--accept-illegal]``
    or ``gin --hands A25 B12 - ...``, each with ``--setting value`` options.

    >>> request_from_args([], {"hands": ["A25", "b:12", "-"], "limit": "200"})
    {'hands': [{'winner': 'A', 'points': 25}, {'winner': 'B', 'points': 12}, {'winner': None}], 'limit': 200}
    """
    request: dict[str, Any] = {"hand": cards} if cards else {}
    for name, value in options.items():
        if name == "hands":
            request["hands"] = [_game_hand_arg(word) for word in _words(value)]
        else:
            request[name] = _option(name, value)
    return request


def _meld_lines(arrangement: Mapping[str, Any]) -> str:
    melds = "  ".join(" ".join(m) for m in arrangement["melds"]) or "none"
    return f"melds {melds}; unmatched {' '.join(arrangement['unmatched']) or 'none'}"


def render(result: Mapping[str, Any]) -> str:
    """A result as text for a person.

    >>> print(render(score_request(SAMPLES[2])))
    knock: knocker wins 5
      knocker deadwood 5: melds 5H 6H 7H 8H 9H  KS KH KD; unmatched 3D 2C
      defender lays off 4H TH JH
      defender deadwood 10: melds 2S 2H 2D  9S 9D 9C; unmatched QC
    """
    if "deadwood" in result:
        discard = f"discard {result['discard']}, " if "discard" in result else ""
        return f"{discard}deadwood {result['deadwood']}: {_meld_lines(result)}"
    if "result" in result:
        lines = [f"{result['result']}: " + (f"{result['winner']} wins {result['points']}" if result["winner"]
                                              else "no score, the knocker's cards stay face up")]
        if not result["legal"]:
            lines[0] += f" (an illegal knock: deadwood {result['knocker']['deadwood']} over {result['knock_limit']})"
        lines.append(f"  knocker deadwood {result['knocker']['deadwood']}: {_meld_lines(result['knocker'])}")
        if result["layoffs"]:
            lines.append(f"  defender lays off {' '.join(result['layoffs'])}")
        lines.append(f"  defender deadwood {result['defender']['deadwood']}: {_meld_lines(result['defender'])}")
        return "\n".join(lines)
    state = "game over" if result["over"] else "game goes on"
    lines = [f"{state}: " + ", ".join(f"{p} {result['points'][p]} points (won {result['hands_won'][p]})"
                                      for p in PLAYERS)]
    if result["over"]:
        lines.append(f"  {result['winner']} wins: game bonus {result['game_bonus']}, box bonuses "
                     + ", ".join(f"{p} {result['box_bonuses'][p]}" for p in PLAYERS)
                     + (", shutout" if result["shutout"] else ""))
        lines.append("  totals " + ", ".join(f"{p} {result['totals'][p]}" for p in PLAYERS)
                     + f"; {result['winner']} by {result['margin']}")
    return "\n".join(lines)
