"""The printable sticker sheet for a set of Pinzique dice: ``python -m tools.dice.stickers OUT.png``.

One page at 300 dpi (A4, or ``--page letter``) holds the 48 stickers of the eight dice, one row a die, in
the design of ``vision.dice_faces`` that the reader is trained on. Print at 100 % (no "fit to page") on
sticker paper, cut along the faint grey lines, and put each row's six stickers on one blank 16 mm die.
The faces come from the score guide (``--guide FILE`` for an owner's own copy).

>>> from scoring.pinzique_guide import load_guide
>>> page = sheet(load_guide())
>>> page.shape
(3508, 2480, 3)
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.pinzique_guide import GuideError, ScoreGuide, load_guide
from tools.text import put_text
from vision.dice_faces import DIE_MM, STICKER_MM, face_image
from vision.text import SANS_BOLD

DPI = 300
PAGES = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
"""Page sizes in millimetres (width, height)."""
GAP_MM = 4.0
"""Space between stickers, for cutting."""
CUT_GREY = (200, 200, 200)


def mm(length: float) -> int:
    """Pixels at ``DPI`` for a length in millimetres.

    >>> mm(25.4), mm(STICKER_MM)
    (300, 150)
    """
    return round(length / 25.4 * DPI)


def sheet(guide: ScoreGuide, page: str = "a4") -> NDArray[Any]:
    """The sticker sheet as a BGR image at 300 dpi."""
    width, height = (mm(v) for v in PAGES[page])
    canvas = np.full((height, width, 3), 255, np.uint8)
    side, gap = mm(STICKER_MM), mm(GAP_MM)
    row_step = side + gap + mm(5)
    left = (width - 6 * side - 5 * gap) // 2
    top = mm(38)
    put_text(canvas, "Pinzique dice stickers", (left, mm(16)), 64, face=SANS_BOLD)
    put_text(canvas, f"Print at 100% (300 dpi). Each sticker is {STICKER_MM} mm square, for blank {DIE_MM:.0f} mm dice.",
          (left, mm(24)), 30)
    put_text(canvas, "Cut on the grey lines; put each row's six stickers on one die, band towards any edge.",
          (left, mm(30)), 30)
    for number, die in enumerate(guide.dice):
        y = top + number * row_step
        names = "  ".join(card.rank.label + card.suit.letter for card in die)
        put_text(canvas, f"die {number}:  {names}", (left, y + mm(3)), 28)
        for place, card in enumerate(die):
            x = left + place * (side + gap)
            y0 = y + mm(5)
            canvas[y0:y0 + side, x:x + side] = face_image(card, side)
            cv2.rectangle(canvas, (x - 1, y0 - 1), (x + side, y0 + side), CUT_GREY, 1)
    put_text(canvas, f"Faces from {Path(guide.source).name}. tablescore reads this design only.",
          (left, top + len(guide.dice) * row_step + mm(6)), 28)
    return canvas


def preview(guide: ScoreGuide) -> NDArray[Any]:
    """The sheet at a quarter of its size, cut to what is printed on it: for the docs, not for printing.

    >>> preview(load_guide()).shape[1] < 700
    True
    """
    page = sheet(guide)
    ys, xs = np.nonzero(page.min(axis=2) < 250)
    margin = mm(4)
    page = page[max(0, ys.min() - margin):ys.max() + margin, max(0, xs.min() - margin):xs.max() + margin]
    return cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)


def png_bytes(image: NDArray[Any], dpi: int = DPI) -> bytes:
    """The image as PNG with its resolution recorded (a pHYs chunk), so it prints at true size.

    >>> data = png_bytes(np.zeros((2, 2, 3), np.uint8))
    >>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", b"pHYs" in data
    (True, True)
    """
    ok, encoded = cv2.imencode(".png", image)
    if not ok:
        raise ValueError("OpenCV cannot encode this image as PNG")
    data = encoded.tobytes()
    per_metre = round(dpi / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    end_of_header = 8 + 8 + 13 + 4  # signature, IHDR length and type, IHDR data, CRC
    return data[:end_of_header] + chunk + data[end_of_header:]


def main(argv: Sequence[str] | None = None) -> int:
    """Write the sheet; returns the exit status (2 with a message when it cannot)."""
    parser = argparse.ArgumentParser(prog="python -m tools.dice.stickers", description=__doc__.split("\n\n")[1])
    parser.add_argument("out", metavar="OUT.png", help="the PNG file to write")
    parser.add_argument("--page", choices=sorted(PAGES), default="a4", help="paper size (a4)")
    parser.add_argument("--guide", metavar="FILE", help="a score guide TOML whose dice to print (the shipped one)")
    parser.add_argument("--preview", action="store_true", help="write a small picture of the sheet instead (docs)")
    args = parser.parse_args(argv)
    try:
        guide = load_guide(args.guide)
        image = preview(guide) if args.preview else sheet(guide, args.page)
        Path(args.out).write_bytes(png_bytes(image, DPI // 4 if args.preview else DPI))
    except GuideError as error:
        print(f"stickers: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"stickers: cannot write {args.out}: {error.strerror}", file=sys.stderr)
        return 2
    kind = "a preview" if args.preview else f"{DPI} dpi, {args.page}"
    print(f"wrote {args.out}: {len(guide.dice)} dice, {sum(len(d) for d in guide.dice)} stickers, {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
