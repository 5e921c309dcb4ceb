"""Barbu at the table: the contract, the doubling round, tricks in order of play, the dominoes layout,
and the 28-hand game with its doubling obligations.

The table (docs/DEVICE.md): four seats, each trick played into the centre and gathered by its
winner; Dominoes laid out in the centre as it grows. The engines are ``scoring.barbu`` and
``scoring.barbu_game``; this flow's events (each confirmed with OK, or by a seat panel press) are:

- ``dealer`` ``{"seat"}``: who deals (and so declares) first;
- ``contract`` ``{"contract", "trump"?, "start"?}``: the declarer's contract (NT, Q, LT, H, K, T, D), with
  the trump suit for Trumps or the starting rank for Dominoes;
- ``double`` ``{"by", "on"}`` and ``redouble`` ``{"by", "on"?}`` (``on``, the declarer if not given,
  redoubles ``by``, who doubled them), before the first card: a seat panel's Action redoubles the next
  player who doubled that seat (under the ``redoubles = "declarer"`` setting, only the declarer's does),
  else doubles the declarer; the buttons offer every double and redouble;
- ``trick`` ``{"cards"}``: four cards in the centre, in order of play (the leader's first); the 13th
  trick scores the hand;
- ``lay`` ``{"cards"}``: Dominoes cards laid, each the turn of the seat to play; ``pass`` ``{"seat",
  "cards"?}``: after any cards laid before it, that seat cannot lay (its panel's Action, or the buttons).
  The last card scores the hand.

>>> flow = BarbuFlow(["N", "E", "S", "W"], {})
>>> state = flow.apply(flow.start(flow.players, {}), "dealer", {"seat": 0})
>>> state = flow.apply(state, "contract", {"contract": "K"})
>>> state = flow.apply(state, "double", {"by": 1, "on": 0})
>>> state = flow.apply(state, "double", {"by": 3, "on": 2})
>>> state = flow.apply(state, "redouble", {"by": 3, "on": 2})
>>> state.contract.title, state.doubles
('No King of Hearts', (Double(by=1, on=0, redoubled=False), Double(by=3, on=2, redoubled=True)))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from device.flows.flow import Flow, Option, Prompt, Proposal, check_settings, tally, totals
from device.panel import PanelEvent
from scoring.barbu import (
    SEATS,
    TRICKS,
    BarbuError,
    Contract,
    Dominoes,
    Double,
    Hand,
    Rules,
    Trick,
    check_doubles,
    high,
    trick_hand,
    tricks_from_cards,
)
from scoring.barbu_game import Game
from scoring.cards import Card, Rank, Suit
from scoring.requests import cards_of, check_fields, int_field

__all__ = ["BarbuFlow", "State"]

SETTINGS = {"must_trump": "true or false", "deal_passes_each_hand": "true or false",
            "doubles_owed": "how often each must double each declarer",
            "redoubles": '"any" (every doubled player) or "declarer" (only the declarer)'}
RANKS = tuple(sorted(Rank, key=lambda rank: (rank is not Rank.JACK, -high(rank))))
"""The starting ranks offered for Dominoes, the jack first (a common choice), then ace down to two."""


@dataclass(frozen=True)
class State:
    """The game (None until the first dealer is chosen), the hand being played, and the last hand."""

    rules: Rules
    game: Game | None = None
    contract: Contract | None = None
    trump: Suit | None = None
    doubles: tuple[Double, ...] = ()
    played: tuple[Card, ...] = ()
    """The trick contracts' cards in order of play."""
    layout: Dominoes | None = None
    last: Hand | None = None

    @property
    def begun(self) -> bool:
        """Whether the play has begun (and the doubling is over)."""
        return bool(self.played) or self.layout is not None and self.layout.turns > 0


