"""Open-Face Chinese Poker at the table: each seat's three rows read once every board is complete, the
hand settled pairwise, Fantasyland carried to the next hand.

The table (README, "Game flows"): each player sets their rows in their own seat area, the front row
nearest the centre, the back row nearest the player (the zones ``seatN.front``, ``seatN.middle``,
``seatN.back``). The engine is ``scoring.ofc``; this flow's one event (confirmed with OK) is:

- ``hand`` ``{"boards": [{"front", "middle", "back"}, ...]}``: every seat's board as read, settled among
  the players; who goes to (or stays in) Fantasyland plays the next hand there.

>>> flow = OfcFlow(["Ann", "Bob"], {})
>>> boards = [{"front": ["QS", "QH", "7D"], "middle": ["QD", "QC", "9S", "8S", "2S"], "back": ["AS", "AH", "AD", "2H", "2D"]},
...           {"front": ["KS", "KH", "7H"], "middle": ["KD", "KC", "6S", "5S", "4S"], "back": ["3S", "3H", "3D", "2C", "8D"]}]
>>> state = flow.apply(flow.start(["Ann", "Bob"], {}), "hand", {"boards": boards})
>>> state.totals, state.fantasyland
((19, -19), (13, 0))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from device.flows.flow import Flow, Option, Prompt, check_settings, totals
from device.flows.table import seat_zone
from scoring.cards import Card
from scoring.ofc import ROWS, SIZES, Board, Rules, Settlement, settle
from scoring.poker import describe
from scoring.requests import cards_of, check_distinct, check_fields

__all__ = ["OfcFlow", "State"]

SETTINGS = {"scoring": '"1-6" or "2-4"', "progressive": "true or false (progressive Fantasyland)",
            "pineapple": "true or false"}


@dataclass(frozen=True)
class State:
    """The running totals, how many cards each seat is dealt in Fantasyland next hand (0: not there), the
    hands played and the latest settlement."""

    rules: Rules
    totals: tuple[int, ...]
    fantasyland: tuple[int, ...]
    hands: int = 0
    last: Settlement | None = None


class OfcFlow(Flow[State]):
    """Open-Face Chinese Poker for 2 to 4 players, hand after hand."""

    name = "ofc"

    def start(self, players: list[str], settings: dict[str, Any]) -> State:
        check_settings("Open-Face Chinese Poker", settings, SETTINGS)
        for name in ("progressive", "pineapple"):
            if not isinstance(settings.get(name, False), bool):
                raise ValueError(f"Open-Face Chinese Poker setting {name!r} is true or false, not {settings[name]!r}")
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Open-Face Chinese Poker is for 2 to 4 players, not {len(players)}")
        rules = Rules(settings.get("scoring", "1-6"), settings.get("progressive", False), settings.get("pineapple", False))
        return State(rules, (0,) * len(players), (0,) * len(players))

    def apply(self, state: State, kind: str, data: dict[str, Any]) -> State:
        if kind != "hand":
            raise ValueError(f"unknown Open-Face Chinese Poker event {kind!r}")
        check_fields(data, ("boards",))
        boards = data["boards"]
        if not isinstance(boards, list) or len(boards) != len(state.totals):
            raise ValueError(f"'boards' is a list of {len(state.totals)} boards, one a seat")
        rows: dict[str, list[Card]] = {}
        for seat, board in enumerate(boards):
            check_fields(board, ROWS)
            rows |= {f"seat {seat} {row}": cards_of(board[row], f"seat {seat} {row}", SIZES[row]) for row in ROWS}
        check_distinct(rows)  # before any board: a card twice is named by its seats and rows
        read = [Board(*(tuple(rows[f"seat {seat} {row}"]) for row in ROWS)) for seat in range(len(boards))]
        settled = settle(read, state.rules, tuple(cards > 0 for cards in state.fantasyland))
        running = tuple(total + net for total, net in zip(state.totals, settled.net, strict=True))
        return replace(state, totals=running, fantasyland=settled.fantasyland_cards, hands=state.hands + 1,
                       last=settled)

    def hand(self, state: State) -> int:
        return state.hands

    # What the flow sees.

    def prompt(self, state: State) -> Prompt:
        seats = range(len(self.players))
        zones = [[f"{seat_zone(seat)}.{row}" for row in ROWS] for seat in seats]
        rows = [[self.table.cards(zone) for zone in board] for board in zones]
        fantasy = [f"{self.players[seat]} in Fantasyland: {cards} cards" for seat, cards in
                   enumerate(state.fantasyland) if cards]
        last = self._settlement_lines(state.last) if state.last else []
        laid = [[len(self.table.placed(zone)) for zone in board] for board in zones]
        if self.table.unread(*map(seat_zone, seats)) or any(n != SIZES[row] for board in laid
                                                              for row, n in zip(ROWS, board, strict=True)):
            counts = "  ".join(f"{self.players[seat]} {'/'.join(map(str, laid[seat]))}" for seat in seats)
            lines = [f"setting: {counts} (3/5/5)", *self.unread(*map(seat_zone, seats)), *fantasy, *last]
            return self._prompt(state, f"hand {state.hands + 1}", lines)
        data = {"boards": [{row: [card.code for card in cards] for row, cards in zip(ROWS, board, strict=True)}
                           for board in rows]}
        trial = self.trial(state, "hand", data)
        if isinstance(trial, str):
            return self._prompt(state, f"hand {state.hands + 1}", [f"! {trial}", *fantasy])
        assert trial.last is not None
        net = "  ".join(f"{name} {points:+}" for name, points in zip(self.players, trial.last.net, strict=True))
        return self._prompt(state, net, self._settlement_lines(trial.last), [Option(f"settle: {net}", "hand", data)])

    def _prompt(self, state: State, title: str, lines: Iterable[str], options: Iterable[Option] = ()) -> Prompt:
        standing = "  ".join(f"{name} {total}" for name, total in zip(self.players, state.totals, strict=True))
        return Prompt(title, totals(state.totals), (*lines, standing), tuple(options))

    def _settlement_lines(self, settled: Settlement) -> list[str]:
        """Each board (its rows, foul, royalties), each pair's settlement, and who goes to Fantasyland."""
        names = self.players
        lines = []
        for name, hand in zip(names, settled.hands, strict=True):
            if hand.fouled:
                lines.append(f"{name}: fouled")
                continue
            lines += [f"{name} {row}: {describe(value)}" + (f" +{royalty}" if royalty else "")
                      for row, value, royalty in zip(ROWS, hand.values, hand.royalties, strict=True)]
        lines += [f"{names[pair.players[0]]} v {names[pair.players[1]]}: {pair.points:+}" for pair in settled.pairs]
        lines += [f"{names[seat]}: Fantasyland, {cards} cards" for seat, cards in
                  enumerate(settled.fantasyland_cards) if cards]
        return lines
