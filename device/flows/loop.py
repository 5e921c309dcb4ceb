"""The device's loop around a game: each frame through the card reader, the zones and the tracker into
the game; the buttons and the seat panel into confirmations; the game's page onto the OLED.

Every part is given, so the loop runs the same on a Pi and in tests: ``read`` is the card reader (on the
device ``vision.live.LiveReader``, which reads a stream as ``vision.cards.read_cards`` reads each frame),
``dice`` says what a frame shows in the dice tray once a roll has settled (or None), ``buttons`` has
``take()`` (``device.buttons.Buttons``), ``panel`` has ``get(timeout)`` (``device.panel.SeatPanel``),
``display`` has ``show(screen)`` (``device.display.Display``).
The default layout (a calibration that ``fills`` the frame) takes frames of any shape and has a seat for
each player of the game being played; a measured calibration for frames of another shape raises
``ZoneError`` before anything of the frame is taken.
The display is written only when the page changes, or again at each frame while it reports a ``fault``
(a bus error) until the page gets through. A seat panel that has ``status()`` and was connected is watched:
while it is unplugged the page's title bar says so, and the log says so once when it goes and once when
it is back; its presses wait in the Pico until then. A club ``link`` (``device.club_link.ClubLink``) has
``brief()``, which the title bar shows after the game's title (``Gin · queued 2``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from numpy.typing import NDArray

from device.flows.play import Play
from device.inputs import Press
from device.panel import PanelEvent
from device.screens import Screen
from scoring.cards import Card
from vision.observations import CardSighting
from vision.tracker import Tracker
from vision.zones import Calibration

log = logging.getLogger(__name__)

Reader = Callable[[NDArray[Any]], list[CardSighting]]
DiceReader = Callable[[NDArray[Any]], Sequence[Card | None] | None]


class ButtonSource(Protocol):
    def take(self) -> list[Press]: ...


class PanelSource(Protocol):
    def get(self, timeout: float | None = None) -> PanelEvent | None: ...


class LinkSource(Protocol):
    def brief(self) -> str: ...


class PageDisplay(Protocol):
    def show(self, screen: Screen) -> None: ...


class Loop:
    """One table's device loop; call ``step(frame)`` for each camera frame."""

    def __init__(self, play: Play[Any], read: Reader, calibration: Calibration, display: PageDisplay, *,
                 tracker: Tracker | None = None, buttons: ButtonSource | None = None,
                 panel: PanelSource | None = None, dice: DiceReader | None = None,
                 link: LinkSource | None = None) -> None:
        self.play, self.read, self.calibration, self.display = play, read, calibration, display
        self.tracker = tracker or Tracker()
        self.buttons, self.panel, self.dice, self.link = buttons, panel, dice, link
        self.shown: Screen | None = None
        self.panel_seen = False
        """Whether the seat panel has been connected: only then is its absence a fault."""
        self.panel_fault: str | None = None

    def step(self, frame: NDArray[Any]) -> Screen:
        """Take one frame and the presses since the last, and show the page; returns the page shown."""
        height, width = frame.shape[:2]
        players = len(self.play.flow.players)
        if self.calibration.fills and self.calibration.seats != players:  # a game saved with other players
            self.calibration = Calibration.default(players, size=(width, height))
        sightings = self.calibration.for_frame(width, height).assign_zones(self.read(frame))
        self.play.see(self.tracker.update(sightings))
        if self.dice is not None:
            faces = self.dice(frame)
            if faces is not None:
                self.play.see_dice(faces)
        for press in self.buttons.take() if self.buttons else []:
            self.play.press(press)
        while self.panel is not None and (event := self.panel.get(timeout=0)) is not None:
            self.play.press(event.press)
        page = self.play.view()
        fault = self._panel_fault()
        if fault is not None:
            page = replace(page, title=fault)
        if self.link is not None:
            page = replace(page, title=f"{page.title} · {self.link.brief()}")
        if page != self.shown:
            self.display.show(page)
            self.shown = None if getattr(self.display, "fault", None) else page  # a bus error: draw it again
        return page

    def _panel_fault(self) -> str | None:
        """What is wrong with the seat panel, for the title bar (logged when it changes)."""
        status = getattr(self.panel, "status", None)  # SeatPanel has it; a stand-in source may not
        if status is None:
            return None
        connected = status().connected
        self.panel_seen = self.panel_seen or connected
        fault = "Panel unplugged" if self.panel_seen and not connected else None
        if fault != self.panel_fault:
            if fault:
                log.warning("the seat panel is unplugged: its buttons wait until it is back")
            else:
                log.info("the seat panel is back")
            self.panel_fault = fault
        return fault
