"""Pinzique rolls over frames: when a roll has settled, which dice were kept, and how many rolls so far.

Feed :meth:`DiceTracker.update` each frame's :class:`~vision.dice.DiceReading`. It returns a :class:`Roll`
when the dice have settled into a new roll, else None:

- The dice have settled when all of them (``count``, 8) are seen, each within ``still`` pixels of where it
  was, for ``steady`` frames running. A die rolling, or a hand in the tray, keeps the roll unsettled.
- A settled die's face is the face read in most of those frames, when no frame read it differently;
  otherwise it is unknown (None), never guessed, and the roll is not ``complete``.
- Settled dice that are just where the last roll left them, showing the same face, are the dice kept;
  the others were re-rolled. Dice that settle exactly as before (a hand passed over) are no new roll.
- Rolls are counted from 1 in each turn (:meth:`DiceTracker.new_turn` starts one). When the last roll had
  unknown dice and only those dice changed (a cocked die set straight), the settled roll is that same roll
  again, corrected, not a new one.
- Each roll carries the problems of its faces (:func:`vision.dice.check_faces`): a roll with problems
  must not be scored.

>>> from scoring.cards import parse_cards
>>> def frame(codes, shift=0.0):
...     return DiceReading(tuple(DieSighting(card, (100.0 * k + shift, 50.0), 0.99)
...                              for k, card in enumerate(parse_cards(codes))), ())
>>> tracker = DiceTracker(DiceSettings(steady=2, count=3))
>>> tracker.update(frame("QH KS 9C")) is None
True
>>> roll = tracker.update(frame("QH KS 9C"))
>>> roll.number, [c.code for c in roll.faces], roll.kept, roll.rerolled
(1, ['QH', 'KS', '9C'], (), (0, 1, 2))
>>> tracker.update(frame("QH KS 9C")) is None  # still the same roll
True
>>> tracker.update(DiceReading((frame("QH KS 9C").dice[0],), ())) is None  # two dice picked up
True
>>> moved = DiceReading(frame("QH AD JS", shift=0).dice[:1] + frame("QH AD JS", shift=30).dice[1:], ())
>>> tracker.update(moved), tracker.update(moved).number, tracker.last.kept
(None, 2, (0,))
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from scoring.pinzique_guide import ScoreGuide
from scoring.pinzique_roll import default_guide
from vision.dice import DiceReading, check_faces, read_dice
from vision.observations import DieSighting
from vision.settings import check as check_settings
from vision.zones import Calibration, ZoneError

__all__ = ["DiceSettings", "DiceTracker", "Roll", "SettledDice"]


@dataclass(frozen=True, slots=True)
class DiceSettings:
    """How the tracker decides; ``still`` and ``near`` are image pixels.

    >>> DiceSettings(steady=0)
    Traceback (most recent call last):
    ...
    ValueError: dice tracker setting 'steady' must be a whole number of at least 1, not 0
    """

    steady: int = 3
    """Frames running all dice must lie still for the roll to have settled."""
    still: float = 4.0
    """How far (pixels) a die's centre may shift between frames and still be lying still."""
    near: float = 10.0
    """How far (pixels) a die may lie from where the last roll left it and still be a kept die."""
    count: int = 8
    """The dice in the game."""

    def __post_init__(self) -> None:
        check_settings(self, "dice tracker", {"steady": 1, "count": 1}, ("still", "near"))


@dataclass(frozen=True, slots=True)
class Roll:
    """A settled roll: the dice (top to bottom, left to right) with their agreed faces."""

    number: int
    """1 for the first roll of the turn."""
    frame: int
    """The frame it settled in (frames counted from 0)."""
    dice: tuple[DieSighting, ...]
    kept: tuple[int, ...]
    """Positions in ``dice`` of the dice kept from the last roll, as they were."""
    rerolled: tuple[int, ...]
    """Positions in ``dice`` of the dice rolled this time."""
    problems: tuple[str, ...]

    @property
    def faces(self) -> list[Card | None]:
        """Each die's face, None for a die not read surely."""
        return [die.face for die in self.dice]

    @property
    def complete(self) -> bool:
        """Every die read and nothing wrong: the roll can be scored."""
        return all(face is not None for face in self.faces) and not self.problems


