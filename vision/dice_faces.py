"""The Pinzique die-face design: one drawing used for the printed stickers and for the reader's renders.

A face is a square sticker for a blank 16 mm die (``STICKER_MM`` = 12.7 mm, half an inch, leaving the
die's rounded edges bare). Its suit is told three ways, its rank by one bold glyph:

- a frame in the suit's colour, four-colour-deck style (spades black, hearts red, diamonds blue, clubs
  green), with a thick band along the bottom edge: the band says which way is down;
- the suit symbol reversed out of that band in white;
- the rank (9, 10, J, Q, K, A) in the suit's colour, as large as the white window above the band allows.

The reader finds a die by the white window inside the frame, so dice that touch are still apart, and the
window's corners fix the face's perspective. The rank is drawn in a font that ships with the package
(``vision.text``), the rest with OpenCV's shapes, so the printed sheet and the reader's renders come from this
one function, the same on every machine.

>>> from scoring.cards import Card
>>> face = face_image(Card.parse("QH"), 120)
>>> face.shape, face.dtype
((120, 120, 3), dtype('uint8'))
>>> [int(v) for v in face[60, 3]], [int(v) for v in face[20, 20]]  # the red frame, the white window
([35, 30, 175], [250, 250, 250])
>>> face_image(Card.parse("2H"))
Traceback (most recent call last):
...
ValueError: 2H is not a Pinzique face: the dice show 9, 10, J, Q, K and A
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card, Suit
from scoring.pinzique_guide import PINOCHLE_RANKS, ScoreGuide
from vision.text import SANS_BOLD, font

STICKER_MM = 12.7
"""The sticker's side: half an inch, for blank 16 mm dice."""
DIE_MM = 16.0
"""The blank dice the stickers are made for."""

PAPER = (250, 250, 250)
SUIT_COLOURS: dict[Suit, tuple[int, int, int]] = {  # BGR, four-colour deck, all dark: a camera's coarse
    Suit.SPADES: (35, 30, 30),                        # colour sampling lightens thin coloured lines to
    Suit.HEARTS: (35, 30, 175),                       # about their luminance
    Suit.DIAMONDS: (165, 65, 15),
    Suit.CLUBS: (20, 120, 0),
}

FRAME = 0.1
"""The frame's width on the top, left and right, as a share of the sticker's side."""
BAND = 0.28
"""The bottom band's height (frame included), as a share of the side."""
WINDOW = (FRAME, FRAME, 1 - FRAME, 1 - BAND)
"""The white window (x0, y0, x1, y1) in sticker units: the part of the face the reader finds first."""

_RANK_BOX = (0.22, 0.21, 0.78, 0.60)  # x0, y0, x1, y1: where the rank glyph is fitted
_SUIT_BOX = (0.42, 0.80, 0.58, 0.96)  # the suit symbol inside the band
_SUPER = 4  # drawn this many times larger, then reduced: smooth edges


def faces(guide: ScoreGuide) -> list[Card]:
    """The distinct faces of the guide's dice, suit by suit in run order (24 for the standard dice).

    >>> from scoring.pinzique_guide import load_guide
    >>> [card.code for card in faces(load_guide())][:7]
    ['9S', 'TS', 'JS', 'QS', 'KS', 'AS', '9H']
    """
    shown = {card for die in guide.dice for card in die}
    return sorted(shown, key=lambda card: (card.suit.index, PINOCHLE_RANKS.index(card.rank)))


def face_image(card: Card, size: int = 150) -> NDArray[Any]:
    """The sticker of ``card`` as a ``size`` x ``size`` BGR image (150 px is 12.7 mm at 300 dpi)."""
    if card.rank not in PINOCHLE_RANKS:
        raise ValueError(f"{card} is not a Pinzique face: the dice show 9, 10, J, Q, K and A")
    big = size * _SUPER
    colour = SUIT_COLOURS[card.suit]
    canvas = np.empty((big, big, 3), np.uint8)
    canvas[:] = colour
    x0, y0, x1, y1 = (round(v * big) for v in WINDOW)
    canvas[y0:y1, x0:x1] = PAPER
    _draw_rank(canvas, card.rank.label, _box(_RANK_BOX, big), colour)
    _draw_suit(canvas, card.suit, _box(_SUIT_BOX, big), PAPER)
    return cv2.resize(canvas, (size, size), interpolation=cv2.INTER_AREA)


def _box(box: tuple[float, float, float, float], side: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    return round(x0 * side), round(y0 * side), round(x1 * side), round(y1 * side)


def _draw_rank(canvas: NDArray[Any], text: str, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> None:
    """The rank in DejaVu Sans Bold, emboldened, stretched to fill ``box``."""
    from PIL import Image, ImageDraw

    x0, y0, x1, y1 = box
    shape, weight = font(SANS_BOLD, y1 - y0), (y1 - y0) // 25
    ink_x0, ink_y0, ink_x1, ink_y1 = shape.getbbox(text, stroke_width=weight)
    image = Image.new("L", (ink_x1 - ink_x0, ink_y1 - ink_y0), 0)
    ImageDraw.Draw(image).text((-ink_x0, -ink_y0), text, font=shape, fill=255, stroke_width=weight, stroke_fill=255)
    glyph = np.asarray(image)
    ys, xs = np.nonzero(glyph > 127)
    glyph = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    width = min(x1 - x0, round((y1 - y0) * glyph.shape[1] / glyph.shape[0] * 1.15))
    ink = cv2.resize(glyph, (width, y1 - y0), interpolation=cv2.INTER_AREA).astype(np.float32)[..., None] / 255
    left = (x0 + x1 - width) // 2
    region = canvas[y0:y1, left:left + width].astype(np.float32)
    canvas[y0:y1, left:left + width] = (region * (1 - ink) + np.array(colour, np.float32) * ink).astype(np.uint8)


_STEM = ((0.5, 0.55), (0.7, 1.0), (0.3, 1.0))
_SUIT_SHAPES: dict[Suit, tuple[tuple[tuple[float, float, float], ...], tuple[tuple[tuple[float, float], ...], ...]]] = {
    # circles (x, y, radius) and convex polygons, in units of the symbol's box (radii of its width)
    Suit.SPADES: (((0.27, 0.62, 0.27), (0.73, 0.62, 0.27)), (((0.5, 0.0), (0.98, 0.55), (0.02, 0.55)), _STEM)),
    Suit.HEARTS: (((0.27, 0.3, 0.27), (0.73, 0.3, 0.27)), (((0.02, 0.38), (0.98, 0.38), (0.5, 1.0)),)),
    Suit.DIAMONDS: ((), (((0.5, 0.0), (0.92, 0.5), (0.5, 1.0), (0.08, 0.5)),)),
    Suit.CLUBS: (((0.5, 0.24, 0.23), (0.25, 0.58, 0.23), (0.75, 0.58, 0.23)), (_STEM,)),
}


def _draw_suit(canvas: NDArray[Any], suit: Suit, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> None:
    """The suit symbol drawn from circles and polygons, filling ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def at(u: float, v: float) -> tuple[int, int]:
        return round(x0 + u * w), round(y0 + v * h)

    circles, polygons = _SUIT_SHAPES[suit]
    for u, v, radius in circles:
        cv2.circle(canvas, at(u, v), round(radius * w), colour, -1, cv2.LINE_AA)
    for polygon in polygons:
        cv2.fillConvexPoly(canvas, np.array([at(u, v) for u, v in polygon], np.int32), colour, cv2.LINE_AA)
