"""Read the eight Pinzique dice in a camera frame: ``read_dice(frame) -> DiceReading``.

The dice wear the stickers of ``vision.dice_faces``. Each top face is found and read in three steps:

1. the sticker's white window: a bright region, enclosed by the dark suit-coloured frame, whose outline is
   a quadrilateral of a die's size (dice that touch stay apart: each window has its own frame). Windows
   are looked for at a few brightness scales (``BRIGHT``), the later ones only where nothing was read, so
   that a glint or a shadow's edge across a sticker does not hide it;
2. the window's four corners, refined by fitting a line to each side, fix the sticker's perspective; the
   whole sticker is sampled as an upright ``PATCH`` x ``PATCH`` colour patch in each of its four turns,
   white-balanced on its own paper;
3. the patches are compared with templates drawn by ``vision.dice_faces``, the very drawing that is
   printed: the way up is the turn where a whole sticker correlates best; the rank is the glyph that
   correlates best, when a linear discriminant fitted on the design's renders agrees surely; the suit is
   the ink's hue. Unless all three are sure, the die is reported unknown, never guessed. A window that
   correlates poorly with any sticker, or is seen so slanted that it must be on a die's side, is not a
   top face at all; of two windows found on one die, the better is kept.

A die still rolling is blurred past reading. A cocked die (one edge on the floor, the other wedged
against a die or the tray's wall) is reported unknown, so the roll is not scored until it is set flat or
re-rolled (``cocked``): when its top face is seen foreshortened against the frame's other top faces (a
camera over the tray sees every flat top face alike), or else when a small network (``judge``, trained on
renders by ``tools.dice.train``) takes it for cocked from the colour around its top face: the die's
sides and shadow, which show where a flat die's do not. One tilted so far that its top is seen edge-on
is dropped. The reading is checked against the score guide's
dice: more dice than the game has, a face that is on no die, or faces no assignment of dice could show
are problems, listed in the reading, and such a reading must not be scored.

>>> reading = read_dice(np.full((720, 1280, 3), 90, np.uint8))
>>> reading.dice, reading.problems
((), ())
>>> read_dice("tray.png")
Traceback (most recent call last):
...
TypeError: a frame is a numpy array (BGR image), not str
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card, Suit
from scoring.pinzique_guide import PINOCHLE_RANKS, ScoreGuide
from scoring.pinzique_roll import FACE_NUMBER, FACES, default_guide, unmatched_problem
from vision.corners import channels
from vision.dice_faces import WINDOW, face_image
from vision.glyphs import onnx_net
from vision.observations import DieSighting

PATCH = 24
"""Stickers are compared as upright patches this many pixels across."""
MIN_WINDOW, MAX_WINDOW = 9, 90
"""A window's longer side in pixels: a die from about 14 to 140 pixels across."""
BRIGHT = ((9, 0.6), (9, 0.7), (5, 0.6), (5, 0.5))
"""Where a window is looked for, in turn: among pixels brighter than a share of the brightest within a
square of a size around them. The first finds most; the next find windows where a glint or the edge of
a shadow falls on the sticker."""
PAPER = 32
"""A pixel with nothing brighter than this (its darkest channel, 0-255) in the square around it is not on
a sticker's paper. Dark felt, whose sensor noise riddles a mask with thousands of specks (each one a
contour to trace, 8 ms a mask), is left out as a whole. On renders not used by the benchmark (seeds
900000-900149, 4,640 top faces read) the darkest paper of a window read had 48 (its frame's brightest
had 173)."""
FILLED = 0.5
"""A window's paper covers at least this share of its outline (the glyph takes the rest)."""
DIE_SCORE = 0.72
"""A window whose sticker's ink correlates less than this with a whole sticker of any rank (frame, band
and glyph) is not a die's sticker."""
TURN_MARGIN = 0.1
"""The sticker's way up is sure when a whole sticker correlates this much better that way up than any
other."""
RANK_SCORE, RANK_SURE = 0.7, 0.995
"""A rank is read when its glyph correlates best, at least RANK_SCORE, and the discriminant gives it a
probability of at least RANK_SURE."""
GREY, COLOURED = 0.08, 0.16
"""Ink whose hue (see ``_hue``) is under GREY long is black (spades); over COLOURED, it is red, blue or
green, by its direction; in between it is unsure."""
HUE_COSINE, HUE_OTHER = 0.9, 0.6
"""A coloured suit is read when the ink's hue points within HUE_COSINE (cosine) of the suit's and no
closer than HUE_OTHER to any other's."""
EDGE_ON = 0.8
"""A sticker foreshortened to less than this (shortest over longest side) is on a die's side, not its
top: a camera over the tray, seeing 35 degrees off its axis at most, sees no flat die's top that slanted
(0.82), while a side face, or one a cocked die turns up, slants more."""
COCKED = 0.87
"""A top face foreshortened to less than this (shortest over longest side, against the frame's other top
faces) is on a cocked die: it is reported unknown, so the roll is not scored until the die is set flat
or re-rolled. Measured on renders not used by the benchmark (seeds 700000-700299, 1,650 flat and 670
cocked top faces): flat top faces, slightly tilted ones included, stay at 0.879 and above; 0.87 tells
16 % of the cocked dice (0.85: 9 %), those cocked steeply away from the camera or sideways."""
CROP, CROP_SPAN = 56, 2.6
"""The cocked-die judge (``judge``) sees a CROP x CROP colour patch around a top face, CROP_SPAN
stickers' sides across (about two dice), turned so that the way out from the middle of the frame is up."""
JUDGED_COCKED = 3.0
"""A top face the judge scores above this (log odds) is on a cocked die. Picked on 1,500 tuning trays
(``tools.dice.train``, seeds 208000 on; 7,079 flat and 4,354 cocked dice read as a face): 2 flat dice
score above it (the next highest 2.5) and 99.1 % of the cocked ones (2.75: 2 flat, 99.2 %; 2.25: 5 flat).
On 1,500 check trays (400000 on): 1 of 7,098 flat dice above it, 34 of 4,356 cocked ones not (14 of the
266 leaning 18-19 degrees, the least a die cocks)."""
DOUBT = 8.0
"""The judge looks again (at the mirror image) at a die it scores within this of JUDGED_COCKED. On the
check trays every decision came out as when it looks twice at every die; 6.5 % of the dice were within."""
MODEL = Path(__file__).with_name("models") / "cocked_judge.onnx"
SIZE_SPREAD = 0.25
"""With three or more dice read, a sticker more than this share smaller or larger than their median is
not a die's top face (a glint, a bit of a side face)."""
MAX_SIDE = 1280
"""Larger frames are scaled down to this long side first."""


