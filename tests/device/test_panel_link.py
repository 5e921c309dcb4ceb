"""Both ends for real: the firmware's own loop in a child process, the device side here, joined by a pty.

The firmware runs against the CPython stand-ins (`firmware.rig`); its clock starts 4 s before MicroPython's
tick wrap, so every run here crosses it. Every wait has a timeout and every child is reaped.
"""

import io
import os
import random
import signal
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.panel import PanelEvent, SeatPanel, watch
from firmware import main, protocol
from firmware.rig import PanelRig
from tests.device.panel_waits import WAIT, take, until

SEATS = range(1, protocol.SEATS + 1)


def assert_quiet(panel, wait=0.3):
    extra = panel.get(timeout=wait)
    assert extra is None, f"an event nobody pressed: {extra}"


def towards(rig):
    """A second writer on the device's end of the line (O_NOCTTY: never this process's terminal)."""
    return open(os.open(rig.port(), os.O_WRONLY | os.O_NOCTTY), "wb", buffering=0)


@pytest.fixture(scope="module")
def rig():
    with PanelRig() as running:
        yield running
        assert running.alive(), "the firmware died"


@pytest.fixture(scope="module")
def panel(rig):
    with SeatPanel(finder=rig.port) as link:
        assert until(lambda: link.status().connected), link.status()
        yield link


@pytest.fixture
def fresh():
    """A rig and a link of their own, for tests that pull the cable or spoil the line."""
    with PanelRig() as rig, SeatPanel(finder=rig.port) as link:
        assert until(lambda: link.status().connected), link.status()
        yield rig, link
        assert rig.alive(), "the firmware died"


def test_hello_carries_the_firmware_and_protocol_versions(panel, rig):
    status = panel.status()
    assert status.connected and status.firmware == main.VERSION and status.problem is None
    assert status.port == rig.port()


def test_every_button_of_every_seat_presses_through_contact_bounce(panel, rig):
    pressed = []
    for seat in SEATS:
        for button in protocol.BUTTONS:
            rig.press(seat, button, ms=60)
            pressed.append((seat, button, "press"))
    got = take(panel, len(pressed))
    assert [(e.seat, e.button, e.kind) for e in got] == pressed
    assert [e.seq for e in got] == list(range(got[0].seq, got[0].seq + len(pressed)))
    assert_quiet(panel)


def test_holds_are_reported_once_while_still_held(panel, rig):
    _, first = rig.press_down(1, "action", ms=main.HOLD_MS + 1500)  # the margin absorbs a loaded machine
    _, second = rig.press_down(4, "confirm", ms=main.HOLD_MS + 1500)
    got = take(panel, 2)
    arrived = time.monotonic()
    assert sorted((e.seat, e.button, e.kind) for e in got) == [(1, "action", "hold"), (4, "confirm", "hold")]
    assert arrived < min(rig.released(first), rig.released(second))  # reported while still held
    assert_quiet(panel, wait=0.3)  # and nothing more at the release


def test_a_contact_closed_for_a_single_reading_is_no_press(panel, rig):
    rig.press(2, "action", ms=0, bounce=False)  # a spark, a knock on the table
    assert_quiet(panel)


def test_leds_on_blink_and_off(panel, rig):
    panel.set_led(1, "on")
    panel.set_led(3, "blink")
    assert until(panel.leds_confirmed)
    assert rig.state()["modes"] == ["on", "off", "blink", "off"]
    levels = set()
    for _ in range(8):
        state = rig.state()
        levels.add(state["leds"][2])
        assert state["leds"][0] == 1 and state["leds"][1] == 0
        time.sleep(main.BLINK_MS / 2000)
    assert levels == {0, 1}
    panel.set_led(1, "off")
    panel.set_led(3, "off")
    assert until(panel.leds_confirmed)
    assert rig.state()["leds"] == [0, 0, 0, 0]


def test_heartbeats_both_ways_and_a_fed_watchdog(panel, rig):
    assert until(lambda: (panel.status().panel_uptime or 0) >= 1)
    state = rig.state()
    assert state["host_alive"] and state["status_led"] == 1
    assert state["watchdog_timeout"] == main.WATCHDOG_MS
    assert 0 < state["watchdog_longest_gap"] < state["watchdog_timeout"]  # never starved


def test_noise_both_ways_never_crashes_and_never_presses(panel, rig):
    noise = random.Random(5)
    with towards(rig) as towards_panel:
        for _ in range(20):
            rig.noise(noise.randbytes(noise.randrange(1, 300)))
            towards_panel.write(noise.randbytes(noise.randrange(1, 300)))
    rig.press(3, "confirm", ms=50)
    assert [(e.seat, e.button) for e in take(panel, 1)] == [(3, "confirm")]
    assert_quiet(panel)
    assert panel.status().bad_frames > 0 and rig.state()["bad_frames"] > 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.binary(min_size=1, max_size=200), max_size=4),
    st.lists(st.binary(min_size=1, max_size=200), max_size=4),
    st.sampled_from(SEATS),
    st.sampled_from(protocol.BUTTONS),
    st.integers(0, 40),
)
def test_random_and_corrupted_bytes_yield_only_what_was_pressed(
    panel, rig, to_device, to_panel, seat, button, flip
):
    """Random bytes both ways, and real frames with a bit flipped, between real presses."""
    spoiled = b""
    for message in (protocol.Button(1, 1, seat, 0, 0), protocol.Led(1, seat, protocol.ON)):
        frame = bytearray(message.frame())
        frame[1 + flip % (len(frame) - 2)] ^= 0x04
        spoiled += frame
    with towards(rig) as towards_panel:
        for chunk in to_device:
            rig.noise(chunk + spoiled)
        for chunk in to_panel:
            towards_panel.write(chunk + spoiled)
    rig.press(seat, button, ms=40, bounce=False)
    event = panel.get(timeout=WAIT)
    assert event is not None and (event.seat, event.button, event.kind) == (seat, button, "press")
    assert_quiet(panel, wait=0.05)
    assert rig.state()["modes"] == ["off"] * 4  # no spoiled LED command was obeyed


