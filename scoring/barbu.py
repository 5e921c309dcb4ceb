"""Barbu: trick winners, the seven contracts, Dominoes and doubling (its request: ``scoring.requests.barbu``).

Rules: ``docs/rules/barbu.md`` (after John McLeod's *Barbu*, pagat.com). Four seats, 0-3,
play clockwise (seat ``s`` is followed by ``(s + 1) % 4``); aces are high. A hand's raw scores always sum
to its contract's total, and doubling only moves points between two players, so the net scores do too.

>>> trick = Trick(0, tuple(parse_cards("2C 5C AC 3H")))
>>> trick.winner(), trick.winner(trump=Suit.HEARTS)
(2, 3)

No King of Hearts, declared by seat 3, played as in the fourth sample (the 52 cards in play order); seat 0
doubles seat 3, seat 2 doubles seat 3 and seat 3 redoubles seat 2:

>>> from scoring.requests.barbu import SAMPLES
>>> cards = parse_cards([code for trick in SAMPLES[3]["tricks"] for code in trick["cards"]])
>>> hand = trick_hand(Contract.NO_KING, 3, tricks_from_cards(3, cards), [Double(0, 3), Double(2, 3, True)])
>>> hand.scores, hand.net, sum(hand.net)
((-20, 0, 0, 0), (-40, 0, 0, 20), -20)
>>> for irregularity in hand.irregularities:
...     print(irregularity)
trick 6, seat 1: revoke, did not follow ♣ yet played 5♣ at trick 13
>>> trick_hand(Contract.NO_KING, 3, tricks_from_cards(3, cards), [Double(3, 1)])
Traceback (most recent call last):
...
scoring.barbu.BarbuError: seat 3 cannot double seat 1: the declarer may only redouble

Reported irregularities never change the score by themselves: the hand is scored as played, and each
broken rule that later play reveals is listed with its trick (numbered from 1) and seat, for the table to
settle. ``Hand.irregularities`` holds them, and a request's result lists them under ``"irregularities"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, NoReturn

from scoring.cards import DECK, Card, Rank, Suit, parse_cards
from scoring.requests import RequestError

__all__ = [
    "SEATS",
    "STANDARD_RULES",
    "TRICKS",
    "BarbuError",
    "Contract",
    "Dominoes",
    "Double",
    "Hand",
    "Irregularity",
    "Layout",
    "PlayedTricks",
    "REDOUBLES",
    "Rules",
    "Trick",
    "check_doubles",
    "dominoes_hand",
    "dominoes_scores",
    "high",
    "parse_cards",
    "play_tricks",
    "settle",
    "trick_hand",
    "tricks_from_cards",
]

SEATS = 4
"""Barbu is for four players, seats 0-3."""

TRICKS = 13
"""Each player holds 13 cards, so a trick contract has 13 tricks."""


class BarbuError(RequestError):
    """A hand that cannot be scored: impossible play, an illegal double, a card laid out of turn."""


class Contract(Enum):
    """The seven contracts, by their request codes.

    >>> [contract.total for contract in Contract]
    [-26, -24, -30, -30, -20, 65, 65]
    >>> Contract.parse("lt").title
    'No Last Trick'
    """

    NO_TRICKS = "NT"
    NO_QUEENS = "Q"
    NO_LAST_TRICK = "LT"
    NO_HEARTS = "H"
    NO_KING = "K"
    TRUMPS = "T"
    DOMINOES = "D"

    @property
    def title(self) -> str:
        """The contract's name for people."""
        return _TITLES[self]

    @property
    def total(self) -> int:
        """What the four raw scores of a hand of this contract add up to."""
        return _TOTALS[self]

    @classmethod
    def parse(cls, code: object) -> Contract:
        """The contract a code (NT, Q, LT, H, K, T, D, any case) names."""
        contract = _CONTRACTS.get(code.upper()) if isinstance(code, str) else None
        if contract is not None:
            return contract
        codes = ", ".join(contract.value for contract in cls)
        raise BarbuError(f"'contract' must be one of {codes}, not {code!r}")


