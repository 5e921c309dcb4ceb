"""Synthetic dice trays: the test and benchmark data of the dice reader.

Eight cubes with the stickers of ``vision.dice_faces`` stand on a tray seen by a pinhole camera a little
off vertical: their sides show near the image edges, dice touch, lie at any angle, tilt slightly, cast
soft shadows and catch glare on their glossy stickers; the frame gets uneven light, blur, noise and JPEG
loss. A die can be rolling (drawn along its path, blurred) or cocked (:func:`cock`: one edge on the floor,
the other wedged against a die lying flat or the tray's wall).

A roll is laid out once (:func:`lay_out`) and rendered as often as wanted (:func:`render`): the frames of a
still roll differ only in their noise, like a camera's, and a re-roll keeps the kept dice's poses.

>>> import numpy as np
>>> rng = np.random.default_rng(3)
>>> tray = Tray.random(rng)
>>> poses = lay_out(rng, tray)
>>> frame = render(rng, tray, poses)
>>> frame.shape, len(poses), sorted(p.number for p in poses) == list(range(8))
((720, 1280, 3), 8, True)
>>> all(p.readable for p in poses) and all(0 <= tray.center(p)[0] < 1280 for p in poses)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

import cv2
import numpy as np

from scoring.cards import Card
from scoring.pinzique_guide import ScoreGuide, load_guide
from vision.dice_faces import DIE_MM, STICKER_MM, face_image

SIZE = (720, 1280)
"""Frames are this size (height, width), the camera's 720p."""
TEXTURE = 96
"""Stickers are warped from images this many pixels across (more than any die shows)."""
TILT_SLIGHT = math.radians(6)
"""A die lying on the tray's felt or against another may tilt this much and still be read."""


