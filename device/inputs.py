"""What a person presses: one ``Press`` for the main buttons (OK, BACK, NEXT) and a seat panel's (Confirm,
Action), held or not.

A seat panel's press names its seat (1-4, as printed on the panel); a main button's has none. The game
flows read only these: where a press came from (gpiozero, the keyboard, the panel's serial link) is the
sources' business.

>>> Press(Button.OK, held=True).undo, Press(Button.CONFIRM, held=True, seat=2).undo
(True, True)
>>> Press(Button.CONFIRM, held=False, seat=2).ok, Press(Button.ACTION, held=False, seat=2).ok
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Button", "Press"]


class Button(StrEnum):
    """A button: the three main ones, and each seat panel's two."""

    OK = "ok"
    BACK = "back"
    NEXT = "next"
    CONFIRM = "confirm"
    """A seat panel's Confirm: OK from that seat (held: undo)."""
    ACTION = "action"
    """A seat panel's Action: what the game says it means."""


@dataclass(frozen=True, slots=True)
class Press:
    """One press of ``button``; ``held`` when it was held past the hold time; ``seat`` the panel's seat
    (1-4) for a seat panel's button, None for a main one."""

    button: Button
    held: bool
    seat: int | None = None

    @property
    def ok(self) -> bool:
        """Whether it confirms: OK, or a seat's Confirm, pressed."""
        return self.button in (Button.OK, Button.CONFIRM) and not self.held

    @property
    def undo(self) -> bool:
        """Whether it asks to take back the latest confirmation: OK, or a seat's Confirm, held."""
        return self.button in (Button.OK, Button.CONFIRM) and self.held
