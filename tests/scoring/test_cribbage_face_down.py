"""Discards face down: the crib named when it is turned up at the show (cribbage_game's addition for the
device, which cannot read a face-down card). Scores must equal those of the same hand with the discards
named at once."""

import pytest

from scoring.cards import Card, parse_cards
from scoring.cribbage_game import (
    Deal,
    Discard,
    Game,
    GameError,
    Go,
    Lay,
    ShowCrib,
    ShowHand,
    Starter,
    new_game,
    play,
)

LAYS = [Lay(0, Card.parse("KS")), Lay(1, Card.parse("TH")), Lay(0, Card.parse("9S")), Go(1), Go(0),
        Lay(1, Card.parse("6D")), Lay(0, Card.parse("AC")), Lay(1, Card.parse("8D")), Lay(0, Card.parse("5H")),
        Lay(1, Card.parse("9H"))]


def hand(discards: tuple[Discard, ...], crib: ShowCrib) -> Game:
    return play(new_game(), [Deal(1), *discards, Starter(Card.parse("JD")), *LAYS, ShowHand(0), ShowHand(1), crib])


def test_face_down_discards_score_as_named_ones() -> None:
    named = hand((Discard(0, tuple(parse_cards("KH KD"))), Discard(1, tuple(parse_cards("2C 3C")))), ShowCrib())
    face_down = hand((Discard(0), Discard(1)), ShowCrib(tuple(parse_cards("KH KD 2C 3C"))))
    shuffled = hand((Discard(0), Discard(1)), ShowCrib(tuple(parse_cards("3C KD 2C KH"))))
    mixed = hand((Discard(0, tuple(parse_cards("KH KD"))), Discard(1)), ShowCrib(tuple(parse_cards("KH KD 2C 3C"))))
    assert face_down.scores == named.scores == mixed.scores == shuffled.scores == (7, 19)
    assert [str(peg) for peg in face_down.last] == [str(peg) for peg in named.last]


def test_a_named_crib_is_checked_against_the_crib() -> None:
    named = (Discard(0, tuple(parse_cards("KH KD"))), Discard(1, tuple(parse_cards("2C 3C"))))
    assert hand(named, ShowCrib(tuple(parse_cards("2C 3C KD KH")))).scores == (7, 19)
    with pytest.raises(GameError, match="K♥ went in the crib but is not among the cards shown"):
        hand(named, ShowCrib(tuple(parse_cards("2C 3C KD QH"))))


@pytest.mark.parametrize(("crib", "message"), [
    (None, "4 crib cards went in face down: name the crib's cards to show it"),
    ("2C 3C KD", "the crib holds 4 different cards, not 2♣ 3♣ K♦"),
    ("2C 3C KD KD", "the crib holds 4 different cards"),
    ("2C 3C KD KS", "K♠ is already on the table this hand"),
    ("2C 3C KD JD", "J♦ is already on the table this hand"),
])
def test_a_face_down_crib_must_be_named_right(crib: str | None, message: str) -> None:
    cards = None if crib is None else tuple(parse_cards(crib))
    with pytest.raises(GameError, match=message):
        hand((Discard(0), Discard(1)), ShowCrib(cards))


def test_the_next_deal_forgets_the_face_down_cards() -> None:
    game = hand((Discard(0), Discard(1)), ShowCrib(tuple(parse_cards("3C KD 2C KH"))))
    game = play(game, [Deal(0), Discard(0, tuple(parse_cards("KH KD"))), Discard(1, tuple(parse_cards("2C 3C")))])
    assert game.hidden == 0 and len(game.crib) == 4


def test_three_players_discard_face_down_with_the_packs_card() -> None:
    game = play(new_game(players=3), [Deal(0), Discard(0), Discard(1), Discard(2)])
    assert game.hidden == 4 and game.crib == ()
