"""The Open-Face Chinese Poker flow end to end: boards set in the seat areas' rows, read once every board
is complete, settled pairwise, Fantasyland carried to the next hand: the device must score as the engine
does the same boards (docs/rules/ofc.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from scoring.cards import DECK
from scoring.ofc import ROWS, Board, Rules, assess, settle
from tests.device.flows.script import Table

NAMES = ["Ann", "Bob", "Cy", "Di"]


GOOD = [Board.parse("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"),  # queens up front: to Fantasyland
        Board.parse("JS JH JD / 9H 9D 9C 7S 7C / TS TH TD TC 4D")]  # trips up front: stays there


def boards(rng: random.Random, players: int) -> list[Board]:
    """A board a seat, random but mostly not fouled (a few arrangements tried); at times one seat sets
    a board that goes to (or stays in) Fantasyland."""
    good = rng.choice(GOOD) if rng.random() < 0.5 else None
    lucky = rng.randrange(players)
    deck = [card for card in DECK if good is None or card not in {c for row in good.rows for c in row}]
    rng.shuffle(deck)
    out = []
    for seat in range(players):
        if seat == lucky and good is not None:
            out.append(good)
            continue
        cards, deck = deck[:13], deck[13:]
        for _ in range(30):
            rng.shuffle(cards)
            board = Board(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]))
            if not assess(board).fouled:
                break
        out.append(board)
    return out


@pytest.mark.parametrize(("players", "settings"), [(2, {}), (3, {"progressive": True}), (4, {"scoring": "2-4"})])
def test_hands_at_the_table_score_as_the_engine(tmp_path: Path, players: int, settings: dict[str, object]) -> None:
    rng = random.Random(players)
    table = Table(tmp_path / "j.db", "ofc", NAMES[:players], settings)
    rules = Rules(**settings)  # type: ignore[arg-type]
    totals, fantasy = [0] * players, [0] * players
    went = 0
    for _ in range(12):
        dealt = boards(rng, players)
        table.take()
        placed = [(f"seat{seat + 1}.{row}", card.code) for seat, b in enumerate(dealt)
                  for row, cards in zip(ROWS, b.rows, strict=True) for card in cards]
        rng.shuffle(placed)
        for zone, code in placed[:-1]:
            table.put(zone, code)
        assert table.lines()[0].startswith("setting: ")
        table.put(*placed[-1])
        table.ok()
        settled = settle(dealt, rules, [cards > 0 for cards in fantasy])
        totals = [a + b for a, b in zip(totals, settled.net, strict=True)]
        fantasy = list(settled.fantasyland_cards)
        went += any(fantasy)
        state = table.play.state
        assert state.totals == tuple(totals) and state.fantasyland == tuple(fantasy)
    assert went and sum(totals) == 0
    assert table.restarted().play.state == table.play.state


def test_a_misread_or_misplaced_card_is_corrected_by_the_table(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "ofc", ["Ann", "Bob"])
    table.put("seat1.front", "QS QH 7D")
    table.put("seat1.middle", "QD QC 9S 8S 2S")
    table.put("seat1.back", "AS AH AD 2H 2D")
    table.put("seat2.front", "KS KH 7H")
    table.put("seat2.middle", "KD KC 6S 5S")
    [odd] = table.put("seat2.back", "3S 3H 3D 2C 8D ??")[-1:]
    assert table.lines()[:2] == ("setting: Ann 3/5/5  Bob 3/4/6 (3/5/5)", "1 card not read: straighten it")
    table.take("3S")
    table.read(odd, "4S")
    table.take("4S")
    table.put("seat2.middle", "4S")
    table.put("seat2.back", "3S")
    assert table.lines()[:4] == ("OK: settle: Ann +19  Bob -19", "Ann front: pair of queens +7", "Ann middle: pair of queens",
                                 "Ann back: full house, aces full of twos +6")
    assert "Ann: Fantasyland, 13 cards" in table.lines()
    table.ok()
    assert table.play.state.totals == (19, -19)
    assert "Ann in Fantasyland: 13 cards" in table.lines()
    table.undo()
    assert table.play.state.totals == (0, 0) and table.lines()[0] == "OK: settle: Ann +19  Bob -19"


def test_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="scoring is one of 1-6, 2-4, not '1-5'"):
        Table(tmp_path / "j.db", "ofc", ["Ann", "Bob"], {"scoring": "1-5"})
    with pytest.raises(ValueError, match="unknown Open-Face Chinese Poker setting 'fantasy'"):
        Table(tmp_path / "k.db", "ofc", ["Ann", "Bob"], {"fantasy": True})
