"""Stand-ins for what the firmware uses on a Pico, so its loop runs (and is tested) under CPython.

`Machine` stands in for MicroPython's `machine` (Pin, WDT), `Clock` for `time` (ticks_ms, ticks_diff,
with MicroPython's wrap-around at 2**30 ms), `FdStream` and `FdPoller` for `sys.stdin.buffer` /
`sys.stdout.buffer` and `select.poll` on the USB serial line, here any file descriptor (a pty's master).

>>> machine, clock = Machine(), ManualClock()
>>> button = machine.Pin(2, machine.Pin.IN, machine.Pin.PULL_UP)
>>> button.value()
1
>>> machine.press(2); button.value()
0
>>> clock.ticks_diff(5, TICKS_PERIOD - 5)  # across the wrap
10
"""

from __future__ import annotations

import os
import select
import time

TICKS_PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here


class Pin:
    """A GPIO pin. An input reads 0 while its button is pressed (the contact to ground is closed, see
    `Machine.press`) and its pull level otherwise; an output remembers the value written."""

    IN, OUT = 0, 1
    PULL_UP, PULL_DOWN = 1, 2

    def __init__(self, machine: Machine, id: int | str, mode: int, pull: int, value: int | None) -> None:
        self.machine = machine
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = value or 0

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self.level = 1 if level else 0
        if self.mode == self.OUT:
            return self.level
        return 0 if self.id in self.machine.closed else int(self.pull == self.PULL_UP)


class WDT:
    """The watchdog: records the longest time between two feeds, so a test can tell it was never starved."""

    def __init__(self, clock: Clock, timeout: int) -> None:
        self.clock = clock
        self.timeout = timeout
        self.fed = clock.ticks_ms()
        self.longest_gap = 0

    def feed(self) -> None:
        now = self.clock.ticks_ms()
        self.longest_gap = max(self.longest_gap, self.clock.ticks_diff(now, self.fed))
        self.fed = now


class _PinMaker:
    """`machine.Pin`: called it makes (and registers) a pin; it also carries the mode constants."""

    IN, OUT, PULL_UP, PULL_DOWN = Pin.IN, Pin.OUT, Pin.PULL_UP, Pin.PULL_DOWN

    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    def __call__(self, id: int | str, mode: int = -1, pull: int = -1, *, value: int | None = None) -> Pin:
        pin = Pin(self.machine, id, mode, pull, value)
        self.machine.pins[id] = pin
        return pin


class Machine:
    """Stands in for the `machine` module; `press` and `release` move a button's contact."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        self.pins: dict[int | str, Pin] = {}
        self.closed: set[int | str] = set()  # the pins whose button is pressed
        self.Pin = _PinMaker(self)
        self.watchdog: WDT | None = None

    def WDT(self, id: int = 0, timeout: int = 5000) -> WDT:  # noqa: N802 - MicroPython's name
        self.watchdog = WDT(self.clock, timeout)
        return self.watchdog

    def press(self, pin: int | str) -> None:
        self.closed.add(pin)

    def release(self, pin: int | str) -> None:
        self.closed.discard(pin)


class Clock:
    """MicroPython's millisecond ticks from the real monotonic clock, starting at `start` (so a run can
    begin just before the wrap)."""

    def __init__(self, start: int = 0) -> None:
        self.origin = time.monotonic() - start / 1000

    def ticks_ms(self) -> int:
        return int((time.monotonic() - self.origin) * 1000) % TICKS_PERIOD

    @staticmethod
    def ticks_diff(later: int, earlier: int) -> int:
        half = TICKS_PERIOD // 2
        return (later - earlier + half) % TICKS_PERIOD - half


class ManualClock(Clock):
    """Ticks that move only when told to (`advance`), for step-by-step tests."""

    def __init__(self, start: int = 0) -> None:
        self.now = start % TICKS_PERIOD

    def ticks_ms(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now = (self.now + ms) % TICKS_PERIOD


class FdStream:
    """One end of the serial line over a file descriptor: reads never block, and a write with no one to
    take it is dropped, as the Pico drops USB output with no host."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)

    def fileno(self) -> int:
        return self.fd

    def read(self, size: int) -> bytes | None:
        try:
            return os.read(self.fd, size)
        except OSError:  # nothing waiting, or no one at the other end
            return None

    def write(self, data: bytes) -> int:
        try:
            return os.write(self.fd, data)
        except OSError:
            return 0


class FdPoller:
    """`select.poll` with the stream registered: `poll(ms)` waits for input, never spinning on a hang-up."""

    def __init__(self, stream: FdStream) -> None:
        self.poll_object = select.poll()
        self.poll_object.register(stream.fileno(), select.POLLIN)

    def poll(self, timeout_ms: int) -> list[tuple[int, int]]:
        ready = self.poll_object.poll(timeout_ms)
        if ready and not any(events & select.POLLIN for _, events in ready):
            time.sleep(timeout_ms / 1000)  # hung up: nothing to read; wait as a quiet line would
            return []
        return ready


class BytesLine:
    """A serial line in memory, for step-by-step tests: `incoming` is what the panel will read,
    `outgoing` what it wrote. It serves as rx, tx and poller at once."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.outgoing = bytearray()

    def read(self, size: int) -> bytes:
        data = bytes(self.incoming[:size])
        del self.incoming[:size]
        return data

    def write(self, data: bytes) -> int:
        self.outgoing += data
        return len(data)

    def poll(self, timeout_ms: int) -> list[tuple[object, int]]:
        return [(self, select.POLLIN)] if self.incoming else []

    def take(self) -> bytes:
        data = bytes(self.outgoing)
        self.outgoing.clear()
        return data
