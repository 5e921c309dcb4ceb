"""Open-Face Chinese Poker: the rules text's examples and chart, settlement, Fantasyland, requests."""

import io
import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from device import cli, games, score_command
from scoring import ofc
from scoring.cards import DECK, parse_cards
from scoring.ofc import Board, Rules, assess, fantasyland_cards, pair, royalty, settle
from scoring.poker import value
from scoring.requests import RequestError
from scoring.requests import ofc as ofc_requests
from scoring.requests.ofc import score_request

B = Board.parse


def as_json_board(text: str) -> dict[str, list[str]]:
    return dict(zip(ofc.ROWS, (row.split() for row in text.split("/")), strict=True))


# A player's board in the tests below, named for what it shows.
SIXES_FRONT = "6S 6H 2D / 9C 9D 4S 4H 2C / KD KC 8S 8H 3C"  # 66 front (+1), two pair middle and back
STRAIGHT_BACK = "5S 5H 3D / 8C 8D 7S 7H 2S / 3S 4D 5D 6C 7D"  # straight back (+2)
QUEENS_FOUL = "QS QH 7D / QD QC 6D 5S 4D / AS AH AD 2H 2S"  # QQ7 front over QQ654 middle
THIRD_FOUL = "QS QH 7C / QD QC 6D 5C 4C / AS AH AD 2H 3H"  # the same, with cards apart from the two above


# The royalty chart, line by line as the rules text gives it.
BACK_CHART = [("straight", "5S 6H 7D 8C 9S", 2), ("flush", "2H 7H 9H JH KH", 4), ("full house", "TH TD TS KC KH", 6),
              ("quads", "2S 2H 2D 2C 3S", 10), ("straight flush", "9C 8C 7C 6C 5C", 15),
              ("royal flush", "AH KH QH JH TH", 25)]
MIDDLE_CHART = [("three of a kind", "7S 7H 7D 2C 9S", 2), ("straight", "5S 6H 7D 8C 9S", 4),
                ("flush", "2H 7H 9H JH KH", 8), ("full house", "TH TD TS KC KH", 12), ("quads", "2S 2H 2D 2C 3S", 20),
                ("straight flush", "9C 8C 7C 6C 5C", 30), ("royal flush", "AH KH QH JH TH", 50)]
FRONT_CHART = {"66": 1, "77": 2, "88": 3, "99": 4, "TT": 5, "JJ": 6, "QQ": 7, "KK": 8, "AA": 9,
               "222": 10, "333": 11, "444": 12, "555": 13, "666": 14, "777": 15, "888": 16, "999": 17,
               "TTT": 18, "JJJ": 19, "QQQ": 20, "KKK": 21, "AAA": 22}


@pytest.mark.parametrize(("row", "chart"), [("back", BACK_CHART), ("middle", MIDDLE_CHART)])
def test_back_and_middle_royalties_are_the_rules_chart(row: str, chart: list[tuple[str, str, int]]) -> None:
    for _name, hand, points in chart:
        assert royalty(row, value(parse_cards(hand))) == points, (row, hand)
    for hand in ("AS KD 9H 5C 3S", "AS AD 9H 5C 3S", "AS AD 9H 9C 3S") + (("7S 7H 7D 2C 9S",) if row == "back" else ()):
        assert royalty(row, value(parse_cards(hand))) == 0, (row, hand)


def test_front_royalties_are_the_rules_chart() -> None:
    suits = "SHD"
    for ranks, points in FRONT_CHART.items():
        kicker = "" if len(ranks) == 3 else " 2C" if ranks != "22" else " 3C"
        hand = " ".join(rank + suit for rank, suit in zip(ranks, suits, strict=False)) + kicker
        assert royalty("front", value(parse_cards(hand))) == points, hand
    for hand in ("5S 5H AD", "AS KH QD", "2S 2H AD"):
        assert royalty("front", value(parse_cards(hand))) == 0, hand


def test_fouling_is_the_rules_example() -> None:
    """'If a player has a QQ7 in front and QQ654 in the middle, this is a fouled hand. QQ7 in front and QQ982,
    however, is a proper set and is not a foul.'"""
    assert assess(B(QUEENS_FOUL)).fouled
    assert not assess(B("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D")).fouled


