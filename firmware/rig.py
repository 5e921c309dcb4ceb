"""A test rig: the panel firmware's own loop in a child process, on a real pseudo-terminal.

The child (`python -m firmware.rig`) runs `firmware.main.Panel` against `firmware.standin`, with the pty's
master as its USB serial line; the pty's slave is the port the device opens with pyserial. The parent
drives it through `PanelRig`: press and hold buttons (with contact bounce), pull the cable (the pty is
closed) and plug it back (a new pty, as a USB device re-enumerates), put noise on the line, corrupt what
the panel sends, make it deaf to the host, and read its LEDs and counters. Commands go as JSON lines on
the child's stdin, reports come back on its stdout; the child exits when its stdin closes.

    with PanelRig() as rig:
        with SeatPanel(finder=rig.port) as panel:
            rig.press(2, "confirm")
            panel.get(timeout=2)        # PanelEvent(seat=2, button='confirm', kind='press', seq=1)
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
import tty
from typing import Any

from firmware import main, protocol
from firmware.standin import TICKS_PERIOD, Clock, FdPoller, FdStream, Machine

BOUNCE = 4  # contact chatter after each edge: this many 1 ms flips, well inside DEBOUNCE_MS


class Finger:
    """A scripted press of one button: contact levels, each kept until the firmware has *read* it for its
    time, so a stalled loop makes a press longer (as a slow finger would), never shorter or missed. It
    ends once the release has been read for longer than the debounce, so presses in a row stay apart."""

    def __init__(self, button: main.Button, pin: int, ms: int, bounce: bool, id: str) -> None:
        chatter = BOUNCE if bounce else 0
        press = [(i % 2, 1) for i in range(chatter)] + [(0, ms - chatter)]  # (level, ms to be read)
        release = [(1 - i % 2, 1) for i in range(chatter)] + [(1, main.DEBOUNCE_MS + 5)]  # read as released
        self.steps = press + release
        self.button, self.pin, self.id = button, pin, id
        self.at = -1  # index of the level now applied

    def advance(self, machine: Machine, clock: Clock) -> bool:
        """Apply the next level once the current one has been read long enough; True when all are done."""
        if self.at >= 0:
            level, hold = self.steps[self.at]
            seen = self.button.raw == (level == 0)
            if not seen or clock.ticks_diff(self.button.read_at, self.button.changed) < hold:
                return False
            if self.at == len(self.steps) - 1:
                return True
        self.at += 1
        level, _ = self.steps[self.at]
        (machine.release if level else machine.press)(self.pin)
        if self.at == 0:
            _report(pressed=self.id, at=time.monotonic())
        if self.at == len(self.steps) - 1:
            _report(released=self.id, at=time.monotonic())
        return False


class Line:
    """The child's end of the USB cable: the pty master, or nothing while unplugged."""

    def __init__(self) -> None:
        self.stream: FdStream | None = None
        self.poller: FdPoller | None = None
        self.slave = -1
        self.deaf = False  # input is read and thrown away (a broken wire towards the panel)
        self.corrupt = 0.0  # chance that a write has one bit flipped
        self.random = random.Random(11)

    def plug(self) -> str:
        master, self.slave = os.openpty()
        tty.setraw(self.slave)  # a USB CDC line carries raw bytes: no echo, no line editing
        self.stream = FdStream(master)
        self.poller = FdPoller(self.stream)
        return os.ttyname(self.slave)

    def unplug(self) -> None:
        if self.stream is not None:
            os.close(self.stream.fd)
            os.close(self.slave)
        self.stream = self.poller = None

    def read(self, size: int) -> bytes | None:
        data = self.stream.read(size) if self.stream else None
        return None if self.deaf else data

    def write(self, data: bytes, raw: bool = False) -> int:
        if self.stream is None:
            return 0
        if not raw and data and self.random.random() < self.corrupt:
            spoiled = bytearray(data)
            spoiled[self.random.randrange(len(data))] ^= 1 << self.random.randrange(8)
            data = bytes(spoiled)
        return self.stream.write(data)

    def poll(self, timeout_ms: int) -> list[tuple[int, int]]:
        if self.poller is None:
            time.sleep(timeout_ms / 1000)
            return []
        return self.poller.poll(timeout_ms)


