"""A camera's frames one after another: each frame's cards, read again only where the table changed.

A camera over a card table sees the same table frame after frame: a card is laid, a hand passes, the rest
lies still. ``LiveReader`` keeps the index corners it read and a coarse copy of the frame (each colour's
mean over cells of about ``CELL`` x ``CELL`` pixels of the frame as first read, ``cards.read_scale``). In
each new frame it finds the cells whose mean changed by more than camera noise (``CHANGE`` levels). A cell
changed to the colour of card paper or red ink may show a new index, and may alter the reading of an index
corner near it (within ``REACH`` of its size, where the corner's patch, its surroundings and the ink and
paper measured around them lie); a cell changed to anything else (a hand, a sleeve, the table) shows no
index, and alters only a corner whose middle it covers. Those corners are read again, and new ones looked
for, in crops: around the cells changed to paper's colour, as wide as a corner's reach, and around each
corner read again, as wide as its own. The corners of the whole table are then made into cards as
``read_cards`` makes them, so pairing corners, dropping outsized ones and reading each card once see the
whole table, as they do in a frame read whole.

A change to what has no paper's colour that has not yet lain still for ``SETTLE`` frames, with the cells just
beside it (a hand moving over the table, and its rim of skin and paper together), is passing. Nothing is read
there: the corners whose middle it covers are hidden (their cards are not given) and its cells are held as
they were, so that where it has gone the table is as it was and its corners are given again, unread. A hand
passing over a table full of cards so costs no reading at all. What stays (a hand at rest, the table where a
card was taken) is read once it has lain still, as above.

A frame larger than ``cards.MAX_SIDE`` (the Pi camera's 2304x1296) is read as ``read_cards`` reads it: found
scaled down, and read in detail, up to its own size, where its indices are small once scaled down
(``cards.detail_zoom``). The crops are then cut from the frame itself and read at that detail; the detail
is chosen again (the frame read whole) when the corners held call for one a quarter finer or coarser.

A frame like the last costs the coarse copy (about 0.6 ms at 1280x720, 2 ms at 2304x1296); a card laid
costs a crop around it; a frame mostly changed (the light), one whose crops would cover most of it, or one of
another size is read whole.

>>> import numpy as np
>>> live = LiveReader()
>>> live(np.full((720, 1280, 3), 90, np.uint8)), live.read_share
([], 1.0)
>>> live(np.full((720, 1280, 3), 92, np.uint8)), live.read_share  # two levels: camera noise
([], 0.0)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.cards import (
    Faces,
    as_read,
    at_scale,
    cards_of,
    checked_faces,
    detail_zoom,
    face_up,
    in_colour,
    read_frame,
    read_tiled,
    table_layout,
)
from vision.corners import Planes, channels, paper_coloured
from vision.indices import Corner
from vision.observations import CardSighting

CELL = 8
"""Pixels a side of the coarse copy's cells; in a frame read scaled down (``cards.read_scale``), this times the
whole number nearest to how many times it is scaled down (16 at 2304x1296), so that the cells are whole blocks
of the frame's own pixels, about ``CELL`` a side in the frame as first read."""
CHANGE = 6
"""Levels a cell's mean must change by, in some colour, to count as changed: camera noise averaged over a
cell is well under one level; a card's edge moved by one pixel changes its cells by about ten."""
REACH = 4.0
"""A corner is read again when a cell changed to paper's colour lies within this many times its scale
(rank-to-suit distance) of its middle, plus ``REACH_PIXELS`` (its patch and surroundings reach 3.6 scales),
or when its middle's own cell changed."""
REACH_PIXELS = 32
"""Pixels (as read) added to every corner's reach: the paper and ink nearby are measured over about this far."""
MOST = 0.5
"""When the crops (the boxes around the groups of cells to read again) would cover more than this share of the
frame, or more than this share of its cells changed, the whole frame is read instead."""
SETTLE = 5
"""Frames running a cell must not change for a change to what has no paper's colour to count as lying there
(a hand at rest, the table where a card was taken): before that, it is passing (a hand moving over the table)."""
REDETAIL = 1.25
"""The detail the corners held call for (``cards.detail_zoom``) may differ from the one they were read at by
up to this factor either way before the frame is read whole at the new one."""