_CONTRACTS = {contract.value: contract for contract in Contract}
_TITLES = {
    Contract.NO_TRICKS: "No Tricks",
    Contract.NO_QUEENS: "No Queens",
    Contract.NO_LAST_TRICK: "No Last Trick",
    Contract.NO_HEARTS: "No Hearts",
    Contract.NO_KING: "No King of Hearts",
    Contract.TRUMPS: "Trumps",
    Contract.DOMINOES: "Dominoes",
}
_TOTALS = {
    Contract.NO_TRICKS: -26,
    Contract.NO_QUEENS: -24,
    Contract.NO_LAST_TRICK: -30,
    Contract.NO_HEARTS: -30,
    Contract.NO_KING: -20,
    Contract.TRUMPS: 65,
    Contract.DOMINOES: 65,
}
_NO_HEART_LEADS = (Contract.NO_HEARTS, Contract.NO_KING)
"""Contracts where hearts may not be led unless the leader holds nothing else."""


REDOUBLES = ("any", "declarer")
"""Who may redouble: any player who was doubled (the standard rule), or only the declarer."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The variants a table may choose; the defaults are the standard rules (``docs/rules/barbu.md``).

    ``must_trump``: in Trumps, a player who cannot follow suit must play a trump if able (default: may
    discard). ``deal_passes_each_hand``: the deal passes left after every hand instead of after a
    player's seven. ``doubles_owed``: how often each player must double each declarer during that
    declarer's seven hands. ``redoubles``: ``"any"`` (default) lets every player who was doubled redouble
    the player who doubled them; ``"declarer"`` lets only the declarer redouble.

    >>> Rules(redoubles="nobody")
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: 'redoubles' is "any" or "declarer", not 'nobody'
    """

    must_trump: bool = False
    deal_passes_each_hand: bool = False
    doubles_owed: int = 2
    redoubles: str = "any"

    def __post_init__(self) -> None:
        if self.redoubles not in REDOUBLES:
            raise BarbuError(f"'redoubles' is \"any\" or \"declarer\", not {self.redoubles!r}")


STANDARD_RULES = Rules()
"""The standard rules, every setting at its default."""


def high(rank: Rank) -> int:
    """A rank's order in play, aces high: 2 is 0, king 11, ace 12.

    >>> high(Rank.TWO), high(Rank.KING), high(Rank.ACE)
    (0, 11, 12)
    """
    return (rank - 2) % 13


@dataclass(frozen=True, slots=True)
class Trick:
    """One trick: who led it and the four cards in play order (the i-th played by ``(leader + i) % 4``).

    >>> Trick(3, tuple(parse_cards("KS AS 2H QS"))).winner(), Trick(3, tuple(parse_cards("KS AS 2H QS"))).seat(2)
    (0, 1)
    """

    leader: int
    cards: tuple[Card, ...]

    def seat(self, position: int) -> int:
        """The seat that played the card at ``position`` (0 for the lead)."""
        return (self.leader + position) % SEATS

    def winner(self, trump: Suit | None = None) -> int:
        """The seat that wins: the highest trump if any was played, else the highest card of the suit led."""
        cards = self.cards
        suit = trump if trump is not None and any(card.suit is trump for card in cards) else cards[0].suit
        best = max((high(card.rank), position) for position, card in enumerate(cards) if card.suit is suit)
        return self.seat(best[1])


@dataclass(frozen=True, slots=True)
class Irregularity:
    """A broken rule that later play revealed.

    ``kind`` is ``revoke`` (did not follow ``suit`` while holding it), ``heart lead`` (led a heart while
    holding another suit), ``no trump`` (discarded in Trumps while holding a trump, when ``must_trump``)
    or ``pass`` (passed in Dominoes while holding a playable card). ``at`` is the trick (in Dominoes the
    turn), counted from 1, where ``seat`` broke the rule; ``shown_at`` the trick or turn where the
    player's ``card`` showed it.

    >>> print(Irregularity("revoke", 2, 3, 9, Card.parse("QS"), Suit.SPADES))
    trick 3, seat 2: revoke, did not follow ♠ yet played Q♠ at trick 9
    """

    kind: str
    seat: int
    at: int
    shown_at: int
    card: Card
    suit: Suit

    @property
    def unit(self) -> str:
        """``trick``, or ``turn`` in Dominoes."""
        return "turn" if self.kind == "pass" else "trick"

    def __str__(self) -> str:
        what = {
            "revoke": f"did not follow {self.suit.symbol} yet played",
            "heart lead": "led ♥ while holding another suit, shown by",
            "no trump": f"did not trump while holding {self.suit.symbol}, shown by",
            "pass": "passed while holding a playable card, shown by",
        }[self.kind]
        return f"{self.unit} {self.at}, seat {self.seat}: {self.kind}, {what} {self.card.symbol} at {self.unit} {self.shown_at}"

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of a result's ``irregularities`` list."""
        unit = self.unit
        return {"kind": self.kind, "seat": self.seat, unit: self.at, f"shown_in_{unit}": self.shown_at,
                "shown_by": self.card.code, "suit": self.suit.letter, "message": str(self)}


