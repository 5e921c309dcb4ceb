"""Pinzique rounds and games: each takeaway sentence of the rulebook fragment, bonus rounds, playoffs,
partners and the roll counter."""

from collections.abc import Sequence

import pytest

from scoring.cards import parse_cards
from scoring.pinzique_game import Game, GameError, RoundResult, settle_round
from scoring.pinzique_roll import RollError, score_roll

# Final rolls, each checked against the dice by score_roll.
SMALL_RUN_AND_MARRIAGE = "9H TH JH QH KH KH QH 9C"  # the fragment's example 2: SMH 650 + MH 35
SMALL_RUN = "9H TH JH QH KH 9D 9C QD"  # SMH 9-K, no extras
SMALL_RUN_EXTRA_9 = "9H TH JH QH KH 9H 9C 9D"
SMALL_RUN_EXTRA_J = "9H TH JH QH KH JH 9D 9C"
SMALL_RUN_TO_ACE = "TH JH QH KH AH 9D TS AC"
MEDIUM_RUN = "9H TH JH QH KH AH 9D AC"
LARGE_RUN = "JH QH QH AH 9H TH KH KH"
MARRIAGE = "KH QH 9C 9C TS 9S 9D TC"
DOUBLE_MARRIAGE = "KH KH QH QH 9C 9C TS 9S"
PINZIQUE = "JS QH 9C 9C TS 9S 9D TC"
DOUBLE_PINZIQUE = "JS JS QH QH 9C 9C TS 9S"
FOUR_JACKS, FIVE_JACKS, SIX_JACKS = "JS JH JD JC 9C TS 9S TC", "JS JH JD JC JC TS 9S TC", "JS JH JD JC JC JD 9S TC"
FOUR_QUEENS, FIVE_QUEENS, SIX_QUEENS = "QC QH QD QS 9D 9S 9H TC", "QC QH QH QD QS 9S 9H 9D", "QC QH QH QD QS QC 9H 9D"
EIGHT_QUEENS = "QC QH QH QD QS QC QD QS"
PLAYER_1, PLAYER_2 = "QS QH QD QC JS KH KC 9S", "QS QH QD QC QH KH KD JS"  # the fragment's example 3
ALL_EIGHT = "JS JH JD JC QH KH KC QC"  # the fragment's bonus example: 160 on all eight dice
NOTHING = "9C TD JD QD KC AH 9H TC"


def settle(*rolls: str, bonus_round: bool = False) -> RoundResult:
    return settle_round([score_roll(parse_cards(roll)) for roll in rolls], bonus_round)


def lost(result: RoundResult) -> list[list[tuple[str, int, tuple[int, ...]]]]:
    return [[(loss.meld.code, loss.meld.points, loss.to) for loss in losses] for losses in result.losses]


# --- the fragment's takeaway sentences ---------------------------------------------------------------------

def test_example_3_player_2s_five_queens_take_player_1s_four_queens() -> None:
    """"The second player takes away points from the first": 50-P + 60-4Q (struck) + 70 = 120; 180."""
    result = settle(PLAYER_1, PLAYER_2)
    assert result.points == (120, 180)
    assert lost(result) == [[("4Q", 60, (1,))], []]


def test_a_medium_run_and_a_double_marriage_in_hearts_take_the_small_run_and_the_marriage() -> None:
    """"If other players got a medium run in Hearts and a double marriage in Hearts, the above points would
    be lost.\""""
    result = settle(SMALL_RUN_AND_MARRIAGE, MEDIUM_RUN, DOUBLE_MARRIAGE)
    assert lost(result) == [[("SMH", 650, (1,)), ("MH", 35, (2,))], [], []]
    assert result.points == (0, 1300, 350)


def test_a_small_run_and_a_marriage_elsewhere_in_hearts_let_all_three_keep() -> None:
    """"If someone else scored a small run in Hearts and another player had a marriage in Hearts, all three
    players would keep their points.\""""
    result = settle(SMALL_RUN_AND_MARRIAGE, SMALL_RUN, MARRIAGE)
    assert lost(result) == [[], [], []]
    assert result.points == (685, 650, 35)


