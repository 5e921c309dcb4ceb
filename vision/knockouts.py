"""Ranks knocked out of a big suit shape, redrawn as ordinary indices for the reader.

Some modern decks print no index in ink on paper: the rank is left light inside a solid suit shape, one big in
the card's middle and a tab in each corner (``aisleriot-minimum`` among the held-out designs). Such a shape is
ink far larger than a glyph, with light holes of a rank's size in its middle. ``sheet`` redraws each one as the
reader knows an index (the holes as ink of the shape's colour, the shape itself shrunk to a suit pip below
them), upright along each of the shape's mirror axes both ways up, all side by side on one image that the reader
reads in one pass.

>>> import numpy as np
>>> len(sheet(corners.Planes(np.full((120, 160, 3), 200, np.uint8))).found)
0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import corners

TILE, RANK, RANK_AT = 200, 28.0, (88, 76)
"""Each redrawn index's square on the sheet, its rank's size there and where the rank's middle lies in it: so placed
that the reader's view of a corner's surroundings (``patches.CONTEXT_SPAN``) holds that square alone."""
SUIT = 0.75
"""The redrawn suit's size, over the rank's; it lies ``corners.BESIDE_SCALE`` ranks below the rank."""
MIRROR = 0.02
"""The axes a suit shape may stand upright along: those about which the share of it that does not match its mirror
image is at most this much more than about its best (a heart, a spade or a club has one such axis)."""
AXIS_STEP = 5
"""The mirror axes tried are this many degrees apart."""
INK = 0.6
"""A shape's ink is darker than this share of the brightest paper within a few shapes' reach."""
SHAPE = (45, 0.4)
"""A shape measures at least this many pixels, and at most this share of the frame's shorter side."""
RING = 0.5
"""Most of a band around a shape, ``RING`` / 3 of its size wide, is card paper (``corners.ring_share``): a card's
middle suit lies on the card with a margin; a table's grain has no paper around it."""
SOLID = (0.35, 0.6)
"""A shape (its holes filled) covers at least the first share of its box, and its box's shorter side is at least the
second share of its longer: a suit is solid and about as wide as it is tall, a frame or a streak of grain is not."""
HOLES = (0.02, 0.4)
"""The holes take this share of the shape (its holes filled)."""
RANK_SHARE = (0.2, 0.65)
"""The holes' extent over the shape's."""
STROKES = 0.7
"""The holes cover at most this share of their own box: a rank's strokes, not a bold letter's counter (an O's)."""
CENTRED = 0.25
"""The holes' middle lies within this share of the shape's size from the shape's centre of mass."""


@dataclass(frozen=True, slots=True)
class Shape:
    """A suit shape with a rank knocked out of it: its mask with the holes filled (``fill``) and the holes alone
    (``holes``, the rank), in its box at ``origin`` (x, y) in the frame; the rank's ``middle`` in the box and its
    ``extent`` (its box's longer side); the ink's colour (BGR) and the shape's ``size`` (its box's longer side)."""

    origin: NDArray[Any]
    fill: NDArray[Any]
    holes: NDArray[Any]
    middle: NDArray[Any]
    extent: float
    ink: NDArray[Any]
    size: float


@dataclass(frozen=True, slots=True)
class Sheet:
    """Knocked-out ranks redrawn as indices on one ``image`` (BGR): ``found`` the candidates there, each shape's in
    a row, two turns of it a mirror axis; ``frame`` the same as they lie in the frame (rank middle, "down", and the scale
    they would have with their suit below the rank); ``shape`` the size in frame pixels of the shape each was cut
    from, and ``which`` shape of the frame's it is."""

    image: NDArray[Any]
    found: corners.Candidates
    frame: corners.Candidates
    shape: NDArray[Any]
    which: NDArray[Any]

    def at(self, point: NDArray[Any]) -> int:
        """The index of the candidate whose square on the sheet holds ``point`` (x, y)."""
        columns: int = self.image.shape[1] // TILE
        return int(point[1]) // TILE * columns + int(point[0]) // TILE


