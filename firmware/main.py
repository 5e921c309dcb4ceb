"""The seat panel's firmware: runs on a Raspberry Pi Pico under MicroPython (copied there as /main.py).

Four seats, each with an Action and a Confirm button (to ground, on the pin's pull-up) and one LED. The
loop samples the buttons every millisecond or so, debounces them, and reports a *press* when a button is
released before HOLD_MS or a *hold* as soon as it has been down HOLD_MS. Each event gets a sequence number
and stays in the outbox, resent every RESEND_MS, until the host acknowledges it, so a pulled cable or a
garbled frame loses nothing. LED commands from the host are applied and acknowledged. Both sides send a
heartbeat every HEARTBEAT_MS; when the host falls silent the seat LEDs go dark (no stale prompts) and the
Pico's own LED blinks. A hardware watchdog resets the Pico if the loop ever stops.

Everything the loop touches (pins, watchdog, clock, the USB serial streams) is passed in, so the same code
runs on the host under CPython against `firmware.standin`, which is how it is tested.
"""

try:
    from firmware import protocol  # CPython: the package the device also imports
except ImportError:
    import protocol  # type: ignore[import-not-found,no-redef]  # on the Pico: beside main.py

try:  # noqa: SIM105 - MicroPython has no contextlib
    from typing import Any  # for the checker only: MicroPython never evaluates annotations
except ImportError:
    pass

VERSION = "1.0.0"
PINS = ((2, 3, 4), (5, 6, 7), (8, 9, 10), (11, 12, 13))  # (Action, Confirm, LED) GPIO numbers, seats 1-4
STATUS_LED = "LED"  # the Pico's own LED
DEBOUNCE_MS = 20  # a contact must read the same this long before it counts
HOLD_MS = 1000  # down this long is a hold, reported at once; released sooner is a press
RESEND_MS = 200  # unacknowledged events go again this often
HEARTBEAT_MS = 500
HOST_TIMEOUT_MS = 1500  # silent this long, the host is gone: the seat LEDs go dark
BLINK_MS = 250  # half a blink period
WATCHDOG_MS = 5000  # the RP2040 allows at most 8388
LOOP_MS = 1  # the longest wait for input between two samples of the buttons
OUTBOX = 64  # unacknowledged events kept; more are dropped (and counted) rather than overwrite older ones
READ_LIMIT = 256  # bytes read per pass, so a flood of input cannot starve the buttons or the watchdog


class Button:
    """One push button: debounced, and told apart as press or hold.

    `clock` offers MicroPython's `ticks_diff`; `update` returns protocol.PRESS, protocol.HOLD or None.
    """

    def __init__(self, pin: Any, clock: Any, now: int) -> None:
        self.pin = pin
        self.clock = clock
        self.raw = False  # the contact as last read
        self.read_at = now  # when it was last read
        self.changed = now  # when it last changed
        self.down = False  # the debounced state
        self.since = now  # when the debounced press began
        self.held = False  # a hold was reported for this press

    def update(self, now: int) -> int | None:
        raw = self.pin.value() == 0
        self.read_at = now
        if raw != self.raw:
            self.raw = raw
            self.changed = now
            return None
        diff = self.clock.ticks_diff
        if raw != self.down and diff(now, self.changed) >= DEBOUNCE_MS:
            self.down = raw
            if raw:
                self.since = self.changed
                self.held = False
            elif not self.held:
                return protocol.PRESS
            return None
        if self.down and not self.held and diff(now, self.since) >= HOLD_MS:
            self.held = True
            return protocol.HOLD
        return None


