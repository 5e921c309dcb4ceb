"""Drawing what ``tablescore recognize`` read onto its image (``--draw OUT``): the zones, and each card
read (green) or not read surely (red), labelled."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from device.recognize_command import Recognized, RecognizeError

if TYPE_CHECKING:
    import numpy.typing as npt

    from device.recognize_command import Image

ZONE_COLOUR = (0, 200, 255)
READ_COLOUR = (60, 220, 60)
UNKNOWN_COLOUR = (40, 40, 255)


def draw(result: Recognized) -> Image:
    """The image with its zones (yellow), read cards (green) and unknown cards (red) drawn on it."""
    canvas = result.frame.copy()
    scale = max(canvas.shape[:2]) / 1600
    thick = max(1, round(2 * scale))
    names = [zone.name for zone in result.calibration.zones]
    for zone in result.calibration.zones:
        seen = result.calibration.to_image(zone.polygon)
        if np.isnan(seen).any():  # part of the zone lies beyond the camera's horizon
            continue
        corners = np.round(seen).astype(np.int32)
        cv2.polylines(canvas, [corners], True, ZONE_COLOUR, max(1, thick // 2), cv2.LINE_AA)
        if not any(name.startswith(zone.name + ".") for name in names):  # label the innermost zones
            room = int(np.ptp(corners[:, 0])) - 4
            size = max(0.5 * scale, SMALLEST)
            label = zone.name if text_size(zone.name, size)[0] <= room else short_name(zone.name)
            label_at(canvas, label, corners.mean(axis=0), ZONE_COLOUR, size)
    for card in result.cards:
        colour = READ_COLOUR if card.card else UNKNOWN_COLOUR
        if len(card.outline) >= 2:
            outline = np.round(np.array(card.outline)).astype(np.int32)
            cv2.polylines(canvas, [outline], True, colour, thick, cv2.LINE_AA)
        cv2.circle(canvas, tuple(int(round(v)) for v in card.center), thick * 2, colour, -1, cv2.LINE_AA)
        label_at(canvas, f"{card.code} {card.zone or '-'}", np.array(card.center), colour, 0.7 * scale)
    return canvas


SMALLEST = 0.35
"""The smallest text size drawn (OpenCV font scale): still readable."""


def short_name(zone: str) -> str:
    """A zone's name short enough for a narrow zone.

    >>> short_name("seat2.middle"), short_name("seat1"), short_name("crib")
    ('2m', '1', 'crib')
    """
    if not zone.startswith("seat"):
        return zone
    number, _, row = zone[4:].partition(".")
    return number + row[:1]


def text_size(text: str, size: float) -> tuple[int, int, int]:
    """The width, height and baseline of ``text`` drawn at ``size``."""
    (width, height), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, max(1, round(size * 2)))
    return width, height, base


def label_at(canvas: Image, text: str, where: npt.NDArray[Any], colour: tuple[int, int, int], size: float) -> None:
    """Write ``text`` centred on ``where``, on a dark box so it shows on any table."""
    size = max(size, SMALLEST)
    weight = max(1, round(size * 2))
    w, h, base = text_size(text, size)
    x, y = int(where[0] - w / 2), int(where[1] + h / 2)
    cv2.rectangle(canvas, (x - 2, y - h - 2), (x + w + 2, y + base), (0, 0, 0), -1)
    cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, colour, weight, cv2.LINE_AA)


def write_drawing(result: Recognized, out: Path) -> None:
    """Write the annotated image to ``out`` (making its folder when OUT is a folder)."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        written = cv2.imwrite(str(out), draw(result))
    except (OSError, cv2.error) as error:
        raise RecognizeError(f"cannot write the drawing {out}: {error}") from None
    if not written:
        raise RecognizeError(f"cannot write the drawing {out}")