class LiveReader:
    """``read_cards`` for a stream of frames: call it with each frame; ``read_share`` says how much of the
    last frame was read (0 when nothing changed, 1 when it was read whole); ``faces``: the deck's, as
    ``read_cards`` takes them."""

    def __init__(self, faces: Faces = "light") -> None:
        self.faces = checked_faces(faces)  # a wrong one raises here, not at the first frame
        self._coarse: NDArray[Any] | None = None  # the coarse copy the held corners are true of, cell by cell
        self._found: list[Corner] = []  # in the frame's pixels scaled by self._scale
        self._cards: list[CardSighting] = []
        self._seen: list[Corner] = []  # the corners self._cards are made of: those held, but for any hidden
        self._last: NDArray[Any] | None = None  # the last frame's coarse copy
        self._still = np.zeros((0, 0), np.uint8)  # frames running each cell has not changed, up to SETTLE
        self._shrink = 1.0  # the scale the frame is first read at (cards.read_scale)
        self._scale = 1.0  # the scale the held corners were read at: _shrink, or finer where read in detail
        self.read_share = 0.0

    def __call__(self, frame: NDArray[Any]) -> list[CardSighting]:
        """The cards in ``frame`` (as ``read_cards`` gives them); a bad frame raises as it does, and what
        is held stays as it was."""
        prepared = as_read(frame)
        if prepared is None:
            self._coarse, self._found, self._cards, self.read_share = None, [], [], 1.0
            return []
        full, shrink = prepared
        side = cell_side(shrink)
        coarse = cv2.resize(full, (-(-full.shape[1] // side), -(-full.shape[0] // side)), interpolation=cv2.INTER_AREA)
        last, self._last = self._last, coarse
        if self._coarse is None or last is None or self._coarse.shape != coarse.shape or shrink != self._shrink:
            self._read_whole(full, shrink, coarse)
            return self._cards
        self._still = np.where(_changed(coarse, last), 0, np.minimum(self._still + 1, SETTLE)).astype(np.uint8)
        changed = _changed(coarse, self._coarse)
        if not changed.any():
            self.read_share = 0.0
            return self._in_view(changed, full)
        scale = self._scale
        at = side * scale  # a cell's side, pixels as read
        # what has no paper's colour and has not lain still for SETTLE frames (a hand passing), and the paper
        # changed beside it (the hand's rim), is passing: the corners whose middle it covers are hidden, unread,
        # and its cells are held as they were, so that once it has gone the table is as it was, read as before
        paper = paper_coloured(Planes(face_up(coarse, self.faces))) != 0
        moving = (changed & ~paper & (self._still < SETTLE)).astype(np.uint8)
        passing = changed & (cv2.dilate(cv2.erode(moving, _SQUARE), _SQUARE, iterations=2) > 0)
        changed &= ~passing
        # a change to what has no paper's colour (a hand at rest, the table) shows no new index: only the
        # corners it covers are read again; a change to paper's colour may show one, and alter any near it
        covered = changed & ~paper
        shown = changed & paper
        # each cell's distance (pixels as read) to the nearest cell changed to paper's colour
        near = (cv2.distanceTransform((~shown).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_5) * at if shown.any()
                else np.full(changed.shape, np.inf, np.float32))
        # a corner hidden by what passes is not read: what changed beside it passes too, and is read once gone
        read_again = [not passing[cell] and (_touched(c, near, at) or bool(covered[cell]))
                      for c, cell in ((c, _cell(c, near.shape, at)) for c in self._found)]
        if not any(read_again) and not shown.any():
            self.read_share = 0.0
            self._coarse[changed] = coarse[changed]
            return self._in_view(passing, full)
        touched = [c for c, again in zip(self._found, read_again, strict=True) if again]
        widest = max(map(_reach, self._found), default=REACH_PIXELS)
        crops = _crops(near <= widest, touched, at)  # room for a new corner's reach, and each touched one's
        count, labels, boxes, _ = cv2.connectedComponentsWithStats(crops, connectivity=8)
        share = float((boxes[1:, 2] * boxes[1:, 3]).sum() / crops.size)
        if share > MOST or np.count_nonzero(changed) > MOST * changed.size:  # the crops, or the change (the light)
            self._read_whole(full, shrink, coarse)
            return self._cards
        held = [c for c, again in zip(self._found, read_again, strict=True) if not again]
        found = list(held)
        layout = table_layout(self._found)  # the deck's, once known: a crop is read that way alone
        for k in range(1, count):
            x, y, w, h = (int(v) * side for v in boxes[k, :4])
            for corner in read_tiled(face_up(at_scale(full[y:y + h, x:x + w], scale), self.faces), layout,
                                     confirm=self.faces == "dark"):
                corner = corner.moved((x * scale, y * scale))
                cell = _cell(corner, near.shape, at)
                # a corner read again where nothing near it changed is the one held
                if ((near[cell] <= widest or covered[cell]) and labels[cell] == k and not passing[cell]
                        and not any(corner.repeats(c) for c in held)):
                    found.append(corner)
        self.read_share = share
        self._coarse[changed] = coarse[changed]  # elsewhere, changes under CHANGE add up until they count
        wanted = detail_zoom([replace(c, scale=c.scale * shrink / scale) for c in found], shrink)
        if not scale / REDETAIL <= wanted <= scale * REDETAIL:
            self._read_whole(full, shrink, coarse)
            return self._cards
        self._found = found
        return self._in_view(passing, full)

    def _in_view(self, hidden: NDArray[Any], full: NDArray[Any]) -> list[CardSighting]:
        """The cards of the corners held whose middle no cell of ``hidden`` (bool, the coarse copy's cells) covers,
        made again only when those corners are not the ones the cards were last made of."""
        at = cell_side(self._shrink) * self._scale
        seen = [c for c in self._found if not hidden[_cell(c, hidden.shape, at)]]
        if len(seen) != len(self._seen) or any(a is not b for a, b in zip(seen, self._seen, strict=True)):
            self._seen, self._cards = seen, cards_of(seen, self._scale, in_colour(full))
        return self._cards

    def _read_whole(self, full: NDArray[Any], shrink: float, coarse: NDArray[Any]) -> None:
        found, self._scale, colour = read_frame(full, shrink, self.faces)
        self._found, self._seen = found, found
        self._cards = cards_of(found, self._scale, colour)
        self._coarse, self._shrink, self.read_share = coarse, shrink, 1.0
        self._still = np.zeros(coarse.shape[:2], np.uint8)


_SQUARE = np.ones((3, 3), np.uint8)


def _changed(coarse: NDArray[Any], before: NDArray[Any]) -> NDArray[Any]:
    """The cells (bool) of a coarse copy whose mean differs from ``before``'s by more than ``CHANGE`` in some colour."""
    b, g, r = channels(cv2.absdiff(coarse, before))
    changed: NDArray[Any] = cv2.max(b, cv2.max(g, r)) > CHANGE  # OpenCV's max: 20 times quicker than NumPy's
    return changed


def cell_side(shrink: float) -> int:
    """Pixels a side of the coarse copy's cells in a frame first read at ``shrink`` (``CELL``).

    >>> cell_side(1.0), cell_side(1280 / 2304), cell_side(1280 / 4000)
    (8, 16, 24)
    """
    return CELL * max(1, round(1 / shrink))


def _cell(corner: Corner, shape: tuple[int, ...], side: float) -> tuple[int, int]:
    """The coarse cell (row, column) of a corner's middle, inside a grid of ``shape`` of cells ``side`` pixels
    (as read) a side."""
    x, y = corner.middle
    return min(max(int(y // side), 0), shape[0] - 1), min(max(int(x // side), 0), shape[1] - 1)


def _reach(corner: Corner) -> float:
    """How far (pixels) from a corner's middle a change may alter its reading (``REACH``, ``REACH_PIXELS``)."""
    return REACH * corner.scale + REACH_PIXELS


def _crops(near: NDArray[Any], touched: list[Corner], side: float) -> NDArray[Any]:
    """The cells to read again (1, else 0): those of ``near`` (bool), and each touched corner's reach around
    its middle (cells ``side`` pixels as read a side).

    >>> corner = Corner(None, 0.9, np.array([80.0, 79.0]), np.array([0.0, 1.0]), 2.0)  # reach 40 pixels
    >>> int(_crops(np.zeros((20, 20), bool), [corner], 8.0).sum())  # 5 cells each way, and one more
    169
    """
    out = near.astype(np.uint8)
    for corner in touched:
        row, col = _cell(corner, near.shape, side)
        cells = int(_reach(corner) / side) + 1
        cv2.rectangle(out, (col - cells, row - cells), (col + cells, row + cells), 1, -1)
    return out


def _touched(corner: Corner, near: NDArray[Any], side: float) -> bool:
    """Whether a cell changed to paper's colour lies within the corner's reach (``near``: each cell's distance to
    one, cells ``side`` pixels a side)."""
    return bool(near[_cell(corner, near.shape, side)] <= _reach(corner))
