"""The demo's table as the camera sees it: card faces (and the Pinzique dice) drawn where a recording says.

A ``Stage`` holds what lies on the table: cards by code with their pose (centre in image pixels, turn in
radians, face up or down) in the order they were put down, so a later card lies over an earlier one, and
the dice in the tray. ``image()`` draws the frame: a felt table, the pack and a few chips in the free
corner, each card with rounded corners and a soft shadow, the dice rendered by ``device.demo.dice_drawing``.
Frames are drawn only when the table changed, and a card put on top is drawn onto the last frame, so a
recording costs little more to show than the card reader takes to read it.

Card faces come from one deck picture shipped with the recordings (``deck.png``: 13 ranks by 4 suits and
the back), drawn once from the training fonts of the card reader (``tools.demo.make``); everything else is
drawn here from numbers, so the same recording gives the same frames on every machine.

>>> stage = Stage(Deck.load(), seed=1)
>>> stage.put(Pose("TH", 640.0, 600.0, 0.1))
>>> stage.image().shape, [pose.code for pose in stage.cards()]
((720, 1280, 3), ['TH'])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import DECK, Card
from vision.zones import SEAT_DEPTH

SIZE = (1280, 720)
"""Frames are this many pixels (width, height): the camera's 720p."""
CARD_HEIGHT = 130.0
"""A card's height in the frame, pixels: a 89 mm card seen from about 70 cm."""
FACE = (125, 175)
"""The size (width, height) of each face in the deck picture."""
TRAY = (0, 0, round(SEAT_DEPTH * SIZE[0]), round(SEAT_DEPTH * SIZE[1]))
"""The dice tray's box in the frame (x0, y0, x1, y1): the ``tray`` zone of the default layouts
(``vision.zones.default_zones``), where the dice reader looks."""
BACK = "back"
"""The deck picture's key for the back of the cards."""
RECORDINGS = Path(__file__).with_name("recordings")


@dataclass(frozen=True, slots=True)
class Pose:
    """A card on the table: its code, its centre in image pixels, its turn (radians), face down or up."""

    code: str
    x: float
    y: float
    turn: float = 0.0
    down: bool = False

    def quad(self, height: float = CARD_HEIGHT) -> NDArray[Any]:
        """The card's corners in the image: top-left, top-right, bottom-right, bottom-left of its face.

        >>> Pose("AS", 100.0, 100.0).quad(height=70.0).round(1).tolist()
        [[75.0, 65.0], [125.0, 65.0], [125.0, 135.0], [75.0, 135.0]]
        """
        w, h = height * FACE[0] / FACE[1] / 2, height / 2
        c, s = math.cos(self.turn), math.sin(self.turn)
        corners = np.array([(-w, -h), (w, -h), (w, h), (-w, h)])
        out: NDArray[Any] = (corners @ np.array([[c, s], [-s, c]]) + (self.x, self.y)).astype(np.float32)
        return out


class Deck:
    """The faces of the 52 cards and the back, from the deck picture."""

    def __init__(self, faces: dict[str, NDArray[Any]]) -> None:
        self.faces = faces

    @staticmethod
    def load(path: Path = RECORDINGS / "deck.png") -> Deck:
        """The deck in the picture at ``path`` (rows spades, hearts, diamonds, clubs; columns ace to king,
        then the back)."""
        sheet = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if sheet is None or sheet.shape[:2] != (4 * FACE[1], 14 * FACE[0]):
            raise ValueError(f"the deck picture {path} is missing or not {14 * FACE[0]}x{4 * FACE[1]} pixels")
        w, h = FACE
        faces = {card.code: sheet[row * h:(row + 1) * h, col * w:(col + 1) * w]
                 for card in DECK for row, col in [_cell(card)]}
        faces[BACK] = sheet[:h, 13 * w:]
        return Deck(faces)

    def sheet(self) -> NDArray[Any]:
        """The deck picture."""
        w, h = FACE
        sheet = np.zeros((4 * h, 14 * w, 3), np.uint8)
        for card in DECK:
            row, col = _cell(card)
            sheet[row * h:(row + 1) * h, col * w:(col + 1) * w] = self.faces[card.code]
        sheet[:h, 13 * w:] = self.faces[BACK]
        return sheet


