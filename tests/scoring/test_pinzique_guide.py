"""The Pinzique score guide file: the shipped guide, an owner's own copy, and files that are refused."""

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from scoring.cards import Card, Suit, parse_cards
from scoring.pinzique_guide import PINOCHLE_RANKS, GuideError, load_guide, parse_guide
from scoring.pinzique_roll import best_score, score_roll

SHIPPED = resources.files("scoring") / "data" / "pinzique.toml"


def shipped() -> dict[str, Any]:
    return tomllib.loads(SHIPPED.read_text(encoding="utf-8"))


def test_shipped_guide_is_pinzique_md_table() -> None:
    guide = load_guide()
    assert [[card.code for card in die] for die in guide.dice] == [
        ["9C", "TC", "JH", "QC", "KS", "AD"], ["9S", "TD", "JC", "QH", "KD", "AS"],
        ["9D", "TS", "JD", "QH", "KC", "AD"], ["9C", "TD", "JC", "QD", "KS", "AH"],
        ["9H", "TS", "JD", "QS", "KC", "AC"], ["9S", "TH", "JH", "QC", "KD", "AH"],
        ["9H", "TH", "JS", "QD", "KH", "AC"], ["9D", "TC", "JS", "QS", "KH", "AS"]]
    points = {rule.code: (rule.points, rule.provisional) for rule in guide.melds}
    assert points == {
        "M": (35, False), "DM": (350, True), "P": (50, False), "DP": (500, True),
        "4J": (40, True), "4Q": (60, False), "4K": (80, True), "4A": (100, True),
        "8J": (400, True), "8Q": (600, True), "8K": (800, True), "8A": (1000, True),
        "SM": (650, False), "MR": (1300, True), "LR": (2600, True)}
    assert (guide.rolls, guide.rolls_provisional, guide.dice_provisional) == (3, True, True)


def test_each_card_is_on_two_dice_of_the_shipped_guide() -> None:
    guide = load_guide()
    for suit in Suit:
        for rank in PINOCHLE_RANKS:
            assert len(guide.dice_showing(Card(rank, suit))) == 2
    assert guide.dice_showing(Card.parse("2H")) == ()


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "guide.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_owner_copy_changes_points_and_provisional_marks(tmp_path: Path) -> None:
    """An owner who holds the printed Score Guide corrects a value and clears its mark."""
    text = SHIPPED.read_text(encoding="utf-8").replace(
        "DM = { points = 350, provisional = true }", "DM = { points = 300, provisional = false }")
    guide = load_guide(write(tmp_path, text))
    roll = score_roll(parse_cards("KH KH QH QH 9C 9C TS 9S"), guide)
    assert [(meld.code, meld.points, meld.provisional) for meld in roll.melds] == [("DMH", 300, False)]
    assert guide.source == str(tmp_path / "guide.toml")


def test_an_owner_copy_can_score_nines_and_tens_as_a_rank(tmp_path: Path) -> None:
    """docs/rules/pinzique.md [A]: nines and tens score only in runs, unless the guide gives them rank
    melds."""
    text = SHIPPED.read_text(encoding="utf-8") + "49 = { points = 20, provisional = false }\n" \
                                                 "89 = { points = 200, provisional = false }\n"
    nines = parse_cards("9C 9C 9S 9S 9D 9H TH TC")
    assert best_score(nines).total == 0
    assert [(meld.code, meld.points) for meld in score_roll(nines, load_guide(write(tmp_path, text))).melds] \
        == [("69", 20)]


def test_a_different_dice_layout_changes_which_rolls_are_possible(tmp_path: Path) -> None:
    """Swap JH (die 0) and JS (die 6): two Kings of hearts and a Jack of spades fit only the new dice."""
    text = SHIPPED.read_text(encoding="utf-8").replace('["9C", "TC", "JH", "QC", "KS", "AD"]',
                                                       '["9C", "TC", "JS", "QC", "KS", "AD"]')
    text = text.replace('["9H", "TH", "JS", "QD", "KH", "AC"]', '["9H", "TH", "JH", "QD", "KH", "AC"]')
    guide = load_guide(write(tmp_path, text))
    assert guide.dice_showing(Card.parse("JS")) == (0, 7)
    roll = parse_cards("JS KH KH 9S 9D 9C 9H TH")
    assert score_roll(roll, guide).total == 0
    with pytest.raises(ValueError, match="no set of dice can show this roll: JS, KH, KH need 3 dice but only dice 6, 7"):
        score_roll(roll)


