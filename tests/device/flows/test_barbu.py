"""The Barbu flow end to end: a whole 28-hand game dealt at random and played at the table (contracts
chosen with the buttons, doubles from the seat panel and the buttons, tricks played into the centre,
Dominoes laid out with passes from the panel) must score exactly as the engine scores the same cards
(docs/rules/barbu.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from device.flows.barbu import label
from device.screens import paged
from scoring.barbu import (
    Contract,
    Dominoes,
    Double,
    Hand,
    Trick,
    dominoes_hand,
    trick_hand,
    tricks_from_cards,
)
from scoring.barbu_game import Game
from scoring.cards import DECK, Card, Rank, Suit
from tests.device.flows.script import Table

NAMES = ["N", "E", "S", "W"]


def deal(rng: random.Random) -> list[list[Card]]:
    deck = list(DECK)
    rng.shuffle(deck)
    return [deck[13 * seat:13 * seat + 13] for seat in range(4)]


def trick_play(rng: random.Random, declarer: int, trump: Suit | None) -> list[Card]:
    """52 cards in order of play, each player following suit when able."""
    hands, leader, played = deal(rng), declarer, []
    for _ in range(13):
        trick: list[Card] = []
        for position in range(4):
            hand = hands[(leader + position) % 4]
            follow = [card for card in hand if trick and card.suit is trick[0].suit]
            card = rng.choice(follow or hand)
            hand.remove(card)
            trick.append(card)
        played += trick
        leader = Trick(leader, tuple(trick)).winner(trump)
    return played


def dominoes_play(rng: random.Random, declarer: int, start: Rank) -> list[Card | None]:
    """Dominoes turn by turn: a playable card, or a pass (None)."""
    hands, layout, turns = deal(rng), Dominoes.begin(declarer, start), []
    while not layout.over:
        playable = sorted(layout.playable() & set(hands[layout.to_play]), key=lambda card: card.index)
        card = rng.choice(playable) if playable else None
        if card:
            hands[layout.to_play].remove(card)
        layout = layout.play([card])
        turns.append(card)
    return turns


def play_hand(table: Table, game: Game, rng: random.Random) -> Hand:
    """Play one hand at the table; returns the engine's own scoring of it."""
    declarer = game.declarer
    assert declarer is not None
    contract = rng.choice(game.contracts_left(declarer))
    trump = rng.choice(list(Suit)) if contract is Contract.TRUMPS else None
    start = rng.choice(list(Rank)) if contract is Contract.DOMINOES else None
    table.take()
    table.choose(label(contract, trump, start))
    doubles = []
    for by in range(4):
        if by != declarer and (by in game.must_double() or rng.random() < 0.4):
            redoubled = rng.random() < 0.3
            doubles.append(Double(by, declarer, redoubled))
            if rng.random() < 0.5:
                table.panel(by + 1)
            else:
                table.choose(f"{NAMES[by]} doubles {NAMES[declarer]}")
            if redoubled:
                table.choose(f"{NAMES[declarer]} redoubles {NAMES[by]}")
    others = [seat for seat in range(4) if seat != declarer]
    roll = rng.random()
    if roll < 0.3:
        by, on = rng.sample(others, 2)
        redoubled = roll < 0.15  # half the time the player doubled redoubles, from the panel or the buttons
        doubles.append(Double(by, on, redoubled))
        table.choose(f"{NAMES[by]} doubles {NAMES[on]}")
        if redoubled and (by + on) % 2:
            table.panel(on + 1)
        elif redoubled:
            table.choose(f"{NAMES[on]} redoubles {NAMES[by]}")
    if start is None:
        played = trick_play(rng, declarer, trump)
        for number in range(13):
            table.take()
            table.put("centre", *(card.code for card in played[4 * number:4 * number + 4]))
            table.ok()
        return trick_hand(contract, declarer, tricks_from_cards(declarer, played, trump), doubles, trump)
    layout = Dominoes.begin(declarer, start)
    for card in dominoes_play(rng, declarer, start):
        if card is None:  # a pass: a hold of the seat's Action, or a press once the play has begun
            table.panel(layout.to_play + 1, kind="hold" if layout.turns == 0 or rng.random() < 0.5 else "press")
        else:
            table.put("centre", card.code)
        layout = layout.play([card])
    table.ok()  # the last card
    return dominoes_hand(declarer, layout.order, doubles, layout.irregularities, start)


def test_a_whole_game_at_the_table_scores_as_the_engine(tmp_path: Path) -> None:
    rng = random.Random(28)
    table = Table(tmp_path / "j.db", "barbu", NAMES)
    table.choose("E deals")
    game = Game(first_dealer=1)
    while not game.over:
        hand = play_hand(table, game, rng)
        game = game.record(hand)
        state = table.play.state
        assert state.game == game and state.last == hand
        if len(game.hands) == 14:
            assert table.restarted().play.state == state
    assert any(d.redoubled and d.on != hand.declarer for hand in game.hands for d in hand.doubles)
    assert table.play.flow.result(table.play.state) == {
        "totals": list(game.totals), "winner": NAMES[max(range(4), key=game.totals.__getitem__)]}
    assert table.restarted().play.state == table.play.state


def options(table: Table) -> list[str]:
    """What the buttons offer now."""
    return [option.label for option in table.play.flow.prompt(table.play.state).options]


def start(tmp_path: Path, contract: str) -> Table:
    table = Table(tmp_path / "j.db", "barbu", NAMES)
    table.choose("N deals")
    table.choose(contract)
    return table


