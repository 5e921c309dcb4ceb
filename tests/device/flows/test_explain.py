"""Every engine's refusal reaches the screen in the players' names: the engines name seats ``seat N``
(from 0) and ``Flow.explain`` gives each its player. Each game's seat-naming refusals are fed through its
flow here, so an engine that words its seats another way (``player 1``) shows up."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.device.flows.script import Table

NAMES = {"cribbage": ["Ann", "Bob"], "gin": ["Ann", "Bob"], "barbu": ["N", "E", "S", "W"],
         "ofc": ["Ann", "Bob", "Cy"], "pinzique": ["Ann", "Bob"]}

OFC_BOARDS = [{"front": ["QS", "QH", "7D"], "middle": ["QD", "QC", "9S", "8S", "2S"], "back": ["AS", "AH", "AD", "2H", "2D"]},
              {"front": ["KS", "KH", "7H"], "middle": ["KD", "KC", "6S", "5S", "4S"], "back": ["3S", "3H", "3D", "2C", "8D"]},
              {"front": ["JS", "JH", "JD"], "middle": ["9H", "9D", "9C", "7S", "7C"], "back": ["TS", "TH", "TD", "TC", "4D"]}]


def with_card(boards: list[dict[str, list[str]]], seat: int, row: str, at: int, code: str) -> list[dict[str, list[str]]]:
    """The boards with one card of ``seat``'s ``row`` replaced by ``code``."""
    changed = [{name: list(cards) for name, cards in board.items()} for board in boards]
    changed[seat][row][at] = code
    return changed


CASES: list[tuple[str, list[str], str, dict[str, Any], str]] = [
    # game, options chosen first, the refused event, what the screen says
    ("cribbage", ["Bob deals", "starter"], "go", {"seat": 1}, "it is Ann's turn to lay, not Bob's"),
    ("cribbage", ["Bob deals", "starter"], "go", {"seat": 0}, "Ann leads and can always lay a card"),
    ("gin", ["Ann knocks"], "knock", {"seat": 1}, "Ann has knocked: lay out both hands"),
    ("gin", ["Ann knocks"], "hand", {"knocker": ["5H", "6H", "7H", "8H", "9H", "KS", "KH", "KD", "2C", "3D"],
                                     "defender": ["TH", "JH", "4H", "2S", "2D", "2H", "9C", "9D", "9S", "KD"]},
     "card KD is used twice (in 'knocker' and 'defender')"),
    ("barbu", ["N deals", "No King of ♥", "E doubles N"], "double", {"by": 1, "on": 0}, "E doubles N twice"),
    ("barbu", ["N deals", "No King of ♥"], "double", {"by": 2, "on": 2}, "S cannot double themself"),
    ("barbu", ["N deals", "No King of ♥"], "redouble", {"by": 3},
     "N can redouble only a player who doubled them and is not yet redoubled, not W"),
    ("barbu", ["N deals"], "trick", {"cards": ["2C", "5C", "AC", "3D"]}, "N has not chosen a contract"),
    ("ofc", [], "hand", {"boards": with_card(OFC_BOARDS, 2, "middle", 4, "QS")},
     "card QS is used twice (in 'Ann front' and 'Cy middle')"),
    ("ofc", [], "hand", {"boards": with_card(OFC_BOARDS, 1, "back", 0, "3D")},
     "card 3D is used twice (in 'Bob back')"),
    ("ofc", [], "hand", {"boards": with_card(OFC_BOARDS, 1, "front", 0, "3D")},  # two rows of one board
     "card 3D is used twice (in 'Bob front' and 'Bob back')"),
    ("ofc", [], "hand", {"boards": with_card(OFC_BOARDS, 1, "back", 4, "XX")},
     "'Bob back': bad card code 'XX': a card code is a rank (A, 2-9, T or 10, J, Q, K) then a suit "
     "(S, H, D, C or ♠ ♥ ♦ ♣), like 'TH' or '10♥'"),
    ("pinzique", [], "stand", {}, "roll the dice before ending the turn"),
]


@pytest.mark.parametrize(("game", "chosen", "kind", "data", "said"), CASES,
                         ids=[f"{case[0]}-{case[2]}-{n}" for n, case in enumerate(CASES)])
def test_each_engines_refusals_name_the_players(tmp_path: Path, game: str, chosen: list[str], kind: str,
                                                data: dict[str, Any], said: str) -> None:
    table = Table(tmp_path / "j.db", game, NAMES[game])
    for label in chosen:
        if label == "starter":
            table.put("starter", "JD")
        table.choose(label)
    refused = table.attempt(kind, data)
    assert isinstance(refused, str)
    assert not re.search(r"\b(seat|player)s? \d", refused), refused  # no seat left as a number
    assert refused == said