def test_a_medium_run_takes_the_small_run() -> None:
    """"If another player had a medium run in Hearts, they would take away the points from the small run.\""""
    result = settle(SMALL_RUN_AND_MARRIAGE, MEDIUM_RUN)
    assert lost(result) == [[("SMH", 650, (1,))], []]
    assert result.points == (35, 1300)


def test_ties_keep_their_points() -> None:
    """"Whenever there are ties, those players get to keep their regular point amounts.\""""
    result = settle(FOUR_QUEENS, PLAYER_1, MARRIAGE, SMALL_RUN_AND_MARRIAGE)
    assert lost(result) == [[], [], [], []]
    assert result.points == (60, 180, 35, 685)


def test_a_double_marriage_or_double_pinzique_takes_the_single() -> None:
    """"Whenever someone scores a double marriage or a double Pinzique, they take away the points of a single
    marriage or single Pinzique.\""""
    assert lost(settle(MARRIAGE, DOUBLE_MARRIAGE)) == [[("MH", 35, (1,))], []]
    assert lost(settle(PINZIQUE, DOUBLE_PINZIQUE)) == [[("P", 50, (1,))], []]


def test_a_double_marriage_does_not_take_a_pinzique_nor_a_double_pinzique_a_marriage() -> None:
    """"However, a double marriage does not take away a single Pinzique. Nor does a double Pinzique take away
    a single marriage.\""""
    assert settle(PINZIQUE, DOUBLE_MARRIAGE).points == (50, 350)
    assert settle(MARRIAGE, DOUBLE_PINZIQUE).points == (35, 500)


def test_a_marriage_is_taken_only_by_a_double_marriage_of_its_suit() -> None:
    """docs/rules/pinzique.md: a marriage family per suit (a spade double marriage leaves a heart marriage
    alone)."""
    spades = "KS KS QS QS 9S 9D 9S 9H"
    assert [meld.code for meld in score_roll(parse_cards(spades)).melds] == ["DMS"]
    assert settle(MARRIAGE, spades).points == (35, 350)


def test_the_taker_gains_nothing() -> None:
    """"The player taking away points ... does not add the taken away points to their score sheet.\""""
    result = settle(FOUR_JACKS, FIVE_JACKS)
    assert result.points == (0, score_roll(parse_cards(FIVE_JACKS)).total) == (0, 40)


def test_one_more_of_a_set_takes_it() -> None:
    """"If a player accumulates one of each suit of any set and an opponent accumulates the same plus one more,
    the original player forfeits those points.\""""
    assert lost(settle(FIVE_JACKS, FOUR_JACKS)) == [[], [("4J", 40, (0,))]]


def test_a_third_player_knocks_off_the_preceding_two() -> None:
    """"A third player who accumulates yet another of the same set (ex: Jacks) will then knock points off the
    preceding two players.\""""
    result = settle(FOUR_JACKS, FIVE_JACKS, SIX_JACKS)
    assert lost(result) == [[("4J", 40, (2,))], [("5J", 40, (2,))], []]
    assert result.points == (0, 0, 40)


def test_two_holding_the_best_both_take() -> None:
    result = settle(FOUR_JACKS, FIVE_JACKS, FIVE_JACKS)
    assert lost(result) == [[("4J", 40, (1, 2))], [], []]


def test_runs_larger_beats_smaller() -> None:
    """"The rule applies to all scoring types including runs. For runs, larger beats smaller."""
    assert lost(settle(MEDIUM_RUN, LARGE_RUN)) == [[("MRH", 1300, (1,))], []]
    assert lost(settle(SMALL_RUN, LARGE_RUN))[0] == [("SMH", 650, (1,))]


def test_runs_of_one_size_higher_top_card_then_additional_cards_by_rank() -> None:
    """"... and additional cards in suit win by rank." [docs/rules/pinzique.md: the higher top card, then the
    extras]"""
    assert lost(settle(SMALL_RUN, SMALL_RUN_TO_ACE)) == [[("SMH", 650, (1,))], []]
    assert lost(settle(SMALL_RUN, SMALL_RUN_EXTRA_9)) == [[("SMH", 650, (1,))], []]
    assert lost(settle(SMALL_RUN_EXTRA_9, SMALL_RUN_EXTRA_J)) == [[("SMH", 650, (1,))], []]
    assert lost(settle(SMALL_RUN_EXTRA_J, SMALL_RUN_TO_ACE)) == [[("SMH", 650, (1,))], []]


