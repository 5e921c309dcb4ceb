"""What the OLED shows: screens as data, and one renderer that draws them on a 128x64 image.

Game flows describe a screen (a title, an optional big line for the score, itemised lines); ``render``
draws it with a crisp bitmap font (the CP437 8x8 glyphs luma ships, which include the suit symbols; text
of any language is drawn as ``device.glyphs`` spells it),
the big line at double size so it can be read at arm's length, on the first page only. Long breakdowns
are split into pages; the screen's first ``head`` lines (what OK would confirm, a refusal) head every
page, and the title bar shows which page (``2/4``) and, boxed, which of several options OK would confirm;
a title too long to fit beside them has the bar's first row to itself, the counters move to a second.

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

_FONT = proportional(CP437_FONT)


@dataclass(frozen=True, slots=True)
class Screen:
    """One screenful: a title bar, an optional big line (the score), itemised lines, a footer (the page);
    the first ``head`` lines are repeated at the top of every page; ``choice`` (``2/17``), which option OK
    would confirm, is boxed in the title bar."""

    title: str
    lines: tuple[str, ...] = ()
    big: str | None = None
    footer: str | None = None
    head: int = 0
    choice: str | None = None

    @property
    def bar(self) -> tuple[str, ...]:
        """The title bar's rows: the title beside the counters, or, if it does not fit there, a row of its
        own and its overflow beside the counters below (cut only if it is longer still). The counters'
        room is their widest (``4/9`` for ``1/9``), so the rows are the same on every page and option."""
        counters = _widest(self.footer) + (_widest(self.choice) + 2 + 2 * bool(self.footer) if self.choice else 0)
        beside = WIDTH - 2 - counters - (2 if self.choice else 4 if self.footer else 0)
        if text_width(self.title) <= beside:
            return (self.title,)
        first, *rest = wrap(self.title, WIDTH - 2)
        return _cut(first, WIDTH - 2), _cut(" ".join(rest), beside)

    @property
    def room(self) -> int:
        """How many itemised lines fit below the title bar (and the big line)."""
        used = GLYPH * len(self.bar) + 2 + (2 * GLYPH + 2 if self.big else 0)
        return (HEIGHT - used) // GLYPH


def paged(screen: Screen) -> list[Screen]:
    """The screen with its lines word-wrapped to the width and split into pages that fit, each page
    headed by the screen's head lines and footed ``n/N`` when there is more than one; the big line is on
    the first page only, so the others hold more lines. The pages are cut as if each had the last page's
    footer (which may give the title bar a second row)."""
    head = tuple(part for line in screen.lines[:screen.head] for part in wrap(line))
    lines = tuple(part for line in screen.lines[screen.head:] for part in wrap(line))
    footer = screen.footer
    for _ in range(3):  # the footer can move the counters to a second row of the bar, and that the page count
        sized = replace(screen, footer=footer)
        first, room = (max(page.room - len(head), 1) for page in (sized, replace(sized, big=None)))
        chunks = [lines[:first], *(lines[at:at + room] for at in range(first, len(lines), room))]
        last = f"{len(chunks)}/{len(chunks)}" if len(chunks) > 1 else screen.footer
        if last == footer:
            break
        footer = last
    if len(chunks) == 1:
        return [replace(screen, lines=head + chunks[0], head=len(head))]
    return [replace(screen, lines=head + chunk, big=screen.big if n == 1 else None, footer=f"{n}/{len(chunks)}",
                    head=len(head)) for n, chunk in enumerate(chunks, 1)]


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


def draw_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, scale: int = 1, fill: int = 1) -> None:
    """Draw ``text`` with its top-left corner at ``xy``; each font pixel becomes a ``scale``-square block."""
    x, y = xy
    for code in codes(text):
        for column in _FONT[code]:
            for row in range(GLYPH):
                if column >> row & 1:
                    draw.rectangle((x, y + row * scale, x + scale - 1, y + (row + 1) * scale - 1), fill=fill)
            x += scale


def render(screen: Screen) -> Image.Image:
    """Draw one page of ``screen`` (lines that do not fit are cut: page with ``paged`` first)."""
    image = Image.new("1", (WIDTH, HEIGHT), 0)
    draw = ImageDraw.Draw(image)
    bar = screen.bar
    draw.rectangle((0, 0, WIDTH - 1, GLYPH * len(bar)), fill=1)
    footer, choice = screen.footer or "", screen.choice or ""
    top = GLYPH * (len(bar) - 1)  # the counters' row
    draw_text(draw, (WIDTH - 1 - text_width(footer), top + 1), footer, fill=0)
    if choice:  # boxed: white on black, as the lines below
        right = WIDTH - 1 - text_width(footer) - text_width(choice) - 2 - 2 * bool(footer)
        draw.rectangle((right, top, right + text_width(choice) + 1, top + GLYPH), fill=0)
        draw_text(draw, (right + 1, top + 1), choice)
    for row, text in enumerate(bar):
        draw_text(draw, (1, 1 + row * GLYPH), text, fill=0)
    y = GLYPH * len(bar) + 2
    if screen.big:
        scale = 2 if text_width(screen.big, 2) <= WIDTH else 1
        draw_text(draw, ((WIDTH - text_width(screen.big, scale)) // 2, y), screen.big, scale=scale)
        y += 2 * GLYPH + 2
    for line in screen.lines[: screen.room]:
        draw_text(draw, (0, y), line)
        y += GLYPH
    return image
