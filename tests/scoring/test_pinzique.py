"""Pinzique requests for ``tablescore score pinzique``: the batch contract, its errors, the readable form."""

import io
import json
from typing import Any

import pytest

from device import games, score_command
from scoring.requests import RequestError, pinzique

EXAMPLE_2 = ["9H", "TH", "JH", "QH", "KH", "KH", "QH", "9C"]
PLAYER_1 = ["QS", "QH", "QD", "QC", "JS", "KH", "KC", "9S"]
PLAYER_2 = ["QS", "QH", "QD", "QC", "QH", "KH", "KD", "JS"]


def test_dice_request_gives_total_melds_with_positions_and_all_dice() -> None:
    assert pinzique.score_request({"dice": EXAMPLE_2}) == {
        "total": 685,
        "melds": [
            {"code": "SMH", "points": 650, "dice": [0, 1, 2, 3, 4], "name": "small run in hearts",
             "provisional": False},
            {"code": "MH", "points": 35, "dice": [5, 6], "name": "marriage in hearts", "provisional": False},
        ],
        "all_dice": False,
        "provisional": False,
    }


def test_faces_are_card_codes_in_any_case_and_any_order() -> None:
    shuffled = ["qh", "10h", "K♥", "9C", "9h", "JH", "KH", "Q♥"]
    result = pinzique.score_request({"dice": shuffled})
    assert result["total"] == 685
    assert [(meld["code"], meld["dice"]) for meld in result["melds"]] == [("SMH", [0, 1, 2, 4, 5]), ("MH", [6, 7])]


def test_round_request_gives_points_after_takeaway_bonus_and_who_took_what() -> None:
    result = pinzique.score_request({"round": [PLAYER_1, PLAYER_2]})
    assert result["points"] == [120, 180]
    assert result["bonus"] == [False, True]
    assert result["lost"] == [[{"code": "4Q", "points": 60, "to": [1]}], []]
    assert [roll["total"] for roll in result["rolls"]] == [180, 180]
    assert result["bonus_round"] is False


def test_a_bonus_round_request_earns_no_bonus() -> None:
    result = pinzique.score_request({"round": [["JS", "JH", "JD", "JC", "QH", "KH", "KC", "QC"]], "bonus_round": True})
    assert result["points"] == [160] and result["bonus"] == [False] and result["rolls"][0]["all_dice"]


def test_provisional_points_are_marked() -> None:
    result = pinzique.score_request({"dice": ["KH", "KH", "QH", "QH", "9C", "9C", "TS", "9S"]})
    assert result["melds"][0]["provisional"] and result["provisional"]
    assert "350*" in pinzique.render(result) and "* provisional" in pinzique.render(result)


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        ({"dice": ["QH"] * 3 + ["9C", "TC", "JH", "QC", "KS"]},
         "'dice': no set of dice can show this roll: QH, QH, QH need 3 dice but only dice 1, 2 show them"),
        ({"dice": ["9C", "TC", "JH", "QC", "KS", "AD", "2H", "QH"]},
         "'dice': face 2H (position 6) is not on any die: the dice show 9, 10, J, Q, K and A"),
        ({"dice": ["9C", "TC", "JH", "QC", "KS", "AD", "XH", "QH"]}, "'dice': bad card code 'XH'"),
        ({"dice": ["9C", "TC", "JH", "QC", "KS", "AD", 7, "QH"]}, "'dice': bad card code 7"),
        ({"dice": ["9C", "TC", "JH"]}, "'dice': a roll is 8 faces, one a die, not 3"),
        ({"dice": "9C TC JH QC KS AD 9S TD"}, "'dice' is a list of eight faces (card codes), not a string"),
        ({"round": [PLAYER_1, ["QH"] * 8]}, "'round[1]': no set of dice can show this roll"),
        ({"round": []}, "'round' is a list of each player's roll"),
        ({"round": [PLAYER_1, " ".join(PLAYER_1)]}, "'round[1]' is a list of eight faces (card codes), not a string"),
        ({"round": [PLAYER_1]}, "'round' is a list of each player's roll (a list of eight faces), 2 to 4 players"),
        ({"round": [PLAYER_1] * 5}, "'round' is a list of each player's roll (a list of eight faces), 2 to 4 players"),
        ({"round": [PLAYER_1] * 5, "bonus_round": True}, "(a list of eight faces), 1 to 4 bonus players"),
        ({"round": [PLAYER_1], "bonus_round": "yes"}, "'bonus_round' must be true or false, not 'yes'"),
        ({"dice": PLAYER_1, "bonus_round": True}, "'bonus_round' goes with a 'round' request, not 'dice'"),
        ({"dice": PLAYER_1, "round": [PLAYER_1]}, "give 'dice' (one roll of eight faces) or 'round'"),
        ({}, "give 'dice' (one roll of eight faces) or 'round'"),
        ({"dice": PLAYER_1, "colour": 1}, "unknown field 'colour' (expected: bonus_round, dice, round)"),
    ],
)
def test_a_bad_request_gets_one_clear_message(request_: dict[str, Any], message: str) -> None:
    with pytest.raises(RequestError) as raised:
        pinzique.score_request(request_)
    assert message in str(raised.value)


