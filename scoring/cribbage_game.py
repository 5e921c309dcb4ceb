"""A game of Cribbage as a sequence of events, keeping the score as the table does.

A game is an immutable ``Game``; ``game.apply(event)`` returns the game after the event, or raises
``GameError`` saying why the event cannot happen (the game it was applied to is unchanged). Each hand
runs: ``Deal``, a ``Discard`` from each seat, the ``Starter``, each card laid (``Lay``) or ``Go``
said in turn, then the show in order: ``ShowHand`` for each seat from the dealer's left round to the
dealer, and ``ShowCrib``. The game ends the moment a side reaches the target, even mid-count.

Discards go to the crib face down, so a scorer that only sees the table may give a ``Discard`` without
its cards and name the crib's cards when it is turned up at the show (``ShowCrib(cards)``).

Seats are numbered 0 to players-1 clockwise; play starts at the dealer's left. With four players in
partnership, seats 0 and 2 are one side and 1 and 3 the other; otherwise each seat is a side.

>>> from scoring.cards import Card, parse_cards
>>> game = new_game().apply(Deal(dealer=1))
>>> game = game.apply(Discard(0, tuple(parse_cards("KH KD")))).apply(Discard(1, tuple(parse_cards("2C 3C"))))
>>> game = game.apply(Starter(Card.parse("JD")))
>>> game.scores, [str(peg) for peg in game.last]
((0, 2), ['seat 1: his heels 2'])
>>> game = play(game, [Lay(0, Card.parse("KS")), Lay(1, Card.parse("TH")), Lay(0, Card.parse("9S"))])
>>> game.count, game.turn
(29, 1)
>>> game = play(game, [Go(1), Go(0)])
>>> game.count, game.turn, [str(peg) for peg in game.last]
(0, 1, ['seat 0: go 1'])
>>> game = play(game, [Lay(1, Card.parse("6D")), Lay(0, Card.parse("AC")), Lay(1, Card.parse("8D"))])
>>> [str(peg) for peg in game.last]
['seat 1: play 2 (fifteen two: 6♦ A♣ 8♦)']
>>> game = play(game, [Lay(0, Card.parse("5H")), Lay(1, Card.parse("9H"))])
>>> game.scores, game.phase, [str(peg) for peg in game.last]
((1, 5), <Phase.SHOW: 'show'>, ['seat 1: last card 1'])
>>> game = game.apply(ShowHand(0))
>>> print(game.last[0])
seat 0: hand 6 (fifteen two: 5♥ J♦; fifteen two: 5♥ K♠; fifteen two: A♣ 5♥ 9♠)
>>> game = game.apply(ShowHand(1)).apply(ShowCrib())
>>> game.scores, game.phase
((7, 19), <Phase.DEAL: 'deal'>)
>>> game.apply(Deal(dealer=1))
Traceback (most recent call last):
...
scoring.cribbage_game.GameError: the deal passes to the left: seat 0 deals, not seat 1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from scoring.cards import Card, Rank
from scoring.cribbage import HAND_SIZE, Item, PeggingError, peg, pegging_count, show
from scoring.errors import RuleError
from scoring.events import Record

__all__ = [
    "Deal", "Discard", "Event", "Game", "GameError", "Go", "Lay", "Outcome", "Peg", "Phase", "Settings",
    "ShowCrib", "ShowHand", "Starter", "new_game", "play",
]

_SKUNK_LINES = {121: (91, 61), 61: (31, None)}
"""For each target: a loser below the first line is skunked, below the second double skunked.
The 61-point game's "lurch" is failing to reach 31; it has no double."""


class GameError(RuleError):
    """An event that cannot happen in the game as it stands."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The game's settings: standard two-player 121-point Cribbage by default.

    ``partners`` applies to four players, who play in partnership (the standard four-handed game)
    unless it is False.

    >>> Settings(players=4).sides, Settings(players=4, partners=False).sides, Settings(target=61).skunk_lines
    (2, 4, (31, None))
    >>> Settings(players=5)
    Traceback (most recent call last):
    ...
    scoring.cribbage_game.GameError: Cribbage is for 2, 3 or 4 players, not 5
    """

    players: int = 2
    target: int = 121
    partners: bool | None = None

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise GameError(f"Cribbage is for 2, 3 or 4 players, not {self.players}")
        if self.target not in _SKUNK_LINES:
            raise GameError(f"the game is to 121 or 61 points, not {self.target}")
        if self.partners and self.players != 4:
            raise GameError("partnership play needs four players")

    @property
    def in_partnership(self) -> bool:
        """Whether seats opposite each other score together."""
        return self.players == 4 and self.partners is not False

    @property
    def sides(self) -> int:
        """How many scores are kept."""
        return 2 if self.in_partnership else self.players

    @property
    def skunk_lines(self) -> tuple[int, int | None]:
        """A loser below the first is skunked, below the second (if any) double skunked."""
        return _SKUNK_LINES[self.target]

    def side(self, seat: int) -> int:
        """The side ``seat`` scores for."""
        return seat % 2 if self.in_partnership else seat

    def discards(self, seat: int, dealer: int) -> int:
        """Cards ``seat`` puts in the crib: two each with two players, else one each, and with three
        players the dealer also puts in the card dealt from the pack to the crib."""
        if self.players == 2:
            return 2
        return 2 if self.players == 3 and seat == dealer else 1