def _cell(card: Card) -> tuple[int, int]:
    return "SHDC".index(card.suit.value), card.rank - 1


@cache
def _rounded() -> NDArray[Any]:
    """A card's shape on its face: 1 inside, 0 outside the rounded corners."""
    w, h = FACE
    r = 7
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 1, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 1, -1)
    for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (x, y), r, (1,), -1)
    return mask.astype(np.float32)


def draw_card(canvas: NDArray[Any], face: NDArray[Any], quad: NDArray[Any]) -> None:
    """Draw ``face`` onto ``canvas`` (in place) at ``quad``, with its shadow on what lies beneath."""
    w, h = FACE
    height, width = canvas.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 6, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 8, (width, height))
    if x1 <= x0 or y1 <= y0:
        return
    source = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    m = cv2.getPerspectiveTransform(source, quad - np.array([x0, y0], np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    colour = cv2.warpPerspective(face, m, size, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpPerspective(_rounded(), m, size, flags=cv2.INTER_LINEAR)[..., None]
    shadow = cv2.GaussianBlur(np.roll(alpha, (3, 3), (0, 1)), (0, 0), 2.5)[..., None]
    roi = canvas[y0:y1, x0:x1].astype(np.float32) * (1 - 0.4 * shadow)
    canvas[y0:y1, x0:x1] = (roi * (1 - alpha) + colour * alpha).astype(np.uint8)


def felt(seed: int, size: tuple[int, int] = SIZE) -> NDArray[Any]:
    """The empty table: green felt with its weave and a little uneven light, the pack and a few chips in
    the bottom-left corner (a free corner in every layout)."""
    width, height = size
    rng = np.random.default_rng(seed)
    weave = cv2.resize(rng.standard_normal((height // 2, width // 2)).astype(np.float32), (width, height))
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 1.05 - 0.18 * (((xx - width * 0.55) / width) ** 2 + ((yy - height * 0.45) / height) ** 2)
    base = np.array([48, 112, 36], np.float32)
    table: NDArray[Any] = np.clip(base * (light * (1 + 0.05 * weave))[..., None], 0, 255).astype(np.uint8)
    for k, (x, y, colour) in enumerate([(250, 640, (30, 30, 170)), (205, 670, (20, 20, 20)),
                                        (290, 672, (150, 60, 20))]):
        cv2.circle(table, (x, y), 19, colour, -1, cv2.LINE_AA)
        for spoke in range(6):
            angle = spoke * 60 + 15 * k
            cv2.ellipse(table, (x, y), (19, 19), angle, -8, 8, (235, 235, 235), 5)
        cv2.circle(table, (x, y), 11, (225, 225, 225), 1, cv2.LINE_AA)
    out: NDArray[Any] = table
    return out


def camera(image: NDArray[Any], rng: np.random.Generator, noise: float = 3.0) -> NDArray[Any]:
    """A drawn frame as a camera gives it: with fresh noise of standard deviation ``noise`` levels in every
    channel.

    >>> frame = camera(np.full((40, 40, 3), 128, np.uint8), np.random.default_rng(0))
    >>> frame.dtype.name, 2.5 < float(frame.std()) < 3.5
    ('uint8', True)
    """
    out: NDArray[Any] = np.clip(image + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)
    return out


class Stage:
    """What lies on the table now, and the frame that shows it."""

    def __init__(self, deck: Deck, seed: int, size: tuple[int, int] = SIZE) -> None:
        self.deck, self.size = deck, size
        self.table = felt(seed, size)
        pack = Pose(BACK, 95.0, 630.0, 1.45)
        draw_card(self.table, deck.faces[BACK], pack.quad())
        self._cards: dict[str, Pose] = {}
        self._dice: NDArray[Any] | None = None
        self._dice_at: tuple[int, int] = (0, 0)
        self._frame: NDArray[Any] | None = None
        self._drawn = 0  # how many of the cards (in order) the frame shows

    def cards(self) -> list[Pose]:
        """The cards on the table, bottom to top."""
        return list(self._cards.values())

    def put(self, pose: Pose) -> None:
        """Put a card down on top; a card already on the table is moved where it lies in the pile (a
        card straightened stays under the cards over it)."""
        if pose.code in self._cards:
            self._frame = None
        self._cards[pose.code] = pose

    def take(self, *codes: str) -> None:
        """Pick cards up; every card with none named."""
        for code in codes or list(self._cards):
            if self._cards.pop(code, None) is not None:
                self._frame = None

    def show_dice(self, image: NDArray[Any] | None, at: tuple[int, int] = (0, 0)) -> None:
        """The dice tray's picture (its top-left corner ``at``), or None to show the table there."""
        self._dice, self._dice_at, self._frame = image, at, None

    def image(self) -> NDArray[Any]:
        """The frame: redrawn from the empty table when something was taken, else only new cards drawn."""
        if self._frame is None:
            self._frame, self._drawn = self.table.copy(), 0
            if self._dice is not None:
                x, y = self._dice_at
                h, w = self._dice.shape[:2]
                self._frame[y:y + h, x:x + w] = self._dice
        cards = self.cards()
        for pose in cards[self._drawn:]:
            draw_card(self._frame, self.deck.faces[BACK if pose.down else pose.code], pose.quad())
        self._drawn = len(cards)
        return self._frame

    def lying(self) -> Sequence[Pose]:
        """The face-up cards, bottom to top."""
        return [pose for pose in self._cards.values() if not pose.down]

    @property
    def dice_shown(self) -> bool:
        """Whether the dice tray shows dice."""
        return self._dice is not None


DiePose = Sequence[Any]
"""A die as a recording keeps it: number, top face, the four side faces, x and y (mm from the tray's
middle), yaw, tilt, tilt axis (radians), and its motion while the frame was taken (mm, when rolling)."""


class Tray:
    """The Pinzique dice tray in the table's top-left corner, seen straight from above; the dice are drawn
    by ``device.demo.dice_drawing`` (imported only for Pinzique)."""

    MM = 2.8
    """Pixels per millimetre on the tray: a 16 mm die is 45 pixels across."""
    HEIGHT = 700.0
    """The camera's height over the table, mm."""

    def __init__(self, stage: Stage) -> None:
        from device.demo import dice_drawing
        from scoring.pinzique_roll import default_guide

        self.render = dice_drawing
        x0, y0, x1, y1 = TRAY
        floor = stage.table[y0:y1, x0:x1].copy()
        floor[:] = (floor.astype(np.float32) * (0.55, 0.5, 0.75)).astype(np.uint8)  # darker felt, reddish
        cv2.rectangle(floor, (2, 2), (x1 - x0 - 3, y1 - y0 - 3), (40, 60, 95), 5)
        width, height = x1 - x0, y1 - y0
        down = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, -1]])
        camera = dice_drawing.Pinhole(self.MM * self.HEIGHT, self.HEIGHT, down, (width / 2, height / 2), (0.0, 0.0))
        light = np.array([0.3, -0.4, 1.0])
        self.tray = dice_drawing.Tray(camera, floor, (26.0, 26.0, width - 26.0, height - 26.0),
                                     light / np.linalg.norm(light), (232, 240, 245), default_guide())

    def poses(self, roll: Sequence[DiePose]) -> list[Any]:
        """The dice of a recording as ``device.demo.dice_drawing`` poses."""
        return [self.render.DiePose(int(n), Card.parse(face), tuple(Card.parse(side) for side in sides),
                                    x, y, yaw, tilt, axis, (mx, my))
                for n, face, sides, x, y, yaw, tilt, axis, mx, my in roll]

    def image(self, roll: Sequence[DiePose], seed: tuple[int, int]) -> tuple[NDArray[Any], tuple[int, int]]:
        """The tray's picture with the dice of ``roll`` (the same for the same ``seed``), and where it goes."""
        frame = self.render.render(np.random.default_rng(seed), self.tray, self.poses(roll), glare=0.2)
        return frame, TRAY[:2]
