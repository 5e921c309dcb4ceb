"""Open-Face Chinese Poker: rows, fouls, royalties, pairwise settlement and Fantasyland.

Each player sets 13 cards in three rows: a three-card front, a five-card middle and a five-card back
(hands valued by ``scoring.poker``). A board is fouled unless back >= middle >= front. Players settle
pairwise, each with each other (the rules' "multi-way scoring"):

>>> a = Board.parse("6S 6H 2D / 9C 9D 4S 4H 2C / KD KC 8S 8H 3C")
>>> b = Board.parse("5S 5H 3D / 8C 8D 7S 7H 2S / 3S 4D 5D 6C 7D")
>>> result = settle([a, b])
>>> result.net  # the rules' tie: a wins front and middle (+1) with 66 (+1), b's straight back is +2
(0, 0)
>>> settle([a, Board.parse("QS QH 7D / QD QC 6D 5S 4D / AS AH AD 2H 2S")]).net  # QQ7 over QQ654: a foul
(7, -7)

The standard rules are the default; the 2-4 scoring method, progressive Fantasyland and Pineapple are
``Rules`` settings. ``scoring.requests.ofc`` is the JSON form the ``tablescore score ofc`` command uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from scoring.cards import DECK, Card, parse_cards
from scoring.poker import Category, category, ranks_of, value3, value5
from scoring.requests import check_distinct

__all__ = [
    "ROWS",
    "Board",
    "Hand",
    "Pair",
    "Rules",
    "Settlement",
    "assess",
    "fantasyland_cards",
    "pair",
    "royalty",
    "settle",
]

ROWS = ("front", "middle", "back")
SIZES = {"front": 3, "middle": 5, "back": 5}
SPANS = (slice(0, 3), slice(3, 8), slice(8, 13))  # where each row's cards are in a board's 13
CODES = tuple(card.code for card in DECK)  # card codes by ``Card.index``
Method = Literal["1-6", "2-4"]
METHODS: tuple[Method, ...] = ("1-6", "2-4")


@dataclass(frozen=True)
class Rules:
    """The settings a table plays by; the defaults are the standard game.

    - ``scoring``: ``"1-6"`` (1 a row, 3 more for a scoop: 6 in all) or ``"2-4"`` (1 a row and 1 more for
      winning more rows: a scoop is 4).
    - ``progressive``: progressive Fantasyland, one more card for each step above QQ (KK, AA, trips).
    - ``pineapple``: Pineapple OFC, whose Fantasyland deals 14 cards instead of 13.
    """

    scoring: Method = "1-6"
    progressive: bool = False
    pineapple: bool = False

    def __post_init__(self) -> None:
        if self.scoring not in METHODS:
            raise ValueError(f"scoring is one of {', '.join(METHODS)}, not {self.scoring!r}")


@dataclass(frozen=True)
class Board:
    """One player's 13 cards: front (3), middle (5) and back (5), every card different.

    >>> board = Board.parse("qs qh 7d / QD QC 9S 8S 2S / A♠ A♥ A♦ 2♥ 2♦")
    >>> board.front
    (Card.parse('QS'), Card.parse('QH'), Card.parse('7D'))
    >>> str(board)
    'QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D'
    """

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    indices: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The 13 cards' ``Card.index`` numbers, front to back, worked out once."""

    def __post_init__(self) -> None:
        for name, cards in zip(ROWS, self.rows, strict=True):
            if len(cards) != SIZES[name]:
                raise ValueError(f"the {name} row needs {SIZES[name]} cards, got {len(cards)}")
        object.__setattr__(self, "indices", tuple(card.index for row in self.rows for card in row))
        if len(set(self.indices)) != 13:
            check_distinct(dict(zip(ROWS, self.rows, strict=True)))

    @property
    def rows(self) -> tuple[tuple[Card, ...], ...]:
        """Front, middle and back."""
        return self.front, self.middle, self.back

    @classmethod
    def parse(cls, text: str) -> Board:
        """A board written as its three rows separated by ``/``: front / middle / back."""
        rows = text.split("/")
        if len(rows) != 3:
            raise ValueError(f"a board is three rows separated by '/' (front / middle / back), not {text!r}")
        front, middle, back = (tuple(parse_cards(row)) for row in rows)
        return cls(front, middle, back)

    def __str__(self) -> str:
        return " / ".join(" ".join(card.code for card in row) for row in self.rows)


