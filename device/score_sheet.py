"""A game's score sheet as a picture: the sides as columns, a row for each hand (or round) with its points,
what they were for and the running totals, then the final totals and the winner.

It is drawn with the OLED's bitmap font (``device.screens.draw_text``: the same glyphs, suit symbols
included, at double size), so a sheet is crisp, identical on every machine, and legible when printed.

>>> from device.history import History
>>> from device.journal import GameRecord
>>> record = GameRecord(1, "ofc", ["Ann", "Bob"], {}, 1700000000.0, None, None)
>>> draw(History(record, ("Ann", "Bob"), "in progress", (), 0, (0, 0), None, None)).size
(512, 220)
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from device.games import GAMES
from device.history import HandRow, History, minute
from device.screens import GLYPH, draw_text, text_width, wrap

SCALE = 2
LINE = GLYPH * SCALE + 4
"""A line of text, with its leading."""
MARGIN, PAD = 16, 8
INK, RULE, SHADE, PAPER = 0, 150, 225, 255
COLUMN = 200
ITEMISED = 300
"""A column's least width; a game whose cells list items (Cribbage, Gin) gets the wider."""
PLAIN = {"hand", "round"}
"""Captions that say no more than the hand's number does."""


def draw(history: History) -> Image.Image:
    """The score sheet of ``history``'s game."""
    rows = history.hands()
    captions = [_caption(row) for row in rows]
    cells = [[_items(row, side) if caption is None else [] for side in range(len(history.sides))]
             for row, caption in zip(rows, captions, strict=True)]
    labels = [f"{row.hand} {caption or ''}".strip() for row, caption in zip(rows, captions, strict=True)]
    first = max([_width("hand"), _width("total"), *map(_width, labels)]) + 2 * PAD
    least = ITEMISED if any(cell for row_cells in cells for cell in row_cells) else COLUMN
    column = max([least, *(_width(side) + 2 * PAD for side in history.sides)])
    width = 2 * MARGIN + first + column * len(history.sides)
    sheet_width = width - 2 * MARGIN
    heads = [*_wrapped(f"{history.title}, game {history.record.id}", sheet_width, 3),
             *_wrapped(_when(history), sheet_width)]
    heights = [LINE * (1 + max([0, *(len(_wrapped(", ".join(items), column - 2 * PAD)) for items in row_cells)]))
               + PAD for row_cells in cells]
    footer = _footer(history)
    height = (2 * MARGIN + len(heads) * (3 * GLYPH + 6) + 3 * LINE + PAD + sum(heights) + LINE + 3 * PAD
              + len(footer) * LINE)  # at least what is drawn: cropped to it at the end
    image = Image.new("L", (width, height), PAPER)
    pen = ImageDraw.Draw(image)
    y = MARGIN
    for n, line in enumerate(heads):
        scale = 3 if n == 0 and len(heads) > 1 else SCALE
        _text(pen, (MARGIN, y), line, scale)
        y += LINE if scale == SCALE else GLYPH * 3 + 6
    y += LINE // 2
    xs = [MARGIN + first + column * side for side in range(len(history.sides))]
    top = y
    pen.rectangle((MARGIN, y, width - MARGIN - 1, y + 2 * LINE + PAD), fill=SHADE)
    _text(pen, (MARGIN + PAD, y + PAD // 2), "hand")
    for x, side in zip(xs, history.sides, strict=True):
        _text(pen, (x + PAD, y + PAD // 2), side)
        _text(pen, (x + PAD, y + LINE + PAD // 2), "points")
        _right(pen, x + column - PAD, y + LINE + PAD // 2, "total")
    y += 2 * LINE + PAD
    for row, label, row_cells, row_height in zip(rows, labels, cells, heights, strict=True):
        pen.line((MARGIN, y, width - MARGIN - 1, y), fill=RULE)
        _text(pen, (MARGIN + PAD, y + PAD // 2), label)
        for x, points, total, items, scored in zip(xs, row.points, row.totals, row_cells, row.items, strict=True):
            _text(pen, (x + PAD, y + PAD // 2), _points(points, history) if scored else "-")
            _right(pen, x + column - PAD, y + PAD // 2, str(total))
            for n, line in enumerate(_wrapped(", ".join(items), column - 2 * PAD), 1):
                _text(pen, (x + PAD, y + PAD // 2 + n * LINE), line)
        y += row_height
    pen.line((MARGIN, y, width - MARGIN - 1, y), fill=INK)
    pen.line((MARGIN, y + 2, width - MARGIN - 1, y + 2), fill=INK)
    y += PAD
    _text(pen, (MARGIN + PAD, y), "total")
    for x, total in zip(xs, history.totals, strict=True):
        _right(pen, x + column - PAD, y, str(total), bold=True)
    y += LINE + PAD
    for x in xs:
        pen.line((x, top, x, y - PAD // 2), fill=RULE)
    pen.rectangle((MARGIN, top, width - MARGIN - 1, y - PAD // 2), outline=INK)
    y += PAD
    for line in footer:
        _text(pen, (MARGIN, y), line)
        y += LINE
    return image.crop((0, 0, width, y - LINE + GLYPH * SCALE + MARGIN))


def _caption(row: HandRow) -> str | None:
    """What the whole hand was, when each side's points were for the same one thing (a Barbu contract,
    an OFC hand, a Pinzique round): shown once beside the hand's number, not in every cell."""
    whats = {item[0] for side in row.items for item in side}
    if len(whats) != 1 or any(len(side) > 1 for side in row.items):
        return None
    (what,) = whats
    return "" if what in PLAIN else what


def _items(row: HandRow, side: int) -> list[str]:
    return [f"{what} {points}" for what, points in row.items[side]]


def _points(points: int, history: History) -> str:
    """A hand's points, signed where they can be negative (Barbu, OFC)."""
    known = GAMES.get(history.record.game)
    return f"{points:+}" if points and known and known.signed else str(points)


def _when(history: History) -> str:
    started = history.record.started
    span = minute(started) + ("" if history.ended is None else f" to {minute(history.ended, after=started)}")
    return f"{span}, {history.state}"


def _footer(history: History) -> list[str]:
    if history.winner is not None:
        lines = [f"winner: {history.winner}"]
        skunks = (history.result or {}).get("skunks") or []
        lines += [f"{side}: {skunk}" for side, skunk in zip(history.sides, skunks, strict=False) if skunk]
        return lines
    if not history.steps:
        return ["no hands played yet"]
    leaders = [side for side, total in zip(history.sides, history.totals, strict=True) if total == max(history.totals)]
    return [f"{history.state}: {' and '.join(leaders)} {'lead' if len(leaders) > 1 else 'leads'}"]


def _wrapped(text: str, width: int, scale: int = SCALE) -> list[str]:
    return wrap(text, width // scale) if text else []


def _width(text: str) -> int:
    return text_width(text, SCALE)


def _text(pen: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, scale: int = SCALE) -> None:
    draw_text(pen, xy, text, scale=scale, fill=INK)


def _right(pen: ImageDraw.ImageDraw, right: int, y: int, text: str, bold: bool = False) -> None:
    """``text`` ending at ``right``; bold is drawn twice, a pixel apart."""
    x = right - _width(text)
    for dx in (0, 1) if bold else (0,):
        _text(pen, (x - dx, y), text)