@dataclass(frozen=True, slots=True)
class PlayedTricks:
    """The trick contracts' play, checked: each trick's winner, the raw scores, and what later play showed."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    irregularities: tuple[Irregularity, ...]


def play_tricks(contract: Contract, declarer: int, tricks: Sequence[Trick], trump: Suit | None = None,
                rules: Rules = STANDARD_RULES) -> PlayedTricks:
    """Check the play of a trick contract; find each trick's winner, the raw scores, and the
    irregularities later play reveals.

    The declarer leads the first trick, the winner of each trick leads the next; the 13 tricks hold the
    52 cards once each. Otherwise this raises ``BarbuError`` naming the trick.

    >>> from scoring.requests.barbu import SAMPLES
    >>> tricks = tricks_from_cards(0, parse_cards([code for trick in SAMPLES[0]["tricks"] for code in trick["cards"]]))
    >>> play = play_tricks(Contract.NO_HEARTS, 0, tricks)
    >>> play.winners, play.scores
    ((1, 1, 0, 1, 0, 0, 3, 3, 2, 2, 3, 1, 1), (0, -12, -2, -16))
    >>> play_tricks(Contract.NO_HEARTS, 0, tricks[:12])
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: a hand of No Hearts has 13 tricks, not 12
    """
    if len(tricks) != TRICKS:
        raise BarbuError(f"a hand of {contract.title} has {TRICKS} tricks, not {len(tricks)}")
    for number, trick in enumerate(tricks, 1):
        if len(trick.cards) != SEATS:
            raise BarbuError(f"trick {number} needs {SEATS} cards, got {len(trick.cards)}")
    cards = [card.index for trick in tricks for card in trick.cards]
    return play_indices(contract, declarer, [trick.leader for trick in tricks], cards, trump, rules)


# Card facts by card index, for the play loop.
_SUIT_OF = tuple(card.suit.index for card in DECK)
_HIGH_OF = tuple(high(card.rank) for card in DECK)
_HEARTS = Suit.HEARTS.index
_KING_OF_HEARTS = Card(Rank.KING, Suit.HEARTS)

_CARD_POINTS = {
    Contract.NO_QUEENS: tuple(-6 if card.rank is Rank.QUEEN else 0 for card in DECK),
    Contract.NO_HEARTS: tuple((-6 if card.rank is Rank.ACE else -2) if card.suit is Suit.HEARTS else 0
                              for card in DECK),
    Contract.NO_KING: tuple(-20 if card == _KING_OF_HEARTS else 0 for card in DECK),
}
"""What a card (by index) counts in a won trick: -6 a queen; -2 a heart, -6 the ace; -20 the king of hearts."""
_TRICK_POINTS = {
    Contract.NO_TRICKS: (-2,) * TRICKS,
    Contract.NO_LAST_TRICK: (0,) * (TRICKS - 2) + (-10, -20),
    Contract.TRUMPS: (5,) * TRICKS,
}
"""What a trick (by number) counts: -2 each; the twelfth -10 and the thirteenth -20; +5 each."""
_NOTHING = (0,) * len(DECK)
"""No points for any card or trick."""

# The kinds of rule break later play can prove, as bits kept per seat: a suit not followed (bits 0-3, by
# suit index: a revoke, proved by a later card of that suit), a heart led (proved by a card of another
# suit), a discard in Trumps under must_trump (proved by a trump).
_HEART_LEAD = 4
_NO_TRUMP = 5
_KIND_NAMES = ("revoke",) * 4 + ("heart lead", "no trump")
_CLOCKWISE = tuple(tuple((leader + position) % SEATS for position in range(SEATS)) for leader in range(SEATS))
"""The seats in play order from each leader."""


def play_indices(contract: Contract, declarer: int, leaders: Sequence[int], cards: Sequence[int], trump: Suit | None,
          rules: Rules) -> PlayedTricks:
    """``play_tricks`` on card indices: 13 leaders, and 52 cards in play order."""
    if len(set(cards)) != len(cards):
        again = next(number for number in range(len(cards)) if cards[number] in cards[:number])
        raise BarbuError(f"card {DECK[cards[again]]} is played twice (again in trick {again // SEATS + 1})")
    trump_suit = -1 if trump is None else trump.index
    no_heart_leads = contract in _NO_HEART_LEADS
    must_trump = rules.must_trump and trump is not None
    card_points = _CARD_POINTS.get(contract)
    trick_points = _TRICK_POINTS.get(contract, _NOTHING)
    suit_of, high_of = _SUIT_OF, _HIGH_OF
    waits = [0] * SEATS  # per seat, a bit for each kind of break awaiting proof
    pending: dict[tuple[int, int], list[int]] = {}  # (seat, kind): the tricks awaiting proof
    found: list[tuple[int, int, int, int, int]] = []  # trick, seat, kind, shown at, card

    def suspect(seat: int, kind: int, number: int) -> None:
        waits[seat] |= 1 << kind
        pending.setdefault((seat, kind), []).append(number)

    def prove(seat: int, kinds: int, number: int, card: int) -> None:
        waits[seat] &= ~kinds
        for kind in range(_NO_TRUMP + 1):
            if kinds >> kind & 1:
                found.extend((at, seat, kind, number, card) for at in pending.pop((seat, kind)))

    scores = [0] * SEATS
    winners = []
    leader = declarer
    for number in range(TRICKS):
        if leaders[number] != leader:
            who = "the declarer" if number == 0 else f"the winner of trick {number}"
            raise BarbuError(f"trick {number + 1} is led by seat {leaders[number]}, but {who} is seat {leader}")
        trick = cards[number * SEATS:number * SEATS + SEATS]
        led = best_suit = suit_of[trick[0]]
        best_high = -1
        best = leader
        for seat, card in zip(_CLOCKWISE[leader], trick, strict=False):  # both are four long
            suit = suit_of[card]
            waiting = waits[seat]
            if waiting:
                kinds = (waiting & 1 << suit | (waiting & 1 << _HEART_LEAD if suit != _HEARTS else 0)
                         | (waiting & 1 << _NO_TRUMP if suit == trump_suit else 0))
                if kinds:
                    prove(seat, kinds, number, card)
            if suit == best_suit:
                if high_of[card] > best_high:
                    best_high, best = high_of[card], seat
            elif suit == trump_suit:
                best_suit, best_high, best = suit, high_of[card], seat
            if suit != led:
                suspect(seat, led, number)
                if must_trump and suit != trump_suit and led != trump_suit:
                    suspect(seat, _NO_TRUMP, number)
        if no_heart_leads and led == _HEARTS:
            suspect(leader, _HEART_LEAD, number)
        leader = best
        winners.append(leader)
        scores[leader] += trick_points[number]
        if card_points is not None:
            scores[leader] += sum([card_points[card] for card in trick])
    suit_shown = {_HEART_LEAD: Suit.HEARTS, _NO_TRUMP: trump}
    irregularities = tuple(Irregularity(_KIND_NAMES[kind], seat, at + 1, shown + 1, DECK[card],
                                        suit_shown.get(kind) or _SUITS[kind])
                           for at, seat, kind, shown, card in sorted(found))
    return PlayedTricks(tuple(winners), tuple(scores), irregularities)


def tricks_from_cards(declarer: int, cards: Sequence[Card], trump: Suit | None = None) -> tuple[Trick, ...]:
    """The tricks of 52 cards given in play order: the declarer leads the first, each winner the next.

    >>> tricks = tricks_from_cards(1, parse_cards("2C 5C AC 3H  4D 5D 6D 7D"))
    >>> [(trick.leader, trick.winner()) for trick in tricks]
    [(1, 3), (3, 2)]
    """
    tricks = []
    leader = declarer
    for start in range(0, len(cards), SEATS):
        trick = Trick(leader, tuple(cards[start:start + SEATS]))
        tricks.append(trick)
        if len(trick.cards) == SEATS:
            leader = trick.winner(trump)
    return tuple(tricks)


_DOMINOES_POINTS = (45, 20, 5, -5)
"""Dominoes: first out +45, second +20, third +5, last -5."""


def dominoes_scores(order: Sequence[int]) -> tuple[int, ...]:
    """The raw scores of Dominoes from the seats in finishing order.

    >>> dominoes_scores([2, 0, 3, 1])
    (20, -5, 45, 5)
    """
    check_order(order)
    scores = [0] * SEATS
    for seat, points in zip(order, _DOMINOES_POINTS, strict=True):
        scores[seat] = points
    return tuple(scores)


def check_order(order: Sequence[int]) -> None:
    if sorted(order) != list(range(SEATS)):
        raise BarbuError(f"the finishing order names each seat 0-3 once, not {list(order)}")


Layout = tuple[tuple[int, int] | None, ...]
"""A Dominoes layout: each suit's lowest and highest ``high`` rank laid, or None, in suit index order."""