# --- events -----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Deal:
    """A new hand, dealt by ``dealer`` (the deal then passes to the left each hand)."""

    dealer: int

    def record(self) -> Record:
        return "deal", {"dealer": self.dealer}


@dataclass(frozen=True, slots=True)
class Discard:
    """``seat`` puts ``cards`` in the crib (with three players the dealer's include the pack's card);
    without ``cards``, face down: they are named when the crib is shown."""

    seat: int
    cards: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Starter:
    """The starter is cut and turned; a Jack scores his heels, 2 to the dealer."""

    card: Card

    def record(self) -> Record:
        return "starter", {"card": self.card.code}


@dataclass(frozen=True, slots=True)
class Lay:
    """``seat`` lays ``card`` in the play."""

    seat: int
    card: Card

    def record(self) -> Record:
        return "lay", {"seat": self.seat, "card": self.card.code}


@dataclass(frozen=True, slots=True)
class Go:
    """``seat``, whose turn it is, cannot lay without passing 31."""

    seat: int

    def record(self) -> Record:
        return "go", {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class ShowHand:
    """``seat`` counts its hand (the four cards it laid) with the starter."""

    seat: int

    def record(self) -> Record:
        return "show", {"seat": self.seat}


@dataclass(frozen=True, slots=True)
class ShowCrib:
    """The dealer counts the crib with the starter; ``cards`` names the crib as it is turned up (needed
    when cards went in face down, else checked against the crib)."""

    cards: tuple[Card, ...] | None = None

    def record(self) -> Record:
        return "crib", {} if self.cards is None else {"cards": [card.code for card in self.cards]}


Event = Deal | Discard | Starter | Lay | Go | ShowHand | ShowCrib


# --- results ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Peg:
    """Points pegged by ``seat``: for what (``play``, ``go``, ``last card``, ``his heels``, ``hand``,
    ``crib``) and, for the play and the show, the itemised combinations."""

    seat: int
    reason: str
    points: int
    items: tuple[Item, ...] = ()

    def __str__(self) -> str:
        detail = f" ({'; '.join(map(str, self.items))})" if self.items else ""
        return f"seat {self.seat}: {self.reason} {self.points}{detail}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: the winning side, the final scores, and each side's skunk if any."""

    winner: int
    scores: tuple[int, ...]
    skunks: tuple[str | None, ...]


class Phase(Enum):
    """What the game waits for next."""

    DEAL = "deal"
    DISCARD = "discard"
    STARTER = "starter"
    PLAY = "play"
    SHOW = "show"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Game:
    """A game's state: the scores, and where the current hand stands. Change it only by ``apply``."""

    settings: Settings = Settings()
    scores: tuple[int, ...] = ()
    phase: Phase = Phase.DEAL
    dealer: int | None = None
    crib: tuple[Card, ...] = ()
    discarded: frozenset[int] = frozenset()
    starter: Card | None = None
    laid: tuple[tuple[Card, ...], ...] = ()
    """The cards each seat has laid this hand: at the show, its hand."""
    run: tuple[Card, ...] = ()
    """The cards laid since the count was last reset."""
    turn: int = 0
    passed: frozenset[int] = frozenset()
    """Seats that have said go since the count was last reset."""
    last_to_lay: int = 0
    shown: int = 0
    """How many of the hands and crib have been counted in this show."""
    hidden: int = 0
    """How many cards went in the crib face down, not yet named."""
    last: tuple[Peg, ...] = field(default=(), compare=False)
    """What the latest event scored."""

    def __post_init__(self) -> None:
        if len(self.scores) != self.settings.sides:
            object.__setattr__(self, "scores", (0,) * self.settings.sides)

    @property
    def count(self) -> int:
        """The count in the play: the cards laid since the last reset."""
        return pegging_count(self.run)

    @property
    def outcome(self) -> Outcome | None:
        """The result once a side has reached the target, else None."""
        if self.phase is not Phase.OVER:
            return None
        winner = max(range(len(self.scores)), key=self.scores.__getitem__)
        skunk, double = self.settings.skunk_lines
        skunks = tuple(None if side == winner or score >= skunk else
                       "double skunk" if double is not None and score < double else "skunk"
                       for side, score in enumerate(self.scores))
        return Outcome(winner, self.scores, skunks)

    def apply(self, event: Event) -> Game:
        """The game after ``event``; raises GameError (leaving this game as it was) if it cannot happen."""
        if self.phase is Phase.OVER:
            raise GameError("the game is over")
        game = replace(self, last=())
        if isinstance(event, Deal):
            return game._deal(event.dealer)
        if isinstance(event, Discard):
            return game._discard(event.seat, event.cards)
        if isinstance(event, Starter):
            return game._turn_starter(event.card)
        if isinstance(event, Lay):
            return game._lay(event.seat, event.card)
        if isinstance(event, Go):
            return game._go(event.seat)
        if isinstance(event, ShowHand):
            return game._show_hand(event.seat)
        return game._show_crib(event.cards)

    # Each step checks the event, then builds the next state.

    def _expect(self, phase: Phase, event: str) -> None:
        if self.phase is not phase:
            raise GameError(f"cannot {event} now: the game is waiting for {_WAITING[self.phase]}")

    def check_seat(self, seat: int) -> None:
        """Refuse a seat not at the table."""
        if not 0 <= seat < self.settings.players:
            raise GameError(f"no seat {seat}: seats are 0 to {self.settings.players - 1}")

    def _check_unseen(self, cards: Iterable[Card]) -> None:
        seen = {*self.crib, *(card for hand in self.laid for card in hand), *([self.starter] if self.starter else [])}
        for card in cards:
            if card in seen:
                raise GameError(f"{card.symbol} is already on the table this hand")
            seen.add(card)

    def _deal(self, dealer: int) -> Game:
        self._expect(Phase.DEAL, "deal")
        self.check_seat(dealer)
        if self.dealer is not None and dealer != self._next(self.dealer):
            raise GameError(f"the deal passes to the left: seat {self._next(self.dealer)} deals, not seat {dealer}")
        return replace(self, phase=Phase.DISCARD, dealer=dealer, crib=(), discarded=frozenset(), starter=None,
                       laid=((),) * self.settings.players, run=(), passed=frozenset(), shown=0, hidden=0)

    def _discard(self, seat: int, cards: tuple[Card, ...] | None) -> Game:
        self._expect(Phase.DISCARD, "discard")
        self.check_seat(seat)
        assert self.dealer is not None
        if seat in self.discarded:
            raise GameError(f"seat {seat} has already discarded")
        wanted = self.settings.discards(seat, self.dealer)
        if cards is not None and len(cards) != wanted:
            raise GameError(f"seat {seat} puts {wanted} card{'s' * (wanted > 1)} in the crib, not {len(cards)}")
        self._check_unseen(cards or ())
        discarded = self.discarded | {seat}
        done = len(discarded) == self.settings.players
        return replace(self, crib=self.crib + (cards or ()), hidden=self.hidden + wanted * (cards is None),
                       discarded=discarded, phase=Phase.STARTER if done else Phase.DISCARD)

    def _turn_starter(self, card: Card) -> Game:
        self._expect(Phase.STARTER, "turn the starter")
        self._check_unseen([card])
        assert self.dealer is not None
        leader = self._next(self.dealer)
        game = replace(self, starter=card, phase=Phase.PLAY, turn=leader, last_to_lay=leader)
        if card.rank is Rank.JACK:  # his heels
            return game._score(Peg(self.dealer, "his heels", 2))
        return game

    def _lay(self, seat: int, card: Card) -> Game:
        self._expect(Phase.PLAY, "lay a card")
        self._check_turn(seat)
        self._check_unseen([card])
        try:
            scored = peg((*self.run, card))
        except PeggingError as error:
            raise GameError(f"seat {seat} cannot lay {card.symbol}: {error}") from None
        laid = tuple((*hand, card) if i == seat else hand for i, hand in enumerate(self.laid))
        game = replace(self, laid=laid, run=(*self.run, card), last_to_lay=seat)
        if scored.items:
            game = game._score(Peg(seat, "play", scored.total, scored.items))
        if game.phase is Phase.OVER:
            return game
        return game._end_run() if game.count == 31 else game._pass_turn()

    def _go(self, seat: int) -> Game:
        self._expect(Phase.PLAY, "say go")
        self._check_turn(seat)
        if not self.run:
            raise GameError(f"seat {seat} leads and can always lay a card")
        return replace(self, passed=self.passed | {seat})._pass_turn()

    def _check_turn(self, seat: int) -> None:
        self.check_seat(seat)
        if seat != self.turn:
            raise GameError(f"it is seat {self.turn}'s turn to lay, not seat {seat}'s")

    def _holding(self, seat: int) -> bool:
        return len(self.laid[seat]) < HAND_SIZE

    def _pass_turn(self) -> Game:
        """Turn to the next seat that holds cards and has not said go, or end the run of play if none."""
        for step in range(1, self.settings.players + 1):
            seat = (self.turn + step) % self.settings.players
            if self._holding(seat) and seat not in self.passed:
                return replace(self, turn=seat)
        holding = any(map(self._holding, range(self.settings.players)))
        game = self._score(Peg(self.last_to_lay, "go" if holding else "last card", 1))
        return game if game.phase is Phase.OVER else game._end_run()

    def _end_run(self) -> Game:
        """Reset the count; the seat after the last to lay leads, or the play is over."""
        for step in range(1, self.settings.players + 1):
            seat = (self.last_to_lay + step) % self.settings.players
            if self._holding(seat):
                return replace(self, run=(), passed=frozenset(), turn=seat)
        return replace(self, run=(), passed=frozenset(), phase=Phase.SHOW)

    def _show_hand(self, seat: int) -> Game:
        self._expect(Phase.SHOW, "show a hand")
        self.check_seat(seat)
        assert self.dealer is not None and self.starter is not None
        expected = (self.dealer + 1 + self.shown) % self.settings.players
        if self.shown == self.settings.players:
            raise GameError("every hand has been shown: the crib is next")
        if seat != expected:
            raise GameError(f"seat {expected} shows next, not seat {seat} (the show goes from the dealer's left)")
        counted = show(self.laid[seat], self.starter)
        return replace(self, shown=self.shown + 1)._score(Peg(seat, "hand", counted.total, counted.items))

    def _show_crib(self, cards: tuple[Card, ...] | None) -> Game:
        self._expect(Phase.SHOW, "show the crib")
        assert self.dealer is not None and self.starter is not None
        if self.shown < self.settings.players:
            raise GameError("the crib is shown last, after every hand")
        crib = self.crib if cards is None else self._turned_up(cards)
        if len(crib) < HAND_SIZE:
            raise GameError(f"{self.hidden} crib cards went in face down: name the crib's cards to show it")
        counted = show(crib, self.starter, crib=True)
        return replace(self, phase=Phase.DEAL)._score(Peg(self.dealer, "crib", counted.total, counted.items))

    def _turned_up(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The crib as turned up for the show: its cards named face up must be among them."""
        if len(set(cards)) != HAND_SIZE:
            raise GameError(f"the crib holds {HAND_SIZE} different cards, not {' '.join(c.symbol for c in cards)}")
        for card in self.crib:
            if card not in cards:
                raise GameError(f"{card.symbol} went in the crib but is not among the cards shown")
        self._check_unseen(card for card in cards if card not in self.crib)
        return cards

    def _score(self, scored: Peg) -> Game:
        """Peg ``scored``; the game ends the moment a side reaches the target (its peg stops there)."""
        side = self.settings.side(scored.seat)
        target = self.settings.target
        total = min(self.scores[side] + scored.points, target)
        scores = tuple(total if i == side else score for i, score in enumerate(self.scores))
        return replace(self, scores=scores, last=(*self.last, scored),
                       phase=Phase.OVER if total == target else self.phase)

    def _next(self, seat: int) -> int:
        return (seat + 1) % self.settings.players


_WAITING = {Phase.DEAL: "the deal", Phase.DISCARD: "the discards", Phase.STARTER: "the starter",
            Phase.PLAY: "the play", Phase.SHOW: "the show"}


def new_game(players: int = 2, target: int = 121, partners: bool | None = None) -> Game:
    """A game not yet dealt, with every side on 0.

    >>> new_game(players=4).scores
    (0, 0)
    """
    return Game(Settings(players, target, partners))


def play(game: Game, events: Iterable[Event]) -> Game:
    """The game after each of ``events`` in turn."""
    for event in events:
        game = game.apply(event)
    return game
