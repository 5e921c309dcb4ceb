"""The device side of the seat panel link, against a scripted panel on a pty (in this process)."""

import contextlib
import logging
import os
import time
import tty
from types import SimpleNamespace

import pytest

from device import panel as panel_module
from device.panel import PanelEvent, SeatPanel, find_port
from firmware import protocol
from firmware.protocol import Ack, Button, Deframer, Heartbeat, Hello, Led
from tests.device.panel_waits import take, until

BOOT = 0xCAFE


class ScriptedPanel:
    """The panel's end of a pty, written to by hand; records what the device sends."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.reader = Deframer()
        self.received = []

    def send(self, *messages):
        for message in messages:
            os.write(self.master, message.frame())

    def hello(self, boot=BOOT, version=protocol.PROTOCOL_VERSION):
        self.send(Hello(version, boot, 4, "9.9.9"))

    def heard(self, kind=None):
        with contextlib.suppress(BlockingIOError):
            self.received += self.reader.feed(os.read(self.master, 4096))
        return [m for m in self.received if kind is None or isinstance(m, kind)]

    def close(self):
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def peer():
    scripted = ScriptedPanel()
    yield scripted
    scripted.close()


@pytest.fixture
def link(peer):
    with SeatPanel(peer.path) as panel:
        assert until(lambda: peer.heard(Hello)), "the device never asked for a hello"
        peer.hello()
        assert until(lambda: panel.status().connected)
        yield panel


def test_connects_to_a_configured_port_and_reads_the_hello(link, peer):
    status = link.status()
    assert status.connected and status.port == peer.path and status.firmware == "9.9.9"
    assert status.connections == 1 and status.problem is None
    asked = peer.heard(Hello)[0]
    assert (
        asked.protocol == protocol.PROTOCOL_VERSION
        and asked.seats == 0
        and asked.version.startswith("tablescore")
    )


def test_events_are_delivered_in_order_once_and_acknowledged(link, peer):
    peer.send(Button(BOOT, 2, 3, 1, 0))  # number 1 is missing: held back, and not acknowledged
    assert link.get(timeout=0.2) is None
    assert peer.heard(Ack) == []
    peer.send(Button(BOOT, 1, 1, 0, 1))
    assert take(link, 2) == [PanelEvent(1, "action", "hold", 1), PanelEvent(3, "confirm", "press", 2)]
    assert until(lambda: peer.heard(Ack) == [Ack(BOOT, 2)])
    peer.send(Button(BOOT, 1, 1, 0, 1), Button(BOOT, 2, 3, 1, 0))  # resent: dropped, acknowledged again
    assert link.get(timeout=0.2) is None
    assert until(lambda: link.status().repeats == 2)
    assert until(lambda: peer.heard(Ack) == [Ack(BOOT, 2)] * 3)
    assert link.status().events == 2


def test_a_restarted_panel_numbers_from_one_again(link, peer):
    peer.send(Button(BOOT, 1, 2, 0, 0))
    assert take(link, 1)[0].seq == 1
    peer.send(Button(BOOT + 1, 1, 4, 0, 0))  # a new start whose hello was lost: not taken yet
    assert link.get(timeout=0.2) is None
    assert until(lambda: len(peer.heard(Hello)) >= 2)  # the device asks again
    peer.hello(BOOT + 1)
    peer.send(Button(BOOT + 1, 1, 4, 0, 0))  # the panel's resend
    assert take(link, 1) == [PanelEvent(4, "action", "press", 1)]


def test_leds_are_sent_resent_and_confirmed(link, peer):
    link.set_led(2, "blink")
    assert until(lambda: any(m.seat == 2 and m.mode == protocol.BLINK for m in peer.heard(Led)))
    assert not link.leds_confirmed()
    time.sleep(panel_module.LED_RETRY_S * 2 + 0.1)
    resent = [m for m in peer.heard(Led) if m.seat == 2]
    assert len(resent) >= 2  # unacknowledged, so sent again
    assert until(lambda: peer.send(*(Ack(BOOT, m.seq) for m in peer.heard(Led))) or link.leds_confirmed())


def test_the_ack_of_an_earlier_resend_confirms_an_led(link, peer):
    """Each resend of an LED setting carries its number (the firmware applies a repeat again and acknowledges
    that number), so an acknowledgement crossed by a later resend still confirms it; the acknowledgement of
    an earlier setting of the seat does not."""
    link.set_led(2, "blink")
    time.sleep(panel_module.LED_RETRY_S * 2 + 0.1)
    heard = peer.heard(Led)
    blinks = [m for m in heard if m.seat == 2 and m.mode == protocol.BLINK]
    assert len(blinks) >= 2 and {m.seq for m in blinks} == {blinks[0].seq}
    [off] = {m.seq for m in heard if m.seat == 2 and m.mode == protocol.OFF}  # the setting before, from the hello
    firsts = {m.seat: m for m in reversed(heard) if m.seat != 2}  # the other seats' first sending
    peer.send(Ack(BOOT, off), *(Ack(BOOT, m.seq) for m in firsts.values()), Heartbeat(BOOT, 1, 9, 0))
    assert until(lambda: link.status().panel_bad_frames == 9)  # the heartbeat after the acks is taken
    assert not link.leds_confirmed()  # seat 2's earlier setting acknowledged, not the blink
    peer.send(Ack(BOOT, blinks[0].seq))
    assert until(link.leds_confirmed)


def test_every_led_is_sent_again_after_a_hello(link, peer):
    link.set_led(1, "on")
    peer.heard()
    peer.received.clear()
    peer.hello()
    assert until(lambda: {m.seat for m in peer.heard(Led)} == {1, 2, 3, 4})
    assert [m.mode for m in peer.heard(Led) if m.seat == 1][-1] == protocol.ON


def test_a_restart_on_an_open_link_sends_every_led_until_acknowledged(link, peer):
    """The Pico restarts while the serial link stays up (its heartbeat shows a new boot, then its new hello):
    it has forgotten the LEDs, so every setting is unconfirmed again and resent until the new start
    acknowledges it, even when the sending after the hello is lost."""
    link.set_led(3, "blink")
    assert until(lambda: peer.send(*(Ack(BOOT, m.seq) for m in peer.heard(Led))) or link.leds_confirmed())
    peer.send(Heartbeat(BOOT + 1, 0, 0, 0))
    assert until(lambda: len(peer.heard(Hello)) >= 2)  # the device asks the new start for its hello
    peer.heard()
    peer.received.clear()
    peer.hello(BOOT + 1)
    assert until(lambda: {m.seat for m in peer.heard(Led)} == {1, 2, 3, 4})  # sent after the hello ...
    assert not link.leds_confirmed()
    peer.received.clear()  # ... and lost
    assert until(lambda: {m.seat for m in peer.heard(Led)} == {1, 2, 3, 4})  # so it goes again
    assert [m.mode for m in peer.heard(Led) if m.seat == 3][-1] == protocol.BLINK
    assert not link.leds_confirmed()
    peer.send(*(Ack(BOOT + 1, m.seq) for m in peer.heard(Led)))
    assert until(link.leds_confirmed)


def test_heartbeats_go_out_and_the_panels_counters_come_in(link, peer):
    assert until(lambda: len(peer.heard(Heartbeat)) >= 2, timeout=2)
    peer.send(Heartbeat(BOOT, 12, 3, 1))
    assert until(lambda: link.status().panel_bad_frames == 3)
    assert link.status().panel_dropped == 1


def test_bad_frames_are_counted_and_never_acted_on(link, peer):
    good = Button(BOOT, 1, 2, 1, 0).frame()
    spoiled = bytearray(good)
    spoiled[5] ^= 0x10
    os.write(peer.master, b"\x00\xff\xfe\x00" + bytes(spoiled) + Led(1, 1, 1).frame())
    assert until(lambda: link.status().bad_frames == 3)  # junk, the spoiled event, an Led from a "panel"
    assert link.get(timeout=0.2) is None


def test_a_panel_speaking_another_protocol_is_not_used(peer):
    with SeatPanel(peer.path) as panel:
        assert until(lambda: peer.heard(Hello))
        peer.hello(version=protocol.PROTOCOL_VERSION + 1)
        assert until(lambda: panel.status().problem is not None)
        peer.send(Button(BOOT, 1, 1, 0, 0))
        assert panel.get(timeout=0.2) is None
        status = panel.status()
        assert not status.connected
        assert f"speaks protocol {protocol.PROTOCOL_VERSION + 1}" in status.problem
        assert "update the panel's firmware" in status.problem
        assert peer.heard(Ack) == []


def test_a_silent_panel_is_given_up_and_found_again(peer, monkeypatch):
    monkeypatch.setattr(panel_module, "SILENCE_S", 0.3)
    with SeatPanel(peer.path) as panel:
        assert until(lambda: peer.heard(Hello))
        peer.hello()
        assert until(lambda: panel.status().connected)
        assert until(lambda: panel.status().connections >= 2)  # closed after silence, then reopened


def test_without_a_panel_the_device_carries_on():
    with SeatPanel(finder=lambda: None) as panel:
        assert panel.get(timeout=0.1) is None
        panel.set_led(3, "on")  # kept for when a panel appears
        status = panel.status()
        assert not status.connected and status.port is None and status.connections == 0


def test_the_configured_setting_picks_the_port(monkeypatch, peer):
    monkeypatch.setattr(panel_module, "find_port", lambda: peer.path)
    for setting in ("auto", peer.path):
        with SeatPanel.configured(setting) as panel:
            assert until(lambda: peer.heard(Hello)), setting  # it opened the port and asked for a hello
        peer.received.clear()
    with SeatPanel.configured("none") as panel:
        time.sleep(0.2)
        assert panel.status().connections == 0


def test_a_failing_port_search_is_tried_again(peer):
    answers = iter([OSError("sysfs unreadable"), None, peer.path])

    def finder():
        answer = next(answers, peer.path)
        if isinstance(answer, Exception):
            raise answer
        return answer

    with SeatPanel(finder=finder) as panel:
        assert until(lambda: peer.heard(Hello))
        peer.hello()
        assert until(lambda: panel.status().connected)


def test_a_configured_port_that_is_not_there(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    with SeatPanel(str(tmp_path / "ttyACM9")) as panel:
        assert panel.get(timeout=1.0) is None  # about four tries
        assert not panel.status().connected
    said = [record.getMessage() for record in caplog.records]
    assert said == [f"the seat panel's port {tmp_path / 'ttyACM9'} cannot be opened (could not open port "
                    f"{tmp_path / 'ttyACM9'}: [Errno 2] No such file or directory: '{tmp_path / 'ttyACM9'}'): "
                    'tried again until it can; [panel] port = "auto" finds the Pico by itself']


@pytest.mark.parametrize(
    ("seat", "mode", "message"),
    [(0, "on", "seat must be 1-4, not 0"), (2, "glow", "LED mode must be one of off, on, blink, not 'glow'")],
)
def test_led_settings_are_checked(seat, mode, message):
    panel = SeatPanel(finder=lambda: None)
    with pytest.raises(ValueError, match=message):
        panel.set_led(seat, mode)


def test_find_port_picks_the_pico_by_usb_ids(monkeypatch):
    ports = [
        SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001),  # an FTDI adapter
        SimpleNamespace(device="/dev/ttyAMA0", vid=None, pid=None),  # the Pi's own UART
        SimpleNamespace(device="/dev/ttyACM1", vid=0x2E8A, pid=0x0005),
        SimpleNamespace(device="/dev/ttyACM0", vid=0x2E8A, pid=0x000A),  # a Pico running other firmware
    ]
    monkeypatch.setattr(panel_module.list_ports, "comports", lambda: ports)
    assert find_port() == "/dev/ttyACM1"
    assert find_port(pids=(0x000A, 0x0005)) == "/dev/ttyACM0"
    monkeypatch.setattr(panel_module.list_ports, "comports", lambda: ports[:2])
    assert find_port() is None


def test_iterating_yields_events_until_closed(link, peer):
    peer.send(Button(BOOT, 1, 2, 0, 0), Button(BOOT, 2, 2, 1, 1))
    seen = []
    for event in link:
        seen.append(event)
        if len(seen) == 2:
            break
    assert [(e.button, e.kind) for e in seen] == [("action", "press"), ("confirm", "hold")]


def test_take_returns_what_is_waiting_without_waiting(link, peer):
    assert link.take() == []
    peer.send(Button(BOOT, 1, 1, 1, 0), Button(BOOT, 2, 4, 0, 1))
    assert until(lambda: link.status().events == 2)
    assert link.take() == [PanelEvent(1, "confirm", "press", 1), PanelEvent(4, "action", "hold", 2)]
    assert link.take() == []


def test_the_wiring_check_says_when_there_is_no_panel(capsys):
    assert panel_module.main(["none", "--seconds", "0.2"]) == 0
    assert capsys.readouterr().out == "no panel (looking for one)\n"