def test_a_pulled_cable_loses_nothing_and_repeats_nothing(fresh):
    rig, panel = fresh
    rig.press(1, "action", ms=50)
    first = take(panel, 1)
    rig.set(deaf=True)  # the panel stops hearing acknowledgements, so it keeps resending the next press
    rig.press(2, "confirm", ms=50)
    second = take(panel, 1)
    assert until(lambda: panel.status().repeats >= 1)
    rig.unplug()
    assert until(lambda: not panel.status().connected)
    rig.press(3, "action", ms=50)  # pressed while the cable is out
    rig.set(deaf=False)
    time.sleep(0.3)  # the device keeps looking for the panel meanwhile
    rig.plug()
    third = take(panel, 1)
    got = first + second + third
    assert got == [
        PanelEvent(1, "action", "press", 1),
        PanelEvent(2, "confirm", "press", 2),
        PanelEvent(3, "action", "press", 3),
    ]
    assert_quiet(panel, wait=0.6)
    assert until(lambda: rig.state()["outbox"] == 0)
    status = panel.status()
    assert status.connected and status.connections == 2 and status.events == 3


def test_a_cable_pulled_twice_in_a_row_during_presses(fresh):
    rig, panel = fresh
    for round in range(2):
        rig.unplug()
        rig.press(4, "confirm", ms=40)
        rig.press(1, "confirm", ms=1100)  # a hold while unplugged
        rig.plug()
        got = take(panel, 2)
        assert [(e.seat, e.kind) for e in got] == [(4, "press"), (1, "hold")], round
    assert [e.seq for e in got] == [3, 4]
    assert_quiet(panel)


def test_a_restarted_panel_is_taken_up_again_numbering_from_one(fresh):
    rig, panel = fresh
    rig.press(2, "action", ms=40)
    rig.press(2, "action", ms=40)
    assert [e.seq for e in take(panel, 2)] == [1, 2]
    panel.set_led(4, "on")
    assert until(panel.leds_confirmed)
    rig.reset()
    assert until(lambda: rig.state()["leds"] == [0, 0, 0, 1])  # its LED prompt is given back
    rig.press(3, "confirm", ms=40)
    assert take(panel, 1) == [PanelEvent(3, "confirm", "press", 1)]
    assert_quiet(panel)
    assert panel.status().connections == 1  # the same cable all along


def test_a_line_that_spoils_a_third_of_the_panels_writes_still_delivers_each_press_once(fresh):
    rig, panel = fresh
    rig.set(corrupt=0.33)
    pressed = [(seat, button) for seat in SEATS for button in protocol.BUTTONS]
    for seat, button in pressed:
        rig.press(seat, button, ms=40, bounce=False)
    got = take(panel, len(pressed), timeout=5)
    assert [(e.seat, e.button) for e in got] == pressed
    assert [e.seq for e in got] == list(range(1, len(pressed) + 1))
    assert_quiet(panel, wait=0.5)
    assert panel.status().bad_frames > 0


def test_when_the_device_goes_away_the_panels_prompts_go_dark(fresh):
    rig, panel = fresh
    panel.set_led(2, "on")
    assert until(panel.leds_confirmed)
    assert rig.state()["leds"] == [0, 1, 0, 0]
    panel.close()
    assert until(lambda: rig.state()["leds"] == [0, 0, 0, 0], timeout=main.HOST_TIMEOUT_MS / 1000 + 3)
    assert not rig.state()["host_alive"]


def test_the_wiring_check_prints_events_and_lights_the_seat(fresh):
    rig, panel = fresh
    out = io.StringIO()
    checking = threading.Thread(target=watch, args=(panel, 2.5, out))
    checking.start()
    rig.press(3, "confirm", ms=40)
    assert until(lambda: rig.state()["leds"] == [0, 0, 1, 0])
    checking.join(5)
    lines = out.getvalue().splitlines()
    assert lines == [f"panel on {rig.port()}: firmware {main.VERSION}", "seat 3 confirm press (#1)"]


def test_the_child_is_reaped_even_when_it_will_not_quit():
    rig = PanelRig(timeout=0.5)
    os.kill(rig.process.pid, signal.SIGSTOP)  # stuck: it cannot answer the request to quit
    started = time.monotonic()
    rig.close()
    assert rig.process.returncode == -signal.SIGKILL
    assert time.monotonic() - started < 2