def test_more_of_a_rank_wins_takeaways_but_scores_nothing_more_until_eight() -> None:
    """"A player with 5 Queens will forfeit to a player with 6 Queens, but that player will not get additional
    points until they reach the 8 Queen scoring category on the Score Guide.\""""
    result = settle(FIVE_QUEENS, SIX_QUEENS)
    assert lost(result) == [[("5Q", 60, (1,))], []]
    assert result.points == (0, 60)
    assert settle(SIX_QUEENS, EIGHT_QUEENS).points == (0, 600)


# --- bonus rounds ----------------------------------------------------------------------------------------

def test_scoring_on_all_eight_dice_and_losing_nothing_earns_a_bonus_round() -> None:
    """"As long as the player ... does not lose any points because of a 'takeaway point' situation, he/she
    would receive a bonus round.\""""
    assert settle(ALL_EIGHT, NOTHING).bonus == (True, False)
    assert settle(ALL_EIGHT, SIX_JACKS).bonus == (False, False)  # its four Jacks are taken
    assert settle(PLAYER_1, PLAYER_2).bonus == (False, True)  # five Queens, marriages and a Pinzique: all 8


def test_a_bonus_round_can_lose_points_to_another_bonus_player_and_earns_no_further_bonus() -> None:
    """"A player who receives a bonus round and scores points in that special round can still lose points if
    one or more opponents also qualifies for a bonus round in the same round ... and rolls takeaway points.\""""
    result = settle(FOUR_JACKS, FIVE_JACKS, bonus_round=True)
    assert result.points == (0, 40) and result.bonus == (False, False)
    assert settle(ALL_EIGHT, bonus_round=True).bonus == (False,)


def play(game: Game, *rolls: str) -> Game:
    """Each side up rolls once and stands."""
    for roll in rolls:
        game = game.roll(parse_cards(roll)).stand()
    return game


def test_a_game_is_ten_rounds_with_running_totals_and_bonus_rounds_marked_b_n() -> None:
    """"If they score in that bonus round, they would list their points in the first "B"-round available and
    mark it B-5." Takeaways do not carry over: round 2's four Jacks are kept though round 1's were taken."""
    game = Game.new(["Ann", "Bob"])
    game = play(game, FOUR_JACKS, FIVE_JACKS)
    game = play(game, FOUR_JACKS, NOTHING)
    assert [row.points_of(0) for row in game.sheet] == [0, 40]
    for _ in range(2):
        game = play(game, NOTHING, NOTHING)
    assert game.label == "5"
    game = play(game, NOTHING, ALL_EIGHT)
    assert (game.label, game.playing, game.up) == ("B-5", (1,), 1)
    game = play(game, MARRIAGE)
    assert game.label == "6"
    for _ in range(5):
        game = play(game, SMALL_RUN, NOTHING)
    assert game.over and game.up is None
    assert [row.label for row in game.sheet] == ["1", "2", "3", "4", "5", "B-5", *map(str, range(6, 11))]
    assert game.sheet[5].points_of(0) is None and game.sheet[5].points_of(1) == 35
    assert game.totals == (40 + 5 * 650, 40 + 160 + 35) and game.winner == 0


def test_a_bonus_round_is_played_only_by_its_bonus_players_after_everyone_has_played() -> None:
    game = play(Game.new(["Ann", "Bob", "Cy"], rounds=1), ALL_EIGHT, PLAYER_2, NOTHING)
    assert (game.label, game.playing) == ("B-1", (0, 1))
    game = play(game, FOUR_JACKS, FIVE_JACKS)  # the bonus players' takeaway among themselves
    assert game.sheet[-1].result.points == (0, 40)
    assert game.totals == (160, 180 + 40, 0) and game.winner == 1


