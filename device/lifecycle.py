"""The device's life as a service: ready, watched, and stopped cleanly between two steps.

The main loop works one step at a time (a frame read, a press handled, a confirmation committed) and asks
``alive()`` before each step, which also feeds systemd's watchdog. SIGTERM (``systemctl stop``) and
SIGINT (Ctrl-C) only set a flag, so the step in progress finishes: what it confirmed is in the journal
whole, and nothing stops halfway. On leaving the ``with`` block the OLED shows a stopped screen and
systemd hears ``STOPPING=1``::

    with Journal(path) as journal, Lifecycle(display=display) as life:
        life.ready("Cribbage: Ann v Bob")
        while life.alive():
            step()             # one frame, one press, one confirmation
            life.wait(0.1)     # until the next frame; returns at once when a stop is asked for

A second signal while the step finishes stops at once (KeyboardInterrupt), for a step that hangs; the
journal is safe even then, as each confirmation is committed whole or not at all.

>>> from device.display import Display, open_device
>>> from device.notify import Notifier
>>> with Lifecycle(Notifier(environ={}), Display(open_device("dummy"))) as life:
...     steps = 0
...     while life.alive():
...         steps += 1
...         if steps == 3:
...             life.stop("the demo ends")
>>> steps, life.reason, life.display.pages[0].big
(3, 'the demo ends', 'Stopped')
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from types import FrameType, TracebackType

from device import notify
from device.display import Display
from device.notify import Notifier
from device.screens import Screen

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGTERM, signal.SIGINT)


def stopped_screen(error: BaseException | None = None) -> Screen:
    """What the OLED shows once the device has stopped: scores are safe; with ``error``, what went wrong.

    >>> stopped_screen().lines
    ('Scores are saved.', 'Resumes on start.')
    >>> stopped_screen(OSError("camera gone")).lines[0]
    'Error: camera gone'
    """
    lines: tuple[str, ...] = ("Scores are saved.", "Resumes on start.")
    if error is not None:
        lines = (f"Error: {error}".splitlines()[0], *lines)
    return Screen("tablescore", lines=lines, big="Stopped")


class Lifecycle:
    """Signal handlers that ask the loop to stop, the systemd notifications, and the stopped screen.

    ``notifier`` defaults to the process's (from ``$NOTIFY_SOCKET``); ``display``, when given, shows the
    stopped screen at the end.
    """

    def __init__(self, notifier: Notifier | None = None, display: Display | None = None) -> None:
        self.notifier = notify.notifier() if notifier is None else notifier
        self.display = display
        self.reason: str | None = None
        """Why the loop stopped (a signal's name, or what ``stop`` was told), once it was asked to."""
        self._stop = threading.Event()
        self._previous: dict[int, object] = {}
        self._logged = False

    def __enter__(self) -> Lifecycle:
        for number in SIGNALS:
            self._previous[number] = signal.signal(number, self._on_signal)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        for number, handler in self._previous.items():
            signal.signal(number, handler)  # type: ignore[arg-type]
        self._previous.clear()
        self.notifier.stopping()
        failed = error if isinstance(error, Exception) else None
        if failed is not None:
            self.notifier.status(f"stopped: {failed}")
        if self.display is not None:
            self.display.show(stopped_screen(failed))
            self.display.device.persist = True  # luma would blank the OLED when the process exits

    def _on_signal(self, number: int, frame: FrameType | None) -> None:
        # Runs between two bytecodes of the main thread: only set the flag (logging here could re-enter
        # a stream the loop is writing); the loop notices it at the end of its step.
        name = signal.Signals(number).name
        if self._stop.is_set():
            raise KeyboardInterrupt(f"{name} while stopping: stopping at once")
        self.reason = name
        self._stop.set()

    def ready(self, status: str | None = None) -> None:
        """Tell systemd the device has started, with an optional status line."""
        self.notifier.ready()
        if status is not None:
            self.notifier.status(status)

    def status(self, text: str) -> None:
        """A status line for ``systemctl status``."""
        self.notifier.status(text)

    def stop(self, reason: str) -> None:
        """Ask the loop to stop after its step, as a signal would."""
        if not self._stop.is_set():
            self.reason = reason
            self._stop.set()

    @property
    def stopping(self) -> bool:
        """Whether a stop was asked for."""
        return self._stop.is_set()

    def alive(self) -> bool:
        """Whether to run another step; feeds the watchdog while it is so."""
        if self._stop.is_set():
            if not self._logged:
                log.info("stopping (%s): the last step is finished", self.reason)
                self._logged = True
            return False
        self.notifier.watchdog()
        return True

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``, feeding the watchdog, and wake at once when a stop is asked for;
        True when the time passed without one."""
        interval = self.notifier.interval
        slice_ = seconds if interval is None else interval / notify.WATCHDOG_SHARE
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if self._stop.wait(min(slice_, left)):
                return False
            self.notifier.watchdog()
        return not self._stop.is_set()
