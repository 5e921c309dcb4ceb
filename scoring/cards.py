"""Playing cards: ranks, suits, cards, and the card code notation.

A card code is a rank then a suit. Ranks are ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` for ``T``),
suits ``S H D C`` or the symbols ``♠ ♥ ♦ ♣``; either may be lower case. The canonical code is two
characters, the screen form uses ``10`` and the suit symbol.

>>> card = Card.parse("10h")
>>> card
Card.parse('TH')
>>> str(card), card.symbol
('TH', '10♥')
>>> Card.parse("T♥") == Card.parse("10♥") == card
True
>>> parse_cards("5H 5C 5D JS")
[Card.parse('5H'), Card.parse('5C'), Card.parse('5D'), Card.parse('JS')]
>>> Card.parse("1H")
Traceback (most recent call last):
...
scoring.cards.CardError: bad card code '1H': a card code is a rank (A, 2-9, T or 10, J, Q, K) then a suit (S, H, D, C or ♠ ♥ ♦ ♣), like 'TH' or '10♥'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cache

from scoring.errors import RuleError

__all__ = ["Card", "CardError", "DECK", "Rank", "Suit", "parse_cards"]

VALID_CODE = "a rank (A, 2-9, T or 10, J, Q, K) then a suit (S, H, D, C or ♠ ♥ ♦ ♣), like 'TH' or '10♥'"


class CardError(RuleError):
    """A card code that does not name a card."""

    def __init__(self, code: object) -> None:
        self.code = code
        super().__init__(f"bad card code {code!r}: a card code is {VALID_CODE}")


class Rank(IntEnum):
    """A rank, valued ace low (ACE = 1 ... KING = 13).

    >>> Rank.parse("10"), Rank.QUEEN.letter, Rank.TEN.label
    (<Rank.TEN: 10>, 'Q', '10')
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def letter(self) -> str:
        """The one-character code: A, 2-9, T, J, Q, K."""
        return "A23456789TJQK"[self - 1]

    @property
    def label(self) -> str:
        """The form printed on a card's index: ``10`` for ten, else the letter."""
        return "10" if self is Rank.TEN else self.letter

    @classmethod
    def parse(cls, text: str) -> Rank:
        """The rank a code's rank part names (``A``, ``2``-``9``, ``T``, ``10``, ``J``, ``Q``, ``K``)."""
        rank = _RANKS.get(text.upper())
        if rank is None:
            raise ValueError(f"bad rank {text!r}: expected A, 2-9, T or 10, J, Q or K")
        return rank


class Suit(Enum):
    """A suit, with its letter and symbol.

    >>> Suit.parse("♣"), Suit.HEARTS.symbol
    (<Suit.CLUBS: 'C'>, '♥')
    """

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def letter(self) -> str:
        """The one-letter code: S, H, D or C."""
        return self.value

    @property
    def symbol(self) -> str:
        """The suit symbol for screens."""
        return _SYMBOLS[self]

    @property
    def red(self) -> bool:
        """Whether the suit is printed red (hearts and diamonds) rather than black.

        >>> Suit.HEARTS.red, Suit.CLUBS.red
        (True, False)
        """
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def index(self) -> int:
        """0 for spades, 1 hearts, 2 diamonds, 3 clubs."""
        return _SUIT_ORDER.index(self)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """The suit a letter or symbol names."""
        suit = _SUITS.get(text.upper())
        if suit is None:
            raise ValueError(f"bad suit {text!r}: expected S, H, D, C or ♠ ♥ ♦ ♣")
        return suit


_RANKS = {rank.letter: rank for rank in Rank} | {"10": Rank.TEN}
_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUITS = (
    {suit.letter: suit for suit in Suit}
    | {symbol: suit for suit, symbol in _SYMBOLS.items()}
    | {"♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}
)


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Equal cards are the same card; ``index`` numbers the deck 0-51.

    >>> Card(Rank.KING, Suit.SPADES).index, Card.from_index(51)
    (12, Card.parse('KC'))
    """

    rank: Rank
    suit: Suit

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card a code names; raises CardError naming the code if it names none."""
        if not isinstance(code, str):
            raise CardError(code)
        return _parse(code.strip())

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card numbered ``index`` (suit-major: spades A-K are 0-12)."""
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is outside 0-51")
        return DECK[index]

    @property
    def index(self) -> int:
        """This card's number 0-51, suit-major in the order spades, hearts, diamonds, clubs."""
        return self.suit.index * 13 + self.rank - 1

    @property
    def code(self) -> str:
        """The canonical two-character code, like ``TH``."""
        return self.rank.letter + self.suit.letter

    @property
    def symbol(self) -> str:
        """The screen form, like ``10♥``."""
        return self.rank.label + self.suit.symbol

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


@cache
def _parse(code: str) -> Card:
    try:
        return Card(Rank.parse(code[:-1]), Suit.parse(code[-1:]))
    except ValueError:
        raise CardError(code) from None


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in _SUIT_ORDER for rank in Rank)
"""The 52 cards in index order."""


def parse_cards(codes: str | Iterable[str]) -> list[Card]:
    """Cards from codes, given as one space- or comma-separated string or as an iterable of codes.

    >>> parse_cards("AS,10d")
    [Card.parse('AS'), Card.parse('TD')]
    """
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return [Card.parse(code) for code in codes]
