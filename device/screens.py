"""What the OLED shows: screens as data, and one renderer that draws them on a 128x64 image.

Game flows describe a screen (a title, an optional big line for the score, itemised lines); ``render``
draws it with a crisp bitmap font (the CP437 8x8 glyphs luma ships, which include the suit symbols; text
of any language is drawn as ``device.glyphs`` spells it),
the big line at double size so it can be read at arm's length, on the first page only. Long breakdowns
are split into pages (a line that wraps never split between two); the screen's first ``head`` lines
(what OK would confirm, a refusal) head every page; a bar at the right edge shows which page, and the
title bar, boxed, which of several options OK would confirm; a title too long to fit beside the box has
the bar's first row to itself, the box moves to a second. The club and the spade are drawn apart.

>>> screen = Screen("Cribbage", big="Ann 29", lines=("fifteen 2: 5♥ K♠", "pair 2: 5♥ 5♣"))
>>> image = render(screen)
>>> image.size, image.mode
((128, 64), '1')
>>> text_width("5♥"), text_width("5♥", scale=2)
(15, 30)
>>> [page.footer for page in paged(Screen("Show", lines=tuple(f"item {n}" for n in range(9))))]
['1/2', '2/2']
>>> [page.lines[:2] for page in paged(Screen("Show", lines=("OK: Ann shows 8", *(f"item {n}" for n in range(9))), head=1))]
[('OK: Ann shows 8', 'item 0'), ('OK: Ann shows 8', 'item 5')]
>>> [(page.big, len(page.lines)) for page in paged(Screen("Show", big="24", lines=tuple(f"item {n}" for n in range(9))))]
[('24', 4), (None, 5)]
>>> Screen("Bob: No King of ♥", choice="1/3", footer="1/8").bar
('Bob: No King of ♥', '')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from luma.core.legacy.font import CP437_FONT, proportional
from PIL import Image, ImageDraw

from device.glyphs import codes

WIDTH, HEIGHT = 128, 64
GLYPH = 8
"""The glyphs' height in pixels at scale 1."""

SUITS = {
    5: ("..###..",  # ♣: three round leaves, notched apart, on a stem
        "..###..",
        "##.#.##",
        "#######",
        "##.#.##",
        "...#...",
        "..###..",
        "......."),
    6: ("...#...",  # ♠: one pointed leaf, solid, on a stem
        "..###..",
        ".#####.",
        "#######",
        "#######",
        "##.#.##",
        "..###..",
        "......."),
}
"""The club and the spade drawn apart at a glance: the font's own differ in three pixels of their tops."""


def _columns(rows: tuple[str, ...]) -> list[int]:
    """A glyph drawn as rows of ``#`` as the font's columns (bit n: row n), with a column of space after."""
    return [sum(1 << n for n, row in enumerate(rows) if row[x] == "#") for x in range(len(rows[0]))] + [0]


_FONT = [*proportional(CP437_FONT)]
for _code, _rows in SUITS.items():
    _FONT[_code] = _columns(_rows)

GLASSES = {"1.3": 1, "0.96": 2}
"""The OLED sizes (the glass's diagonal, inches) a configuration may name, each with how tall its lines are
drawn, in font rows: on a 1.3" glass 8 px (1.6 mm); on a 0.96" one, where 8 px is only 1.2 mm, 16 px. The
line saying what OK would confirm is 16 px tall on both."""
_glass = {"lines": GLASSES["1.3"]}


def use_glass(size: str) -> None:
    """Draw every screen from now on for the OLED of ``size`` (a key of GLASSES; "1.3" until told)."""
    _glass["lines"] = GLASSES[size]


@dataclass(frozen=True, slots=True)
class Screen:
    """One screenful: a title bar, an optional big line (the score), itemised lines, a footer (the page);
    the first ``head`` lines are repeated at the top of every page, the first ``tall`` of them twice as
    tall; ``choice`` (``2/17``), which option OK would confirm, is boxed in the title bar."""

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    footer: str | None = None
    head: int = 0
    choice: str | None = None
    tall: int = 0
    """How many of the first lines (what OK would confirm) are drawn twice as tall, to be read from a seat."""

    @property
    def bar(self) -> tuple[str, ...]:
        """The title bar's rows: the title beside the option's counter, or, if it does not fit there, a
        row of its own and its overflow beside the counter below (cut only if it is longer still). The
        counter's room is its widest (``4/9`` for ``1/9``), so the rows are the same for every option."""
        beside = WIDTH - 2 - (_widest(self.choice) + 4 if self.choice else 0)
        if text_width(self.title) <= beside:
            return (self.title,)
        first, *rest = wrap(self.title, WIDTH - 2)
        return _cut(first, WIDTH - 2), _cut(" ".join(rest), beside)

    @property
    def top(self) -> int:
        """Where the lines begin: below the title bar (and the big line)."""
        return GLYPH * len(self.bar) + 2 + (2 * GLYPH + 2 if self.big else 0)

    @property
    def room(self) -> int:
        """How many lines of the glass's height fit below the title bar (and the big line)."""
        return (HEIGHT - self.top) // (GLYPH * _glass["lines"])


