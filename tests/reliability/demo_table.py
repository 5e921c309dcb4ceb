"""A demo recording acted out for the device, game after game, resumable where the journal stands: the table
the power-cut harness (``power_cut``) plays.

The recording (``device.demo.recording``, Cribbage to 61 by default) is played by its own ``Playback``:
rendered frames through the real card reader (``vision.live.LiveReader``, a new one at each restart), the
zones, the tracker (its default settings, as ``tablescore run`` has them), the flow and the journal, with
the presses the players made at the frames they made them. At the recording's end the players clear the
table and press OK on the finished game (its result is recorded, the next game begins), and play the
recording again.

``Players.resume`` carries on from where the journal says the game stands, as people at the table do
from what the restarted device shows: the table is laid as it lay at the frame whose press wrote the
journal's last event (``Playback.seek``), and the recording goes on from the frame after it. The
players do not wait for the device: the restarted tracker must count the cards already down while they
go on (at every event of the Cribbage recording, the next press comes 1 to 17 frames later).
``reference`` plays one game uninterrupted and keeps what it confirmed and at which frame.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from device.demo.recording import Playback, Recording
from device.demo.stage import SIZE
from device.flows.loop import Loop
from device.flows.play import Play
from device.games import flow_for
from device.inputs import Press
from device.journal import Journal
from device.panel import PanelEvent
from tests.reliability.table_script import TRACKING, Keeper, Reference, digest, position
from vision.live import LiveReader
from vision.tracker import Tracker
from vision.zones import Calibration

RECORDING = "cribbage"


class Players:
    """The people at the table acting a recording out as the device's camera (``read``), main buttons
    (``take``) and seat panel (``get``), from ``events`` into game ``games``. Each game is played by a copy
    of ``blank``, the recording's playback not yet begun (copied, as drawing its empty table takes longer
    than reading a frame); ``marks[n - 1]`` is the frame whose press wrote a game's event ``n``.
    ``announce()`` is called as each frame carrying a press is read, before the device takes it."""

    def __init__(self, blank: Playback, marks: tuple[int, ...], games: int = 0, events: int = 0,
                 announce: Callable[[], None] = lambda: None) -> None:
        self.blank, self.marks, self.announce = blank, marks, announce
        self.games = games
        self.done = False
        """Set once the first game the players began is over (its OK for the next game pressed)."""
        self.playback = self._fresh()
        self._ok: list[Press] = []
        self._frames = self._run(marks[events - 1] if events else -1)

    @classmethod
    def resume(cls, blank: Playback, marks: tuple[int, ...], journal: Journal,
               announce: Callable[[], None] = lambda: None) -> Players:
        """The players carrying on from where the journal says the game stands."""
        return cls(blank, marks, *position(journal), announce=announce)

    def read(self) -> np.ndarray:
        return next(self._frames)

    def take(self) -> list[Press]:
        taken, self._ok = self.playback.take() + self._ok, []
        return taken

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        return self.playback.get(timeout)

    def close(self) -> None:
        pass

    @property
    def frame(self) -> int:
        """The recording's frame last read (-1 before the first)."""
        return self.playback.frame

    def _fresh(self) -> Playback:
        """A copy of the blank playback, sharing what is never changed: the recording, the deck's faces."""
        blank = self.blank
        return copy.deepcopy(blank, {id(blank.recording): blank.recording, id(blank.stage.deck): blank.stage.deck})

    def _run(self, start: int) -> Iterator[np.ndarray]:
        while True:
            if start >= 0:
                self.playback.seek(start)
            while not self.playback.done:
                image = self.playback.read()
                if self.playback.pressed:
                    self.announce()
                yield image
            self.playback.stage.take()  # the table cleared, the cards gone for the tracker
            for _ in range(TRACKING.absent + 1):
                yield self.playback.stage.image()
            self._ok.append(Press("ok", False))  # OK on the finished game: the next begins
            self.announce()
            yield self.playback.stage.image()
            self.done, self.games, start = True, self.games + 1, -1
            self.playback = self._fresh()


@dataclass(frozen=True)
class Recorded:
    """A recording (its playback not yet begun) and what it does when played uninterrupted through the
    device."""

    blank: Playback
    marks: tuple[int, ...]
    """The frame whose press wrote each event of a game (event n at ``marks[n - 1]``)."""
    reference: Reference

    @property
    def recording(self) -> Recording:
        return self.blank.recording


@dataclass
class Device:
    """The device's parts around a journal, as ``tablescore run`` builds them, with the players."""

    journal: Journal
    play: Play[Any]
    loop: Loop
    players: Players


def device(blank: Playback, marks: tuple[int, ...], path: Path, display: Any,
           announce: Callable[[], None] = lambda: None) -> Device:
    """The device on the journal at ``path``, resumed, with the players carrying on where it stands."""
    recording = blank.recording
    journal = Journal(path)
    play: Play[Any] = Play(journal, flow_for(recording.game, list(recording.players), recording.settings))
    players = Players.resume(blank, marks, journal, announce)
    loop = Loop(play, LiveReader(), Calibration.default(len(recording.players), size=SIZE), display,
                tracker=Tracker(TRACKING), buttons=players, panel=players)
    return Device(journal, play, loop, players)


def recorded(folder: Path, name: str = RECORDING) -> Recorded:
    """Play the recording ``name`` once through the device, uninterrupted, with the OK that starts the
    next game, and keep what it confirmed and at which frames."""
    blank = Playback(Recording.load(name))
    run = device(blank, (), folder / "reference.db", Keeper())
    states, marks = [digest(run.play.state)], []
    final = None
    while True:
        run.loop.step(run.players.read())
        finished, events = position(run.journal)
        if finished:
            break
        if run.players.playback.done and run.play.flow.result(run.play.state) is None:
            raise ValueError(f"the {name} recording does not play its game to the end (the power-cut harness "
                             "plays a whole game again and again)")
        if events != len(marks):
            if events != len(marks) + 1 or not run.players.playback.pressed:
                raise ValueError(f"the {name} recording wrote {events - len(marks)} events at frame "
                                 f"{run.players.frame}, not one with a press")
            marks.append(run.players.frame)
            states.append(digest(run.play.state))
            final = run.play.state
    first = run.journal.games()[0]
    events = tuple((e.kind, e.data) for e in run.journal.events(first.id))
    run.journal.close()
    return Recorded(blank, tuple(marks), Reference(events, tuple(states), first.result, final))
