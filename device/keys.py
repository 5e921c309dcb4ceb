"""The keyboard as the buttons and the seat panel, for a device with neither (``tablescore run --keys``).

Each line typed (or piped in) is one press, read on a thread of its own and kept until the device's loop
takes it, as the real buttons' presses are:

======  =========================================================
line    press
======  =========================================================
``o``   OK (an empty line too)
``n``   NEXT
``b``   BACK
``O``   OK held: undo (``N``, ``B``: NEXT and BACK held)
``c2``  seat 2's Confirm (``C2`` held)
``a2``  seat 2's Action (``A2`` held)
======  =========================================================

Several presses may share a line, separated by spaces (``n n o``). A line that is none of these is
named in the log with this table's short form, and nothing is pressed.

>>> import io
>>> keys = Keys(io.StringIO("n\\n\\nO\\na3 C1\\nx\\n"))
>>> keys.wait()
>>> keys.take()
[Press(button=<Button.NEXT: 'next'>, held=False, seat=None), Press(button=<Button.OK: 'ok'>, held=False, seat=None), Press(button=<Button.OK: 'ok'>, held=True, seat=None)]
>>> keys.get(0), keys.get(0), keys.get(0)
(PanelEvent(seat=3, button='action', kind='press', seq=1), PanelEvent(seat=1, button='confirm', kind='hold', seq=2), None)
"""

from __future__ import annotations

import logging
import queue
import threading
from typing import TextIO

from device.inputs import Button, Press
from device.panel import PanelEvent

log = logging.getLogger(__name__)

BUTTONS = {"o": Button.OK, "n": Button.NEXT, "b": Button.BACK}
PANEL = {"c": "confirm", "a": "action"}
HELP = "o OK, n NEXT, b BACK (capital: held; O is undo), c2 / a2 seat 2's Confirm / Action (C2 / A2 held)"


def parse(word: str) -> Press | tuple[int, str, str] | None:
    """The press one word means: a main button's, a seat's (seat, button, kind), or None.

    >>> parse("N"), parse("a4"), parse("c9")
    (Press(button=<Button.NEXT: 'next'>, held=True, seat=None), (4, 'action', 'press'), None)
    """
    key = word[:1].lower()
    held = word[:1].isupper()
    if word[1:] == "" and key in BUTTONS:
        return Press(BUTTONS[key], held=held)
    if key in PANEL and word[1:] in ("1", "2", "3", "4"):
        return int(word[1:]), PANEL[key], "hold" if held else "press"
    return None


class Keys:
    """Presses typed on ``stream`` (standard input by default): ``take`` gives the main buttons' (as
    ``device.buttons.Buttons``), ``get`` the seat panel's (as ``device.panel.SeatPanel``)."""

    def __init__(self, stream: TextIO) -> None:
        self.presses: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self.events: queue.SimpleQueue[PanelEvent] = queue.SimpleQueue()
        self._seq = 0
        self._thread = threading.Thread(target=self._read, args=(stream,), name="keys", daemon=True)
        self._thread.start()

    def _read(self, stream: TextIO) -> None:
        for line in stream:
            for word in line.split() or ["o"]:
                pressed = parse(word)
                if isinstance(pressed, Press):
                    self.presses.put(pressed)
                elif pressed is not None:
                    self._seq += 1
                    self.events.put(PanelEvent(*pressed, seq=self._seq))
                else:
                    log.warning("the key %r is no button: %s", word, HELP)

    def wait(self) -> None:
        """Wait until the stream has ended and every line is read (for a piped script)."""
        self._thread.join()

    def take(self) -> list[Press]:
        """The main buttons' presses waiting, oldest first."""
        taken = []
        while not self.presses.empty():
            taken.append(self.presses.get())
        return taken

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        """The next seat panel event, waiting up to ``timeout`` seconds (None: for ever); None if none came."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None
