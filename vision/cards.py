"""Find and read every face-up card in a camera frame: ``read_cards(frame) -> list[CardSighting]``.

Cards are found by their index corners, not their outlines, so a card shows up as long as one index
corner is visible: alone, fanned, overlapped in a meld, at any angle.

1. ``vision.corners`` proposes rank-over-suit ink pairs on card paper and samples each as an upright
   patch;
2. the small ``vision.glyphs`` looks (pre-screens on cheap glances at each candidate, coarsest first)
   and screen (on its full patch) set aside the candidates that are surely not index corners; the
   reader network reads the rest as a rank and a suit, or "not an index"; a reading (and being an index at all) counts only if
   it holds, just as surely, when the patch is re-sampled a little larger and turned one way, and
   smaller and turned the other (a glyph unlike any the network learned rarely survives that), unless
   the first read is all but certain (``FIRM``);
3. repeated reads of one corner are merged (if they disagree, the corner is unknown); an unknown corner
   whose suit pip is a read corner's is that pip paired with another mark, and is dropped; a "corner" far
   larger than every read index elsewhere in the frame is a card's big pips or print, and is dropped;
   the two corners of one card (opposite directions, across the card's diagonal) are merged into one
   sighting (if they read different cards, the card is unknown; if neither is read surely alone, their
   reads together may still read the card, see ``_pooled``);
4. a corner that is surely an index but not surely read is shown to the expert (``glyphs.Reader.expert``,
   a wider network) at the same framings, and read if it reads it surely at each (``EXPERT_SURE``), or if
   the second expert (``glyphs.Reader.second``, trained apart) or else the third (``glyphs.Reader.third``,
   wider still) reads the expert's first read so surely;
   otherwise it is reported as unknown (``card`` None), never guessed; anything less sure is dropped, so
   backs, chips and wood grain give no card at all. A ten the reader reads stands only where the expert
   reads it too (``TEN``): a straight stroke beside a rank can pass for its "1".

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

import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card, Rank
from vision import corners, glyphs, knockouts
from vision.observations import CardSighting

READ_SURE = 0.75
"""A corner counts as read when both its rank and its suit are at least this probable."""
INDEX_SURE = 0.9
"""A corner not read surely is reported as an unknown card only when it is at least this surely an index."""
EXPERT_SURE = 0.9
"""A corner the reader cannot read surely counts as read by the expert when the expert reads it at least this
surely at each framing: stricter than ``READ_SURE``, the expert reads only what the reader found hard.
On the corners the reader left unknown in 400 validation scenes (held-out fonts, half of them with the hard
cases), it read 236 of 522 index corners right and 7 wrong (and none of 11 "not an index" as a card); at 0.95,
194 right and 5 wrong; at 0.75, 295 and 13 (and 2 "not an index").