@dataclass(frozen=True, slots=True)
class DiceReading:
    """The dice seen in one frame, and what is wrong with them as a roll (nothing, when ``problems`` is
    empty)."""

    dice: tuple[DieSighting, ...]
    problems: tuple[str, ...]

    @property
    def faces(self) -> list[Card]:
        """The faces read (unknown dice left out)."""
        return [die.face for die in self.dice if die.face is not None]

    def as_json(self) -> dict[str, Any]:
        """The dice as ``tablescore recognize`` lists them, with the problems."""
        return {"dice": [die.as_json() for die in self.dice], "problems": list(self.problems)}


def read_dice(frame: NDArray[Any], guide: ScoreGuide | None = None, within: NDArray[Any] | None = None) -> DiceReading:
    """Every die's top face in a BGR frame, read or unknown, checked against the guide's dice; with
    ``within`` (a polygon, image pixels), only the dice whose centre lies inside it (the dice tray).

    >>> tray = np.array([(0, 0), (100, 0), (100, 100), (0, 100)], np.float32)
    >>> read_dice(np.full((720, 1280, 3), 90, np.uint8), within=tray).dice
    ()
    """
    image = _as_bgr(frame)
    shrink = min(1.0, MAX_SIDE / max(image.shape[:2]))
    left = top = 0
    if within is not None:  # its bounding box, and a die's width around it for dice on its edge
        x0, y0 = np.maximum(np.floor(within.min(axis=0)) - MAX_WINDOW / shrink, 0).astype(int)
        x1, y1 = np.ceil(within.max(axis=0) + MAX_WINDOW / shrink).astype(int)
        image, left, top = image[y0:y1, x0:x1], x0, y0
    if min(image.shape[:2]) * shrink < 2 * MIN_WINDOW:
        return DiceReading((), ())
    if shrink < 1.0:
        image = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    stickers = top_faces(image)
    height, width = frame.shape[:2]
    middle = ((width / 2 - left) * shrink, (height / 2 - top) * shrink)  # in the image searched
    dice = [DieSighting(None if tilted else seen.face, (left + seen.centre[0] / shrink, top + seen.centre[1] / shrink),
                        0.0 if tilted else seen.confidence)
            for seen, tilted in zip(stickers, cocked(image, stickers, middle), strict=True)]
    if within is not None:
        outline = within.astype(np.float32).reshape(-1, 1, 2)
        dice = [die for die in dice if cv2.pointPolygonTest(outline, die.center, False) >= 0]
    dice.sort(key=lambda die: (die.center[1], die.center[0]))
    return DiceReading(tuple(dice), tuple(check_faces([die.face for die in dice], guide or default_guide())))


def top_faces(image: NDArray[Any]) -> list[Sticker]:
    """The dice's top faces in a BGR image, read (one a die)."""
    return _apart([seen for seen in read_stickers(image) if seen.is_die])


