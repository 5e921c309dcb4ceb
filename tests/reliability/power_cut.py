"""Power cuts: the device plays a demo recording and is killed with SIGKILL at random moments, again and again.

The parent process has imported everything and played the recording once through the device as the
reference (``demo_table.recorded``); each restart forks a child from it, so a restart costs milliseconds
while the child still does everything the device does on start and in play: it opens the journal on disk
(SQLite, WAL, ``synchronous=FULL``), resumes the game in progress, and runs ``tablescore run``'s own loop
(``device.run_command._loop`` under a ``Lifecycle``) on the recording's rendered frames through the real
card reader, tracker and flow, with the players carrying on from what the journal says. The display is
luma's in-memory OLED; after each page is drawn, the child appends to a report file which game and which
confirmed state the page showed. That is how the parent knows what was *confirmed*: committed and shown.

The kill falls at a random moment: for a quarter of the cuts (``START_SHARE``) up to ``longest`` after
the fork (opening the journal, replaying the game, the first frames); for the others around a
confirmation, after the child has read the first frame carrying a press, within ``WINDOW`` frame times
(the frame read, the press taken, the commit, the page drawn, the next frame). A frame time is the median
of the last 50 the children timed (each child times the frame before the press; under ``FRAME`` it was
its first frame, and not counted).
A frame takes from about 3 ms (a still table: the live reader reads nothing again) to 30 ms (a frame read
whole), more as the machine is loaded, so cuts at uniform times would mostly fall in reading, far from any
commit, and a window in milliseconds would move with the load.

After each kill the parent checks a copy of the journal's files, opened as a restart opens them (so the
check changes nothing the next restart finds):

- **corruption**: ``PRAGMA integrity_check`` is not ``ok``, or the journal cannot be read (its rows and
  JSON) as the device reads it;
- **loss**: a state the OLED showed is not in the journal (fewer events than the state shown had);
- **mismatch**: the journal is not the reference game (an event doubled, changed or out of order, a game
  not finished with the reference result), the game the child resumed is not the reference state at that
  point, or the child showed a state the reference game never reaches.

A kill is a process's death, not the machine's: what the kernel had been given still reaches the disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import select
import shutil
import signal
import sqlite3
import statistics
import struct
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.display import Display, open_device
from device.journal import Journal
from device.lifecycle import Lifecycle
from device.notify import Notifier
from device.run_command import _loop
from device.screens import Screen
from tests.reliability.demo_table import Players, Recorded, device
from tests.reliability.table_script import Keeper, Reference, digest, position

START_SHARE = 0.25
"""The share of cuts at a random moment from the start; the others fall around a confirmation."""
WINDOW = 3.0
"""How long after a frame carrying a press is read the kill may fall, in frame times: the frame is read
in about one (two when it is a child's first), the commit and the page follow."""
FRAME = 0.001
"""Frame times under this (seconds) are not counted: a child's first read (well under 1 ms). The frame before a
press is most often a still table's, about 3 ms: a bar of 5 ms, set when every frame was read whole, counted
none of them in some runs, and every kill of such a run then fell at the press, before its commit."""
STUCK = 60.0
"""A child that reaches no press in this long is stuck (killed and reported as a crash)."""


class Reporter:
    """The OLED, reporting each page drawn: the game and the digest of the confirmed state it shows."""

    def __init__(self, display: Display, fd: int) -> None:
        self.display, self.fd = display, fd
        self.play: Any = None

    def show(self, screen: Screen) -> None:
        self.display.show(screen)
        self.report("show", self.play.session.game_id, digest(self.play.state))

    def report(self, *fields: object) -> None:
        os.write(self.fd, (" ".join(map(str, fields)) + "\n").encode())


class Timed:
    """The players as the device's camera, timing the device's steps (from one read to the next)."""

    def __init__(self, players: Players) -> None:
        self.players, self.last, self.step = players, time.perf_counter(), 0.0

    def read(self) -> np.ndarray:
        now = time.perf_counter()
        self.step, self.last = now - self.last, now
        return self.players.read()

    def close(self) -> None:
        pass


def child(table: Recorded, path: Path, report: Path, pressed: int) -> None:
    """The device: resume from the journal and play on until killed; as each frame carrying a press is
    read, writes to ``pressed`` how long the frame before took (a double)."""
    fd = os.open(report, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    display = Display(open_device("dummy"))
    reporter = Reporter(display, fd)

    def announce() -> None:
        os.write(pressed, struct.pack("d", camera.step))

    try:
        run = device(table.blank, table.marks, path, reporter, announce)
        camera = Timed(run.players)
        reporter.play = run.play
        reporter.report("resume", run.play.session.game_id, position(run.journal)[1], digest(run.play.state))
        with Lifecycle(Notifier(environ={}), display) as life:
            _loop(life, run.loop, display, lambda: camera, 0.0)
    except BaseException as error:  # noqa: BLE001 - any way out of the device is a failure to report
        reporter.report("error", repr(error).replace("\n", " "))
    finally:
        os._exit(1)


@dataclass
class Tally:
    """What the cuts found."""

    cuts: int = 0
    near: int = 0
    """Cuts around a confirmation (the others at a random moment from the start)."""
    committed: int = 0
    """Cuts around a confirmation that fell after its commit (the journal grew)."""
    losses: int = 0
    corruptions: int = 0
    mismatches: int = 0
    crashes: int = 0
    """Children that ended before the kill."""
    shown: int = 0
    """Confirmed states the OLED showed (each checked against the journal)."""
    resumes: int = 0
    """Restarts that got as far as resuming the game (the resumed state checked)."""
    pending: int = 0
    """Cuts that fell after a commit and before its page was drawn (that event was kept)."""
    games: int = 0
    """Games finished in the journal at the end."""
    events: int = 0
    """Events in the journal at the end."""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def failures(self) -> int:
        return self.losses + self.corruptions + self.mismatches + self.crashes

    def fail(self, kind: str, text: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.problems) < 20:
            self.problems.append(f"cut {self.cuts}: {kind[:-1]}: {text}")


def read_journal(path: Path) -> list[tuple[int, bool, Any, list[tuple[str, Any]]]] | str:
    """Each game in the journal (id, finished, result, events), read as the device reads it; or what is
    wrong with the file."""
    if not path.exists():
        return []
    copy = path.with_name("checked.db")  # the journal's files as the kill left them, opened as a restart would
    for suffix in ("", "-wal"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
        if Path(f"{path}{suffix}").exists():
            shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
    try:
        with contextlib.closing(sqlite3.connect(copy)) as db:
            check = db.execute("PRAGMA integrity_check").fetchall()
            if check != [("ok",)]:
                return f"integrity_check: {check[:3]}"
            if not db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
                return []  # killed before the journal's tables were made: an empty database
            games = []
            for game_id, finished, result in db.execute("SELECT id, finished, result FROM games ORDER BY id"):
                rows = db.execute("SELECT seq, kind, data FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
                events = []
                for number, (seq, kind, data) in enumerate(rows, 1):
                    if seq != number:
                        return f"game {game_id}: event {seq} where {number} belongs"
                    events.append((kind, json.loads(data)))
                games.append((game_id, finished is not None, json.loads(result) if result else None, events))
            return games
    except (sqlite3.Error, ValueError) as error:
        return f"cannot read it: {error}"


def check(tally: Tally, reference: Reference, path: Path, lines: list[str], started: dict[int, int]) -> dict[int, int]:
    """Check the journal after a cut against the reference and against what the child reported; returns
    how many events each game has now."""
    games = read_journal(path)
    if isinstance(games, str):
        tally.fail("corruptions", games)
        return started
    counts: dict[int, int] = {}
    for number, (game_id, finished, result, events) in enumerate(games, 1):
        counts[game_id] = len(events)
        last = number == len(games)
        if game_id != number:
            tally.fail("mismatches", f"game {game_id} where game {number} belongs")
        elif finished and (events != list(reference.events) or result != reference.result):
            tally.fail("mismatches", f"game {game_id} finished but is not the reference game")
        elif not finished and (not last or events != list(reference.events[: len(events)])):
            tally.fail("mismatches", f"game {game_id} is not the reference game's start ({len(events)} events)")
        if finished:
            counts[game_id] = len(reference.states)  # past every state of the game
    for game, before in started.items():
        if counts.get(game, -1) < before:
            tally.fail("losses", f"game {game} had {before} events, now {counts.get(game, 'none')}")
    cursor: dict[int, int] = {}
    shown: dict[int, int] = {}
    for line in lines:
        kind, *rest = line.split()
        if kind == "error":
            tally.fail("crashes", line)
            continue
        game, state = int(rest[0]), rest[-1]
        if kind == "resume":
            tally.resumes += 1
            at = int(rest[1])
            if at != started.get(game, 0) or reference.states[at] != state:
                tally.fail("mismatches", f"game {game} resumed at {at} (journal had {started.get(game, 0)}) "
                                         "not as the reference")
            cursor[game] = at
            continue
        try:  # the states of a game are shown in order: the first match from where the last one was
            at = reference.states.index(state, cursor.get(game, 0))
        except ValueError:
            tally.fail("mismatches", f"game {game} showed a state the reference game never reaches")
            continue
        cursor[game] = shown[game] = at
        tally.shown += 1
    for game, at in shown.items():
        if at > counts.get(game, -1):
            tally.fail("losses", f"game {game} showed {at} events confirmed, the journal holds "
                                 f"{counts.get(game, 'no such game')}")
        elif at < counts.get(game, -1) < len(reference.states):
            tally.pending += 1
    return counts


def power_cuts(table: Recorded, folder: Path, cuts: int, seed: int = 1, longest: float = 0.2,
               head_start: int = 0) -> Tally:
    """Run the device on a fresh journal in ``folder`` and kill it ``cuts`` times (see the module's
    description for when); check the journal after every kill. With ``head_start``, the game is first
    played to that event without a cut (so that a short run also crosses the game's end)."""
    rng = random.Random(seed)
    path, report = folder / "journal.db", folder / "shown.txt"
    tally = Tally()
    if head_start:
        run = device(table.blank, table.marks, path, Keeper())
        while position(run.journal)[1] < head_start:
            run.loop.step(run.players.read())
        run.journal.close()
    counts = check(tally, table.reference, path, [], {})
    read = 0
    frames: deque[float] = deque(maxlen=50)
    threads = cv2.getNumThreads()
    cv2.setNumThreads(0)  # the children read frames in their own thread, none in a pool the fork left behind
    begun = time.perf_counter()
    try:
        for _ in range(cuts):
            near = rng.random() >= START_SHARE
            tally.near += near
            cut(tally, table, path, report, rng.uniform(0, WINDOW if near else longest), frames if near else None)
            text = report.read_bytes()[read:] if report.exists() else b""
            read += len(text)
            lines = text.decode().splitlines()
            if text and not text.endswith(b"\n"):
                lines.pop()  # cut mid-line: not a whole report
            before, counts = sum(counts.values()), check(tally, table.reference, path, lines, counts)
            tally.committed += near and sum(counts.values()) > before
    finally:
        cv2.setNumThreads(threads)
    tally.seconds = time.perf_counter() - begun
    games = read_journal(path)
    if isinstance(games, list):
        tally.games = sum(finished for _, finished, _, _ in games)
        tally.events = sum(len(events) for *_, events in games)
    return tally


def cut(tally: Tally, table: Recorded, path: Path, report: Path, delay: float, frames: deque[float] | None) -> None:
    """Start the device and kill it ``delay`` seconds after the start, or with ``frames`` (the frame times
    measured so far, to which this child's is added) ``delay`` frame times after it has read the first
    frame carrying a press."""
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(readable)
        child(table, path, report, writable)
    os.close(writable)
    try:
        pressed = True
        if frames is not None:
            step = os.read(readable, 8) if select.select([readable], [], [], STUCK)[0] else b""
            pressed = len(step) == 8  # else the child died or is stuck
            if pressed and (took := struct.unpack("d", step)[0]) >= FRAME:
                frames.append(took)
            delay *= statistics.median(frames) if pressed and frames else 0.0
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
    finally:
        os.close(readable)
    _, status = os.waitpid(pid, 0)
    tally.cuts += 1
    if not os.WIFSIGNALED(status):
        tally.fail("crashes", f"the device ended by itself (status {status})")
    elif not pressed:
        tally.fail("crashes", f"the device reached no press in {STUCK:.0f} s")


def resumes(table: Recorded, folder: Path) -> list[int]:
    """Resume the game at each of its events in turn (a journal holding the reference's first ``n``) and
    play on to the next; the points from which it did not reach the reference (its next state, or for
    the last its result)."""
    recording, reference = table.recording, table.reference
    astray = []
    for n in range(len(reference.events) + 1):
        path = folder / f"resume-{n}.db"
        with Journal(path) as journal:
            game = journal.start_game(recording.game, list(recording.players), recording.settings)
            for kind, data in reference.events[:n]:
                journal.append(game, kind, data)
        run = device(table.blank, table.marks, path, Keeper())
        while position(run.journal) == (0, n):
            run.loop.step(run.players.read())
        if n < len(reference.events):
            right = position(run.journal) == (0, n + 1) and digest(run.play.state) == reference.states[n + 1]
        else:
            right = position(run.journal)[0] == 1 and run.journal.games()[0].result == reference.result
        run.journal.close()
        if not right:
            astray.append(n)
    return astray

