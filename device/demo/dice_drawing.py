"""Pinzique dice drawn on a tray as a camera sees them: the demo's dice, and the dice reader's test data.

Eight cubes with the stickers of ``vision.dice_faces`` stand on a tray seen by a pinhole camera a little
off vertical: their sides show near the image edges, dice touch, lie at any angle, tilt slightly, cast
soft shadows and catch glare on their glossy stickers; the frame gets uneven light, blur, noise and JPEG
loss. A die can be rolling (drawn along its path, blurred) or cocked (one edge on the floor). Where the
dice lie is given (the demo's recordings keep it; ``tools.dice.rolls`` draws random trays and rolls).

The frames of a still roll differ only in their noise, like a camera's.

>>> from scoring.pinzique_roll import default_guide
>>> down = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, -1]])
>>> camera = Pinhole(2.8 * 700, 700.0, down, (320.0, 240.0), (0.0, 0.0))
>>> floor = np.full((480, 640, 3), (40, 90, 30), np.uint8)
>>> tray = Tray(camera, floor, (30.0, 30.0, 610.0, 450.0), np.array([0.0, 0.0, 1.0]), (232, 240, 245), default_guide())
>>> die = tray.guide.dice[0]
>>> pose = DiePose(0, die[0], tuple(die[1:5]), 0.0, 0.0, 0.3, 0.0, 0.0)
>>> frame = render(np.random.default_rng(3), tray, [pose])
>>> frame.shape, [round(v) for v in tray.center(pose)], pose.readable
((480, 640, 3), [320, 240], True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from scoring.pinzique_guide import ScoreGuide
from vision.dice_faces import DIE_MM, STICKER_MM, face_image

TEXTURE = 96
"""Stickers are warped from images this many pixels across (more than any die shows)."""
TILT_SLIGHT = math.radians(6)
"""A die lying on the tray's felt or against another may tilt this much and still be read."""


@dataclass(frozen=True)
class Pinhole:
    """A pinhole camera over the tray: table millimetres to image pixels."""

    focal: float  # pixels
    height: float  # mm above the table
    rotation: NDArray[Any]  # 3x3, camera axes as rows (x right, y down, z along the view)
    centre: tuple[float, float]  # principal point, pixels
    position: tuple[float, float]  # the table point under the camera, mm

    def project(self, points: NDArray[Any]) -> NDArray[Any]:
        """Image pixels (n, 2) of world points (n, 3) in mm (z up from the table)."""
        rel = points - np.array([*self.position, self.height])
        cam = rel @ self.rotation.T
        out: NDArray[Any] = self.focal * cam[:, :2] / cam[:, 2:3] + np.array(self.centre)
        return out

    def table_point(self, pixel: tuple[float, float]) -> tuple[float, float]:
        """The table point (mm) seen at an image pixel."""
        ray = self.rotation.T @ np.array([(pixel[0] - self.centre[0]) / self.focal,
                                          (pixel[1] - self.centre[1]) / self.focal, 1.0])
        t = -self.height / ray[2]
        return float(self.position[0] + t * ray[0]), float(self.position[1] + t * ray[1])


@dataclass(frozen=True)
class Tray:
    """What stays the same over a session: the camera, the table and tray, the light."""

    camera: Pinhole
    background: NDArray[Any]
    area: tuple[float, float, float, float]  # x0, y0, x1, y1 of the tray floor in pixels
    light: NDArray[Any]  # unit vector towards the light
    ivory: tuple[int, int, int]
    guide: ScoreGuide

    def center(self, pose: DiePose) -> tuple[float, float]:
        """Where the centre of a die's top face shows in the image."""
        x, y = self.camera.project(cube_corners(pose, STICKER_MM)[4:].mean(axis=0, keepdims=True))[0]
        return float(x), float(y)


@dataclass(frozen=True)
class DiePose:
    """One die on the tray: which die, its top face, where it lies and how."""

    number: int
    face: Card
    sides: tuple[Card, ...]  # the faces drawn on its four sides
    x: float  # mm
    y: float
    yaw: float  # radians
    tilt: float  # radians, about a horizontal axis at angle ``tilt_axis``
    tilt_axis: float
    motion: tuple[float, float] = (0.0, 0.0)  # mm travelled during the exposure (rolling)

    @property
    def rolling(self) -> bool:
        return math.hypot(*self.motion) > 0

    @property
    def cocked(self) -> bool:
        return self.tilt > TILT_SLIGHT

    @property
    def readable(self) -> bool:
        """Still and flat: the reader should read it."""
        return not self.rolling and not self.cocked