@pytest.mark.parametrize(
    ("board", "fouled"),
    [
        ("2S 3H 4D / 9C 9D 4S 4H 2C / KD KC 8S 8H 3C", False),
        ("2S 3H 4D / KD KC 8S 8H 3C / 9C 9D 4S 4H 2C", True),  # middle over back
        ("2S 3H 5D / 9C 9D 4S 4H 2C / 9S 9H 4D 4C 2D", False),  # middle equal to back is a proper set
        ("QS QH 7D / QD QC 7S 3S 2H / KD KC 8S 8H 3C", False),  # QQ732 is over QQ7: missing cards count lowest
        ("AS AH AD / KS KH KD 2C 2D / QS QH QD QC 3C", False),
        ("AS AH AD / KS KH KD QC 2D / QS QH QD JC JD", True),  # trips middle under front trips AAA
    ],
)
def test_fouls(board: str, fouled: bool) -> None:
    hand = assess(B(board))
    assert hand.fouled is fouled
    assert hand.royalty == 0 or not fouled  # royalties are paid only on hands that are not fouled


def test_the_66_front_tie_of_the_rules() -> None:
    """'player A wins ... the front and middle with a pair of 66 in front, and player B wins the back row with
    a straight. player A wins 1 point for taking 2 of 3 rows plus the 1 point royalty for 66 in front, for a
    total of 2 points. Player B, however, is awarded 2 points for the back row straight, and the scores cancel.'"""
    result = settle([B(SIXES_FRONT), B(STRAIGHT_BACK)])
    (settled,) = result.pairs
    assert settled.rows == (1, 1, -1) and settled.scoop == 0
    assert sum(settled.rows) + result.hands[0].royalty == 2 and result.hands[1].royalty == 2
    assert result.net == (0, 0)


def test_the_885_tie_of_the_rules() -> None:
    """'player A wins one row, player B wins one row, and both players have the same hand in the third row
    (885 in front)': the rows cancel, and so do the equal front royalties (88 is 3 each)."""
    a = B("8S 8H 5D / 9C 9D 4S 4H 2C / KD KC 7S 7H 3C")
    b = B("8D 8C 5S / TC TD 3S 3H 2S / QD QC 6S 6H 2D")
    (settled,) = settle([a, b]).pairs
    assert settled.rows == (0, -1, 1) and settled.royalties == 0 and settled.points == 0


def test_royalties_are_all_paid_as_a_difference() -> None:
    """'if player A has a flush in the back row (+4 points) and player B has a full house (+6 points), player A
    pays a net of +2 points to player B.'"""
    a = B("2S 3H 4D / 9C 9D 5S 5H 2C / 2H 7H 9H JH KH")
    b = B("2D 3C 4S / 8C 8D 6S 6H 3D / TH TD TS KC KD")
    (settled,) = settle([a, b]).pairs
    assert settled.royalties == -2
    assert settled.rows == (0, 1, -1)


def test_a_scoop_is_six_points() -> None:
    """'In total, scooping is worth 6 points: 1+1+1 for winning all three rows, and 3 for the scoop bonus.'"""
    a = B("3S 3H 2D / 9C 9D 5S 5H 2C / JD JC 8S 8H 3C")
    b = B("2S 4H 5D / 8C 8D 6S 6H 3D / TH TD 7S 7H 4C")
    (settled,) = settle([a, b]).pairs
    assert (settled.rows, settled.scoop, settled.royalties, settled.points) == ((1, 1, 1), 3, 0, 6)
    assert settle([b, a]).net == (-6, 6)


def test_a_foul_pays_six_and_the_good_hands_royalties_and_two_fouls_tie() -> None:
    """'The penalty for fouling is -6 points ... If both players foul, the hand is a tie at 0 points.'"""
    assert settle([B(SIXES_FRONT), B(QUEENS_FOUL)]).net == (7, -7)  # 6 and the 66 royalty
    other_foul = B("KS KH 7H / KD KC 6S 5H 4S / 3S 3H 3D 2C 8D")
    assert settle([B(QUEENS_FOUL), other_foul]).net == (0, 0)


def test_three_handed_settlement() -> None:
    """'the first player dealt cards ... settles with each successive player until all debts are paid. Then,
    second to act player settles with the others ... If a player fouls their hand, they automatically owe 6
    points to each of the other players plus any royalties owed.'"""
    first = B(SIXES_FRONT)  # royalties 1
    second = B(STRAIGHT_BACK)  # royalties 2
    third = B(THIRD_FOUL)
    result = settle([first, second, third])
    assert [settled.players for settled in result.pairs] == [(0, 1), (0, 2), (1, 2)]
    assert [settled.points for settled in result.pairs] == [0, 7, 8]  # the tie; 6 + 1; 6 + 2
    assert result.net == (7, 8, -15)