def _report(**fields: Any) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def _commands() -> queue.Queue[dict[str, Any]]:
    commands: queue.Queue[dict[str, Any]] = queue.Queue()

    def read() -> None:
        for text in sys.stdin:
            commands.put(json.loads(text))
        commands.put({"cmd": "quit"})

    threading.Thread(target=read, daemon=True).start()
    return commands


def _state(panel: main.Panel, machine: Machine, line: Line) -> dict[str, Any]:
    watchdog = machine.watchdog
    assert watchdog is not None
    return {
        "leds": [led.value() for led in panel.leds],
        "modes": [protocol.LED_MODES[mode] for mode in panel.modes],
        "status_led": panel.status_led.value(),
        "host_alive": panel.heard is not None,
        "bad_frames": panel.deframer.bad,
        "good_frames": panel.deframer.good,
        "outbox": len(panel.outbox),
        "next_seq": panel.next_seq,
        "dropped": panel.dropped,
        "watchdog_timeout": watchdog.timeout,
        "watchdog_longest_gap": watchdog.longest_gap,
        "plugged": line.stream is not None,
    }


def serve(start_ms: int) -> None:
    """The child: run the firmware loop, apply commands between passes, report on stdout."""
    clock = Clock(start=start_ms)
    machine = Machine(clock)
    line = Line()
    port = line.plug()
    panel = main.Panel(machine, clock, line, line, line, boot=random.getrandbits(32) or 1)
    _report(port=port)
    commands = _commands()
    fingers: list[Finger] = []
    while True:
        busy: set[int] = set()  # one finger at a time on a button: the next waits for the release
        for finger in list(fingers):
            if finger.pin not in busy:
                busy.add(finger.pin)
                if finger.advance(machine, clock):
                    fingers.remove(finger)
        panel.step()
        while not commands.empty():
            command = commands.get()
            name = command["cmd"]
            if name == "quit":
                line.unplug()
                return
            if name == "press":
                seat, button = command["seat"], protocol.BUTTONS.index(command["button"])
                pin = main.PINS[seat - 1][button]
                finger = Finger(
                    panel.buttons[seat - 1][button], pin, command["ms"], command["bounce"], command["id"]
                )
                fingers.append(finger)
            elif name == "reset":  # the watchdog fired, or the power went: a new start, an empty outbox
                panel = main.Panel(machine, clock, line, line, line, boot=random.getrandbits(32) or 1)
                fingers.clear()
                _report(done=command["id"])
            elif name == "unplug":
                line.unplug()
                _report(unplugged=command["id"])
            elif name == "plug":
                _report(port=line.plug(), plugged=command["id"])
            elif name == "noise":
                line.write(bytes.fromhex(command["hex"]), raw=True)
                _report(done=command["id"])
            elif name == "set":
                line.deaf = command.get("deaf", line.deaf)
                line.corrupt = command.get("corrupt", line.corrupt)
                _report(done=command["id"])
            elif name == "state":
                _report(state=command["id"], **_state(panel, machine, line))
        line.poll(main.LOOP_MS)


