"""Pinzique for ``tablescore score``: the best score of one roll of the eight dice, and a round's takeaway.

Faces are card codes (``QH``, ``TS``, ``9C``...), eight a roll, in any order. Batch requests:

- ``{"dice": [8 faces]}`` → ``{"total", "melds": [{"code", "points", "dice", "name", "provisional"}],
  "all_dice", "provisional"}``: ``dice`` are positions in the request; ``all_dice`` says whether every die
  is in a meld; ``provisional`` marks points assumed rather than read from the rulebook.
- ``{"round": [[8 faces], ...], "bonus_round": false}`` (one final roll a player, in turn order) →
  ``{"points", "bonus", "lost": [[{"code", "points", "to"}]], "rolls", "bonus_round"}``: each player's
  points after takeaway, who earns a bonus round, the melds each lost and to which players.

The readable form takes one roll, or a round's rolls separated by ``/``:

>>> print(render(score_request(request_from_args("9H TH JH QH KH KH QH 9C".split(), {}))))
SMH   650   small run in hearts      dice 0 1 2 3 4
MH     35   marriage in hearts       dice 5 6
total 685
>>> result = score_request({"dice": ["QH", "QH", "QH", "9C", "TC", "JH", "QC", "KS"]})
Traceback (most recent call last):
...
scoring.pinzique_roll.RollError: 'dice': no set of dice can show this roll: QH, QH, QH need 3 dice but only dice 1, 2 show them (the score guide's dice layout is provisional: if your dice differ, correct it there)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.cards import CardError, parse_cards
from scoring.pinzique_game import settle_round
from scoring.pinzique_roll import RollError, RollScore, score_roll
from scoring.requests import Option, RequestError, check_fields, kind_of

__all__ = ["SAMPLES", "render", "request_from_args", "score_request"]

SAMPLES: tuple[dict[str, Any], ...] = (
    {"dice": ["9H", "TH", "JH", "QH", "KH", "KH", "QH", "9C"]},
    {"dice": ["JS", "JH", "JD", "JC", "QH", "KH", "KC", "QC"]},
    {"round": [["QS", "QH", "QD", "QC", "JS", "KH", "KC", "9S"], ["QS", "QH", "QD", "QC", "QH", "KH", "KD", "JS"]]},
)
"""The fragment's worked examples: a small run and a marriage in hearts; the bonus roll scoring on all
eight dice; Player 1's four Queens taken by Player 2's five."""

PROVISIONAL_NOTE = "* provisional: assumed points, not from the rulebook (correct them in the score guide)"


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score a ``dice`` request (one roll) or a ``round`` request (every player's final roll).

    >>> score_request({"round": [["QS", "QH", "QD", "QC", "JS", "KH", "KC", "9S"],
    ...                          ["QS", "QH", "QD", "QC", "QH", "KH", "KD", "JS"]]})["lost"]
    [[{'code': '4Q', 'points': 60, 'to': [1]}], []]
    """
    check_fields(request, required=(), optional={"dice", "round", "bonus_round"})
    if ("dice" in request) == ("round" in request):
        raise RequestError("give 'dice' (one roll of eight faces) or 'round' (each player's final roll), "
                           "exactly one of them")
    if "dice" in request:
        if "bonus_round" in request:
            raise RequestError("'bonus_round' goes with a 'round' request, not 'dice'")
        return _roll(request["dice"], "dice").to_json()
    rolls = request["round"]
    bonus_round = request.get("bonus_round", False)
    if not isinstance(bonus_round, bool):
        raise RequestError(f"'bonus_round' must be true or false, not {bonus_round!r}")
    fewest = 1 if bonus_round else 2  # a bonus round may have a single bonus player
    if not isinstance(rolls, list) or not fewest <= len(rolls) <= 4:
        players = "1 to 4 bonus players" if bonus_round else "2 to 4 players"
        raise RequestError(f"'round' is a list of each player's roll (a list of eight faces), {players}")
    return settle_round([_roll(roll, f"round[{player}]") for player, roll in enumerate(rolls)], bonus_round).to_json()


def _roll(value: object, name: str) -> RollScore:
    """The best score of the roll in a request field, checked against the dice."""
    if not isinstance(value, list):
        raise RequestError(f"{name!r} is a list of eight faces (card codes), not {kind_of(value)}")
    try:
        return score_roll(parse_cards(value))
    except CardError as error:
        raise RequestError(f"{name!r}: {error}") from None
    except RollError as error:
        raise RollError(f"{name!r}: {error}") from None


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    """The request the readable form names: one roll, or several rolls separated by ``/`` as a round
    (``--bonus-round`` for a bonus round).

    >>> request_from_args(["QS", "QH/9C", "/", "KH"], {"bonus_round": True})
    {'round': [['QS', 'QH'], ['9C'], ['KH']], 'bonus_round': True}
    """
    unknown = set(options) - {"bonus_round"}
    if unknown:
        raise RequestError(f"unknown option --{sorted(unknown)[0].replace('_', '-')} (expected: --bonus-round)")
    rolls = [roll.split() for roll in " ".join(cards).split("/")]
    if len(rolls) == 1 and "bonus_round" not in options:
        return {"dice": rolls[0]}
    return {"round": rolls, **({"bonus_round": options["bonus_round"]} if "bonus_round" in options else {})}


def render(result: Mapping[str, Any]) -> str:
    """A result as itemised text; ``*`` marks provisional points.

    >>> print(render(score_request(SAMPLES[2])))
    player 1: 120 (rolled 180; lost 4Q 60 to player 2)
      MH     35   marriage in hearts       dice 1 5
      MC     35   marriage in clubs        dice 3 6
      P      50   Pinzique                 dice 1 4
      4Q     60   four queens              dice 0 1 2 3
    player 2: 180, bonus round
      MH     35   marriage in hearts       dice 1 5
      MD     35   marriage in diamonds     dice 2 6
      P      50   Pinzique                 dice 4 7
      5Q     60   five queens              dice 0 1 2 3 4
    """
    if "total" in result:
        lines = _melds(result["melds"], "")
        lines.append(f"total {result['total']}" + (", on all eight dice" if result["all_dice"] else ""))
        provisional = result["provisional"]
    else:
        lines = ["bonus round: settled among its bonus players"] if result["bonus_round"] else []
        for player, (points, bonus, lost, roll) in enumerate(
                zip(result["points"], result["bonus"], result["lost"], result["rolls"], strict=True), start=1):
            losses = "; ".join(f"lost {loss['code']} {loss['points']} to player "
                               f"{' and '.join(str(to + 1) for to in loss['to'])}" for loss in lost)
            rolled = f" (rolled {roll['total']}; {losses})" if lost else ""
            lines.append(f"player {player}: {points}{rolled}" + (", bonus round" if bonus else ""))
            lines += _melds(roll["melds"], "  ")
        provisional = any(roll["provisional"] for roll in result["rolls"])
    return "\n".join(lines + ([PROVISIONAL_NOTE] if provisional else []))


def _melds(melds: Sequence[Mapping[str, Any]], indent: str) -> list[str]:
    return [f"{indent}{meld['code']:<4}{meld['points']:>5}{'*' if meld['provisional'] else ' '}  {meld['name']:<24} "
            f"dice {' '.join(map(str, meld['dice']))}" for meld in melds]

