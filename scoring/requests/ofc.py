"""The ``tablescore score ofc`` request: every board of a hand as JSON in, the settlement as JSON out; the
readable command line, and the result as text.

The rules are ``scoring.ofc``'s; this module reads a request into them and writes the result out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.cards import Card
from scoring.ofc import (
    CODES,
    METHODS,
    ROWS,
    SIZES,
    SPANS,
    Board,
    Rules,
    Settlement,
    settle,
)
from scoring.poker import describe
from scoring.requests import Option, RequestError, cards_of, check_distinct, check_fields, kind_of

SAMPLES: tuple[dict[str, Any], ...] = (
    {"players": [
        {"front": ["6S", "6H", "2D"], "middle": ["9C", "9D", "4S", "4H", "2C"], "back": ["KD", "KC", "8S", "8H", "3C"]},
        {"front": ["5S", "5H", "3D"], "middle": ["8C", "8D", "7S", "7H", "2S"], "back": ["3S", "4D", "5D", "6C", "7D"]},
    ]},
    {"players": [
        {"front": ["QS", "QH", "7D"], "middle": ["QD", "QC", "9S", "8S", "2S"], "back": ["AS", "AH", "AD", "2H", "2D"]},
        {"front": ["KS", "KH", "7H"], "middle": ["KD", "KC", "6S", "5S", "4S"], "back": ["3S", "3H", "3D", "2C", "8D"]},
        {"front": ["JS", "JH", "JD"], "middle": ["9H", "9D", "9C", "7S", "7C"], "back": ["TS", "TH", "TD", "TC", "4D"]},
    ], "progressive": True},
)
"""The rules' 66-front tie, and a three-handed hand with a foul, royalties and Fantasyland."""


def _bool(request: Mapping[str, Any], name: str, where: str) -> bool:
    flag = request.get(name, False)
    if not isinstance(flag, bool):
        raise RequestError(f"{where!r} is true or false, not {flag!r}")
    return flag


