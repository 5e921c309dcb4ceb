"""The Cribbage game state: events in order, pegging in the play, the show, and the end of the game.

Rules relied on beyond the counting of hands (docs/rules/cribbage.md): his heels, 2 to
the dealer for a Jack starter; one for a go or the last card, not with 31; the show in order pone,
dealer, crib; game to 121 (or 61), ending the moment a side reaches it; skunk below 91, double below 61.
"""

from dataclasses import replace

import pytest

from scoring.cards import Card, parse_cards
from scoring.cribbage_game import (
    Deal,
    Discard,
    Event,
    Game,
    GameError,
    Go,
    Lay,
    Outcome,
    Phase,
    Settings,
    ShowCrib,
    ShowHand,
    Starter,
    new_game,
    play,
)


def events(dealer: int, discards: list[str], starter: str, laid: str = "") -> list[Event]:
    """A hand's events: the deal, each seat's discards, the starter, then ``seat:card`` or ``seat:go``."""
    out: list[Event] = [Deal(dealer)]
    out += [Discard(seat, tuple(parse_cards(cards))) for seat, cards in enumerate(discards)]
    out.append(Starter(Card.parse(starter)))
    for step in laid.split():
        seat, what = step.split(":")
        out.append(Go(int(seat)) if what == "go" else Lay(int(seat), Card.parse(what)))
    return out


def pegs(game: Game) -> list[str]:
    return [str(peg) for peg in game.last]


# Two players, seat 1 deals. Seat 0 holds 7S 8S 9S TS, seat 1 holds 7H 8H 3D QC; starter 5S.
START = events(1, ["KH KD", "2C 3C"], "5S")
PLAY = events(1, ["KH KD", "2C 3C"], "5S", "0:7S 1:8H 0:8S 1:7H 0:go 1:go 0:9S 1:3D 0:TS 1:go 1:QC")[len(START):]


def test_pegging_through_a_hand_for_two() -> None:
    game = play(new_game(), START)
    assert (game.phase, game.turn, game.scores) == (Phase.PLAY, 0, (0, 0))
    scored = []
    for event in PLAY:
        game = game.apply(event)
        scored += pegs(game)
    assert scored == [
        "seat 1: play 2 (fifteen two: 7♠ 8♥)",
        "seat 0: play 2 (pair: 8♥ 8♠)",
        "seat 1: go 1",        # at 30 neither can lay: one for go to the last to lay
        "seat 0: go 1",        # at 22 seat 1 cannot lay Q and seat 0 has no cards left
        "seat 1: last card 1",
    ]
    assert game.scores == (3, 4) and game.phase is Phase.SHOW


def test_after_a_go_the_next_seat_leads_from_zero() -> None:
    game = play(new_game(), START + PLAY[:6])
    assert (game.count, game.turn, game.run) == (0, 0, ())
    game = play(game, PLAY[6:9])
    assert game.count == 22 and game.turn == 1
    with pytest.raises(GameError, match="seat 1 cannot lay Q♣: laying Q♣ would take the count to 32, past 31"):
        game.apply(Lay(1, Card.parse("QC")))
    assert game.count == 22 and game.apply(Go(1)).scores == (3, 3)  # the refused card changed nothing


def test_the_show_goes_pone_dealer_crib() -> None:
    game = play(new_game(), START + PLAY)
    with pytest.raises(GameError, match="seat 0 shows next, not seat 1"):
        game.apply(ShowHand(1))
    with pytest.raises(GameError, match="the crib is shown last"):
        game.apply(ShowCrib())
    game = game.apply(ShowHand(0))  # 7 8 9 10 of spades with the 5 of spades
    assert [(item.name, item.points) for item in game.last[0].items] == [
        ("fifteen two", 2), ("fifteen two", 2), ("run of four", 4), ("flush of five", 5)]
    game = game.apply(ShowHand(1))  # 7+8, 7+3+5, 5+Q
    assert game.last[0].points == 6
    with pytest.raises(GameError, match="every hand has been shown"):
        game.apply(ShowHand(0))
    game = game.apply(ShowCrib())  # K K 2 3 with 5: K+5 twice, 2+3+K twice, the pair of Kings
    assert str(game.last[0]).startswith("seat 1: crib 10 (")
    assert game.scores == (3 + 13, 4 + 6 + 10) and game.phase is Phase.DEAL
    game = game.apply(Deal(0))
    assert (game.phase, game.dealer, game.crib, game.laid) == (Phase.DISCARD, 0, (), ((), ()))


