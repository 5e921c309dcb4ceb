"""Real labelled photos of cards as training and benchmark data (``../shared/data/real-cards-cardcounter``).

The data set labels each photo with a box around each visible index corner of the cards it shows
(``boxes.json``: code, centre x and y, width and height, relative to the image), its kind (``kinds.json``) and a
fixed split (``split.json``: fit on ``train`` only, report on ``test``). ``Photo`` holds one photo's
labels; ``photos`` reads the set, ``image`` a photo; ``group`` names the kinds the figures are reported by.

>>> Photo("WIN_1.jpg", "webcam-table+aug", "test", (("TC", (0.5, 0.5, 0.1, 0.2)),)).group
'webcam-table'
>>> Photo("IMG_7801.jpg", "phone+aug", "test", ()).group, Photo("IMG_7801.jpg", "phone+aug+gray", "test", ()).group
('dark', 'gray')
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-cards-cardcounter"
COLOUR_LIGHT = ("phone", "webcam-table", "webcam-held")
"""The groups of colour photos of light-faced decks: what the device's colour camera sees of an ordinary deck."""

Box = tuple[float, float, float, float]  # centre x, centre y, width, height, as shares of the image's size


@dataclass(frozen=True)
class Photo:
    """One labelled photo: its file name, kind, split and index-corner boxes (code, ``Box``)."""

    name: str
    kind: str
    split: str
    boxes: tuple[tuple[str, Box], ...]

    @property
    def group(self) -> str:
        """The group the figures report it in: ``gray`` (a black-and-white photo), ``dark`` (the black-and-gold
        deck, the iPhone's ``IMG_NNNN`` photos), else its kind without ``+aug``."""
        if "gray" in self.kind:
            return "gray"
        if re.fullmatch(r"IMG_\d{4}\.jpg", self.name):
            return "dark"
        return self.kind.removesuffix("+aug")

    @property
    def codes(self) -> list[str]:
        """The cards it shows, each once, in the order their first corner is labelled."""
        return list(dict.fromkeys(code for code, _ in self.boxes))

    def corners(self, code: str, width: int, height: int) -> list[tuple[float, float, float, float]]:
        """The pixel boxes (x0, y0, x1, y1) of one card's labelled corners in an image of ``width`` x ``height``.

        >>> Photo("a.jpg", "phone", "test", (("TC", (0.5, 0.5, 0.25, 0.5)),)).corners("TC", 100, 50)
        [(37.5, 12.5, 62.5, 37.5)]
        """
        return [((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height)
                for c, (cx, cy, w, h) in self.boxes if c == code]


def photos(data: Path = DATA, split: str | None = None) -> list[Photo]:
    """The labelled photos of ``data`` (those of ``split`` only, when given), by name."""
    kinds = json.loads((data / "kinds.json").read_text())
    splits = json.loads((data / "split.json").read_text())
    boxes = json.loads((data / "boxes.json").read_text())
    found = []
    for name in sorted(boxes):
        if split is not None and splits[name] != split:
            continue
        corners = tuple((code, (cx, cy, w, h)) for code, cx, cy, w, h in boxes[name])
        found.append(Photo(name, kinds[name], splits[name], corners))
    return found


def image(data: Path, photo: Photo) -> NDArray[np.uint8]:
    """The photo's picture (BGR), as OpenCV reads it."""
    path = data / "images" / photo.name
    picture = cv2.imread(str(path))
    if picture is None:
        raise FileNotFoundError(f"cannot read the photo {path}")
    return np.asarray(picture, np.uint8)
