"""The sd_notify client against a stand-in for systemd's notify socket (a datagram socket we bind)."""

from __future__ import annotations

import os
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from device import notify
from device.notify import Notifier


class StandIn:
    """A datagram socket where systemd's would be; ``received()`` returns the messages sent so far."""

    def __init__(self, address: str) -> None:
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(address)
        self.socket.settimeout(0)

    def received(self) -> list[str]:
        messages = []
        while True:
            try:
                messages.append(self.socket.recv(4096).decode())
            except BlockingIOError:
                return messages


@pytest.fixture
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="ts-") as name:  # short: socket paths hold 107 bytes at most
        yield Path(name)


@pytest.fixture
def stand_in(folder: Path) -> Iterator[StandIn]:
    listener = StandIn(str(folder / "notify"))
    yield listener
    listener.socket.close()


def test_messages_reach_a_path_socket(stand_in: StandIn, folder: Path) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(folder / "notify"), "WATCHDOG_USEC": "1000000"})
    assert notifier.enabled
    assert notifier.ready() and notifier.watchdog() and notifier.status("Cribbage\nAnn 12") and notifier.stopping()
    assert stand_in.received() == ["READY=1", "WATCHDOG=1", "STATUS=Cribbage Ann 12", "STOPPING=1"]


def test_abstract_namespace_socket() -> None:
    name = f"tablescore-test-{os.getpid()}"
    listener = StandIn("\0" + name)
    try:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert listener.received() == ["READY=1"]
    finally:
        listener.socket.close()


def test_watchdog_paced_by_watchdog_usec(stand_in: StandIn, folder: Path) -> None:
    now = [100.0]
    notifier = Notifier({"NOTIFY_SOCKET": str(folder / "notify"), "WATCHDOG_USEC": "4000000"},
                        clock=lambda: now[0])
    pinged = []
    for _ in range(32):  # a loop step every 1/8 s for 4 s: a ping each second (a quarter of 4 s)
        pinged.append(notifier.watchdog())
        now[0] += 0.125
    assert [step for step, ping in enumerate(pinged) if ping] == [0, 8, 16, 24]
    assert stand_in.received() == ["WATCHDOG=1"] * 4


def test_no_watchdog_without_watchdog_usec_or_for_another_process(stand_in: StandIn, folder: Path) -> None:
    address = str(folder / "notify")
    assert not Notifier({"NOTIFY_SOCKET": address}).watchdog()
    assert not Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000",
                         "WATCHDOG_PID": str(os.getpid() + 1)}).watchdog()
    assert not Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "soon"}).watchdog()
    assert Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000",
                     "WATCHDOG_PID": str(os.getpid())}).watchdog()
    assert stand_in.received() == ["WATCHDOG=1"]


def test_nothing_happens_without_notify_socket() -> None:
    notifier = Notifier({"WATCHDOG_USEC": "1000000"})
    assert not notifier.enabled
    assert not (notifier.ready() or notifier.watchdog() or notifier.status("x") or notifier.stopping())
    assert notifier.socket is None


def test_a_missing_manager_is_logged_once_and_never_raised(folder: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(folder / "gone"), "WATCHDOG_USEC": "1000000"})
    assert not notifier.ready()
    assert not notifier.watchdog()
    assert [record.levelname for record in caplog.records] == ["WARNING"]
    assert "cannot notify the service manager" in caplog.text


def test_module_functions_use_the_process_environment(stand_in: StandIn, folder: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(folder / "notify"))
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.setattr(notify, "_notifier", None)
    assert notify.ready() and notify.watchdog() and not notify.watchdog()  # the second is too soon
    assert notify.status("ok") and notify.stopping()
    assert stand_in.received() == ["READY=1", "WATCHDOG=1", "STATUS=ok", "STOPPING=1"]
    notify.notifier().close()
