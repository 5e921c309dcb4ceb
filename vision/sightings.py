"""Card sightings made of the index corners read in a frame: ``assemble(found, geometry) -> list[CardSighting]``.

A card's two corners face opposite ways across its body; paired, they are one sighting, and what they read together
is its card: one read and one unknown make the read card, two different reads an unknown card, never a guess. A lone
corner places its card by the median proportions of card designs (``glyphs.Reader.geometry``).

>>> up, down = np.array([0.0, 1.0]), np.array([0.0, -1.0])
>>> geometry = {"centre_x": 2.0, "centre_y": 3.5, "card_height": 8.5}
>>> top, bottom = Corner(Card.parse("9H"), 0.99, np.zeros(2), up, 10.0), Corner(None, 0.95, np.array([40.0, 70.0]), down, 10.0)
>>> [(s.code, s.center) for s in assemble([top, bottom], geometry)]  # one card, between its two corners
[('9H', (20.0, 35.0))]
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from vision import glyphs
from vision.indices import EXPERT_SURE, READ_SURE, TEN, Corner, right_of, to_centre
from vision.observations import CardSighting

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
BESIDE_INSET = 0.6
"""How far in from its card's side and top a rank mark whose suit is printed beside it lies, in index units (a
rank's size is 0.8 of one there: ``corners.BESIDE_SCALE``): such a card is placed by the two marks, as wide as
they lie apart and an inset each side, in a playing card's proportions."""
INSIDE_CARD = 2.5
"""A card whose rank is knocked out of a big suit shape in its middle is placed about that shape, this many times as
tall: the middle suit of such a deck spans about 0.4 of the card."""


def assemble(found: list[Corner], geometry: dict[str, float]) -> list[CardSighting]:
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
            centre = c.rank + c.across / 2 * right_of(c.down) + (size / 2 - inset) * c.down
        elif j is None and c.shape:  # a rank knocked out of the big suit shape in the card's middle
            card, confidence = c.card, c.confidence
            centre, size, index_size = c.rank, INSIDE_CARD * c.shape, c.scale
        elif j is None:
            card, confidence = c.card, c.confidence
            scale = c.scale if card is not None or unknown_scale is None else unknown_scale
            centre = c.rank + scale * to_centre(c.down, cx, cy)
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
    """The pairs (i < j) of corners that may be one card's (see ``assemble``), best first, each with how
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
    across = (v * right_of(axis)).sum(axis=1).astype(float)
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




def _outline(centre: NDArray[Any], down: NDArray[Any], height: float) -> tuple[tuple[float, float], ...]:
    """The corners of a card of ``height`` at ``centre`` lying along ``down`` (top-left first)."""
    x, y, dx, dy = float(centre[0]), float(centre[1]), float(down[0]) * height / 2, float(down[1]) * height / 2
    rx, ry = dy * 2.5 / 3.5, -dx * 2.5 / 3.5  # right: down turned a quarter, as wide as a card is for its height
    return (x - rx - dx, y - ry - dy), (x + rx - dx, y + ry - dy), (x + rx + dx, y + ry + dy), (x - rx + dx, y - ry + dy)




def rescaled(seen: CardSighting, factor: float) -> CardSighting:
    """A sighting in the coordinates of a frame ``factor`` times larger."""
    return replace(seen, center=(seen.center[0] * factor, seen.center[1] * factor),
                   outline=tuple((x * factor, y * factor) for x, y in seen.outline),
                   index_size=None if seen.index_size is None else seen.index_size * factor)