def sheet(planes: corners.Planes) -> Sheet:
    """The knocked-out ranks of a frame's ``planes`` (``shapes``), each redrawn (``redrawn``) at the turns of its mirror
    axes (``upright_turns``): which of them is upright, the reader says."""
    found = [(k, shape, angle) for k, shape in enumerate(shapes(planes)) for angle in upright_turns(shape)]
    n = len(found)
    columns = max(1, min(n, 12))
    image = np.full((-(-n // columns) * TILE, columns * TILE, 3), 242, np.uint8)
    for i, (_, shape, angle) in enumerate(found):
        y, x = i // columns * TILE, i % columns * TILE
        image[y:y + TILE, x:x + TILE] = redrawn(shape, angle)
    at = np.array([(i % columns * TILE + RANK_AT[0], i // columns * TILE + RANK_AT[1]) for i in range(n)], np.float32)
    upright = corners.Candidates(at.reshape(-1, 2), np.tile(np.array([[0, 1]], np.float32), (n, 1)),
                                 np.full(n, corners.BESIDE_SCALE * RANK, np.float32), np.zeros((n, 2), np.float32))
    rank = np.array([shape.origin + shape.middle for _, shape, _ in found], np.float32).reshape(-1, 2)
    down = np.array([(-math.sin(angle), math.cos(angle)) for _, _, angle in found], np.float32).reshape(-1, 2)
    scale = np.array([corners.BESIDE_SCALE * shape.extent for _, shape, _ in found], np.float32)
    frame = corners.Candidates(rank, down, scale, np.zeros((n, 2), np.float32))
    blurred = cv2.GaussianBlur(image, (0, 0), 0.6) if n else image  # anti-aliased as a camera's image is
    return Sheet(blurred, upright, frame, np.array([shape.size for _, shape, _ in found], np.float32),
                 np.array([k for k, _, _ in found], np.intp))


def upright_turns(shape: Shape) -> list[float]:
    """The turns (radians) at which ``shape`` may stand upright, both ways up: its mirror axes, those about which it
    is the more nearly its own mirror image than about the axes beside them and at most ``MIRROR`` less so than about
    its best, tried ``AXIS_STEP`` degrees apart. A heart, a spade or a club has one; a diamond two, or four where it
    is near square.

    >>> frame = np.full((400, 400, 3), 235, np.uint8)
    >>> _ = cv2.fillPoly(frame, [np.array([[100, 20], [150, 170], [50, 170]])], (40, 40, 40))  # upright, point up
    >>> for box in ((88, 100, 112, 106), (104, 100, 110, 135)):  # a light 7
    ...     _ = cv2.rectangle(frame, box[:2], box[2:], (235, 235, 235), -1)
    >>> sorted(round(math.degrees(a)) % 360 for a in upright_turns(shapes(corners.Planes(frame))[0]))
    [0, 180]
    """
    axes = np.radians(np.arange(0, 180, AXIS_STEP))
    unlike = np.array([_mirror_miss(shape.fill, a) for a in axes])
    least = (unlike <= np.roll(unlike, 1)) & (unlike <= np.roll(unlike, -1)) & (unlike <= unlike.min() + MIRROR)
    return [float(a) + half for a in axes[least] for half in (0.0, math.pi)]


def _mirror_miss(fill: NDArray[Any], turn: float) -> float:
    """The share of a shape's mask (``fill``) that its mirror image about the axis at ``turn`` (radians from upright,
    counter-clockwise on screen) does not cover."""
    side = 48
    h, w = fill.shape
    big = max(h, w)
    square = np.pad(fill.astype(np.float32), (((big - h) // 2, big - h - (big - h) // 2),
                                              ((big - w) // 2, big - w - (big - w) // 2)))
    small = cv2.resize(square, (side, side), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(small > 0.5)
    centre = (float(xs.mean()), float(ys.mean())) if len(xs) else (side / 2, side / 2)
    turned = cv2.warpAffine(small, cv2.getRotationMatrix2D(centre, math.degrees(turn), 1.0), (side, side))
    shift = np.array([[1, 0, side / 2 - centre[0]], [0, 1, 0]], np.float32)
    turned = cv2.warpAffine(turned, shift, (side, side))  # its axis down the middle column
    total = float(turned.sum())
    return float(np.abs(turned - turned[:, ::-1]).sum()) / (2 * total) if total else 1.0


def shapes(planes: corners.Planes) -> list[Shape]:
    """The solid shapes of ink in a frame's ``planes`` with light holes of a rank's size in their middle.

    >>> frame = np.full((300, 300, 3), 235, np.uint8)
    >>> _ = cv2.circle(frame, (100, 100), 50, (40, 40, 40), -1)
    >>> for box in ((85, 80, 115, 88), (105, 80, 113, 120)):  # a light 7 in the middle
    ...     _ = cv2.rectangle(frame, box[:2], box[2:], (235, 235, 235), -1)
    >>> [(s.size, s.extent) for s in shapes(corners.Planes(frame))]
    [(101.0, 41.0)]
    """
    lo = planes.lo
    h, w = lo.shape
    small = cv2.resize(lo, None, fx=1 / 8, fy=1 / 8, interpolation=cv2.INTER_AREA)
    near = cv2.dilate(small, np.ones((15, 15), np.uint8))  # the brightest paper within a few shapes' reach
    parts = _solid_parts(lo, near)
    if not parts:
        return []
    ink = _ink(lo, near)
    paper_sums = planes.paper_sums
    found: dict[tuple[int, int, int, int], Shape] = {}
    for x0, y0, x1, y1 in parts:
        contours, hierarchy = cv2.findContours(ink[y0:y1, x0:x1], cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        for contour, (_, _, child, parent) in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=True):
            if parent != -1 or child == -1:  # an outer edge with holes in it
                continue
            x, y, bw, bh = cv2.boundingRect(contour)
            if (x == 0 < x0) or (y == 0 < y0) or (x + bw == x1 - x0 and x1 < w) or (y + bh == y1 - y0 and y1 < h):
                continue  # cut by the part's box: some other ink, whole in another part or none
            x, y, size = x + x0, y + y0, max(bw, bh)
            if (x, y, bw, bh) in found or not SHAPE[0] <= size <= SHAPE[1] * min(h, w) or min(bw, bh) < SOLID[1] * size:
                continue
            box = np.array([[x], [y], [bw], [bh], [size * RING]], np.float32)
            if corners.ring_share(paper_sums, *box)[0] < corners.PAPER_SHARE:  # on a card, not in a table's grain
                continue
            fill = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(fill, [contour - np.array([x - x0, y - y0])], -1, (1,), -1)
            shape = _knocked_out(fill, fill & (1 - ink[y:y + bh, x:x + bw]), planes, x, y)
            if shape is not None:
                found[x, y, bw, bh] = shape
    return list(found.values())


def _ink(lo: NDArray[Any], near: NDArray[Any]) -> NDArray[Any]:
    """Where the darkest channel ``lo`` is darker than ``INK`` of the brightest paper nearby (``near``, a smaller copy
    of that brightness): 1, else 0, at the size of ``lo``."""
    h, w = lo.shape
    paper = cv2.resize(near, (w, h), interpolation=cv2.INTER_LINEAR)
    out: NDArray[Any] = cv2.bitwise_and(cv2.compare(lo, cv2.convertScaleAbs(paper, alpha=INK), cv2.CMP_LT), 1)  # type: ignore[call-overload]  # OpenCV's stubs take no number for src2
    return out


def _solid_parts(lo: NDArray[Any], near: NDArray[Any]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) around the parts of a frame's ink (``_ink`` of its darkest channel ``lo``) solid enough
    to hold a suit shape: ink a sixth of the smallest shape's size thick (``SHAPE``), found at a quarter of the size,
    with a margin of half their size. The finer work is done inside them alone: a page of print or a table's grain
    has no such part, and costs a quarter-size pass."""
    h, w = lo.shape
    quarter = _ink(cv2.resize(lo, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA), near)
    thick = max(1, SHAPE[0] // 24)
    core = cv2.erode(quarter, np.ones((2 * thick + 1, 2 * thick + 1), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    boxes = []
    for x, y, bw, bh, _ in stats[1:count].tolist():
        if 4 * max(bw, bh) < SHAPE[0] / 2:  # the core of a pip, a letter or a stripe
            continue
        margin = 4 * (thick + 2 + max(bw, bh) // 2)  # full pixels: the core is the shape thinned, and more of it is thin
        boxes.append((max(0, 4 * x - margin), max(0, 4 * y - margin), min(w, 4 * (x + bw) + margin),
                      min(h, 4 * (y + bh) + margin)))
    return boxes


def _knocked_out(fill: NDArray[Any], holes: NDArray[Any], planes: corners.Planes, x: int, y: int) -> Shape | None:
    """The ``Shape`` whose mask (holes filled) is ``fill`` and whose holes are ``holes``, in its box at (``x``, ``y``)
    of the frame's ``planes``, where the holes are a rank's: their share, extent, strokes and place (``HOLES``,
    ``RANK_SHARE``, ``STROKES``, ``CENTRED``); None where they are not."""
    bh, bw = fill.shape
    size = max(bw, bh)
    filled, knocked = int(fill.sum()), int(holes.sum())
    if filled < SOLID[0] * bw * bh or not HOLES[0] * filled < knocked < HOLES[1] * filled:
        return None
    ys, xs = np.nonzero(holes)
    extent = int(max(xs.max() - xs.min(), ys.max() - ys.min())) + 1
    if knocked > STROKES * (xs.max() - xs.min() + 1) * (ys.max() - ys.min() + 1):
        return None
    middle = np.array([(xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2], np.float32)
    mass = np.array(np.nonzero(fill)[::-1], np.float32).mean(axis=1)
    if not RANK_SHARE[0] * size < extent < RANK_SHARE[1] * size or np.hypot(*(middle - mass)) > CENTRED * size:
        return None
    solid = (fill > 0) & (holes == 0)
    grey, red = (float(p[y:y + bh, x:x + bw][solid].mean()) for p in (planes.lo, planes.red))
    colour = np.array([grey, grey, min(255.0, grey + red)], np.float32)
    return Shape(np.array([x, y], np.float32), fill, holes, middle, float(extent), colour, float(size))


def redrawn(shape: Shape, angle: float) -> NDArray[Any]:
    """A ``TILE``-pixel square with ``shape``'s rank turned by ``angle`` (radians, counter-clockwise on screen) drawn in
    its ink at ``RANK`` pixels, and the whole shape shrunk to a suit ``SUIT`` of that below it.

    >>> frame = np.full((300, 300, 3), 235, np.uint8)
    >>> _ = cv2.circle(frame, (100, 100), 50, (40, 40, 40), -1)
    >>> for box in ((85, 80, 115, 88), (105, 80, 113, 120)):
    ...     _ = cv2.rectangle(frame, box[:2], box[2:], (235, 235, 235), -1)
    >>> tile = redrawn(shapes(corners.Planes(frame))[0], 0.0)
    >>> tile.shape, int(tile[RANK_AT[1], RANK_AT[0] + 8, 0]), int(tile[4, 4, 0])  # ink on the 7's stroke, paper around
    ((200, 200, 3), 40, 242)
    """
    scale = RANK / shape.extent
    turn = np.asarray(cv2.getRotationMatrix2D((float(shape.middle[0]), float(shape.middle[1])), math.degrees(angle),
                                              scale), np.float64)
    turn[:, 2] += (RANK_AT[0] - shape.middle[0], RANK_AT[1] - shape.middle[1])
    alpha = cv2.warpAffine(shape.holes.astype(np.float32), turn, (TILE, TILE))
    wide = turn.copy()
    wide[:, 2] += TILE  # the whole shape, turned alike, on a square three tiles wide
    suit = cv2.warpAffine(shape.fill.astype(np.float32), wide, (3 * TILE, 3 * TILE))
    ys, xs = np.nonzero(suit > 0.5)
    if len(xs):
        suit = suit[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        f = SUIT * RANK / max(suit.shape)
        suit = cv2.resize(suit, (max(1, round(suit.shape[1] * f)), max(1, round(suit.shape[0] * f))),
                          interpolation=cv2.INTER_AREA)
        sh, sw = suit.shape
        top, left = round(RANK_AT[1] + corners.BESIDE_SCALE * RANK - sh / 2), round(RANK_AT[0] - sw / 2)
        alpha[top:top + sh, left:left + sw] = np.maximum(alpha[top:top + sh, left:left + sw], suit)
    paper = np.float32(242)
    out: NDArray[Any] = (paper + (shape.ink[None, None] - paper) * np.clip(alpha, 0, 1)[..., None]).round().astype(np.uint8)
    return out
