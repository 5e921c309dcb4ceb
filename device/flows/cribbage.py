"""Cribbage at the table: the starter, pegging card by card, the show, to 121 with the winner and skunks.

The table (docs/DEVICE.md): each player lays their cards in play face up in their own seat area,
so the device knows who laid each card and in what order; the crib goes face down in the ``crib`` corner
and the starter face up in the ``starter`` corner. The engine is ``scoring.cribbage_game``; this flow's
events (each confirmed with OK) are:

- ``deal`` ``{"dealer": seat}``: who deals first (chosen with the buttons; the deal then passes left by
  itself after each crib is shown);
- ``starter`` ``{"card"}``: the starter turned up; the discards went in face down before it;
- ``lay`` ``{"seat", "card"}``: the next card laid, in order of play. Seats whose turn came before it
  and who laid nothing said go (a player must lay when able), so the goes, their points and the resets
  at 31 follow from the order of the cards; ``go`` ``{"seat"}`` records a go on its own (a seat panel's
  Action, or the buttons) when no card follows it;
- ``show`` ``{"seat"}``: a hand counted at the show (pone first, the dealer last), from the cards its
  player laid; ``crib`` ``{"cards"}``: the crib, turned face up in its corner and read, counted.

>>> flow = CribbageFlow(["Ann", "Bob"], {})
>>> state = flow.apply(flow.start(["Ann", "Bob"], {}), "deal", {"dealer": 1})
>>> state = flow.apply(state, "starter", {"card": "JD"})
>>> state.game.scores, [str(peg) for peg in state.pegs]
((0, 2), ['seat 1: his heels 2'])
>>> state = flow.apply(flow.apply(state, "lay", {"seat": 0, "card": "KS"}), "lay", {"seat": 1, "card": "5H"})
>>> state.game.count, [str(peg) for peg in state.pegs]
(15, ['seat 1: play 2 (fifteen two: K♠ 5♥)'])
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from device.flows.flow import Flow, Option, Prompt, Proposal, check_settings, totals
from device.flows.table import seat_zone
from device.panel import PanelEvent
from scoring.cards import Card
from scoring.cribbage import HAND_SIZE, value
from scoring.cribbage_game import (
    Deal,
    Discard,
    Event,
    Game,
    GameError,
    Go,
    Lay,
    Peg,
    Phase,
    Settings,
    ShowCrib,
    ShowHand,
    Starter,
)
from scoring.requests import card_field, cards_of, check_fields, int_field

__all__ = ["CribbageFlow", "State"]

SETTINGS = {"target": "121 or 61", "partners": "true or false (four players)"}
EVENTS = {"deal": ("dealer",), "starter": ("card",), "lay": ("seat", "card"), "go": ("seat",), "show": ("seat",),
          "crib": ("cards",)}
"""Each event's data fields."""


@dataclass(frozen=True)
class State:
    """The game, what the latest confirmation scored, and how many hands have been dealt."""

    game: Game
    pegs: tuple[Peg, ...] = ()
    hands: int = 0


