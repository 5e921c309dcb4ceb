"""The sd_notify client against a stand-in for systemd's notify socket (a datagram socket we bind)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from device import notify
from device.notify import Notifier
from tests.device.notify_standin import NotifySocket


@pytest.fixture(name="listener")
def listener_fixture() -> Iterator[NotifySocket]:
    with NotifySocket() as listener:
        yield listener


def test_messages_reach_a_path_socket(listener: NotifySocket) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "1000000"})
    assert notifier.enabled
    assert notifier.ready() and notifier.watchdog() and notifier.status("Cribbage\nAnn 12") and notifier.stopping()
    assert listener.received() == ["READY=1", "WATCHDOG=1", "STATUS=Cribbage Ann 12", "STOPPING=1"]


def test_abstract_namespace_socket() -> None:
    name = f"tablescore-test-{os.getpid()}"
    with NotifySocket("\0" + name) as listener:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert listener.received() == ["READY=1"]


def test_watchdog_paced_by_watchdog_usec(listener: NotifySocket) -> None:
    now = [100.0]
    notifier = Notifier({"NOTIFY_SOCKET": listener.address, "WATCHDOG_USEC": "4000000"},
                        clock=lambda: now[0])
    pinged = []
    for _ in range(32):  # a loop step every 1/8 s for 4 s: a ping each second (a quarter of 4 s)
        pinged.append(notifier.watchdog())
        now[0] += 0.125
    assert [step for step, ping in enumerate(pinged) if ping] == [0, 8, 16, 24]
    assert listener.received() == ["WATCHDOG=1"] * 4


def test_no_watchdog_without_watchdog_usec_or_for_another_process(listener: NotifySocket) -> None:
    address = listener.address
    assert not Notifier({"NOTIFY_SOCKET": address}).watchdog()
    assert not Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000",
                         "WATCHDOG_PID": str(os.getpid() + 1)}).watchdog()
    assert not Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "soon"}).watchdog()
    assert Notifier({"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "1000000",
                     "WATCHDOG_PID": str(os.getpid())}).watchdog()
    assert listener.received() == ["WATCHDOG=1"]


def test_nothing_happens_without_notify_socket() -> None:
    notifier = Notifier({"WATCHDOG_USEC": "1000000"})
    assert not notifier.enabled
    assert not (notifier.ready() or notifier.watchdog() or notifier.status("x") or notifier.stopping())
    assert notifier.socket is None


def test_a_missing_manager_is_logged_once_and_never_raised(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone"), "WATCHDOG_USEC": "1000000"})
    assert not notifier.ready()
    assert not notifier.watchdog()
    assert [record.levelname for record in caplog.records] == ["WARNING"]
    assert "cannot notify the service manager" in caplog.text


def test_module_functions_use_the_process_environment(listener: NotifySocket,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", listener.address)
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    monkeypatch.setattr(notify, "_notifier", None)
    assert notify.ready() and notify.watchdog() and not notify.watchdog()  # the second is too soon
    assert notify.status("ok") and notify.stopping()
    assert listener.received() == ["READY=1", "WATCHDOG=1", "STATUS=ok", "STOPPING=1"]
    notify.notifier().close()