def _rows(player: object, where: str) -> tuple[list[list[Card]], bool]:
    """A request's board: its three rows' cards and whether it was played in Fantasyland."""
    try:
        check_fields(player, required=ROWS, optional={"in_fantasyland"})
    except RequestError as error:
        raise RequestError(f"{where}: {error}") from None
    assert isinstance(player, Mapping)
    rows = [cards_of(player[name], f"{where}.{name}", SIZES[name]) for name in ROWS]
    return rows, _bool(player, "in_fantasyland", f"{where}.in_fantasyland")


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score ``{"players": [{"front": [3 cards], "middle": [5], "back": [5]}, ...]}`` (2 to 4 players).

    Optional: ``"scoring": "1-6"`` or ``"2-4"``, ``"progressive"`` and ``"pineapple"`` (true or false), and
    each player's ``"in_fantasyland"`` (they played this hand in Fantasyland).

    >>> result = score_request(SAMPLES[0])
    >>> result["net"], result["players"][0]["royalties"], result["pairs"][0]["rows"]
    ([0, 0], 1, {'front': 1, 'middle': 1, 'back': -1})
    >>> score_request({"players": [SAMPLES[0]["players"][0]] * 2})
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: card 6S is used twice (in 'players[0].front' and 'players[1].front')
    """
    check_fields(request, required={"players"}, optional={"scoring", "progressive", "pineapple"})
    players = request["players"]
    if not isinstance(players, list) or not 2 <= len(players) <= 4:
        got = f"{len(players)}" if isinstance(players, list) else kind_of(players)
        raise RequestError(f"'players' is a list of 2 to 4 boards, got {got}")
    scoring = request.get("scoring", "1-6")
    if scoring not in METHODS:
        raise RequestError(f"'scoring' is one of {', '.join(METHODS)}, not {scoring!r}")
    rules = Rules(scoring, _bool(request, "progressive", "progressive"), _bool(request, "pineapple", "pineapple"))
    boards, flags = zip(*(_rows(player, f"players[{i}]") for i, player in enumerate(players)), strict=True)
    try:
        result = settle([Board(*map(tuple, rows)) for rows in boards], rules, flags)
    except RequestError:  # a card used twice: say where, in the request's own words
        check_distinct({f"players[{i}].{name}": row for i, rows in enumerate(boards) for name, row in
                        zip(ROWS, rows, strict=True)})
        raise
    return _as_json(result)


def _as_json(result: Settlement) -> dict[str, Any]:
    players = [
        {
            "fouled": hand.fouled,
            "royalties": hand.royalty,
            "fantasyland": hand.fantasyland,
            "stays": hand.stays,
            "in_fantasyland": flag,
            "fantasyland_cards": cards,
            "rows": {
                name: {"cards": [CODES[index] for index in hand.board.indices[span]], "hand": describe(row_value),
                       "royalty": row_royalty}
                for name, span, row_value, row_royalty in zip(ROWS, SPANS, hand.values, hand.royalties, strict=True)
            },
        }
        for hand, flag, cards in zip(result.hands, result.in_fantasyland, result.fantasyland_cards, strict=True)
    ]
    pairs = [
        {
            "players": list(settled.players),
            "rows": dict(zip(ROWS, settled.rows, strict=True)),
            "scoop": settled.scoop,
            "overall": settled.overall,
            "royalties": settled.royalties,
            "points": settled.points,
        }
        for settled in result.pairs
    ]
    rules = {"scoring": result.rules.scoring, "progressive": result.rules.progressive,
             "pineapple": result.rules.pineapple}
    return {"net": list(result.net), "players": players, "pairs": pairs, "rules": rules}


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    """The readable form: each board as front / middle / back, boards separated by ``vs`` (``/`` may touch
    the cards: ``2D/9C``).

    ``--scoring 2-4``, ``--progressive``, ``--pineapple`` and ``--in-fantasyland 1 3`` (players by
    number, from 1) are the settings.

    >>> request = request_from_args("6S 6H 2D / 9C 9D 4S 4H 2C / KD KC 8S 8H 3C vs 5S 5H 3D / "
    ...                             "8C 8D 7S 7H 2S / 3S 4D 5D 6C 7D".split(), {"in_fantasyland": "2"})
    >>> request["players"][1]["back"], request["players"][1]["in_fantasyland"]
    (['3S', '4D', '5D', '6C', '7D'], True)
    """
    boards: list[list[list[str]]] = [[[]]]
    for word in " ".join(cards).replace("/", " / ").split():
        if word.lower() == "vs":
            boards.append([[]])
        elif word == "/":
            boards[-1].append([])
        else:
            boards[-1][-1].append(word)
    players: list[dict[str, Any]] = []
    for number, rows in enumerate(boards, start=1):
        if len(rows) != 3:
            raise RequestError(f"board {number} has {len(rows)} rows: write each board as front / middle / back, "
                               "and separate boards with 'vs'")
        players.append(dict(zip(ROWS, rows, strict=True)))
    request: dict[str, Any] = {"players": players}
    for name, option in options.items():
        if name == "in_fantasyland":
            seats = [option] if isinstance(option, str) else option if isinstance(option, list) else []
            if not seats:
                raise RequestError("--in-fantasyland takes the numbers of the players who played in Fantasyland")
            for seat in seats:
                if not seat.isdigit() or not 1 <= int(seat) <= len(players):
                    raise RequestError(f"--in-fantasyland takes player numbers 1 to {len(players)}, not {seat!r}")
                players[int(seat) - 1]["in_fantasyland"] = True
        else:
            request[name] = option
    return request


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"


def render(result: Mapping[str, Any]) -> str:
    """A settled hand as itemised text: each board, each pair's settlement, and the net points.

    >>> print(render(score_request(SAMPLES[0])))  # doctest: +NORMALIZE_WHITESPACE
    player 1
      front   6S 6H 2D        pair of sixes                      1
      middle  9C 9D 4S 4H 2C  two pair, nines and fours          0
      back    KD KC 8S 8H 3C  two pair, kings and eights         0
      royalties 1
    player 2
      front   5S 5H 3D        pair of fives                      0
      middle  8C 8D 7S 7H 2S  two pair, eights and sevens        0
      back    3S 4D 5D 6C 7D  straight, seven high               2
      royalties 2
    player 1 v player 2: front +1, middle +1, back -1, royalties -1: 0
    net: player 1 0, player 2 0
    """
    lines = []
    for number, player in enumerate(result["players"], start=1):
        lines.append(f"player {number}" + (" (in Fantasyland)" if player["in_fantasyland"] else ""))
        for name in ROWS:
            row = player["rows"][name]
            lines.append(f"  {name:<7} {' '.join(row['cards']):<15} {row['hand']:<33} {row['royalty']:>2}")
        notes = ["FOULED: loses every row, no royalties" if player["fouled"] else f"royalties {player['royalties']}"]
        if player["fantasyland_cards"]:
            verb = "stays in" if player["in_fantasyland"] else "goes to"
            notes.append(f"{verb} Fantasyland ({player['fantasyland_cards']} cards)")
        elif player["in_fantasyland"]:
            notes.append("leaves Fantasyland")
        lines.append("  " + "; ".join(notes))
    for settled in result["pairs"]:
        first, second = (number + 1 for number in settled["players"])
        items = [f"{name} {_signed(points)}" for name, points in settled["rows"].items()]
        items += [f"{name} {_signed(settled[name])}" for name in ("scoop", "overall", "royalties") if settled[name]]
        lines.append(f"player {first} v player {second}: {', '.join(items)}: {_signed(settled['points'])}")
    net = ", ".join(f"player {number} {_signed(points)}" for number, points in enumerate(result["net"], start=1))
    lines.append(f"net: {net}")
    return "\n".join(lines)