def test_thirty_one_scores_two_and_the_last_card_nothing_more() -> None:
    game = play(new_game(), events(1, ["KC QC", "4D 5D"], "8C", "0:TS 1:AH 0:9S 1:2H 0:3S 1:3H 0:AS"))
    game = game.apply(Lay(1, Card.parse("2S")))
    assert pegs(game) == ["seat 1: play 5 (thirty-one: 10♠ A♥ 9♠ 2♥ 3♠ 3♥ A♠ 2♠; run of three: 3♥ A♠ 2♠)"]
    assert game.phase is Phase.SHOW and game.count == 0


def test_thirty_one_resets_the_count_and_the_next_seat_leads() -> None:
    game = play(new_game(), events(1, ["9C 9D", "8C 8D"], "7D", "0:TS 1:JH 0:AS 1:KH"))
    assert pegs(game) == ["seat 1: play 2 (thirty-one: 10♠ J♥ A♠ K♥)"]
    assert (game.count, game.turn) == (0, 0)


def test_his_heels() -> None:
    game = play(new_game(), events(0, ["KH KD", "2C 3C"], "JD"))
    assert pegs(game) == ["seat 0: his heels 2"] and game.scores == (2, 0)


@pytest.mark.parametrize(
    ("event", "message"),
    [
        (Lay(1, Card.parse("7H")), "it is seat 0's turn to lay, not seat 1's"),
        (Go(0), "seat 0 leads and can always lay a card"),
        (Lay(0, Card.parse("KH")), "K♥ is already on the table this hand"),
        (Lay(0, Card.parse("5S")), "5♠ is already on the table this hand"),
        (Lay(2, Card.parse("7H")), "no seat 2: seats are 0 to 1"),
        (Deal(0), "cannot deal now: the game is waiting for the play"),
        (ShowHand(0), "cannot show a hand now: the game is waiting for the play"),
        (Starter(Card.parse("4S")), "cannot turn the starter now"),
    ],
)
def test_events_out_of_turn_or_order_are_refused(event: Event, message: str) -> None:
    game = play(new_game(), START)
    with pytest.raises(GameError, match=message):
        game.apply(event)


def test_discards_are_checked() -> None:
    game = new_game().apply(Deal(1))
    with pytest.raises(GameError, match="seat 0 puts 2 cards in the crib, not 1"):
        game.apply(Discard(0, (Card.parse("KH"),)))
    with pytest.raises(GameError, match="cannot turn the starter now: the game is waiting for the discards"):
        game.apply(Starter(Card.parse("4S")))
    game = game.apply(Discard(0, tuple(parse_cards("KH KD"))))
    with pytest.raises(GameError, match="seat 0 has already discarded"):
        game.apply(Discard(0, tuple(parse_cards("2C 3C"))))
    with pytest.raises(GameError, match="K♦ is already on the table"):
        game.apply(Discard(1, tuple(parse_cards("2C KD"))))
    with pytest.raises(GameError, match="the deal passes to the left"):
        play(new_game(), START + PLAY + [ShowHand(0), ShowHand(1), ShowCrib(), Deal(1)])


# --- the end of the game ------------------------------------------------------------------------------

def test_the_game_ends_the_moment_a_side_reaches_the_target_mid_play() -> None:
    game = replace(play(new_game(), START), scores=(119, 100))
    game = play(game, PLAY[:3])  # seat 1's fifteen, then seat 0's pair takes it to 121
    assert game.phase is Phase.OVER and game.scores == (121, 102)
    assert game.outcome == Outcome(winner=0, scores=(121, 102), skunks=(None, None))
    with pytest.raises(GameError, match="the game is over"):
        game.apply(PLAY[3])


