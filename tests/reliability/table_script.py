"""A scripted table for the reliability tests: a whole game recorded once, then played through the device
frame by frame, so it can be cut short, faulted and resumed.

``record`` plays a Cribbage game at a ``tests.device.flows.script.Table`` (the flow tests' scripted
table, driven by ``tests.device.flows.test_cribbage.play_out``) and keeps what the players did, as cards
put down and picked up and buttons pressed, split into *moves*: each move ends with the press that wrote
the journal (a confirmation, or OK on a finished game for the next). ``Players`` acts those moves out
for a ``device.flows.loop.Loop``: each camera frame shows the cards on the table where a player laid them
(seen by the loop tests' stand-in reader, ``tests.device.flows.test_loop.Scripted``), and presses come
through its stand-in buttons. ``Players.resume`` starts from where the journal says the game stands, as
people at the table carry on from what the restarted device shows. ``ScriptedCamera`` is a
``device.camera.Camera`` whose every read is one frame of the players' script.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from device.flows.loop import Loop
from device.flows.play import Play
from device.games import flow_for
from device.inputs import Press
from device.journal import Journal
from device.screens import Screen
from scoring.cribbage_game import Game, Settings
from tests.device.flows.script import Table
from tests.device.flows.test_cribbage import NAMES, play_out
from tests.device.flows.test_loop import Scripted
from vision.observations import Point
from vision.tracker import Settings as TrackerSettings
from vision.tracker import Tracker
from vision.zones import Calibration

SIZE = 1000
"""The frames are SIZE x SIZE pixels; the default calibration fills them."""
FRAME = np.broadcast_to(np.zeros(3, np.uint8), (SIZE, SIZE, 3))
"""A frame of the right shape (the stand-in reader looks only at the script, not at the pixels)."""
SLOT = 0.06
"""Cards are laid on a grid this far apart (table units: 60 pixels, well past the tracker's reach)."""
TRACKING = TrackerSettings()
"""The device's own tracker settings (``tablescore run`` uses the defaults)."""


@dataclass(frozen=True)
class Put:
    zone: str
    code: str


@dataclass(frozen=True)
class Take:
    codes: tuple[str, ...]
    """The cards picked up; all of them when empty."""


@dataclass(frozen=True)
class Push:
    button: str
    held: bool = False


Action = Put | Take | Push


class Recorder(Table):
    """The flow tests' table, keeping every action and cutting them into moves at each journal write."""

    def __init__(self, path: Path, game: str, players: list[str]) -> None:
        super().__init__(path, game, players)
        self.moves: list[tuple[Action, ...]] = []
        self.pending: list[Action] = []

    def put(self, zone: str, *codes: str) -> list[int]:
        self.pending += [Put(zone, code) for code in " ".join(codes).split()]
        return super().put(zone, *codes)

    def take(self, *codes: str) -> None:
        self.pending.append(Take(codes))
        super().take(*codes)

    def press(self, button: str, times: int = 1, held: bool = False) -> None:
        for _ in range(times):
            before = written(self.journal)
            self.pending.append(Push(button, held))
            super().press(button, 1, held)
            if written(self.journal) != before:
                self.moves.append(tuple(self.pending))
                self.pending = []


def written(journal: Journal) -> tuple[int, int]:
    """How far the journal has got: games finished, and events in all games."""
    games = journal.games()
    return sum(g.finished is not None for g in games), sum(len(journal.events(g.id)) for g in games)


@dataclass(frozen=True)
class Script:
    """One game's moves (the last is OK on the finished game, which starts the next)."""

    game: str
    players: tuple[str, ...]
    moves: tuple[tuple[Action, ...], ...]

    def flow(self) -> Any:
        return flow_for(self.game, list(self.players), {})

    def calibration(self) -> Calibration:
        return Calibration.default(len(self.players), size=(SIZE, SIZE))


def record(folder: Path, players: int = 2, seed: int = 1) -> Script:
    """Play a Cribbage game to its end at the flow tests' table (as ``test_cribbage`` does) and keep it."""
    table = Recorder(folder / "recorded.db", "cribbage", NAMES[:players])
    play_out(table, Game(Settings(players)), random.Random(seed))
    table.ok()  # OK on the finished game: its result is recorded and the next game starts
    table.journal.close()
    return Script("cribbage", tuple(NAMES[:players]), tuple(table.moves))


class Layout:
    """The cards on the table, where they lie, in the order they arrived."""

    def __init__(self, calibration: Calibration) -> None:
        self.boxes = {zone.name: zone.polygon for zone in calibration.zones}
        self.cards: dict[str, Point] = {}

    def apply(self, action: Action) -> None:
        if isinstance(action, Put):
            self.cards[action.code] = self._free(action.zone)
        elif isinstance(action, Take):
            for code in list(self.cards):
                if not action.codes or code in action.codes:
                    del self.cards[code]

    def _free(self, zone: str) -> Point:
        """The first grid point in ``zone`` with no card on it, in pixels."""
        xs, ys = zip(*self.boxes[zone], strict=True)
        taken = set(self.cards.values())
        columns = int((max(xs) - min(xs)) / SLOT)
        for n in range(columns * int((max(ys) - min(ys)) / SLOT)):
            x = min(xs) + SLOT * (n % columns + 0.5)
            y = min(ys) + SLOT * (n // columns + 0.5)
            point = (round(x * SIZE, 1), round(y * SIZE, 1))
            if point not in taken:
                return point
        raise ValueError(f"no room left in the zone {zone}")


def position(journal: Journal) -> tuple[int, int]:
    """Where a game stands by the journal: games finished, and events of the game in progress."""
    current = journal.current_game()
    finished = sum(g.finished is not None for g in journal.games())
    return finished, len(journal.events(current.id)) if current else 0


class Players:
    """The people at the table: they act the script out, one frame at a time, through ``stand_in``."""

    def __init__(self, script: Script, stand_in: Scripted, games: int = 0, move: int = 0) -> None:
        self.script, self.stand_in = script, stand_in
        self.layout = Layout(script.calibration())
        for action in [a for m in script.moves for a in m] * min(games, 1) + [a for m in script.moves[:move] for a in m]:
            self.layout.apply(action)
        self.games, self.move = games, move
        self.done = False
        """Set once the first game the players began is over (its OK for the next game pressed)."""
        self.press: Callable[[Push], None] = lambda push: stand_in.presses.append(Press(push.button, push.held))
        """How a player presses a button: by default on the stand-in main buttons."""
        self._frames = self._run()

    @classmethod
    def resume(cls, script: Script, stand_in: Scripted, journal: Journal) -> Players:
        """The players carrying on from where the journal says the game stands."""
        return cls(script, stand_in, *position(journal))

    def frame(self) -> None:
        """Set up the next frame: the cards on the table and the presses made with it."""
        next(self._frames)

    def _show(self) -> None:
        self.stand_in.cards = dict(self.layout.cards)

    def _run(self) -> Iterator[None]:
        self._show()
        for _ in range(TRACKING.steady + 1):  # the cards already down are seen afresh
            yield
        while True:
            for moves in self.script.moves[self.move:]:
                settle = 0
                for action in moves:
                    if isinstance(action, Push):
                        for _ in range(settle):
                            yield
                        settle = 0
                        self.press(action)
                        yield
                        continue
                    self.layout.apply(action)
                    self._show()
                    settle = max(settle, TRACKING.absent + 1 if isinstance(action, Take) else TRACKING.steady + 1)
                    yield
                self.move += 1
            self.done = True
            self.games, self.move = self.games + 1, 0


class ScriptedCamera:
    """A camera onto the scripted table: each read is the players' next frame."""

    def __init__(self, players: Players) -> None:
        self.players = players

    def read(self) -> np.ndarray:
        self.players.frame()
        return FRAME

    def close(self) -> None:
        pass


def digest(state: object) -> str:
    """A short fingerprint of a game's confirmed state, to say across processes which state was shown."""
    return hashlib.blake2b(repr(state).encode(), digest_size=8).hexdigest()


@dataclass
class Device:
    """The device's parts around a journal, as ``tablescore run`` builds them, with the scripted table."""

    journal: Journal
    play: Play[Any]
    stand_in: Scripted
    loop: Loop
    players: Players


def device(script: Script, path: Path, display: Any, panel: Any = None) -> Device:
    """The device on the journal at ``path``, resumed, with the players carrying on where it stands."""
    journal = Journal(path)
    play: Play[Any] = Play(journal, script.flow())
    stand_in = Scripted()
    loop = Loop(play, stand_in.read, script.calibration(), display, tracker=Tracker(TRACKING), buttons=stand_in,
                panel=panel)
    return Device(journal, play, stand_in, loop, Players.resume(script, stand_in, journal))


@dataclass(frozen=True)
class Reference:
    """One game played through the device without a fault: its events, its states after each, its result."""

    events: tuple[tuple[str, Any], ...]
    states: tuple[str, ...]
    """Digests of the confirmed state before any event and after each."""
    result: Any
    final: Any
    """The state at the end of the game (before OK starts the next)."""


class Keeper:
    """A display stand-in that keeps what it was shown."""

    def __init__(self) -> None:
        self.shown: list[Screen] = []

    def show(self, screen: Screen) -> None:
        self.shown.append(screen)


def reference(script: Script, folder: Path) -> Reference:
    """Play the script's game once through the device, uninterrupted, and keep what it confirmed."""
    run = device(script, folder / "reference.db", Keeper())
    states = [digest(run.play.state)]
    final = None
    while not run.players.done:
        before = run.players.move
        run.players.frame()
        if run.players.move != before and not run.players.done:
            states.append(digest(run.play.state))
            final = run.play.state
        run.loop.step(FRAME)
    first = run.journal.games()[0]
    events = tuple((e.kind, e.data) for e in run.journal.events(first.id))
    run.journal.close()
    return Reference(events, tuple(states), first.result, final)
