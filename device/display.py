"""The OLED behind a small interface: a luma device, real (ssd1306 / sh1106 on I2C) or a stand-in
(luma.emulator's ``capture``, which writes each frame as a PNG, or luma's in-memory ``dummy``).

``Display`` shows screens on whichever it has, pages long ones, and survives bus errors: a failed write
(an ``OSError``, or the ``luma.core.error.Error`` luma's I2C interface makes of EIO and EREMOTEIO) is
logged once and reported through ``fault`` until a write works again; the device's loop then draws its
page again at each frame until one gets through.

>>> display = Display(open_device("dummy"))
>>> display.show(Screen("Gin", big="Ann 25"))
>>> display.device.image.size, display.fault
((128, 64), None)
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import luma.core.error

from device.screens import HEIGHT, WIDTH, Screen, paged, render

log = logging.getLogger(__name__)

KINDS = ("ssd1306", "sh1106", "emulator", "dummy")
"""The display kinds a configuration may name: two real OLED controllers and two stand-ins."""


def open_device(kind: str, *, port: int = 1, address: int = 0x3C, rotate: int = 0,
                folder: str | Path | None = None) -> Any:
    """A luma device of ``kind``; ``folder`` is where the ``emulator`` writes its PNG frames."""
    if kind in ("ssd1306", "sh1106"):
        from luma.core.interface.serial import i2c
        from luma.oled import device as oled

        return getattr(oled, kind)(i2c(port=port, address=address), width=WIDTH, height=HEIGHT, rotate=rotate)
    if kind == "emulator":
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # luma.emulator draws with pygame
        from luma.emulator.device import capture

        if folder is None:
            raise ValueError("the emulator display needs a folder for its frames")
        Path(folder).mkdir(parents=True, exist_ok=True)
        return capture(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1", transform="none",
                       file_template=str(Path(folder) / "oled_{0:05}.png"))
    if kind == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    raise ValueError(f"unknown display kind {kind!r} (known: {', '.join(KINDS)})")


class Display:
    """Screens on a luma device, one page at a time."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.pages: list[Screen] = []
        self.page = 0
        self.fault: str | None = None

    def show(self, screen: Screen) -> None:
        """Show the first page of ``screen``."""
        self.pages = paged(screen)
        self.page = 0
        self._draw()

    def turn(self, step: int = 1) -> None:
        """Show the next (or, with -1, previous) page, wrapping round."""
        if self.pages:
            self.page = (self.page + step) % len(self.pages)
            self._draw()

    def _draw(self) -> None:
        try:
            self.device.display(render(self.pages[self.page]))
        except (OSError, luma.core.error.Error) as error:  # a bus error: keep running, say so, try again
            if self.fault is None:
                log.error("the OLED cannot be written: %s", error)
            self.fault = f"OLED: {error}"
        else:
            if self.fault is not None:
                log.info("the OLED works again")
            self.fault = None