def mutate(change: Any) -> dict[str, Any]:
    data = shipped()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("dice"), "missing entry 'dice'"),
        (lambda d: d.update(colour="red"), "unknown entry 'colour' (expected: dice, melds, turn)"),
        (lambda d: d.update(turn=3), "turn: should be a table, not a number"),
        (lambda d: d["turn"].update(rolls=0), "turn.rolls: should be a whole number from 1 to 10, not 0"),
        (lambda d: d["turn"].update(rolls="3"), "turn.rolls: should be a whole number from 1 to 10, not '3'"),
        (lambda d: d["turn"].update(provisional="yes"), "turn.provisional: should be true or false, not 'yes'"),
        (lambda d: d["dice"]["faces"].pop(), "dice.faces: should be a list of 8"),
        (lambda d: d["dice"]["faces"][2].pop(), "dice.faces[2]: should be a list of 6"),
        (lambda d: d["dice"]["faces"][3].__setitem__(4, "KX"), "dice.faces[3][4]: bad card code 'KX'"),
        (lambda d: d["dice"]["faces"][3].__setitem__(4, 13), "dice.faces[3][4]: bad card code 13"),
        (lambda d: d["dice"]["faces"][3].__setitem__(4, "8S"), "dice.faces[3][4]: 8S is not a pinochle card"),
        (lambda d: d["dice"]["faces"][3].__setitem__(4, "QD"), "dice.faces[3]: die 3 shows QD twice"),
        (lambda d: d["dice"]["faces"][3].__setitem__(4, "QH"),
         "dice.faces: QH is on 3 dice (1, 2, 3): the 48 faces are a pinochle deck, each card on exactly two dice"),
        (lambda d: d["dice"].pop("provisional"), "missing entry 'dice.provisional'"),
        (lambda d: d["melds"].pop("DP"), "missing entry 'melds.DP'"),
        (lambda d: d["melds"].update(XX={"points": 5, "provisional": True}), "unknown entry 'melds.XX'"),
        (lambda d: d["melds"].update(M=35), "melds.M: should be a table like { points = 35, provisional = true }"),
        (lambda d: d["melds"]["M"].update(points=-5), "melds.M.points: should be a whole number above 0, not -5"),
        (lambda d: d["melds"]["M"].update(points=True), "melds.M.points: should be a whole number above 0, not True"),
        (lambda d: d["melds"]["M"].pop("provisional"), "missing entry 'melds.M.provisional'"),
        (lambda d: d["melds"]["M"].update(colour=1), "unknown entry 'melds.M.colour'"),
        (lambda d: d["melds"].update({"4T": {"points": 5, "provisional": True}}),
         "melds: 4T and 8T go together: give both or neither"),
        (lambda d: d["melds"]["DM"].update(points=30), "melds.DM: DM (30) must score more than M (35)"),
        (lambda d: d["melds"]["DP"].update(points=50), "melds.DP: DP (50) must score more than P (50)"),
        (lambda d: d["melds"]["8K"].update(points=70), "melds.8K: 8K (70) must score more than 4K (80)"),
        (lambda d: d["melds"]["MR"].update(points=600), "melds.MR: MR (600) must score more than SM (650)"),
        (lambda d: d["melds"]["LR"].update(points=1300), "melds.LR: LR (1300) must score more than MR (1300)"),
    ],
)
def test_a_malformed_or_inconsistent_guide_is_refused_naming_the_entry(change: Any, message: str) -> None:
    with pytest.raises(GuideError) as raised:
        parse_guide(mutate(change), "owner.toml")
    assert str(raised.value).startswith("score guide owner.toml: ")
    assert message in str(raised.value)


def test_a_file_that_is_not_toml_or_not_text_is_refused(tmp_path: Path) -> None:
    with pytest.raises(GuideError, match=r"guide\.toml: not valid TOML: .*line 1"):
        load_guide(write(tmp_path, "[dice\n"))
    path = tmp_path / "guide.toml"
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(GuideError, match=r"guide\.toml: not UTF-8 text \(byte 0\)"):
        load_guide(path)
    with pytest.raises(GuideError, match="cannot read it"):
        load_guide(tmp_path)
