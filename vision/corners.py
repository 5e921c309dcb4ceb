"""Index-corner candidates: pairs of ink marks on card paper that may be a rank over its suit.

A card's index corner is a rank glyph with its suit pip just below it, both printed on white paper. This
module finds every such pair in a frame without first finding card outlines, so cards fanned or
overlapped until only a corner shows are found like lone cards:

1. ink: pixels in the darkest colour channel (red ink is as dark there as black ink) well on the way from
   the brightest paper nearby toward the darkest ink nearby, split into connected marks;
2. keep marks of a glyph's size whose surroundings are mostly paper (bright, colourless, smooth), and the
   glyph-sized pieces that opening parts from a line on paper (a card's outline, a frame) a rank has run into;
3. pair each mark with its nearest few marks of a suit pip's size: the pair's axis is the card's
   "down", their distance its scale;
4. ``vision.patches`` samples each pair as an upright, scale-normalised patch for the networks in
   ``vision.glyphs``.

>>> import numpy as np
>>> len(candidates(np.full((120, 160, 3), 200, np.uint8)))
0
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

INK_DEPTHS = (0.65, 0.3)  # ink lies this share of the way from the paper nearby to the darkest ink nearby
LEAST_SPREAD = 0.3  # the paper-to-ink spread measured against, as a share of the paper's brightness at least
MIN_MARK = 5  # pixels: smaller marks cannot be read
SOLID = 0.12  # a glyph's mark fills at least this share of its box
PARTING = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))  # opens a line a rank has run into (``_parted``)
LINE_PAPER = 0.8  # a line is opened only where at least this share of its box is paper (``_parted``)
PAPER_SHARE = 0.5  # of a mark's surroundings that must be paper
PAPER_BRIGHT = 0.5  # paper is at least this share as bright as the brightest thing nearby: a window beside a card can be twice it
MAX_PARTNERS = 3  # suit marks tried per rank mark
BESIDE = (1.5, 3.5)  # a suit printed beside its rank lies this many times the rank's size away
BESIDE_RATIO = 1.6  # and is at most this many times larger or smaller than the rank
BESIDE_PARTNERS = 3  # suit marks beside a rank tried per rank mark
BESIDE_SCALE = 1.25  # a rank-to-suit distance, over the rank's size, where a suit is below its rank
CROSS_RATIO = 1.0  # the largest suit mark, over its rank mark's size, taken from a stricter ink level
CAST = (40, 0.4)  # the whitest things' colour spread (levels, share of their brightness) that is the light's
DIM = (160, 220)  # a frame whose whitest things are darker than the first is brightened until they are the second
MAX_GAIN = 3.0  # but at most this many times: a frame with no paper in it stays dark


@dataclass(frozen=True, slots=True)
class Candidates:
    """Rank-mark centres, unit "down" vectors and scales (rank-to-suit distance) of candidate pairs, and
    ``gap``: where a suit is printed beside its rank across the card's top (``_beside``), the image offset
    from below the rank to that suit (the paper between is cut out of the patch); zero for a suit below."""

    rank: NDArray[Any]  # (n, 2) float32
    down: NDArray[Any]  # (n, 2) float32
    scale: NDArray[Any]  # (n,) float32
    gap: NDArray[Any]  # (n, 2) float32

    def __len__(self) -> int:
        return len(self.scale)

    @classmethod
    def empty(cls) -> Candidates:
        """No candidates."""
        return cls(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32), np.zeros(0, np.float32),
                   np.zeros((0, 2), np.float32))

    @classmethod
    def joined(cls, parts: list[Candidates]) -> Candidates:
        """The candidates of ``parts``, one after another."""
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("rank", "down", "scale", "gap")))

    @property
    def beside(self) -> NDArray[Any]:
        """Which candidates' suits are printed beside their ranks (``gap`` not zero)."""
        out: NDArray[Any] = np.any(self.gap, axis=1)
        return out

    def varied(self, turn: NDArray[Any] | float, grow: NDArray[Any] | float,
               shift: NDArray[Any] | float = 0.0) -> Candidates:
        """The candidates with "down" turned by ``turn`` radians, scales times ``grow``, rank marks
        moved by ``shift`` (n x 2, in scale units); a suit beside its rank stays where it is."""
        c, s = np.cos(turn), np.sin(turn)
        down = np.stack([c * self.down[:, 0] - s * self.down[:, 1], s * self.down[:, 0] + c * self.down[:, 1]], axis=1)
        scale = self.scale * grow
        rank = self.rank + np.asarray(shift) * np.asarray(scale).reshape(-1, 1)
        suit = rank + down * np.asarray(scale).reshape(-1, 1)
        gap = np.where(self.beside[:, None], self.suit - suit, 0.0)
        return Candidates(rank.astype(np.float32), down.astype(np.float32), np.asarray(scale, np.float32),
                          gap.astype(np.float32))

    def __getitem__(self, pick: NDArray[Any]) -> Candidates:
        """The candidates selected by an index array or mask."""
        rows = np.flatnonzero(pick) if pick.dtype == bool else pick
        return Candidates(self.rank.take(rows, axis=0), self.down.take(rows, axis=0), self.scale[rows],  # take: quicker
                          self.gap.take(rows, axis=0))

    def by_scale(self) -> NDArray[Any]:
        """Indices of the candidates by scale, ties in order: the order they are sampled in (``patches.feature_blocks``).

        >>> Candidates(np.zeros((3, 2), np.float32), np.zeros((3, 2), np.float32), np.float32([9, 4, 9]),
        ...            np.zeros((3, 2), np.float32)).by_scale()
        array([1, 0, 2])
        """
        return np.argsort(self.scale.view(np.int32), kind="stable")  # a positive float32's bits order as its values do

    @property
    def suit(self) -> NDArray[Any]:
        """Each candidate's suit-mark centre (``scale`` along "down" from its rank mark, or beside it: ``gap``)."""
        out: NDArray[Any] = self.rank + self.down * self.scale[:, None] + self.gap
        return out

    @property
    def right(self) -> NDArray[Any]:
        """The card's "right" for each candidate (down turned a quarter counter-clockwise on screen)."""
        return np.stack([self.down[:, 1], -self.down[:, 0]], axis=1)

    def to_image(self, points: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        """Image x and y (each n, k) of card-frame offsets ``points`` (k, 2: right, down, in scale units)."""
        right, down = self.right * self.scale[:, None], self.down * self.scale[:, None]
        # one matrix product per coordinate: [right_c, down_c, origin_c] . [px, py, 1]
        terms = np.vstack([np.asarray(points, np.float32).T, np.ones((1, len(points)), np.float32)])
        return tuple(np.ascontiguousarray(np.stack([right[:, c], down[:, c], self.rank[:, c]], axis=1), np.float32)
                     @ terms for c in (0, 1))  # type: ignore[return-value]


class Planes:
    """The images of one BGR frame the corner finder works on, each made once: the darkest channel
    ``lo`` (ink is dark there, red ink as much as black), ``red`` (red over the other channels),
    ``sat`` (brightest minus darkest channel) and their pyramids."""

    def __init__(self, frame: NDArray[Any]) -> None:
        b, g, r = channels(frame)
        lo = cv2.min(b, cv2.min(g, r))
        white = whitest(frame, lo)
        gain = exposure(white)
        if gain > 1:  # a dim frame is read as if brightened: paper is told from ink by how bright it is
            b, g, r, lo = (_times(c, gain) for c in (b, g, r, lo))
            white = white * gain  # not clipped: the light's colour is taken from what each channel would read
        self.lo, self.red = lo, cv2.subtract(r, cv2.max(g, b))
        gains = white_gains(white)
        if gains is not None:  # the spread is measured as if the light were white
            b, g, r = (_times(c, k) for c, k in zip((b, g, r), gains, strict=True))
            lo = cv2.min(b, cv2.min(g, r))
        self.sat = cv2.subtract(cv2.max(b, cv2.max(g, r)), lo)

    @cached_property
    def paper(self) -> NDArray[Any]:
        """Card paper (1) and red ink (1) against anything else (0): ``paper_mask``."""
        return paper_mask(self)

    @cached_property
    def inks(self) -> list[NDArray[Any]]:
        """The ink near paper (not on the table) at each ink level (``INK_DEPTHS``): 1, else 0."""
        near_paper = cv2.dilate(self.paper, np.ones((7, 7), np.uint8))
        depth = ink_depth(self.lo)
        return [cv2.bitwise_and(cv2.compare(depth, 255 * share, cv2.CMP_GT), near_paper)  # type: ignore[call-overload]  # OpenCV's stubs take no number for src2
                for share in INK_DEPTHS]

    @cached_property
    def paper_sums(self) -> NDArray[Any]:
        """The integral image of ``paper``, for the share of paper around a box (``ring_share``)."""
        out: NDArray[Any] = cv2.integral(self.paper)
        return out

    @cached_property
    def components(self) -> list[tuple[NDArray[Any], NDArray[Any], NDArray[Any]]]:
        """The connected marks of each ink level (``inks``): labels, statistics and centres (``components``)."""
        return [components(ink) for ink in self.inks]

    @cached_property
    def marks(self) -> list[tuple[NDArray[Any], NDArray[Any]]]:
        """The marks that may be a rank or a suit, centres (n, 2) and sizes (n,), at each ink level (``inks``): of a
        glyph's size and mostly ringed by paper (``_marks``)."""
        return [_marks(stats, centres, self.paper_sums) for _, stats, centres in self.components]

    @cached_property
    def parted(self) -> tuple[NDArray[Any], NDArray[Any]]:
        """The marks that may be a rank parted from a line it has run into, at the stricter ink level: centres (n, 2)
        and sizes (n,) (``_parted``)."""
        return _parted(*self.components[0][:2], self.paper_sums)

    @cached_property
    def pyramids(self) -> tuple[list[NDArray[Any]], list[NDArray[Any]]]:
        """``lo`` and ``red`` at full, half, quarter and eighth size."""
        lo, red = [self.lo], [self.red]
        for _ in range(3):
            lo.append(cv2.pyrDown(lo[-1]))
            red.append(cv2.pyrDown(red[-1]))
        return lo, red


def channels(image: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The blue, green and red planes of a BGR image, split into arrays made here: ``cv2.split`` making its own
    was several times slower (a 1280x720 frame alone 2.8 against 0.2 ms here; 0.5 ms a frame in ``read_cards``).

    >>> [int(c[0, 0]) for c in channels(np.array([[[1, 2, 3]]], np.uint8))]
    [1, 2, 3]
    """
    b, g, r = (np.empty(image.shape[:2], np.uint8) for _ in range(3))
    cv2.split(image, (b, g, r))
    return b, g, r


def whitest(frame: NDArray[Any], lo: NDArray[Any]) -> NDArray[Any]:
    """The mean colour (b, g, r) of the frame's whitest things: the brightest few percent in its darkest channel
    ``lo`` (card paper, if any).

    >>> whitest(np.full((64, 64, 3), (228, 193, 159), np.uint8), np.full((64, 64), 159, np.uint8)).tolist()
    [228.0, 193.0, 159.0]
    """
    sample, lows = frame[::8, ::8].reshape(-1, 3), lo[::8, ::8].ravel()
    top = max(1, len(lows) // 32)
    out: NDArray[Any] = sample[np.argpartition(lows, len(lows) - top)[-top:]].mean(axis=0)
    return out


def exposure(white: NDArray[Any]) -> float:
    """How many times a frame whose whitest things (``whitest``) are ``white`` is brightened before it is read:
    one where they are bright enough in every channel (``DIM``), else enough to make them so, up to ``MAX_GAIN``.

    >>> exposure(np.array([240.0, 230.0, 200.0])), exposure(np.array([140.0, 120.0, 110.0])), exposure(np.zeros(3))
    (1.0, 2.0, 3.0)
    """
    darkest = float(white.min())
    return 1.0 if darkest >= DIM[0] else min(MAX_GAIN, DIM[1] / max(darkest, 1.0))


def white_gains(white: NDArray[Any]) -> tuple[float, float, float] | None:
    """Per-channel gains (b, g, r) that make a frame's whitest things (``whitest``: card paper, if any) colourless,
    when the light tints them strongly enough to fail the paper test (``CAST``); None otherwise, or when even
    they are plainly coloured (a felt table with no card: its colour is its own, not the light's).

    >>> [round(k, 2) for k in white_gains(np.array([228.0, 193.0, 159.0]))]  # white card under warm light
    [1.0, 1.18, 1.43]
    >>> white_gains(np.array([235.0, 238.0, 240.0])) is None
    True
    """
    spread = float(white.max() - white.min())
    if spread <= CAST[0] or spread > CAST[1] * white.max():
        return None
    k = white.max() / np.maximum(white, 1)
    return float(k[0]), float(k[1]), float(k[2])


def candidates(frame: NDArray[Any] | Planes) -> Candidates:
    """All rank-over-suit pairs that could be an index corner in a BGR frame.

    Marks are cut at two ink levels (``INK_DEPTHS``, see ``ink_depth``): the stricter separates a rank from a
    suit or a picture frame it touches once blurred, the looser holds thin or faint strokes together; a pair
    found at both levels is kept once. Each looser mark is also paired with the stricter level's marks (see
    ``_nearest_partners``): a rank's thin strokes may hold together only at the looser level, where its
    solid suit pip has already run into a neighbouring pip or the card's edge. The ranks parted from a line at the
    stricter level (``Planes.parted``) are paired with that level's marks, as ranks only: paired with each other,
    the pieces of a line would take the places of the suits below the ranks nearby."""
    planes = frame if isinstance(frame, Planes) else Planes(frame)
    marks = planes.marks
    parts = [_nearest_partners(*level) for level in marks]
    parts += [_nearest_partners(*looser, partners=stricter) for stricter, looser in zip(marks, marks[1:], strict=False)]
    parts.append(_nearest_partners(*planes.parted, partners=marks[0]))
    found = Candidates.joined(parts)
    return found[distinct(found)]


def beside_candidates(frame: NDArray[Any] | Planes) -> Candidates:
    """All pairs of a rank and a suit printed beside it, across the card's top (``_beside``), that could be an index
    corner in a BGR frame (the marks as ``candidates`` finds them)."""
    planes = frame if isinstance(frame, Planes) else Planes(frame)
    found = Candidates.joined([_beside(*level, planes.paper) for level in planes.marks])
    return found[distinct(found)]


def _marks(stats: NDArray[Any], centres: NDArray[Any], paper_sums: NDArray[Any],
           at: tuple[int, int] = (0, 0)) -> tuple[NDArray[Any], NDArray[Any]]:
    """Centres (n, 2) and sizes (n,) of the marks that may be a rank or a suit, of ``components``' statistics and
    centres (of the frame, or of a part of it whose top left corner is ``at``): a glyph's size and solidity
    (``SOLID``), mostly ringed by paper (``paper_sums``: the paper mask's integral image)."""
    x, y, bw, bh, area = (stats[1:, k].astype(np.float32) for k in range(5))
    x, y = x + at[0], y + at[1]
    size = np.maximum(bw, bh)
    keep = (size >= MIN_MARK) & (size <= _glyph_most(paper_sums)) & (area >= SOLID * bw * bh) & (area >= 14)
    keep &= (np.minimum(bw, bh) >= 2)
    ids = np.nonzero(keep)[0]  # the paper around is measured only for marks of a glyph's size and shape
    ids = ids[ring_share(paper_sums, x[ids], y[ids], bw[ids], bh[ids], size[ids]) >= PAPER_SHARE]
    return (centres[1:][ids] + at).astype(np.float32), size[ids]


def _glyph_most(paper_sums: NDArray[Any]) -> float:
    """The most pixels across a mark may measure and be a glyph, in a frame whose paper's integral image is
    ``paper_sums``."""
    return 0.12 * float(min(paper_sums.shape[:2]) - 1) + 10.0


def _parted(labels: NDArray[Any], stats: NDArray[Any], paper_sums: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
    """Centres (n, 2) and sizes (n,) of the marks that may be a rank run into a line. A rank printed close to a
    card's dark outline or a court picture's frame runs into it once blurred, and the outlines of a fan's cards join
    into one mark: no mark of a glyph's size is left for the rank. Each mark of an ink mask (its ``labels`` and
    ``stats``, ``components``) too large and too sparse for a glyph whose box is mostly paper (``LINE_PAPER``: a
    card, a fan; not the edge of a shadow on the table) is opened by a 3 x 3 cross (``PARTING``), which cuts the
    narrow neck where a rank touches the line, and its pieces of a glyph's size ringed by paper are kept
    (``_marks``).

    >>> labels, stats, _ = components(cv2.rectangle(np.zeros((120, 160), np.uint8), (10, 10), (150, 110), 1, 1))
    >>> stats[1:, 4] < SOLID * stats[1:, 2] * stats[1:, 3]  # a card's outline is too sparse for a glyph
    array([ True])
    >>> ink = cv2.line(labels.astype(np.uint8), (24, 12), (36, 12), 1, 2)
    >>> ink = cv2.line(ink, (36, 12), (28, 30), 1, 2)  # a thin 7 run into its top side
    >>> centres, sizes = _parted(*components(ink)[:2], cv2.integral(np.ones((120, 160), np.uint8)))
    >>> centres.round().tolist(), sizes.tolist()  # the whole 7 parted from it (a 3 x 3 square keeps only its bar)
    ([[31.0, 16.0]], [22.0])
    """
    x, y, bw, bh, area = (stats[1:, k] for k in range(5))
    lines = np.flatnonzero((np.maximum(bw, bh) > _glyph_most(paper_sums)) & (area < SOLID * bw * bh))
    paper, box = box_sum(paper_sums, x[lines], y[lines], x[lines] + bw[lines], y[lines] + bh[lines])
    found = [(np.zeros((0, 2), np.float32), np.zeros(0, np.float32))]
    for k in lines[paper >= LINE_PAPER * box]:
        x0, y0, x1, y1 = x[k], y[k], x[k] + bw[k], y[k] + bh[k]
        own = (labels[y0:y1, x0:x1] == k + 1).view(np.uint8)  # this mark alone, not the others in its box
        opened = cv2.morphologyEx(own, cv2.MORPH_OPEN, PARTING)
        if cv2.countNonZero(opened):
            _, pieces, centres = components(opened)
            found.append(_marks(pieces, centres, paper_sums, at=(int(x0), int(y0))))
    return np.concatenate([c for c, _ in found]), np.concatenate([s for _, s in found])


def components(ink: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The connected marks of an ink mask (0 and 1, 8-connected): labels, statistics and centres, the background's
    first, as ``cv2.connectedComponentsWithStats`` gives them; labelled in 16 bits where they surely fit
    (``label_type``), by the quicker algorithm for the label type (Spaghetti in 16 bits, BBDT in 32: on the real
    photos' ink masks 1.35 against 1.58 ms, and 3.39 against 2.86 ms in 32 bits).

    >>> ink = np.zeros((8, 12), np.uint8)
    >>> ink[1:4, 1:4] = ink[5:7, 6:11] = 1
    >>> labels, stats, centres = components(ink)
    >>> stats[1:, 4].tolist(), centres[1:].tolist()  # pixels and centres of the two marks
    ([9, 10], [[2.0, 2.0], [8.0, 5.5]])
    """
    ltype = label_type(ink)
    algorithm = cv2.CCL_SPAGHETTI if ltype == cv2.CV_16U else cv2.CCL_BBDT
    _, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, ltype, algorithm)
    return labels, stats, centres


def label_type(ink: NDArray[Any]) -> int:
    """The label type for the marks of ``ink`` (0 and 1): 16 bits where they surely fit, else 32. OpenCV labels
    16-bit images in one pass, in two thirds of the time it takes over 32-bit ones, but past 65,535 labels it fails
    (older versions write past the end of their tables). Labelling in one pass, it gives a new label only where
    ink begins along a row (a pixel whose left neighbour is not ink, or a 2 x 2 block holding one): those bound the
    labels.

    >>> ink = np.zeros((300, 500), np.uint8)
    >>> ink[::2, ::2] = 1  # 37,500 marks of a pixel each
    >>> label_type(ink) == cv2.CV_16U, len(cv2.connectedComponentsWithStats(ink, ltype=label_type(ink))[2])
    (True, 37501)
    >>> stripes = np.zeros_like(ink)
    >>> stripes[:, ::2] = 1  # 250 marks, but 75,000 pixels where ink begins along a row: 32 bits, to be safe
    >>> label_type(np.ones_like(ink)) == cv2.CV_16U, label_type(stripes) == cv2.CV_16U
    (True, False)
    """
    starts = cv2.countNonZero(cv2.subtract(ink[:, 1:], ink[:, :-1])) + cv2.countNonZero(ink[:, :1])
    return cv2.CV_16U if starts < np.iinfo(np.uint16).max else cv2.CV_32S


def _nearest_partners(center: NDArray[Any], size: NDArray[Any],
                      partners: tuple[NDArray[Any], NDArray[Any]] | None = None) -> Candidates:
    """Each mark (centre, size) paired with its ``MAX_PARTNERS`` nearest marks of a suit's size and
    distance (ties by position across the frame). Each mark is compared only with the marks within its
    reach (``_within_reach``): a frame of print has thousands of marks, all against all would cost
    millions of pairs.

    With ``partners`` (the centres and sizes of a stricter ink level's marks), each mark is paired with
    its nearest partners among those instead, none larger than the mark itself (``CROSS_RATIO``): a suit
    pip is printed no larger than its rank and a stricter level only thins it, while a piece of a rank
    broken apart by faint ink, paired with its whole suit, would be an index at a fraction of its scale.

    >>> found = _nearest_partners(np.array([[10, 10], [10, 22], [90, 10]], np.float32), np.full(3, 10, np.float32))
    >>> found.rank.tolist(), found.down.tolist()
    ([[10.0, 10.0], [10.0, 22.0]], [[0.0, 1.0], [0.0, -1.0]])
    >>> stricter = np.array([[10, 23], [10, -2]], np.float32), np.array([8, 12], np.float32)
    >>> _nearest_partners(np.array([[10, 10]], np.float32), np.array([10], np.float32), stricter).scale.tolist()
    [13.0]
    >>> stricter = np.array([[22, 10], [-2, 10]], np.float32), np.array([8, 8], np.float32)  # equally near
    >>> _nearest_partners(np.array([[10, 10]], np.float32), np.array([10], np.float32), stricter).down.tolist()
    [[-1.0, 0.0], [1.0, 0.0]]
    """
    among, among_size = (center, size) if partners is None else partners
    if not len(size) or not len(among_size):
        return Candidates.empty()
    reach = 2.3 * size
    ri, si = _within_reach(center, reach, among)  # by rank mark
    mark = size[ri]
    ratio = among_size[si] / mark
    ok = np.flatnonzero((ratio >= 0.3) & (ratio <= (1.8 if partners is None else CROSS_RATIO)))
    ri, si, mark = ri[ok], si[ok], mark[ok]
    vec = among.take(si, axis=0) - center.take(ri, axis=0)  # take: quicker than indexing rows
    dist = np.hypot(vec[:, 0], vec[:, 1])
    ok = np.flatnonzero((dist >= 0.5 * mark) & (dist <= reach[ri]))
    ri, si, dist, vec = ri[ok], si[ok], dist[ok], vec.take(ok, axis=0)
    # by rank mark, nearest partner first (a positive float32's bits order as its values do): a stable sort
    # keeps the rank marks' order, already sorted; equally near partners by position across the frame
    key = (ri << 32) | dist.view(np.int32)
    by = np.argsort(key, kind="stable")
    if not np.diff(key[by]).all():
        by = np.lexsort((si, among[si, 0], key))
    ri = ri[by]
    nearest = np.ones(len(ri), bool)  # the first MAX_PARTNERS of each rank mark's run
    nearest[MAX_PARTNERS:] = ri[MAX_PARTNERS:] != ri[:-MAX_PARTNERS]
    by, ri = by[nearest], ri[nearest]
    dist = dist[by]
    return Candidates(center.take(ri, axis=0), vec.take(by, axis=0) / dist[:, None], dist, np.zeros((len(ri), 2), np.float32))


def _beside(center: NDArray[Any], size: NDArray[Any], paper: NDArray[Any]) -> Candidates:
    """Each mark (centre, size) paired with its ``BESIDE_PARTNERS`` nearest marks of its own size (``BESIDE_RATIO``)
    across paper, ``BESIDE`` of its size away: a suit printed beside its rank, across the card's top (a
    rank's nearer partners are ``_nearest_partners``'). The suit is taken to lie right of the rank, so the
    card's "down" is a quarter turn from the pair's axis; the scale is ``BESIDE_SCALE`` times the rank's
    size, as if the suit were below it, and ``gap`` says where it is.

    >>> paper = np.ones((100, 200), np.uint8)
    >>> found = _beside(np.array([[20, 30], [80, 30]], np.float32), np.float32([20, 20]), paper)
    >>> found.down.tolist(), found.scale.tolist(), found.gap.tolist()
    ([[0.0, 1.0], [0.0, -1.0]], [25.0, 25.0], [[60.0, -25.0], [-60.0, 25.0]])
    >>> paper[:, 50] = 0  # ink between them: not paired
    >>> len(_beside(np.array([[20, 30], [80, 30]], np.float32), np.float32([20, 20]), paper))
    0
    """
    if len(size) < 2:
        return Candidates.empty()
    ri, si = _within_reach(center, BESIDE[1] * size)
    ratio = size[si] / size[ri]
    vec = center[si] - center[ri]
    dist = np.hypot(vec[:, 0], vec[:, 1])
    ok = (ratio >= 1 / BESIDE_RATIO) & (ratio <= BESIDE_RATIO) & (dist >= BESIDE[0] * size[ri]) & (dist <= BESIDE[1] * size[ri])
    ri, si, vec, dist = ri[ok], si[ok], vec[ok], dist[ok]
    h, w = paper.shape
    across = np.stack([-vec[:, 1], vec[:, 0]], axis=1) * (size[ri] / dist)[:, None]  # a rank's size, across the axis
    for t, o in itertools.product((0.4, 0.5, 0.6), (-0.35, 0.0, 0.35)):  # nothing but paper between them
        x, y = (np.rint(center[ri] + t * vec + o * across).astype(np.int64).T)
        inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
        ok = inside & (paper[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)] > 0)
        ri, si, vec, dist, across = ri[ok], si[ok], vec[ok], dist[ok], across[ok]
    by = np.lexsort((dist, ri))
    ri, si, vec, dist = ri[by], si[by], vec[by], dist[by]
    nearest = np.ones(len(ri), bool)
    nearest[BESIDE_PARTNERS:] = ri[BESIDE_PARTNERS:] != ri[:-BESIDE_PARTNERS]
    ri, vec, dist = ri[nearest], vec[nearest], dist[nearest]
    right = vec / dist[:, None]
    down = (right @ np.array([[0, 1], [-1, 0]], np.float32)).astype(np.float32)  # a quarter turn clockwise on screen
    scale = (BESIDE_SCALE * size[ri]).astype(np.float32)
    rank = center[ri]
    return Candidates(rank, down, scale, (vec - down * scale[:, None]).astype(np.float32))


def _within_reach(center: NDArray[Any], reach: NDArray[Any], among: NDArray[Any] | None = None
                  ) -> tuple[NDArray[Any], NDArray[Any]]:
    """Index pairs (i, j), by i, with mark j of ``among`` (centres; the marks themselves by default, i == j
    included) within ``reach[i]`` of mark i across and down (a square around it).

    ``among`` is sorted by band (a strip of the frame as tall as a typical reach) and across it, so its
    marks of one band within reach across are one run of that order: each mark is compared with the
    runs of the bands its reach spans, not with the whole height of the frame.

    >>> i, j = _within_reach(np.array([[0, 0], [5, 0], [0, 300]], np.float32), np.full(3, 10, np.float32))
    >>> sorted(zip(i.tolist(), j.tolist()))
    [(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)]
    >>> i, j = _within_reach(np.array([[0, 0], [0, 300]], np.float32), np.full(2, 10, np.float32),
    ...                         np.array([[5, 0], [0, 295], [40, 300]], np.float32))
    >>> sorted(zip(i.tolist(), j.tolist()))
    [(0, 0), (1, 1)]
    """
    among = center if among is None else among
    n, m = len(reach), len(among)
    if not n or not m:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    band_h = max(1.0, float(np.median(reach)))
    band = np.floor(among[:, 1] / band_h).astype(np.int64)
    wide = float(max(center[:, 0].max(), among[:, 0].max()) + reach.max() + 1)  # keys of one band never reach the next
    key = band * (4 * wide) + among[:, 0]  # exact: float32 values summed in float64
    order = np.argsort(key, kind="stable")
    keys = key[order]
    lo_band = np.floor((center[:, 1] - reach) / band_h).astype(np.int64)
    bands = np.floor((center[:, 1] + reach) / band_h).astype(np.int64) - lo_band + 1
    mark = np.repeat(np.arange(n), bands)  # each mark once per band its reach spans
    row = lo_band[mark] + np.arange(len(mark)) - np.repeat(np.cumsum(bands) - bands, bands)
    at, span = row * (4 * wide) + center[mark, 0], reach[mark]
    first = np.searchsorted(keys, at - span, "left")
    counts = np.searchsorted(keys, at + span, "right") - first
    i = np.repeat(mark, counts)
    j = order[np.arange(len(i)) + np.repeat(first - np.cumsum(counts) + counts, counts)]
    return i, j


def distinct(found: Candidates) -> NDArray[Any]:
    """Indices of the candidates whose rank and suit marks are not both in the same 3-pixel cells as an
    earlier candidate's (the same pair found at another ink level, or a place foreseen twice)."""
    cells = np.floor(np.vstack([found.rank.T[::-1], found.suit.T[::-1]]) / 3).astype(np.int64)  # rank y, x, suit y, x
    if not cells.shape[1]:
        return np.zeros(0, np.intp)
    # one number per cell quadruple (quicker to sort than rows), rank rows first: each ink level's candidates
    # come by rank mark, top down, so the stable sort finds long runs already in order (an int64 holds the
    # numbers of any frame under 50,000 pixels a side)
    cells -= cells.min(axis=1, keepdims=True)
    key = cells[0]
    for cell, span in zip(cells[1:], cells[1:].max(axis=1) + 1, strict=True):
        key = key * span + cell
    by = np.argsort(key, kind="stable")
    key = key[by]
    first = np.ones(len(key), bool)  # of each quadruple
    first[1:] = key[1:] != key[:-1]
    keep = np.zeros(len(key), bool)
    keep[by[first]] = True
    return np.flatnonzero(keep)


def ink_depth(lo: NDArray[Any]) -> NDArray[Any]:
    """How far each pixel of the darkest channel lies from the brightest paper within a few glyphs' reach
    toward the darkest ink there (0 as bright as the paper, 255 as dark as the ink), measured against a
    spread of at least ``LEAST_SPREAD`` of the paper's brightness (so where there is no ink nearby, the
    paper's own grain is not ink). Against the paper nearby, not the local mean, so the narrow gaps
    between a corner pip and a big pip stay paper; against the ink nearby, so a faint pink or grey index
    is cut at the same depth as a black one.

    >>> lo = np.full((64, 64), 240, np.uint8)
    >>> lo[20:40, 10:14], lo[20:40, 40:44] = 20, 200  # a black stroke and a faint one (ink at the looser level)
    >>> depth = ink_depth(lo)
    >>> int(depth[30, 12]), int(depth[30, 42]), int(depth[5, 5])
    (255, 142, 0)
    """
    h, w = lo.shape
    small, kernel = cv2.resize(lo, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA), np.ones((5, 5), np.uint8)
    paper, ink = (cv2.resize(near(small, kernel), (w, h), interpolation=cv2.INTER_LINEAR) for near in (cv2.dilate, cv2.erode))
    spread = cv2.max(cv2.subtract(paper, ink), _times(paper, LEAST_SPREAD))
    return cv2.divide(cv2.subtract(paper, lo), spread, scale=255)


def paper_mask(planes: Planes) -> NDArray[Any]:
    """Card paper (1) and red ink (1) versus anything else (0): bright for its neighbourhood (``PAPER_BRIGHT``),
    colourless and smooth. Carpet, wood and cloth fail one of the three (grain and fibres are not smooth).

    Smooth means no darker than its brightest neighbour by much: paper bordering ink stays paper (a
    pixel is not rough for having a dark neighbour), so the paper ring around a small, blurred index
    glyph squeezed between the card's edge and a court card's picture frame is not eaten by a halo.

    >>> import numpy as np
    >>> frame = np.full((40, 40, 3), 220, np.uint8)
    >>> frame[15:25, 18:22] = 20  # a stroke of ink on white paper
    >>> paper = paper_mask(Planes(frame))
    >>> int(paper[20, 17]), int(paper[20, 20]), int(paper[20, 22])  # paper, ink, paper
    (1, 0, 1)
    """
    lo = planes.lo
    small = cv2.resize(lo, None, fx=1 / 8, fy=1 / 8, interpolation=cv2.INTER_AREA)
    least = cv2.resize(_times(cv2.dilate(small, np.ones((7, 7), np.uint8)), PAPER_BRIGHT), (lo.shape[1], lo.shape[0]))
    rough = cv2.subtract(cv2.dilate(lo, np.ones((3, 3), np.uint8)), lo)
    white, red = _paper_colours(planes)
    bright = cv2.bitwise_and(white, cv2.compare(lo, least, cv2.CMP_GE))
    bright = cv2.bitwise_and(bright, cv2.compare(rough, 90, cv2.CMP_LT))  # type: ignore[call-overload]  # OpenCV's stubs take no number for src2
    mask: NDArray[Any] = cv2.bitwise_and(cv2.bitwise_or(bright, red), 1)  # type: ignore[call-overload]
    return mask


def paper_coloured(planes: Planes) -> NDArray[Any]:
    """Where a frame, or a coarse copy of one, has the colour of card paper (bright and colourless) or of red
    ink (255; else 0): ``paper_mask`` without its tests of a pixel's neighbourhood. A hand, a sleeve or a felt
    table has neither.

    >>> cells = np.array([[[235, 235, 235], [120, 150, 205], [60, 60, 220], [40, 110, 40]]], np.uint8)
    >>> paper_coloured(Planes(cells)).tolist()  # paper, skin, red ink, green felt
    [[255, 0, 255, 0]]
    """
    white, red = _paper_colours(planes)
    out: NDArray[Any] = cv2.bitwise_or(white, red)
    return out


def _paper_colours(planes: Planes) -> tuple[NDArray[Any], NDArray[Any]]:
    """Where the frame is bright and colourless, and where it is red ink, each 255 (else 0)."""
    # OpenCV's stubs take no number for src2
    white = cv2.bitwise_and(cv2.compare(planes.lo, 60, cv2.CMP_GT), cv2.compare(planes.sat, 60, cv2.CMP_LT))  # type: ignore[call-overload]
    return white, cv2.compare(planes.red, 60, cv2.CMP_GT)  # type: ignore[call-overload]


def _times(image: NDArray[Any], share: float) -> NDArray[Any]:
    """A uint8 image times ``share``, rounded (by a look-up table: quicker than ``cv2.multiply``).

    >>> _times(np.array([[0, 100, 255]], np.uint8), 0.6).tolist()
    [[0, 60, 153]]
    """
    return cv2.LUT(image, np.clip(np.rint(np.arange(256) * share), 0, 255).astype(np.uint8))


def box_sum(integral: NDArray[Any], x0: NDArray[Any], y0: NDArray[Any], x1: NDArray[Any], y1: NDArray[Any]
            ) -> tuple[NDArray[Any], NDArray[Any]]:
    """The sum of a mask within each box from (x0, y0) up to (x1, y1), clipped to the frame, from the mask's integral
    image, and each box's area.

    >>> box_sum(cv2.integral(np.ones((4, 6), np.uint8)), np.array([1, -3]), np.array([1, 0]), np.array([3, 2]),
    ...         np.array([4, 9]))
    (array([6, 8], dtype=int32), array([6, 8]))
    """
    h, w = integral.shape[0] - 1, integral.shape[1] - 1
    x0, x1 = np.clip(x0, 0, w).astype(int), np.clip(x1, 0, w).astype(int)
    y0, y1 = np.clip(y0, 0, h).astype(int), np.clip(y1, 0, h).astype(int)
    total = integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0]
    return total, (x1 - x0) * (y1 - y0)


def ring_share(integral: NDArray[Any], x: NDArray[Any], y: NDArray[Any], bw: NDArray[Any], bh: NDArray[Any],
                size: NDArray[Any]) -> NDArray[Any]:
    """The share of paper in a band around each box (x, y, bw, bh), a third of its size wide (``integral``:
    the paper mask's integral image)."""
    m = np.maximum(2, size / 3)
    outer, outer_area = box_sum(integral, x - m, y - m, x + bw + m, y + bh + m)
    inner, inner_area = box_sum(integral, x, y, x + bw, y + bh)
    out: NDArray[Any] = (outer - inner) / np.maximum(outer_area - inner_area, 1)
    return out