def test_the_seat_panel_doubles_and_redoubles(tmp_path: Path) -> None:
    table = start(tmp_path, "No King of ♥")
    table.panel(2)
    table.panel(2)  # E has doubled N: a second press means nothing
    table.panel(4)
    table.panel(1)  # N redoubles E, the first who doubled them
    assert table.play.state.doubles == (Double(1, 0, True), Double(3, 0))
    assert table.shown() == ("OK: S doubles N", "1/8")
    pages = len(paged(table.play.screen()))
    table.press("next", pages)  # NEXT turns the doubling round's pages, then (on the last) moves the option
    assert table.play.view().footer == f"{pages}/{pages}" and table.shown() == ("OK: N redoubles W", "2/8")
    table.undo()
    assert table.play.state.doubles == (Double(1, 0), Double(3, 0))


def test_any_doubled_player_redoubles_from_the_panel_or_the_buttons(tmp_path: Path) -> None:
    """N declares. S doubles E and W; E's Action redoubles S (then doubles N); W's redouble is offered on
    the buttons, after the doubles on the declarer."""
    table = start(tmp_path, "No Queens")
    table.choose("S doubles E")
    table.choose("S doubles W")
    table.panel(2)  # E redoubles S, who doubled them
    assert table.play.state.doubles == (Double(2, 1, True), Double(2, 3))
    table.panel(2)  # then doubles the declarer
    table.panel(2)  # and has nothing more to do
    assert table.play.state.doubles == (Double(2, 1, True), Double(2, 3), Double(1, 0))
    assert options(table)[:4] == ["S doubles N", "W doubles N", "N redoubles E", "W redoubles S"]  # N's first
    table.choose("W redoubles S")
    assert table.play.state.doubles == (Double(2, 1, True), Double(2, 3, True), Double(1, 0))
    assert "S doubled W, redoubled" in table.lines()


def test_only_the_declarer_redoubles_under_the_house_rule(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "barbu", NAMES, {"redoubles": "declarer"})
    table.choose("N deals")
    table.choose("No Queens")
    table.choose("S doubles E")
    table.panel(2)  # E's Action doubles the declarer: E may not redouble
    table.panel(3)  # S doubles N
    table.panel(1)  # N redoubles E, the first who doubled them
    assert table.play.state.doubles == (Double(2, 1), Double(1, 0, True), Double(2, 0))
    assert options(table) == ["W doubles N", "N redoubles S", "E doubles W", "S doubles W", "W doubles E", "W doubles S"]
    refused = table.attempt("redouble", {"by": 2, "on": 1})
    assert refused == "E cannot redouble S: only the declarer (N) redoubles"
    with pytest.raises(ValueError, match="Barbu setting 'redoubles' is \"any\" or \"declarer\", not 'all'"):
        Table(tmp_path / "k.db", "barbu", NAMES, {"redoubles": "all"})


def test_a_trick_is_read_in_order_of_play_and_can_be_corrected(tmp_path: Path) -> None:
    table = start(tmp_path, "Trumps ♥")
    tracks = table.put("centre", "2C", "5C", "AC", "??")
    assert "1 card not read: straighten it" in table.lines()
    table.read(tracks[-1], "3H")
    assert table.shown() == ("OK: trick 1: W", "1/10")  # the 3♥ trumps
    table.read(tracks[-1], "3D")
    table.ok()
    assert table.play.state.played == tuple(Card.parse(code) for code in ["2C", "5C", "AC", "3D"])
    table.put("centre", "4S", "5S")  # the last trick still lies there: only new cards count
    assert table.lines()[0] == "trick 2: S leads (2 of 4)"
    table.put("centre", "2C")  # a card of the last trick (or a misread): not counted
    assert table.lines()[0] == "trick 2: S leads (2 of 4)"


def test_a_must_double_holds_back_the_play(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "barbu", NAMES, {"doubles_owed": 7})
    table.choose("N deals")
    table.choose("No Tricks")
    table.put("centre", "2C", "5C", "AC", "3D")
    assert table.lines()[:2] == ("OK: E doubles N", "! E must double N in this hand: they owe 7")
    assert table.shown()[1] == "1/9"
    assert "must double: E, S, W" in table.lines()
    for seat in (2, 3, 4):
        table.panel(seat)
    assert table.shown() == ("OK: trick 1: S", "1/10")


def test_settings_are_checked(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Barbu is for four players, not 2"):
        Table(tmp_path / "j.db", "barbu", NAMES[:2])
    with pytest.raises(ValueError, match="'must_trump' is true or false"):
        Table(tmp_path / "k.db", "barbu", NAMES, {"must_trump": "yes"})


def test_names_that_begin_alike_are_told_apart_and_totals_read_as_in_every_game(tmp_path: Path) -> None:
    names = ["Ann", "Andy", "Bob", "Ben"]
    table = Table(tmp_path / "j.db", "barbu", names)
    table.choose("Ann deals")
    table.choose("No Tricks")
    played = trick_play(random.Random(5), 0, None)
    for number in range(13):
        table.take()
        table.put("centre", *(card.code for card in played[4 * number:4 * number + 4]))
        table.ok()
        if number == 0:
            won = [int(seat == Trick(0, tuple(played[:4])).winner(None)) for seat in range(4)]
            assert f"tricks won: Ann{won[0]} And{won[1]} Bo{won[2]} Be{won[3]}" in table.lines()
    hand = trick_hand(Contract.NO_TRICKS, 0, tricks_from_cards(0, played, None), ())
    raw = " ".join(f"{name}{score}" for name, score in zip(["Ann", "And", "Bo", "Be"], hand.scores, strict=True))
    assert f"Ann's No Tricks: {raw}" in table.lines()
    assert table.play.screen().big == " · ".join(map(str, hand.net))
    dominoes = Table(tmp_path / "k.db", "barbu", names)
    dominoes.choose("Bob deals")
    dominoes.choose("Dominoes from J")
    assert "held: Ann13 And13 Bo13 Be13" in dominoes.lines()