def cube_corners(pose: DiePose, side: float) -> NDArray[Any]:
    """The 8 corners (bottom 4, top 4; mm) of a ``side``-mm square on the die's top and bottom faces
    (``DIE_MM`` for the cube itself), turned, tilted and placed."""
    half = side / 2
    square = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    cube = np.vstack([np.c_[square, np.zeros(4)], np.c_[square, np.full(4, DIE_MM)]])
    cube[:, 2] -= DIE_MM / 2
    c, s = math.cos(pose.yaw), math.sin(pose.yaw)
    yaw = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    ax = np.array([math.cos(pose.tilt_axis), math.sin(pose.tilt_axis), 0.0])
    tilt = _rotation(ax, pose.tilt)
    placed = cube @ (tilt @ yaw).T
    lift = DIE_MM / 2 * (abs(math.cos(pose.tilt)) + abs(math.sin(pose.tilt)))  # resting on an edge
    out: NDArray[Any] = placed + np.array([pose.x, pose.y, lift])
    return out


def _rotation(axis: NDArray[Any], angle: float) -> NDArray[Any]:
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    out: NDArray[Any] = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k
    return out


# faces of the cube as corner indices, counter-clockwise seen from outside, and the sticker drawn on each
_TOP = (4, 5, 6, 7)
_SIDES = ((0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def render(rng: np.random.Generator, tray: Tray, poses: Sequence[DiePose], glare: float = 0.35,
           shot: int = 0) -> NDArray[Any]:
    """One camera frame of the dice in ``poses`` on the tray (``glare``: chance a die's sticker catches
    a highlight). Frames of a still roll are rendered from generators in the same state with different
    ``shot`` numbers: the light, glare, focus and compression stay, the sensor noise changes."""
    canvas = tray.background.astype(np.float32)
    camera = tray.camera
    order = sorted(poses, key=lambda p: -math.hypot(p.x - camera.position[0], p.y - camera.position[1]))
    for pose in order:
        steps = 7 if pose.rolling else 1
        moves = [replace(pose, x=pose.x + t * pose.motion[0], y=pose.y + t * pose.motion[1],
                         yaw=pose.yaw + t * 0.02 * math.hypot(*pose.motion))
                 for t in np.linspace(-0.5, 0.5, steps)]
        reach = np.vstack([camera.project(cube_corners(m, DIE_MM * 1.6)) for m in moves])
        x0, y0 = np.maximum(np.floor(reach.min(axis=0)).astype(int) - 4, 0)
        x1, y1 = np.minimum(np.ceil(reach.max(axis=0)).astype(int) + 4, canvas.shape[1::-1])
        if x1 <= x0 or y1 <= y0:
            continue
        roi = canvas[y0:y1, x0:x1]
        offset = np.array([x0, y0], np.float32)
        _shadow(roi, tray, pose, offset)
        layers = [_die_layer(tray, m, roi.shape[:2], offset) for m in moves]
        colour = np.mean([c for c, _ in layers], axis=0)
        alpha = np.mean([a for _, a in layers], axis=0)
        roi[:] = roi * (1 - alpha[..., None]) + colour
        if rng.random() < glare and not pose.rolling:
            _highlight(rng, roi, tray, pose, offset)
    return _degrade(rng, canvas, shot)


def _die_layer(tray: Tray, pose: DiePose, shape: tuple[int, ...], offset: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """The die drawn alone in a region at ``offset``: premultiplied colour and alpha float images."""
    camera = tray.camera
    cube = cube_corners(pose, DIE_MM)
    eye = np.array([*camera.position, camera.height])
    colour = np.zeros((*shape, 3), np.float32)
    alpha = np.zeros(shape, np.float32)
    for corners, card in [(_TOP, pose.face), *zip(_SIDES, pose.sides, strict=True)]:
        pts = cube[list(corners)]
        normal = np.cross(pts[1] - pts[0], pts[3] - pts[0])
        normal /= np.linalg.norm(normal)
        if normal @ (eye - pts.mean(axis=0)) <= 0:
            continue
        shade = 0.35 + 0.65 * max(0.0, float(normal @ tray.light))
        quad = camera.project(pts) - offset
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad * 4).astype(np.int32), (255,), cv2.LINE_AA, 2)
        m = mask.astype(np.float32) / 255
        colour += (np.array(tray.ivory, np.float32) * shade * m[..., None]) * (1 - alpha[..., None])
        alpha += m * (1 - alpha)
        middle = pts.mean(axis=0)
        inset = middle + (pts - middle) * (STICKER_MM / DIE_MM)
        _paste_sticker(colour, (camera.project(inset) - offset).astype(np.float32), card, shade)
    return colour, alpha


@cache
def _texture(card: Card) -> NDArray[Any]:
    return face_image(card, TEXTURE).astype(np.float32)


def _paste_sticker(colour: NDArray[Any], quad: NDArray[Any], card: Card, shade: float) -> None:
    """Warp the sticker of ``card`` onto ``quad`` (its top-left corner first) in the colour layer."""
    src = np.array([(0, 0), (TEXTURE, 0), (TEXTURE, TEXTURE), (0, TEXTURE)], np.float32)
    h, w = colour.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getPerspectiveTransform(src, quad - np.array([x0, y0], np.float32))
    size = (int(x1 - x0), int(y1 - y0))
    warped = cv2.warpPerspective(_texture(card), m, size, flags=cv2.INTER_AREA)
    cover = cv2.warpPerspective(np.ones((TEXTURE, TEXTURE), np.float32), m, size, flags=cv2.INTER_LINEAR)
    roi = colour[y0:y1, x0:x1]
    roi[:] = roi * (1 - cover[..., None]) + warped * shade


def _shadow(roi: NDArray[Any], tray: Tray, pose: DiePose, offset: NDArray[Any]) -> None:
    """A soft shadow on the tray, thrown away from the light."""
    lean = -tray.light[:2] / tray.light[2] * DIE_MM * 0.6
    foot = cube_corners(pose, DIE_MM * 1.05)[:4] + np.array([*lean, 0])
    quad = tray.camera.project(np.vstack([foot, cube_corners(pose, DIE_MM)[:4]])) - offset
    mask = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(quad).astype(np.int32)), (1.0,))
    spread = max(1.0, float(np.linalg.norm(quad[0] - quad[2])) * 0.08)
    roi *= 1 - 0.45 * cv2.GaussianBlur(mask, (0, 0), spread)[..., None]


