"""The seat panel, from the device's side: finds the Pico, keeps the serial link up, hands out events.

`SeatPanel` owns the serial port in a background thread. It finds the panel by its USB vendor and
product id (or uses a configured port or pyserial URL), says hello, and from then on delivers each button
event exactly once, in order, as a frozen `PanelEvent`: the panel numbers its events and resends them
until acknowledged; this side acknowledges what it holds and drops repeats. A pulled cable, a reset Pico
or a garbled frame loses nothing and repeats nothing (an event still unacknowledged when the Pico itself
loses power is gone with its memory). Bad frames are counted and dropped, never acted on. LED prompts are
set with `set_led` and re-sent until the panel acknowledges them, and again after every reconnection or
restart of the panel. Events are read with `get(timeout)`, `take()` (all waiting, never blocking) or by
iterating.

With no panel plugged in the device runs on its main buttons alone: `get` simply returns None, and
`status().connected` says there is no panel.

>>> panel = SeatPanel(finder=lambda: None)   # nothing plugged in
>>> panel.get(timeout=0.01) is None, panel.status().connected
(True, False)
>>> panel.set_led(5, "on")
Traceback (most recent call last):
...
ValueError: seat must be 1-4, not 5
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol, TextIO

import serial
from serial.tools import list_ports

from device import __version__
from device.inputs import Button, Press
from firmware import protocol

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A  # Raspberry Pi
PICO_PIDS = (0x0005,)  # MicroPython on an RP2040 / RP2350 board
HEARTBEAT_S = 0.5
HELLO_RETRY_S = 0.5  # ask again this often until the panel has said hello
LED_RETRY_S = 0.25  # unacknowledged LED commands go again this often
SILENCE_S = 3.0  # a panel unheard this long is given up on: the port is closed and found again
RECONNECT_S = 0.25  # how often to look for the panel while there is none
READ_TIMEOUT_S = 0.05


class SerialPort(Protocol):
    """What the link needs of a pyserial port."""

    @property
    def in_waiting(self) -> int: ...

    def read(self, size: int) -> bytes: ...

    def write(self, data: bytes) -> int | None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class PanelEvent:
    """A button event from a seat as the panel's link delivers it: `button` is "action" or "confirm", `kind`
    is "press" or "hold" (the panel's own words, `firmware.protocol`); `seq` is the panel's sequence number
    (counting from 1 each time the panel starts). `press` is what the person pressed."""

    seat: int
    button: str
    kind: str
    seq: int

    @property
    def press(self) -> Press:
        """The press, as the game flows take every button's.

        >>> PanelEvent(3, "action", "hold", 7).press
        Press(button=<Button.ACTION: 'action'>, held=True, seat=3)
        """
        return Press(Button(self.button), held=self.kind == "hold", seat=self.seat)


@dataclass(frozen=True)
class PanelStatus:
    """How the link stands: `connected` once a panel speaking our protocol has said hello."""

    connected: bool
    port: str | None
    firmware: str | None  # the panel's firmware version, from its hello
    problem: str | None  # why a connected port is not in use (a protocol mismatch), else None
    bad_frames: int  # frames from the panel counted and dropped here
    panel_bad_frames: int  # frames from us the panel counted and dropped (from its heartbeat)
    panel_dropped: int  # events the panel could not queue (its outbox was full)
    panel_uptime: int | None  # seconds, from the panel's last heartbeat
    connections: int  # times a port was opened
    events: int  # events delivered
    repeats: int  # events received again and dropped


def find_port(vid: int = PICO_VID, pids: tuple[int, ...] = PICO_PIDS) -> str | None:
    """The device path of the first serial port with this USB vendor and product id, or None."""
    ports = sorted(list_ports.comports(), key=lambda port: str(port.device))
    for port in ports:
        if port.vid == vid and port.pid in pids:
            return str(port.device)
    return None


def open_serial(port: str) -> SerialPort:
    """Open a port (a device path or any pyserial URL) for the link."""
    opened: SerialPort = serial.serial_for_url(
        port, baudrate=115200, timeout=READ_TIMEOUT_S, write_timeout=1, exclusive=True
    )
    return opened


@dataclass
class _Led:
    """A seat's LED setting: its own sequence number, which every resend of it carries, so that the
    panel's acknowledgement of any of them confirms it."""

    mode: int
    seq: int
    confirmed: bool = False
    sent: float = 0.0


class SeatPanel:
    """The link to the seat panel; start it with `start()` or `with SeatPanel(...) as panel:`.

    `port` fixes the port (a path or pyserial URL); otherwise `finder` is asked (default: `find_port`).
    Events are read with `get(timeout)`, `take()` or by iterating; LEDs are set with `set_led(seat, mode)`.
    """

    def __init__(
        self,
        port: str | None = None,
        *,
        finder: Callable[[], str | None] | None = None,
        opener: Callable[[str], SerialPort] = open_serial,
    ) -> None:
        self._finder: Callable[[], str | None] = finder or ((lambda: port) if port else find_port)
        self._opener = opener
        self._fixed = port
        self._missed = False  # the fixed port's failure to open was logged (once, until it opens)
        self._events: queue.Queue[PanelEvent] = queue.Queue()
        self._lock = threading.RLock()  # guards the port (writes) and the state below
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: SerialPort | None = None
        self._port: str | None = None
        self._deframer = protocol.Deframer()
        self._hello: protocol.Hello | None = None
        self._problem: str | None = None
        self._boot: int | None = None  # the panel start whose events we are taking
        self._expected = 1  # the next sequence number to deliver
        self._early: dict[int, protocol.Button] = {}  # events that arrived ahead of a missing one
        self._leds = {seat: _Led(protocol.OFF, seat) for seat in range(1, protocol.SEATS + 1)}
        self._led_seq = protocol.SEATS  # the last LED sequence number given
        self._heard = self._asked = self._beat = 0.0
        self._started = time.monotonic()
        self._counts = {"connections": 0, "events": 0, "repeats": 0, "unexpected": 0}
        self._panel_bad = self._panel_dropped = 0
        self._panel_uptime: int | None = None

    @classmethod
    def configured(cls, setting: str) -> SeatPanel:
        """The link for a configuration's `[panel] port`: "auto" finds the Pico by its USB ids, "none" runs
        without a panel, anything else is a port path or pyserial URL.

        >>> SeatPanel.configured("none").get(timeout=0.01) is None
        True
        """
        if setting == "auto":
            return cls()
        if setting == "none":
            return cls(finder=lambda: None)
        return cls(setting)

    # The flows' side

    def start(self) -> SeatPanel:
        """Start the link's thread (it looks for the panel until one appears)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="seat-panel", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
        self._disconnect()

    def __enter__(self) -> SeatPanel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        """The next button event, waiting up to `timeout` seconds (None: for ever); None if there was none."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    def take(self) -> list[PanelEvent]:
        """The events waiting, oldest first, without waiting (as `device.buttons.Buttons.take`)."""
        taken = []
        while (event := self.get(timeout=0)) is not None:
            taken.append(event)
        return taken

    def __iter__(self) -> Iterator[PanelEvent]:
        """Every event, as it comes, until the link is closed."""
        while not self._stop.is_set():
            event = self.get(timeout=0.1)
            if event is not None:
                yield event

    def set_led(self, seat: int, mode: str) -> None:
        """Show `mode` ("off", "on" or "blink") on a seat's LED; kept and re-sent until the panel has it."""
        if not 1 <= seat <= protocol.SEATS:
            raise ValueError(f"seat must be 1-{protocol.SEATS}, not {seat}")
        if mode not in protocol.LED_MODES:
            raise ValueError(f"LED mode must be one of {', '.join(protocol.LED_MODES)}, not {mode!r}")
        with self._lock:
            self._led_seq += 1
            self._leds[seat] = _Led(protocol.LED_MODES.index(mode), self._led_seq)
            self._send_led(seat, time.monotonic())

    def leds_confirmed(self) -> bool:
        """Whether the panel has acknowledged every LED setting."""
        with self._lock:
            return all(led.confirmed for led in self._leds.values())

    def status(self) -> PanelStatus:
        """A snapshot of how the link stands (see `PanelStatus`)."""
        with self._lock:
            hello = self._hello
            return PanelStatus(
                connected=self._serial is not None and hello is not None and self._problem is None,
                port=self._port if self._serial is not None else None,
                firmware=hello.version if hello else None,
                problem=self._problem,
                bad_frames=self._deframer.bad + self._counts["unexpected"],
                panel_bad_frames=self._panel_bad,
                panel_dropped=self._panel_dropped,
                panel_uptime=self._panel_uptime,
                connections=self._counts["connections"],
                events=self._counts["events"],
                repeats=self._counts["repeats"],
            )

    # The link's thread

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._serial
            if port is None:
                if not self._connect():
                    self._stop.wait(RECONNECT_S)
                continue
            try:
                data = port.read(port.in_waiting or 1)
            except (OSError, ValueError, TypeError):  # unplugged; pyserial may also fail inside on a dead fd
                self._disconnect()
                continue
            with self._lock:
                for message in self._deframer.feed(data):
                    self._handle(message)
                self._due(time.monotonic())

    def _connect(self) -> bool:
        try:
            path = self._finder()
            if path is None:
                return False
            port = self._opener(path)
        except (OSError, ValueError) as error:  # no such port, busy, or the port list could not be read: again
            if self._fixed is not None and not self._missed:
                log.warning("the seat panel's port %s cannot be opened (%s): tried again until it can; "
                            "[panel] port = \"auto\" finds the Pico by itself", self._fixed,
                            getattr(error, "strerror", None) or error)
                self._missed = True
            return False
        self._missed = False
        now = time.monotonic()
        with self._lock:
            self._serial, self._port = port, path
            self._counts["connections"] += 1
            self._hello, self._problem = None, None
            self._deframer = protocol.Deframer()
            self._heard = now
            for led in self._leds.values():
                led.confirmed = False
            self._write(b"\x00")  # ends any partial frame the panel was holding
            self._ask(now)
        return True

    def _disconnect(self) -> None:
        with self._lock:
            port, self._serial = self._serial, None
            self._hello = None
            if port is not None:
                with contextlib.suppress(OSError):
                    port.close()

    def _write(self, data: bytes) -> None:
        if self._serial is None:
            return
        with contextlib.suppress(OSError, ValueError):  # the reader notices the loss and reconnects
            self._serial.write(data)

    def _send(self, message: protocol.Message) -> None:
        self._write(message.frame())

    def _ask(self, now: float) -> None:
        self._asked = now
        self._send(
            protocol.Hello(protocol.PROTOCOL_VERSION, 0, 0, f"tablescore {__version__}"[: protocol.MAX_TEXT])
        )

    def _send_led(self, seat: int, now: float) -> None:
        """Send a seat's LED setting (again: the panel applies a repeat as it did the first, and acknowledges
        the same number)."""
        led = self._leds[seat]
        led.sent = now
        if self._hello is not None and self._problem is None:
            self._send(protocol.Led(led.seq, seat, led.mode))

    def _due(self, now: float) -> None:
        """Send what time has made due: a heartbeat, a hello request, unacknowledged LEDs; give up on silence."""
        if now - self._beat >= HEARTBEAT_S:
            self._beat = now
            uptime = int(now - self._started)
            bad = self.status().bad_frames & 0xFFFF
            self._send(protocol.Heartbeat(0, uptime & 0xFFFFFFFF, bad, 0))
        if self._hello is None and now - self._asked >= HELLO_RETRY_S:
            self._ask(now)
        for seat, led in self._leds.items():
            if not led.confirmed and now - led.sent >= LED_RETRY_S:
                self._send_led(seat, now)
        if now - self._heard >= SILENCE_S:
            self._disconnect()

    def _handle(self, message: protocol.Message) -> None:
        self._heard = time.monotonic()
        if isinstance(message, protocol.Hello):
            self._greet(message)
        elif self._hello is None or self._problem is not None:
            return  # nothing counts before a hello we understand; the panel resends events until acknowledged
        elif isinstance(message, protocol.Heartbeat):
            if message.boot != self._boot:
                self._hello = None  # the panel restarted and its hello was lost: ask again
                return
            self._panel_bad, self._panel_dropped = message.bad_frames, message.dropped
            self._panel_uptime = message.uptime
        elif isinstance(message, protocol.Button):
            self._receive(message)
        elif isinstance(message, protocol.Ack):
            for led in self._leds.values():
                if led.seq == message.seq:
                    led.confirmed = True
        else:
            self._counts["unexpected"] += 1  # well formed but not for us (an Led from the panel)

    def _greet(self, hello: protocol.Hello) -> None:
        if hello.seats == 0:
            self._counts["unexpected"] += 1  # our own hello, echoed back: not a panel
            return
        if hello.protocol != protocol.PROTOCOL_VERSION:
            self._problem = (
                f"the panel speaks protocol {hello.protocol} (firmware {hello.version}), "
                f"this device speaks {protocol.PROTOCOL_VERSION}: update the panel's firmware"
            )
            self._hello = hello
            return
        self._problem = None
        if hello.boot != self._boot:  # a new start of the panel: its numbering starts again, its LEDs are off
            self._boot, self._expected = hello.boot, 1
            self._early.clear()
            for led in self._leds.values():
                led.confirmed = False
        self._hello = hello
        now = time.monotonic()
        for seat in self._leds:
            self._send_led(seat, now)
        self._acknowledge()

    def _receive(self, event: protocol.Button) -> None:
        if event.boot != self._boot:
            self._hello = None  # from a start we have not had a hello from: ask, and take it on resend
            return
        if event.seq < self._expected or event.seq in self._early:
            self._counts["repeats"] += 1
        elif len(self._early) < protocol.SEATS * 16:
            self._early[event.seq] = event
        while self._expected in self._early:
            taken = self._early.pop(self._expected)
            self._expected += 1
            self._counts["events"] += 1
            self._events.put(
                PanelEvent(taken.seat, protocol.BUTTONS[taken.button], protocol.KINDS[taken.kind], taken.seq)
            )
        self._acknowledge()

    def _acknowledge(self) -> None:
        if self._boot is not None and self._expected > 1:
            self._send(protocol.Ack(self._boot, self._expected - 1))


def watch(panel: SeatPanel, seconds: float | None = None, out: TextIO | None = None) -> None:
    """A wiring check: print the link's state as it changes and every event, and light the LED of the seat
        pressed last (on for a press, blinking for a hold). Runs for `seconds`, or until interrupted; prints
    to `out` (default: standard output)."""
    out = out or sys.stdout
    deadline = None if seconds is None else time.monotonic() + seconds
    shown = None
    while deadline is None or time.monotonic() < deadline:
        status = panel.status()
        state = (status.connected, status.port, status.firmware, status.problem)
        if state != shown:
            shown = state
            if status.problem:
                print(f"panel on {status.port}: {status.problem}", file=out, flush=True)
            elif status.connected:
                print(f"panel on {status.port}: firmware {status.firmware}", file=out, flush=True)
            else:
                print("no panel (looking for one)", file=out, flush=True)
        event = panel.get(timeout=0.1)
        if event is not None:
            print(f"seat {event.seat} {event.button} {event.kind} (#{event.seq})", file=out, flush=True)
            for seat in range(1, protocol.SEATS + 1):
                lit = "blink" if event.kind == "hold" else "on"
                panel.set_led(seat, lit if seat == event.seat else "off")


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m device.panel [PORT] [--seconds N]`: check a seat panel's wiring."""
    parser = argparse.ArgumentParser(
        prog="python -m device.panel",
        description="Check a seat panel's wiring: shows the link and every button event, and lights the LED "
        "of the seat pressed last (on for a press, blinking for a hold).",
    )
    parser.add_argument("port", nargs="?", default="auto", help='"auto" (by USB ids), a port or pyserial URL')
    parser.add_argument("--seconds", type=float, help="stop after this long (default: until Ctrl-C)")
    args = parser.parse_args(argv)
    with SeatPanel.configured(args.port) as panel, contextlib.suppress(KeyboardInterrupt):
        watch(panel, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