def paged(screen: Screen) -> list[Screen]:
    """The screen with its lines word-wrapped to the width and split into pages that fit, each page
    headed by the screen's head lines and footed ``n/N`` when there is more than one (drawn as a bar at
    the right edge); the big line is on the first page only, so the others hold more lines, and only where
    the head and a line fit below it. A line wrapped in several rows is never split between two pages,
    unless it is longer than a page."""
    head = tuple(part for line in screen.lines[:screen.head] for part in wrap(line))
    tall = sum(len(wrap(line)) for line in screen.lines[:min(screen.tall, screen.head)])
    rows = [wrap(line) for line in screen.lines[screen.head:]]
    line = GLYPH * _glass["lines"]
    used = 2 * GLYPH * tall + line * (len(head) - tall)
    if screen.big and HEIGHT - screen.top - used < line:  # the head and a line come before the big line
        screen = replace(screen, big=None)
    first, room = (max((HEIGHT - page.top - used) // line, 1) for page in (screen, replace(screen, big=None)))
    chunks: list[tuple[str, ...]] = [()]
    for parts in rows:
        while parts:
            left = (first if len(chunks) == 1 else room) - len(chunks[-1])
            if len(parts) > left and chunks[-1] and len(parts) <= room:
                chunks.append(())  # the whole line on the next page
                continue
            chunks[-1] += tuple(parts[:left])
            parts = parts[left:]
            if parts:
                chunks.append(())
    if len(chunks) == 1:
        return [replace(screen, lines=head + chunks[0], head=len(head), tall=tall)]
    return [replace(screen, lines=head + chunk, big=screen.big if n == 1 else None, footer=f"{n}/{len(chunks)}",
                    head=len(head), tall=tall) for n, chunk in enumerate(chunks, 1)]


def wrap(line: str, width: int = WIDTH) -> list[str]:
    """``line`` broken at spaces into pieces that fit ``width`` pixels (a word too long is cut).

    >>> wrap("N -6  E 0  S -12  W -6  (doubled)")
    ['N -6  E 0  S -12  W -6', '(doubled)']
    """
    pieces: list[str] = []
    current = ""
    for word in line.split(" "):
        candidate = f"{current} {word}" if current else word
        if text_width(candidate) <= width or not current:
            current = candidate
        else:
            pieces.append(current)
            current = word
    return [*pieces, current]


def _widest(counter: str | None) -> int:
    """The width of the widest counter ``n/N`` with the same ``N`` (of ``counter`` itself if it is none).

    >>> _widest("1/9") == text_width("4/9") > text_width("1/9"), _widest(None)
    (True, 0)
    """
    if not counter:
        return 0
    n, slash, total = counter.partition("/")
    if not (slash and n.isdigit() and total.isdigit()):
        return text_width(counter)
    return max(text_width(f"{k}/{total}") for k in range(1, int(total) + 1))


def _cut(text: str, width: int) -> str:
    """``text`` cut short to fit ``width`` pixels.

    >>> _cut("No King of ♥", 40)
    'No Kin'
    """
    while text_width(text) > width:
        text = text[:-1]
    return text.rstrip()


def text_width(text: str, scale: int = 1) -> int:
    """The width in pixels of ``text`` drawn at ``scale``."""
    return sum(len(_FONT[code]) for code in codes(text)) * scale


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, scale: int = 1, fill: int = 1,
              tall: int = 1) -> None:
    """Draw ``text`` with its top-left corner at ``xy``; each font pixel becomes a ``scale``-square block,
    ``tall`` times as tall again."""
    x, y = xy
    high = scale * tall
    for code in codes(text):
        for column in _FONT[code]:
            for row in range(GLYPH):
                if column >> row & 1:
                    draw.rectangle((x, y + row * high, x + scale - 1, y + (row + 1) * high - 1), fill=fill)
            x += scale


def _scroll_bar(draw: ImageDraw.ImageDraw, footer: str | None, top: int) -> None:
    """Which page ``n/N`` is shown, as a bar at the right edge below the title bar: a dotted track the
    height of the page, solid over the page's share of it (the top third of three pages...). It takes the
    right-most column, which every line leaves blank (each glyph ends in a column of space)."""
    n, _, count = (footer or "").partition("/")
    if not (n.isdigit() and count.isdigit() and int(count) > 1):
        return
    x, height = WIDTH - 1, HEIGHT - top
    for y in range(top, HEIGHT, 3):
        draw.point((x, y), fill=1)
    start = top + height * (int(n) - 1) // int(count)
    draw.line((x, start, x, top + height * int(n) // int(count) - 1), fill=1)


def render(screen: Screen) -> Image.Image:
    """Draw one page of ``screen`` (lines that do not fit are cut: page with ``paged`` first)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    bar = screen.bar
    draw.rectangle((0, 0, WIDTH - 1, GLYPH * len(bar)), fill=1)
    choice = screen.choice or ""
    top = GLYPH * (len(bar) - 1)  # the counter's row
    if choice:  # boxed: white on black, as the lines below
        right = WIDTH - 2 - text_width(choice) - 1
        draw.rectangle((right, top, right + text_width(choice) + 1, top + GLYPH), fill=0)
        draw_text(draw, (right + 1, top + 1), choice)
    for row, text in enumerate(bar):
        draw_text(draw, (1, 1 + row * GLYPH), text, fill=0)
    y = GLYPH * len(bar) + 2
    _scroll_bar(draw, screen.footer, y)
    if screen.big:
        scale = 2 if text_width(screen.big, 2) <= WIDTH else 1
        draw_text(draw, ((WIDTH - text_width(screen.big, scale)) // 2, y), screen.big, scale=scale)
        y += 2 * GLYPH + 2
    for row, line in enumerate(screen.lines):
        tall = 2 if row < screen.tall else _glass["lines"]
        if y + GLYPH * tall > HEIGHT:
            break
        draw_text(draw, (0, y), line, tall=tall)
        y += GLYPH * tall
    return image