class BarbuFlow(Flow[State]):
    """Barbu for four players: 28 hands, each player declaring each contract once."""

    name = "barbu"

    def start(self, players: list[str], settings: dict[str, Any]) -> State:
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
        return State(rules)

    def apply(self, state: State, kind: str, data: dict[str, Any]) -> State:
        check_fields(data, EVENTS.get(kind, ()), OPTIONAL.get(kind, ()))
        if kind == "dealer":
            if state.game is not None:
                raise ValueError("the first dealer is chosen")
            return replace(state, game=Game(int_field(data, "seat", 0, 3), state.rules))
        game = state.game
        if game is None or game.declarer is None:
            raise ValueError("choose the first dealer" if game is None else "the game is over")
        declarer = game.declarer
        if kind == "contract":
            return self._contract(state, game, data)
        if state.contract is None:
            raise ValueError(f"seat {declarer} has not chosen a contract")
        if kind in ("double", "redouble"):
            if state.begun:
                raise ValueError("the doubling is over: the play has begun")
            return replace(state, doubles=_doubled(state.doubles, declarer, kind, data, state.rules))
        if kind in ("trick", "lay", "pass"):
            for by in game.must_double():
                if not state.begun and not any(d.by == by and d.on == declarer for d in state.doubles):
                    raise ValueError(f"seat {by} must double seat {declarer} in this hand: they owe "
                                     f"{game.owed()[by]}")
        if kind == "trick":
            return self._trick(state, game, cards_of(data["cards"], "cards", 4))
        if kind in ("lay", "pass"):
            if state.layout is None:
                raise ValueError(f"{state.contract.title} is played in tricks")
            layout = state.layout.play(cards_of(data.get("cards", []), "cards"))
            if kind == "pass":
                seat = int_field(data, "seat", 0, 3)
                if seat != layout.to_play:
                    raise ValueError(f"it is seat {layout.to_play}'s turn to lay, not seat {seat}'s")
                layout = layout.pass_turn()
            return self._laid(state, game, layout)
        raise ValueError(f"unknown Barbu event {kind!r}")

    def _contract(self, state: State, game: Game, data: dict[str, Any]) -> State:
        declarer = game.declarer
        assert declarer is not None
        if state.contract is not None:
            raise ValueError(f"seat {declarer} has chosen {state.contract.title}")
        contract = Contract.parse(data["contract"])
        if contract not in game.contracts_left(declarer):
            raise ValueError(f"seat {declarer} has already declared {contract.title}")
        if ("trump" in data) != (contract is Contract.TRUMPS) or ("start" in data) != (contract is Contract.DOMINOES):
            raise ValueError("Trumps needs a 'trump' suit, Dominoes a 'start' rank, and nothing else either")
        trump = Suit.parse(data["trump"]) if "trump" in data else None
        layout = Dominoes.begin(declarer, Rank.parse(data["start"])) if "start" in data else None
        return replace(state, contract=contract, trump=trump, layout=layout)

    def _trick(self, state: State, game: Game, cards: list[Card]) -> State:
        assert state.contract is not None and game.declarer is not None
        if state.layout is not None:
            raise ValueError("Dominoes is laid out, not played in tricks")
        again = [card.symbol for card in cards if card in state.played]
        if again:
            raise ValueError(f"{' '.join(again)} played in an earlier trick")
        played = (*state.played, *cards)
        if len(played) < SEATS * TRICKS:
            return replace(state, played=played)
        tricks = tricks_from_cards(game.declarer, played, state.trump)
        hand = trick_hand(state.contract, game.declarer, tricks, state.doubles, state.trump, state.rules)
        return State(state.rules, game.record(hand), last=hand)

    def _laid(self, state: State, game: Game, layout: Dominoes) -> State:
        if not layout.over:
            return replace(state, layout=layout)
        hand = layout.hand(state.doubles, state.rules)
        return State(state.rules, game.record(hand), last=hand)

    def hand(self, state: State) -> int:
        return len(state.game.hands) if state.game else 0

    def panel(self, state: State, event: PanelEvent) -> Proposal | None:
        """Before the play, a seat's Action redoubles the next player who doubled them (under the house
        rule, only the declarer's), else doubles the declarer; in Dominoes, the seat to play passes with a
        press once the doubling is done, or a hold at any time."""
        game, seat = state.game, event.seat - 1
        if game is None or game.declarer is None or state.contract is None:
            return None
        layout = state.layout
        new = [card.code for card in self._new(layout)] if layout else []
        passing = ("pass", {"seat": seat, "cards": new}) if layout else None
        if event.kind == "hold":
            return passing
        declarer = game.declarer
        if not (state.begun or new):
            waiting = [d for d in self._redoubles(state, declarer) if d.on == seat]
            if waiting:
                return "redouble", {"by": waiting[0].by, "on": seat}
            if seat != declarer:
                doubled = any(d.by == seat and d.on == declarer for d in state.doubles)
                return None if doubled else ("double", {"by": seat, "on": declarer})
        return passing

    def result(self, state: State) -> dict[str, Any] | None:
        if state.game is None or not state.game.over:
            return None
        totals = state.game.totals
        return {"totals": list(totals), "winner": self.players[max(range(SEATS), key=totals.__getitem__)]}

    # What the flow sees.

    def prompt(self, state: State) -> Prompt:
        game = state.game
        if game is None:
            return Prompt("Barbu", lines=("who deals first?",),
                          options=tuple(Option(f"{name} deals", "dealer", {"seat": seat})
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
                options += [Option(label(contract, trump=suit), "contract", {"contract": "T", "trump": suit.letter})
                            for suit in Suit]
            elif contract is Contract.DOMINOES:
                options += [Option(label(contract, start=rank), "contract", {"contract": "D", "start": rank.letter})
                            for rank in RANKS]
            else:
                options.append(Option(label(contract), "contract", {"contract": contract.value}))
        return options

    def _doubles(self, state: State, game: Game) -> list[Option]:
        """Every double and redouble still possible, those on the declarer first."""
        declarer = game.declarer
        assert declarer is not None
        names = self.players
        taken = {frozenset((d.by, d.on)) for d in state.doubles}
        pairs = sorted(((by, on) for by in range(SEATS) for on in range(SEATS)
                        if by != on and by != declarer and frozenset((by, on)) not in taken),
                       key=lambda pair: pair[1] != declarer)
        redoubles = [Option(f"{names[d.on]} redoubles {names[d.by]}", "redouble", {"by": d.by, "on": d.on})
                     for d in sorted(self._redoubles(state, declarer), key=lambda d: d.on != declarer)]
        doubles = [Option(f"{names[by]} doubles {names[on]}", "double", {"by": by, "on": on}) for by, on in pairs]
        first = sum(on == declarer for _, on in pairs)
        return [*doubles[:first], *redoubles, *doubles[first:]]

    @staticmethod
    def _redoubles(state: State, declarer: int) -> list[Double]:
        """The doubles that may still be redoubled: each not yet redoubled, on the declarer or (unless only
        the declarer redoubles) on anyone."""
        return [d for d in state.doubles
                if not d.redoubled and (d.on == declarer or state.rules.redoubles == "any")]

    def _tricks(self, state: State, game: Game, title: str, doubled: list[str], doubling: list[Option]) -> Prompt:
        assert game.declarer is not None
        tricks = tricks_from_cards(game.declarer, state.played, state.trump)
        leader = tricks[-1].winner(state.trump) if tricks else game.declarer
        won = [sum(trick.winner(state.trump) == seat for trick in tricks) for seat in range(SEATS)]
        lines = [*self.unread("centre"), f"tricks won: {tally(self.players, won)}",
                 *doubled, *self._must(state, game)]
        centre = [card for card in self.table.cards("centre") if card not in state.played]
        number = len(tricks) + 1
        if len(centre) < SEATS:
            leads = f"trick {number}: {self.players[leader]} leads ({len(centre)} of {SEATS})"
            return self._prompt(game, title, [leads, *lines], doubling)
        cards = centre[:SEATS]
        winner = self.players[Trick(leader, tuple(cards)).winner(state.trump)]
        option = Option(f"trick {number}: {winner}", "trick", {"cards": [card.code for card in cards]})
        trial = self.trial(state, option.kind, option.data)
        if isinstance(trial, str):
            return self._prompt(game, title, [f"! {trial}", *lines], doubling)
        shown = self._hand_lines(trial.last) if trial.last else []
        return self._prompt(game, f"{_symbols(cards)}", [*shown, *lines], [option, *doubling])

    def _dominoes(self, state: State, game: Game, title: str, doubled: list[str], doubling: list[Option]) -> Prompt:
        layout = state.layout
        assert layout is not None
        rows = "  ".join(f"{suit.symbol}{_ends(layout, suit)}" for suit in Suit)
        lines = [rows, f"held: {tally(self.players, layout.held)}", *self.unread("centre"), *doubled, *self._must(state, game)]
        new = [card.code for card in self._new(layout)]
        if not new:
            to_play = layout.to_play
            passing = Option(f"{self.players[to_play]} passes", "pass", {"seat": to_play, "cards": []})
            return self._prompt(game, f"{self.players[to_play]} to lay", lines, [*doubling, passing])
        trial = self.trial(state, "lay", {"cards": new})
        if isinstance(trial, str):
            return self._prompt(game, title, [f"! {trial}", *lines])
        if trial.layout is None:  # the last card: the hand is scored
            shown = self._hand_lines(trial.last) if trial.last else []
            return self._prompt(game, title, shown, [Option(f"lay {_symbols(Card.parse(c) for c in new)}", "lay", {"cards": new})])
        then = trial.layout.to_play
        options = [Option(f"lay {_symbols(Card.parse(c) for c in new)}", "lay", {"cards": new}),
                   Option(f"then {self.players[then]} passes", "pass", {"seat": then, "cards": new})]
        return self._prompt(game, f"{self.players[then]} to lay", lines, options)

    def _new(self, layout: Dominoes) -> list[Card]:
        """The cards in the centre not yet confirmed on the layout, in order of play."""
        on_layout = _laid(layout)
        return [card for card in self.table.cards("centre") if card not in on_layout]

    def _must(self, state: State, game: Game) -> list[str]:
        """Who must still double the declarer before the play begins."""
        if state.begun:
            return []
        owing = [by for by in game.must_double()
                 if not any(d.by == by and d.on == game.declarer for d in state.doubles)]
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


EVENTS = {"dealer": ("seat",), "contract": ("contract",), "double": ("by", "on"), "redouble": ("by",),
          "trick": ("cards",), "lay": ("cards",), "pass": ("seat",)}
OPTIONAL = {"contract": ("trump", "start"), "redouble": ("on",), "pass": ("cards",)}


def _doubled(doubles: tuple[Double, ...], declarer: int, kind: str, data: dict[str, Any],
             rules: Rules) -> tuple[Double, ...]:
    """The doubles after a double or a redouble, checked."""
    by = int_field(data, "by", 0, 3)
    if kind == "double":
        return check_doubles(declarer, (*doubles, Double(by, int_field(data, "on", 0, 3))), rules)
    on = int_field(data, "on", 0, 3) if "on" in data else declarer
    for n, double in enumerate(doubles):
        if double.by == by and double.on == on and not double.redoubled:
            return check_doubles(declarer, (*doubles[:n], Double(by, on, True), *doubles[n + 1:]), rules)
    raise ValueError(f"seat {on} can redouble only a player who doubled them and is not yet redoubled, "
                     f"not seat {by}")


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


def _title(state: State) -> str:
    assert state.contract is not None
    return label(state.contract, state.trump, state.layout.start if state.layout is not None else None)


def _laid(layout: Dominoes) -> set[Card]:
    """The cards on a Dominoes layout."""
    return {card for suit, ends in zip(Suit, layout.layout, strict=True) if ends
            for card in (Card(rank, suit) for rank in Rank) if ends[0] <= high(card.rank) <= ends[1]}


def _ends(layout: Dominoes, suit: Suit) -> str:
    ends = layout.layout[suit.index]
    if ends is None:
        return "-"
    low, top = (next(rank for rank in Rank if high(rank) == end).letter for end in ends)
    return low if low == top else f"{low}-{top}"


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards)
