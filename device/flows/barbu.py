"""Barbu at the table: the contract, the doubling round, tricks in order of play, the dominoes layout,
and the 28-hand game with its doubling obligations.

The table (docs/DEVICE.md): four seats, each trick played into the centre and gathered by its
winner; Dominoes laid out in the centre as it grows. The rules, the hand in progress included, are
``scoring.barbu_hand`` (its events, each confirmed with OK or by a seat panel press) over ``scoring.barbu``
and ``scoring.barbu_game``; this flow offers those events as the table shows them:

- who deals first, then the declarer's contract (with the trump suit for Trumps or the starting rank for
  Dominoes);
- before the first card, every double and redouble: a seat panel's Action redoubles the next player who
  doubled that seat (under the ``redoubles = "declarer"`` setting, only the declarer's does), else doubles
  the declarer;
- each trick once its four cards lie in the centre, in order of play (the leader's first); the 13th trick
  scores the hand;
- in Dominoes, the cards laid on the layout, and a pass (its panel's Action, or the buttons) by the seat
  to play when it cannot lay. The last card scores the hand.

>>> flow = BarbuFlow(["N", "E", "S", "W"], {})
>>> state = flow.apply(flow.start(flow.players, {}), DealerChosen(0))
>>> state = flow.apply(state, flow.decode("contract", {"contract": "K"}))
>>> [option.label for option in flow.prompt(state).options][:3]
['E doubles N', 'S doubles N', 'W doubles N']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from device.flows.flow import Flow, Option, Prompt, check_settings, tally, totals
from device.inputs import Press
from scoring import barbu_hand
from scoring.barbu import (
    SEATS,
    BarbuError,
    Contract,
    Dominoes,
    Double,
    Hand,
    Rules,
    Trick,
    high,
    tricks_from_cards,
)
from scoring.barbu_game import Game
from scoring.barbu_hand import (
    DealerChosen,
    Declared,
    Doubled,
    Laid,
    Passed,
    Progress,
    Redoubled,
    TrickPlayed,
    decode,
    laid,
)
from scoring.cards import Card, Rank, Suit
from scoring.errors import RuleError
from scoring.events import Event
from scoring.requests import int_field

__all__ = ["BarbuFlow"]

SETTINGS = {"must_trump": "true or false", "deal_passes_each_hand": "true or false",
            "doubles_owed": "how often each must double each declarer",
            "redoubles": '"any" (every doubled player) or "declarer" (only the declarer)'}
RANKS = tuple(sorted(Rank, key=lambda rank: (rank is not Rank.JACK, -high(rank))))
"""The starting ranks offered for Dominoes, the jack first (a common choice), then ace down to two."""


class BarbuFlow(Flow[Progress]):
    """Barbu for four players: 28 hands, each player declaring each contract once."""

    name = "barbu"

    def start(self, players: list[str], settings: dict[str, Any]) -> Progress:
        check_settings("Barbu", settings, SETTINGS)
        if len(players) != SEATS:
            raise ValueError(f"Barbu is for four players, not {len(players)}")
        for name in ("must_trump", "deal_passes_each_hand"):
            if not isinstance(settings.get(name, False), bool):
                raise ValueError(f"Barbu setting {name!r} is true or false, not {settings[name]!r}")
        owed = int_field({"doubles_owed": settings.get("doubles_owed", 2)}, "doubles_owed", 0, 7)
        try:
            rules = Rules(settings.get("must_trump", False), settings.get("deal_passes_each_hand", False), owed,
                          settings.get("redoubles", "any"))
        except BarbuError as error:
            raise ValueError(f"Barbu setting {error}") from None
        return Progress(rules)

    def apply(self, state: Progress, event: Event) -> Progress:
        if not isinstance(event, barbu_hand.Event):
            raise RuleError(f"{event} is no Barbu event")
        return state.apply(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> Event:
        return decode(kind, data)

    def hand(self, state: Progress) -> int:
        return len(state.game.hands) if state.game else 0

    def panel(self, state: Progress, pressed: Press) -> Event | None:
        """Before the play, a seat's Action redoubles the next player who doubled them (under the house
        rule, only the declarer's), else doubles the declarer; in Dominoes, the seat to play passes with a
        press once the doubling is done, or a hold at any time."""
        assert pressed.seat is not None
        game, seat = state.game, pressed.seat - 1
        if game is None or game.declarer is None or state.contract is None:
            return None
        layout = state.layout
        new = tuple(self._new(layout)) if layout else ()
        passing = Passed(seat, new) if layout else None
        if pressed.held:
            return passing
        declarer = game.declarer
        if not (state.begun or new):
            waiting = [d for d in state.redoubles() if d.on == seat]
            if waiting:
                return Redoubled(waiting[0].by, seat)
            if seat != declarer:
                doubled = any(d.by == seat and d.on == declarer for d in state.doubles)
                return None if doubled else Doubled(seat, declarer)
        return passing

    def result(self, state: Progress) -> dict[str, Any] | None:
        if state.game is None or not state.game.over:
            return None
        totals = state.game.totals
        return {"totals": list(totals), "winner": self.players[max(range(SEATS), key=totals.__getitem__)]}

    # What the flow sees.

    def prompt(self, state: Progress) -> Prompt:
        game = state.game
        if game is None:
            return Prompt("Barbu", lines=("who deals first?",),
                          options=tuple(Option(f"{name} deals", DealerChosen(seat))
                                        for seat, name in enumerate(self.players)))
        last = self._hand_lines(state.last) if state.last else []
        if game.declarer is None:
            return self._prompt(game, f"{self.players[max(range(SEATS), key=game.totals.__getitem__)]} wins", last)
        declarer = self.players[game.declarer]
        if state.contract is None:
            reminder = [self.explain(text) for text in [game.reminder()] if text]
            return self._prompt(game, f"{declarer} declares", [*reminder, *last], self._contracts(game))
        title = f"{declarer}: {_title(state)}"
        doubling = [] if state.begun else self._doubles(state, game)
        doubled = [self._double_line(double) for double in state.doubles]
        if state.layout is not None:
            return self._dominoes(state, game, title, doubled, doubling)
        return self._tricks(state, game, title, doubled, doubling)

    def _contracts(self, game: Game) -> list[Option]:
        assert game.declarer is not None
        options = []
        for contract in game.contracts_left(game.declarer):
            if contract is Contract.TRUMPS:
                options += [Option(label(contract, trump=suit), Declared(contract, trump=suit)) for suit in Suit]
            elif contract is Contract.DOMINOES:
                options += [Option(label(contract, start=rank), Declared(contract, start=rank)) for rank in RANKS]
            else:
                options.append(Option(label(contract), Declared(contract)))
        return options

    def _doubles(self, state: Progress, game: Game) -> list[Option]:
        """Every double and redouble still possible, those on the declarer first."""
        declarer = game.declarer
        assert declarer is not None
        names = self.players
        taken = {frozenset((d.by, d.on)) for d in state.doubles}
        pairs = sorted(((by, on) for by in range(SEATS) for on in range(SEATS)
                        if by != on and by != declarer and frozenset((by, on)) not in taken),
                       key=lambda pair: pair[1] != declarer)
        redoubles = [Option(f"{names[d.on]} redoubles {names[d.by]}", Redoubled(d.by, d.on))
                     for d in sorted(state.redoubles(), key=lambda d: d.on != declarer)]
        doubles = [Option(f"{names[by]} doubles {names[on]}", Doubled(by, on)) for by, on in pairs]
        first = sum(on == declarer for _, on in pairs)
        return [*doubles[:first], *redoubles, *doubles[first:]]

    def _tricks(self, state: Progress, game: Game, title: str, doubled: list[str], doubling: list[Option]) -> Prompt:
        assert game.declarer is not None
        tricks = tricks_from_cards(game.declarer, state.played, state.trump)
        leader = tricks[-1].winner(state.trump) if tricks else game.declarer
        won = [sum(trick.winner(state.trump) == seat for trick in tricks) for seat in range(SEATS)]
        lines = [*self.unread("centre"), f"tricks won: {tally(self.players, won)}",
                 *doubled, *self._must(state)]
        centre = [card for card in self.table.cards("centre") if card not in state.played]
        number = len(tricks) + 1
        if len(centre) < SEATS:
            leads = f"trick {number}: {self.players[leader]} leads ({len(centre)} of {SEATS})"
            return self._prompt(game, title, [leads, *lines], doubling)
        cards = centre[:SEATS]
        winner = self.players[Trick(leader, tuple(cards)).winner(state.trump)]
        option = Option(f"trick {number}: {winner}", TrickPlayed(tuple(cards)))
        trial = self.trial(state, option.event)
        if isinstance(trial, str):
            return self._prompt(game, title, [f"! {trial}", *lines], doubling)
        shown = self._hand_lines(trial.last) if trial.last else []
        return self._prompt(game, f"{_symbols(cards)}", [*shown, *lines], [option, *doubling])

    def _dominoes(self, state: Progress, game: Game, title: str, doubled: list[str], doubling: list[Option]) -> Prompt:
        layout = state.layout
        assert layout is not None
        rows = "  ".join(f"{suit.symbol}{_ends(layout, suit)}" for suit in Suit)
        lines = [rows, f"held: {tally(self.players, layout.held)}", *self.unread("centre"), *doubled, *self._must(state)]
        new = tuple(self._new(layout))
        if not new:
            to_play = layout.to_play
            passing = Option(f"{self.players[to_play]} passes", Passed(to_play))
            return self._prompt(game, f"{self.players[to_play]} to lay", lines, [*doubling, passing])
        lay = Option(f"lay {_symbols(new)}", Laid(new))
        trial = self.trial(state, lay.event)
        if isinstance(trial, str):
            return self._prompt(game, title, [f"! {trial}", *lines])
        if trial.layout is None:  # the last card: the hand is scored
            shown = self._hand_lines(trial.last) if trial.last else []
            return self._prompt(game, title, shown, [lay])
        then = trial.layout.to_play
        options = [lay, Option(f"then {self.players[then]} passes", Passed(then, new))]
        return self._prompt(game, f"{self.players[then]} to lay", lines, options)

    def _new(self, layout: Dominoes) -> list[Card]:
        """The cards in the centre not yet confirmed on the layout, in order of play."""
        on_layout = laid(layout)
        return [card for card in self.table.cards("centre") if card not in on_layout]

    def _must(self, state: Progress) -> list[str]:
        """Who must still double the declarer before the play begins."""
        owing = state.owing()
        return [f"must double: {', '.join(self.players[by] for by in owing)}"] if owing else []

    def _prompt(self, game: Game, title: str, lines: Iterable[str], options: Iterable[Option] = ()) -> Prompt:
        standing = "  ".join(f"{name} {total}" for name, total in zip(self.players, game.totals, strict=True))
        number = f"hand {min(len(game.hands) + 1, 28)} of 28" if not game.over else "28 hands played"
        return Prompt(title, totals(game.totals), (*lines, standing, number), tuple(options))

    def _hand_lines(self, hand: Hand) -> list[str]:
        """A scored hand: the raw and net scores, and any irregularity the play showed."""
        names = self.players
        return [f"{names[hand.declarer]}'s {hand.contract.title}: {tally(names, hand.scores)}",
                f"net {tally(names, hand.net)}",
                *(self.explain(str(irregularity)) for irregularity in hand.irregularities)]

    def _double_line(self, double: Double) -> str:
        names = self.players
        line = f"{names[double.by]} doubled {names[double.on]}"
        return line + (", redoubled" if double.redoubled else "")


def label(contract: Contract, trump: Suit | None = None, start: Rank | None = None) -> str:
    """A contract as the screen names it, short enough to fit one line after ``OK: ``.

    >>> label(Contract.NO_KING), label(Contract.TRUMPS, Suit.SPADES), label(Contract.DOMINOES, start=Rank.TWO)
    ('No King of ♥', 'Trumps ♠', 'Dominoes from 2')
    """
    if trump is not None:
        return f"Trumps {trump.symbol}"
    if start is not None:
        return f"Dominoes from {start.letter}"
    return "No King of ♥" if contract is Contract.NO_KING else contract.title


def _title(state: Progress) -> str:
    assert state.contract is not None
    return label(state.contract, state.trump, state.layout.start if state.layout is not None else None)


def _ends(layout: Dominoes, suit: Suit) -> str:
    ends = layout.layout[suit.index]
    if ends is None:
        return "-"
    low, top = (next(rank for rank in Rank if high(rank) == end).letter for end in ends)
    return low if low == top else f"{low}-{top}"


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards)