class CribbageFlow(Flow[State]):
    """Cribbage for 2, 3 or 4 players (four in partnership unless ``partners`` is false)."""

    name = "cribbage"

    def start(self, players: list[str], settings: dict[str, Any]) -> State:
        check_settings("Cribbage", settings, SETTINGS)
        partners = settings.get("partners")
        if partners is not None and not isinstance(partners, bool):
            raise ValueError(f"Cribbage setting 'partners' is true or false, not {partners!r}")
        return State(Game(Settings(len(players), settings.get("target", 121), partners)))

    def apply(self, state: State, kind: str, data: dict[str, Any]) -> State:
        game = state.game
        check_fields(data, EVENTS.get(kind, ()))
        last = game.settings.players - 1
        if kind == "lay":
            return self._lay(state, int_field(data, "seat", 0, last), card_field(data, "card"))
        events: list[Event]
        if kind == "deal":
            events = [Deal(int_field(data, "dealer", 0, last))]
        elif kind == "starter":
            face_down = [Discard(seat) for seat in range(game.settings.players) if seat not in game.discarded]
            events = [*(face_down if game.phase is Phase.DISCARD else []), Starter(card_field(data, "card"))]
        elif kind == "go":
            events = [Go(int_field(data, "seat", 0, last))]
        elif kind == "show":
            events = [ShowHand(int_field(data, "seat", 0, last))]
        elif kind == "crib":
            events = [ShowCrib(tuple(cards_of(data["cards"], "cards")))]
        else:
            raise ValueError(f"unknown Cribbage event {kind!r}")
        after, pegs = _run(game, events)
        if kind == "crib" and after.phase is Phase.DEAL:  # the deal passes to the left by itself
            assert game.dealer is not None
            after = after.apply(Deal((game.dealer + 1) % game.settings.players))
        return State(after, pegs, state.hands + (after.phase is Phase.DISCARD and game.phase is not Phase.DISCARD))

    def _lay(self, state: State, seat: int, card: Card) -> State:
        """Lay ``card`` from ``seat``, after the goes of the seats whose turn came first."""
        game, pegs = state.game, list[Peg]()
        if game.phase is Phase.PLAY:
            if len(game.laid[seat]) >= HAND_SIZE:
                raise GameError(f"seat {seat} has laid all {HAND_SIZE} cards: {card.symbol} is another seat's")
            while game.phase is Phase.PLAY and not (game.turn == seat and game.count + value(card) <= 31):
                game = game.apply(Go(game.turn))
                pegs += game.last
        game = game.apply(Lay(seat, card))
        return replace(state, game=game, pegs=(*pegs, *game.last))

    def hand(self, state: State) -> int:
        return state.hands

    def panel(self, state: State, event: PanelEvent) -> Proposal | None:
        """A seat's Action in the play: that seat says go."""
        return ("go", {"seat": event.seat - 1}) if state.game.phase is Phase.PLAY else None

    def result(self, state: State) -> dict[str, Any] | None:
        outcome = state.game.outcome
        if outcome is None:
            return None
        return {"winner": self._side(outcome.winner), "scores": list(outcome.scores), "skunks": list(outcome.skunks)}

    # What the flow sees.

    def prompt(self, state: State) -> Prompt:
        game = state.game
        scored = [line for peg in state.pegs for line in self._peg_lines(peg)]
        if game.phase is Phase.OVER:
            return self._over(state)
        if game.dealer is None:
            return self._prompt("who deals first?", game, [],
                                [Option(f"{name} deals", "deal", {"dealer": seat}) for seat, name in enumerate(self.players)])
        if game.phase in (Phase.DISCARD, Phase.STARTER):
            return self._starter(state, scored)
        if game.phase is Phase.PLAY:
            return self._play(state, scored)
        return self._show(state, scored)

    def _starter(self, state: State, scored: list[str]) -> Prompt:
        game = state.game
        assert game.dealer is not None
        wanted = sum(game.settings.discards(seat, game.dealer) for seat in range(game.settings.players))
        lines = [f"{self.players[game.dealer]} deals: {wanted} cards to the crib face down, then cut",
                 *scored]
        starters = self.table.cards("starter")
        if len(starters) != 1:
            more = [f"one starter, not {_symbols(starters)}"] if starters else []
            return self._prompt("turn the starter", game, [*more, *self.unread("starter"), *lines])
        card = starters[0]
        heels = [f"his heels: {self.players[game.dealer]} 2"] if card.rank == 11 else []
        return self._prompt(f"starter {card.symbol}", game, [*heels, *lines],
                            [Option(f"starter {card.symbol}", "starter", {"card": card.code})])

    def _play(self, state: State, scored: list[str]) -> Prompt:
        game = state.game
        laid = {card for hand in game.laid for card in hand}
        waiting = [(seat, card) for seat in range(game.settings.players)
                   for card in self.table.cards(seat_zone(seat)) if card not in laid]
        order = {card: n for n, card in enumerate(self.table.cards(*self._seats()))}
        waiting.sort(key=lambda pair: order[pair[1]])
        run = f"count {game.count}" + (f": {_symbols(game.run)}" if game.run else "")
        lines = [*self.unread(*self._seats()), run, *scored]
        options = [Option(f"{self.players[game.turn]} says go", "go", {"seat": game.turn})] if _goes_out(game) else []
        if waiting:
            seat, card = waiting[0]
            trial = self.trial(state, "lay", {"seat": seat, "card": card.code})
            if isinstance(trial, str):
                return self._prompt(f"{self.players[seat]} {card.symbol}?", game, [f"! {trial}", *lines], options)
            lay = Option(f"{self.players[seat]} lays {card.symbol}", "lay", {"seat": seat, "card": card.code})
            gained = [line for peg in trial.pegs for line in self._peg_lines(peg)]
            return self._prompt(f"count {trial.game.count}", game, [*gained, *lines], [lay, *options])
        return self._prompt(f"{self.players[game.turn]} to lay", game, lines, options)

    def _show(self, state: State, scored: list[str]) -> Prompt:
        game = state.game
        assert game.dealer is not None and game.starter is not None
        players = game.settings.players
        if game.shown < players:
            seat = (game.dealer + 1 + game.shown) % players
            option = Option(f"{self.players[seat]}'s hand", "show", {"seat": seat})
            title = f"{self.players[seat]}: {_symbols(game.laid[seat])} {game.starter.symbol}"
        else:
            crib = self.table.cards("crib")
            if len(crib) != HAND_SIZE:
                lines = [f"turn the crib face up ({len(crib)} of {HAND_SIZE} read)", *self.unread("crib"), *scored]
                return self._prompt("the crib", game, lines)
            option = Option(f"{self.players[game.dealer]}'s crib", "crib", {"cards": [card.code for card in crib]})
            title = f"crib: {_symbols(crib)} {game.starter.symbol}"
        trial = self.trial(state, option.kind, option.data)
        if isinstance(trial, str):
            return self._prompt(title, game, [f"! {trial}", *scored])
        counted = [line for peg in trial.pegs for line in self._peg_lines(peg)]
        return self._prompt(title, game, [*counted, *scored], [option])

    def _over(self, state: State) -> Prompt:
        outcome = state.game.outcome
        assert outcome is not None
        skunked = [f"{self._side(side)}: {skunk}" for side, skunk in enumerate(outcome.skunks) if skunk]
        scored = [line for peg in state.pegs for line in self._peg_lines(peg)]
        return self._prompt(f"{self._side(outcome.winner)} wins", state.game, [*skunked, *scored])

    # Words for the screen.

    def _prompt(self, title: str, game: Game, lines: Iterable[str], options: Iterable[Option] = ()) -> Prompt:
        scores = "  ".join(f"{self._side(side)} {score}" for side, score in enumerate(game.scores))
        return Prompt(title, totals(game.scores), (*lines, scores), tuple(options))

    def _side(self, side: int) -> str:
        """A side's name: a player, or partners (four players, unless ``partners`` is false)."""
        players = self.players
        if len(players) == 4 and self.settings.get("partners") is not False:
            return f"{players[side]} & {players[side + 2]}"
        return players[side]

    def _peg_lines(self, peg: Peg) -> list[str]:
        return [f"{self.players[peg.seat]}: {peg.reason} {peg.points}", *(f" {item.points} {item}" for item in peg.items)]

    def _seats(self) -> list[str]:
        return [seat_zone(seat) for seat in range(len(self.players))]


def _goes_out(game: Game) -> bool:
    """Whether goes said from here, with no card laid, end the game (a go point to the last to lay): the
    one go no card follows, so the buttons offer it. Any other go shows in the next card laid."""
    for _ in range(game.settings.players):
        try:
            game = game.apply(Go(game.turn))
        except GameError:
            return False
        if game.phase is Phase.OVER or not game.run:
            return game.phase is Phase.OVER
    return False


def _run(game: Game, events: Iterable[Event]) -> tuple[Game, tuple[Peg, ...]]:
    pegs: list[Peg] = []
    for event in events:
        game = game.apply(event)
        pegs += game.last
    return game, tuple(pegs)


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards)