def test_a_bonus_player_can_still_finish_lowest() -> None:
    """"Even though a player in a regular/standard round may have received and scored in a bonus round they
    still could wind up being the last lowest scorer of the regular round.\""""
    game = play(Game.new(["Ann", "Bob"], rounds=1), ALL_EIGHT, MEDIUM_RUN, MARRIAGE)
    assert game.totals == (195, 1300) and game.winner == 1


def test_playoff_rounds_among_the_tied_leaders_until_one_leads() -> None:
    """[fragment: playoff rounds, with takeaway and bonus rounds; docs/rules/pinzique.md: one at a time until
    one leads]"""
    game = play(Game.new(["Ann", "Bob", "Cy"], rounds=1), FOUR_QUEENS, FOUR_QUEENS, MARRIAGE)
    assert (game.label, game.playing, game.totals) == ("P1", (0, 1), (60, 60, 35))
    game = play(game, FIVE_JACKS, FIVE_JACKS)
    assert (game.label, game.playing) == ("P2", (0, 1))
    game = play(game, FOUR_JACKS, FIVE_JACKS)  # takeaway in a playoff round
    assert game.over and game.winner == 1 and game.totals == (100, 140, 35)
    assert [row.label for row in game.sheet] == ["1", "P1", "P2"]


def test_partners_share_a_sheet_and_a_turn_and_score_as_one_team() -> None:
    """"Have the partners sit side by side so that they can share a score sheet and play as a team. All regular
    rules and instructions should apply the same way as for individual players.\""""
    game = Game.new([("Ann", "Bob"), ("Cy", "Di")], rounds=2)
    game = play(game, FOUR_JACKS, FIVE_JACKS, SMALL_RUN, MARRIAGE)
    assert game.totals == (650, 40 + 35) and game.over and game.winner == 0
    assert game.sides == (("Ann", "Bob"), ("Cy", "Di"))


def test_the_roll_counter_ends_a_turn_after_three_rolls_or_the_setting() -> None:
    game = Game.new(["Ann", "Bob"])
    assert game.rolls_left == 3
    game = game.roll(parse_cards(NOTHING)).roll(parse_cards(MARRIAGE))
    assert (game.up, game.rolls_left) == (0, 1)
    game = game.roll(parse_cards(FOUR_JACKS))  # the third roll ends the turn: it is the final roll
    assert (game.up, game.rolls_left, game.finals[0].total) == (1, 3, 40)
    game = Game.new(["Ann", "Bob"], rolls_per_turn=1).roll(parse_cards(MARRIAGE))
    assert game.up == 1
    with pytest.raises(GameError, match="roll the dice before ending the turn"):
        game.stand()


def test_a_turn_keeps_its_latest_roll_when_the_player_stands() -> None:
    game = Game.new(["Ann", "Bob"], rounds=1).roll(parse_cards(SIX_JACKS)).roll(parse_cards(NOTHING)).stand()
    assert game.finals[0].total == 0


@pytest.mark.parametrize(
    ("sides", "message"),
    [
        ([], "a game needs at least one side"),
        ("Ann", "sides is a list of players or pairs of partners, not the one name 'Ann'"),
        (["Ann", ("Bob", "Cy", "Di")], "a side is one player or two partners"),
        (["Ann", ""], "a side is one player or two partners, each with a name"),
        (["Ann", ("Bob", "Ann")], "each player's name must differ"),
    ],
)
def test_bad_sides_are_refused(sides: Sequence[str | Sequence[str]], message: str) -> None:
    with pytest.raises(GameError, match=message):
        Game.new(sides)


def test_bad_moves_are_refused_and_leave_the_game_as_it_was() -> None:
    game = Game.new(["Ann"], rounds=1)
    with pytest.raises(RollError, match="no set of dice"):
        game.roll(parse_cards("QH QH QH 9C TC JH QC KS"))
    assert game.rolls_left == 3
    with pytest.raises(GameError, match="rolls a turn must be 1 to 10"):
        Game.new(["Ann"], rolls_per_turn=0)
    over = play(game, NOTHING)
    assert over.over and over.winner == 0
    with pytest.raises(GameError, match="the game is over"):
        over.roll(parse_cards(NOTHING))
    with pytest.raises(GameError, match="the game is over"):
        over.stand()
