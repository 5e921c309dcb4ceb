"""A recorded table session, and its playback as the device's camera, buttons and seat panel.

A recording is a small JSON file: the game, its players and settings, the seed of its table, how many
frames it lasts, and its *acts*, each at a frame: a card put down (code, centre, turn, face up or down),
cards taken up, a die roll in the tray, a main button or a seat panel button pressed. It also carries the
game's script in the engine's terms (``tools.demo.deals``) and the final scores that script reaches.

Storing what a person did, not the frames, keeps the five recordings under 100 KB (with the deck picture
about 200 KB): the frames are drawn again when played (``device.demo.stage``), exactly the same each time,
and drawing costs little as only changes are drawn. A still table gives the same frame again, as a camera
on a tripod nearly does.

``Playback`` is the recording played: ``read()`` is the camera (the next frame), ``take()`` the main
buttons and ``get()`` the seat panel, both giving what was pressed at the frame just read, so a ``Loop``
runs on it exactly as on the table. ``misread(sightings)`` says which card the reader got wrong in the
frame just read, for the reports of a demo that goes astray.

>>> recording = Recording.load("cribbage")
>>> recording.game, recording.players, recording.frames > 100
('cribbage', ('Ann', 'Bob'), True)
>>> playback = Playback(recording)
>>> playback.read().shape, playback.frame
((720, 1280, 3), 0)
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from numpy.typing import NDArray

from device.camera import CameraError
from device.demo.stage import CARD_HEIGHT, RECORDINGS, TRAY, Deck, Pose, Stage
from device.games import GAMES
from device.inputs import Button, Press
from device.panel import PanelEvent
from scoring.cards import Card
from vision.observations import CardSighting

ORDER = tuple(GAMES)
"""The recordings (one a game, ``NAME.json``), in the order the demo plays them."""


@dataclass(frozen=True)
class Recording:
    """One recorded session; ``acts`` are lists ``[frame, kind, *arguments]`` in frame order."""

    name: str
    game: str
    title: str
    players: tuple[str, ...]
    settings: dict[str, Any]
    seed: int
    frames: int
    acts: tuple[tuple[Any, ...], ...]
    script: dict[str, Any]
    expect: tuple[int, ...]
    dice: tuple[tuple[tuple[Any, ...], ...], ...] = ()
    """The dice rolls the ``dice`` acts show: each die's pose (see ``device.demo.stage.Tray``)."""

    @staticmethod
    def load(name: str, folder: Path = RECORDINGS) -> Recording:
        """The recording ``name`` (``cribbage``...) in ``folder``."""
        path = folder / f"{name}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return Recording(name, data["game"], data["title"], tuple(data["players"]), data["settings"],
                             data["seed"], data["frames"], tuple(map(tuple, data["acts"])), data["script"],
                             tuple(data["expect"]), tuple(tuple(map(tuple, roll)) for roll in data.get("dice", ())))
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ValueError(f"the demo recording {path} cannot be read: {error}") from None

    def save(self, folder: Path = RECORDINGS) -> Path:
        """Write the recording as ``folder/name.json``, one act a line."""
        head = {"game": self.game, "title": self.title, "players": list(self.players), "settings": self.settings,
                "seed": self.seed, "frames": self.frames, "expect": list(self.expect), "script": self.script}
        lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"acts":[']
        lines += [json.dumps(list(act), separators=(",", ":")) + "," for act in self.acts]
        lines[-1] = lines[-1].rstrip(",")
        lines.append('],"dice":[')
        lines += [json.dumps([list(die) for die in roll], separators=(",", ":")) + "," for roll in self.dice]
        if self.dice:
            lines[-1] = lines[-1].rstrip(",")
        lines.append("]}")
        path = folder / f"{self.name}.json"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path


def recordings(folder: Path = RECORDINGS) -> list[Recording]:
    """Every recording, in the demo's order."""
    return [Recording.load(name, folder) for name in ORDER]


@cache
def deck() -> Deck:
    """The deck the recordings are drawn with."""
    return Deck.load()


@dataclass
class Playback:
    """A recording played back as a camera, main buttons and a seat panel."""

    recording: Recording
    stage: Stage = field(init=False)
    frame: int = -1
    """The frame last read (-1 before the first)."""

    def __post_init__(self) -> None:
        self.stage = Stage(deck(), self.recording.seed)
        self._acts: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
        for act in self.recording.acts:
            self._acts[act[0]].append(act)
        self._presses: list[Press] = []
        self._events: list[PanelEvent] = []
        self._tray: Any = None

    @property
    def done(self) -> bool:
        """Whether every frame has been read."""
        return self.frame + 1 >= self.recording.frames

    @property
    def pressed(self) -> bool:
        """Whether a button was pressed at the frame just read."""
        return any(act[1] in ("press", "panel") for act in self._acts.get(self.frame, ()))

    def read(self) -> NDArray[Any]:
        """The next frame (it stays valid until the next call)."""
        if self.done:
            raise CameraError(f"the demo recording {self.recording.name} has no more frames")
        self.frame += 1
        self._act()
        return self.stage.image()

    def seek(self, frame: int) -> None:
        """Lay the table as it lies at ``frame`` without drawing the frames up to it or keeping their
        presses, so that ``read`` goes on from the frame after: the recording resumed mid-way, as the
        power-cut harness (tests/reliability) resumes it after each restart.

        >>> through, resumed = Playback(Recording.load("cribbage")), Playback(Recording.load("cribbage"))
        >>> frames = [through.read().copy() for _ in range(42)]
        >>> resumed.seek(40)
        >>> resumed.frame, resumed.take(), bool((resumed.read() == frames[41]).all())
        (40, [], True)
        """
        while self.frame < frame:
            self.frame += 1
            self._act()
        self._presses.clear()
        self._events.clear()

    def _act(self) -> None:
        """Do what the recording does at the current frame."""
        for _, kind, *args in self._acts.get(self.frame, ()):
            if kind == "put":
                code, x, y, turn, down = args
                self.stage.put(Pose(code, x, y, turn, bool(down)))
            elif kind == "take":
                self.stage.take(*args)
            elif kind == "press":
                self._presses.append(Press(Button(args[0]), bool(args[1])))
            elif kind == "panel":
                self._events.append(PanelEvent(args[0], args[1], args[2], self.frame))
            elif kind == "dice":
                self._show_dice(args[0])
            else:
                raise ValueError(f"the demo recording {self.recording.name} has an unknown act {kind!r}")

    def _show_dice(self, roll: int) -> None:
        if roll < 0:
            self.stage.show_dice(None)
            return
        from device.demo.stage import Tray

        if self._tray is None:
            self._tray = Tray(self.stage)
        self.stage.show_dice(*self._tray.image(self.recording.dice[roll], (self.recording.seed, roll)))

    def take(self) -> list[Press]:
        """The main buttons pressed at the frame just read."""
        taken, self._presses = self._presses, []
        return taken

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        """The next seat panel event of the frame just read, or None."""
        return self._events.pop(0) if self._events else None

    def close(self) -> None:
        """Nothing to release."""

    def misread(self, sightings: list[CardSighting]) -> str | None:
        """What the reader got wrong in the frame just read (the first thing), or None when it read every
        card right.

        >>> playback = Playback(Recording.load("cribbage"))
        >>> _ = playback.read()
        >>> playback.stage.put(Pose("7H", 640.0, 612.0))
        >>> playback.misread([])
        'frame 0: 7♥ at (640, 612) not found'
        """
        wrong = misreads(self.stage, sightings)
        return f"frame {self.frame}: {wrong[0].text}" if wrong else None


@dataclass(frozen=True, slots=True)
class Misread:
    """A card the reader did not read as itself where it lies (``pose``), or a card read where none lies
    face up (``pose`` None), at ``at``."""

    pose: Pose | None
    at: tuple[float, float]
    text: str
    unread: bool = False
    """Whether the card was found but not read (reported as ``??``)."""


def misreads(stage: Stage, sightings: list[CardSighting]) -> list[Misread]:
    """Every card on ``stage`` the reader did not read as itself, once, where it lies (a card also seen as
    another, or as an unknown card, or twice, would count twice on the table), then every reading of a
    card where none lies face up (dice in the tray aside)."""
    lying = stage.lying()
    reach = CARD_HEIGHT / 2
    near: dict[str, list[CardSighting]] = {pose.code: [] for pose in lying}
    x1, y1 = TRAY[2:] if stage.dice_shown else (0, 0)
    wrong, phantoms = [], []
    for sighting in sightings:
        x, y = sighting.center
        closest = min(lying, key=lambda p: math.dist((x, y), (p.x, p.y)), default=None)
        if closest is not None and math.dist((x, y), (closest.x, closest.y)) < reach:
            near[closest.code].append(sighting)
        elif not (x < x1 and y < y1):
            phantoms.append(Misread(None, (x, y), f"{sighting.code} read at ({x:.0f}, {y:.0f}) where no card lies face up"))
    for pose in lying:
        seen = near[pose.code]
        if [s.code for s in seen] != [pose.code]:
            read = " and ".join(sorted(s.code for s in seen))
            text = f"{Card.parse(pose.code).symbol} at ({pose.x:.0f}, {pose.y:.0f}) {f'read as {read}' if seen else 'not found'}"
            wrong.append(Misread(pose, (pose.x, pose.y), text, bool(seen) and all(s.card is None for s in seen)))
    return wrong + phantoms