def _apart(stickers: list[Sticker]) -> list[Sticker]:
    """One sticker a die: where two are found on one die (a white hole inside a glyph can pass for a
    small window), the one laid out most like a sticker is kept; and only stickers of the dice's size."""
    kept: list[Sticker] = []
    for seen in sorted(stickers, key=lambda s: -s.layout):
        if all(np.hypot(seen.centre[0] - k.centre[0], seen.centre[1] - k.centre[1]) > 0.6 * max(k.side, seen.side)
               for k in kept):
            kept.append(seen)
    read = [seen.side for seen in kept if seen.face is not None]
    if len(read) >= 3:  # the dice on a tray are all about one size: smaller or larger windows are not dice
        typical = float(np.median(read))
        kept = [seen for seen in kept if abs(seen.side / typical - 1) <= SIZE_SPREAD]
    return kept


def cocked(image: NDArray[Any], stickers: Sequence[Sticker], middle: tuple[float, float]) -> list[bool]:
    """Which of the top faces found in an image are on cocked dice: those seen foreshortened against the
    others (``foreshortened``), and, of the rest read as a face, those the judge takes for cocked
    (``judge``; ``middle`` is the point of the image under the camera)."""
    tilted = foreshortened(stickers)
    asked = [k for k, seen in enumerate(stickers) if seen.face is not None and not tilted[k]]
    if asked:
        odds = judge(die_patches(image, [stickers[k] for k in asked], middle))
        for k, value in zip(asked, odds, strict=True):
            tilted[k] = bool(value > JUDGED_COCKED)
    return tilted


def foreshortened(stickers: Sequence[Sticker]) -> list[bool]:
    """Which of a frame's top faces are seen foreshortened (see ``COCKED``) against the others: the
    median shape of all of them (a camera over the tray sees a flat top face square), or a square when
    there are fewer than three."""
    shapes = [_unit(seen.jacobian @ seen.jacobian.T) for seen in stickers]
    usual = np.median(shapes, axis=0) if len(shapes) >= 3 else np.eye(2)
    values, vectors = np.linalg.eigh(usual)
    undo = vectors @ np.diag(np.maximum(values, 1e-6) ** -0.5) @ vectors.T
    return [flatness(undo @ shape @ undo) < COCKED for shape in shapes]