def test_four_players_settle_six_pairs_and_net_to_zero() -> None:
    boards = [B(SIXES_FRONT), B(STRAIGHT_BACK), B(THIRD_FOUL), B("JS JH JD / TS TH TD TC 9S / KS KH 9H AC JC")]
    result = settle(boards)
    assert len(result.pairs) == 6 and sum(result.net) == 0


@pytest.mark.parametrize(
    ("a", "b", "one_six", "two_four"),
    [
        (SIXES_FRONT, STRAIGHT_BACK, 0, 1),  # 2 of 3 rows: 1 (+1 overall with 2-4), royalties -1
        ("3S 3H 2D / 9C 9D 5S 5H 2C / JD JC 8S 8H 3C", "2S 4H 5D / 8C 8D 6S 6H 3D / TH TD 7S 7H 4C", 6, 4),
        (SIXES_FRONT, QUEENS_FOUL, 7, 5),  # a foul: a scoop's worth plus the good hand's royalties
        ("8S 8H 5D / 9C 9D 4S 4H 2C / KD KC 7S 7H 3C", "8D 8C 5S / TC TD 3S 3H 2S / QD QC 6S 6H 2D", 0, 0),
    ],
)
def test_scoring_methods(a: str, b: str, one_six: int, two_four: int) -> None:
    assert settle([B(a), B(b)]).net == (one_six, -one_six)
    assert settle([B(a), B(b)], Rules(scoring="2-4")).net == (two_four, -two_four)


def test_two_four_gives_the_overall_point_to_more_rows_won() -> None:
    a, b = assess(B(SIXES_FRONT)), assess(B(STRAIGHT_BACK))
    settled = pair(a, b, Rules(scoring="2-4"))
    assert (settled.rows, settled.scoop, settled.overall, settled.royalties) == ((1, 1, -1), 0, 1, -1)
    with pytest.raises(ValueError, match="scoring is one of 1-6, 2-4"):
        Rules(scoring="1-3")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("board", "qualifies", "stays", "progressive_cards"),
    [
        ("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D", True, False, 13),  # 'QQ or better in the front'
        ("JS JH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D", False, False, 0),
        ("KS KH 7D / QD QC 9S 9H 2S / AS AH AD 2H 2D", True, False, 14),
        ("AS AH 7D / QD QC 9S 9H 2S / KS KH KD 2H 2D", True, False, 15),
        ("2S 2H 2D / 5D 6C 7S 8H 9S / KS KH KD 4H 4D", True, True, 16),  # 'Trips in the front' stays
        ("4S 4H 7D / 5D 5C 9S 9H 3S / KS KH KD KC 4D", False, True, 0),  # 'Quads or better in the back'
        ("4S 4H 7D / 5D 5C 9S 9H 3S / 9C TC JC QC KC", False, True, 0),
        ("QS QH 7D / QD QC 6D 5S 4D / AS AH AD 2H 2S", False, False, 0),  # 'without fouling'
        ("AS AH AD / 2S 2H 2D 2C 3S / KS KH KD 3D 3C", False, False, 0),  # fouled trips
    ],
)
def test_fantasyland(board: str, qualifies: bool, stays: bool, progressive_cards: int) -> None:
    hand = assess(B(board))
    assert (hand.fantasyland, hand.stays) == (qualifies, stays)
    assert fantasyland_cards(hand, Rules()) == (13 if qualifies else 0)
    assert fantasyland_cards(hand, Rules(pineapple=True)) == (14 if qualifies else 0)
    assert fantasyland_cards(hand, Rules(progressive=True)) == progressive_cards
    assert fantasyland_cards(hand, Rules(progressive=True, pineapple=True)) == progressive_cards + qualifies
    for rules, base in ((Rules(), 13), (Rules(pineapple=True, progressive=True), 14)):
        assert fantasyland_cards(hand, rules, in_fantasyland=True) == (base if stays else 0)


# Requests: the batch contract and its errors.


def request(*boards: str, **settings: object) -> dict[str, object]:
    return {"players": [as_json_board(board) for board in boards], **settings}