def test_batch_answers_each_line_and_goes_on_after_a_bad_one() -> None:
    lines = [{"dice": EXAMPLE_2}, {"dice": ["QH"] * 8}, {"round": [PLAYER_1, PLAYER_2]}]
    out = io.BytesIO()
    data = b"".join(json.dumps(line).encode() + b"\n" for line in lines)
    score_command.score_batch(games.game("pinzique"), io.BytesIO(data), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0]["total"] == 685
    assert list(answers[1]) == ["error"] and "no set of dice" in answers[1]["error"]
    assert answers[2]["points"] == [120, 180]


def test_readable_form_takes_one_roll_or_a_round_separated_by_slashes() -> None:
    assert pinzique.request_from_args(EXAMPLE_2, {}) == {"dice": EXAMPLE_2}
    assert pinzique.request_from_args([*PLAYER_1, "/", *PLAYER_2], {}) == {"round": [PLAYER_1, PLAYER_2]}
    assert pinzique.request_from_args(PLAYER_1, {"bonus_round": True}) == {"round": [PLAYER_1], "bonus_round": True}
    with pytest.raises(RequestError, match="unknown option --players"):
        pinzique.request_from_args(PLAYER_1, {"players": "2"})


def test_render_itemises_a_roll_and_a_round() -> None:
    text = pinzique.render(pinzique.score_request({"dice": ["JS", "JH", "JD", "JC", "QH", "KH", "KC", "QC"]}))
    assert text.splitlines() == [
        "MH     35   marriage in hearts       dice 4 5",
        "MC     35   marriage in clubs        dice 6 7",
        "P      50   Pinzique                 dice 0 4",
        "4J     40*  four jacks               dice 0 1 2 3",
        "total 160, on all eight dice",
        pinzique.PROVISIONAL_NOTE,
    ]
    text = pinzique.render(pinzique.score_request({"round": [PLAYER_1, PLAYER_2]}))
    assert text.splitlines()[0] == "player 1: 120 (rolled 180; lost 4Q 60 to player 2)"
    assert "player 2: 180, bonus round" in text.splitlines()
    text = pinzique.render(pinzique.score_request({"round": [PLAYER_1, PLAYER_2], "bonus_round": True}))
    assert text.splitlines()[0] == "bonus round: settled among its bonus players"
    assert "player 2: 180" in text.splitlines()


def test_samples_are_the_fragments_examples_and_score() -> None:
    assert games.game("pinzique") is pinzique
    totals = [pinzique.score_request(sample).get("total") for sample in pinzique.SAMPLES]
    assert totals == [685, 160, None]


def test_the_score_command_prints_a_roll(capsys: pytest.CaptureFixture[str]) -> None:
    from device import cli

    assert cli.main(["score", "pinzique", *EXAMPLE_2, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 685
    assert cli.main(["score", "pinzique", "QH", "QH", "QH", "9C", "TC", "JH", "QC", "KS"]) == 2
    assert "no set of dice can show this roll" in capsys.readouterr().err
