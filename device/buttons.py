"""The main push buttons (OK, BACK, NEXT) through gpiozero; holding OK asks for an undo.

Presses arrive on gpiozero's threads and wait in a queue until the device's loop takes them, so no
press is lost while the loop is busy. In tests and without a Pi, gpiozero's MockFactory stands in:

>>> from gpiozero.pins.mock import MockFactory
>>> factory = MockFactory()
>>> buttons = Buttons({"ok": 17, "back": 27, "next": 22}, pin_factory=factory)
>>> factory.pin(22).drive_low(); factory.pin(22).drive_high()
>>> buttons.take()
[Press(button=<Button.NEXT: 'next'>, held=False, seat=None)]
>>> buttons.close()
"""

from __future__ import annotations

import queue
from collections.abc import Mapping
from typing import Any

import gpiozero

from device.inputs import Button, Press

NAMES = ("ok", "back", "next")
DEFAULT_PINS = {"ok": 17, "back": 27, "next": 22}
"""BCM pin numbers; each button connects its pin to ground (the internal pull-up holds it high)."""


class Buttons:
    """The main buttons on their pins; ``take`` returns the presses since the last call, in order."""

    def __init__(self, pins: Mapping[str, int] = DEFAULT_PINS, hold_time: float = 1.5,
                 pin_factory: Any = None) -> None:
        unknown = set(pins) - set(NAMES)
        if unknown:
            raise ValueError(f"unknown button {sorted(unknown)[0]!r} (the buttons are {', '.join(NAMES)})")
        self.presses: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self.buttons = [self._button(name, pin, hold_time, pin_factory) for name, pin in pins.items()]

    def _button(self, name: str, pin: int, hold_time: float, pin_factory: Any) -> gpiozero.Button:
        button = gpiozero.Button(pin, hold_time=hold_time, pin_factory=pin_factory)
        held = False

        def on_held() -> None:
            nonlocal held
            held = True
            self.presses.put(Press(Button(name), held=True))

        def on_released() -> None:
            nonlocal held
            if not held:
                self.presses.put(Press(Button(name), held=False))
            held = False

        button.when_held = on_held
        button.when_released = on_released
        return button

    def take(self) -> list[Press]:
        """The presses waiting, oldest first."""
        taken = []
        while not self.presses.empty():
            taken.append(self.presses.get())
        return taken

    def close(self) -> None:
        """Release the pins."""
        for button in self.buttons:
            button.close()
