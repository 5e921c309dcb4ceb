"""The card model and its code notation."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.cards import DECK, Card, CardError, Rank, Suit, parse_cards

cards = st.sampled_from(DECK)
RANK_SPELLINGS = {rank: [rank.letter, rank.letter.lower()] for rank in Rank} | {Rank.TEN: ["T", "t", "10"]}
SUIT_SPELLINGS = {suit: [suit.letter, suit.letter.lower(), suit.symbol] for suit in Suit}


@given(cards)
def test_canonical_code_and_symbol_round_trip(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.parse(card.symbol) == card
    assert len(card.code) == 2 and str(card) == card.code
    assert Card.from_index(card.index) == card


@given(cards, st.data())
def test_every_spelling_parses_to_the_same_card(card: Card, data: st.DataObject) -> None:
    rank = data.draw(st.sampled_from(RANK_SPELLINGS[card.rank]))
    suit = data.draw(st.sampled_from(SUIT_SPELLINGS[card.suit]))
    assert Card.parse(f" {rank}{suit} ") == card


@given(st.text(max_size=5))
def test_anything_else_is_refused_with_a_message_naming_it(text: str) -> None:
    spellings = {r + s for card in DECK for r in RANK_SPELLINGS[card.rank] for s in SUIT_SPELLINGS[card.suit]}
    if text.strip() in spellings:
        return
    with pytest.raises(CardError) as error:
        Card.parse(text)
    assert repr(text.strip()) in str(error.value)
    assert "like 'TH' or '10♥'" in str(error.value)


@pytest.mark.parametrize("code", ["5H", "TH", "10h", "T♥", "10♥", "th"])
def test_the_issue_spellings(code: str) -> None:
    assert Card.parse(code).code in {"5H", "TH"}


@pytest.mark.parametrize("bad", ["", "1H", "11H", "TX", "H", "T", "ZZ", "10♥♥", "Joker"])
def test_bad_codes(bad: str) -> None:
    with pytest.raises(CardError, match="bad card code"):
        Card.parse(bad)


def test_non_strings_are_refused() -> None:
    with pytest.raises(CardError, match="bad card code 5"):
        Card.parse(5)  # type: ignore[arg-type]


def test_deck_is_52_distinct_cards_in_index_order() -> None:
    assert len(set(DECK)) == 52
    assert [card.index for card in DECK] == list(range(52))
    assert parse_cards(" ".join(card.symbol for card in DECK)) == list(DECK)