class Panel:
    """The panel's state and one pass of its loop (`step`).

    machine: MicroPython's `machine` (Pin, WDT) or a stand-in; clock: `time` (ticks_ms, ticks_diff);
    rx / tx: the USB serial streams (read(1) / write(bytes)); poller: a select.poll with rx registered;
    boot: this start's random id.
    """

    def __init__(
        self,
        machine: Any,
        clock: Any,
        rx: Any,
        tx: Any,
        poller: Any,
        boot: int,
        pins: tuple[tuple[int, int, int], ...] = PINS,
    ) -> None:
        self.clock = clock
        self.rx = rx
        self.tx = tx
        self.poller = poller
        self.boot = boot
        now = clock.ticks_ms()
        pin = machine.Pin
        self.buttons = []  # type: list[tuple[Button, Button]]
        self.leds = []  # type: list[Any]
        for action, confirm, led in pins:
            self.buttons.append(
                (
                    Button(pin(action, pin.IN, pin.PULL_UP), clock, now),
                    Button(pin(confirm, pin.IN, pin.PULL_UP), clock, now),
                )
            )
            self.leds.append(pin(led, pin.OUT, value=0))
        self.status_led = pin(STATUS_LED, pin.OUT, value=0)
        self.modes = [protocol.OFF] * len(pins)
        self.deframer = protocol.Deframer()
        self.outbox = []  # type: list[protocol.Button]  # not yet acknowledged, oldest first
        self.next_seq = 1
        self.dropped = 0
        self.heard = None  # type: int | None  # when the host was last heard (None: it is gone)
        self.resent = now
        self.beat = now
        self.uptime_ms = 0
        self.watchdog = machine.WDT(timeout=WATCHDOG_MS)
        self.send(protocol.Hello(protocol.PROTOCOL_VERSION, boot, len(pins), VERSION))

    def send(self, message: protocol.Message) -> None:
        try:  # noqa: SIM105 - MicroPython has no contextlib
            self.tx.write(message.frame())
        except OSError:  # no host on the line: the outbox keeps what matters
            pass

    def step(self) -> None:
        """One pass: feed the watchdog, read input, sample buttons, send what is due, drive the LEDs."""
        self.watchdog.feed()
        self.receive()
        now = self.clock.ticks_ms()
        diff = self.clock.ticks_diff
        for seat in range(len(self.buttons)):
            for button in (protocol.ACTION, protocol.CONFIRM):
                kind = self.buttons[seat][button].update(now)
                if kind is not None:
                    self.queue(seat + 1, button, kind, now)
        if self.outbox and diff(now, self.resent) >= RESEND_MS:
            for message in self.outbox:
                self.send(message)
            self.resent = now
        if diff(now, self.beat) >= HEARTBEAT_MS:
            self.uptime_ms += diff(now, self.beat)
            self.beat = now
            bad = self.deframer.bad & 0xFFFF
            self.send(protocol.Heartbeat(self.boot, self.uptime_ms // 1000, bad, self.dropped & 0xFFFF))
        if self.heard is not None and diff(now, self.heard) >= HOST_TIMEOUT_MS:
            self.heard = None  # the host is gone (forgotten, so the tick wrap can never bring it back)
        self.show(now)

    def receive(self) -> None:
        for _ in range(READ_LIMIT):
            if not self.poller.poll(0):
                return
            data = self.rx.read(1)
            if not data:
                return
            for message in self.deframer.feed(data):
                self.handle(message)

    def handle(self, message: protocol.Message) -> None:
        self.heard = self.clock.ticks_ms()
        if isinstance(message, protocol.Hello):
            self.send(protocol.Hello(protocol.PROTOCOL_VERSION, self.boot, len(self.leds), VERSION))
        elif isinstance(message, protocol.Ack):
            if message.boot == self.boot:
                self.outbox = [event for event in self.outbox if event.seq > message.seq]
        elif isinstance(message, protocol.Led) and message.seat <= len(self.modes):
            self.modes[message.seat - 1] = message.mode
            self.send(protocol.Ack(self.boot, message.seq))

    def queue(self, seat: int, button: int, kind: int, now: int) -> None:
        if len(self.outbox) >= OUTBOX:
            self.dropped += 1
            return
        message = protocol.Button(self.boot, self.next_seq, seat, button, kind)
        self.next_seq += 1
        if not self.outbox:
            self.resent = now
        self.outbox.append(message)
        self.send(message)

    def show(self, now: int) -> None:
        blink = (now // BLINK_MS) % 2 == 0
        alive = self.heard is not None
        for seat in range(len(self.leds)):
            mode = self.modes[seat] if alive else protocol.OFF
            self.leds[seat].value(1 if mode == protocol.ON or (mode == protocol.BLINK and blink) else 0)
        self.status_led.value(1 if alive or blink else 0)

    def run(self) -> None:
        """The loop, forever: a pass, then wait up to LOOP_MS for input."""
        while True:
            self.step()
            self.poller.poll(LOOP_MS)


def maintenance(machine: Any, pins: tuple[tuple[int, int, int], ...] = PINS) -> bool:
    """Whether seat 1's Action and Confirm are both held (at power-up: then `main` starts neither the loop
    nor the watchdog, and the REPL stays free for mpremote)."""
    first = [machine.Pin(number, machine.Pin.IN, machine.Pin.PULL_UP) for number in pins[0][:2]]
    return all(pin.value() == 0 for pin in first)


def main() -> None:
    """Start the panel on a Pico: USB serial as raw bytes, Ctrl-C no longer an interrupt."""
    import os
    import select
    import sys
    import time

    import machine  # type: ignore[import-not-found]
    import micropython  # type: ignore[import-not-found]

    if maintenance(machine):
        print("seat panel: maintenance mode, loop not started")
        return
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    boot = int.from_bytes(os.urandom(4), "little") or 1
    panel = Panel(machine, time, sys.stdin.buffer, sys.stdout.buffer, poller, boot)
    micropython.kbd_intr(-1)  # frames may hold 0x03: it must not stop the loop
    panel.run()


if __name__ == "__main__":
    main()
