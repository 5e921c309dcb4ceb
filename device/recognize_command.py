"""``tablescore recognize``: read the cards in photos of the table, as JSON or a readable listing.

Each card is reported with the zone of the table it lies in: from ``--zones FILE`` (a calibration, see
``vision.zones``), or else the default layout for ``--seats`` (4 unless given) on a table filling the image.
``--draw OUT`` writes each image annotated with the zones and what was read: OUT is the file for one image,
a folder (made if missing) for several, which get ``NAME-recognized.png``.

>>> draw_paths("out.png", ["table.jpg"])
[PosixPath('out.png')]
>>> draw_paths("drawn", ["a/table.jpg", "b/table.jpg", "deal.png"])  # doctest: +NORMALIZE_WHITESPACE
[PosixPath('drawn/table-recognized.png'), PosixPath('drawn/table-recognized-2.png'),
 PosixPath('drawn/deal-recognized.png')]
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from device.camera import read_image
from vision.dice import read_dice
from vision.observations import CardSighting, DieSighting
from vision.zones import Calibration, ZoneError

Image = npt.NDArray[np.uint8]
Reader = Callable[[Image], list[CardSighting]]

USAGE = "tablescore recognize IMAGE... [--json] [--draw OUT] [--zones FILE | --seats N]"


class RecognizeError(Exception):
    """A problem with one image or the command's arguments; the message says what."""


class ReaderUnavailable(RecognizeError):
    """The card reader cannot run at all (not installed, its model missing): no image can be read."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``recognize`` command to the top-level parser."""
    parser = commands.add_parser(
        "recognize",
        usage=USAGE,
        help="read the cards and dice in images (tablescore recognize IMAGE... --json)",
        description="Read every face-up card in each image, with its position, zone and confidence. A card "
        "found but not read surely is reported as ?? (unknown), never guessed. An image that cannot be read "
        "gets a message and the others still run; the exit status is then 1.",
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the table (PNG, JPEG...)")
    parser.add_argument("--json", action="store_true",
                        help='print one JSON object per image: {"image": PATH, "cards": [{"card": "TH", '
                        '"center": [x, y], "zone": ..., "confidence": 0.99, "outline": ...}], "dice": []}')
    parser.add_argument("--draw", metavar="OUT",
                        help="write each image annotated with its zones and cards: OUT is a file (.png, .jpg) "
                        "for one image, a folder for several (NAME-recognized.png in it)")
    parser.add_argument("--zones", metavar="FILE", help="the table's calibration (TOML; see README)")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4),
                        help="without --zones: the default layout for this many seats (4) on a table that "
                        "fills the image")
    parser.set_defaults(handler=run)


def reader() -> Reader:
    """The card reader, ``vision.cards.read_cards``, imported when first needed (it loads its model)."""
    read: Reader = importlib.import_module("vision.cards").read_cards
    return read


