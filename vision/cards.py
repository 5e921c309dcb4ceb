"""Find and read every face-up card in a camera frame: ``read_cards(frame) -> list[CardSighting]``.

Cards are found by their index corners, not their outlines, so a card shows up as long as one index
corner is visible: alone, fanned, overlapped in a meld, at any angle. This module takes a frame to the scale it
is read at (and in detail where its indices are small); ``vision.indices`` reads its index corners, and
``vision.sightings`` pairs them into cards.

1. ``vision.corners`` proposes rank-over-suit ink pairs on card paper, and ``vision.patches`` samples each as an
   upright patch;
2. the small ``vision.glyphs`` looks (pre-screens on cheap glances at each candidate, coarsest first)
   and screen (on its full patch) set aside the candidates that are surely not index corners; the
   reader network reads the rest as a rank and a suit, or "not an index"; a reading (and being an index at all) counts only if
   it holds, just as surely, when the patch is re-sampled a little larger and turned one way, and
   smaller and turned the other (a glyph unlike any the network learned rarely survives that), unless
   the first read is all but certain (``indices.FIRM``);
3. repeated reads of one corner are merged (if they disagree, the corner is unknown); an unknown corner
   whose suit pip is a read corner's is that pip paired with another mark, and is dropped; a "corner" far
   larger than every read index elsewhere in the frame is a card's big pips or print, and is dropped;
   the two corners of one card (opposite directions, across the card's diagonal) are merged into one
   sighting (if they read different cards, the card is unknown; if neither is read surely alone, their
   reads together may still read the card, see ``sightings._pooled``);
4. a corner that is surely an index but not surely read is shown to the expert (``glyphs.Reader.expert``,
   a wider network) at the same framings, and read if it reads it surely at each (``indices.EXPERT_SURE``), or if
   the second expert (``glyphs.Reader.second``, trained apart) or else the third (``glyphs.Reader.third``,
   wider still) reads the expert's first read so surely;
   otherwise it is reported as unknown (``card`` None), never guessed; anything less sure is dropped, so
   backs, chips and wood grain give no card at all. A ten the reader reads stands only where the expert
   reads it too (``indices.TEN``): a straight stroke beside a rank can pass for its "1"; so does any card it reads
   barely surely (``indices.LEAN``).

A deck with dark faces (light print on black paper) is read as its ``negative`` (``faces="dark"``): the reader
knows dark print on light paper only, and a frame cannot be read both ways in the time of one.

The centre and outline come from the corner's position, direction and scale (the card's median
proportions, learned with the network); ``zone`` is left None for the zone mapper.

>>> import numpy as np
>>> read_cards(np.full((720, 1280, 3), 90, np.uint8))
[]
>>> read_cards(np.zeros((0, 0, 3), np.uint8)), read_cards(np.zeros((32, 60_000, 3), np.uint8))
([], [])
>>> read_cards("frame.png")
Traceback (most recent call last):
...
TypeError: a frame is a numpy array (BGR image), not str
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Literal, get_args

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import corners, glyphs, sightings
from vision.indices import MIN_SIDE, Corner, Layout, read_corners
from vision.observations import CardSighting

Faces = Literal["light", "dark"]
"""What a deck's faces are: dark print on light paper (nearly every deck), or light print on dark paper (a black
deck with gold and silver print): read as its ``negative``."""
FACES: tuple[Faces, ...] = get_args(Faces)
DETAIL_INDEX = 24.0
"""Index size (pixels from rank mark to suit mark) a frame larger than ``MAX_SIDE`` is read at, from its full
detail, where scaling it down made its indices smaller (``detail_zoom``)."""
TILE, TILE_OVERLAP = 1280, 256
"""A frame read in detail is read in square tiles of this many pixels that overlap by this many (at least twice
the reach of an index corner's patch at ``DETAIL_INDEX``: about 2.5 of its sizes either way)."""
COLOUR_SEEN = 10
"""Levels (of 255) by which a frame's channels must differ, at over 1% of its pixels, for its colours to count as
seen (``in_colour``): the black-and-white photos of the real set differ by 0 to 6 at their 99th percentile, the
colour ones by 14 and more."""
MAX_SIDE = 1280
"""Larger frames are scaled down to this long side first (cards stay readable; time stays bounded)."""
SHARP_SCALE = 0.5
"""An image scaled by more than this (less than halved) is interpolated, not averaged (``at_scale``): each new pixel
then covers under two old ones each way, so averaging blurs it little, and OpenCV averages at such a scale six times
slower than it interpolates (7 ms against 1 for a 1200x800 crop at 0.86: up to a quarter of a live frame's time
at the Pi camera's size)."""
CLEAR_INDEX = 18.0
"""Index corners at least this many pixels from rank mark to suit mark, in the frame as read (``scaled``), read
as surely as larger ones; smaller ones are missed or left unknown more and more often. On 400 held-out tables
(half of them with the hard cases), the cards read right by their index's size: 32% under 10 px, 48% at 10-12,
63% at 12-14, 73% at 14-16, 77% at 16-18, and 84-89% in each band from 18 to 99 px (where what is lost is lost to
hands, chips and overlap, not size). A card is about 8.4 such distances tall (the reader's median geometry)."""



def read_cards(frame: NDArray[Any], faces: Faces = "light") -> list[CardSighting]:
    """Every face-up card in a BGR (or grey) frame of any size, read or reported as unknown (every card of a
    frame without colour: ``in_colour``); ``faces``: the deck's (``Faces``)."""
    checked_faces(faces)  # before any work
    prepared = as_read(frame)
    if prepared is None:
        return []
    return cards_of(*read_frame(*prepared, faces))


def read_frame(full: NDArray[Any], shrink: float, faces: Faces = "light") -> tuple[list[Corner], float, bool]:
    """The index corners of a frame (``as_read``: at its own size, read at ``shrink``), the scale they were read at
    and whether the frame shows colour: the frame is read scaled by ``shrink`` (turned ``face_up``), and again in
    detail where its indices are small once scaled down (``detail_zoom``: a frame larger than ``MAX_SIDE``), where
    suit shapes with their ranks knocked out are not sought again: any there is large enough to be found scaled."""
    image, negative = face_up(at_scale(full, shrink), faces), faces == "dark"
    found, colour = read_corners(image, confirm=negative), in_colour(image)
    zoom = detail_zoom(found, shrink)
    if zoom > shrink:
        detail = face_up(at_scale(full, zoom), faces)
        return read_tiled(detail, table_layout(found), shapes=False, confirm=negative), zoom, colour
    return found, shrink, colour


def detail_zoom(found: list[Corner], shrink: float) -> float:
    """The scale a frame read at ``shrink`` (``scaled``) is read again at, in tiles (``read_tiled``), so that
    its small indices measure ``DETAIL_INDEX`` (at most its own size: 1.0), going by the smallest tenth of the
    corners found, read or not (the smallest are the least often read; none found, its own size); ``shrink``
    itself where that is not a quarter larger.

    >>> from scoring.cards import Card
    >>> up = np.array([0.0, 1.0])
    >>> detail_zoom([Corner(None, 0.9, np.zeros(2), up, s) for s in (12.0, 12.0, 40.0)], 0.25)
    0.5
    >>> detail_zoom([Corner(Card.parse("TH"), 0.9, np.zeros(2), up, 40.0)], 0.25), detail_zoom([], 0.5), detail_zoom([], 1.0)
    (0.25, 1.0, 1.0)
    """
    if shrink >= 1.0:
        return shrink
    scales = [c.scale for c in found]
    zoom = min(1.0, shrink * DETAIL_INDEX / float(np.percentile(scales, 10))) if scales else 1.0
    return zoom if zoom > 1.25 * shrink else shrink


def read_tiled(image: NDArray[Any], layout: Layout | None = None, shapes: bool = True,
               confirm: bool = False) -> list[Corner]:
    """``read_corners`` of an image of any size (in the table's ``layout``, where known; ``shapes`` and ``confirm``: as
    there), in tiles of ``TILE`` pixels overlapping by ``TILE_OVERLAP``: each corner is taken from the tile whose middle
    part (up to halfway across each overlap) holds its rank mark, so a corner is read whole and once.

    >>> read_tiled(np.full((1500, 3000, 3), 120, np.uint8))
    []
    """
    h, w = image.shape[:2]
    found: list[Corner] = []
    for y, y0, y1 in _tiles(h):
        for x, x0, x1 in _tiles(w):
            for corner in read_corners(image[y:y + TILE, x:x + TILE], layout, shapes, confirm):
                corner = corner.moved((x, y))
                if x0 <= corner.rank[0] < x1 and y0 <= corner.rank[1] < y1:
                    found.append(corner)
    return found


def _tiles(length: int) -> list[tuple[int, float, float]]:
    """Where tiles of ``TILE`` start along a side of ``length`` pixels, each with the part of the side it reads
    for (from, to): evenly spread, overlapping by ``TILE_OVERLAP`` or more, each reading up to the middle of
    its overlaps.

    >>> _tiles(1000), _tiles(2500)
    ([(0, 0, 1000)], [(0, 0, 945.0), (610, 945.0, 1555.0), (1220, 1555.0, 2500)])
    """
    count = max(1, -(-(length - TILE_OVERLAP) // (TILE - TILE_OVERLAP)))
    starts = np.linspace(0, max(0, length - TILE), count).round().astype(int).tolist()
    bounds = [0, *((a + TILE + b) / 2 for a, b in zip(starts, starts[1:], strict=False)), length]
    return [(x, bounds[k], bounds[k + 1]) for k, x in enumerate(starts)]


def in_colour(image: NDArray[Any]) -> bool:
    """Whether a BGR frame shows colour: its channels differ by ``COLOUR_SEEN`` or more at over 1% of its
    pixels (one in 8 each way is looked at). A black-and-white frame shows no suit's colour.

    >>> grey, tinted = np.full((64, 64, 3), 90, np.uint8), np.full((64, 64, 3), (90, 90, 140), np.uint8)
    >>> in_colour(grey), in_colour(tinted)
    (False, True)
    """
    b, g, r = corners.channels(np.ascontiguousarray(image[::8, ::8]))  # OpenCV's max and min: 7 times quicker than NumPy's here
    spread = cv2.subtract(cv2.max(b, cv2.max(g, r)), cv2.min(b, cv2.min(g, r)))
    return bool(np.count_nonzero(spread >= COLOUR_SEEN) > 0.01 * spread.size)


def scaled(frame: NDArray[Any], faces: Faces = "light") -> tuple[NDArray[Any], float] | None:
    """The frame as it is first read (``as_read``, scaled down to ``MAX_SIDE``, turned ``face_up``) and the factor
    it was scaled by; None when it is too small to hold a card.

    >>> image, shrink = scaled(np.zeros((1440, 2560), np.uint8))
    >>> image.shape, shrink
    ((720, 1280, 3), 0.5)
    """
    checked_faces(faces)  # before any work
    prepared = as_read(frame)
    return None if prepared is None else (face_up(at_scale(*prepared), faces), prepared[1])


def as_read(frame: NDArray[Any]) -> tuple[NDArray[Any], float] | None:
    """The frame as 3-channel uint8 at its own size and the factor it is first read at (``read_scale``); None
    when it is too small to hold a card. A frame that is not an image raises TypeError or ValueError saying why.

    >>> image, shrink = as_read(np.zeros((1440, 2560), np.uint8))
    >>> image.shape, shrink, as_read(np.zeros((32, 60_000), np.uint8))
    ((1440, 2560, 3), 0.5, None)
    """
    image = _as_bgr(frame)
    if image is None:
        return None
    shrink = read_scale(image.shape)
    if min(image.shape[:2]) * shrink < MIN_SIDE:
        return None  # a strip so long and thin that, scaled down, it is too narrow to hold a card
    return image, shrink


def checked_faces(faces: str) -> Faces:
    """``faces`` as a ``Faces``; a ValueError naming the choices when it is none of them.

    >>> checked_faces("dark")
    'dark'
    >>> checked_faces("shiny")
    Traceback (most recent call last):
    ...
    ValueError: faces is one of light, dark, not 'shiny'
    """
    for choice in FACES:
        if faces == choice:
            return choice
    raise ValueError(f"faces is one of {', '.join(FACES)}, not {faces!r}")


def face_up(image: NDArray[Any], faces: Faces) -> NDArray[Any]:
    """A BGR image as the reader reads a deck with ``faces`` (checked where it was given: ``checked_faces``): as it
    is for light faces, its ``negative`` for dark."""
    return negative(image) if faces == "dark" else image


def negative(image: NDArray[Any]) -> NDArray[Any]:
    """A BGR image with its lightness turned over and its colours kept (YCrCb's Y inverted): a dark card's light
    print on black becomes dark print on light paper, and its gold (the red suits' print) stays warm, where plain
    inversion would turn it blue and red suits would read as black ones.

    >>> [int(v) for v in negative(np.array([[[20, 20, 20], [235, 235, 235]]], np.uint8)).reshape(-1)[::3]]
    [235, 20]
    >>> b, g, r = (int(v) for v in negative(np.array([[[40, 160, 200]]], np.uint8))[0, 0])  # gold
    >>> r > g > b
    True
    """
    ycc = cv2.cvtColor(image, cv2.COLOR_BGR2YCrCb)
    ycc[..., 0] = 255 - ycc[..., 0]
    return cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)


def at_scale(image: NDArray[Any], factor: float) -> NDArray[Any]:
    """The image scaled by ``factor`` (at most 1): averaged over the pixels each new one covers where it is halved
    or more (``SHARP_SCALE``), interpolated between the nearest four where it shrinks less.

    >>> at_scale(np.zeros((1440, 2560, 3), np.uint8), 0.5).shape, at_scale(np.zeros((1296, 2304, 3), np.uint8), 0.86).shape
    ((720, 1280, 3), (1115, 1981, 3))
    """
    if factor == 1.0:
        return image
    way = cv2.INTER_LINEAR if factor > SHARP_SCALE else cv2.INTER_AREA
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=way)


def read_scale(shape: tuple[int, ...]) -> float:
    """The factor a frame of ``shape`` is scaled by to be read (``MAX_SIDE``).

    >>> read_scale((1080, 1920, 3)), read_scale((720, 1280))
    (0.6666666666666666, 1.0)
    """
    return min(1.0, MAX_SIDE / max(shape[:2]))


def index_note(seen: list[CardSighting], shape: tuple[int, ...]) -> str | None:
    """A word for whoever places the camera when the indices of the cards read in a frame of ``shape`` are,
    at their median and as read, smaller than ``CLEAR_INDEX``; None when they are not, or no card was read.
    A frame larger than ``MAX_SIDE`` is read scaled down, and again in detail up to its own size where that
    made its indices smaller than ``DETAIL_INDEX`` (``read_cards``).

    >>> from scoring.cards import Card
    >>> seen = [CardSighting(Card.parse("TH"), (0.0, 0.0), (), 0.99, index_size=26.0)]
    >>> index_note(seen, (1440, 2560, 3)) is None, index_note(seen, (720, 1280, 3)) is None
    (True, True)
    >>> print(index_note([replace(seen[0], index_size=14.0)], (1440, 2560, 3)))
    index corners 14 px from rank to suit as read (under 18 read less surely): lower the camera or frame less of the table
    """
    sizes = [s.index_size for s in seen if s.card is not None and s.index_size is not None]
    if not sizes:
        return None
    native = float(np.median(sizes))
    size = min(native, max(native * read_scale(shape), DETAIL_INDEX))
    if size >= CLEAR_INDEX:
        return None
    return (f"index corners {size:.0f} px from rank to suit as read (under {CLEAR_INDEX:.0f} read less surely): "
            "lower the camera or frame less of the table")


def cards_of(found: list[Corner], shrink: float = 1.0, colour: bool = True) -> list[CardSighting]:
    """The cards of the index corners read in a frame scaled by ``shrink`` (``scaled``), in the frame's
    own coordinates; each unknown where the frame has no ``colour`` (a suit's colour not seen is not
    guessed). The corners are taken top to bottom, left to right, so the cards do not hang on the
    order they were read in (a frame read in parts gives the cards of the frame read whole)."""
    found = _one_layout(found)
    cards = sightings.assemble(sorted(found, key=lambda c: (float(c.rank[1]), float(c.rank[0]))), glyphs.load().geometry)
    if not colour:
        cards = [replace(c, card=None) for c in cards]
    return cards if shrink == 1.0 else [sightings.rescaled(c, 1 / shrink) for c in cards]


def table_layout(found: list[Corner]) -> Layout | None:
    """The layout most of a table's read corners show (``Corner.layout``); None where two show it as often (none read).

    >>> from scoring.cards import Card
    >>> up = np.array([0.0, 1.0])
    >>> below, beside = Corner(Card.parse("9H"), 0.9, np.zeros(2), up, 20.0), Corner(Card.parse("8S"), 0.9, np.zeros(2), up, 20.0, across=50.0)
    >>> inside = Corner(Card.parse("7D"), 0.9, np.zeros(2), up, 20.0, shape=90.0)
    >>> table_layout([below, beside]), table_layout([below, beside, beside]), table_layout([below, below, beside, inside])
    (None, 'beside', 'below')
    >>> table_layout([inside, below, inside]), table_layout([])
    ('inside', None)
    """
    votes = Counter(c.layout for c in found if c.card is not None).most_common(2)
    return votes[0][0] if votes and (len(votes) == 1 or votes[0][1] > votes[1][1]) else None


def _one_layout(found: list[Corner]) -> list[Corner]:
    """The corners of the table's layout (``table_layout``; a suit below its rank where none is known). A table is
    dealt from one deck, which prints its indices one way: a rank read with some other mark beside it on a table
    of indices with their suits below (a pip, a word of a newspaper) is no card, nor is a rank read with some mark
    below it on a table of indices with their suits beside."""
    layout = table_layout(found) or "below"
    return [c for c in found if c.layout == layout]


def _as_bgr(frame: object) -> NDArray[Any] | None:
    """The frame as a contiguous 3-channel uint8 image; None when it is too small to hold a card."""
    if not isinstance(frame, np.ndarray):
        raise TypeError(f"a frame is a numpy array (BGR image), not {type(frame).__name__}")
    if frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] not in (1, 3, 4)):
        raise ValueError(f"a frame is an HxW grey or HxWx3 BGR image, not an array of shape {frame.shape}")
    if frame.dtype != np.uint8:
        raise ValueError(f"a frame holds 8-bit pixels (uint8), not {frame.dtype}")
    if min(frame.shape[:2]) < MIN_SIDE:
        return None
    if frame.ndim == 2 or frame.shape[2] == 1:
        return cv2.cvtColor(frame.reshape(frame.shape[:2]), cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(frame)