@dataclass(frozen=True, slots=True)
class Dominoes:
    """A hand of Dominoes as it is laid out, one turn at a time, starting with the declarer.

    A card may be laid if it is of the starting rank, or of a suit already on the layout and next in rank
    (aces high, twos low) to that suit's lowest or highest card. A player who cannot lay a card passes;
    a player who has laid all 13 is out, and the turn skips them.

    >>> play = Dominoes.begin(declarer=1, start=Rank.FIVE)
    >>> play = play.lay(Card.parse("5H")).lay(Card.parse("6H")).pass_turn().lay(Card.parse("5S"))
    >>> sorted(card.code for card in play.playable()), play.to_play
    (['4H', '4S', '5C', '5D', '6S', '7H'], 1)
    >>> play.lay(Card.parse("8H"))
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: turn 5: 8H cannot be laid (playable: 4H 4S 5C 5D 6S 7H)
    """

    declarer: int
    start: Rank
    to_play: int
    layout: Layout = (None,) * 4
    """Each suit's lowest and highest card on the layout, as ``high`` ranks, or None (suit index order)."""
    held: tuple[int, ...] = (TRICKS,) * SEATS
    turns: int = 0
    order: tuple[int, ...] = ()
    passes: tuple[tuple[int, int, int], ...] = ()
    """Each pass not yet shown wrong: the seat, the turn, and the cards it could have laid then (a bit
    for each card index)."""
    irregularities: tuple[Irregularity, ...] = ()

    @classmethod
    def begin(cls, declarer: int, start: Rank) -> Dominoes:
        """A new layout: the declarer names the starting rank and plays first."""
        _check_seat(declarer, "declarer")
        return cls(declarer, start, declarer)

    @property
    def over(self) -> bool:
        """Whether every card is laid."""
        return len(self.order) == SEATS

    def playable(self) -> frozenset[Card]:
        """The cards that may be laid now."""
        playable = _playable(self.layout, high(self.start))
        return frozenset(card for card in DECK if playable >> card.index & 1)

    def lay(self, card: Card) -> Dominoes:
        """The layout after the player to play lays ``card``; a card that may not be laid is an error."""
        return self.play([card])

    def pass_turn(self) -> Dominoes:
        """The layout after the player to play passes, having (they say) no card that may be laid."""
        return self.play([None])

    def play(self, plays: Iterable[Card | None]) -> Dominoes:
        """The layout after several turns: each a card laid, or None for a pass.

        >>> Dominoes.begin(0, Rank.SEVEN).play([Card.parse("7D"), None, Card.parse("6D")]).layout
        (None, None, (4, 5), None)
        """
        return self.play_turns([PASS if card is None else card.index for card in plays])

    def play_turns(self, plays: Iterable[int]) -> Dominoes:
        """``play`` with each card laid given by its index, and a pass by ``PASS``."""
        layout = list(self.layout)
        held = list(self.held)
        order = list(self.order)
        passes = [[item for item in self.passes if item[0] == seat] for seat in range(SEATS)]
        found = list(self.irregularities)
        seat, turn, start = self.to_play, self.turns, self.start
        first = high(start)
        suit_of, high_of = _SUIT_OF, _HIGH_OF
        for index in plays:
            turn += 1
            if len(order) == SEATS:
                raise BarbuError(f"turn {turn}: every card is already laid")
            if index == PASS:
                passes[seat].append((seat, turn, _playable(layout, first)))
            else:
                suit, rank = suit_of[index], high_of[index]
                ends = layout[suit]
                if ends is None:
                    if rank != first:
                        self._refuse(turn, DECK[index], layout)
                    layout[suit] = (rank, rank)
                elif rank == ends[0] - 1:
                    layout[suit] = (rank, ends[1])
                elif rank == ends[1] + 1:
                    layout[suit] = (ends[0], rank)
                else:
                    self._refuse(turn, DECK[index], layout)
                held[seat] -= 1
                if held[seat] == 0:
                    order.append(seat)
                if passes[seat]:
                    shown = [item for item in passes[seat] if item[2] >> index & 1]
                    found += [Irregularity("pass", seat, at, turn, DECK[index], _SUITS[suit]) for _, at, _ in shown]
                    passes[seat] = [item for item in passes[seat] if item not in shown]
            for step in range(1, SEATS + 1):  # the next player clockwise who still holds cards
                if held[(seat + step) % SEATS]:
                    seat = (seat + step) % SEATS
                    break
        every_pass = tuple(sorted((item for items in passes for item in items), key=lambda item: item[1]))
        return Dominoes(self.declarer, start, seat, tuple(layout), tuple(held), turn, tuple(order), every_pass,
                        tuple(found))

    def _refuse(self, turn: int, card: Card, layout: Sequence[tuple[int, int] | None]) -> NoReturn:
        ends = layout[card.suit.index]
        if ends is not None and ends[0] <= high(card.rank) <= ends[1]:
            raise BarbuError(f"turn {turn}: {card} is already on the layout")
        mask = _playable(layout, high(self.start))
        playable = " ".join(sorted(card.code for card in DECK if mask >> card.index & 1))
        raise BarbuError(f"turn {turn}: {card} cannot be laid (playable: {playable})")

    def hand(self, doubles: Iterable[Double] = (), rules: Rules = STANDARD_RULES) -> Hand:
        """The finished hand, scored by the finishing order, with any irregularities the play showed."""
        if not self.over:
            laid = SEATS * TRICKS - sum(self.held)
            raise BarbuError(f"the layout is not finished: {laid} of 52 cards laid")
        return dominoes_hand(self.declarer, self.order, doubles, self.irregularities, self.start, rules)


