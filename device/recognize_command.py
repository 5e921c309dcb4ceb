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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when an image is read, not whenever the command line starts (NumPy, OpenCV)
    import numpy as np
    import numpy.typing as npt

    from vision.observations import CardSighting, DieSighting
    from vision.zones import Calibration

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
    parser.add_argument("--zones", metavar="FILE", help="the table's calibration (TOML; see docs/VISION.md)")
    parser.add_argument("--seats", type=int, choices=(2, 3, 4),
                        help="without --zones: the default layout for this many seats (4) on a table that "
                        "fills the image")
    parser.add_argument("--faces", choices=("light", "dark"), default="light",
                        help="the deck's faces: dark print on light paper (light, nearly every deck) or light print "
                        "on dark paper (dark, a black deck)")
    parser.set_defaults(handler=run)


def reader(faces: str = "light") -> Reader:
    """The card reader, ``vision.cards.read_cards`` for a deck with ``faces``, imported when first needed (it loads
    its model)."""
    cards = importlib.import_module("vision.cards")
    checked = cards.checked_faces(faces)

    def read(frame: Image) -> list[CardSighting]:
        seen: list[CardSighting] = cards.read_cards(frame, checked)
        return seen

    return read


@dataclass
class Recognized:
    """What was read in one image."""

    image: str
    frame: Image = field(repr=False)
    calibration: Calibration
    cards: list[CardSighting]
    dice: list[DieSighting] = field(default_factory=list)
    note: str | None = None  # for whoever places the camera (``vision.cards.index_note``)

    def as_json(self) -> dict[str, Any]:
        """The ``--json`` line for this image (``note`` only when there is one)."""
        line = {"image": self.image, "cards": [c.as_json() for c in self.cards],
                "dice": [d.as_json() for d in self.dice]}
        if self.note:
            line["note"] = self.note
        return line

    def render(self) -> str:
        """A readable listing: the cards zone by zone, unknown ones flagged.

        >>> import numpy as np
        >>> from scoring.cards import Card
        >>> from vision.observations import CardSighting
        >>> from vision.zones import Calibration
        >>> table = Calibration.default(2, size=(100, 100))
        >>> print(Recognized("deal.jpg", np.zeros((100, 100, 3), np.uint8), table, [
        ...     CardSighting(Card.parse("TH"), (50.0, 95.0), (), 0.99, "seat1.back"),
        ...     CardSighting(None, (40.0, 50.0), (), 0.42, "centre")], note="lower the camera").render())
        deal.jpg: 2 cards, 1 unknown
          note: lower the camera
          centre       ??        at (40, 50)  42%  unknown: adjust this card
          seat1.back   TH  10♥   at (50, 95)  99%
        """
        if not self.cards:
            return f"{self.image}: no cards found"
        unknown = sum(1 for c in self.cards if c.card is None)
        lines = [f"{self.image}: {len(self.cards)} card{'s' * (len(self.cards) != 1)}"
                 + (f", {unknown} unknown" if unknown else "")] + [f"  note: {self.note}"] * bool(self.note)
        for c in sorted(self.cards, key=lambda c: (c.zone is None, c.zone or "", c.center[1], c.center[0])):
            symbol = c.card.symbol if c.card else ""
            note = "  unknown: adjust this card" if c.card is None else ""
            lines.append(f"  {c.zone or '(no zone)':<12} {c.code}  {symbol:<4}  at ({c.center[0]:.0f}, "
                         f"{c.center[1]:.0f})  {c.confidence:.0%}{note}")
        return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Run ``tablescore recognize`` with parsed arguments; returns the exit status."""
    from device.recognize_drawing import write_drawing
    from vision.zones import Calibration, ZoneError

    try:
        if args.zones and args.seats:
            raise RecognizeError("give --zones (a calibration) or --seats (a default layout), not both")
        calibration = Calibration.load(args.zones) if args.zones else None
        outputs = draw_paths(args.draw, args.images) if args.draw else [None] * len(args.images)
        read = load_reader(args.faces)
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


def load_reader(faces: str = "light") -> Reader:
    """The card reader for a deck with ``faces``, or a :class:`RecognizeError` saying why it is not there."""
    try:
        return reader(faces)
    except (ImportError, OSError) as error:
        raise ReaderUnavailable(f"the card reader (vision.cards) is not available: {error}") from None


def recognize(image: str, read: Reader, calibration: Calibration | None, seats: int) -> Recognized:
    """Read one image's cards and give each its zone."""
    from vision.cards import index_note
    from vision.dice import read_dice
    from vision.zones import Calibration, ZoneError

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
    return Recognized(image, frame, table, table.assign_zones(cards), dice, index_note(cards, frame.shape))


def load_image(image: str) -> Image:
    """The image as a BGR array, or a :class:`RecognizeError` saying why it cannot be read."""
    import numpy as np

    from device.camera import read_image

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
    import cv2

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
