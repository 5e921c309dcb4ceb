"""The Cribbage flow end to end: scripted deals played at the table through the device (cards laid in
the seat areas, the starter and the crib in their corners, OK pressed) must score exactly what the engine
scores for the same cards given directly; a restart replays to the same state; undo takes back one
confirmation; misreads are corrected by the table."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from scoring.cards import DECK, Card
from scoring.cribbage import value
from scoring.cribbage_game import (
    Deal,
    Discard,
    Event,
    Game,
    Go,
    Lay,
    Phase,
    Settings,
    ShowCrib,
    ShowHand,
    Starter,
)
from tests.device.flows.script import Table

NAMES = ["Ann", "Bob", "Cy", "Di"]


def deal_hand(game: Game, dealer: int, rng: random.Random) -> list[Event]:
    """One hand's events with every card named (the reference), played by a simple rule: lay the first
    card that keeps the count to 31, else go."""
    settings = game.settings
    deck = list(DECK)
    rng.shuffle(deck)
    hands = [[deck.pop() for _ in range(4)] for _ in range(settings.players)]
    events: list[Event] = [Deal(dealer)]
    events += [Discard(seat, tuple(deck.pop() for _ in range(settings.discards(seat, dealer))))
               for seat in range(settings.players)]
    events.append(Starter(deck.pop()))
    for event in events:
        game = game.apply(event) if game.phase is not Phase.OVER else game
    while game.phase is Phase.PLAY:
        hand = hands[game.turn]
        card = next((c for c in hand if game.count + value(c) <= 31), None)
        event: Event = Lay(game.turn, card) if card else Go(game.turn)
        if card:
            hand.remove(card)
        events.append(event)
        game = game.apply(event)
    events += [ShowHand((dealer + 1 + n) % settings.players) for n in range(settings.players)]
    events.append(ShowCrib())
    return events


def play_out(table: Table, reference: Game, rng: random.Random) -> Game:
    """Play the reference game to its end at the table, checking the scores after every event."""
    dealer = rng.randrange(reference.settings.players)
    table.choose(f"{NAMES[dealer]} deals")
    while reference.phase is not Phase.OVER:
        events = deal_hand(reference, dealer, rng)
        table.take()
        crib: list[Card] = []
        for event in events:
            if reference.phase is Phase.OVER:
                break
            reference = reference.apply(event)
            if isinstance(event, Discard):
                crib += event.cards or ()
            elif isinstance(event, Starter):
                table.put("starter", event.card.code)
                table.ok()
            elif isinstance(event, Lay):
                table.put(f"seat{event.seat + 1}", event.card.code)
                table.ok()
            elif isinstance(event, Go):
                if reference.phase is not Phase.OVER:
                    continue  # the device knows of it from the next card laid
                table.choose(f"{NAMES[event.seat]} says go")  # a go that ends the game
            elif isinstance(event, ShowHand):
                table.ok()
            elif isinstance(event, ShowCrib):
                rng.shuffle(crib)
                table.put("crib", *(card.code for card in crib))
                table.ok()
            assert table.play.state.game.scores == reference.scores, event
        dealer = (dealer + 1) % reference.settings.players
    return reference


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_a_game_at_the_table_scores_as_the_engine(tmp_path: Path, players: int, seed: int) -> None:
    rng = random.Random(seed)
    table = Table(tmp_path / "j.db", "cribbage", NAMES[:players])
    reference = play_out(table, Game(Settings(players)), rng)
    state = table.play.state
    assert state.game.outcome == reference.outcome
    outcome = reference.outcome
    assert outcome is not None
    assert table.play.flow.result(state) == {"winner": table.play.flow._side(outcome.winner),
                                             "scores": list(outcome.scores), "skunks": list(outcome.skunks)}
    assert table.play.screen().lines[0] == "OK: new game"
    assert table.restarted().play.state == state
    table.ok()  # the next game
    assert table.play.state.game.scores == (0,) * Settings(players).sides
    assert table.journal.games()[0].result is not None


def start(tmp_path: Path) -> Table:
    table = Table(tmp_path / "j.db", "cribbage", ["Ann", "Bob"])
    table.choose("Bob deals")
    table.put("starter", "JD")
    assert table.lines()[0] == "OK: starter J♦"
    assert "his heels: Bob 2" in table.lines()
    table.ok()
    assert table.play.state.game.scores == (0, 2)
    return table


def test_goes_follow_from_the_order_of_play(tmp_path: Path) -> None:
    table = start(tmp_path)
    for seat, code in [(1, "KS"), (2, "TH"), (1, "9S")]:
        table.put(f"seat{seat}", code)
        table.ok()
    assert table.play.state.game.count == 29
    table.put("seat2", "6D")  # Bob cannot lay at 29, nor Ann: Ann pegs the go and Bob leads 6♦
    assert table.lines() == ("OK: Bob lays 6♦", "Ann: go 1", "count 29: K♠ 10♥ 9♠", "Ann 0  Bob 2")
    table.ok()
    assert table.play.state.game.scores == (1, 2) and table.play.state.game.count == 6


def test_a_go_that_ends_the_game_is_offered(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "cribbage", ["Ann", "Bob"], {"target": 61})
    table.choose("Bob deals")
    table.put("starter", "JD")
    table.ok()
    for seat, code in [(1, "KS"), (2, "TH"), (1, "9S")]:
        table.put(f"seat{seat}", code)
        table.ok()
        assert not table.lines()[0].startswith("OK:")  # goes show in the next card laid
    game = table.play.state.game
    table.play.session.state = replace(table.play.state, game=replace(game, scores=(60, 2)))  # Ann on 60
    assert table.lines()[0] == "OK: Bob says go"
    table.ok()
    table.choose("Ann says go")
    assert table.play.flow.result(table.play.state)["winner"] == "Ann"


def test_a_go_by_the_seat_panel_and_undo(tmp_path: Path) -> None:
    table = start(tmp_path)
    for seat, code in [(1, "KS"), (2, "TH"), (1, "9S")]:
        table.put(f"seat{seat}", code)
        table.ok()
    before = table.play.state
    table.panel(1)  # Ann is not to lay: refused, and the state stands
    assert table.play.flow.error == "it is Bob's turn to lay, not Ann's"
    table.panel(2)
    table.panel(1)
    assert table.play.state.game.scores == (1, 2)
    table.undo()
    table.undo()
    assert table.play.state == before


def test_a_misread_card_is_corrected_by_the_table(tmp_path: Path) -> None:
    table = start(tmp_path)
    [track] = table.put("seat1", "??")
    assert "1 card not read: straighten it" in table.lines()
    assert not table.lines()[0].startswith("OK: Ann lays")
    table.read(track, "5H")  # read as 5♥: but it is the 5♠
    assert table.lines()[0] == "OK: Ann lays 5♥"
    table.read(track, "5S")
    table.ok()
    assert table.play.state.game.laid[0] == (Card.parse("5S"),)
    table.undo()
    assert table.play.state.game.laid[0] == ()
    assert table.lines()[0] == "OK: Ann lays 5♠"  # the card still lies there: offered again


def test_a_card_from_a_seat_out_of_turn_is_refused_with_a_reason(tmp_path: Path) -> None:
    table = start(tmp_path)
    table.put("seat2", "5H")  # Ann leads, and could always lay: Bob's card cannot come first
    assert table.lines()[0] == "! Ann leads and can always lay a card"
    table.press("ok")
    assert table.play.state.game.laid == ((), ())


def test_the_last_hands_cards_are_set_aside(tmp_path: Path) -> None:
    table = start(tmp_path)
    plays = [(1, "KS"), (2, "TH"), (1, "9S"), (2, "6D"), (1, "AC"), (2, "8D"), (1, "5H"), (2, "9H")]
    for seat, code in plays:
        table.put(f"seat{seat}", code)
        table.ok()
    table.ok()
    table.ok()
    assert table.lines()[0] == "turn the crib face up (0 of 4 read)"
    table.put("crib", "KH", "KD", "2C")
    table.press("ok")
    assert table.play.state.game.phase is Phase.SHOW
    table.put("crib", "3C")
    table.ok()
    state = table.play.state
    assert state.game.scores == (7, 19) and state.game.dealer == 0 and state.game.phase is Phase.DISCARD
    assert table.play.screen().title == "turn the starter"  # the old starter lies there still: set aside
    table.take("KS", "9S")
    table.put("starter", "KS")  # cards of the last hand come round again
    table.ok()
    table.put("seat2", "9S")
    assert table.lines()[0] == "OK: Bob lays 9♠"
    table.undo()
    table.undo()  # back to the last hand's show: its crib is seen again
    assert table.lines()[0] == "OK: Bob's crib"


def test_bad_settings_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown Cribbage setting 'targt'"):
        Table(tmp_path / "j.db", "cribbage", ["Ann", "Bob"], {"targt": 61})
    with pytest.raises(ValueError, match="the game is to 121 or 61 points, not 100"):
        Table(tmp_path / "k.db", "cribbage", ["Ann", "Bob"], {"target": 100})