class DiceTracker:
    """Watches the dice frame by frame (see the module's description)."""

    def __init__(self, settings: DiceSettings | None = None, guide: ScoreGuide | None = None) -> None:
        self.settings = settings or DiceSettings()
        self.guide = guide or default_guide()
        self._recent: deque[tuple[DieSighting, ...]] = deque(maxlen=self.settings.steady)
        self._frame = -1
        self._rolls = 0
        self.last: Roll | None = None
        """The latest settled roll of this turn."""
        self.seen = DiceReading((), ())
        """The latest frame's reading: its problems (nine dice seen...) say why a roll does not settle."""

    @property
    def rolls(self) -> int:
        """Rolls so far in this turn."""
        return self._rolls

    def new_turn(self) -> None:
        """The next roll to settle is roll 1 of a new turn, with no dice kept."""
        self._rolls = 0
        self.last = None

    def update(self, reading: DiceReading) -> Roll | None:
        """Take one frame's reading; the roll, if the dice have just settled into a new one."""
        self._frame += 1
        self.seen = reading
        self._recent.append(reading.dice)
        settled = self._settled()
        if settled is None:
            return None
        previous = self.last
        kept = tuple(k for k, die in enumerate(settled) if previous and _unchanged(die, previous.dice, self.settings.near))
        if previous and len(kept) == len(settled):
            return None  # the same roll, seen again
        moved = [die for k, die in enumerate(settled) if k not in kept]
        correcting = previous is not None and not previous.complete and all(
            any(_close(die, old, self.settings.near) for old in previous.dice if old.face is None) for die in moved)
        if not correcting:
            self._rolls += 1
        rerolled = tuple(k for k in range(len(settled)) if k not in kept)
        if correcting and previous is not None:
            kept, rerolled = previous.kept, previous.rerolled  # the same roll, set straight
        self.last = Roll(self._rolls, self._frame, settled, kept, rerolled,
                         tuple(check_faces([die.face for die in settled], self.guide)))
        return self.last

    def _settled(self) -> tuple[DieSighting, ...] | None:
        """The dice with their agreed faces, if all have lain still for ``steady`` frames, else None."""
        s = self.settings
        if len(self._recent) < s.steady or any(len(dice) != s.count for dice in self._recent):
            return None
        latest = self._recent[-1]
        tracks: list[list[DieSighting]] = [[die] for die in latest]
        for dice in list(self._recent)[-2::-1]:
            taken: set[int] = set()
            for track in tracks:
                here = track[-1]
                k = min(range(len(dice)), key=lambda i: _distance(dice[i], here))
                if k in taken or _distance(dice[k], here) > s.still:
                    return None
                taken.add(k)
                track.append(dice[k])
        return tuple(_agreed(track) for track in tracks)


def _agreed(track: list[DieSighting]) -> DieSighting:
    """One die over the steady frames: its face if most frames read it so and none read another."""
    reads = Counter(die.face for die in track if die.face is not None)
    latest = track[0]
    if len(reads) == 1:
        face, times = reads.most_common(1)[0]
        if 2 * times > len(track):
            confidence = max(die.confidence for die in track if die.face == face)
            return DieSighting(face, latest.center, confidence)
    return DieSighting(None, latest.center, min(die.confidence for die in track))


def _distance(a: DieSighting, b: DieSighting) -> float:
    return float(((a.center[0] - b.center[0]) ** 2 + (a.center[1] - b.center[1]) ** 2) ** 0.5)


def _close(die: DieSighting, old: DieSighting, near: float) -> bool:
    return _distance(die, old) <= near


def _unchanged(die: DieSighting, before: tuple[DieSighting, ...], near: float) -> bool:
    """Whether a die lies where a die of the last roll lay, showing the same face (or one not read now:
    a glint on a die read before is no change)."""
    return any(_close(die, old, near) and die.face in (old.face, None) for old in before)


class SettledDice:
    """The device loop's dice reader: ``settled(frame)`` reads the dice (with a calibration, only those in
    its ``tray`` zone) into a :class:`DiceTracker` and gives each die's face (None for a die not read
    surely) in the frame a new roll settles, else None.

    >>> settled = SettledDice(DiceSettings(steady=2), calibration=Calibration.default(2, size=(1280, 720)))
    >>> settled(np.full((720, 1280, 3), 90, np.uint8)) is None
    True
    """

    def __init__(self, settings: DiceSettings | None = None, guide: ScoreGuide | None = None,
                 calibration: Calibration | None = None) -> None:
        self.tracker = DiceTracker(settings, guide)
        self.calibration = calibration
        if calibration is not None and not any(zone.name == "tray" for zone in calibration.zones):
            raise ZoneError("the calibration has no 'tray' zone: the dice are read there")

    def __call__(self, frame: NDArray[np.uint8]) -> list[Card | None] | None:
        roll = self.tracker.update(self.read(frame))
        return None if roll is None else roll.faces

    def read(self, frame: NDArray[np.uint8]) -> DiceReading:
        """The dice in the frame: in the tray, with a calibration."""
        if self.calibration is None:
            return read_dice(frame, self.tracker.guide)
        table = self.calibration.for_frame(frame.shape[1], frame.shape[0])
        tray = next(zone for zone in table.zones if zone.name == "tray")
        return read_dice(frame, self.tracker.guide, within=table.to_image(tray.polygon))