def test_batch_contract() -> None:
    result = score_request(request(SIXES_FRONT, STRAIGHT_BACK, THIRD_FOUL))
    assert result["net"] == [7, 8, -15]
    assert [{key: player[key] for key in ("fouled", "royalties", "fantasyland", "stays")} for player in
            result["players"]] == [{"fouled": False, "royalties": 1, "fantasyland": False, "stays": False},
                                   {"fouled": False, "royalties": 2, "fantasyland": False, "stays": False},
                                   {"fouled": True, "royalties": 0, "fantasyland": False, "stays": False}]
    assert result["pairs"][1] == {"players": [0, 2], "rows": {"front": 1, "middle": 1, "back": 1}, "scoop": 3,
                                  "overall": 0, "royalties": 1, "points": 7}
    assert result["players"][1]["rows"]["back"] == {"cards": ["3S", "4D", "5D", "6C", "7D"],
                                                    "hand": "straight, seven high", "royalty": 2}
    assert result["rules"] == {"scoring": "1-6", "progressive": False, "pineapple": False}
    json.dumps(result)


def test_settings_in_a_request() -> None:
    queens = "QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"
    trips = "JS JH JD / 9H 9D 9C 7S 7C / TS TH TD TC 4D"
    base = request(queens, trips)
    assert [p["fantasyland_cards"] for p in score_request(base)["players"]] == [13, 13]
    progressive = request(queens, trips, progressive=True, pineapple=True)
    assert [p["fantasyland_cards"] for p in score_request(progressive)["players"]] == [14, 17]
    staying = request(queens, trips)
    staying["players"][0]["in_fantasyland"] = True  # type: ignore[index]
    assert [p["fantasyland_cards"] for p in score_request(staying)["players"]] == [0, 13]
    assert score_request(request(SIXES_FRONT, STRAIGHT_BACK, scoring="2-4"))["pairs"][0]["overall"] == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"players": [as_json_board(SIXES_FRONT)]}, "'players' is a list of 2 to 4 boards, got 1"),
        ({"players": [as_json_board(SIXES_FRONT)] * 5}, "'players' is a list of 2 to 4 boards, got 5"),
        ({"players": "me and you"}, "'players' is a list of 2 to 4 boards, got a string"),
        ({}, "missing field 'players'"),
        (request(SIXES_FRONT, STRAIGHT_BACK, scoring="1-3"), "'scoring' is one of 1-6, 2-4, not '1-3'"),
        (request(SIXES_FRONT, STRAIGHT_BACK, pineapple="yes"), "'pineapple' is true or false, not 'yes'"),
        (request(SIXES_FRONT, STRAIGHT_BACK, colour=1), "unknown field 'colour'"),
        ({"players": [as_json_board(SIXES_FRONT), 7]}, "players[1]: a request is a JSON object, not a number"),
        ({"players": [as_json_board(SIXES_FRONT), {"front": ["2S", "3S", "4S"]}]}, "players[1]: missing field"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "seat": 2}]},
         "players[1]: unknown field 'seat'"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "front": ["5S", "5H"]}]},
         "'players[1].front' needs 3 cards, got 2"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "back": ["3S", "4D"]}]},
         "'players[1].back' needs 5 cards, got 2"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "middle": "8C 8D"}]},
         "'players[1].middle' is a list of card codes, not a string"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "front": ["5S", "5H", "XX"]}]},
         "'players[1].front': bad card code 'XX'"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "front": ["5S", "5H", "7D"]}]},
         "card 7D is used twice (in 'players[1].front' and 'players[1].back')"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "front": ["5S", "5H", "KD"]}]},
         "card KD is used twice (in 'players[0].back' and 'players[1].front')"),
        ({"players": [as_json_board(SIXES_FRONT), {**as_json_board(STRAIGHT_BACK), "in_fantasyland": 1}]},
         "'players[1].in_fantasyland' is true or false, not 1"),
    ],
)
def test_bad_requests_get_one_clear_message(bad: dict[str, object], message: str) -> None:
    with pytest.raises(RequestError) as error:
        score_request(bad)
    assert message in str(error.value)


def test_the_engine_refuses_bad_boards_too() -> None:
    with pytest.raises(ValueError, match="the middle row needs 5 cards, got 4"):
        Board(tuple(parse_cards("2S 3S 4S")), tuple(parse_cards("5S 6S 7S 8S")), tuple(parse_cards("9S TS JS QS KS")))
    with pytest.raises(ValueError, match="three rows separated by '/'"):
        B("2S 3S 4S / 5S 6S 7S 8S 9S")
    with pytest.raises(ValueError, match="card 6S is used twice"):
        settle([B(SIXES_FRONT), B(SIXES_FRONT)])
    with pytest.raises(ValueError, match="among 2 to 4 players, not 5"):
        settle([B(SIXES_FRONT)] * 5)
    with pytest.raises(ValueError, match="in_fantasyland has 1 entries for 2 players"):
        settle([B(SIXES_FRONT), B(STRAIGHT_BACK)], in_fantasyland=[True])