@dataclass
class Recognized:
    """What was read in one image."""

    image: str
    frame: Image = field(repr=False)
    calibration: Calibration
    cards: list[CardSighting]
    dice: list[DieSighting] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` line for this image."""
        return {"image": self.image, "cards": [c.as_json() for c in self.cards],
                "dice": [d.as_json() for d in self.dice]}

    def render(self) -> str:
        """A readable listing: the cards zone by zone, unknown ones flagged.

        >>> from scoring.cards import Card
        >>> table = Calibration.default(2, size=(100, 100))
        >>> print(Recognized("deal.jpg", np.zeros((100, 100, 3), np.uint8), table, [
        ...     CardSighting(Card.parse("TH"), (50.0, 95.0), (), 0.99, "seat1.back"),
        ...     CardSighting(None, (40.0, 50.0), (), 0.42, "centre")]).render())
        deal.jpg: 2 cards, 1 unknown
          centre       ??        at (40, 50)  42%  unknown: adjust this card
          seat1.back   TH  10♥   at (50, 95)  99%
        """
        if not self.cards:
            return f"{self.image}: no cards found"
        unknown = sum(1 for c in self.cards if c.card is None)
        lines = [f"{self.image}: {len(self.cards)} card{'s' * (len(self.cards) != 1)}"
                 + (f", {unknown} unknown" if unknown else "")]
        for c in sorted(self.cards, key=lambda c: (c.zone is None, c.zone or "", c.center[1], c.center[0])):
            symbol = c.card.symbol if c.card else ""
            note = "  unknown: adjust this card" if c.card is None else ""
            lines.append(f"  {c.zone or '(no zone)':<12} {c.code}  {symbol:<4}  at ({c.center[0]:.0f}, "
                         f"{c.center[1]:.0f})  {c.confidence:.0%}{note}")
        return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``tablescore recognize`` with parsed arguments; returns the exit status."""
    try:
        if args.zones and args.seats:
            raise RecognizeError("give --zones (a calibration) or --seats (a default layout), not both")
        calibration = Calibration.load(args.zones) if args.zones else None
        outputs = draw_paths(args.draw, args.images) if args.draw else [None] * len(args.images)
        read = load_reader()
    except (RecognizeError, ZoneError) as error:
        print(f"tablescore recognize: {error}", file=sys.stderr)
        return 2
    failed = 0
    for image, out in zip(args.images, outputs, strict=True):
        try:
            result = recognize(image, read, calibration, args.seats or 4)
            print(json.dumps(result.as_json(), ensure_ascii=False) if args.json else result.render(), flush=True)
            if out is not None:
                write_drawing(result, out)
        except ReaderUnavailable as error:
            print(f"tablescore recognize: {error}", file=sys.stderr)
            return 2
        except RecognizeError as error:
            print(f"tablescore recognize: {image}: {error}", file=sys.stderr, flush=True)
            failed += 1
    return 1 if failed else 0


def load_reader() -> Reader:
    """The card reader, or a :class:`RecognizeError` saying why it is not there."""
    try:
        return reader()
    except (ImportError, OSError) as error:
        raise ReaderUnavailable(f"the card reader (vision.cards) is not available: {error}") from None


def recognize(image: str, read: Reader, calibration: Calibration | None, seats: int) -> Recognized:
    """Read one image's cards and give each its zone."""
    frame = load_image(image)
    height, width = frame.shape[:2]
    try:
        table = calibration.for_frame(width, height) if calibration else Calibration.default(seats, size=(width, height))
    except ZoneError as error:
        raise RecognizeError(str(error)) from None
    try:
        cards = read(frame)
    except OSError as error:  # the reader reads no files but its own model: without it, nothing can be read
        raise ReaderUnavailable(f"the card reader cannot run: {error}") from None
    except Exception as error:  # a bug in the reader must not stop the other images: say so, with the trace
        traceback.print_exc(file=sys.stderr)
        raise RecognizeError(f"internal error reading the cards ({type(error).__name__}); please report it") from None
    try:
        dice = list(read_dice(frame).dice)
    except Exception as error:  # as for the cards: a bug in the dice reader must not stop the other images
        traceback.print_exc(file=sys.stderr)
        raise RecognizeError(f"internal error reading the dice ({type(error).__name__}); please report it") from None
    return Recognized(image, frame, table, table.assign_zones(cards), dice)


def load_image(image: str) -> Image:
    """The image as a BGR array, or a :class:`RecognizeError` saying why it cannot be read."""
    path = Path(image)
    if not path.exists():
        raise RecognizeError("no such file")
    if path.is_dir():
        raise RecognizeError("is a folder, not an image")
    try:
        frame = read_image(image)
    except ValueError as error:
        raise RecognizeError(str(error)) from None
    if frame is None:
        raise RecognizeError("not an image OpenCV can read (PNG, JPEG, BMP, TIFF, WebP...)")
    result: Image = np.asarray(frame, dtype=np.uint8)
    return result


def draw_paths(out: str, images: Sequence[str]) -> list[Path]:
    """Where ``--draw OUT`` puts each image's drawing: OUT itself for one image, else files in folder OUT."""
    target = Path(out)
    if len(images) == 1 and not target.is_dir():
        if not cv2.haveImageWriter(str(target)):
            raise RecognizeError(f"--draw {out}: name an image file (.png, .jpg...)")
        return [target]
    if target.exists() and not target.is_dir():
        raise RecognizeError(f"--draw {out}: with several images, OUT is a folder, and {out} is a file")
    paths: list[Path] = []
    for image in images:
        stem, number = Path(image).stem, 1
        while (path := target / f"{stem}-recognized{'' if number == 1 else f'-{number}'}.png") in paths:
            number += 1
        paths.append(path)
    return paths


ZONE_COLOUR = (0, 200, 255)
READ_COLOUR = (60, 220, 60)
UNKNOWN_COLOUR = (40, 40, 255)


def draw(result: Recognized) -> Image:
    """The image with its zones (yellow), read cards (green) and unknown cards (red) drawn on it."""
    canvas = result.frame.copy()
    scale = max(canvas.shape[:2]) / 1600
    thick = max(1, round(2 * scale))
    names = [zone.name for zone in result.calibration.zones]
    for zone in result.calibration.zones:
        seen = result.calibration.to_image(zone.polygon)
        if np.isnan(seen).any():  # part of the zone lies beyond the camera's horizon
            continue
        corners = np.round(seen).astype(np.int32)
        cv2.polylines(canvas, [corners], True, ZONE_COLOUR, max(1, thick // 2), cv2.LINE_AA)
        if not any(name.startswith(zone.name + ".") for name in names):  # label the innermost zones
            room = int(np.ptp(corners[:, 0])) - 4
            size = max(0.5 * scale, SMALLEST)
            label = zone.name if text_size(zone.name, size)[0] <= room else short_name(zone.name)
            label_at(canvas, label, corners.mean(axis=0), ZONE_COLOUR, size)
    for card in result.cards:
        colour = READ_COLOUR if card.card else UNKNOWN_COLOUR
        if len(card.outline) >= 2:
            outline = np.round(np.array(card.outline)).astype(np.int32)
            cv2.polylines(canvas, [outline], True, colour, thick, cv2.LINE_AA)
        cv2.circle(canvas, tuple(int(round(v)) for v in card.center), thick * 2, colour, -1, cv2.LINE_AA)
        label_at(canvas, f"{card.code} {card.zone or '-'}", np.array(card.center), colour, 0.7 * scale)
    return canvas


SMALLEST = 0.35
"""The smallest text size drawn (OpenCV font scale): still readable."""


def short_name(zone: str) -> str:
    """A zone's name short enough for a narrow zone.

    >>> short_name("seat2.middle"), short_name("seat1"), short_name("crib")
    ('2m', '1', 'crib')
    """
    if not zone.startswith("seat"):
        return zone
    number, _, row = zone[4:].partition(".")
    return number + row[:1]


def text_size(text: str, size: float) -> tuple[int, int, int]:
    """The width, height and baseline of ``text`` drawn at ``size``."""
    (width, height), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, max(1, round(size * 2)))
    return width, height, base


def label_at(canvas: Image, text: str, where: npt.NDArray[Any], colour: tuple[int, int, int], size: float) -> None:
    """Write ``text`` centred on ``where``, on a dark box so it shows on any table."""
    size = max(size, SMALLEST)
    weight = max(1, round(size * 2))
    w, h, base = text_size(text, size)
    x, y = int(where[0] - w / 2), int(where[1] + h / 2)
    cv2.rectangle(canvas, (x - 2, y - h - 2), (x + w + 2, y + base), (0, 0, 0), -1)
    cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, size, colour, weight, cv2.LINE_AA)


def write_drawing(result: Recognized, out: Path) -> None:
    """Write the annotated image to ``out`` (making its folder when OUT is a folder)."""
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        written = cv2.imwrite(str(out), draw(result))
    except (OSError, cv2.error) as error:
        raise RecognizeError(f"cannot write the drawing {out}: {error}") from None
    if not written:
        raise RecognizeError(f"cannot write the drawing {out}")