# The royalty chart (docs/rules/ofc.md). Back and middle rows pay by category, a royal flush more than any
# other straight flush; the front pays a pair of sixes or better and any three of a kind.
ROYAL_FLUSH = "royal flush"
BACK_ROYALTIES: dict[Category | str, int] = {
    Category.STRAIGHT: 2, Category.FLUSH: 4, Category.FULL_HOUSE: 6, Category.FOUR_OF_A_KIND: 10,
    Category.STRAIGHT_FLUSH: 15, ROYAL_FLUSH: 25,
}
MIDDLE_ROYALTIES: dict[Category | str, int] = {
    Category.THREE_OF_A_KIND: 2, Category.STRAIGHT: 4, Category.FLUSH: 8, Category.FULL_HOUSE: 12,
    Category.FOUR_OF_A_KIND: 20, Category.STRAIGHT_FLUSH: 30, ROYAL_FLUSH: 50,
}


def royalty(row: str, hand_value: int) -> int:
    """The royalty a row's hand earns on a board that is not fouled.

    >>> from scoring.poker import value
    >>> royalty("front", value(parse_cards("6S 6H 2D"))), royalty("front", value(parse_cards("AS AH AD")))
    (1, 22)
    >>> royalty("middle", value(parse_cards("AH KH QH JH TH"))), royalty("back", value(parse_cards("AH KH QH JH TH")))
    (50, 25)
    """
    kind, top = category(hand_value), hand_value >> 16 & 15  # the rank of the set, or the high card
    if row == "front":
        if kind is Category.PAIR:
            return max(top - 5, 0)  # 66 = 1 ... AA = 9
        return top + 8 if kind is Category.THREE_OF_A_KIND else 0  # 222 = 10 ... AAA = 22
    chart = MIDDLE_ROYALTIES if row == "middle" else BACK_ROYALTIES
    royal = kind is Category.STRAIGHT_FLUSH and top == 14
    return chart.get(ROYAL_FLUSH if royal else kind, 0)


@dataclass(frozen=True)
class Hand:
    """A board assessed: its rows' values, whether it fouled, its royalties and Fantasyland.

    ``fantasyland``: qualifies to go to Fantasyland (QQ or better in front, not fouled).
    ``stays``: would stay in Fantasyland (trips in front, or quads or better in the back; not fouled).
    """

    board: Board
    values: tuple[int, int, int]
    fouled: bool
    royalties: tuple[int, int, int]
    fantasyland: bool
    stays: bool

    @property
    def royalty(self) -> int:
        """The board's total royalties (0 when fouled)."""
        return sum(self.royalties)


QUEENS = 12


def assess(board: Board) -> Hand:
    """Value a board's rows and decide its foul, royalties and Fantasyland.

    >>> hand = assess(Board.parse("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"))
    >>> hand.fouled, hand.royalties, hand.fantasyland, hand.stays
    (False, (7, 0, 6), True, False)
    """
    cards = board.indices
    front, middle, back = values = (value3(cards[SPANS[0]]), value5(cards[SPANS[1]]), value5(cards[SPANS[2]]))
    fouled = not back >= middle >= front
    royalties = (0, 0, 0) if fouled else (royalty("front", front), royalty("middle", middle), royalty("back", back))
    front_kind = category(front)
    fantasyland = not fouled and (
        front_kind is Category.THREE_OF_A_KIND or front_kind is Category.PAIR and ranks_of(front)[0] >= QUEENS
    )
    stays = not fouled and (front_kind is Category.THREE_OF_A_KIND or category(back) >= Category.FOUR_OF_A_KIND)
    return Hand(board, values, fouled, royalties, fantasyland, stays)


def fantasyland_cards(hand: Hand, rules: Rules, in_fantasyland: bool = False) -> int:
    """How many cards the player is dealt at once next hand in Fantasyland, or 0 if they are not in it.

    A player in Fantasyland this hand stays there if ``hand.stays``; anyone else goes there if
    ``hand.fantasyland``. Progressive Fantasyland deals one more card for KK, two for AA, three for trips,
    on the way in (staying gets the plain number).

    >>> queens = assess(Board.parse("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"))
    >>> fantasyland_cards(queens, Rules()), fantasyland_cards(queens, Rules(pineapple=True))
    (13, 14)
    >>> aces = assess(Board.parse("AS AH 7D / QD QC 9S 9H 2S / KS KH KD 2H 2D"))
    >>> fantasyland_cards(aces, Rules(progressive=True)), fantasyland_cards(aces, Rules(), in_fantasyland=True)
    (15, 0)
    """
    base = 14 if rules.pineapple else 13
    if in_fantasyland:
        return base if hand.stays else 0
    if not hand.fantasyland:
        return 0
    front = hand.values[0]
    step = 3 if category(front) is Category.THREE_OF_A_KIND else ranks_of(front)[0] - QUEENS
    return base + step if rules.progressive else base


