"""Scripted tables for the flow tests: cards put down and taken up as the tracker would report them,
and button presses, driving a ``Play`` on a journal in a temporary folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from device.flows.play import Play
from device.games import flow_for
from device.inputs import Press
from device.journal import Journal
from device.panel import PanelEvent
from scoring.cards import Card
from scoring.errors import RuleError
from vision.observations import CardSighting
from vision.tracker import CardEvent


class Table:
    """A table and its device: ``put`` cards in zones (in order of play), ``take`` them, press buttons."""

    def __init__(self, path: Path, game: str, players: list[str], settings: dict[str, Any] | None = None) -> None:
        self.path, self.game, self.players, self.settings = path, game, players, settings or {}
        self.journal = Journal(path)
        self.play: Play[Any] = Play(self.journal, flow_for(game, players, self.settings))
        self.frame = 0
        self.on_table: dict[int, tuple[Card | None, str]] = {}  # track: card and zone

    def _event(self, kind: Literal["appeared", "removed"], track: int) -> CardEvent:
        card, zone = self.on_table[track]
        return CardEvent(kind, CardSighting(card, (0.0, 0.0), (), 0.99, zone), self.frame, track, track)

    def put(self, zone: str, *codes: str) -> list[int]:
        """Lay cards (``??`` for one the camera cannot read) in ``zone``, one after another; a code may
        be several separated by spaces."""
        tracks = []
        for code in " ".join(codes).split():
            self.frame += 1
            track = self.frame
            self.on_table[track] = (None if code == "??" else Card.parse(code), zone)
            self.play.see([self._event("appeared", track)])
            tracks.append(track)
        return tracks

    def read(self, track: int, code: str) -> None:
        """A card that was misread (or not read) is read again as ``code`` where it lies."""
        removed = self._event("removed", track)
        self.on_table[track] = (Card.parse(code), self.on_table[track][1])
        self.play.see([removed, self._event("appeared", track)])

    def take(self, *codes: str) -> None:
        """Pick cards up (all of them with none named)."""
        for track, (card, _) in list(self.on_table.items()):
            if not codes or (card is not None and card.code in codes):
                self.play.see([self._event("removed", track)])
                del self.on_table[track]

    def dice(self, *codes: str) -> None:
        """The dice come to rest in the tray showing ``codes`` (a code may be several separated by spaces)."""
        self.play.see_dice([None if code == "??" else Card.parse(code) for code in " ".join(codes).split()])

    def press(self, button: str, times: int = 1, held: bool = False) -> None:
        for _ in range(times):
            self.play.press(Press(button, held))

    def ok(self) -> None:
        """Press OK, and check it was not refused."""
        self.press("ok")
        assert self.play.flow.error is None, self.play.flow.error

    def choose(self, label: str) -> None:
        """Step to the option whose label starts with ``label`` and confirm it."""
        for _ in range(200):
            if self.lines()[0].startswith(f"OK: {label}"):
                return self.ok()
            self.press("next")
        raise AssertionError(f"no option {label!r}: {self.lines()}")

    def undo(self) -> None:
        self.press("ok", held=True)

    def panel(self, seat: int, button: str = "action", kind: str = "press") -> None:
        """A seat panel button, seat counted from 1 as on the panel."""
        self.play.press(PanelEvent(seat, button, kind, 0).press)

    def lines(self) -> tuple[str, ...]:
        return self.play.screen().lines

    def attempt(self, kind: str, data: dict[str, Any]) -> Any:
        """The state an event given as the journal keeps it would lead to, or why it cannot happen (in
        the players' names), whether its record or the game refuses it."""
        flow = self.play.flow
        try:
            event = flow.decode(kind, data)
        except RuleError as error:
            return flow.explain(error)
        return flow.trial(self.play.state, event)

    def shown(self) -> tuple[str, str | None]:
        """What OK would confirm and which option it is (``2/3``, boxed in the title bar; None if the only one)."""
        screen = self.play.screen()
        return screen.lines[0], screen.choice

    def restarted(self) -> Table:
        """The device after a power cut: a new journal connection, a new flow, the same table."""
        again = Table.__new__(Table)
        again.__dict__.update(self.__dict__)
        again.journal = Journal(self.path)
        again.play = Play(again.journal, flow_for(self.game, self.players, self.settings))
        again.play.see([again._event("appeared", track) for track in sorted(self.on_table)])
        return again