class PanelRig:
    """The parent's handle on a firmware child process; `port` is the finder to give the device side."""

    def __init__(
        self, start_ms: int = TICKS_PERIOD - 4000, timeout: float = 5.0, start_timeout: float = 20.0
    ) -> None:
        """`start_ms` is the panel's clock at start: by default its ticks wrap 4 s in, as a real Pico's do
        every 12 days. `timeout` bounds every wait for the child, `start_timeout` its start (Python's own
        start-up is slow on a loaded machine)."""
        self.timeout = timeout
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware.rig", str(start_ms)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self._port: str | None = None
        self._replies: dict[str, dict[str, Any]] = {}
        self._changed = threading.Condition()
        self._ids = iter(range(1, 1 << 62))
        self._listener = threading.Thread(target=self._listen, daemon=True)
        self._listener.start()
        with self._changed:
            if not self._changed.wait_for(lambda: self._port is not None, start_timeout):
                self.close()
                raise RuntimeError("the firmware rig did not start")

    def _listen(self) -> None:
        assert self.process.stdout is not None
        with contextlib.suppress(OSError, ValueError):  # the pipe closed under us: the child is gone
            for text in self.process.stdout:
                self._take(json.loads(text))

    def _take(self, report: dict[str, Any]) -> None:
        with self._changed:
            if "port" in report:
                self._port = report["port"]
            if "unplugged" in report:
                self._port = None
            for key in ("pressed", "released", "unplugged", "plugged", "done", "state"):
                if key in report:
                    self._replies[f"{key}:{report[key]}"] = report
            self._changed.notify_all()

    def _send(self, **command: Any) -> str:
        command["id"] = str(next(self._ids))
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(command) + "\n")
        self.process.stdin.flush()
        return str(command["id"])

    def _wait(self, key: str, timeout: float | None = None) -> dict[str, Any]:
        with self._changed:
            if not self._changed.wait_for(lambda: key in self._replies, timeout or self.timeout):
                raise TimeoutError(f"the firmware rig did not report {key}")
            return self._replies.pop(key)

    def port(self) -> str | None:
        """The pty the panel is on now, or None while its cable is pulled."""
        with self._changed:
            return self._port

    def press(self, seat: int, button: str, ms: int = 80, bounce: bool = True) -> tuple[float, float]:
        """Press a button for `ms` as the firmware reads it (with contact bounce unless told not to; 0 ms
        is a contact closed for a single reading); returns when (time.monotonic) it went down and when it
        was finally released."""
        down, id = self.press_down(seat, button, ms, bounce)
        return down, self.released(id, ms / 1000)

    def press_down(self, seat: int, button: str, ms: int, bounce: bool = True) -> tuple[float, str]:
        """Start a press and return once the contact is down: when, and the press's id for `released`."""
        id = self._send(cmd="press", seat=seat, button=button, ms=ms, bounce=bounce)
        return self._wait(f"pressed:{id}")["at"], id

    def released(self, id: str, expected: float = 0.0) -> float:
        """Wait (up to `expected` seconds more than the usual timeout) for a press to end; when it did."""
        return float(self._wait(f"released:{id}", expected + self.timeout)["at"])

    def reset(self) -> None:
        """Restart the panel (as its watchdog or a power cut would): a new boot id, nothing kept."""
        self._wait(f"done:{self._send(cmd='reset')}")

    def unplug(self) -> None:
        """Pull the cable: the pty is closed under the device's feet."""
        self._wait(f"unplugged:{self._send(cmd='unplug')}")

    def plug(self) -> str:
        """Plug the cable back: a new pty (a new path, as re-enumeration may give); returns its path."""
        return str(self._wait(f"plugged:{self._send(cmd='plug')}")["port"])

    def noise(self, data: bytes) -> None:
        """Write raw bytes from the panel's end of the line, between its frames."""
        self._wait(f"done:{self._send(cmd='noise', hex=data.hex())}")

    def set(self, deaf: bool | None = None, corrupt: float | None = None) -> None:
        """Make the panel deaf to the host, or flip one bit in this share of its writes."""
        changes = {key: value for key, value in (("deaf", deaf), ("corrupt", corrupt)) if value is not None}
        self._wait(f"done:{self._send(cmd='set', **changes)}")

    def state(self) -> dict[str, Any]:
        """The panel's LEDs (levels and modes), counters and watchdog record."""
        return self._wait(f"state:{self._send(cmd='state')}")

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        """Stop the child: ask, then wait, then kill; always reaps it."""
        try:
            if self.alive() and self.process.stdin is not None:
                self.process.stdin.write(json.dumps({"cmd": "quit"}) + "\n")
                self.process.stdin.flush()
        except (OSError, ValueError):  # its stdin is already gone
            pass
        try:
            self.process.wait(self.timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(self.timeout)
        self._listener.join(self.timeout)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()

    def __enter__(self) -> PanelRig:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