def _sign(number: int) -> int:
    return (number > 0) - (number < 0)


@dataclass(frozen=True)
class Pair:
    """How two players settle, from the first one's side: +1 a row they win, -1 a row they lose.

    ``scoop``: +3 or -3 for winning or losing all three rows (1-6 scoring); ``overall``: +1 or -1 for
    winning more rows (2-4 scoring); ``royalties``: the first player's royalties less the second's.
    """

    players: tuple[int, int]
    rows: tuple[int, ...]
    scoop: int
    overall: int
    royalties: int

    @property
    def points(self) -> int:
        """What the second player pays the first (negative: the first pays)."""
        return sum(self.rows) + self.scoop + self.overall + self.royalties


def pair(first: Hand, second: Hand, rules: Rules, players: tuple[int, int] = (0, 1)) -> Pair:
    """Settle two hands. A fouled hand loses every row to a good one; two fouled hands tie every row.

    >>> good = assess(Board.parse("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"))
    >>> bad = assess(Board.parse("KS KH 7H / KD KC 6S 5S 4S / 3S 3H 3D 2C 8D"))
    >>> pair(good, bad, Rules()).points, pair(good, bad, Rules(scoring="2-4")).points
    (19, 17)
    """
    rows: tuple[int, ...]
    if first.fouled or second.fouled:
        rows = (_sign(second.fouled - first.fouled),) * 3
    else:
        rows = tuple(_sign(a - b) for a, b in zip(first.values, second.values, strict=True))
    balance = rows.count(1) - rows.count(-1)
    scoop = 3 * _sign(balance) if rules.scoring == "1-6" and abs(balance) == 3 else 0
    overall = _sign(balance) if rules.scoring == "2-4" else 0
    return Pair(players, rows, scoop, overall, first.royalty - second.royalty)


@dataclass(frozen=True)
class Settlement:
    """A hand settled: each board assessed, each pair of players settled, and each player's net points.

    ``pairs`` run in the rules' order: the first player settles with each later one, then the second...
    """

    rules: Rules
    hands: tuple[Hand, ...]
    pairs: tuple[Pair, ...]
    net: tuple[int, ...]
    fantasyland_cards: tuple[int, ...]
    in_fantasyland: tuple[bool, ...]


def settle(boards: Sequence[Board], rules: Rules = Rules(), in_fantasyland: Sequence[bool] = ()) -> Settlement:
    """Settle 2 to 4 boards with each other. ``in_fantasyland``: who played this hand in Fantasyland.
    A card on two boards is named by seat, counted from 0 as every engine counts seats.

    >>> settle([Board.parse("2S 3H 4D / 5C 6C 7C 8C TC / 9S 9H 9D JS JH")] * 1)
    Traceback (most recent call last):
    ...
    ValueError: a hand is settled among 2 to 4 players, not 1
    >>> settle([Board.parse("2S 3H 4D / 5C 6C 7C 8C TC / 9S 9H 9D JS JH")] * 2)
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: card 2S is used twice (in 'seat 0 front' and 'seat 1 front')
    """
    if not 2 <= len(boards) <= 4:
        raise ValueError(f"a hand is settled among 2 to 4 players, not {len(boards)}")
    flags = tuple(in_fantasyland) or (False,) * len(boards)
    if len(flags) != len(boards):
        raise ValueError(f"in_fantasyland has {len(flags)} entries for {len(boards)} players")
    if len({index for board in boards for index in board.indices}) != 13 * len(boards):
        check_distinct({f"seat {i} {name}": row for i, board in enumerate(boards) for name, row in
                        zip(ROWS, board.rows, strict=True)})
    hands = tuple(assess(board) for board in boards)
    count = len(hands)
    pairs = tuple(pair(hands[i], hands[j], rules, (i, j)) for i in range(count) for j in range(i + 1, count))
    net = [0] * count
    for settled in pairs:
        first, second = settled.players
        net[first] += settled.points
        net[second] -= settled.points
    cards = tuple(fantasyland_cards(hand, rules, flag) for hand, flag in zip(hands, flags, strict=True))
    return Settlement(rules, hands, pairs, tuple(net), cards, flags)
