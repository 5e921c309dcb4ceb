"""Open-Face Chinese Poker at the table: each seat's three rows read once every board is complete, the
hand settled pairwise, Fantasyland carried to the next hand.

The table (docs/DEVICE.md): each player sets their rows in their own seat area, the front row
nearest the centre, the back row nearest the player (the zones ``seatN.front``, ``seatN.middle``,
``seatN.back``). The engine is ``scoring.ofc``, its game as played ``scoring.ofc_hand``; this flow's one event
(confirmed with OK) settles every seat's board as read, once every board is complete.

>>> from scoring.ofc import Board
>>> from scoring.ofc_hand import Settled
>>> flow = OfcFlow(["Ann", "Bob"], {})
>>> boards = (Board.parse("QS QH 7D / QD QC 9S 8S 2S / AS AH AD 2H 2D"),
...           Board.parse("KS KH 7H / KD KC 6S 5S 4S / 3S 3H 3D 2C 8D"))
>>> state = flow.apply(flow.start(["Ann", "Bob"], {}), Settled(boards))
>>> state.totals, state.fantasyland
((19, -19), (13, 0))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from device.flows.flow import Flow, Option, Prompt, check_settings, totals
from device.flows.table import seat_zone
from scoring import ofc_hand
from scoring.errors import RuleError
from scoring.events import Event
from scoring.ofc import ROWS, SIZES, Rules, Settlement
from scoring.ofc_hand import Progress, decode
from scoring.poker import describe

__all__ = ["OfcFlow"]

SETTINGS = {"scoring": '"1-6" or "2-4"', "progressive": "true or false (progressive Fantasyland)",
            "pineapple": "true or false"}


class OfcFlow(Flow[Progress]):
    """Open-Face Chinese Poker for 2 to 4 players, hand after hand."""

    name = "ofc"

    def start(self, players: list[str], settings: dict[str, Any]) -> Progress:
        check_settings("Open-Face Chinese Poker", settings, SETTINGS)
        for name in ("progressive", "pineapple"):
            if not isinstance(settings.get(name, False), bool):
                raise ValueError(f"Open-Face Chinese Poker setting {name!r} is true or false, not {settings[name]!r}")
        if not 2 <= len(players) <= 4:
            raise ValueError(f"Open-Face Chinese Poker is for 2 to 4 players, not {len(players)}")
        rules = Rules(settings.get("scoring", "1-6"), settings.get("progressive", False), settings.get("pineapple", False))
        return Progress.start(rules, len(players))

    def apply(self, state: Progress, event: Event) -> Progress:
        if not isinstance(event, ofc_hand.Event):
            raise RuleError(f"{event} is no Open-Face Chinese Poker event")
        return state.apply(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> Event:
        return decode(kind, data)

    def hand(self, state: Progress) -> int:
        return state.hands

    # What the flow sees.

    def prompt(self, state: Progress) -> Prompt:
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
        boards = [{row: [card.code for card in cards] for row, cards in zip(ROWS, board, strict=True)} for board in rows]
        try:  # a card on two boards (or twice on one) is named by its seats and rows
            settled = decode("hand", {"boards": boards})
        except RuleError as error:
            return self._prompt(state, f"hand {state.hands + 1}", [f"! {self.explain(error)}", *fantasy])
        trial = self.trial(state, settled)
        if isinstance(trial, str):
            return self._prompt(state, f"hand {state.hands + 1}", [f"! {trial}", *fantasy])
        assert trial.last is not None
        net = "  ".join(f"{name} {points:+}" for name, points in zip(self.players, trial.last.net, strict=True))
        return self._prompt(state, net, self._settlement_lines(trial.last), [Option(f"settle: {net}", settled)])

    def _prompt(self, state: Progress, title: str, lines: Iterable[str], options: Iterable[Option] = ()) -> Prompt:
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
