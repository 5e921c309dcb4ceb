"""A stand-in for systemd's notify socket, shared by the notify, lifecycle and service tests.

>>> with NotifySocket() as listener:
...     sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
...     _ = sender.sendto(b"READY=1", listener.address); sender.close()
...     listener.received()
['READY=1']
"""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path
from types import TracebackType


class NotifySocket:
    """A datagram socket where systemd's would be: in a fresh folder (``folder``) by default, or at
    ``address`` (``\\0name`` for the abstract namespace). Use it in a ``with`` block."""

    def __init__(self, address: str | None = None) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="ts-"))  # short: socket paths hold 107 bytes at most
        self.address = str(self.folder / "notify") if address is None else address
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(self.address)

    def __enter__(self) -> NotifySocket:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.socket.close()
        shutil.rmtree(self.folder)

    def received(self) -> list[str]:
        """The messages sent so far, oldest first."""
        self.socket.settimeout(0)
        messages = []
        while True:
            try:
                messages.append(self.socket.recv(4096).decode())
            except BlockingIOError:
                return messages