@dataclass(frozen=True)
class Camera:
    """A pinhole camera over the tray: table millimetres to image pixels."""

    focal: float  # pixels
    height: float  # mm above the table
    rotation: np.ndarray  # 3x3, camera axes as rows (x right, y down, z along the view)
    centre: tuple[float, float]  # principal point, pixels
    position: tuple[float, float]  # the table point under the camera, mm

    def project(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (n, 2) of world points (n, 3) in mm (z up from the table)."""
        rel = points - np.array([*self.position, self.height])
        cam = rel @ self.rotation.T
        out: np.ndarray = self.focal * cam[:, :2] / cam[:, 2:3] + np.array(self.centre)
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

    camera: Camera
    background: np.ndarray
    area: tuple[float, float, float, float]  # x0, y0, x1, y1 of the tray floor in pixels
    light: np.ndarray  # unit vector towards the light
    ivory: tuple[int, int, int]
    guide: ScoreGuide

    @staticmethod
    def random(rng: np.random.Generator, guide: ScoreGuide | None = None, size: tuple[int, int] = SIZE,
               scale: tuple[float, float] = (2.0, 3.6)) -> Tray:
        """A tray whose dice show ``scale`` pixels per millimetre (a 16 mm die 32 to 58 px across)."""
        h, w = size
        height = float(rng.uniform(450, 900))
        focal = float(rng.uniform(*scale)) * height
        a, b = rng.normal(0, math.radians(4), 2)
        rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
        ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
        down = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, -1]])  # looking down: depth is height - z
        camera = Camera(focal, height, rx @ ry @ down, (w / 2 + rng.normal(0, 10), h / 2 + rng.normal(0, 10)),
                        (0.0, 0.0))
        x0, y0 = rng.uniform(0, 0.2) * w, rng.uniform(0, 0.2) * h
        x1, y1 = w - rng.uniform(0, 0.2) * w, h - rng.uniform(0, 0.2) * h
        background = _table(rng, size)
        felt = _surface(rng, (int(y1 - y0), int(x1 - x0)))
        background[int(y0):int(y0) + felt.shape[0], int(x0):int(x0) + felt.shape[1]] = felt
        rim = tuple(int(v) for v in rng.uniform(20, 120, 3))
        cv2.rectangle(background, (int(x0), int(y0)), (int(x1), int(y1)), rim, int(rng.integers(4, 14)))
        light = np.array([*rng.normal(0, 0.5, 2), 1.0])
        b, g, r = (int(v) for v in np.clip(np.array([232, 240, 245]) + rng.normal(0, 6, 3), 200, 255))
        ivory = (b, g, r)
        return Tray(camera, background, (x0 + 30, y0 + 30, x1 - 30, y1 - 30), light / np.linalg.norm(light),
                    ivory, guide or load_guide())

    def center(self, pose: DiePose) -> tuple[float, float]:
        """Where the centre of a die's top face shows in the image."""
        x, y = self.camera.project(_corners(pose, STICKER_MM)[4:].mean(axis=0, keepdims=True))[0]
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


def lay_out(rng: np.random.Generator, tray: Tray, keep: Mapping[int, DiePose] | None = None,
            rolling: float = 0.0, cocked: float = 0.0, lean: tuple[float, float] | None = None) -> list[DiePose]:
    """A roll of the tray's dice: ``keep`` (by die number) stay as they are, the rest land anywhere on the
    tray, a share ``rolling`` of them still moving and ``cocked`` of them resting tilted (``cock``; by an
    angle drawn from ``lean``, radians, if given)."""
    kept = dict(keep or {})
    poses = list(kept.values())
    for number, die in enumerate(tray.guide.dice):
        if number in kept:
            continue
        top = int(rng.integers(len(die)))
        sides = tuple(die[(top + k) % len(die)] for k in rng.permutation(np.arange(1, len(die)))[:4])
        for attempt in range(200):
            pose = _landing(rng, tray, number, die[top], sides, poses, attempt)
            if pose is not None:
                break
        else:
            raise RuntimeError("no room on the tray for eight dice")
        if rng.random() < cocked:
            tilt = None if lean is None else float(rng.uniform(*lean))
            pose = cock(rng, tray, pose, poses, tilt) or pose
        if rng.random() < rolling:
            speed = rng.uniform(15, 60)
            angle = rng.uniform(0, 2 * math.pi)
            pose = replace(pose, motion=(speed * math.cos(angle), speed * math.sin(angle)))
        poses.append(pose)
    return sorted(poses, key=lambda p: p.number)


def _landing(rng: np.random.Generator, tray: Tray, number: int, face: Card, sides: tuple[Card, ...],
             others: Sequence[DiePose], attempt: int) -> DiePose | None:
    """A flat pose for a die that touches nothing, or lies against a die already down; None if it would
    overlap another."""
    tilt = float(rng.uniform(0, TILT_SLIGHT * 0.9)) if rng.random() < 0.4 else 0.0
    if others and rng.random() < 0.35:  # against another die, squarely
        other = others[int(rng.integers(len(others)))]
        side = int(rng.integers(4))
        gap = DIE_MM + rng.uniform(0.2, 1.5)
        angle = other.yaw + side * math.pi / 2
        x, y = other.x + gap * math.cos(angle), other.y + gap * math.sin(angle)
        x += rng.normal(0, 2) * math.sin(angle)
        y -= rng.normal(0, 2) * math.cos(angle)
        yaw = other.yaw + rng.normal(0, 0.04)
    else:
        x0, y0, x1, y1 = tray.area
        x, y = tray.camera.table_point((rng.uniform(x0, x1), rng.uniform(y0, y1)))
        yaw = rng.uniform(0, 2 * math.pi)
    pose = DiePose(number, face, sides, x, y, yaw, tilt, rng.uniform(0, 2 * math.pi))
    cx, cy = tray.center(pose)
    x0, y0, x1, y1 = tray.area
    if not (x0 <= cx <= x1 and y0 <= cy <= y1):
        return None
    mine = _footprint(pose)
    for other in others:
        area, _ = cv2.intersectConvexConvex(mine, _footprint(other))
        if area > 0.5:
            return None
    return pose


def cock(rng: np.random.Generator, tray: Tray, pose: DiePose, others: Sequence[DiePose],
         tilt: float | None = None) -> DiePose | None:
    """The die cocked as dice come to rest cocked: one bottom edge on the floor, the opposite one raised
    ``tilt`` (radians; else 18 to 35 degrees) and wedged against the side of a die lying flat, or against
    the tray's wall (a vertical face holds it: tilted less than 45 degrees, its weight presses the raised
    edge against the face); its top face turns away from that face. None when there is no room for it.

    >>> rng = np.random.default_rng(4)
    >>> tray = Tray.random(rng)
    >>> poses = lay_out(rng, tray)
    >>> leaning = cock(rng, tray, poses[0], poses[1:], tilt=math.radians(25))
    >>> leaning.cocked, round(math.degrees(leaning.tilt)), abs(float(_corners(leaning, DIE_MM)[:, 2].min())) < 1e-9  # on an edge
    (True, 25, True)
    """
    flat = [other for other in others if other.readable]
    x0, y0, x1, y1 = tray.area
    for _ in range(50):
        angle = float(rng.uniform(math.radians(18), math.radians(35))) if tilt is None else tilt
        if flat and rng.random() < 0.7:  # against a die: squarely, somewhere along one of its sides
            other = flat[int(rng.integers(len(flat)))]
            away = other.yaw + int(rng.integers(4)) * math.pi / 2  # from the die lying flat towards this one
            face = other.x * math.cos(away) + other.y * math.sin(away) + DIE_MM / 2 + rng.uniform(0, 0.3)
            along = rng.uniform(-0.6, 0.6) * DIE_MM
            base = (other.x - along * math.sin(away), other.y + along * math.cos(away))
        else:  # against the tray's wall, the rim drawn round the floor 30 px beyond ``tray.area``
            side = int(rng.integers(4))
            inner = [(x0 - 30, y0 - 30), (x1 + 30, y0 - 30), (x1 + 30, y1 + 30), (x0 - 30, y1 + 30)]
            (ax, ay), (bx, by) = inner[side], inner[(side + 1) % 4]
            t = rng.uniform(0.1, 0.9)
            wall = np.array(tray.camera.table_point((ax + t * (bx - ax), ay + t * (by - ay))))
            ahead = np.array(tray.camera.table_point((ax + (t + 0.01) * (bx - ax), ay + (t + 0.01) * (by - ay))))
            run = (ahead - wall) / np.linalg.norm(ahead - wall)
            away = math.atan2(run[0], -run[1])  # clockwise on screen: the floor lies to the right of the run
            face = float(wall @ (math.cos(away), math.sin(away)))
            base = (float(wall[0]), float(wall[1]))
        u = np.array([math.cos(away), math.sin(away)])
        yaw = away + rng.normal(0, 0.03)  # about square to the face
        # tilting about its bottom edge along the face raises this die's bottom edge on the face's side
        upright = replace(pose, x=0.0, y=0.0, yaw=yaw, tilt=angle, tilt_axis=yaw + math.pi / 2)
        reach = float((_corners(upright, DIE_MM)[:, :2] @ u).min())  # the raised edge, nearest the face
        shift = face - reach - float(np.array(base) @ u)
        leaning = replace(upright, x=base[0] + shift * u[0], y=base[1] + shift * u[1])
        cx, cy = tray.center(leaning)
        if not (x0 - 20 <= cx <= x1 + 20 and y0 - 20 <= cy <= y1 + 20):
            continue
        mine = _footprint(leaning)
        if all(cv2.intersectConvexConvex(mine, _footprint(o))[0] <= 0.5 for o in others):
            return leaning
    return None


def leaning(tray: Tray, pose: DiePose) -> str:
    """Which way a die's top face leans from the point under the camera, within 60 degrees: ``"away"``,
    ``"towards"`` or else ``"sideways"`` (``"flat"`` when it is not cocked).

    >>> rng = np.random.default_rng(4)
    >>> tray = Tray.random(rng)
    >>> poses = lay_out(rng, tray)
    >>> leaning(tray, poses[0]), leaning(tray, cock(rng, tray, poses[0], poses[1:], tilt=math.radians(25)))
    ('flat', 'sideways')
    """
    if not pose.cocked:
        return "flat"
    turned = np.array([math.sin(pose.tilt_axis), -math.cos(pose.tilt_axis)])  # the top face's normal, leaning
    outward = np.array([pose.x, pose.y]) - np.array(tray.camera.position)
    cosine = float(turned @ outward) / max(float(np.linalg.norm(outward)), 1e-9)
    return "away" if cosine > 0.5 else "towards" if cosine < -0.5 else "sideways"


def _footprint(pose: DiePose) -> np.ndarray:
    """The floor a die takes: its bottom face's, or a cocked die's overhang too."""
    if pose.cocked:
        return cv2.convexHull(_corners(pose, DIE_MM)[:, :2].astype(np.float32)).reshape(-1, 2)
    return _corners(pose, DIE_MM)[:4, :2].astype(np.float32)


def _corners(pose: DiePose, side: float) -> np.ndarray:
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
    out: np.ndarray = placed + np.array([pose.x, pose.y, lift])
    return out


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    out: np.ndarray = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * k @ k
    return out


# faces of the cube as corner indices, counter-clockwise seen from outside, and the sticker drawn on each
_TOP = (4, 5, 6, 7)
_SIDES = ((0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def render(rng: np.random.Generator, tray: Tray, poses: Sequence[DiePose], glare: float = 0.35,
           shot: int = 0) -> np.ndarray:
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
        reach = np.vstack([camera.project(_corners(m, DIE_MM * 1.6)) for m in moves])
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


def _die_layer(tray: Tray, pose: DiePose, shape: tuple[int, ...], offset: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The die drawn alone in a region at ``offset``: premultiplied colour and alpha float images."""
    camera = tray.camera
    cube = _corners(pose, DIE_MM)
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
        cv2.fillConvexPoly(mask, np.round(quad * 4).astype(np.int32), 255, cv2.LINE_AA, 2)
        m = mask.astype(np.float32) / 255
        colour += (np.array(tray.ivory, np.float32) * shade * m[..., None]) * (1 - alpha[..., None])
        alpha += m * (1 - alpha)
        middle = pts.mean(axis=0)
        inset = middle + (pts - middle) * (STICKER_MM / DIE_MM)
        _paste_sticker(colour, (camera.project(inset) - offset).astype(np.float32), card, shade)
    return colour, alpha


@cache
def _texture(card: Card) -> np.ndarray:
    return face_image(card, TEXTURE).astype(np.float32)


def _paste_sticker(colour: np.ndarray, quad: np.ndarray, card: Card, shade: float) -> None:
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


def _shadow(roi: np.ndarray, tray: Tray, pose: DiePose, offset: np.ndarray) -> None:
    """A soft shadow on the tray, thrown away from the light."""
    lean = -tray.light[:2] / tray.light[2] * DIE_MM * 0.6
    foot = _corners(pose, DIE_MM * 1.05)[:4] + np.array([*lean, 0])
    quad = tray.camera.project(np.vstack([foot, _corners(pose, DIE_MM)[:4]])) - offset
    mask = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.round(quad).astype(np.int32)), 1.0)
    spread = max(1.0, float(np.linalg.norm(quad[0] - quad[2])) * 0.08)
    roi *= 1 - 0.45 * cv2.GaussianBlur(mask, (0, 0), spread)[..., None]


def _highlight(rng: np.random.Generator, roi: np.ndarray, tray: Tray, pose: DiePose, offset: np.ndarray) -> None:
    """A glossy highlight on part of the die's sticker."""
    quad = tray.camera.project(_corners(pose, STICKER_MM)[4:]) - offset
    side = float(np.linalg.norm(quad[1] - quad[0]))
    spot = quad.mean(axis=0) + rng.uniform(-0.45, 0.45, 2) * side
    mask = np.zeros(roi.shape[:2], np.float32)
    axes = (max(1, int(side * rng.uniform(0.08, 0.3))), max(1, int(side * rng.uniform(0.05, 0.2))))
    cv2.ellipse(mask, (int(spot[0]), int(spot[1])), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    roi += rng.uniform(30, 110) * cv2.GaussianBlur(mask, (0, 0), max(1.0, side * 0.06))[..., None]


# ----------------------------------------------------------------------------------------------- surfaces

def _noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> np.ndarray:
    """Smooth noise in about [-1, 1] with features ``scale`` pixels across."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2))).astype(np.float32)
    out: np.ndarray = np.clip(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / 2.5, -1, 1)
    return out


def _table(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A wooden table top around the tray."""
    h, w = shape
    base = np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 230)])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = np.sin((yy + 40 * _noise(rng, shape, 200)) / rng.uniform(5, 20)) * rng.uniform(0.05, 0.25)
    out: np.ndarray = np.clip(base * (1 - grain[..., None]) * rng.uniform(0.5, 1.0), 0, 255).astype(np.uint8)
    return out


def _surface(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """The tray floor: felt in a club colour, leather, cork, or a pale board."""
    kind = int(rng.integers(5))
    base = np.array([(40, 110, 30), (110, 60, 25), (35, 35, 130), (45, 45, 45), (150, 185, 205)][kind], np.float32)
    base = base * rng.uniform(0.6, 1.3)
    texture = 0.08 * _noise(rng, shape, 1.5) + 0.08 * _noise(rng, shape, 30)
    return np.clip(base * (1 + texture[..., None]), 0, 255).astype(np.uint8)


def _degrade(rng: np.random.Generator, f: np.ndarray, shot: int) -> np.ndarray:
    """Uneven light and colour cast, a hard shadow sometimes, focus blur, sensor noise, JPEG loss."""
    h, w = f.shape[:2]
    light = 1 + rng.uniform(0.1, 0.35) * _noise(rng, (h, w), rng.uniform(200, 600))
    f = f * light[..., None] * (rng.uniform(0.65, 1.1) * rng.uniform(0.88, 1.1, 3)).astype(np.float32)
    if rng.random() < 0.3:  # an arm's or a lamp's shadow across the tray
        mask = np.zeros((h, w), np.float32)
        cv2.fillPoly(mask, [(rng.uniform(0, 1, (4, 2)) * [w, h]).astype(np.int32)], 1.0)
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