def die_patches(image: NDArray[Any], stickers: Sequence[Sticker], middle: tuple[float, float]) -> NDArray[Any]:
    """What the judge sees of each sticker's die, (n, 5, CROP, CROP) float32: the colour around its top
    face (BGR over the sticker paper's) in a square CROP_SPAN sticker sides across, centred on the
    sticker and turned by a quarter turn of the sticker's own axes so that ``middle`` lies below it;
    then the way from ``middle`` to the sticker in the square's axes, over half the image's long side,
    as two constant planes (a flat die's sides show on the side away from the camera, more so further
    out)."""
    out = np.empty((len(stickers), 5, CROP, CROP), np.float32)
    if not stickers:
        return out
    reach = max(image.shape[:2]) / 2
    frames = np.empty((len(stickers), 3, 2), np.float32)  # the square's x and y axes, and its centre
    for k, seen in enumerate(stickers):
        outward = np.subtract(seen.centre, middle)
        a, b = seen.jacobian[:, 0] / max(float(np.linalg.norm(seen.jacobian[:, 0])), 1e-6)
        across = max(((a, b), (-b, a), (-a, -b), (b, -a)), key=lambda u: u[1] * outward[0] - u[0] * outward[1])
        axes = np.array([across, (-across[1], across[0])])  # rows: the square's x and y (down) in the image
        frames[k] = (*(CROP_SPAN * seen.side * axes), seen.centre)
        out[k, 3:] = (axes @ outward / reach)[:, None, None]
    maps = _FINE @ frames  # (n, (2 CROP)², 2) image points, sampled at twice the size, then reduced by area
    sampled = cv2.remap(image, maps.reshape(-1, 2 * CROP, 2), None, cv2.INTER_LINEAR,  # type: ignore[call-overload]
                        borderMode=cv2.BORDER_REPLICATE)
    patches = cv2.resize(sampled, (CROP, len(stickers) * CROP), interpolation=cv2.INTER_AREA)
    patches = patches.reshape(len(stickers), CROP, CROP, 3).astype(np.float32)
    inner = patches[:, CROP // 2 - 4:CROP // 2 + 4, CROP // 2 - 4:CROP // 2 + 4].reshape(len(stickers), -1, 3)
    paper = np.partition(inner, 57, axis=1)[:, 57]  # the brightest eighth of the sticker's middle
    out[:, :3] = (patches / np.maximum(paper, 8)[:, None, None, :]).transpose(0, 3, 1, 2)
    return out


_FINE = np.array([(u, v, 1) for v in (np.arange(2 * CROP) + 0.5) / (2 * CROP) - 0.5
                  for u in (np.arange(2 * CROP) + 0.5) / (2 * CROP) - 0.5], np.float32)
"""The fine cells of a judge's patch, row by row, in patch widths from its centre (homogeneous)."""


@cache
def _judge_net() -> Any:
    return onnx_net(MODEL)


def judge(patches: NDArray[Any], net: Any = None) -> NDArray[Any]:
    """The log odds that each die is cocked, from its ``die_patches``: a small convolutional network
    trained on renders by ``tools.dice.train`` (``net``: the committed one unless given). A die it scores
    within ``DOUBT`` of ``JUDGED_COCKED`` is asked again as its mirror image (the network was trained on
    both), and the two answers averaged: fewer flat dice score high so, and the other dice (nine in ten)
    cost no second look."""
    if not len(patches):
        return np.empty(0, np.float32)
    net = _judge_net() if net is None else net
    odds = _forward(net, patches)
    doubtful = np.abs(odds - JUDGED_COCKED) < DOUBT
    if doubtful.any():
        odds[doubtful] = (odds[doubtful] + _forward(net, mirrored(patches[doubtful]))) / 2
    return odds


def _forward(net: Any, patches: NDArray[Any]) -> NDArray[Any]:
    net.setInput(np.ascontiguousarray(patches, np.float32))
    out: NDArray[Any] = net.forward().reshape(-1).copy()
    return out


def mirrored(patches: NDArray[Any]) -> NDArray[Any]:
    """``die_patches`` of the dice's mirror images: each patch flipped left to right, and the way out
    across it reversed.

    >>> patch = np.zeros((1, 5, CROP, CROP), np.float32); patch[0, 0, :, 0] = 1; patch[0, 3] = 0.5
    >>> flipped = mirrored(patch)
    >>> float(flipped[0, 0, 0, -1]), float(flipped[0, 3, 0, 0]), float(patch[0, 3, 0, 0])
    (1.0, -0.5, 0.5)
    """
    out = patches[..., ::-1].copy()
    out[:, 3] *= -1
    return out


def _unit(metric: NDArray[Any]) -> NDArray[Any]:
    """A metric scaled to determinant 1: its shape without its size."""
    out: NDArray[Any] = metric / np.sqrt(max(abs(float(np.linalg.det(metric))), 1e-12))
    return out


def flatness(metric: NDArray[Any]) -> float:
    """How face-on a surface looks, from its metric J Jᵀ (2x2): the shorter over the longer axis, 1 when
    it faces the camera, smaller as it slants away.

    >>> flatness(np.eye(2)), round(flatness(np.diag([1.0, 0.25])), 3)
    (1.0, 0.5)
    """
    low, high = np.linalg.eigvalsh(metric)
    return float(np.sqrt(max(low, 0.0) / high)) if high > 0 else 0.0


def _as_bgr(frame: object) -> NDArray[Any]:
    """The frame, checked: a 3-channel uint8 image."""
    if not isinstance(frame, np.ndarray):
        raise TypeError(f"a frame is a numpy array (BGR image), not {type(frame).__name__}")
    if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
        raise ValueError(f"a frame is an HxWx3 BGR image of uint8, not {frame.dtype} of shape {frame.shape}")
    return frame


def check_faces(faces: Sequence[Card | None], guide: ScoreGuide) -> list[str]:
    """What makes these faces (None for an unknown die) impossible for the guide's dice.

    >>> guide = default_guide()
    >>> check_faces([Card.parse(c) for c in "QH QH 9C".split()], guide)
    []
    >>> for problem in check_faces([Card.parse(c) for c in "QH QH QH".split()] + [None] * 6, guide):
    ...     print(problem)
    9 dice seen: the game has 8
    no set of dice can show this roll: QH, QH, QH need 3 dice but only dice 1, 2 show them (the score guide's dice layout is provisional: if your dice differ, correct it there)
    """
    problems = []
    if len(faces) > len(guide.dice):
        problems.append(f"{len(faces)} dice seen: the game has {len(guide.dice)}")
    read = [face for face in faces if face is not None]
    strangers = sorted({face.code for face in read if not guide.dice_showing(face)})
    if strangers:
        problems.append(f"face{'s' * (len(strangers) > 1)} {', '.join(strangers)} on no die of the score guide")
        return problems
    stuck = unmatched_problem([FACE_NUMBER[face] for face in read], guide)
    return problems + [stuck] if stuck else problems


# ----------------------------------------------------------------------------------------------- finding

def bright_masks(image: NDArray[Any]) -> Iterator[NDArray[Any]]:
    """For each (size, share) in ``BRIGHT``, the pixels brighter than that share of the brightest pixel in
    the square of that size around them: sticker windows are white regions in these masks, enclosed by
    their frames. Each mask is made when it is asked for."""
    b, g, r = channels(image)
    lo = cv2.medianBlur(cv2.min(b, cv2.min(g, r)), 3)  # sensor noise would riddle dark felt with specks
    nears: dict[int, NDArray[Any]] = {}
    for size, share in BRIGHT:
        if size not in nears:
            nears[size] = cv2.dilate(lo, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
        yield cv2.compare(lo, cv2.LUT(nears[size], _least_bright(share)), cv2.CMP_GE)


@cache
def _least_bright(share: float) -> NDArray[Any]:
    """For each brightness of the brightest pixel around, the least a bright pixel has (``share`` of it), or
    0 when that brightest is under PAPER: all are bright, as one with the felt around them.

    >>> _least_bright(0.5)[[10, PAPER, 200]].tolist()
    [0, 16, 100]
    """
    least = np.round(np.arange(256) * share)
    least[:PAPER] = 0
    out: NDArray[Any] = least.astype(np.uint8)
    return out


def windows(bright: NDArray[Any], done: Sequence[tuple[float, float]] = ()) -> list[NDArray[Any]]:
    """The corners (4x2 float32, clockwise on screen) of every white window framed like a sticker's in a
    mask of bright pixels, but for windows around the points ``done`` (stickers already read)."""
    contours, hierarchy = cv2.findContours(bright, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return []
    links = hierarchy[0]  # next, previous, first child, parent
    lengths = np.fromiter(map(len, contours), int, len(contours))
    quads = []
    # not holes; long enough for a window, and not so long (a window's outline is at most about its
    # bounding box's perimeter, with a glint's or a shadow's ragged edge)
    outlines = np.nonzero((links[:, 3] < 0) & (lengths >= 2 * MIN_WINDOW) & (lengths <= 6 * MAX_WINDOW))[0]
    for k in map(int, outlines):
        contour = contours[k]
        x, y, w, h = cv2.boundingRect(contour)
        if not MIN_WINDOW <= max(w, h) <= MAX_WINDOW or min(w, h) < 0.4 * max(w, h):
            continue
        if any(x <= cx <= x + w and y <= cy <= y + h for cx, cy in done):
            continue
        holes, child = 0.0, links[k, 2]
        while child >= 0:
            holes += cv2.contourArea(contours[child])
            child = links[child, 0]
        quad = _quad(contour, holes)
        if quad is not None:
            quads.append(quad)
    return quads


def _quad(contour: NDArray[Any], holes: float) -> NDArray[Any] | None:
    """The four corners of the white region inside ``contour`` (with ``holes`` of that area in it, the
    glyph) if it is a quadrilateral window, each side a line fitted to its edge."""
    hull = cv2.convexHull(contour)
    outline = cv2.contourArea(contour)
    if outline < 0.8 * cv2.contourArea(hull):
        return None  # not a quadrilateral: a window with a bite out of it, or two joined
    if outline - holes < FILLED * outline:
        return None  # a ring, like the die's bare margin around its sticker, not a window holding a glyph
    perimeter = cv2.arcLength(hull, True)
    corners = cv2.approxPolyDP(hull, 0.06 * perimeter, True).reshape(-1, 2).astype(np.float32)
    if len(corners) != 4:
        corners = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    if cv2.contourArea(corners, oriented=True) < 0:  # counter-clockwise on screen (y down): turned round
        corners = corners[::-1].copy()
    points = contour.reshape(-1, 2).astype(np.float32)
    sides = corners[_NEXT] - corners
    lengths = np.hypot(sides[:, 0], sides[:, 1])
    if lengths.min() < 3:
        return None
    d = points[None, :, :] - corners[:, None, :]  # (4 sides, points, 2)
    along = (d[..., 0] * sides[:, None, 0] + d[..., 1] * sides[:, None, 1]) / lengths[:, None] ** 2
    off = np.abs(sides[:, None, 0] * d[..., 1] - sides[:, None, 1] * d[..., 0]) / lengths[:, None]
    near = (along > 0.15) & (along < 0.85) & (off < np.maximum(1.5, 0.15 * lengths)[:, None])
    if near.sum(axis=1).min() < 3:
        return None
    mx, my = corners.mean(axis=0).tolist()
    lines = []  # each side: a point on it and its direction
    for k in range(4):
        vx, vy, px, py = cv2.fitLine(points[near[k]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel().tolist()
        outward = 0.5 if vy * (mx - px) - vx * (my - py) > 0 else -0.5  # away from the middle, by half a pixel:
        lines.append((px - vy * outward, py + vx * outward, vx, vy))  # the contour runs on pixel centres
    out = np.empty((4, 2), np.float32)
    for k in range(4):  # each corner: where the side before it meets its own
        px, py, ux, uy = lines[k - 1]
        bx, by, wx, wy = lines[k]
        det = uy * wx - ux * wy
        if abs(det) < 0.3:
            return None
        t = ((by - py) * wx - (bx - px) * wy) / det
        out[k] = (px + t * ux, py + t * uy)
    return out


_NEXT = np.array([1, 2, 3, 0])
"""Each corner's next, going round."""


# ----------------------------------------------------------------------------------------------- reading

@dataclass(frozen=True)
class Templates:
    """What the reader compares stickers with, all drawn from the printed design (``vision.dice_faces``)."""

    stickers: NDArray[Any]  # (6, PATCH * PATCH) the normalised ink of a whole sticker of each rank
    ranks: NDArray[Any]  # (6, window cells) the normalised ink of each rank glyph, ``RANKS`` order
    suits: NDArray[Any]  # (4, 3) each suit's hue (see ``_hue``), ``SUITS`` order
    weights: NDArray[Any]  # (window cells, 6) and
    offsets: NDArray[Any]  # (6,): the rank discriminant (see ``_discriminant``)


RANKS = PINOCHLE_RANKS
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


@cache
def templates() -> Templates:
    """The templates, made once from renders of the 24 faces at patch size, softened like a camera's."""
    drawn = {}
    for card in FACES:
        big = face_image(card, PATCH * 4).astype(np.float32)
        drawn[card] = _balance(cv2.GaussianBlur(cv2.resize(big, (PATCH, PATCH), interpolation=cv2.INTER_AREA),
                                                (0, 0), 0.7))
    ink = {card: _ink(patch) for card, patch in drawn.items()}
    whole = [np.mean([ink[card] for card in FACES if card.rank is rank], axis=0) for rank in RANKS]
    ranks = [np.mean([ink[card][_WINDOW_CELLS] for card in FACES if card.rank is rank], axis=0) for rank in RANKS]
    suits = [np.mean([_hue(drawn[card]) for card in FACES if card.suit is suit], axis=0) for suit in SUITS]
    return Templates(_normalise(np.array(whole).reshape(len(RANKS), -1)),
                     _normalise(np.array(ranks).reshape(len(RANKS), -1)), np.array(suits),
                     *_discriminant(np.random.default_rng(0)))


def _discriminant(rng: np.random.Generator, per_face: int = 30) -> tuple[NDArray[Any], NDArray[Any]]:
    """A linear discriminant of the ranks (shared covariance, shrunk), fitted on the stickers as the
    reader samples them: each face drawn, blurred by a random amount, its window's corners found a little
    off, sampled by ``_sample``, lit unevenly and noisy. It tells apart glyphs whose plain correlation is
    close (Q, 9, J), weighing the cells where they differ."""
    side = PATCH * 4
    x0, y0, x1, y1 = (v * side for v in WINDOW)
    corners = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)
    rows, labels = [], []
    for card in FACES:
        face = face_image(card, side).astype(np.float32)
        for _ in range(per_face):
            blurred = cv2.GaussianBlur(face, (0, 0), 4 * float(rng.uniform(0.4, 1.4)))
            quad = corners + rng.normal(0, 0.012 * side, corners.shape).astype(np.float32)
            patch = _sample(blurred, [quad])[0][0, 0]
            light = 1 + rng.uniform(-0.15, 0.15) * np.linspace(-1, 1, PATCH)[:, None, None]
            patch = patch * light + rng.normal(0, rng.uniform(2, 8), patch.shape)
            rows.append(_window_ink(_ink(_balance(patch))))
            labels.append(RANKS.index(card.rank))
    x, y = np.array(rows), np.array(labels)
    means = np.array([x[y == r].mean(axis=0) for r in range(len(RANKS))])
    spread = np.cov((x - means[y]).T)
    spread += 0.05 * np.trace(spread) / len(spread) * np.eye(len(spread))
    weights = np.linalg.solve(spread, means.T)
    return weights.astype(np.float32), (-0.5 * np.sum(means.T * weights, axis=0)).astype(np.float32)


def _window_ink(ink: NDArray[Any]) -> NDArray[Any]:
    """The normalised ink (see ``_ink``) of the windows of patches (..., PATCH, PATCH), flattened."""
    window = ink[..., _WINDOW_CELLS[0], _WINDOW_CELLS[1]]
    return _normalise(window.reshape(*window.shape[:-2], -1))


def _hue(patches: NDArray[Any]) -> NDArray[Any]:
    """The ink's colour in white-balanced patches (..., PATCH, PATCH, 3) -> (..., 3): its summed departure
    from grey per unit of summed darkness (black ink is (0, 0, 0)). Blur and the camera's coarse colour
    sampling move colour about but keep its sum, so every ink pixel of frame, band and glyph counts, however
    blurred."""
    cells = patches.reshape(*patches.shape[:-3], -1, 3)
    grey = cells.mean(axis=-1, keepdims=True)
    dark = np.clip(1 - grey, 0, None)
    out: NDArray[Any] = (((cells - grey) * (dark > 0)).sum(axis=-2)
                       / np.maximum(dark.sum(axis=(-2, -1)), 1e-6)[..., None]).astype(np.float32)
    return out


def _suits(hues: NDArray[Any]) -> NDArray[Any]:
    """The suit (index in SUITS) of ink of each hue (n, 3), or -1 where it is not clear.

    >>> _suits(np.array([[0.02, 0, -0.02], [-0.2, -0.2, 0.4], [0.1, 0.05, -0.1], [0.3, 0.3, -0.6]])).tolist()
    [0, 1, -1, -1]
    """
    lengths = np.linalg.norm(hues, axis=1)
    colours = templates().suits[1:]
    cosines = hues @ colours.T / (np.linalg.norm(colours, axis=1) * np.maximum(lengths, 1e-12)[:, None])
    ordered = np.sort(cosines, axis=1)
    coloured = (lengths >= COLOURED) & (ordered[:, -1] >= HUE_COSINE) & (ordered[:, -2] <= HUE_OTHER)
    out: NDArray[Any] = np.where(lengths < GREY, 0, np.where(coloured, cosines.argmax(axis=1) + 1, -1))
    return out


def _normalise(v: NDArray[Any]) -> NDArray[Any]:
    v = v - v.mean(axis=-1, keepdims=True)
    out: NDArray[Any] = v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-6)
    return out


_WINDOW_CELLS = tuple(slice(round(a * PATCH), round(b * PATCH)) for a, b in ((WINDOW[1], WINDOW[3]), (WINDOW[0], WINDOW[2])))


def _balance(patches: NDArray[Any]) -> NDArray[Any]:
    """Patches (..., PATCH, PATCH, 3) divided, channel by channel, by their paper's colour: the brightest
    tenth of each window."""
    window = patches[..., _WINDOW_CELLS[0], _WINDOW_CELLS[1], :].reshape(*patches.shape[:-3], -1, 3)
    tenth = int(0.9 * (window.shape[-2] - 1))
    white = np.partition(window, tenth, axis=-2)[..., tenth, :]
    out: NDArray[Any] = patches / np.maximum(white, 8)[..., None, None, :]
    return out


def _ink(balanced: NDArray[Any]) -> NDArray[Any]:
    """The darkest channel of balanced patches: how dark the ink is, whatever its colour."""
    out: NDArray[Any] = np.minimum(np.minimum(balanced[..., 0], balanced[..., 1]), balanced[..., 2])
    return out


@dataclass(frozen=True, slots=True)
class Sticker:
    """What the reader made of one sticker: scores are normalised correlations (1 is perfect), margins how
    far the best beat the runner-up."""

    centre: tuple[float, float]
    jacobian: NDArray[Any]  # 2x2: image pixels per unit of the sticker's x and y at its centre
    layout: float
    turn_margin: float
    rank: int  # index in RANKS, the glyph correlating best
    rank_score: float
    rank_sure: float  # the discriminant's probability of that rank
    suit: int | None  # index in SUITS, None when unsure

    @property
    def side(self) -> float:
        """The sticker's size in pixels (the square root of its area)."""
        return float(np.sqrt(abs(np.linalg.det(self.jacobian))))

    @property
    def is_die(self) -> bool:
        """Whether this is the top face of a die: laid out like a sticker, and not seen edge-on (the
        sticker on a die's side)."""
        return self.layout >= DIE_SCORE and flatness(self.jacobian @ self.jacobian.T) >= EDGE_ON

    @property
    def face(self) -> Card | None:
        """The face, when every part of it was read surely."""
        sure = (self.turn_margin >= TURN_MARGIN and self.rank_score >= RANK_SCORE and self.rank_sure >= RANK_SURE
                and self.suit is not None)
        return Card(RANKS[self.rank], SUITS[self.suit]) if sure and self.suit is not None else None

    @property
    def confidence(self) -> float:
        return self.rank_score if self.suit is not None else 0.0


def read_stickers(image: NDArray[Any]) -> list[Sticker]:
    """Each sticker-like window found in a BGR image, read: first in the mask of the first brightness
    level, then in the next masks only where no sticker was read yet (nor the same window found)."""
    stickers: list[Sticker] = []
    tried = np.empty((0, 4, 2), np.float32)  # windows read already: a later mask finding one again is skipped
    reduced: dict[int, NDArray[Any]] = {}  # the image reduced for big windows (``_sample``), made once
    for bright in bright_masks(image):
        quads = windows(bright, [seen.centre for seen in stickers if seen.face is not None])
        quads = [quad for quad, known in zip(quads, _among(quads, tried), strict=True) if not known]
        if quads:
            stickers += _read(image, quads, reduced)
            tried = np.concatenate([tried, quads])
    return stickers


def _among(quads: Sequence[NDArray[Any]], tried: NDArray[Any]) -> NDArray[Any]:
    """Whether each window's corners are within a pixel of those of a window in ``tried`` (n, 4, 2), in any turn.

    >>> square = np.array([(0, 0), (9, 0), (9, 9), (0, 9)], np.float32)
    >>> _among([square + 0.5, square + 2], np.roll(square, 1, axis=0)[None]).tolist()
    [True, False]
    """
    if not len(tried) or not len(quads):
        return np.zeros(len(quads), bool)
    gaps = np.linalg.norm(tried[None, :, None] - np.asarray(quads)[:, None, :, None], axis=-1)  # (quads, tried, 4, 4)
    out: NDArray[Any] = (gaps.min(axis=3).max(axis=2) < 1.0).any(axis=1)
    return out


def _read(image: NDArray[Any], quads: list[NDArray[Any]], reduced: dict[int, NDArray[Any]]) -> list[Sticker]:
    """The stickers whose windows have the corners ``quads``, read (``reduced``: see ``_sample``)."""
    t = templates()
    patches, homographies = _sample(image, quads, reduced)  # (n, 4 turns, PATCH, PATCH, 3), (n, 4, 3, 3)
    balanced = _balance(patches)
    ink = _ink(balanced)
    layout = (_normalise(ink.reshape(len(quads), 4, -1)) @ t.stickers.T).max(axis=2)  # (n, 4 turns)
    features = _window_ink(ink)  # (n, 4 turns, window cells)
    glyphs = features @ t.ranks.T
    rows = np.arange(len(quads))
    turns = layout.argmax(axis=1)  # each sticker's way up: the turn laid out most like a sticker
    ordered = np.sort(layout, axis=1)
    glyphs, features = glyphs[rows, turns], features[rows, turns]
    ranks = glyphs.argmax(axis=1)
    odds = features @ t.weights + t.offsets
    odds = np.exp(odds - odds.max(axis=1, keepdims=True))
    sure = odds[rows, ranks] / odds.sum(axis=1)
    suits = _suits(_hue(balanced[rows, turns]))
    centres, jacobians = _centres(homographies[rows, turns])
    return [Sticker((float(centres[k, 0]), float(centres[k, 1])), jacobians[k], float(ordered[k, -1]),
                    float(ordered[k, -1] - ordered[k, -2]), int(ranks[k]), float(glyphs[k, ranks[k]]), float(sure[k]),
                    None if suits[k] < 0 else int(suits[k]))
            for k in rows]


def _centres(m: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Where homographies (n, 3, 3) put the sticker's centre (n, 2), and their Jacobians there (n, 2, 2: image
    pixels per sticker side).

    >>> centres, jacobians = _centres(np.array([[[2.0, 0, 10], [0, 3, 20], [0, 0, 1]]]))
    >>> centres.tolist(), jacobians.tolist()
    ([[11.0, 21.5]], [[[2.0, 0.0], [0.0, 3.0]]])
    """
    mapped = m @ (0.5, 0.5, 1.0)  # (n, 3)
    w = mapped[:, 2:]
    centres = mapped[:, :2] / w
    jacobians: NDArray[Any] = (m[:, :2, :2] - centres[:, :, None] * m[:, 2:, :2]) / w[:, :, None]
    return centres, jacobians


_UNIT = np.array([(WINDOW[0], WINDOW[1]), (WINDOW[2], WINDOW[1]), (WINDOW[2], WINDOW[3]), (WINDOW[0], WINDOW[3])],
                 np.float32)  # the window's corners in sticker units
_TURNS = np.array([cv2.getPerspectiveTransform(_UNIT, np.roll(_UNIT, -turn, axis=0)) for turn in range(4)])
"""Sticker units to sticker units, each corner of the window to the one ``turn`` places on."""
_POINTS = np.array([(u, v, 1.0) for v in (np.arange(PATCH) + 0.5) / PATCH for u in (np.arange(PATCH) + 0.5) / PATCH])
"""The patch's cells in sticker units (homogeneous), row by row."""


def _sample(image: NDArray[Any], quads: list[NDArray[Any]], reduced: dict[int, NDArray[Any]] | None = None,
            ) -> tuple[NDArray[Any], NDArray[Any]]:
    """Each sticker as PATCH x PATCH float BGR patches, one for each corner of the window taken as its
    top left (turn), and the homographies (n, 4, 3, 3) from sticker units to the image in each turn. Big
    stickers are sampled from the image reduced by a power of two, kept in ``reduced`` (by the power) for
    the next call on the same image."""
    x0, y0, x1, y1 = WINDOW
    first = np.array([cv2.getPerspectiveTransform(_UNIT, quad) for quad in quads])  # the first corner top left
    homographies = first[:, None] @ _TURNS  # each corner top left in turn
    where = _POINTS @ homographies.swapaxes(-1, -2)
    where = where[..., :2] / where[..., 2:]  # (n, 4, PATCH * PATCH, 2) image points
    corners = np.array(quads)
    sides = (np.linalg.norm(corners[:, 1] - corners[:, 0], axis=1)
             + np.linalg.norm(corners[:, 2] - corners[:, 1], axis=1)) / 2 / (x1 - x0)
    scales = 2 ** np.maximum(0, np.ceil(np.log2(sides / (2 * PATCH)))).astype(int)  # big stickers: a reduced image
    patches = np.empty((len(quads), 4, PATCH, PATCH, 3), np.float32)
    reduced = {} if reduced is None else reduced
    for scale in map(int, np.unique(scales)):
        pick = np.nonzero(scales == scale)[0]
        if scale not in reduced:
            reduced[scale] = image if scale == 1 else cv2.resize(image, None, fx=1 / scale, fy=1 / scale,
                                                                 interpolation=cv2.INTER_AREA)
        source = reduced[scale]
        maps = (where[pick] / scale).astype(np.float32).reshape(-1, PATCH, 2)
        sampled = cv2.remap(source, maps, None, cv2.INTER_LINEAR,  # type: ignore[call-overload]  # stubs lack map2=None
                            borderMode=cv2.BORDER_REPLICATE)
        patches[pick] = sampled.reshape(len(pick), 4, PATCH, PATCH, 3)
    return patches, homographies