def _highlight(rng: np.random.Generator, roi: NDArray[Any], tray: Tray, pose: DiePose, offset: NDArray[Any]) -> None:
    """A glossy highlight on part of the die's sticker."""
    quad = tray.camera.project(cube_corners(pose, STICKER_MM)[4:]) - offset
    side = float(np.linalg.norm(quad[1] - quad[0]))
    spot = quad.mean(axis=0) + rng.uniform(-0.45, 0.45, 2) * side
    mask = np.zeros(roi.shape[:2], np.float32)
    axes = (max(1, int(side * rng.uniform(0.08, 0.3))), max(1, int(side * rng.uniform(0.05, 0.2))))
    cv2.ellipse(mask, (int(spot[0]), int(spot[1])), axes, float(rng.uniform(0, 180)), 0, 360, (1.0,), -1)
    roi += rng.uniform(30, 110) * cv2.GaussianBlur(mask, (0, 0), max(1.0, side * 0.06))[..., None]


def smooth_noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> NDArray[Any]:
    """Smooth noise in about [-1, 1] with features ``scale`` pixels across."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2))).astype(np.float32)
    out: NDArray[Any] = np.clip(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / 2.5, -1, 1)
    return out


def _degrade(rng: np.random.Generator, f: NDArray[Any], shot: int) -> NDArray[Any]:
    """Uneven light and colour cast, a hard shadow sometimes, focus blur, sensor noise, JPEG loss."""
    h, w = f.shape[:2]
    light = 1 + rng.uniform(0.1, 0.35) * smooth_noise(rng, (h, w), rng.uniform(200, 600))
    f = f * light[..., None] * (rng.uniform(0.65, 1.1) * rng.uniform(0.88, 1.1, 3)).astype(np.float32)
    if rng.random() < 0.3:  # an arm's or a lamp's shadow across the tray
        mask = np.zeros((h, w), np.float32)
        cv2.fillPoly(mask, [(rng.uniform(0, 1, (4, 2)) * [w, h]).astype(np.int32)], (1.0,))
        f *= 1 - rng.uniform(0.2, 0.45) * cv2.GaussianBlur(mask, (0, 0), 10)[..., None]
    sigma = rng.uniform(0, 1.2)
    if sigma > 0.3:
        f = cv2.GaussianBlur(f, (0, 0), sigma)
    noise = np.empty(f.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)) + shot)
    cv2.randn(noise, np.zeros(3), np.full(3, rng.uniform(1, 5)))  # every channel (a bare number is blue only)
    out = cv2.convertScaleAbs(f + noise)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 95))])
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