def test_the_winners_peg_stops_in_the_game_hole() -> None:
    game = play(replace(play(new_game(), START), scores=(100, 120)), PLAY[:2])
    assert game.scores == (100, 121) and game.outcome is not None and game.outcome.winner == 1


def test_the_game_ends_mid_show_before_the_dealer_counts() -> None:
    """The pone counts first, so the pone wins even though the dealer's hand and crib would pass them."""
    game = replace(play(new_game(), START + PLAY), scores=(110, 118))
    game = game.apply(ShowHand(0))
    assert game.phase is Phase.OVER and game.scores == (121, 118)
    with pytest.raises(GameError, match="the game is over"):
        game.apply(ShowHand(1))


def test_his_heels_can_win_the_game() -> None:
    game = replace(new_game(), scores=(0, 119))
    assert play(game, events(1, ["KH KD", "2C 3C"], "JD")).outcome == Outcome(1, (0, 121), ("double skunk", None))


@pytest.mark.parametrize(
    ("target", "loser", "skunk"),
    [(121, 91, None), (121, 90, "skunk"), (121, 61, "skunk"), (121, 60, "double skunk"), (121, 0, "double skunk"),
     (61, 31, None), (61, 30, "skunk"), (61, 0, "skunk")],
)
def test_skunks(target: int, loser: int, skunk: str | None) -> None:
    """Skunk below 91 and double skunk below 61 in a 121-point game; in 61 points, below 31 (a lurch)."""
    game = replace(new_game(target=target), scores=(loser, target - 2))
    game = play(game, [Deal(1), Discard(0, tuple(parse_cards("KH KD"))), Discard(1, tuple(parse_cards("2C 3C"))),
                       Starter(Card.parse("5S")), Lay(0, Card.parse("7S")), Lay(1, Card.parse("7H"))])
    assert game.outcome == Outcome(1, (loser, target), (skunk, None))  # seat 1's pair of 7s wins


# --- three and four players ---------------------------------------------------------------------------

def test_three_players_go_round_the_table() -> None:
    """Three players: five cards each, one discard each and the pack's card in the crib with the dealer's."""
    laid = " ".join(f"0:{rank}S 1:{rank}H 2:{rank}D" + " 0:go 1:go 2:go" * (rank != "T") for rank in "KQJT")
    game = play(new_game(players=3), events(2, ["AC", "3C", "4C 5C"], "2C"))
    assert game.turn == 0 and game.crib == tuple(parse_cards("AC 3C 4C 5C"))
    game = play(game, events(2, ["AC", "3C", "4C 5C"], "2C", laid)[len(events(2, ["AC", "3C", "4C 5C"], "2C")):])
    assert game.phase is Phase.SHOW
    assert game.scores == (0, 4 * 2, 4 * 6 + 3 + 1)  # pair and pair royal each round; go thrice, last card
    assert pegs(game) == ["seat 2: play 6 (pair royal: 10♠ 10♥ 10♦)", "seat 2: last card 1"]
    with pytest.raises(GameError, match="seat 0 puts 1 card in the crib, not 2"):
        play(new_game(players=3), [Deal(2), Discard(0, tuple(parse_cards("AC 2C")))])


def test_four_players_in_partnership_score_by_side() -> None:
    game = play(new_game(players=4), events(3, ["AC", "3C", "4C", "6C"], "JC", "0:5S 1:TH 2:TD"))
    assert game.settings.in_partnership and len(game.scores) == 2
    assert game.scores == (2, 2 + 2)  # his heels and the fifteen for seats 1 and 3; the pair for 0 and 2


def test_four_players_each_for_themselves() -> None:
    game = play(new_game(players=4, partners=False), events(3, ["AC", "3C", "4C", "6C"], "JC", "0:5S 1:TH 2:TD"))
    assert game.scores == (0, 2, 2, 2)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"players": 5}, "Cribbage is for 2, 3 or 4 players, not 5"),
        ({"target": 100}, "the game is to 121 or 61 points, not 100"),
        ({"players": 3, "partners": True}, "partnership play needs four players"),
    ],
)
def test_settings_are_checked(settings: dict[str, int], message: str) -> None:
    with pytest.raises(GameError, match=message):
        Settings(**settings)  # type: ignore[arg-type]
