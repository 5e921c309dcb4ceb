"""The firmware's loop, pass by pass, under CPython: stand-in pins, a manual clock and a line in memory."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import main, protocol
from firmware.protocol import Ack, Button, Deframer, Heartbeat, Hello, Led
from firmware.standin import TICKS_PERIOD, BytesLine, Machine, ManualClock

BOOT = 0xB007


class Bench:
    """One panel on the bench: its machine, clock and line, and what it has sent so far."""

    def __init__(self, start=1000):
        self.clock = ManualClock(start)
        self.machine = Machine(self.clock)
        self.line = BytesLine()
        self.panel = main.Panel(self.machine, self.clock, self.line, self.line, self.line, BOOT)
        self.reader = Deframer()

    def run(self, ms):
        for _ in range(ms):
            self.panel.step()
            self.clock.advance(1)

    def sent(self, kind=None):
        messages = self.reader.feed(self.line.take())
        return [m for m in messages if kind is None or isinstance(m, kind)]

    def host(self, *messages):
        for message in messages:
            self.line.incoming += message.frame()

    def pin(self, seat, button):
        return main.PINS[seat - 1][protocol.BUTTONS.index(button)]

    def press(self, seat, button, ms, bounce=(1, 2, 3)):
        """Hold a button down for `ms`, with contact chatter after both edges; returns the events sent."""
        pin = self.pin(seat, button)
        for edge, chatter in (
            (self.machine.press, self.machine.release),
            (self.machine.release, self.machine.press),
        ):
            for _ in bounce:
                edge(pin)
                self.run(1)
                chatter(pin)
                self.run(1)
            edge(pin)
            self.run(ms if edge == self.machine.press else main.DEBOUNCE_MS + 5)
        return self.sent(Button)

    def leds(self):
        return [led.value() for led in self.panel.leds]


@pytest.fixture
def bench():
    return Bench()


def test_says_hello_at_start_with_its_versions(bench):
    assert bench.sent() == [Hello(protocol.PROTOCOL_VERSION, BOOT, 4, main.VERSION)]


def test_answers_a_hosts_hello(bench):
    bench.sent()
    bench.host(Hello(protocol.PROTOCOL_VERSION, 0, 0, "tablescore 0.1"))
    bench.run(1)
    assert bench.sent(Hello) == [Hello(protocol.PROTOCOL_VERSION, BOOT, 4, main.VERSION)]


def test_a_bouncy_press_is_one_press_reported_at_release(bench):
    assert bench.press(2, "confirm", 150) == [Button(BOOT, 1, 2, protocol.CONFIRM, protocol.PRESS)]
    assert bench.press(4, "action", 60) == [Button(BOOT, 2, 4, protocol.ACTION, protocol.PRESS)]


def test_a_glitch_shorter_than_the_debounce_is_nothing(bench):
    assert bench.press(1, "action", main.DEBOUNCE_MS - 8, bounce=()) == []
    assert bench.panel.outbox == []


def test_a_hold_is_reported_once_when_it_reaches_hold_ms_and_not_again_at_release(bench):
    pin = bench.pin(3, "action")
    bench.machine.press(pin)
    bench.run(main.HOLD_MS - 1)
    assert bench.sent(Button) == []
    bench.run(2)
    assert bench.sent(Button) == [Button(BOOT, 1, 3, protocol.ACTION, protocol.HOLD)]
    bench.run(2000)
    bench.machine.release(pin)
    bench.run(100)
    assert [m.seq for m in bench.sent(Button)] == [1] * 10  # only resends of the hold, no press
    assert len(bench.panel.outbox) == 1


def test_events_are_resent_until_acknowledged_for_this_boot(bench):
    bench.press(1, "action", 50)
    bench.press(1, "confirm", 50)
    bench.run(main.RESEND_MS)
    assert [m.seq for m in bench.sent(Button)] == [1, 2]
    bench.host(Ack(BOOT + 1, 2))  # another start's acknowledgement counts for nothing
    bench.run(main.RESEND_MS)
    assert [m.seq for m in bench.sent(Button)] == [1, 2]
    bench.host(Ack(BOOT, 1))
    bench.run(main.RESEND_MS)
    assert [m.seq for m in bench.sent(Button)] == [2]
    bench.host(Ack(BOOT, 2))
    bench.run(main.RESEND_MS * 3)
    assert bench.sent(Button) == [] and bench.panel.outbox == []


def test_a_full_outbox_drops_new_events_and_says_so_without_a_gap_in_numbers(bench):
    for _ in range(main.OUTBOX + 3):
        bench.press(1, "action", 30, bounce=())
    assert [m.seq for m in bench.panel.outbox] == list(range(1, main.OUTBOX + 1))
    bench.host(Ack(BOOT, main.OUTBOX))
    bench.press(2, "action", 30, bounce=())
    assert bench.panel.outbox[-1].seq == main.OUTBOX + 1
    bench.run(main.HEARTBEAT_MS)
    assert bench.sent(Heartbeat)[-1].dropped == 3


def test_leds_follow_the_host_and_each_command_is_acknowledged(bench):
    bench.host(Led(7, 1, protocol.ON), Led(8, 3, protocol.BLINK))
    bench.run(1)
    assert bench.sent(Ack) == [Ack(BOOT, 7), Ack(BOOT, 8)]
    seen = set()
    for _ in range(4):
        bench.run(main.BLINK_MS)
        seen.add(tuple(bench.leds()))
    assert seen == {(1, 0, 1, 0), (1, 0, 0, 0)}
    bench.host(Led(9, 1, protocol.OFF))
    bench.run(1)
    assert bench.leds()[0] == 0


def test_when_the_host_falls_silent_the_prompts_go_dark_and_come_back(bench):
    bench.host(Led(1, 2, protocol.ON))
    bench.run(main.HOST_TIMEOUT_MS - 10)
    assert bench.leds() == [0, 1, 0, 0] and bench.panel.status_led.value() == 1
    bench.run(20)
    assert bench.leds() == [0, 0, 0, 0]
    statuses = set()
    for _ in range(4):
        bench.run(main.BLINK_MS)
        statuses.add(bench.panel.status_led.value())
    assert statuses == {0, 1}  # the Pico's own LED blinks: no host
    bench.clock.advance(TICKS_PERIOD // 2 - 300)  # days later, where the tick difference wraps round
    bench.run(1)
    assert bench.leds() == [0, 0, 0, 0]
    bench.host(Heartbeat(0, 5, 0, 0))
    bench.run(1)
    assert bench.leds() == [0, 1, 0, 0]


def test_heartbeats_every_half_second_with_uptime_and_bad_frame_count(bench):
    bench.line.incoming += b"\x00garbage\x00"
    bench.run(3 * main.HEARTBEAT_MS + 1)
    beats = bench.sent(Heartbeat)
    assert [b.uptime for b in beats] == [0, 1, 1]
    assert beats[-1].bad_frames == 1 and beats[-1].boot == BOOT


def test_the_watchdog_is_started_and_fed_every_pass(bench):
    bench.press(1, "action", 100)
    watchdog = bench.machine.watchdog
    assert watchdog.timeout == main.WATCHDOG_MS <= 8388  # the RP2040's longest
    assert watchdog.longest_gap == 1


def test_a_flood_of_input_is_read_a_slice_per_pass(bench):
    bench.line.incoming += b"\x01" * 5000
    bench.panel.step()
    assert len(bench.line.incoming) == 5000 - main.READ_LIMIT


def test_the_tick_wrap_is_harmless():
    bench = Bench(start=TICKS_PERIOD - 30)
    assert bench.press(1, "confirm", 100) == [Button(BOOT, 1, 1, protocol.CONFIRM, protocol.PRESS)]
    bench = Bench(start=TICKS_PERIOD - 500)
    bench.machine.press(bench.pin(2, "action"))
    bench.run(main.HOLD_MS + 5)
    assert bench.sent(Button) == [Button(BOOT, 1, 2, protocol.ACTION, protocol.HOLD)]


def test_holding_seat_ones_buttons_at_power_up_asks_for_maintenance():
    machine = Machine(ManualClock())
    assert not main.maintenance(machine)
    machine.press(main.PINS[0][0])
    assert not main.maintenance(machine)  # one button is not enough
    machine.press(main.PINS[0][1])
    assert main.maintenance(machine)
    assert machine.watchdog is None


@settings(max_examples=150, deadline=None)
@given(st.lists(st.binary(max_size=80), max_size=12), st.integers(0, 3))
def test_noise_never_crashes_never_lights_and_never_makes_an_event(chunks, seat):
    bench = Bench()
    bench.host(Led(1, seat + 1, protocol.ON))
    bench.run(1)
    before = bench.leds()
    for chunk in chunks:
        bench.line.incoming += chunk
        bench.run(3)
    bench.line.incoming += b"\x00"
    bench.run(3)
    assert bench.leds() == before
    assert bench.sent(Button) == [] and bench.panel.outbox == []