def test_batch_lines_through_the_score_command() -> None:
    game = games.game("ofc")
    lines = [json.dumps(sample) for sample in ofc_requests.SAMPLES] + ['{"players": []}']
    out = io.BytesIO()
    score_command.score_batch(game, io.BytesIO("\n".join(lines).encode()), out)
    results = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [result.get("net") for result in results[:-1]] == [score_request(s)["net"] for s in ofc_requests.SAMPLES]
    assert results[-1] == {"error": "'players' is a list of 2 to 4 boards, got 0"}


def test_samples_score_and_render() -> None:
    for sample in ofc_requests.SAMPLES:
        text = ofc_requests.render(score_request(sample))
        assert text.splitlines()[-1].startswith("net: player 1")
    text = ofc_requests.render(score_request(ofc_requests.SAMPLES[1]))
    assert "FOULED" in text and "goes to Fantasyland (16 cards)" in text and "scoop +3" in text


def test_readable_form(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["score", "ofc", *SIXES_FRONT.split(), "VS", *STRAIGHT_BACK.split(), "--scoring", "2-4",
            "--in-fantasyland", "2"]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "player 2 (in Fantasyland)" in out and "leaves Fantasyland" in out
    assert "player 1 v player 2: front +1, middle +1, back -1, overall +1, royalties -1: +1" in out
    assert cli.main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["net"] == [1, -1]
    compact = ["score", "ofc", "6s 6h 2d/9c 9d 4s 4h 2c/kd kc 8s 8h 3c", "vs", "5S 5H 3D/ 8C 8D 7S 7H 2S /3S 4D 5D 6C 7D"]
    assert cli.main(compact) == 0
    assert capsys.readouterr().out.endswith("net: player 1 0, player 2 0\n")


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ("2S 3H 4D / 5C 6C 7C 8C TC vs 9S", "board 1 has 2 rows"),
        (f"{SIXES_FRONT} vs 5S 5H 3D / 8C 8D 7S 7H 2S", "board 2 has 2 rows"),
        (f"{SIXES_FRONT} vs {STRAIGHT_BACK} --in-fantasyland 3", "--in-fantasyland takes player numbers 1 to 2, not '3'"),
        (f"{SIXES_FRONT} vs {STRAIGHT_BACK} --in-fantasyland", "--in-fantasyland takes the numbers of the players"),
        (f"{SIXES_FRONT} vs {STRAIGHT_BACK} --pineapple yes", "'pineapple' is true or false, not 'yes'"),
        (f"{SIXES_FRONT} vs {STRAIGHT_BACK} --colour red", "unknown field 'colour'"),
    ],
)
def test_readable_form_errors(words: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "ofc", *words.split()]) == 2
    assert message in capsys.readouterr().err


deals = st.tuples(st.integers(2, 4), st.randoms(use_true_random=False))


@given(deals)
def test_any_deal_settles_to_zero_and_each_pair_is_symmetric(deal: tuple[int, random.Random]) -> None:
    players, rng = deal
    cards = rng.sample(DECK, 13 * players)
    boards = [Board(tuple(cards[i:i + 3]), tuple(cards[i + 3:i + 8]), tuple(cards[i + 8:i + 13]))
              for i in range(0, 13 * players, 13)]
    for rules in (Rules(), Rules(scoring="2-4")):
        result = settle(boards, rules)
        assert sum(result.net) == 0
        hands = result.hands
        for settled in result.pairs:
            i, j = settled.players
            assert pair(hands[j], hands[i], rules).points == -settled.points
            worth = 6 if rules.scoring == "1-6" else 4
            assert abs(settled.points - settled.royalties) <= worth
            if hands[i].fouled and hands[j].fouled:
                assert settled.points == 0
            elif hands[j].fouled:
                assert settled.points == worth + hands[i].royalty


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4)
    | st.sampled_from(["2-4", "1-6", "AS", "KD", "7H"]),
    lambda children: st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)
board_like = st.fixed_dictionaries(
    {}, optional={"front": json_values | st.just(["QS", "QH", "7D"]), "middle": json_values,
                  "back": json_values, "in_fantasyland": json_values})


@given(st.fixed_dictionaries({}, optional={"players": st.lists(board_like, max_size=5) | json_values,
                                           "scoring": json_values, "progressive": json_values, "colour": json_values}))
def test_any_malformed_request_gets_a_request_error_never_a_crash(bad: dict[str, object]) -> None:
    try:
        score_request(bad)
    except RequestError as error:
        assert str(error)
