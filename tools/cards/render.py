"""Synthetic card tables: the training and held-out test data of the card reader.

Everything here is drawn from scratch with Pillow fonts and OpenCV: card faces in several designs (index
fonts, index sizes, suit shapes, pip layouts, court pictures), card backs, tables (wood, felt, carpet,
cloth, tiles, plain), chips, dice and hands, under uneven light with glare, blur, noise and JPEG loss.
Pillow and the fonts are needed only to make data (``python -m tools.cards.train``), never at run time.

A scene knows where every index corner it drew lies and whether it is still visible:

>>> import numpy as np
>>> scene = table_scene(np.random.default_rng(1), size=(360, 640))
>>> scene.image.shape, scene.image.dtype
((360, 640, 3), dtype('uint8'))
>>> all(len(card.outline) == 4 for card in scene.cards)
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import DECK, Card, Rank, Suit
from vision import text

FACE_W, FACE_H = 250, 350
"""Card faces are drawn at this size (a poker card's 2.5 x 3.5 inch proportions)."""

FONTS = Path(__file__).with_name("fonts")
"""The fonts only data is drawn in (``tools/cards/fonts``)."""
FONT_DIRS = (str(FONTS), str(text.FONTS))
"""Where the fonts below are looked up: the files that come with the source (``tools/cards/fonts``, and
``vision/fonts`` for the two the run time draws the dice in), never the machine's own, so every machine draws
the same faces."""
RANK_FONTS = (
    "C059-Roman", "C059-Bold", "NimbusRoman-Regular", "NimbusRoman-Bold", "URWBookman-Light",
    "URWBookman-Demi", "DejaVuSerif", "DejaVuSerif-Bold", "DejaVuSerifCondensed", "LiberationSerif-Regular",
    "LiberationSerif-Bold", "FreeSerif", "FreeSerifBold", "NimbusSans-Regular", "NimbusSans-Bold",
    "NimbusSansNarrow-Regular", "NimbusSansNarrow-Bold", "DejaVuSans", "DejaVuSans-Bold",
    "DejaVuSansCondensed", "DejaVuSansCondensed-Bold", "LiberationSans-Regular", "LiberationSans-Bold",
    "LiberationSansNarrow-Regular", "FreeSansBold",
)
"""Index fonts used for training."""
HELD_OUT_FONTS = ("P052-Roman", "P052-Bold", "URWGothic-Demi", "FreeSans", "LiberationSansNarrow-Bold")
"""Index fonts never used for training: the held-out synthetic test decks use only these."""
HARD_RANKS = (Rank.ACE, Rank.FOUR, Rank.EIGHT, Rank.TEN, Rank.QUEEN, Rank.KING)
"""Ranks whose small, blurred indices real photos confuse (K and 8, Q and 4, 10 and 8, the ornate ace of spades
and a club): the hard scenes deal each of their cards three times as often as another."""
SUIT_FONTS = ("DejaVuSans", "FreeSerif", "FreeSans", "DejaVuSerif", "DejaVuSans-Bold")
SUIT_CHARS = {Suit.SPADES: "\u2660", Suit.HEARTS: "\u2665", Suit.DIAMONDS: "\u2666", Suit.CLUBS: "\u2663"}

# Pip centres (x, y) as fractions of the card, for the number cards (columns at 0.3 / 0.7 and rows from
# 0.2 to 0.8 here, spread to each design's own columns and rows); pips below the middle are drawn upside
# down. The classic layouts.
_L, _M, _R = 0.30, 0.50, 0.70
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((_M, 0.2), (_M, 0.8)),
    3: ((_M, 0.2), (_M, 0.5), (_M, 0.8)),
    4: ((_L, 0.2), (_R, 0.2), (_L, 0.8), (_R, 0.8)),
    5: ((_L, 0.2), (_R, 0.2), (_M, 0.5), (_L, 0.8), (_R, 0.8)),
    6: ((_L, 0.2), (_R, 0.2), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    7: ((_L, 0.2), (_R, 0.2), (_M, 0.35), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    8: ((_L, 0.2), (_R, 0.2), (_M, 0.35), (_L, 0.5), (_R, 0.5), (_M, 0.65), (_L, 0.8), (_R, 0.8)),
    9: ((_L, 0.2), (_R, 0.2), (_L, 0.4), (_R, 0.4), (_M, 0.5), (_L, 0.6), (_R, 0.6), (_L, 0.8), (_R, 0.8)),
    10: ((_L, 0.2), (_R, 0.2), (_M, 0.3), (_L, 0.4), (_R, 0.4), (_L, 0.6), (_R, 0.6), (_M, 0.7),
         (_L, 0.8), (_R, 0.8)),
}


@cache
def font_path(name: str) -> str | None:
    """The file of an installed font by its file stem, or None when it is not installed."""
    for root in FONT_DIRS:
        for path in sorted(Path(root).rglob(f"{name}.*")):
            if path.suffix.lower() in (".ttf", ".otf"):
                return str(path)
    return None


def available(names: tuple[str, ...]) -> list[str]:
    """The fonts of ``names`` installed here (training needs at least one)."""
    found = [name for name in names if font_path(name)]
    if not found:
        raise RuntimeError(f"none of the fonts {', '.join(names)} is in {', '.join(FONT_DIRS)} (the fonts ship "
                           "with the source: see tools/cards/fonts/README.md)")
    return found


@cache
def glyph(font: str, text: str, stroke: int = 0) -> NDArray[Any]:
    """The ink of ``text`` in ``font``, cropped to its box, as a float mask about 120 pixels tall, its
    strokes ``stroke`` pixels bolder each side (thinner when negative: light and heavy print)."""
    from PIL import Image, ImageDraw, ImageFont

    path = font_path(font)
    if path is None:
        raise RuntimeError(f"the font {font} is not in {', '.join(FONT_DIRS)}")
    face = ImageFont.truetype(path, 120)
    canvas = Image.new("L", (120 * (len(text) + 1), 220), 0)
    ImageDraw.Draw(canvas).text((30, 30), text, font=face, fill=255)
    ink: NDArray[Any] = np.asarray(canvas, dtype=np.float32) / 255.0
    if stroke:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * abs(stroke) + 1,) * 2)
        thinned = cv2.erode(ink, kernel)
        ink = cv2.dilate(ink, kernel) if stroke > 0 else thinned if thinned.max() > 0.5 else ink
    ys, xs = np.nonzero(ink > 0.1)
    return np.ascontiguousarray(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


@cache
def drawn_suit(suit: Suit, style: int) -> NDArray[Any]:
    """A suit sign drawn from circles and polygons in one of many styles (leaf sizes, widths, stems), as
    a float mask about 120 pixels tall: card pips vary more than font glyphs do."""
    rng = np.random.default_rng(style)
    s = 4  # drawn 4 times larger, then reduced: smooth edges
    canvas = np.zeros((160 * s, 160 * s), np.uint8)
    cx, top, bottom = 80 * s, 20 * s, 140 * s
    width = rng.uniform(0.72, 0.95) * (bottom - top)
    def circle(x: float, y: float, r: float) -> None:
        cv2.circle(canvas, (round(x), round(y)), round(r), (255,), -1, cv2.LINE_AA)
    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(canvas, [np.round(np.array(points)).astype(np.int32)], (255,), cv2.LINE_AA)
    if suit is Suit.DIAMONDS:
        bow = rng.uniform(0, 0.05) * width
        half, mid = width * rng.uniform(0.38, 0.46), (top + bottom) / 2
        tips = [(cx, top), (cx + half, mid), (cx, bottom), (cx - half, mid)]
        edge = []
        for (x0, y0), (x1, y1) in zip(tips, tips[1:] + tips[:1], strict=True):
            for t in np.linspace(0, 1, 12, endpoint=False):  # sides bowed inwards
                x, y = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                pull = bow * 4 * t * (1 - t)
                edge.append((x + (cx - x) / max(1.0, abs(cx - x)) * pull * (abs(cx - x) > 1), y + (mid - y) / max(1.0, abs(mid - y)) * pull * 0.5))
        poly(edge)
    elif suit in (Suit.HEARTS, Suit.SPADES):
        lobe = width * rng.uniform(0.25, 0.3)
        point = bottom if suit is Suit.HEARTS else top + (bottom - top) * rng.uniform(0.72, 0.82)
        lobes_y = top + lobe if suit is Suit.HEARTS else point - lobe * rng.uniform(0.9, 1.2)
        tip = top if suit is Suit.SPADES else bottom
        for side in (-1, 1):
            circle(cx + side * (width / 2 - lobe), lobes_y, lobe)
        poly([(cx - width / 2 + lobe * 0.05, lobes_y + (lobe * 0.3 if suit is Suit.HEARTS else -lobe * 0.3)), (cx, tip),
              (cx + width / 2 - lobe * 0.05, lobes_y + (lobe * 0.3 if suit is Suit.HEARTS else -lobe * 0.3)),
              (cx, lobes_y)])
        if suit is Suit.SPADES:  # the lobes' underside, down to the stem
            circle(cx, lobes_y + lobe * 0.2, lobe * 0.8)
        if suit is Suit.HEARTS:
            poly([(cx - width / 2 + lobe * 0.3, lobes_y + lobe * 0.5), (cx, bottom), (cx + width / 2 - lobe * 0.3, lobes_y + lobe * 0.5)])
    else:  # clubs
        leaf = width * rng.uniform(0.22, 0.28)
        spread = rng.uniform(0.85, 1.05)
        circle(cx, top + leaf, leaf)
        low = top + leaf * (1 + 1.6 * spread)
        for side in (-1, 1):
            circle(cx + side * leaf * 1.15 * spread, low, leaf)
        poly([(cx - leaf * 0.5, top + leaf), (cx + leaf * 0.5, top + leaf), (cx + leaf * 0.4, low), (cx - leaf * 0.4, low)])
        circle(cx, low - leaf * 0.2, leaf * 0.6)
        point = low + leaf * 0.3
    if suit in (Suit.SPADES, Suit.CLUBS):  # a stem, flared at its foot
        foot = width * rng.uniform(0.18, 0.35)
        neck = width * rng.uniform(0.03, 0.08)
        poly([(cx - neck, point - 4 * s), (cx + neck, point - 4 * s), (cx + foot, bottom), (cx - foot, bottom)])
    ink = cv2.resize(canvas, None, fx=1 / s, fy=1 / s, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ys, xs = np.nonzero(ink > 0.1)
    return np.ascontiguousarray(ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _stamp(face: NDArray[Any], mask: NDArray[Any], box: tuple[float, float, float, float],
           color: tuple[int, int, int], flip: bool = False) -> None:
    """Paint ``mask`` resized into ``box`` (x, y, w, h) of ``face`` in ``color`` (rotated 180 if flip)."""
    x, y, w, h = box
    w, h = max(2, round(w)), max(2, round(h))
    m = cv2.resize(mask, (w, h), interpolation=cv2.INTER_AREA)
    if flip:
        m = m[::-1, ::-1]
    x0, y0 = round(x), round(y)
    x1, y1 = min(face.shape[1], x0 + w), min(face.shape[0], y0 + h)
    if x0 < 0 or y0 < 0 or x1 <= x0 or y1 <= y0:
        return
    m = m[: y1 - y0, : x1 - x0, None]
    region = face[y0:y1, x0:x1].astype(np.float32)
    face[y0:y1, x0:x1] = (region * (1 - m) + np.array(color, np.float32) * m).astype(np.uint8)


def _bgr(values: NDArray[Any]) -> tuple[int, int, int]:
    """A colour of three numbers as OpenCV draws it.

    >>> _bgr(np.array([250.0, 12.5, 0.0]))
    (250, 12, 0)
    """
    b, g, r = (int(v) for v in values)
    return b, g, r


@dataclass(frozen=True)
class Design:
    """How one deck draws its faces."""

    rank_font: str
    suit_font: str
    suit_style: int  # drawn suit signs in this style (``drawn_suit``), or 0: signs of ``suit_font``
    index_height: float  # rank glyph height / card height
    index_x: float  # rank centre x / card width
    index_top: float  # rank top / card height
    suit_scale: float  # suit pip height / rank height
    gap: float  # gap between rank and suit / rank height
    squeeze: float  # width factor of the rank glyphs (narrow decks)
    stroke: int  # rank strokes made bolder (or thinner, if negative) by this many pixels at 120 px
    pip_scale: float  # centre pip height / card height
    pip_column: float  # x of the left pip column / card width
    pip_top: float  # y of the top pip row / card height
    court_inset: float  # margin of a court picture / card width
    court_pip: float  # height of the suit pip inside a court picture / card height
    paper: tuple[int, int, int]
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    border: bool

    @staticmethod
    def random(rng: np.random.Generator, fonts: list[str]) -> Design:
        """A plausible deck design with index fonts from ``fonts``."""
        tint = rng.integers(-12, 4, 3)
        return Design(
            rank_font=str(rng.choice(fonts)),
            suit_font=str(rng.choice(available(SUIT_FONTS))),
            suit_style=int(rng.integers(1, 10_000)) if rng.random() < 0.6 else 0,
            index_height=float(rng.uniform(0.075, 0.13) if rng.random() < 0.85 else rng.uniform(0.13, 0.17)),
            index_x=float(rng.uniform(0.075, 0.12)),
            index_top=float(rng.uniform(0.035, 0.06)),
            suit_scale=float(rng.uniform(0.55, 0.9)),
            gap=float(rng.uniform(0.12, 0.35)),
            squeeze=float(rng.uniform(0.6, 1.05)),
            stroke=int(rng.integers(-4, 4)),
            pip_scale=float(rng.uniform(0.11, 0.19)),
            pip_column=float(rng.uniform(0.24, 0.33)),
            pip_top=float(rng.uniform(0.16, 0.24)),
            court_inset=float(rng.uniform(0.1, 0.25)),
            court_pip=float(rng.uniform(0.06, 0.16)),
            paper=_bgr(np.clip(np.array([246, 248, 248]) + tint, 0, 255)),
            red=(int(rng.integers(20, 130)), int(rng.integers(10, 120)), int(rng.integers(170, 240))),
            black=_bgr(rng.integers(0, 45, 3) + rng.integers(0, 40)),
            border=bool(rng.random() < 0.3),
        )


@dataclass(frozen=True)
class IndexMark:
    """Where one index corner of a face lies, in face pixels: rank box centre and suit box centre."""

    rank: tuple[float, float]
    suit: tuple[float, float]
    height: float  # rank glyph height


def card_face(card: Card, design: Design, rng: np.random.Generator,
              hard: np.random.Generator | None = None) -> tuple[NDArray[Any], list[IndexMark]]:
    """A BGR face of ``card`` in ``design`` and its two index corners (top-left, then bottom-right);
    with ``hard``, some faces are drawn as real decks often are and plain ones never (see ``table_scene``)."""
    face = np.empty((FACE_H, FACE_W, 3), np.uint8)
    face[:] = design.paper
    color = design.red if card.suit.red else design.black
    suit_mask = (drawn_suit(card.suit, design.suit_style) if design.suit_style
                 else glyph(design.suit_font, SUIT_CHARS[card.suit]))
    if design.border:
        cv2.rectangle(face, (6, 6), (FACE_W - 7, FACE_H - 7), design.black, 1)
    rank_mask = glyph(design.rank_font, card.rank.label, design.stroke)
    rh = design.index_height * FACE_H
    rw = rh * rank_mask.shape[1] / rank_mask.shape[0] * design.squeeze
    sh = rh * design.suit_scale
    sw = sh * suit_mask.shape[1] / suit_mask.shape[0]
    cx, top = design.index_x * FACE_W, design.index_top * FACE_H
    cx = max(cx, rw / 2 + 0.045 * FACE_W)
    _draw_middle(face, card, design, suit_mask, color, rng, (cx + max(rw, sw) / 2 + 4) / FACE_W, hard)
    suit_top = top + rh * (1 + design.gap)
    marks = []
    for flip in (False, True):
        rank_box = (cx - rw / 2, top, rw, rh)
        suit_box = (cx - sw / 2, suit_top, sw, sh)
        if flip:
            rank_box = (FACE_W - rank_box[0] - rw, FACE_H - top - rh, rw, rh)
            suit_box = (FACE_W - suit_box[0] - sw, FACE_H - suit_top - sh, sw, sh)
        _stamp(face, rank_mask, rank_box, color, flip)
        _stamp(face, suit_mask, suit_box, color, flip)
        marks.append(IndexMark((rank_box[0] + rw / 2, rank_box[1] + rh / 2),
                               (suit_box[0] + sw / 2, suit_box[1] + sh / 2), rh))
    return face, marks


CARD_FACES = Path(__file__).resolve().parents[3] / "shared" / "data" / "card-faces"
"""Face sets of real, openly licensed deck designs (``../shared/data/card-faces``, one PNG a card)."""
TRAINING_DECKS = ("byron-knoll", "saulspatz-jumbo", "nicu-white")
"""The public-domain decks the reader is fitted on (the four-colour one, whose suit sits beside the rank, is not)."""
HELD_OUT_DECKS = ("aguilar", "bellot", "aisleriot-neoclassical", "aisleriot-minimum", "aisleriot-plastic",
                  "aisleriot-ornamental", "aisleriot-pixelangelo", "aisleriot-tango-nuevo")
"""The (L)GPL decks the reader never sees: the benchmark's designs of a club's own deck."""
TOP_LEFT_ONLY = SUIT_BESIDE = ("aisleriot-tango-nuevo",)
"""Decks whose faces carry one index, top left (no turned index bottom right), and those whose suit is printed
right of the rank (across the top of the card), not below it."""
TAB_INDEX = ("aisleriot-minimum",)
"""Decks whose rank is printed light inside a solid suit-shaped tab: no suit mark of its own (the marks found
there are the tab's and the big middle suit's, placed only roughly)."""


@cache
def deck_face(deck: str, card: Card, faces: Path = CARD_FACES) -> tuple[NDArray[Any], tuple[IndexMark, ...]]:
    """The face of ``card`` in a real deck design (``CARD_FACES``), BGR on white, ``FACE_W`` x ``FACE_H``, and
    its index corners (see ``deck_index``)."""
    face = _real_face(deck, card, faces)
    rank, suit, height = deck_index(deck, faces)
    flipped = IndexMark((FACE_W - rank[0], FACE_H - rank[1]), (FACE_W - suit[0], FACE_H - suit[1]), height)
    return face, (IndexMark(rank, suit, height),) + ((flipped,) if deck not in TOP_LEFT_ONLY else ())


@cache
def deck_index(deck: str, faces: Path = CARD_FACES) -> tuple[tuple[float, float], tuple[float, float], float]:
    """Where a deck prints its top-left index, in ``FACE_W`` x ``FACE_H`` face pixels: the rank's centre, the
    suit's centre and the rank's height, the median over its aces to nines of the top mark in the corner and
    the next one below it (one design prints every index alike; a ten is wider, a court's pip may touch it)."""
    found = []
    for card in DECK:
        if card.rank is Rank.TEN or card.rank.value > 10:
            continue
        if (marks := _corner_marks(_real_face(deck, card, faces), deck in SUIT_BESIDE)) is not None:
            found.append(marks)
    if not found:
        raise ValueError(f"no index found on the faces of {deck}")
    rx, ry, sx, sy, h = np.median(np.array(found), axis=0)
    return (float(rx), float(ry)), (float(sx), float(sy)), float(h)


def _real_face(deck: str, card: Card, faces: Path) -> NDArray[Any]:
    """The PNG of ``card`` in a real deck design, ``FACE_W`` x ``FACE_H``, BGR on white (outside the card is
    transparent there)."""
    png = cv2.imread(str(faces / deck / f"{card.code}.png"), cv2.IMREAD_UNCHANGED)
    if png is None:
        raise FileNotFoundError(f"no face {card.code} in {faces / deck}")
    if png.ndim == 2 or png.shape[2] < 4:
        png = cv2.cvtColor(png if png.ndim == 3 else cv2.cvtColor(png, cv2.COLOR_GRAY2BGR), cv2.COLOR_BGR2BGRA)
    png = cv2.resize(png, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    alpha = png[..., 3:4].astype(np.float32) / 255
    out: NDArray[Any] = (png[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return out


def _corner_marks(face: NDArray[Any], side: bool = False) -> tuple[float, float, float, float, float] | None:
    """The top mark of a BGR face's top-left corner and the next mark below it that it overlaps across (with
    ``side``, the next one right of it), as rank x, y, suit x, y and rank height, or None: ink is darker than
    the paper or strongly coloured."""
    lo, hi = face.min(axis=2).astype(np.int16), face.max(axis=2).astype(np.int16)
    paper = float(np.median(lo[FACE_H // 3: 2 * FACE_H // 3, FACE_W // 10: FACE_W // 5]))
    ink = ((lo < paper - 70) | (hi - lo > 90)).astype(np.uint8)
    edge = int(0.03 * FACE_W)
    corner = np.ascontiguousarray(ink[edge: int(0.42 * FACE_H), edge: FACE_W - edge if side else int(0.32 * FACE_W)])
    n, _, stats, _ = cv2.connectedComponentsWithStats(corner)
    marks = sorted((s for s in stats[1:n] if s[4] > 0.0004 * FACE_W * FACE_H), key=lambda s: s[1])
    if len(marks) < 2:
        return None
    r = marks[0]
    below = [s for s in marks[1:] if r[1] + 0.8 * r[3] < s[1] < r[1] + 2.5 * r[3] and s[0] < r[0] + r[2] and s[0] + s[2] > r[0]]
    beside = [s for s in marks[1:] if s[0] > r[0] + 0.8 * r[2] and s[1] < r[1] + r[3] and s[1] + s[3] > r[1]]
    if not (beside if side else below):
        return None
    s = min(beside, key=lambda m: m[0]) if side else min(below, key=lambda m: m[1])
    return (edge + r[0] + r[2] / 2, edge + r[1] + r[3] / 2, edge + s[0] + s[2] / 2, edge + s[1] + s[3] / 2, float(r[3]))


def _draw_middle(face: NDArray[Any], card: Card, design: Design, suit_mask: NDArray[Any],
                 color: tuple[int, int, int], rng: np.random.Generator, clear: float,
                 hard: np.random.Generator | None = None) -> None:
    """The pips, the ace's big pip or a court picture, all right of ``clear`` (a share of the width)
    so that the index corners stay clear; with ``hard``, half the court pictures are framed right beside
    the index (a pixel or two off it, as on most real courts) and densely coloured, and half the aces of
    spades are big and ornate."""
    aspect = suit_mask.shape[1] / suit_mask.shape[0]
    if card.rank in PIPS:
        ph = design.pip_scale * FACE_H
        column = min(0.45, max(design.pip_column, clear + ph * aspect / 2 / FACE_W))
        for fx, fy in PIPS[card.rank]:
            x = (0.5 + (fx - 0.5) / 0.2 * (0.5 - column)) * FACE_W
            y = (0.5 + (fy - 0.5) / 0.3 * (0.5 - design.pip_top)) * FACE_H
            _stamp(face, suit_mask, (x - ph * aspect / 2, y - ph / 2, ph * aspect, ph), color, fy > 0.5)
    elif card.rank is Rank.ACE:
        ph = FACE_H * float(rng.uniform(0.16, 0.36))
        ornate = hard if hard is not None and card.suit is Suit.SPADES and hard.random() < 0.5 else None
        if ornate is not None:
            ph = min(FACE_H * float(ornate.uniform(0.3, 0.45)), (1 - 2 * clear) * FACE_W / aspect)
        _stamp(face, suit_mask, (FACE_W / 2 - ph * aspect / 2, FACE_H / 2 - ph / 2, ph * aspect, ph), color)
        if ornate is not None:
            _ornament(face, suit_mask, ph, clear, design, ornate)
        if rng.random() < 0.3:  # ornate aces carry small print
            for k in range(int(rng.integers(2, 5))):
                y = int(FACE_H * 0.72 + k * 8)
                cv2.line(face, (90, y), (160, y), design.black, 1)
    else:
        x0 = int(FACE_W * max(design.court_inset, clear))
        y0 = int(FACE_H * design.court_inset * 0.6)
        palette = [design.red, design.black, (40, 170, 220), (170, 80, 30), (60, 140, 60)]
        tight = hard if hard is not None and hard.random() < 0.5 else None  # a picture framed beside the index
        if tight is not None:
            x0, y0 = int(FACE_W * clear - tight.uniform(0, 4)), int(FACE_H * tight.uniform(0.02, 0.06))
        x1, y1 = FACE_W - x0, FACE_H - y0
        outside = face.copy() if tight is not None else face  # a tight picture stays inside its frame
        if tight is not None:  # a densely coloured picture: a ground, then many more shapes
            cv2.rectangle(face, (x0, y0), (x1, y1), palette[int(tight.integers(2, len(palette)))], -1)
            for _ in range(int(tight.integers(40, 120))):
                p = (int(tight.integers(x0, x1)), int(tight.integers(y0, y1)))
                cv2.ellipse(face, p, (int(tight.integers(3, 25)), int(tight.integers(3, 25))), float(tight.uniform(0, 180)),
                            0, 360, palette[int(tight.integers(len(palette)))], -1 if tight.random() < 0.7 else 2)
        for _ in range(int(rng.integers(25, 60))):
            c = palette[int(rng.integers(len(palette)))]
            p = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
            if rng.random() < 0.5:
                q = (int(rng.integers(x0, x1)), int(rng.integers(y0, y1)))
                cv2.line(face, p, q, c, int(rng.integers(1, 5)))
            else:
                axes = (int(rng.integers(3, 22)), int(rng.integers(3, 22)))
                cv2.ellipse(face, p, axes, float(rng.uniform(0, 180)), 0, 360, c, -1 if rng.random() < 0.6 else 2)
        if tight is not None:
            inside = np.zeros(face.shape[:2], bool)
            inside[y0:y1 + 1, x0:x1 + 1] = True
            face[~inside] = outside[~inside]
        frame = palette[int(tight.integers(len(palette)))] if tight is not None else design.black
        cv2.rectangle(face, (x0, y0), (x1, y1), frame, int(tight.integers(1, 4)) if tight is not None else 2)
        ph = design.court_pip * FACE_H
        _stamp(face, suit_mask, (x0 + 4, y0 + 4, ph * aspect, ph), color)


def _ornament(face: NDArray[Any], suit_mask: NDArray[Any], ph: float, clear: float, design: Design,
              rng: np.random.Generator) -> None:
    """Dress the big pip (``ph`` tall, in the middle of ``face``) as an ornate ace of spades: an outline
    ring round it, a pale inner pip with hatching, scrolls either side and a maker's name across the top,
    all right of ``clear``."""
    aspect = suit_mask.shape[1] / suit_mask.shape[0]
    cx, cy = FACE_W / 2, FACE_H / 2
    def pip(target: NDArray[Any], scale: float, color: tuple[int, int, int]) -> None:
        h = ph * scale
        _stamp(target, suit_mask, (cx - h * aspect / 2, cy - h / 2, h * aspect, h), color)
    pip(face, 0.82, design.paper)
    pip(face, 0.7, design.black)
    inner, lines = np.zeros_like(face), np.zeros(face.shape[:2], np.uint8)
    pip(inner, 0.7, (255, 255, 255))
    for k in range(-FACE_H, FACE_W + FACE_H, int(rng.integers(4, 9))):  # hatching over the inner pip
        cv2.line(lines, (k, 0), (k + FACE_H, FACE_H), (1,), 1)
    face[(lines > 0) & (inner[..., 0] > 128)] = np.add(np.multiply(design.paper, 0.8), np.multiply(design.black, 0.2))
    reach = (0.5 - clear) * FACE_W - 3
    for side in (-1, 1):  # scrolls either side of the pip
        for _ in range(int(rng.integers(2, 6))):
            a = (int(rng.uniform(0.2, 0.45) * reach), int(rng.uniform(0.08, 0.2) * ph))
            centre = (int(cx + side * (reach - a[0])), int(cy + rng.uniform(-0.3, 0.5) * ph))
            cv2.ellipse(face, centre, a, float(rng.uniform(-30, 30)), float(rng.uniform(0, 180)),
                        float(rng.uniform(200, 360)), design.black, int(rng.integers(1, 3)), cv2.LINE_AA)
    name = "".join(rng.choice(list("ABCDEFGHIKLMNOPRSTUVWY"), int(rng.integers(5, 9))))
    scale = 0.9 * ph * aspect / cv2.getTextSize(name, cv2.FONT_HERSHEY_TRIPLEX, 1.0, 1)[0][0]
    (tw, th), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_TRIPLEX, scale, 1)
    y = int(cy - ph * rng.uniform(0.05, 0.3))
    cv2.rectangle(face, (int(cx - tw / 2 - 2), y - th - 3), (int(cx + tw / 2 + 2), y + 3), design.paper, -1)
    cv2.putText(face, name, (int(cx - tw / 2), y), cv2.FONT_HERSHEY_TRIPLEX, scale, design.black, 1, cv2.LINE_AA)


def card_back(rng: np.random.Generator) -> NDArray[Any]:
    """A patterned card back (lattice, stripes or dots in one colour, with a white margin)."""
    back = np.full((FACE_H, FACE_W, 3), 245, np.uint8)
    color = [(40, 40, 170), (150, 60, 30), (40, 110, 40), (30, 30, 30)][int(rng.integers(4))]
    inner = back[12:-12, 12:-12]
    inner[:] = color
    step = int(rng.integers(8, 20))
    light = tuple(min(255, c + 110) for c in color)
    for k in range(-FACE_H, FACE_W + FACE_H, step):
        cv2.line(inner, (k, 0), (k + FACE_H, FACE_H), light, 1 + int(rng.integers(2)))
        if rng.random() < 0.7:
            cv2.line(inner, (k, 0), (k - FACE_H, FACE_H), light, 1)
    return back


# ----------------------------------------------------------------------------------------------- tables

def _noise(rng: np.random.Generator, shape: tuple[int, int], scale: float) -> NDArray[Any]:
    """Smooth noise in [-1, 1] with features about ``scale`` pixels across."""
    h, w = shape
    small = rng.standard_normal((max(2, int(h / scale) + 2), max(2, int(w / scale) + 2))).astype(np.float32)
    big = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    out: NDArray[Any] = np.clip(big / 2.5, -1, 1)
    return out


def table(rng: np.random.Generator, shape: tuple[int, int]) -> NDArray[Any]:
    """A table top: light or dark wood, felt, carpet, cloth, tiles, a plain surface, a white towel or a
    newspaper (small print, so that letters on paper are seen not to be card indices)."""
    h, w = shape
    kind = rng.choice(["wood", "wood", "wood", "felt", "carpet", "cloth", "tiles", "plain", "towel", "print"])
    if kind == "wood":
        base = np.array([rng.uniform(60, 170), rng.uniform(110, 200), rng.uniform(160, 235)]) * rng.uniform(0.45, 1.0)
        angle = rng.uniform(0, math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        u = xx * math.cos(angle) + yy * math.sin(angle)
        v = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = _noise(rng, shape, rng.uniform(80, 300)) * rng.uniform(10, 60)
        period = rng.uniform(6, 30)
        grain = np.sin((v + warp + 0.02 * u) / period * 2 * math.pi) ** rng.choice([1, 3, 5])
        grain = grain * rng.uniform(0.08, 0.35) + _noise(rng, shape, 3) * 0.05
        if rng.random() < 0.5:  # planks
            grain += 0.4 * (np.abs(((v + 1000) % rng.uniform(90, 250)) - 1) < 1.5)
        img = base[None, None, :] * (1 - grain[..., None])
    elif kind == "felt":
        base = np.array([[40, 110, 30], [110, 60, 20], [30, 30, 120], [60, 60, 60]][int(rng.integers(4))], float)
        img = base * rng.uniform(0.6, 1.3) * (1 + 0.06 * _noise(rng, shape, 2)[..., None])
    elif kind == "carpet":
        base = np.array([rng.uniform(90, 150), rng.uniform(120, 170), rng.uniform(140, 190)])
        img = base * (1 + 0.25 * _noise(rng, shape, 1.5)[..., None] + 0.1 * _noise(rng, shape, 40)[..., None])
    elif kind == "cloth":
        base = rng.uniform(15, 60, 3)
        img = base * (1 + 0.5 * _noise(rng, shape, 60)[..., None] + 0.1 * _noise(rng, shape, 2)[..., None])
    elif kind == "tiles":
        base = rng.uniform(150, 215, 3)
        img = np.broadcast_to(base, (h, w, 3)).copy() * (1 + 0.05 * _noise(rng, shape, 3)[..., None])
        step = int(rng.integers(60, 160))
        for k in range(0, max(h, w), step):
            img[k:k + 3, :] *= 0.7
            img[:, k:k + 3] *= 0.7
    elif kind == "towel":
        base = rng.uniform(185, 250, 3)
        img = base * (1 - 0.18 * np.abs(_noise(rng, shape, 1.5))[..., None] - 0.05 * _noise(rng, shape, 30)[..., None])
    elif kind == "print":
        paper = np.empty((h, w, 3), np.uint8)
        paper[:] = rng.uniform(170, 235, 3)
        _print_text(rng, paper)
        img = paper.astype(np.float32)
    else:
        base = rng.uniform(30, 200, 3)
        img = base * (1 + 0.03 * _noise(rng, shape, 2)[..., None])
    out: NDArray[Any] = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _print_text(rng: np.random.Generator, img: NDArray[Any]) -> None:
    """Lines of small random print (letters and digits in OpenCV's stroke fonts) over ``img``."""
    h, w = img.shape[:2]
    font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
                           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_COMPLEX_SMALL]))
    size = float(rng.uniform(0.25, 0.8))
    ink = tuple(float(v) for v in [rng.uniform(10, 70)] * 3)
    chars = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,;!?- "))
    step = int(30 * size * rng.uniform(1.2, 1.8)) + 4
    for y in range(int(rng.integers(4, step + 4)), h + step, step):
        line = "".join(rng.choice(chars, w // max(3, int(12 * size)) + 2))
        cv2.putText(img, line, (-int(rng.integers(0, 20)), y), font, size, ink, 1 + int(rng.random() < 0.3 * size),
                    cv2.LINE_AA)


@dataclass
class PlacedCard:
    """A card face drawn into a scene: its code, outline, and its index corners in image pixels."""

    card: Card
    outline: NDArray[Any]  # 4x2, face corners TL, TR, BR, BL
    marks: list[tuple[NDArray[Any], NDArray[Any], float, bool]] = field(default_factory=list)
    # (rank centre, suit centre, rank height, visible)

    @property
    def center(self) -> tuple[float, float]:
        c = self.outline.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def index_sizes(self) -> list[float]:
        """The rank-to-suit distance (pixels) of each index corner left visible: the index's size as drawn.

        >>> card = PlacedCard(Card.parse("TH"), np.zeros((4, 2)), [(np.array([0, 0]), np.array([3, 4]), 9.0, True),
        ...                                                         (np.array([9, 9]), np.array([9, 20]), 9.0, False)])
        >>> card.index_sizes
        [5.0]
        """
        return [math.dist(rank, suit) for rank, suit, _, visible in self.marks if visible]


@dataclass
class Scene:
    """One synthetic frame and what it holds."""

    image: NDArray[Any]
    cards: list[PlacedCard]


def card_quad(rng: np.random.Generator, center: tuple[float, float], height: float, angle: float) -> NDArray[Any]:
    """Corners (TL, TR, BR, BL) of a card of ``height`` px at ``center`` turned ``angle`` radians."""
    w = height * FACE_W / FACE_H
    c, s = math.cos(angle), math.sin(angle)
    pts = np.array([(-w / 2, -height / 2), (w / 2, -height / 2), (w / 2, height / 2), (-w / 2, height / 2)])
    pts = pts @ np.array([[c, s], [-s, c]]) + np.array(center)
    out: NDArray[Any] = (pts + rng.normal(0, height * 0.008, pts.shape)).astype(np.float32)
    return out


def paste(canvas: NDArray[Any], cover: NDArray[Any], face: NDArray[Any], quad: NDArray[Any], edge: int) -> NDArray[Any]:
    """Draw ``face`` onto ``canvas`` at ``quad`` with rounded corners, a faint edge and a soft shadow.

    Returns the face-to-image homography; ``cover`` marks the pixels the card now hides."""
    src = np.array([(0, 0), (FACE_W, 0), (FACE_W, FACE_H), (0, FACE_H)], np.float32)
    m = cv2.getPerspectiveTransform(src, quad)
    h, w = canvas.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 8
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return m
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ m
    alpha_face = np.zeros((FACE_H, FACE_W), np.uint8)
    cv2.rectangle(alpha_face, (0, 0), (FACE_W - 1, FACE_H - 1), 255, -1)
    for cx, cy in ((12, 12), (FACE_W - 13, 12), (12, FACE_H - 13), (FACE_W - 13, FACE_H - 13)):
        alpha_face[cy - 12 if cy < 20 else cy: cy + 1 if cy < 20 else cy + 13,
                   cx - 12 if cx < 20 else cx: cx + 1 if cx < 20 else cx + 13] = 0
        cv2.circle(alpha_face, (cx, cy), 12, (255,), -1)
    face = face.copy()
    cv2.rectangle(face, (0, 0), (FACE_W - 1, FACE_H - 1), (edge, edge, edge), 2)
    size = (x1 - x0, y1 - y0)
    # bilinear: OpenCV's warps have no area filter (they take INTER_AREA as INTER_LINEAR), so a face warped
    # to a card a few times smaller keeps or loses each thin stroke by where it falls between the samples;
    # an area-averaged face reads no better (docs/decisions/0006-training-data.md)
    warped = cv2.warpPerspective(face, shift, size, flags=cv2.INTER_LINEAR).astype(np.float32)
    alpha = cv2.warpPerspective(alpha_face, shift, size).astype(np.float32)[..., None] / 255
    shadow = cv2.GaussianBlur(np.roll(alpha[..., 0], (3, 3), (0, 1)), (0, 0), 3)[..., None]
    roi = canvas[y0:y1, x0:x1].astype(np.float32) * (1 - 0.35 * shadow)
    canvas[y0:y1, x0:x1] = (roi * (1 - alpha) + warped * alpha).astype(np.uint8)
    cover[y0:y1, x0:x1] |= alpha[..., 0] > 0.5
    return m


def _project(m: NDArray[Any], point: tuple[float, float]) -> NDArray[Any]:
    p = m @ np.array([point[0], point[1], 1.0])
    out: NDArray[Any] = p[:2] / p[2]
    return out


def _layout(rng: np.random.Generator, shape: tuple[int, int], count: int,
            height: float) -> list[tuple[tuple[float, float], float]]:
    """Card centres and angles: scattered singles, a fanned hand, or an overlapping meld row."""
    h, w = shape
    kind = rng.choice(["scatter", "fan", "meld", "grid"])
    cw = height * FACE_W / FACE_H
    x0, y0 = rng.uniform(0.2 * w, 0.8 * w), rng.uniform(0.25 * h, 0.75 * h)
    a0 = rng.uniform(-math.pi, math.pi)
    out = []
    if kind == "scatter":
        for _ in range(count):
            out.append(((rng.uniform(0.05 * w, 0.95 * w), rng.uniform(0.05 * h, 0.95 * h)), rng.uniform(-math.pi, math.pi)))
    elif kind == "fan":
        step, turn = rng.uniform(0.18, 0.4) * cw, rng.uniform(0, 0.25)
        for k in range(count):
            a = a0 + (k - count / 2) * turn
            out.append(((x0 + math.cos(a0) * step * (k - count / 2), y0 + math.sin(a0) * step * (k - count / 2)), a))
    elif kind == "meld":
        step = rng.uniform(0.2, 0.35) * height
        for k in range(count):
            off = step * (k - count / 2)
            out.append(((x0 - math.sin(a0) * off, y0 + math.cos(a0) * off), a0 + rng.normal(0, 0.05)))
    else:
        cols = int(rng.integers(2, 7))
        for k in range(count):
            r, c = divmod(k, cols)
            out.append(((0.1 * w + c * cw * rng.uniform(1.05, 1.3) + 20, 0.1 * h + r * height * 1.1 + height / 2),
                        rng.normal(0, 0.08) + (math.pi if rng.random() < 0.3 else 0)))
    return out


def clutter(rng: np.random.Generator, canvas: NDArray[Any], cover: NDArray[Any], height: float) -> None:
    """Chips, dice and a hand or sleeve over the table; ``cover`` (uint8) marks what they hide."""
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(0, 6))):  # chips
        c = (int(rng.integers(w)), int(rng.integers(h)))
        r = int(height * rng.uniform(0.12, 0.2))
        col = tuple(int(v) for v in rng.integers(0, 255, 3))
        cv2.circle(canvas, c, r, col, -1)
        for k in range(6):
            a = k * math.pi / 3
            cv2.ellipse(canvas, c, (r, r), math.degrees(a), -8, 8, (240, 240, 240), max(2, r // 4))
        cv2.circle(canvas, c, int(r * 0.6), (235, 235, 235) if rng.random() < 0.5 else col, 1)
        cv2.circle(cover, c, r, (1,), -1)
    for _ in range(int(rng.integers(0, 4))):  # dice
        s = height * rng.uniform(0.12, 0.18)
        middle = (rng.uniform(0, w), rng.uniform(0, h))
        box = cv2.boxPoints((middle, (s, s), rng.uniform(0, 90))).astype(np.int32)
        cv2.fillConvexPoly(canvas, box, (235, 235, 240))
        cv2.polylines(canvas, [box], True, (150, 150, 150), 1)
        for _ in range(int(rng.integers(1, 7))):
            off = rng.uniform(-s * 0.3, s * 0.3, 2)
            cv2.circle(canvas, (int(middle[0] + off[0]), int(middle[1] + off[1])), max(1, int(s * 0.09)), (20, 20, 20), -1)
        cv2.fillConvexPoly(cover, box, (1,))
    if rng.random() < 0.25:  # a hand or a sleeve reaching in
        skin = np.array([rng.uniform(60, 180), rng.uniform(90, 200), rng.uniform(140, 240)])
        edge = int(rng.integers(4))
        p = [(int(rng.integers(w)), 0), (w - 1, int(rng.integers(h))), (int(rng.integers(w)), h - 1), (0, int(rng.integers(h)))][edge]
        q = (int(rng.uniform(0.2, 0.8) * w), int(rng.uniform(0.2, 0.8) * h))
        mask = np.zeros((h, w), np.uint8)
        cv2.line(mask, p, q, (1,), int(height * rng.uniform(0.4, 0.8)))
        cv2.circle(mask, q, int(height * 0.35), (1,), -1)
        canvas[mask > 0] = (skin * (1 + 0.1 * _noise(rng, (h, w), 20)[mask > 0][:, None])).clip(0, 255)
        cover[mask > 0] = 1


def degraded(rng: np.random.Generator, img: NDArray[Any], hard: np.random.Generator | None = None, blur: float = 1.4,
             resampled: float = 0.3) -> NDArray[Any]:
    """Uneven light, glare, colour cast, blur (up to ``blur`` pixels), noise and JPEG loss, and at ``resampled``
    odds a camera's lost resolution; with ``hard``, a fifth of the frames are blurred more (out of focus, or a
    camera shaken along a line). A real photo, which has its camera's blur already, is given less of both."""
    h, w = img.shape[:2]
    f: NDArray[Any] = img.astype(np.float32)
    light = 1 + rng.uniform(0.1, 0.45) * _noise(rng, (h, w), rng.uniform(150, 500))
    f *= light[..., None] * (rng.uniform(0.6, 1.15) * rng.uniform(0.85, 1.1, 3)).astype(np.float32)
    if rng.random() < 0.35:  # a hard shadow
        mask = np.zeros((h, w), np.float32)
        cv2.fillPoly(mask, [(rng.uniform(0, 1, (4, 2)) * [w, h]).astype(np.int32)], (1.0,))
        f *= 1 - rng.uniform(0.2, 0.5) * cv2.GaussianBlur(mask, (0, 0), 8)[..., None]
    if rng.random() < 0.4:  # glare
        g = np.zeros((h, w), np.float32)
        cv2.ellipse(g, (int(rng.integers(w)), int(rng.integers(h))), (int(rng.integers(20, 200)), int(rng.integers(20, 120))),
                    float(rng.uniform(0, 180)), 0, 360, (1.0,), -1)
        f += rng.uniform(40, 140) * cv2.GaussianBlur(g, (0, 0), rng.uniform(10, 40))[..., None]
    if rng.random() < 0.04:  # a grey camera (or a colourless room): pictures lose the colour that tells them apart
        f = np.repeat(f.mean(axis=2, keepdims=True), 3, axis=2)
    if rng.random() < 0.4:  # washed out or dark: a camera's tone curve
        f = 255 * (np.clip(f, 0, 255) / 255) ** float(rng.uniform(0.6, 1.5))
    sigma = rng.uniform(0, blur)
    if hard is not None and hard.random() < 0.2:
        sigma = hard.uniform(1.4, 2.6)
        if hard.random() < 0.5:  # motion: a line 3 to 9 pixels long
            length = int(hard.integers(3, 10))
            kernel = np.zeros((length, length), np.float32)
            a = hard.uniform(0, math.pi)
            half = (length - 1) / 2
            cv2.line(kernel, (round(half - half * math.cos(a)), round(half - half * math.sin(a))),
                     (round(half + half * math.cos(a)), round(half + half * math.sin(a))), (1.0,), 1)
            f, sigma = cv2.filter2D(f, -1, kernel / kernel.sum()), hard.uniform(0, 1.0)
    if sigma > 0.3:
        f = cv2.GaussianBlur(f, (0, 0), sigma)
    if rng.random() < resampled:  # a phone's or webcam's lost resolution
        shrink = float(rng.uniform(0.45, 0.8))
        f = cv2.resize(cv2.resize(f, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA), (w, h),
                       interpolation=cv2.INTER_LINEAR)
    noise = np.empty(f.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    sd = float(rng.uniform(1, 7))
    cv2.randn(noise, np.zeros(3), np.full(3, sd))  # in every channel
    out = cv2.convertScaleAbs(f + noise)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)


def table_scene(rng: np.random.Generator, size: tuple[int, int] = (720, 1280), fonts: list[str] | None = None,
                max_cards: int = 14, hard: np.random.Generator | None = None, decks: tuple[str, ...] = (),
                real_share: float = 0.5) -> Scene:
    """A frame of a card table: face-up cards (single, fanned, overlapped), backs and clutter.

    ``hard`` (a second generator) adds what real photos show and the plain scenes never do: court
    pictures framed right beside the index, ornate aces of spades, more small cards, heavier blur, and
    more of the cards of ``HARD_RANKS``. With ``decks`` (real designs, ``deck_face``), each of the scene's one
    or two designs is one of them at ``real_share``, else drawn. The plain scenes (``hard`` None, no ``decks``)
    stay exactly as they were, so the benchmark's held-out tables do too."""
    h, w = size
    fonts = fonts or available(RANK_FONTS)
    canvas = table(rng, (h, w))
    height = float(rng.uniform(0.14, 0.5) * min(h, w * 0.75))
    if hard is not None and hard.random() < 0.2:
        height = float(hard.uniform(0.12, 0.22) * min(h, w * 0.75))
    designs: list[Design | str] = [Design.random(rng, fonts) for _ in range(int(rng.integers(1, 3)))]
    if decks:
        designs = [str(rng.choice(decks)) if rng.random() < real_share else d for d in designs]
    count = int(rng.integers(1, max_cards + 1))
    placed: list[tuple[PlacedCard, NDArray[Any], Sequence[IndexMark]]] = []
    cards = rng.permutation(len(DECK))[:count]
    if hard is not None:
        weight = np.array([3.0 if c.rank in HARD_RANKS else 1.0 for c in DECK])
        cards = hard.choice(len(DECK), count, replace=False, p=weight / weight.sum())
    for (center, angle), k in zip(_layout(rng, (h, w), count, height), cards, strict=False):
        card = DECK[int(k)]
        quad = card_quad(rng, center, height * rng.uniform(0.95, 1.05), angle)
        cover = np.zeros((h, w), bool)
        if rng.random() < 0.1:
            paste(canvas, cover, card_back(rng), quad, int(rng.integers(150, 230)))
        else:
            design = designs[int(rng.integers(len(designs)))]
            face, marks = (card_face(card, design, rng, hard) if isinstance(design, Design)
                           else deck_face(design, card))
            m = paste(canvas, cover, face, quad, int(rng.integers(150, 230)))
            placed.append((PlacedCard(card, quad), m, marks))
    cluttered = np.zeros((h, w), np.uint8)
    clutter(rng, canvas, cluttered, height)
    # visibility of each index: no later card, chip, die or hand over it
    later = np.zeros((h, w), bool)
    covers = []
    for pc, _m, _marks in reversed(placed):
        covers.append(later.copy())
        poly = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(poly, pc.outline.astype(np.int32), (1,))
        later |= poly > 0
    covers.reverse()
    for (pc, m, card_marks), cover in zip(placed, covers, strict=True):
        blocked = cover | (cluttered > 0)
        for mark in card_marks:
            rank, suit = _project(m, mark.rank), _project(m, mark.suit)
            scale = float(np.linalg.norm(suit - rank))
            inside = all(0 <= p[0] < w and 0 <= p[1] < h for p in (rank, suit))
            visible = inside
            if inside:
                for p in (rank, suit):
                    r = max(1, int(scale * 0.45))
                    x, y = int(p[0]), int(p[1])
                    if blocked[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].any():
                        visible = False
            pc.marks.append((rank, suit, mark.height * height / FACE_H, visible))
    return Scene(degraded(rng, canvas, hard), [pc for pc, _, _ in placed])
