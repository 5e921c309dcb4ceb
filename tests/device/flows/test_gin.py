"""The Gin Rummy flow end to end: knocks from a seat panel or the buttons, both hands laid out in the seat
areas and read, the settlement with its lay-offs, illegal knocks accepted or refused, dead hands, to the
limit with the bonuses: the device's score must equal the engine's for the same cards (docs/rules/gin.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scoring.cards import DECK, Card
from scoring.gin import GameRules, Rules, score_game, settle
from scoring.gin_melds import deadwood
from tests.device.flows.script import Table

NAMES = ["Ann", "Bob"]


def knocking_hand(rng: random.Random, deck: list[Card], legal: bool) -> list[Card]:
    """Ten cards from ``deck`` holding a run and a set, the rest random, legal to knock on (deadwood 10 or
    less) or not, as asked."""
    while True:
        rng.shuffle(deck)
        suit, start = rng.choice("SHDC"), rng.randrange(1, 10)
        run = [Card.parse(f"{'A23456789TJQK'[rank - 1]}{suit}") for rank in range(start, start + rng.randrange(3, 6))]
        rank = rng.choice([r for r in "A23456789TJQK" if "A23456789TJQK".index(r) + 1 not in range(start, start + 5)])
        trio = [Card.parse(rank + s) for s in rng.sample("SHDC", 3)]
        rest = [card for card in deck if card not in run + trio][: 10 - len(run) - 3]
        hand = run + trio + rest
        if (deadwood(hand) <= 10) == legal:
            return hand


def test_a_game_at_the_table_scores_as_the_engine(tmp_path: Path) -> None:
    rng = random.Random(7)
    table = Table(tmp_path / "j.db", "gin", NAMES)
    rules, game_rules = Rules(), GameRules()
    hands: list[tuple[int | None, int]] = []
    kinds = []
    while not score_game(hands, game_rules).over:
        table.take()
        first = ["refuse", "dead", "accept"]
        kind = first[len(kinds)] if len(kinds) < len(first) else rng.choice(["legal", "legal", "accept", "dead"])
        kinds.append(kind)
        if kind == "dead":
            table.choose("dead hand")
            hands.append((None, 0))
        else:
            seat = rng.randrange(2)
            if rng.random() < 0.5:
                table.panel(seat + 1)
            else:
                table.choose(f"{NAMES[seat]} knocks")
            deck = list(DECK)
            knocker = knocking_hand(rng, deck, kind == "legal")
            defender = rng.sample([card for card in DECK if card not in knocker], 10)
            table.put(f"seat{seat + 1}", *(card.code for card in knocker))
            table.put(f"seat{2 - seat}", *(card.code for card in defender))
            settled = settle(knocker, defender, rules, None if kind == "legal" else kind == "accept")
            if kind == "legal":
                table.ok()
            else:
                assert table.play.screen().title == "illegal knock"
                table.choose(f"{NAMES[1 - seat]} {kind}s")
            if settled.result != "refused":
                hands.append((seat if settled.winner == "knocker" else 1 - seat, settled.points))
        assert table.play.state.score == score_game(hands, game_rules)
    assert {"legal", "accept", "refuse", "dead"} <= set(kinds)
    score = table.play.state.score
    assert table.play.flow.result(table.play.state)["totals"] == list(score.totals)
    assert table.play.screen().title == f"{NAMES[score.winner]} wins"
    assert table.restarted().play.state == table.play.state


def knock(tmp_path: Path, settings: dict[str, object] | None = None) -> Table:
    table = Table(tmp_path / "j.db", "gin", NAMES, settings)
    table.panel(1)  # Ann knocks
    table.put("seat1", "5H 6H 7H 8H 9H KS KH KD 2C 3D")
    table.put("seat2", "TH JH 4H 2S 2D 2H 9C 9D 9S QC")
    return table


def test_the_settlement_shows_each_lay_off(tmp_path: Path) -> None:
    table = knock(tmp_path)
    assert table.play.screen().title == "Ann scores 5"
    assert table.lines() == (
        "OK: Ann scores 5", "Ann: 5♥-9♥", "Ann: K♠ K♥ K♦", "Ann deadwood 5: 3♦ 2♣",
        "Bob lays off 4♥ on 5♥-9♥", "Bob lays off 10♥ on 5♥-9♥", "Bob lays off J♥ on 5♥-9♥",
        "Bob: 2♠ 2♥ 2♦", "Bob: 9♠ 9♦ 9♣", "Bob deadwood 10: Q♣",
        "Ann 0  Bob 0  (to\u00a0100)")
    table.ok()
    assert table.play.state.score.points == (5, 0)
    table.undo()
    assert table.play.state.knocker == 0 and table.play.state.hands == ()


def test_an_illegal_knock_is_accepted_or_refused_by_the_defender(tmp_path: Path) -> None:
    table = knock(tmp_path, {"knock_limit": 4})
    assert table.play.screen().title == "illegal knock"
    assert table.shown() == ("OK: Bob accepts", "1/2")
    assert table.lines()[-2:] == ("Ann scores 5", "Ann 0  Bob 0  (to\u00a0100)")
    table.choose("Bob refuses")
    state = table.play.state
    assert state.knocker is None and state.hands == () and state.settled == 1
    table.panel(2)  # the hand goes on; Bob knocks later: the cards still out are set aside
    assert table.lines()[0] == "lay out both hands: Bob 0 of 10, Ann 0 of 10"


def test_a_misread_card_is_corrected_by_the_table(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "gin", NAMES)
    table.put("seat2", "5H 6H 7H 8H 9H KS KH KD 2C 3D")  # Bob lays out his hand, then knocks
    table.choose("Bob knocks")
    [unread] = table.put("seat1", "TH JH 4H 2S 2D 2H 9C 9D 9S", "??")[-1:]
    assert table.lines()[:2] == ("lay out both hands: Bob 10 of 10, Ann 9 of 10", "1 card not read: straighten it")
    table.read(unread, "KD")  # misread: the K♦ is Bob's
    assert table.lines()[0].startswith("! card KD is used twice")
    table.read(unread, "QC")
    table.ok()
    assert table.play.state.score.points == (0, 5)


def test_two_knocks_at_once_and_wrong_settings_are_refused(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "gin", NAMES)
    table.panel(1)
    table.panel(2)
    assert table.play.state.knocker == 0 and table.play.flow.error is None  # the panel's Action means nothing now
    with pytest.raises(ValueError, match="Gin Rummy is for two players, not 3"):
        Table(tmp_path / "k.db", "gin", ["Ann", "Bob", "Cy"])
    with pytest.raises(ValueError, match="the game limit is one of 100, 200, 250, 300, 500, not 150"):
        Table(tmp_path / "l.db", "gin", NAMES, {"limit": 150})
