"""A camera's frames one after another: each frame's cards, read again only where the table changed.

A camera over a card table sees the same table frame after frame: a card is laid, a hand passes, the rest
lies still. ``LiveReader`` keeps the index corners it read and a coarse copy of the frame (each colour's
mean over cells of ``CELL`` x ``CELL`` pixels). In each new frame it finds the cells whose mean changed by
more than camera noise (``CHANGE`` levels); an index corner near one (within ``REACH`` of its size, where
the corner's patch, its surroundings and the ink and paper measured around them lie) is read again, from
a crop around the changed cells wide enough to hold such corners with their surroundings. The corners of
the whole table are then made into cards as ``read_cards`` makes them, so pairing corners, dropping
outsized ones and reading each card once see the whole table, as they do in a frame read whole.

A frame like the last costs the coarse copy (about 0.3 ms at 1280x720); a card laid costs a crop around
it; a frame mostly changed (a hand across the table, the light) or of another size is read whole.

>>> import numpy as np
>>> live = LiveReader()
>>> live(np.full((720, 1280, 3), 90, np.uint8)), live.read_share
([], 1.0)
>>> live(np.full((720, 1280, 3), 92, np.uint8)), live.read_share  # two levels: camera noise
([], 0.0)
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cards import Corner, Faces, cards_of, checked_faces, in_colour, read_corners, same_corner, scaled
from vision.observations import CardSighting

CELL = 8
"""Pixels a side of the coarse copy's cells (a multiple of 8, so a crop's coarse grids are the frame's)."""
CHANGE = 6
"""Levels a cell's mean must change by, in some colour, to count as changed: camera noise averaged over a
cell is well under one level; a card's edge moved by one pixel changes its cells by about ten."""
REACH = 4.0
"""A corner is read again when a changed cell lies within this many times its scale (rank-to-suit
distance) of its middle, plus ``REACH_PIXELS``: its patch and surroundings reach 3.6 scales."""
REACH_PIXELS = 32
"""Pixels added to every corner's reach: the paper and ink nearby are measured over about this far."""
MOST = 0.5
"""When the crops (each the box around a group of changed cells, widened) would cover more than this share of
the frame, the whole frame is read instead."""


class LiveReader:
    """``read_cards`` for a stream of frames: call it with each frame; ``read_share`` says how much of the
    last frame was read (0 when nothing changed, 1 when it was read whole); ``faces``: the deck's, as
    ``read_cards`` takes them."""

    def __init__(self, faces: Faces = "light") -> None:
        self.faces = checked_faces(faces)  # a wrong one raises here, not at the first frame
        self._coarse: NDArray[Any] | None = None  # the coarse copy the held corners are true of, cell by cell
        self._found: list[Corner] = []
        self._cards: list[CardSighting] = []
        self._shrink = 1.0
        self.read_share = 0.0

    def __call__(self, frame: NDArray[Any]) -> list[CardSighting]:
        """The cards in ``frame`` (as ``read_cards`` gives them); a bad frame raises as it does, and what
        is held stays as it was."""
        prepared = scaled(frame, self.faces)
        if prepared is None:
            self._coarse, self._found, self._cards, self.read_share = None, [], [], 1.0
            return []
        image, shrink = prepared
        coarse = cv2.resize(image, (-(-image.shape[1] // CELL), -(-image.shape[0] // CELL)),
                            interpolation=cv2.INTER_AREA)
        if self._coarse is None or self._coarse.shape != coarse.shape or shrink != self._shrink:
            self._read_whole(image, coarse, shrink)
            return self._cards
        changed = cv2.absdiff(coarse, self._coarse).max(axis=2) > CHANGE
        if not changed.any():
            self.read_share = 0.0
            return self._cards
        # each cell's distance (pixels) to the nearest changed cell
        near = cv2.distanceTransform((~changed).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) * CELL
        widest = max(map(_reach, self._found), default=REACH_PIXELS)
        crops = (near <= 2 * widest).astype(np.uint8)  # room for a touched corner's own reach
        count, labels, boxes, _ = cv2.connectedComponentsWithStats(crops, connectivity=8)
        share = float((boxes[1:, 2] * boxes[1:, 3]).sum() / crops.size)
        if share > MOST:
            self._read_whole(image, coarse, shrink)
            return self._cards
        held = [c for c in self._found if not _touched(c, near)]
        found = list(held)
        for k in range(1, count):
            x, y, w, h = (int(v) * CELL for v in boxes[k, :4])
            for corner in read_corners(image[y:y + h, x:x + w]):
                corner = corner.moved((x, y))
                cell = _cell(corner, near.shape)
                # a corner read again where nothing near it changed is the one held
                if (near[cell] <= widest and labels[cell] == k
                        and not any(same_corner(corner.rank, corner.scale, c.rank, c.scale) for c in held)):
                    found.append(corner)
        self.read_share = share
        self._coarse[changed] = coarse[changed]  # elsewhere, changes under CHANGE add up until they count
        self._found, self._cards = found, cards_of(found, shrink, in_colour(image))
        return self._cards

    def _read_whole(self, image: NDArray[Any], coarse: NDArray[Any], shrink: float) -> None:
        self._found = read_corners(image)
        self._cards = cards_of(self._found, shrink, in_colour(image))
        self._coarse, self._shrink, self.read_share = coarse, shrink, 1.0


def _cell(corner: Corner, shape: tuple[int, ...]) -> tuple[int, int]:
    """The coarse cell (row, column) of a corner's middle, inside a grid of ``shape``."""
    x, y = corner.middle
    return min(max(int(y // CELL), 0), shape[0] - 1), min(max(int(x // CELL), 0), shape[1] - 1)


def _reach(corner: Corner) -> float:
    """How far (pixels) from a corner's middle a change may alter its reading (``REACH``, ``REACH_PIXELS``)."""
    return REACH * corner.scale + REACH_PIXELS


def _touched(corner: Corner, near: NDArray[Any]) -> bool:
    """Whether a changed cell lies within the corner's reach (``near``: each cell's distance to one)."""
    return bool(near[_cell(corner, near.shape)] <= _reach(corner))