A corner the expert reads, but not this surely, is read when the second expert reads it as the expert's first
read did, this surely at each framing. On two sets of 400 held-out scenes (seeds apart from the benchmark's)
that read 23 more cards right and 2 fewer wrong: 1600 / 6 / 131 unknown and 1576 / 15 / 147 before, 1609 / 6 /
122 and 1590 / 13 / 136 after. The second expert was fitted as the expert was, going on from it, on the rows
chosen by a reader trained 16 epochs further (see ``tools.cards.train``). Where the second does not, the third
expert may, as surely: a network of twice the expert's widths, trained apart from both (decision record 0016).
As the expert itself it read 2 more of the real photos' test split than as the third, but 2 wrong; as the
confirmer after the second it reads 1 more there than without it, none wrong, and 11 more of the held-out decks."""
TEN = glyphs.RANKS.index(Rank.TEN)
"""The ten's head index. A ten the reader reads surely stands only where the expert reads the same card at
``EXPERT_SURE``, as a suit beside its rank does (a layout neither network was fitted on): any straight stroke
beside a rank (a card's edge, a frame) can stand for its "1". The held-out decks' queens beside a dark outline
read as tens: 10 of 1,123 cards wrong without this rule, 2 with it. A ten that two unknown corners read together
(``_pooled``) must be as sure."""
VARIANTS = ((1.08, 0.07), (0.92, -0.07))
"""(scale factor, turn in radians) of the re-reads a reading must survive."""
FIRM = 0.9999
"""A first read at least this sure (rank and suit) is not re-read: it stands for its re-reads. On 500 validation
scenes (held-out fonts, half of them with the hard cases) the reads were the same card for card as with every
corner re-read, with 38% fewer re-reads (at 0.999, one more card read right and two more phantoms)."""
SCALE_SPREAD = 1.6
"""A corner more than this many times the size of every read index elsewhere in the frame is not an index.

One table plays one deck design, whose indices differ in size by perspective alone: at most 1.51 times
the largest other read index in the 363 real photos (many tilted phone shots; 1.4 times between the two
corners of one card); the big pips of a card (or a newspaper's headline) read as an index are 1.7 to 2
times it. The cost: a jumbo-index card on a table of small-index ones is dropped too (the synthetic
tables mix two designs: 4 of 2,940 read cards on 600 held-out tables and 3 of 1,842 on 400 hard ones,
each placed far off by its oversized index anyway, against 2 and 3 phantoms gone)."""
PAIR_REACH = 1.4
"""Two corners pair as one card's when their offset, in index units, is up to this many times the median card's
(and at least 0.4 times): see ``_corner_pairs``."""
SAME_CARD_REACH = 2.5
"""``PAIR_REACH`` for two corners that read the same card. On two sets of 400 held-out synthetic tables (seeds
apart from the benchmark's) it took one phantom away from the first (a two of spades with small indices, reported
at each corner) and read one more card right in the second (unknown before); nothing else changed there, on the
benchmark's tables or on the real photos."""
SHARED_PIP = 0.25
"""An unknown corner whose suit mark lies within this share of its scale of a read corner's suit mark is that
read index's pip paired with some other mark (a big pip, a hidden rank): one pip belongs to one index. It dropped
2 of the benchmark's 3 synthetic phantoms, and 2 phantom unknowns on 1,000 validation scenes, no other card."""
SAME_CORNER = 0.7
"""Two reads whose rank marks lie closer than this many times the larger scale are reads of one corner."""
FAN = (0.94, 1.3, 6.0)
"""Two read corners may be corners of one fan's (or row's) cards when they face ways at most 20 degrees apart (the
cosine), one's scale is at most the second figure times the other's, and they lie less than the third figure times
their mean scale apart (``fan_corners``)."""
BESIDE_INSET = 0.6
"""How far in from its card's side and top a rank mark whose suit is printed beside it lies, in index units (a
rank's size is 0.8 of one there: ``corners.BESIDE_SCALE``): such a card is placed by the two marks, as wide as
they lie apart and an inset each side, in a playing card's proportions."""
INSIDE_CARD = 2.5
"""A card whose rank is knocked out of a big suit shape in its middle is placed about that shape, this many times as
tall: the middle suit of such a deck spans about 0.4 of the card."""
Faces = Literal["light", "dark"]
"""What a deck's faces are: dark print on light paper (nearly every deck), or light print on dark paper (a black
deck with gold and silver print): read as its ``negative``."""
Layout = Literal["below", "beside", "inside"]
"""How a deck prints its index: the suit below the rank (nearly every deck), beside it across the card's top
(one index a card, rank top left and suit top right), or the rank knocked out of a solid suit shape
(``vision.knockouts``: read from the big one in the card's middle)."""
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
MIN_SIDE = 32
"""Frames narrower or shorter than this hold no readable card: they give an empty list."""
HALVED, LARGE_INDEX = 2, 48.0
"""An image in which no index corner is read, or whose corners measure ``LARGE_INDEX`` pixels or more from rank to
suit at their median, is read again at 1 / HALVED of its size (``read_corners``), for corners too large to read as
they are (a close-up photo's, 60 px and more). On the colour photos of light-faced decks of the real set's train
split, 3 more cards of 862 are read right, with no more wrong or phantom; on the busiest synthetic tables, 1 frame
in 40 is read again. An odd last row or column is left out: OpenCV averages an exact half 15 times quicker (0.13
against 1.8 ms for a 640x853 photo; 62 of the 164 real test photos are read halved too)."""
CLEAR_INDEX = 18.0
"""Index corners at least this many pixels from rank mark to suit mark, in the frame as read (``scaled``), read
as surely as larger ones; smaller ones are missed or left unknown more and more often. On 400 held-out tables
(half of them with the hard cases), the cards read right by their index's size: 32% under 10 px, 48% at 10-12,
63% at 12-14, 73% at 14-16, 77% at 16-18, and 84-89% in each band from 18 to 99 px (where what is lost is lost to
hands, chips and overlap, not size). A card is about 8.4 such distances tall (the reader's median geometry)."""


@dataclass(frozen=True, slots=True)
class Corner:
    """One index corner read in a frame."""

    card: Card | None
    confidence: float  # of the reading when card is set, else that this is an index corner
    rank: NDArray[Any]  # rank mark centre
    down: NDArray[Any]  # unit vector along the card, top to bottom
    scale: float  # rank-to-suit distance in pixels
    p_rank: NDArray[Any] | None = None  # rank probabilities, one row per read (first, re-reads); the expert's if asked
    p_suit: NDArray[Any] | None = None  # and its suit probabilities
    sure_at: float = READ_SURE  # how surely its reads must read a card: EXPERT_SURE where they are the expert's
    across: float = 0.0  # pixels from the rank mark to a suit printed beside it, across the card's top (0: below)
    shape: float = 0.0  # the size in pixels of the suit shape the rank was knocked out of (0: printed in ink)

    @property
    def layout(self) -> Layout:
        """How the index read here is printed (``Layout``)."""
        return "inside" if self.shape else "beside" if self.across else "below"

    @property
    def suit(self) -> NDArray[Any]:
        """The suit mark centre (``scale`` along ``down`` from the rank mark, or ``across`` right of it)."""
        out: NDArray[Any] = self.rank + (_right(self.down) * self.across if self.across else self.down * self.scale)
        return out

    @property
    def middle(self) -> NDArray[Any]:
        """The index's middle: halfway from the rank mark to the suit mark."""
        out: NDArray[Any] = self.rank + self.down * (self.scale / 2)
        return out

    def repeats(self, other: Corner) -> bool:
        """Whether this is a read of ``other``'s corner (``same_corner``) as an index of its layout (a suit below its
        rank or beside it: ``_one_layout`` chooses between the two once the whole table is read)."""
        return bool(same_corner(self.rank, self.scale, other.rank, other.scale)) and self.layout == other.layout

    def moved(self, offset: tuple[float, float]) -> Corner:
        """The same corner read in a crop whose top-left lies at ``offset`` in the frame."""
        return replace(self, rank=self.rank + np.asarray(offset, float))

    def enlarged(self, factor: float) -> Corner:
        """The same corner read in a copy of the frame scaled by ``1 / factor``."""
        return replace(self, rank=self.rank * factor, scale=self.scale * factor, across=self.across * factor,
                       shape=self.shape * factor)


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
    image = face_up(at_scale(full, shrink), faces)
    found, colour = read_corners(image), in_colour(image)
    zoom = detail_zoom(found, shrink)
    if zoom > shrink:
        return read_tiled(face_up(at_scale(full, zoom), faces), table_layout(found), shapes=False), zoom, colour
    return found, shrink, colour


def detail_zoom(found: list[Corner], shrink: float) -> float:
    """The scale a frame read at ``shrink`` (``scaled``) is read again at, in tiles (``read_tiled``), so that
    its small indices measure ``DETAIL_INDEX`` (at most its own size: 1.0), going by the smallest tenth of the
    corners found, read or not (the smallest are the least often read; none found, its own size); ``shrink``
    itself where that is not a quarter larger.

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


def read_tiled(image: NDArray[Any], layout: Layout | None = None, shapes: bool = True) -> list[Corner]:
    """``read_corners`` of an image of any size (in the table's ``layout``, where known; ``shapes``: as there), in
    tiles of ``TILE`` pixels overlapping by ``TILE_OVERLAP``: each corner is taken from the tile whose middle part
    (up to halfway across each overlap) holds its rank mark, so a corner is read whole and once.

    >>> read_tiled(np.full((1500, 3000, 3), 120, np.uint8))
    []
    """
    h, w = image.shape[:2]
    found: list[Corner] = []
    for y, y0, y1 in _tiles(h):
        for x, x0, x1 in _tiles(w):
            for corner in read_corners(image[y:y + TILE, x:x + TILE], layout, shapes):
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
    cards = _assemble(sorted(found, key=lambda c: (float(c.rank[1]), float(c.rank[0]))), glyphs.load().geometry)
    if not colour:
        cards = [replace(c, card=None) for c in cards]
    return cards if shrink == 1.0 else [_rescale(c, 1 / shrink) for c in cards]


def table_layout(found: list[Corner]) -> Layout | None:
    """The layout most of a table's read corners show (``Corner.layout``); None where two show it as often (none read).

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


def read_corners(image: NDArray[Any], layout: Layout | None = None, shapes: bool = True) -> list[Corner]:
    """The index corners in a BGR image, one per corner: read as it is and, where it holds none or large ones only,
    halved (``HALVED``), each corner of the halved image kept where the image as it is holds none; in the table's
    ``layout`` where it is known (``read_at_scale``; ``shapes``: as there)."""
    found = read_at_scale(image, layout, shapes)
    if min(image.shape[:2]) < HALVED * MIN_SIDE or (found and np.median([c.scale for c in found]) < LARGE_INDEX):
        return found
    h, w = (side - side % HALVED for side in image.shape[:2])  # an exact half (see ``HALVED``)
    halved = cv2.resize(image[:h, :w], (w // HALVED, h // HALVED), interpolation=cv2.INTER_AREA)
    larger = [c.enlarged(HALVED) for c in read_at_scale(halved, layout, shapes)]
    return found + [c for c in larger if not any(c.repeats(f) for f in found)]


def read_at_scale(image: NDArray[Any], layout: Layout | None = None, shapes: bool = True) -> list[Corner]:
    """The index corners in a BGR image at the scale given, one per corner (repeated reads merged), in the table's
    ``layout`` where it is known. Where it is not: those with their suits below their ranks, and those read where
    these foresee more (``foreseen``); where none of those is read, those with their suits beside their ranks too;
    and where neither way finds so much as an unknown index, the ranks knocked out of suit shapes (``_inside``),
    unless told not to seek those (``shapes`` false) where the layout is not known. One deck is read one way (``_one_layout``), so an image that reads as an ordinary deck spends
    nothing on the other ways, nor one whose indices are there but unreadable."""
    planes = corners.Planes(image)
    found = _read(planes, corners.candidates(planes)) if layout in (None, "below") else []
    found += [c for c in _read(planes, foreseen(found)) if c.card is not None]
    if layout == "beside" or (layout is None and all(c.card is None for c in found)):
        found += _read(planes, corners.beside_candidates(planes), found, confirm=True)
    if layout == "inside" or (layout is None and shapes and not found):
        found += _inside(planes)
    return found


def foreseen(found: list[Corner]) -> corners.Candidates:
    """Where more index corners may lie, foreseen from the corners ``found`` with their suits below their ranks, and
    where none was found (``same_corner``): a fan's or a row's (``fan_corners``), and the other corner of each unknown
    corner's card (``other_corners``). In a fan packed tight a rank runs into the next card's edge, or a suit into a
    court's picture, and is no mark of its own, so no pair of marks is proposed there; the reader reads such a
    corner once it is framed.

    >>> up = np.array([0.0, 1.0])
    >>> seen = [Corner(Card.parse(code), 0.99, np.array([x, 0.0]), up, 10.0) for code, x in (("9H", 0.0), ("7S", 30.0))]
    >>> foreseen(seen).rank.tolist(), foreseen(seen[:1]).rank.tolist()
    ([[15.0, 0.0], [-30.0, 0.0], [60.0, 0.0]], [])
    >>> unknown = Corner(None, 0.95, np.array([14.0, 1.0]), up, 10.0)  # found halfway, and its card's other corner
    >>> foreseen(seen + [unknown]).rank.round().tolist()
    [[-30.0, 0.0], [60.0, 0.0], [60.0, 65.0]]
    """
    below = [c for c in found if c.layout == "below"]
    out = corners.Candidates.joined([fan_corners([c for c in below if c.card is not None]),
                                     other_corners([c for c in below if c.card is None], glyphs.load().geometry)])
    rank, _, scale = _placed(found)
    out = out[np.flatnonzero(~same_corner(out.rank[:, None], out.scale[:, None], rank[None], scale[None]).any(axis=1))]
    return out[corners.distinct(out)]


def fan_corners(read: list[Corner]) -> corners.Candidates:
    """Where more corners of a fan's or a row's cards may lie, from its corners ``read``: halfway between two that may
    be one fan's (``FAN``), and as far again beyond each, facing their mean way at their mean scale.

    >>> up = np.array([0.0, 1.0])
    >>> fan_corners([Corner(Card.parse("9H"), 0.99, np.array([x, 0.0]), up, 10.0) for x in (0.0, 30.0, 200.0)]).rank.tolist()
    [[15.0, 0.0], [-30.0, 0.0], [60.0, 0.0]]
    """
    if len(read) < 2:
        return corners.Candidates.empty()
    rank, down, scale = _placed(read)
    i, j = np.triu_indices(len(read), 1)
    mean = (scale[i] + scale[j]) / 2
    ok = (np.sum(down[i] * down[j], axis=1) >= FAN[0]) & (np.hypot(*(rank[j] - rank[i]).T) < FAN[2] * mean)
    ok &= np.maximum(scale[i], scale[j]) <= FAN[1] * np.minimum(scale[i], scale[j])
    i, j, mean = i[ok], j[ok], mean[ok]
    way = down[i] + down[j]
    way /= np.hypot(*way.T)[:, None]
    step = rank[j] - rank[i]
    return corners.Candidates(np.concatenate([rank[i] + step / 2, rank[i] - step, rank[j] + step]),
                              np.tile(way, (3, 1)), np.tile(mean, 3), np.zeros((3 * len(i), 2), np.float32))


def other_corners(unknown: list[Corner], geometry: dict[str, float]) -> corners.Candidates:
    """Where the other corner of each ``unknown`` corner's card lies, by the median card's ``geometry`` (as
    ``_assemble`` places a lone corner's card), facing the other way at the same scale.

    >>> up = np.array([0.0, 1.0])
    >>> found = other_corners([Corner(None, 0.95, np.zeros(2), up, 10.0)], {"centre_x": 2.0, "centre_y": 3.5})
    >>> found.rank.tolist(), found.down.tolist()
    ([[40.0, 70.0]], [[-0.0, -1.0]])
    """
    if not unknown:
        return corners.Candidates.empty()
    rank, down, scale = _placed(unknown)
    across = 2 * scale[:, None] * _to_centre(down, geometry["centre_x"], geometry["centre_y"])
    return corners.Candidates(rank + across, -down, scale, np.zeros((len(unknown), 2), np.float32))


def _placed(found: list[Corner]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The rank marks (n, 2), "down"s (n, 2) and scales (n,) of the corners ``found``, as float32 arrays."""
    rank, down = (np.array([getattr(c, k) for c in found], np.float32).reshape(-1, 2) for k in ("rank", "down"))
    return rank, down, np.array([c.scale for c in found], np.float32)


def _inside(planes: corners.Planes) -> list[Corner]:
    """The corners of ranks knocked out of suit shapes in ``planes`` (``knockouts.sheet``), each read at the turns
    it is redrawn at: a shape read as one card at every turn it reads at is that card, read as two it is
    unknown, read at none it is no corner. A 6 or a 9 is unknown too: turned over, each is the other, and which way
    up the shape lies its suit, shrunk, may not tell (a 9 of hearts upside down has read as a 6 of diamonds). The
    reader was never fitted on such shapes, so its reads stand only where the expert reads them too."""
    sheet = knockouts.sheet(planes)
    if not len(sheet.found):
        return []
    reads: dict[int, list[tuple[int, Corner]]] = {}
    for corner in _read(corners.Planes(sheet.image), sheet.found, confirm=True):
        at = sheet.at(corner.rank)
        reads.setdefault(int(sheet.which[at]), []).append((at, corner))
    out = []
    for turns in reads.values():
        read = [(at, c) for at, c in turns if c.card is not None]
        if not read:
            continue
        at, surest = max(read, key=lambda r: r[1].confidence)
        card = surest.card if len({c.card for _, c in read}) == 1 else None
        if card is not None and card.rank in (Rank.SIX, Rank.NINE):
            card = None
        out.append(replace(surest, card=card, rank=sheet.frame.rank[at], down=sheet.frame.down[at],
                           scale=float(sheet.frame.scale[at]), shape=float(sheet.shape[at])))
    return out


def _read(planes: corners.Planes, found: corners.Candidates, below: list[Corner] | None = None,
          confirm: bool = False) -> list[Corner]:
    """``read_at_scale``'s corners of the candidates ``found`` in ``planes``: all of one layout, with their suits
    below their ranks or, given the corners read so (``below``), beside them (``_check_beside``). Where the layout
    is one the networks were never fitted on (``confirm``), every read stands only where the expert reads it too."""
    if not len(found):
        return []
    reader = glyphs.load()
    passed, x = screened(planes, found, reader)
    found = found[passed]
    net = reader.net
    p_rank, p_suit = net.predict(x)
    rank_k, suit_k, sure, index = first_read(p_rank, p_suit)
    # the re-reads below only lower both: a corner neither read nor an index surely yet never will be
    keep = np.nonzero(kept(sure, index))[0]
    found, rank_k, suit_k = found[keep], rank_k[keep], suit_k[keep]
    # a reading, and being an index at all, must survive small changes of the patch's frame: the least
    # sure of each corner's reads (the first, then the re-reads) counts; a firm first read stands for its
    # re-reads (FIRM)
    again = np.nonzero(sure[keep] < FIRM)[0]
    framed = np.repeat(x[keep, None], 1 + len(VARIANTS), axis=1)  # corner, framing, feature
    framed[again, 1:] = np.stack(np.split(corners.features(planes, _variants(found[again])), len(VARIANTS)), axis=1)
    reads_rank, reads_suit = (np.repeat(p[keep, None], 1 + len(VARIANTS), axis=1) for p in (p_rank, p_suit))
    for reads, p in zip((reads_rank, reads_suit), _reads(net, framed[again, 1:]), strict=True):
        reads[again, 1:] = p  # corner, read, class
    sure = least_sure(reads_rank, reads_suit, rank_k, suit_k)
    index = glyphs.index_share(reads_rank, reads_suit).min(axis=1)
    # a corner surely an index but not read surely is read by the expert, if it reads it at every framing;
    # either way the expert's reads stand for the reader's there (for ``_pooled``)
    unread = np.nonzero((sure < READ_SURE) & (index >= INDEX_SURE))[0]
    sure_at = np.full(len(found), READ_SURE)
    if reader.expert is not None and len(unread):
        sure_at[unread] = EXPERT_SURE
        e_rank_k, e_suit_k, e_sure, reads_rank[unread], reads_suit[unread] = expert_read(reader.expert, framed[unread])
        doubt = np.nonzero(e_sure < EXPERT_SURE)[0]
        for confirmer in (reader.second, reader.third):  # each in turn may read the expert's first read as surely
            if confirmer is not None and len(doubt):
                e_sure[doubt] = confirmed(confirmer, framed[unread[doubt]], e_rank_k[doubt], e_suit_k[doubt])
                doubt = doubt[e_sure[doubt] < EXPERT_SURE]
        read = e_sure >= EXPERT_SURE
        now_read = unread[read]
        rank_k[now_read], suit_k[now_read], sure[now_read] = e_rank_k[read], e_suit_k[read], e_sure[read]
    if below is not None:
        _check_beside(found, sure, index, below)
    # the reader's reads that a layout or a stroke can feign (``TEN``) stand only where the expert reads the
    # same card as surely as it reads alone; its reads stand for the reader's there (for ``_pooled``)
    doubt = np.flatnonzero((sure >= READ_SURE) & (sure_at == READ_SURE) & (confirm | (rank_k == TEN)))
    if reader.expert is not None and len(doubt):
        sure_at[doubt] = EXPERT_SURE
        e_rank_k, e_suit_k, e_sure, reads_rank[doubt], reads_suit[doubt] = expert_read(reader.expert, framed[doubt])
        agree = (e_rank_k == rank_k[doubt]) & (e_suit_k == suit_k[doubt]) & (e_sure >= EXPERT_SURE)
        sure[doubt[~agree]] = 0.0
    order = np.argsort(-(sure + index), kind="stable")
    near = same_corner(found.rank[:, None], found.scale[:, None], found.rank[None], found.scale[None]).tolist()
    taken: list[tuple[int, bool]] = []  # (candidate, still trusted)
    for i in order:
        same = [t for t, (j, _) in enumerate(taken) if near[i][j]]
        if not same:
            taken.append((i, True))
            continue
        j = taken[same[0]][0]
        if sure[i] >= READ_SURE and (rank_k[i], suit_k[i]) != (rank_k[j], suit_k[j]):
            taken[same[0]] = (j, False)  # two sure reads of one corner disagree: do not trust either
    out = []
    across = np.hypot(*(found.suit - found.rank).T) if below is not None else np.zeros(len(found))
    for i, trusted in taken:
        if trusted and sure[i] >= READ_SURE:
            card = Card(glyphs.RANKS[rank_k[i]], glyphs.SUITS[suit_k[i]])
            out.append(Corner(card, float(sure[i]), found.rank[i], found.down[i], float(found.scale[i]),
                              reads_rank[i], reads_suit[i], float(sure_at[i]), float(across[i])))
        elif index[i] >= INDEX_SURE:
            out.append(Corner(None, float(index[i]), found.rank[i], found.down[i], float(found.scale[i]),
                              reads_rank[i], reads_suit[i], float(sure_at[i]), float(across[i])))
    return _own_pips(out)


def _check_beside(found: corners.Candidates, sure: NDArray[Any], index: NDArray[Any], below: list[Corner]) -> None:
    """Sets aside (in ``sure`` and ``index``, in place) the reads of suits beside their ranks (``found``) that another
    read contradicts. A corner that is an index with its own suit below (``below``) is not read again with another
    card's pip beside it; and two marks read beside each other both ways round (each the other's suit: a rank and
    its suit, or a pip and a rank) are not read either way, so the corner is unknown."""
    if below:
        ranks, scales = np.array([c.rank for c in below]), np.array([c.scale for c in below])
        taken = same_corner(found.rank[:, None], found.scale[:, None], ranks[None], scales[None]).any(axis=1)
        sure[taken], index[taken] = 0.0, 0.0
    read = np.flatnonzero(sure >= READ_SURE)
    suit = found.suit
    both_ways = (same_corner(found.rank[read, None], found.scale[read, None], suit[None, read], found.scale[None, read])
                 & same_corner(suit[read, None], found.scale[read, None], found.rank[None, read], found.scale[None, read]))
    sure[read[both_ways.any(axis=1)]] = 0.0


def _own_pips(found: list[Corner]) -> list[Corner]:
    """The corners but the unknown ones whose suit mark is a read corner's (see ``SHARED_PIP``).

    >>> up, left = np.array([0.0, 1.0]), np.array([-1.0, 0.0])
    >>> nine = Corner(Card.parse("9H"), 0.99, np.array([0.0, 0.0]), up, 20.0)
    >>> stray, own = Corner(None, 0.95, np.array([20.0, 20.0]), left, 20.0), Corner(None, 0.93, np.array([50.0, 0.0]), up, 20.0)
    >>> [c.confidence for c in _own_pips([nine, stray, own])], len(_own_pips([stray]))  # stray's pip is the nine's
    ([0.99, 0.93], 1)
    """
    pips = np.array([c.suit for c in found if c.card is not None]).reshape(-1, 2)
    return [c for c in found if c.card is not None or not len(pips)
            or np.hypot(*(pips - c.suit).T).min() >= SHARED_PIP * c.scale]


def same_corner(rank_a: NDArray[Any], scale_a: NDArray[Any] | float, rank_b: NDArray[Any], scale_b: NDArray[Any] | float
                ) -> NDArray[Any]:
    """Whether reads (rank-mark centres, last axis x and y, and scales; broadcast against each other) are of one
    corner: their rank marks lie closer than ``SAME_CORNER`` times the larger scale.

    >>> same_corner(np.array([[0.0, 0.0]]), 10.0, np.array([[6.0, 0.0], [0.0, 8.0]]), np.array([8.0, 10.0]))
    array([ True, False])
    """
    apart = np.asarray(rank_a) - np.asarray(rank_b)
    out: NDArray[Any] = np.hypot(apart[..., 0], apart[..., 1]) < SAME_CORNER * np.maximum(scale_a, scale_b)
    return out


def screened(planes: corners.Planes, found: corners.Candidates, reader: glyphs.Reader) -> tuple[NDArray[Any], NDArray[Any]]:
    """The candidates that pass the looks and the screen (indices, in order) and their feature rows.
    The looks read cheap glances at each candidate, so most are never fully sampled; each block of
    feature rows is screened as it is made, so the rows set aside are never gathered."""
    ahead = reader.glanced(planes, found)
    picked, rows = [np.zeros(0, np.intp)], [np.zeros((0, corners.FEATURES), np.float32)]
    for block, x in corners.feature_blocks(planes, found[ahead]):
        passed = reader.passes(x)
        picked.append(ahead[block[passed]])
        rows.append(x[passed])
    order = np.argsort(np.concatenate(picked))
    return np.concatenate(picked)[order], np.concatenate(rows)[order]


def first_read(p_rank: NDArray[Any], p_suit: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any], NDArray[Any]]:
    """From the reader's rank and suit probabilities: each row's rank and suit (head indices), how surely
    both are read (the less sure head) and how surely it is an index corner at all.

    >>> p_rank, p_suit = np.eye(14)[[0, 13]] * 0.8 + 0.2 / 14, np.eye(5)[[2, 4]] * 0.9 + 0.02
    >>> [v.round(2).tolist() for v in first_read(p_rank, p_suit)]
    [[0, 0], [2, 0], [0.81, 0.01], [0.98, 0.08]]
    """
    rank_k = p_rank[:, :glyphs.NOT_INDEX_RANK].argmax(axis=1)
    suit_k = p_suit[:, :glyphs.NOT_INDEX_SUIT].argmax(axis=1)
    return rank_k, suit_k, least_sure(p_rank[:, None], p_suit[:, None], rank_k, suit_k), glyphs.index_share(p_rank, p_suit)


def _reads(net: glyphs.ConvNet, framed: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Rank and suit probabilities (corner, framing, class) of feature rows (corner, framing, feature), read
    a framing at a time."""
    n, k = framed.shape[:2]
    p_rank, p_suit = (p.reshape(k, n, p.shape[1]).transpose(1, 0, 2)
                      for p in net.predict(framed.transpose(1, 0, 2).reshape(n * k, framed.shape[2])))
    return p_rank, p_suit


def expert_read(expert: glyphs.ConvNet, framed: NDArray[Any]) -> tuple[NDArray[Any], ...]:
    """The expert's rank and suit (head indices, of its first read) of each corner from its feature rows at
    each framing (corner, framing, feature), how surely (at its least sure framing), and its rank and suit
    probabilities (corner, framing, class): they stand for the reader's in the corner it was asked about,
    so two such corners of one card are pooled (``_pooled``) from the expert's reads."""
    p_rank, p_suit = _reads(expert, framed)
    rank_k, suit_k, _, _ = first_read(p_rank[:, 0], p_suit[:, 0])
    return rank_k, suit_k, least_sure(p_rank, p_suit, rank_k, suit_k), p_rank, p_suit


def confirmed(second: glyphs.ConvNet, framed: NDArray[Any], rank_k: NDArray[Any], suit_k: NDArray[Any]) -> NDArray[Any]:
    """How surely the second expert reads each corner, from its feature rows at each framing (corner, framing,
    feature), as rank ``rank_k`` and suit ``suit_k`` (head indices), at its least sure framing: it is asked the
    first framing, and the others only where that one reads at least ``EXPERT_SURE`` (the rest cannot be read,
    and their first read stands), which spares most of its work."""
    sure = least_sure(*_reads(second, framed[:, :1]), rank_k, suit_k)
    again = np.nonzero(sure >= EXPERT_SURE)[0]
    if len(again):
        sure[again] = np.minimum(sure[again], least_sure(*_reads(second, framed[again, 1:]), rank_k[again], suit_k[again]))
    return sure


def least_sure(reads_rank: NDArray[Any], reads_suit: NDArray[Any], rank_k: NDArray[Any], suit_k: NDArray[Any]) -> NDArray[Any]:
    """How surely each corner is read as rank ``rank_k`` and suit ``suit_k`` (head indices) at its least sure
    read (``reads_*``: corner, read, class).

    >>> reads_rank, reads_suit = np.array([[[0.9, 0.1], [0.8, 0.2]]]), np.array([[[0.3, 0.7], [0.1, 0.9]]])
    >>> least_sure(reads_rank, reads_suit, np.array([0]), np.array([1])).tolist()
    [0.7]
    """
    rows = np.arange(len(rank_k))
    least: NDArray[Any] = np.minimum(reads_rank[rows, :, rank_k], reads_suit[rows, :, suit_k]).min(axis=1)
    return least


def kept(sure: NDArray[Any], index: NDArray[Any]) -> NDArray[Any]:
    """Which first reads are kept for the re-reads: read surely, or surely an index corner."""
    return (sure >= READ_SURE) | (index >= INDEX_SURE)


def _variants(found: corners.Candidates) -> corners.Candidates:
    """The candidates again, re-framed by each of ``VARIANTS`` in turn."""
    parts = [found.varied(turn, grow) for grow, turn in VARIANTS]
    return corners.Candidates.joined(parts)


def _assemble(found: list[Corner], geometry: dict[str, float]) -> list[CardSighting]:
    """One sighting per card: the two corners of one card merged.

    Two corners are one card's when they face opposite ways and each lies across the card's body from
    the other: along the card's axis (the mean of the two "down"s, so a tilted "10" does not skew it)
    the offset between them points down and right, about as far as the card's median geometry puts
    its opposite corner, both corners at a like scale. Pairs are taken best first (``_corner_pairs``).
    The card is then between them, and it is what they read: one read and one unknown make the read
    card; two different reads make an unknown card, never a guess. A lone corner places its card by the
    median proportions of card designs; a lone unknown corner at the size of the frame's read corners (the
    median), when there are any: the pair it was found as may be a rank with a piece of its suit, nearer
    than the whole suit, and the card drawn from it would miss its own."""
    cx, cy, height = geometry["centre_x"], geometry["centre_y"], geometry["card_height"]
    found = _in_proportion(found)
    read_scales = [c.scale for c in found if c.card is not None]
    unknown_scale = float(np.median(read_scales)) if read_scales else None  # a lone unknown corner's
    partner: dict[int, int] = {}
    for _, a, b in _corner_pairs(found, cx, cy, height):
        if a not in partner and b not in partner:
            partner[a], partner[b] = b, a
    sightings: list[CardSighting] = []
    done: set[int] = set()
    for i, c in enumerate(found):
        if i in done:
            continue
        j = partner.get(i)
        if j is None and c.across:  # the suit across the card's top from the rank: the card is as wide as they are apart
            card, confidence = c.card, c.confidence
            inset = BESIDE_INSET * c.scale
            size, index_size = (c.across + 2 * inset) * 3.5 / 2.5, c.scale
            centre = c.rank + c.across / 2 * _right(c.down) + (size / 2 - inset) * c.down
        elif j is None and c.shape:  # a rank knocked out of the big suit shape in the card's middle
            card, confidence = c.card, c.confidence
            centre, size, index_size = c.rank, INSIDE_CARD * c.shape, c.scale
        elif j is None:
            card, confidence = c.card, c.confidence
            scale = c.scale if card is not None or unknown_scale is None else unknown_scale
            centre = c.rank + scale * _to_centre(c.down, cx, cy)
            size, index_size = height * scale, c.scale
        else:
            done.add(j)
            other = found[j]
            card, confidence = _agree(c, other)
            centre = (c.rank + other.rank) / 2
            size = float((other.rank - c.rank) @ c.down) + (height - 2 * cy) * c.scale
            index_size = (c.scale + other.scale) / 2
        sightings.append(CardSighting(card, (float(centre[0]), float(centre[1])), _outline(centre, c.down, size),
                                      float(confidence), index_size=float(index_size)))
    return _one_per_card(sightings)


def _in_proportion(found: list[Corner]) -> list[Corner]:
    """The corners but those over ``SCALE_SPREAD`` times the size of every read corner elsewhere in the frame.

    >>> up = np.array([0.0, 1.0])
    >>> seen = [Corner(None, 0.9, np.zeros(2), up, s) for s in (18.0, 40.0)] + [Corner(Card.parse("9H"), 0.9, np.zeros(2), up, 20.0)]
    >>> [c.scale for c in _in_proportion(seen)], [c.scale for c in _in_proportion(seen[:2])]
    ([18.0, 20.0], [18.0, 40.0])
    """
    largest = sorted((c for c in found if c.card is not None), key=lambda c: -c.scale)[:2]  # the largest other is one of these
    others = [next((other.scale for other in largest if other is not c), None) for c in found]
    return [c for c, other in zip(found, others, strict=True) if other is None or c.scale <= SCALE_SPREAD * other]


def _corner_pairs(found: list[Corner], cx: float, cy: float, height: float) -> list[tuple[float, int, int]]:
    """The pairs (i < j) of corners that may be one card's (see ``_assemble``), best first, each with how
    far it is from the expected offset; all pairs at once (a busy table has dozens of corners).

    Best is nearest the expected offset, except that pairs whose corners both read the same card come
    before all the others: in a grid of cards whose indices are large for their size, a corner two rows
    away can lie nearer the median card's offset than its own card's corner does, and taken first it
    would make two read cards one unknown. Such pairs may also lie up to ``SAME_CARD_REACH`` times the
    median offset apart, not ``PAIR_REACH``: a card whose indices are small for its size is taller in index units
    than the median card, and its two corners read alike, left unpaired, would be reported as two cards.

    Two corners read as cards unlike in rank and in colour are never paired: a card's corners carry one rank
    in one ink, and a corner misread gets one of them wrong (a 3 read as a 5, a dim diamond as a spade), not
    both. Such corners are two cards lying a card's diagonal apart (the top corner of one and the bottom corner
    of the card beneath it, the others hidden), which paired would be one unknown card and one missed."""
    if len(found) < 2:
        return []
    rank = np.array([c.rank for c in found], np.float32)
    down = np.array([c.down for c in found], np.float32)
    scale = np.array([c.scale for c in found])
    below = np.array([c.layout == "below" for c in found])  # the other layouts give one corner a card
    i, j = np.triu_indices(len(found), 1)
    facing = down[i, 0] * down[j, 0] + down[i, 1] * down[j, 1]
    grow = scale[j] / scale[i]
    ok = (facing <= -0.8) & (grow > 0.6) & (grow < 1.67) & below[i] & below[j]
    i, j = i[ok], j[ok]
    axis = down[i] - down[j]
    axis /= np.hypot(axis[:, 0], axis[:, 1])[:, None]
    v = (rank[j] - rank[i]) * np.float32(2) / (scale[i] + scale[j]).astype(np.float32)[:, None]
    along = (v[:, 0] * axis[:, 0] + v[:, 1] * axis[:, 1]).astype(float)
    across = (v * _right(axis)).sum(axis=1).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        slant = across / along
    ids: dict[Card, int] = {}
    card_id = np.array([-1 if c.card is None else ids.setdefault(c.card, len(ids)) for c in found])
    alike = (card_id[i] >= 0) & (card_id[i] == card_id[j])
    rank_of = np.array([0 if c.card is None else int(c.card.rank) for c in found])
    red = np.array([c.card is not None and c.card.suit.red for c in found])
    unlike = (rank_of[i] > 0) & (rank_of[j] > 0) & (rank_of[i] != rank_of[j]) & (red[i] != red[j])
    reach = np.where(alike, SAME_CARD_REACH, PAIR_REACH) * height
    ok = (along > 0.4 * height) & (along < reach) & (slant > 0.3) & (slant < 1.2) & ~unlike
    score = np.abs(along / (2 * cy) - 1) + np.abs(slant - cx / cy)
    pairs = zip((~alike[ok]).tolist(), score[ok].tolist(), i[ok].tolist(), j[ok].tolist(), strict=True)
    return [pair[1:] for pair in sorted(pairs)]  # read as one card first, then the nearest


def _one_per_card(sightings: list[CardSighting]) -> list[CardSighting]:
    """The sightings with repeats of one card dropped: one deck holds each card once, so a card read twice
    (its two corners, unpaired: one of them placed off, say) with the centres less than a card's height
    apart is one card (the surer sighting is kept).

    >>> from scoring.cards import parse_cards
    >>> ah, kh = parse_cards("AH KH")
    >>> box = ((0.0, 0.0), (25.0, 0.0), (25.0, 35.0), (0.0, 35.0))
    >>> [(s.card.code, s.confidence) for s in _one_per_card([CardSighting(ah, (10, 10), box, 0.9),
    ...     CardSighting(ah, (14, 16), box, 0.99), CardSighting(kh, (12, 12), box, 0.9), CardSighting(ah, (10, 60), box, 0.8)])]
    [('AH', 0.99), ('KH', 0.9), ('AH', 0.8)]
    """
    kept: dict[int, CardSighting] = {}  # by place in ``sightings``
    by_card: dict[Card, list[CardSighting]] = {}
    for k in sorted(range(len(sightings)), key=lambda k: -sightings[k].confidence):
        s = sightings[k]
        reach = math.hypot(s.outline[3][0] - s.outline[0][0], s.outline[3][1] - s.outline[0][1])
        if s.card is None or not any(math.hypot(o.center[0] - s.center[0], o.center[1] - s.center[1]) < reach
                                     for o in by_card.get(s.card, ())):
            kept[k] = s
            if s.card is not None:
                by_card.setdefault(s.card, []).append(s)
    return [kept[k] for k in sorted(kept)]


def _agree(a: Corner, b: Corner) -> tuple[Card | None, float]:
    """What two corners of one card say together, and how surely: one read surely makes the card (two
    different reads make it unknown); two unknown corners may still read it together (``_pooled``)."""
    if a.card is None and b.card is None:
        return _pooled(a, b)
    if a.card is None or b.card is None:
        read = a if a.card is not None else b
        return read.card, read.confidence if read.card is not None else min(a.confidence, b.confidence)
    if a.card != b.card:
        return None, min(a.confidence, b.confidence)
    return a.card, 1 - (1 - a.confidence) * (1 - b.confidence)


def _pooled(a: Corner, b: Corner) -> tuple[Card | None, float]:
    """The card two corners of one card read together when neither reads it surely alone, or None.

    The rank is the one most probable over all six reads (each corner's first read and re-reads), taken
    when that mean is at least ``READ_SURE``; the suit must still hold in every one of the six reads as
    surely as it must for one corner read alone (``Corner.sure_at``: ``EXPERT_SURE`` for the expert's).
    The two corners are separate ink, separately framed, and a rank lost at one framing (a king read as
    an 8 once the patch is grown and turned) is outvoted by the other reads; but the suit mix-ups (spade
    and club, heart and diamond, small and blurred) come from the print and blur both corners share, so
    they repeat at both and pooling them would guess. Measured on the pairs of unread corners of 720
    held-out synthetic tables and the real photos: no pooled rank read wrong above a mean of 0.54, while
    pooled suits read wrong up to 0.74; with this rule no more cards are read wrong there, nor on 400 hard
    synthetic tables. Where the expert was asked about a corner, its reads stand for the reader's: that
    reads 2 more cards of the real photos and 1 more of 1,000 validation tables, none wrong (with the suit
    held at ``READ_SURE`` only, the expert's reads made a held-out king of clubs a king of spades, its suit
    0.80 to 0.97 at all six).

    >>> def unread(rank: list[float], suit: list[float]) -> Corner:
    ...     reads = np.zeros((3, glyphs.NOT_INDEX_RANK + 1)), np.zeros((3, glyphs.NOT_INDEX_SUIT + 1))
    ...     reads[0][:, 12], reads[0][:, 7], reads[1][:, 2] = rank, np.subtract(1, rank), suit
    ...     reads[1][:, 1] = np.subtract(1, suit)
    ...     return Corner(None, 0.95, np.zeros(2), np.array([0.0, 1.0]), 15.0, *reads)
    >>> card, sure = _pooled(unread([0.99, 0.29, 0.91], [1, 1, 1]), unread([1.0, 0.44, 1.0], [1, 1, 1]))
    >>> card.code, round(sure, 2)  # a king: 8s at one framing of each corner outvoted
    ('KD', 0.77)
    >>> _pooled(unread([0.99, 0.29, 0.91], [1, 1, 1]), unread([1.0, 0.44, 1.0], [1, 0.6, 1]))  # a suit dip stays
    (None, 0.95)
    >>> _pooled(unread([0.99, 0.29, 0.91], [1, 1, 1]), unread([1.0, 0.2, 0.9], [1, 1, 1]))  # too many 8s
    (None, 0.95)
    """
    unsure = None, min(a.confidence, b.confidence)
    if a.p_rank is None or b.p_rank is None or a.p_suit is None or b.p_suit is None:
        return unsure
    rank = np.concatenate([a.p_rank, b.p_rank])[:, :glyphs.NOT_INDEX_RANK].mean(axis=0)
    suit = np.concatenate([a.p_suit, b.p_suit])[:, :glyphs.NOT_INDEX_SUIT].min(axis=0)
    r, s = int(rank.argmax()), int(suit.argmax())
    if rank[r] < (EXPERT_SURE if r == TEN else READ_SURE) or suit[s] < max(a.sure_at, b.sure_at):
        return unsure
    return Card(glyphs.RANKS[r], glyphs.SUITS[s]), float(min(rank[r], suit[s]))


def _to_centre(down: NDArray[Any], cx: float, cy: float) -> NDArray[Any]:
    """The way from a corner's rank mark to its card's centre, in index units, given its "down" (one vector or a row of
    each), ``cx`` across and ``cy`` down (the median card's ``centre_x`` and ``centre_y``).

    >>> _to_centre(np.array([0.0, 1.0]), 2.0, 3.5).tolist()
    [2.0, 3.5]
    """
    out: NDArray[Any] = cx * _right(down) + cy * down
    return out


def _right(down: NDArray[Any]) -> NDArray[Any]:
    """A card's "right" given its "down" (a quarter turn counter-clockwise on screen), of one vector or
    of each row of many.

    >>> _right(np.array([0.0, 1.0])).tolist(), _right(np.array([[1.0, 0.0]])).tolist()
    ([1.0, -0.0], [[0.0, -1.0]])
    """
    return np.stack([down[..., 1], -down[..., 0]], axis=-1)


def _outline(centre: NDArray[Any], down: NDArray[Any], height: float) -> tuple[tuple[float, float], ...]:
    """The corners of a card of ``height`` at ``centre`` lying along ``down`` (top-left first)."""
    x, y, dx, dy = float(centre[0]), float(centre[1]), float(down[0]) * height / 2, float(down[1]) * height / 2
    rx, ry = dy * 2.5 / 3.5, -dx * 2.5 / 3.5  # right: down turned a quarter, as wide as a card is for its height
    return (x - rx - dx, y - ry - dy), (x + rx - dx, y + ry - dy), (x + rx + dx, y + ry + dy), (x - rx + dx, y - ry + dy)


def _rescale(seen: CardSighting, factor: float) -> CardSighting:
    """A sighting in the coordinates of a frame ``factor`` times larger."""
    return replace(seen, center=(seen.center[0] * factor, seen.center[1] * factor),
                   outline=tuple((x * factor, y * factor) for x, y in seen.outline),
                   index_size=None if seen.index_size is None else seen.index_size * factor)
