"""The Pinzique flow end to end: rolls read in the tray with the roll counter, stands, rounds settled with
takeaways, bonus rounds, ten rounds and playoffs, partners: the device must keep the score sheet the engine
keeps for the same rolls (docs/rules/pinzique.md; the rulebook's worked examples)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scoring.cards import Card, parse_cards
from scoring.pinzique_game import Game
from scoring.pinzique_roll import default_guide
from tests.device.flows.script import Table

NAMES = ["Ann", "Bob", "Cy", "Di"]
BONUS = "JS JH JD JC QH KH KC QC"  # the fragment's roll scoring on all eight dice


def roll(rng: random.Random) -> list[Card]:
    """Eight dice thrown: a random face of each (at times the fragment's bonus roll)."""
    if rng.random() < 0.15:
        return parse_cards(BONUS)
    return [rng.choice(faces) for faces in default_guide().dice]


def play_out(table: Table, game: Game, rng: random.Random) -> Game:
    """Play the game to its end at the table and in the engine side by side."""
    previous: list[str] = []
    while not game.over:
        faces = roll(rng)
        codes = sorted(card.code for card in faces)
        if codes == previous and game.last is None:
            continue  # a new turn showing the last faces: the device waits for a roll it can tell
        table.dice(*(card.code for card in faces))
        if codes == previous:
            table.choose("the same again")
        else:
            assert table.lines()[0].startswith(f"OK: roll {game.rolls_made + 1} of {game.rolls_per_turn}: ")
            table.ok()
        game = game.roll(faces)
        previous = codes
        if game.last is not None and rng.random() < 0.4:
            table.choose(f"{' & '.join(game.sides[game.up])} stands")
            game = game.stand()
        assert table.play.state.game == game
    return game


@pytest.mark.parametrize(("players", "settings"), [(2, {}), (3, {"rounds": 4}), (4, {"partners": True, "rounds": 5})])
def test_a_game_at_the_table_keeps_the_engines_sheet(tmp_path: Path, players: int, settings: dict[str, object]) -> None:
    rng = random.Random(players)
    table = Table(tmp_path / "j.db", "pinzique", NAMES[:players], settings)
    sides = [(NAMES[0], NAMES[2]), (NAMES[1], NAMES[3])] if settings.get("partners") else NAMES[:players]
    game = play_out(table, Game.new(sides, rounds=int(settings.get("rounds", 10))), rng)  # type: ignore[call-overload]
    assert any(row.label.startswith("B-") for row in game.sheet)
    result = table.play.flow.result(table.play.state)
    assert result is not None and result["totals"] == list(game.totals)
    assert table.play.screen().title.endswith(" wins")
    assert table.restarted().play.state == table.play.state


def test_the_tray_the_counter_and_takeaways(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "pinzique", ["Ann", "Bob"], {"rounds": 1})
    assert table.lines()[0] == "roll into the tray"
    table.dice("QS QH QD QC JS KH KC ??")
    assert table.lines()[0] == "a die is cocked or unreadable: set it flat or re-roll it"
    table.dice("QS QH QD QC JS KH ?? ??")
    assert table.lines()[0] == "2 dice are cocked or unreadable: set them flat or re-roll them"
    table.dice("QS QH QD QC JS KH KC 9S")
    assert table.play.screen().title == "round 1: Ann"
    assert table.lines()[:2] == ("OK: roll 1 of 3: 180", "Q♠ Q♥ Q♦ Q♣ J♠ K♥ K♣ 9♠")
    table.ok()
    assert table.play.screen().title == "round 1: Ann, roll 2 of 3"
    assert table.shown() == ("OK: Ann stands on 180", "1/2")  # the dice still lie: no new roll
    table.ok()
    table.dice("QS QH QD QC QH KH KD JS")
    table.ok()
    table.choose("Bob stands")
    assert "Ann 120 (lost 4Q to Bob)" in table.lines()
    assert table.play.state.game.totals == (120, 180)
    assert table.play.screen().title == "bonus round 1: Bob, roll 1 of 3"  # all eight dice, nothing lost


def test_impossible_faces_and_undo(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "pinzique", ["Ann", "Bob"])
    table.dice("QH QH QH 9C TC JH QC KS")
    assert table.lines()[0].startswith("! no set of dice can show this roll")
    table.dice(BONUS)
    table.ok()
    table.undo()
    assert table.play.state.game.rolls_made == 0 and table.lines()[0] == "OK: roll 1 of 3: 160"


def test_a_tie_goes_to_playoffs(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "pinzique", ["Ann", "Bob"], {"rounds": 1, "rolls": 1})
    for faces in ("9C TD JD QS KH AC 9S TC", "9D TS JC QD KS AH 9H TH"):  # 0 each
        table.dice(faces)
        table.press("ok")
    assert table.play.state.game.label == "P1"
    assert table.play.screen().title == "playoff 1: Ann, roll 1 of 1"


def test_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="'partners' is true \\(with four players\\) or false"):
        Table(tmp_path / "j.db", "pinzique", ["Ann", "Bob"], {"partners": True})
    with pytest.raises(ValueError, match="'rounds' must be a whole number from 1 to 100, not 0"):
        Table(tmp_path / "k.db", "pinzique", ["Ann", "Bob"], {"rounds": 0})
