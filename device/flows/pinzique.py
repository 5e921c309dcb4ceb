"""Pinzique at the table: each roll of the eight dice read in the tray, the roll counter, the round settled
with its takeaways, bonus rounds, ten rounds and playoffs, partners.

The table (docs/DEVICE.md): the dice are rolled into the tray; the device reads them once they lie
still. The engine is ``scoring.pinzique_game``; this flow offers its events (each confirmed with OK): the
side up's next roll as the tray shows it, and the side up standing on its latest roll.

A roll is offered only when the dice show something other than the last roll confirmed (dice still lying
from the previous roll are not a new roll); the rare re-roll that shows the very same faces is offered
last among the options.

>>> flow = PinziqueFlow(["Ann", "Bob"], {"rounds": 1})
>>> from scoring.cards import parse_cards
>>> state = flow.apply(flow.start(["Ann", "Bob"], {"rounds": 1}), Rolled(tuple(parse_cards("9H TH JH QH KH KH QH 9C"))))
>>> state = flow.apply(state, Stood())
>>> state.game.up, state.game.finals[0].total
(1, 685)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from device.flows.flow import Flow, Option, Prompt, check_settings, totals
from scoring import pinzique_game
from scoring.cards import Card
from scoring.errors import RuleError
from scoring.events import Event
from scoring.pinzique_game import Game, Rolled, SheetRow, Stood, decode
from scoring.pinzique_guide import DICE
from scoring.pinzique_roll import RollScore
from scoring.requests import int_field

__all__ = ["PinziqueFlow", "State"]

SETTINGS = {"rounds": "regular rounds (10)", "rolls": "rolls a turn (the score guide's, 3)",
            "partners": "true or false (four players: seats 1 and 3 against 2 and 4)"}


@dataclass(frozen=True)
class State:
    """The game, and the faces of the last roll confirmed (to tell a new roll from dice still lying)."""

    game: Game
    previous: tuple[str, ...] = ()


class PinziqueFlow(Flow[State]):
    """Pinzique for 2 to 4 players, or two pairs of partners."""

    name = "pinzique"

    def start(self, players: list[str], settings: dict[str, Any]) -> State:
        check_settings("Pinzique", settings, SETTINGS)
        partners = settings.get("partners", False)
        if not isinstance(partners, bool) or partners and len(players) != 4:
            raise ValueError(f"Pinzique setting 'partners' is true (with four players) or false, not {partners!r}")
        sides: list[str | tuple[str, str]] = ([(players[0], players[2]), (players[1], players[3])] if partners
                                               else list(players))
        rounds = int_field(settings, "rounds", 1, 100) if "rounds" in settings else 10
        rolls = int_field(settings, "rolls", 1, 10) if "rolls" in settings else None
        return State(Game.new(sides, rolls_per_turn=rolls, rounds=rounds))

    def apply(self, state: State, event: Event) -> State:
        if not isinstance(event, pinzique_game.Event):
            raise RuleError(f"{event} is no Pinzique event")
        game = state.game.apply(event)
        return State(game, tuple(sorted(card.code for card in event.faces)) if isinstance(event, Rolled) else state.previous)

    def decode(self, kind: str, data: Mapping[str, Any]) -> Event:
        return decode(kind, data)

    def result(self, state: State) -> dict[str, Any] | None:
        game = state.game
        if not game.over or game.winner is None:
            return None
        return {"winner": _side(game, game.winner), "totals": list(game.totals),
                "sheet": [[row.label, [row.points_of(side) for side in range(len(game.sides))]] for row in game.sheet]}

    # What the flow sees.

    def prompt(self, state: State) -> Prompt:
        game = state.game
        settled = self._round_lines(game, game.sheet[-1]) if game.sheet else []
        if game.over:
            assert game.winner is not None
            return self._prompt(game, f"{_side(game, game.winner)} wins", settled)
        assert game.up is not None
        side = _side(game, game.up)
        title = f"{_round(game.label)}: {side}"
        counter = f"roll {game.rolls_made + 1} of {game.rolls_per_turn}"
        now = [f"now {game.last.total}", *_meld_lines(game.last)] if game.last else []
        stand = [Option(f"{side} stands on {game.last.total}", Stood())] if game.last else []
        dice = self.table.dice
        faces = [face for face in dice if face is not None]
        if len(faces) != DICE:
            unread = len(dice) - len(faces)  # dice seen lying still but not read: cocked, or a face unclear
            tray = ("a die is cocked or unreadable: set it flat or re-roll it" if unread == 1 else
                    f"{unread} dice are cocked or unreadable: set them flat or re-roll them" if unread else
                    f"roll into the tray ({len(faces)} of {DICE} dice read)" if dice else "roll into the tray")
            return self._prompt(game, f"{title}, {counter}", [tray, *now, *settled], stand)
        rolled = Rolled(tuple(faces))
        trial = self.trial(state, rolled)
        if isinstance(trial, str):
            return self._prompt(game, f"{title}, {counter}", [f"! {trial}", *now, *settled], stand)
        if tuple(sorted(face.code for face in faces)) == state.previous:  # the dice lie as last confirmed: no new roll yet
            again = [Option(f"the same again: {counter}", rolled)] if game.last else []
            return self._prompt(game, f"{title}, {counter}", [*now, *settled], [*stand, *again])
        score = _last_roll(trial.game)
        roll = Option(f"{counter}: {score.total}", rolled)
        return self._prompt(game, title, [_symbols(faces), *_meld_lines(score), *settled], [roll, *stand])

    def _prompt(self, game: Game, title: str, lines: Iterable[str], options: Iterable[Option] = ()) -> Prompt:
        standing = "  ".join(f"{_side(game, side)} {total}" for side, total in enumerate(game.totals))
        return Prompt(title, totals(game.totals), (*lines, standing), tuple(options))

    def _round_lines(self, game: Game, row: SheetRow) -> list[str]:
        """A settled round: each side's points, and the melds taken away and by whom."""
        lines = [f"{_round(row.label)} settled"]
        for place, (side, lost) in enumerate(zip(row.sides, row.result.losses, strict=True)):
            taken = "; ".join(f"lost {loss.meld.code} to {', '.join(_side(game, row.sides[t]) for t in loss.to)}"
                              for loss in lost)
            bonus = ", bonus round" if row.result.bonus[place] else ""
            lines.append(f"{_side(game, side)} {row.result.points[place]}" + (f" ({taken})" if taken else "") + bonus)
        return lines


def _side(game: Game, side: int) -> str:
    """A side's name: a player, or two partners."""
    return " & ".join(game.sides[side])


def _last_roll(game: Game) -> RollScore:
    """The roll just made: the side's latest, or its final roll if that roll ended the turn."""
    if game.last is not None:
        return game.last
    if game.finals:
        return game.finals[-1]
    return game.sheet[-1].result.rolls[-1]


def _round(label: str) -> str:
    """A score sheet label in words: ``3`` round 3, ``B-3`` bonus round 3, ``P1`` playoff 1."""
    if label.startswith("B-"):
        return f"bonus {_round(label[2:])}"
    return f"playoff {label[1:]}" if label.startswith("P") else f"round {label}"


def _meld_lines(roll: RollScore) -> list[str]:
    lines = [f"{meld.code} {meld.points}{'*' if meld.provisional else ''} {meld.name}" for meld in roll.melds]
    return lines + (["on all eight dice"] if roll.all_dice else [])


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards)
