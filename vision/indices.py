"""Index corners read in an image: ``read_corners(image) -> list[Corner]``, each a card's rank and suit (or unknown), where
its rank mark lies, which way its card runs and its size.

The finder (``vision.corners``) proposes rank-over-suit pairs of marks; the looks and the screen (``vision.glyphs``) set
aside those surely no index; the reader reads the rest, at three framings, and the experts the corners it cannot read
surely (``_read``). Repeated reads of one corner are merged, and where they disagree the corner is unknown. Where a
fan's read corners show where more lie, those places are read too (``foreseen``); where no corner reads with its
suit below its rank, suits beside their ranks are sought, then ranks knocked out of big suit shapes (``_inside``).
How the corners make cards is ``vision.sightings``'s.

>>> read_corners(np.full((120, 160, 3), 200, np.uint8))
[]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card, Rank
from vision import corners, glyphs, knockouts, patches

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
LEAN = 0.8
"""A corner the reader reads surely, but less surely than this, stands only where the expert reads the same card at
``EXPERT_SURE`` (as a ten does, ``TEN``): so close to ``READ_SURE``, what tips a mark that is no index over it can be
an OpenCV build's slightly other sampling. On the Pi's versions (OpenCV 4.11) a keyboard's legends beside a real test
photo's table were read as a 5♣ at 0.755; the expert, asked, reads no card in them (0.01). On the real photos' train
split (fitted on) this drops one of the two cards read wrong and none read right; on the test split it reads the same
cards on this machine's versions, and one card fewer held up to a webcam on the Pi's; the black deck one card fewer.
At 0.85 or 0.9 the test split reads 3 fewer, the train split 2 fewer right and 2 fewer wrong (decision record 0002)."""
TEN = glyphs.RANKS.index(Rank.TEN)
"""The ten's head index. A ten the reader reads surely stands only where the expert reads the same card at
``EXPERT_SURE``, as a suit beside its rank does (a layout neither network was fitted on): any straight stroke
beside a rank (a card's edge, a frame) can stand for its "1", and a narrow oval queen reads as a whole "10" (a
held-out deck's queens do, with their outline beside them or none): 10 of 1,123 cards wrong without this rule, 2
with it. A ten that two unknown corners read together (``sightings._pooled``) must be as sure."""
VARIANTS = ((1.08, 0.07), (0.92, -0.07))
"""(scale factor, turn in radians) of the re-reads a reading must survive."""
FIRM = 0.9999
"""A first read at least this sure (rank and suit) is not re-read: it stands for its re-reads. On 500 validation
scenes (held-out fonts, half of them with the hard cases) the reads were the same card for card as with every
corner re-read, with 38% fewer re-reads (at 0.999, one more card read right and two more phantoms)."""
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
Layout = Literal["below", "beside", "inside"]
"""How a deck prints its index: the suit below the rank (nearly every deck), beside it across the card's top
(one index a card, rank top left and suit top right), or the rank knocked out of a solid suit shape
(``vision.knockouts``: read from the big one in the card's middle)."""
MIN_SIDE = 32
"""Frames narrower or shorter than this hold no readable card: they give an empty list."""
HALVED, LARGE_INDEX = 2, 48.0
"""An image in which no index corner is read, or whose corners measure ``LARGE_INDEX`` pixels or more from rank to
suit at their median, is read again at 1 / HALVED of its size (``read_corners``), for corners too large to read as
they are (a close-up photo's, 60 px and more). On the colour photos of light-faced decks of the real set's train
split, 3 more cards of 862 are read right, with no more wrong or phantom; on the busiest synthetic tables, 1 frame
in 40 is read again. An odd last row or column is left out: OpenCV averages an exact half 15 times quicker (0.13
against 1.8 ms for a 640x853 photo; 62 of the 164 real test photos are read halved too)."""


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
        out: NDArray[Any] = self.rank + (right_of(self.down) * self.across if self.across else self.down * self.scale)
        return out

    @property
    def middle(self) -> NDArray[Any]:
        """The index's middle: halfway from the rank mark to the suit mark."""
        out: NDArray[Any] = self.rank + self.down * (self.scale / 2)
        return out

    def repeats(self, other: Corner) -> bool:
        """Whether this is a read of ``other``'s corner (``same_corner``) as an index of its layout (a suit below its
        rank or beside it: ``cards._one_layout`` chooses between the two once the whole table is read)."""
        return bool(same_corner(self.rank, self.scale, other.rank, other.scale)) and self.layout == other.layout

    def moved(self, offset: tuple[float, float]) -> Corner:
        """The same corner read in a crop whose top-left lies at ``offset`` in the frame."""
        return replace(self, rank=self.rank + np.asarray(offset, float))

    def enlarged(self, factor: float) -> Corner:
        """The same corner read in a copy of the frame scaled by ``1 / factor``."""
        return replace(self, rank=self.rank * factor, scale=self.scale * factor, across=self.across * factor,
                       shape=self.shape * factor)



def read_corners(image: NDArray[Any], layout: Layout | None = None, shapes: bool = True,
                 confirm: bool = False) -> list[Corner]:
    """The index corners in a BGR image, one per corner: read as it is and, where it holds none or large ones only,
    halved (``HALVED``), each corner of the halved image kept where the image as it is holds none; in the table's
    ``layout`` where it is known (``read_at_scale``; ``shapes`` and ``confirm``: as there)."""
    found = read_at_scale(image, layout, shapes, confirm)
    if min(image.shape[:2]) < HALVED * MIN_SIDE or (found and np.median([c.scale for c in found]) < LARGE_INDEX):
        return found
    h, w = (side - side % HALVED for side in image.shape[:2])  # an exact half (see ``HALVED``)
    halved = cv2.resize(image[:h, :w], (w // HALVED, h // HALVED), interpolation=cv2.INTER_AREA)
    larger = [c.enlarged(HALVED) for c in read_at_scale(halved, layout, shapes, confirm)]
    return found + [c for c in larger if not any(c.repeats(f) for f in found)]


def read_at_scale(image: NDArray[Any], layout: Layout | None = None, shapes: bool = True,
                  confirm: bool = False) -> list[Corner]:
    """The index corners in a BGR image at the scale given, one per corner (repeated reads merged), in the table's
    ``layout`` where it is known. Where it is not: those with their suits below their ranks, and those read where
    these foresee more (``foreseen``); where none of those is read, those with their suits beside their ranks too;
    and where neither way finds so much as an unknown index, the ranks knocked out of suit shapes (``_inside``),
    unless told not to seek those (``shapes`` false) where the layout is not known. One deck is read one way
    (``cards._one_layout``), so an image that reads as an ordinary deck spends nothing on the other ways, nor one whose
    indices are there but unreadable. With ``confirm`` (a dark deck's ``cards.negative``, which the networks were never
    fitted on), every read stands only where the expert reads it too, as in the layouts they were never fitted on."""
    planes = corners.Planes(image)
    found = _read(planes, corners.candidates(planes), confirm=confirm) if layout in (None, "below") else []
    found += [c for c in _read(planes, foreseen(found), confirm=confirm) if c.card is not None]
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
    ``sightings.assemble`` places a lone corner's card), facing the other way at the same scale.

    >>> up = np.array([0.0, 1.0])
    >>> found = other_corners([Corner(None, 0.95, np.zeros(2), up, 10.0)], {"centre_x": 2.0, "centre_y": 3.5})
    >>> found.rank.tolist(), found.down.tolist()
    ([[40.0, 70.0]], [[-0.0, -1.0]])
    """
    if not unknown:
        return corners.Candidates.empty()
    rank, down, scale = _placed(unknown)
    across = 2 * scale[:, None] * to_centre(down, geometry["centre_x"], geometry["centre_y"])
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
    below their ranks or, given the corners read so (``below``), beside them (``_check_beside``). Where the layout or
    the image is one the networks were never fitted on (``confirm``: a suit beside its rank, a rank knocked out of a
    suit shape, a dark deck's negative), every read stands only where the expert reads it too."""
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
    framed[again, 1:] = np.stack(np.split(patches.features(planes, _variants(found[again])), len(VARIANTS)), axis=1)
    reads_rank, reads_suit = (np.repeat(p[keep, None], 1 + len(VARIANTS), axis=1) for p in (p_rank, p_suit))
    for reads, p in zip((reads_rank, reads_suit), _reads(net, framed[again, 1:]), strict=True):
        reads[again, 1:] = p  # corner, read, class
    sure = least_sure(reads_rank, reads_suit, rank_k, suit_k)
    index = glyphs.index_share(reads_rank, reads_suit).min(axis=1)
    # a corner surely an index but not read surely is read by the expert, if it reads it at every framing;
    # either way the expert's reads stand for the reader's there (for ``sightings._pooled``)
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
    # the reader's reads that a layout or a stroke can feign (``TEN``), and those barely sure (``LEAN``), stand only
    # where the expert reads the same card as surely as it reads alone; its reads stand for the reader's there (for
    # ``sightings._pooled``)
    doubt = np.flatnonzero((sure >= READ_SURE) & (sure_at == READ_SURE) & (confirm | (rank_k == TEN) | (sure < LEAN)))
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
    picked, rows = [np.zeros(0, np.intp)], [np.zeros((0, patches.FEATURES), np.float32)]
    for block, x in patches.feature_blocks(planes, found[ahead]):
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
    so two such corners of one card are pooled (``sightings._pooled``) from the expert's reads."""
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




def to_centre(down: NDArray[Any], cx: float, cy: float) -> NDArray[Any]:
    """The way from a corner's rank mark to its card's centre, in index units, given its "down" (one vector or a row of
    each), ``cx`` across and ``cy`` down (the median card's ``centre_x`` and ``centre_y``).

    >>> to_centre(np.array([0.0, 1.0]), 2.0, 3.5).tolist()
    [2.0, 3.5]
    """
    out: NDArray[Any] = cx * right_of(down) + cy * down
    return out


def right_of(down: NDArray[Any]) -> NDArray[Any]:
    """A card's "right" given its "down" (a quarter turn counter-clockwise on screen), of one vector or
    of each row of many.

    >>> right_of(np.array([0.0, 1.0])).tolist(), right_of(np.array([[1.0, 0.0]])).tolist()
    ([1.0, -0.0], [[0.0, -1.0]])
    """
    return np.stack([down[..., 1], -down[..., 0]], axis=-1)


