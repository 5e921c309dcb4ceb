"""Telling systemd how the service is doing: the sd_notify protocol on the standard library alone.

Under systemd (``Type=notify``), ``$NOTIFY_SOCKET`` names a datagram socket: a path, or ``@name`` in the
abstract namespace. Each datagram holds lines such as ``READY=1`` (started), ``WATCHDOG=1`` (still alive,
within ``$WATCHDOG_USEC``), ``STOPPING=1`` and ``STATUS=...`` (shown by ``systemctl status``). Without a
socket (run by hand, or in tests) every call does nothing:

>>> notifier = Notifier(environ={})
>>> notifier.enabled, notifier.ready(), notifier.watchdog(), notifier.status("dealing"), notifier.stopping()
(False, False, False, False, False)

The module's functions use one notifier made from the process's environment:
``notify.ready()``, ``notify.watchdog()``, ``notify.stopping()``, ``notify.status(text)``.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger(__name__)

WATCHDOG_SHARE = 4
"""``watchdog()`` pings at most every 1/4 of the interval, so a loop step may take up to 3/4 of it."""


class Notifier:
    """A sender of notifications to ``$NOTIFY_SOCKET`` as found in ``environ``; ``clock`` paces the
    watchdog (seconds, monotonic)."""

    def __init__(self, environ: Mapping[str, str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        environ = os.environ if environ is None else environ
        self.address = _address(environ.get("NOTIFY_SOCKET", ""))
        self.interval = _watchdog_interval(environ)
        self.clock = clock
        self.last_ping: float | None = None
        self.socket: socket.socket | None = None
        self.failed = False

    @property
    def enabled(self) -> bool:
        """Whether there is a service manager to tell."""
        return self.address is not None

    def send(self, message: str) -> bool:
        """Send ``message`` (``KEY=value`` lines); True when it went. A failure is logged once and
        never raised: the device keeps scoring whatever happens to its supervisor."""
        if self.address is None:
            return False
        try:
            if self.socket is None:
                self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self.socket.sendto(message.encode(), self.address)
        except OSError as error:
            if not self.failed:
                log.warning("cannot notify the service manager at %s: %s", self.address, error)
            self.failed = True
            return False
        self.failed = False
        return True

    def ready(self) -> bool:
        """Startup is finished: the device is scoring."""
        return self.send("READY=1")

    def stopping(self) -> bool:
        """The device is shutting down."""
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        """A one-line status for ``systemctl status`` (line breaks become spaces)."""
        return self.send("STATUS=" + " ".join(text.splitlines()))

    def watchdog(self) -> bool:
        """Tell the watchdog the device is alive; call it every loop step. It pings when a watchdog
        is set and a quarter of its interval has passed since the last ping; True when it pinged.

        >>> now = [0.0]
        >>> notifier = Notifier({"NOTIFY_SOCKET": "@tablescore-doctest", "WATCHDOG_USEC": "2000000"},
        ...                     clock=lambda: now[0])
        >>> notifier.send = lambda message: True   # no manager listens in a doctest
        >>> pings = []
        >>> for step in range(8):                  # a loop step every 0.375 s
        ...     now[0] = step * 0.375
        ...     pings.append(notifier.watchdog())
        >>> [step * 0.375 for step, pinged in enumerate(pings) if pinged]
        [0.0, 0.75, 1.5, 2.25]
        """
        if self.interval is None:
            return False
        now = self.clock()
        if self.last_ping is not None and now - self.last_ping < self.interval / WATCHDOG_SHARE:
            return False
        sent = self.send("WATCHDOG=1")
        if sent:
            self.last_ping = now
        return sent

    def close(self) -> None:
        """Close the socket (a later message opens it again)."""
        if self.socket is not None:
            self.socket.close()
            self.socket = None


def _address(name: str) -> str | None:
    """The socket address ``$NOTIFY_SOCKET`` names: a path, or ``@name`` in the abstract namespace.

    >>> _address("/run/systemd/notify"), _address("@ts/notify"), _address("")
    ('/run/systemd/notify', '\\x00ts/notify', None)
    """
    if not name:
        return None
    return "\0" + name[1:] if name.startswith("@") else name


def _watchdog_interval(environ: Mapping[str, str]) -> float | None:
    """The watchdog interval in seconds, when one is set for this process.

    >>> _watchdog_interval({"WATCHDOG_USEC": "15000000"}), _watchdog_interval({})
    (15.0, None)
    >>> _watchdog_interval({"WATCHDOG_USEC": "15000000", "WATCHDOG_PID": "1"})  # meant for another process
    """
    try:
        usec = int(environ.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = environ.get("WATCHDOG_PID")
    if usec <= 0 or (pid is not None and pid != str(os.getpid())):
        return None
    return usec / 1_000_000


_notifier: Notifier | None = None


def notifier() -> Notifier:
    """The process's notifier, made from its environment on first use."""
    global _notifier
    if _notifier is None:
        _notifier = Notifier()
    return _notifier


def ready() -> bool:
    """Tell systemd the device has started (``READY=1``)."""
    return notifier().ready()


def watchdog() -> bool:
    """Feed systemd's watchdog (``WATCHDOG=1``), paced by ``$WATCHDOG_USEC``."""
    return notifier().watchdog()


def stopping() -> bool:
    """Tell systemd the device is stopping (``STOPPING=1``)."""
    return notifier().stopping()


def status(text: str) -> bool:
    """Show ``text`` in ``systemctl status`` (``STATUS=...``)."""
    return notifier().status(text)