PASS = -1
"""A pass, among the card indices of Dominoes turns."""


def _playable(layout: Sequence[tuple[int, int] | None], first: int) -> int:
    """The cards that may be laid on ``layout``, a bit for each card index: of the starting rank
    (``high`` rank ``first``) in a suit not yet begun, else next to a suit's lowest or highest card."""
    playable = 0
    for suit, ends in enumerate(layout):
        ranks = (first,) if ends is None else (ends[0] - 1, ends[1] + 1)
        for rank in ranks:
            if 0 <= rank <= 12:
                playable |= 1 << (suit * 13 + (rank + 1) % 13)
    return playable


_SUITS = tuple(Suit)
"""The suits in index order (spades, hearts, diamonds, clubs)."""


@dataclass(frozen=True, slots=True)
class Double:
    """Seat ``by`` doubled seat ``on``; ``redoubled`` if ``on`` redoubled ``by``.

    The difference between the two raw scores goes to the higher and is taken from the lower; a redouble
    makes it twice the difference.

    >>> Double(1, 0, redoubled=True).amount((-10, -2, 0, -18))
    16
    """

    by: int
    on: int
    redoubled: bool = False

    def amount(self, scores: Sequence[int]) -> int:
        """The points ``by`` gains from ``on`` (negative: that ``on`` gains from ``by``)."""
        return (scores[self.by] - scores[self.on]) * (2 if self.redoubled else 1)


