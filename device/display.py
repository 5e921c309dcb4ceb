"""The OLED behind a small interface: a luma device, real (ssd1306 / sh1106 on I2C) or a stand-in
(luma.emulator's ``capture``, which writes each frame as a PNG, or luma's in-memory ``dummy``).

``Display`` shows screens on whichever it has, pages long ones, and survives bus errors: a failed write
(an ``OSError``, or the ``luma.core.error.Error`` luma's I2C interface makes of EIO and EREMOTEIO) is
logged once and reported through ``fault`` until a write works again; the device's loop then draws its
page again at each frame until one gets through.

A real OLED is given as an ``Oled``, which can set it up again: luma sends the controller its set-up
commands only when its device is made, and an OLED that lost power (its bus errors meanwhile) comes back
blank, as does one plugged in after the start. So while the display has a fault, about once a second
(``RETRY_SECONDS``) it asks the OLED whether it answers, and once it does, sets it up afresh and draws the
page. An OLED missing at the start is logged and set up once it answers; the device scores meanwhile.

>>> display = Display(open_device("dummy"))
>>> display.show(Screen("Gin", big="Ann 25"))
>>> display.device.image.size, display.fault
((128, 64), None)
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import luma.core.error

from device.screens import HEIGHT, WIDTH, Screen, paged, render

log = logging.getLogger(__name__)

OLEDS = ("ssd1306", "sh1106")
"""The real OLED controllers (on I2C)."""
KINDS = (*OLEDS, "emulator", "dummy")
"""The display kinds a configuration may name: two real OLED controllers and two stand-ins."""
NOP = 0xE3
"""The command both controllers take as "no operation": it asks the bus whether the OLED answers."""
RETRY_SECONDS = 1.0
"""While the OLED has a fault, how often to ask whether it answers again."""


class Oled:
    """A real OLED: luma's ``kind`` device on the serial interface ``serial()`` makes (opened once, at the
    first need), made afresh by ``make`` whenever the OLED must be set up again."""

    def __init__(self, kind: str, serial: Callable[[], Any], rotate: int = 0) -> None:
        if kind not in OLEDS:
            raise ValueError(f"unknown OLED kind {kind!r} (known: {', '.join(OLEDS)})")
        self.kind, self.serial, self.rotate = kind, serial, rotate
        self.interface: Any = None

    @staticmethod
    def on_i2c(kind: str, port: int = 1, address: int = 0x3C, rotate: int = 0) -> Oled:
        """The OLED ``kind`` at ``address`` on the I2C bus ``port``."""
        from luma.core.interface.serial import i2c

        return Oled(kind, lambda: i2c(port=port, address=address), rotate)

    def ask(self) -> None:
        """Send the OLED a command that changes nothing: an ``OSError`` or ``luma.core.error.Error`` when it
        is not there, not powered, or its bus cannot be opened."""
        self._interface().command(NOP)

    def make(self) -> Any:
        """The luma device, made now: the OLED is sent its set-up commands, cleared and switched on."""
        from luma.oled import device as oled

        return getattr(oled, self.kind)(self._interface(), width=WIDTH, height=HEIGHT, rotate=self.rotate)

    def _interface(self) -> Any:
        if self.interface is None:
            self.interface = self.serial()
        return self.interface


def open_device(kind: str, *, rotate: int = 0, folder: str | Path | None = None) -> Any:
    """A stand-in luma device of ``kind`` (a real OLED is an ``Oled``: see ``connect``); ``folder`` is where
    the ``emulator`` writes its PNG frames."""
    if kind == "emulator":
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # luma.emulator draws with pygame
        try:
            from luma.emulator.device import capture
        except ImportError:
            raise ValueError("the emulator display needs luma.emulator, which is not installed: "
                             "pip install 'tablescore[emulator]'") from None
        if folder is None:
            raise ValueError("the emulator display needs a folder for its frames")
        Path(folder).mkdir(parents=True, exist_ok=True)
        return capture(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1", transform="none",
                       file_template=str(Path(folder) / "oled_{0:05}.png"))
    if kind == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    raise ValueError(f"unknown display kind {kind!r} (known: {', '.join(KINDS)})")


def connect(kind: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0,
            folder: str | Path | None = None) -> Display:
    """The display of ``kind``: a real OLED set up now if it answers, else once it does; a stand-in as
    ``open_device`` makes it."""
    if kind in OLEDS:
        return Display(Oled.on_i2c(kind, port, address, rotate))
    return Display(open_device(kind, rotate=rotate, folder=folder))


class Display:
    """Screens on a luma device, one page at a time; ``device`` is a luma device, or an ``Oled`` to set up
    now and again whenever it comes back."""

    def __init__(self, device: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.oled = device if isinstance(device, Oled) else None
        self.device = device
        """The luma device drawn on (while an ``Oled`` cannot be set up, luma's in-memory one)."""
        self.pages: list[Screen] = []
        self.page = 0
        self.fault: str | None = None
        self.clock = clock
        self._asked = -RETRY_SECONDS  # when the OLED was last asked whether it answers
        self._drawn = False  # whether a page ever reached it
        self.copy: Callable[[Any], None] | None = None
        """Given each image the OLED shows (``tablescore demo --out`` writes them to a folder)."""
        if self.oled is not None:
            self.device = open_device("dummy", rotate=self.oled.rotate)
            self._set_up()

    def show(self, screen: Screen) -> None:
        """Show the first page of ``screen``."""
        self.pages = paged(screen)
        self.page = 0
        self._draw()

    def cycle(self, screen: Screen) -> None:
        """Show ``screen``, or its next page where it is shown already: called again and again (a fault
        retried every second), a message longer than a page goes round, a page a call."""
        if paged(screen) == self.pages:
            self.turn()
        else:
            self.show(screen)

    def turn(self, step: int = 1) -> None:
        """Show the next (or, with -1, previous) page, wrapping round."""
        if self.pages:
            self.page = (self.page + step) % len(self.pages)
            self._draw()

    def _draw(self) -> None:
        if self.fault is not None and self.oled is not None and not self._set_up():
            return
        image = render(self.pages[self.page])
        try:
            self.device.display(image)
        except (OSError, luma.core.error.Error) as error:  # a bus error: keep running, say so, try again
            self._failed("the OLED cannot be written", error)
        else:
            if self.copy is not None:
                self.copy(image)
            if self.fault is not None:
                log.info("the OLED works again" if self._drawn else "the OLED works")
            self.fault = None
            self._drawn = True

    def _set_up(self) -> bool:
        """Set the OLED up afresh if it answers (asked at most once every RETRY_SECONDS); whether it is."""
        assert self.oled is not None
        now = self.clock()
        if now - self._asked < RETRY_SECONDS:
            return False
        self._asked = now
        try:
            self.oled.ask()  # first: a device made on a dead bus would blank the OLED when the program ends
            device = self.oled.make()
        except (OSError, luma.core.error.Error) as error:
            self._failed("the OLED cannot be set up", error)
            return False
        self.device.persist = True  # the device replaced must not blank the OLED when the program ends
        self.device = device
        return True

    def _failed(self, what: str, error: Exception) -> None:
        if self.fault is None:
            log.error("%s: %s", what, error)
        self.fault = f"OLED: {error}"
