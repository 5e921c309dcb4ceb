"""Cribbage at the table: the starter, pegging card by card, the show, to 121 with the winner and skunks.

The table (docs/DEVICE.md): each player lays their cards in play face up in their own seat area,
so the device knows who laid each card and in what order; the crib goes face down in the ``crib`` corner
and the starter face up in the ``starter`` corner. The engine is ``scoring.cribbage_game``, as a table
scores it ``scoring.cribbage_hand``; this flow offers its events (each confirmed with OK):

- who deals first (the deal then passes left by itself after each crib is shown);
- the starter turned up; the discards went in face down before it;
- the next card laid, in order of play (the goes before it follow from the order of the cards), or a go
  on its own (a seat panel's Action, or the buttons) when no card follows it;
- each hand counted at the show (pone first, the dealer last), from the cards its player laid; then the
  crib, turned face up in its corner and read.

>>> from scoring.cards import Card
>>> flow = CribbageFlow(["Ann", "Bob"], {})
>>> state = flow.apply(flow.start(["Ann", "Bob"], {}), Deal(dealer=1))
>>> state = flow.apply(state, flow.decode("starter", {"card": "JD"}))
>>> state.game.scores, [str(peg) for peg in state.pegs]
((0, 2), ['seat 1: his heels 2'])
>>> state = flow.apply(flow.apply(state, Lay(0, Card.parse("KS"))), Lay(1, Card.parse("5H")))
>>> state.game.count, [str(peg) for peg in state.pegs]
(15, ['seat 1: play 2 (fifteen two: K♠ 5♥)'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from device.flows.flow import Flow, Option, Prompt, check_settings, totals
from device.flows.table import seat_zone
from device.inputs import Press
from scoring import cribbage_hand
from scoring.cards import Card
from scoring.cribbage import HAND_SIZE
from scoring.cribbage_game import (
    Deal,
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
from scoring.cribbage_hand import Progress, decode
from scoring.errors import RuleError
from scoring.events import Event

__all__ = ["CribbageFlow"]

SETTINGS = {"target": "121 or 61", "partners": "true or false (four players)"}


class CribbageFlow(Flow[Progress]):
    """Cribbage for 2, 3 or 4 players (four in partnership unless ``partners`` is false)."""

    name = "cribbage"

    def start(self, players: list[str], settings: dict[str, Any]) -> Progress:
        check_settings("Cribbage", settings, SETTINGS)
        partners = settings.get("partners")
        if partners is not None and not isinstance(partners, bool):
            raise ValueError(f"Cribbage setting 'partners' is true or false, not {partners!r}")
        return Progress.start(Settings(len(players), settings.get("target", 121), partners))

    def apply(self, state: Progress, event: Event) -> Progress:
        if not isinstance(event, cribbage_hand.Event):
            raise RuleError(f"{event} is no Cribbage event")
        return state.apply(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> Event:
        return decode(kind, data)

    def hand(self, state: Progress) -> int:
        return state.hands

    def panel(self, state: Progress, pressed: Press) -> Event | None:
        """A seat's Action in the play: that seat says go."""
        assert pressed.seat is not None
        return Go(pressed.seat - 1) if state.game.phase is Phase.PLAY else None

    def result(self, state: Progress) -> dict[str, Any] | None:
        outcome = state.game.outcome
        if outcome is None:
            return None
        return {"winner": self._side(outcome.winner), "scores": list(outcome.scores), "skunks": list(outcome.skunks)}

    # What the flow sees.

    def prompt(self, state: Progress) -> Prompt:
        game = state.game
        scored = [line for peg in state.pegs for line in self._peg_lines(peg)]
        if game.phase is Phase.OVER:
            return self._over(state)
        if game.dealer is None:
            return self._prompt("who deals first?", game, [],
                                [Option(f"{name} deals", Deal(seat)) for seat, name in enumerate(self.players)])
        if game.phase in (Phase.DISCARD, Phase.STARTER):
            return self._starter(state, scored)
        if game.phase is Phase.PLAY:
            return self._play(state, scored)
        return self._show(state, scored)

    def _starter(self, state: Progress, scored: list[str]) -> Prompt:
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
                            [Option(f"starter {card.symbol}", Starter(card))])

    def _play(self, state: Progress, scored: list[str]) -> Prompt:
        game = state.game
        laid = {card for hand in game.laid for card in hand}
        waiting = [(seat, card) for seat in range(game.settings.players)
                   for card in self.table.cards(seat_zone(seat)) if card not in laid]
        order = {card: n for n, card in enumerate(self.table.cards(*self._seats()))}
        waiting.sort(key=lambda pair: order[pair[1]])
        run = f"count {game.count}" + (f": {_symbols(game.run)}" if game.run else "")
        lines = [*self.unread(*self._seats()), run, *scored]
        options = [Option(f"{self.players[game.turn]} says go", Go(game.turn))] if _goes_out(game) else []
        if waiting:
            seat, card = waiting[0]
            lay = Option(f"{self.players[seat]} lays {card.symbol}", Lay(seat, card))
            trial = self.trial(state, lay.event)
            if isinstance(trial, str):
                return self._prompt(f"{self.players[seat]} {card.symbol}?", game, [f"! {trial}", *lines], options)
            gained = [line for peg in trial.pegs for line in self._peg_lines(peg)]
            return self._prompt(f"count {trial.game.count}", game, [*gained, *lines], [lay, *options])
        return self._prompt(f"{self.players[game.turn]} to lay", game, lines, options)

    def _show(self, state: Progress, scored: list[str]) -> Prompt:
        game = state.game
        assert game.dealer is not None and game.starter is not None
        players = game.settings.players
        if game.shown < players:
            seat = (game.dealer + 1 + game.shown) % players
            option = Option(f"{self.players[seat]}'s hand", ShowHand(seat))
            title = f"{self.players[seat]}: {_symbols(game.laid[seat])} {game.starter.symbol}"
        else:
            crib = self.table.cards("crib")
            if len(crib) != HAND_SIZE:
                lines = [f"turn the crib face up ({len(crib)} of {HAND_SIZE} read)", *self.unread("crib"), *scored]
                return self._prompt("the crib", game, lines)
            option = Option(f"{self.players[game.dealer]}'s crib", ShowCrib(crib))
            title = f"crib: {_symbols(crib)} {game.starter.symbol}"
        trial = self.trial(state, option.event)
        if isinstance(trial, str):
            return self._prompt(title, game, [f"! {trial}", *scored])
        counted = [line for peg in trial.pegs for line in self._peg_lines(peg)]
        return self._prompt(title, game, [*counted, *scored], [option])

    def _over(self, state: Progress) -> Prompt:
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


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards)