def check_doubles(declarer: int, doubles: Iterable[Double], rules: Rules = STANDARD_RULES) -> tuple[Double, ...]:
    """The doubles of a hand, checked: a non-declarer may double any other player, and a pair of players
    doubles once; a player who was doubled may redouble (under ``Rules(redoubles="declarer")`` only the
    declarer may), and the declarer may only redouble.

    >>> check_doubles(0, [Double(1, 2), Double(2, 1)])
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: seats 2 and 1 cannot double each other: a pair doubles once (seat 2 may redouble seat 1)
    >>> check_doubles(0, [Double(1, 0, redoubled=True), Double(1, 2, redoubled=True)])[1]
    Double(by=1, on=2, redoubled=True)
    >>> check_doubles(0, [Double(1, 2, redoubled=True)], Rules(redoubles="declarer"))
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: seat 2 cannot redouble seat 1: only the declarer (seat 0) redoubles
    """
    checked: dict[tuple[int, int], Double] = {}  # by the pair's seats in order
    for double in doubles:
        by, on = double.by, double.on
        if by not in _SEAT_SET or on not in _SEAT_SET:
            raise BarbuError(f"a double's seats must be seats 0-3, not {by!r} and {on!r}")
        if by == on:
            raise BarbuError(f"seat {by} cannot double themself")
        if by == declarer:
            raise BarbuError(f"seat {by} cannot double seat {on}: the declarer may only redouble")
        if double.redoubled and on != declarer and rules.redoubles == "declarer":
            raise BarbuError(f"seat {on} cannot redouble seat {by}: only the declarer (seat {declarer}) redoubles")
        pair = (by, on) if by < on else (on, by)
        if pair in checked:
            if checked[pair].by == by:
                raise BarbuError(f"seat {by} doubles seat {on} twice")
            instead = f" (seat {by} may redouble seat {on})" if rules.redoubles == "any" else ""
            raise BarbuError(f"seats {by} and {on} cannot double each other: a pair doubles once{instead}")
        checked[pair] = double
    return tuple(checked.values())


