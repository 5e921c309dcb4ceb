"""Random dice trays and rolls: the training, test and benchmark data of the dice reader.

A tray (:func:`random_tray`: the camera's height and tilt, a wooden table, the floor's felt, leather, cork
or board, the light) is drawn by ``device.demo.dice_drawing``, as the demo draws its dice. A roll is laid out
once (:func:`lay_out`) and drawn as often as wanted (``dice_drawing.render``): a re-roll keeps the kept dice's
poses. A die can be rolling or cocked (:func:`cock`: one edge on the floor, the other wedged against a die
lying flat or the tray's wall).

>>> from device.demo.dice_drawing import render
>>> rng = np.random.default_rng(3)
>>> tray = random_tray(rng)
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
from dataclasses import replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from device.demo.dice_drawing import TILT_SLIGHT, DiePose, Pinhole, Tray, cube_corners, smooth_noise
from scoring.cards import Card
from scoring.pinzique_guide import ScoreGuide, load_guide
from vision.dice_faces import DIE_MM

SIZE = (720, 1280)
"""Frames are this size (height, width), the camera's 720p."""


def random_tray(rng: np.random.Generator, guide: ScoreGuide | None = None, size: tuple[int, int] = SIZE,
                scale: tuple[float, float] = (2.0, 3.6)) -> Tray:
    """A random tray whose dice show ``scale`` pixels per millimetre (a 16 mm die 32 to 58 px across)."""
    h, w = size
    height = float(rng.uniform(450, 900))
    focal = float(rng.uniform(*scale)) * height
    a, b = rng.normal(0, math.radians(4), 2)
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    down = np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, -1]])  # looking down: depth is height - z
    camera = Pinhole(focal, height, rx @ ry @ down, (w / 2 + rng.normal(0, 10), h / 2 + rng.normal(0, 10)),
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
    >>> tray = random_tray(rng)
    >>> poses = lay_out(rng, tray)
    >>> leaning = cock(rng, tray, poses[0], poses[1:], tilt=math.radians(25))
    >>> leaning.cocked, round(math.degrees(leaning.tilt)), abs(float(cube_corners(leaning, DIE_MM)[:, 2].min())) < 1e-9  # on an edge
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
        reach = float((cube_corners(upright, DIE_MM)[:, :2] @ u).min())  # the raised edge, nearest the face
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
    >>> tray = random_tray(rng)
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


def _footprint(pose: DiePose) -> NDArray[Any]:
    """The floor a die takes: its bottom face's, or a cocked die's overhang too."""
    if pose.cocked:
        return cv2.convexHull(cube_corners(pose, DIE_MM)[:, :2].astype(np.float32)).reshape(-1, 2)
    return cube_corners(pose, DIE_MM)[:4, :2].astype(np.float32)


def _table(rng: np.random.Generator, shape: tuple[int, int]) -> NDArray[Any]:
    """A wooden table top around the tray."""
    h, w = shape
    base = np.array([rng.uniform(60, 150), rng.uniform(100, 180), rng.uniform(150, 230)])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    grain = np.sin((yy + 40 * smooth_noise(rng, shape, 200)) / rng.uniform(5, 20)) * rng.uniform(0.05, 0.25)
    out: NDArray[Any] = np.clip(base * (1 - grain[..., None]) * rng.uniform(0.5, 1.0), 0, 255).astype(np.uint8)
    return out


def _surface(rng: np.random.Generator, shape: tuple[int, int]) -> NDArray[Any]:
    """The tray floor: felt in a club colour, leather, cork, or a pale board."""
    kind = int(rng.integers(5))
    base = np.array([(40, 110, 30), (110, 60, 25), (35, 35, 130), (45, 45, 45), (150, 185, 205)][kind], np.float32)
    base = base * rng.uniform(0.6, 1.3)
    texture = 0.08 * smooth_noise(rng, shape, 1.5) + 0.08 * smooth_noise(rng, shape, 30)
    return np.clip(base * (1 + texture[..., None]), 0, 255).astype(np.uint8)