_SEAT_SET = frozenset(range(SEATS))


def settle(scores: Sequence[int], doubles: Iterable[Double]) -> tuple[int, ...]:
    """The net scores after doubling: each double moves its amount between its two players.

    >>> settle((-10, -2, 0, -18), [Double(1, 0, redoubled=True), Double(3, 0), Double(3, 2)])
    (-18, 14, 18, -44)
    """
    net = list(scores)
    for double in doubles:
        amount = double.amount(scores)
        net[double.by] += amount
        net[double.on] -= amount
    return tuple(net)


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand, settled: its raw scores, doubles and what the play showed.

    ``winners`` (trick contracts) is each trick's winner; ``order`` (Dominoes) the finishing order.
    """

    contract: Contract
    declarer: int
    scores: tuple[int, ...]
    doubles: tuple[Double, ...] = ()
    irregularities: tuple[Irregularity, ...] = ()
    winners: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    trump: Suit | None = None
    start: Rank | None = None
    net: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "net", settle(self.scores, self.doubles))


def _check_seat(seat: object, what: str) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < SEATS:
        raise BarbuError(f"{what} must be a seat 0-3, not {seat!r}")


def trick_hand(contract: Contract, declarer: int, tricks: Sequence[Trick], doubles: Iterable[Double] = (),
               trump: Suit | None = None, rules: Rules = STANDARD_RULES) -> Hand:
    """A trick contract's hand, checked and settled.

    Seat 0 holds every spade and leads them one by one, winning every trick:

    >>> tricks = tricks_from_cards(0, parse_cards(" ".join(r + s for r in "AKQJT98765432" for s in "SHDC")))
    >>> trick_hand(Contract.TRUMPS, 0, tricks, trump=Suit.SPADES).scores
    (65, 0, 0, 0)
    >>> trick_hand(Contract.TRUMPS, 0, tricks, trump=Suit.CLUBS).scores
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: trick 2 is led by seat 0, but the winner of trick 1 is seat 3
    """
    check_trick_contract(contract, declarer, trump)
    checked = check_doubles(declarer, doubles, rules)
    return hand_of(contract, declarer, checked, trump, play_tricks(contract, declarer, tricks, trump, rules))


def check_trick_contract(contract: Contract, declarer: int, trump: Suit | None) -> None:
    _check_seat(declarer, "declarer")
    if contract is Contract.DOMINOES:
        raise BarbuError("Dominoes is laid out, not played in tricks")
    if (trump is None) == (contract is Contract.TRUMPS):
        raise BarbuError("Trumps needs a trump suit" if trump is None else f"{contract.title} has no trumps")


def hand_of(contract: Contract, declarer: int, doubles: tuple[Double, ...], trump: Suit | None,
                play: PlayedTricks) -> Hand:
    return Hand(contract, declarer, play.scores, doubles, play.irregularities, play.winners, trump=trump)


def dominoes_hand(declarer: int, order: Sequence[int], doubles: Iterable[Double] = (),
                  irregularities: Sequence[Irregularity] = (), start: Rank | None = None,
                  rules: Rules = STANDARD_RULES) -> Hand:
    """A hand of Dominoes, settled from the finishing order.

    >>> dominoes_hand(0, [1, 2, 3, 0], [Double(1, 0)]).net
    (-55, 95, 20, 5)
    """
    _check_seat(declarer, "declarer")
    return Hand(Contract.DOMINOES, declarer, dominoes_scores(order), check_doubles(declarer, doubles, rules),
                tuple(irregularities), order=tuple(order), start=start)
