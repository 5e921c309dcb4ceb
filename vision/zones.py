"""Table zones: which place on the table (a seat, an OFC row, the centre, the crib...) each card lies in.

A calibration is set up once per table. It holds the table's four corners as the camera sees them, which
fix a homography from image pixels to *table coordinates* (``(0, 0)`` the table's top-left corner,
``(1, 1)`` its bottom-right, seat 1 at the bottom edge), and named zone polygons in table coordinates,
so the zones stay right however the camera looks at the table. A card lies in the zone its centre is in;
where zones overlap, the smaller wins (so a zone can sit inside a larger one); a centre just off every
zone (within ``snap``, in table units) goes to the nearest zone; farther off, the card has no zone.

>>> table = Calibration.default(4, size=(1000, 1000))
>>> table.seats, table.zone_at((500, 950)), table.zone_at((500, 500)), table.zone_at((20, 20))
(4, 'seat1.back', 'centre', 'tray')
>>> seat_of("seat1.back"), seat_of("centre")
('seat1', None)

The same table seen in perspective, from behind seat 3 (its far edge, seat 1's, looks shorter):

>>> slanted = Calibration(((100, 50), (900, 50), (700, 600), (300, 600)), table.zones)
>>> slanted.zone_at((500, 590)), slanted.zone_at((500, 60))
('seat1.back', 'seat3.back')
>>> slanted.zone_at((50, 590)) is None
True
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from vision.observations import CardSighting, Point

__all__ = ["Calibration", "Zone", "ZoneError", "ROWS", "seat_of", "default_zones", "polygon_distances"]

Floats = npt.NDArray[np.float64]

ROWS = ("front", "middle", "back")
"""The three Open-Face Chinese Poker rows of a seat, from the centre of the table out to the player."""

PLACES = ("centre", "crib", "starter", "tray")
"""The zones that belong to no seat."""

SEAT_DEPTH = 0.3
"""How far (in table units) the default seat areas reach in from the table's edge: three rows of cards."""

REACH = 0.5
"""How far beyond the table's edges (in table units) a zone may reach: a tray may sit beside the table."""

_EDGE = 1e-6
"""Points this close to a zone (table units: a thousandth of a pixel) lie on its edge."""
_NAME = re.compile(r"seat([1-9])(?:\.(\w+))?$")


class ZoneError(ValueError):
    """A calibration that cannot be used; the message names the bad entry."""


@dataclass(frozen=True, slots=True)
class Zone:
    """A named place on the table: a polygon in table coordinates.

    >>> Zone("crib", ((0.7, 0.0), (1.0, 0.0), (1.0, 0.3), (0.7, 0.3))).area
    0.09
    """

    name: str
    polygon: tuple[Point, ...]

    @property
    def area(self) -> float:
        """The polygon's area in table units (the shoelace formula)."""
        points = self.polygon
        twice = sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True))
        return round(abs(twice) / 2, 12)


def seat_of(zone: str | None) -> str | None:
    """The seat a zone belongs to (``seat2`` for ``seat2.front``), or None for the centre, crib...

    >>> seat_of("seat2.front"), seat_of("seat2"), seat_of("tray"), seat_of(None)
    ('seat2', 'seat2', None, None)
    """
    return zone.split(".")[0] if zone and zone.startswith("seat") else None


def _box(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def _turn(points: Iterable[Point], quarters: int) -> tuple[Point, ...]:
    """Points turned clockwise (as seen from above) by quarter turns about the table's centre, exactly."""
    turned = list(points)
    for _ in range(quarters):
        turned = [(round(1 - y, 12), x) for x, y in turned]
    return tuple(turned)


def default_zones(seats: int) -> tuple[Zone, ...]:
    """The default layout for 2, 3 or 4 seats (drawn in docs/VISION.md).

    Seats go clockwise from seat 1 at the bottom edge: 2 seats face each other (bottom, top), 3 take the
    bottom, left and top, 4 all sides. Each seat's area is a band along its edge between the corners, split
    into its three OFC rows, back nearest the player. The corners hold the dice tray (top left), the crib
    (top right) and the starter (bottom right); the bottom-left corner is free (the pack, chips). The
    centre is the rest of the middle, reaching to the edge on a side with no seat.

    >>> [zone.name for zone in default_zones(2)]  # doctest: +NORMALIZE_WHITESPACE
    ['seat1', 'seat1.front', 'seat1.middle', 'seat1.back', 'seat2', 'seat2.front', 'seat2.middle',
     'seat2.back', 'centre', 'crib', 'starter', 'tray']
    """
    if seats not in (2, 3, 4):
        raise ZoneError(f"a table has 2 to 4 seats, not {seats}")
    near, far, row = SEAT_DEPTH, 1 - SEAT_DEPTH, SEAT_DEPTH / 3
    sides = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}[seats]  # quarter turns from the bottom edge
    zones = []
    for number, quarters in enumerate(sides, start=1):
        zones.append(Zone(f"seat{number}", _turn(_box(near, far, far, 1.0), quarters)))
        for depth, name in enumerate(ROWS):
            top = far + depth * row
            zones.append(Zone(f"seat{number}.{name}", _turn(_box(near, top, far, top + row), quarters)))
    left = 0.0 if 1 not in sides else near
    right = 1.0 if 3 not in sides else far
    zones.append(Zone("centre", _box(left, near, right, far)))
    zones.append(Zone("crib", _box(far, 0.0, 1.0, near)))
    zones.append(Zone("starter", _box(far, far, 1.0, 1.0)))
    zones.append(Zone("tray", _box(0.0, 0.0, near, near)))
    return tuple(zones)


@dataclass(frozen=True)
class Calibration:
    """A table's corners in the image and its named zones; maps image points to zones.

    ``corners`` are image pixels, in the order top-left, top-right, bottom-right, bottom-left of the table
    seen from above with seat 1 at the bottom. ``size`` is the frame size they were measured on, if known:
    frames of another size with the same shape get the corners scaled.
    """

    corners: tuple[Point, ...]
    zones: tuple[Zone, ...]
    size: tuple[int, int] | None = None
    snap: float = 0.02
    fills: bool = field(default=False, compare=False)
    """Whether the table fills the frame whatever its shape (the default layout): then frames of any size
    are taken, the corners scaled to the frame's edges."""
    _to_table: Floats = field(init=False, repr=False, compare=False)
    _to_image: Floats = field(init=False, repr=False, compare=False)
    _order: tuple[Zone, ...] = field(init=False, repr=False, compare=False)
    _polygons: list[Floats] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        corners = _points(self.corners, "'corners'", count=4, reach=None)
        zones = tuple(Zone(z.name, _points(z.polygon, f"zone {z.name!r}", reach=REACH)) for z in self.zones)
        object.__setattr__(self, "corners", corners)
        object.__setattr__(self, "zones", zones)
        _check_convex(corners)
        _check_zones(zones)
        if self.size is not None and (len(self.size) != 2 or not all(_is_int(n) and n > 0 for n in self.size)):
            raise ZoneError(f"'size' is the frame size [width, height] in pixels, not {list(self.size)!r}")
        if not _is_number(self.snap) or not 0 <= self.snap <= REACH:
            raise ZoneError(f"'snap' is a distance in table units from 0 to {REACH}, not {self.snap!r}")
        object.__setattr__(self, "_to_table", _homography(corners, _box(0.0, 0.0, 1.0, 1.0)))
        object.__setattr__(self, "_to_image", _homography(_box(0.0, 0.0, 1.0, 1.0), corners))
        order = tuple(sorted(zones, key=lambda z: (z.area, z.name)))
        object.__setattr__(self, "_order", order)
        object.__setattr__(self, "_polygons", [np.array(zone.polygon, dtype=np.float64) for zone in order])

    @classmethod
    def default(cls, seats: int = 4, *, size: tuple[int, int]) -> Calibration:
        """The default layout for ``seats`` on a table that fills a frame of ``size`` (width, height)."""
        width, height = size
        return cls(_box(0.0, 0.0, float(width), float(height)), default_zones(seats), size=size, fills=True)

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return sum(1 for zone in self.zones if "." not in zone.name and seat_of(zone.name))

    def for_frame(self, width: int, height: int) -> Calibration:
        """This calibration for frames of ``width`` x ``height``: corners scaled if the frame size differs;
        a frame of another shape only where the table fills the frame (the default layout).

        >>> table = Calibration(((0, 0), (1280, 0), (1280, 720), (0, 720)), default_zones(2), size=(1280, 720))
        >>> table.for_frame(640, 360).corners[2]
        (640.0, 360.0)
        >>> table.for_frame(640, 480)
        Traceback (most recent call last):
        ...
        vision.zones.ZoneError: the calibration is for 1280x720 frames, not 640x480: calibrate for this camera setting
        >>> Calibration.default(2, size=(1280, 720)).for_frame(640, 480).corners[2]
        (640.0, 480.0)
        """
        if self.size is None or self.size == (width, height):
            return self
        sx, sy = width / self.size[0], height / self.size[1]
        if abs(sx / sy - 1) > 0.01 and not self.fills:
            raise ZoneError(f"the calibration is for {self.size[0]}x{self.size[1]} frames, not {width}x{height}: "
                            "calibrate for this camera setting")
        corners = tuple((x * sx, y * sy) for x, y in self.corners)
        return replace(self, corners=corners, size=(width, height))

    def to_table(self, points: Sequence[Point]) -> Floats:
        """Image points in table coordinates (NaN for a point beyond the table's horizon).

        >>> Calibration.default(2, size=(200, 100)).to_table([(100, 50), (200, 0)]).tolist()
        [[0.5, 0.5], [1.0, 0.0]]
        """
        return _apply(self._to_table, points, self.corners[0])

    def to_image(self, points: Sequence[Point]) -> Floats:
        """Table coordinates in image pixels: where to draw a zone."""
        return _apply(self._to_image, points, (0.5, 0.5))

    def zones_at(self, points: Sequence[Point]) -> list[str | None]:
        """The zone of each image point (None when off every zone)."""
        if len(points) == 0:
            return []
        distance = polygon_distances(self._polygons, self.to_table(points))  # zones smallest first
        inside = distance <= _EDGE
        nearest = distance.min(axis=1, keepdims=True)
        # The smallest zone holding the point; else the nearest within snap, a tie going to the smaller zone.
        pick = np.where(inside.any(axis=1), inside.argmax(axis=1), (distance <= nearest + _EDGE).argmax(axis=1))
        near = inside.any(axis=1) | (nearest[:, 0] <= self.snap)
        return [self._order[i].name if ok else None for i, ok in zip(pick.tolist(), near.tolist(), strict=True)]

    def zone_at(self, point: Point) -> str | None:
        """The zone of one image point."""
        return self.zones_at([point])[0]

    def assign_zone(self, sighting: CardSighting) -> CardSighting:
        """The sighting with its zone filled in."""
        return replace(sighting, zone=self.zone_at(sighting.center))

    def assign_zones(self, sightings: Sequence[CardSighting]) -> list[CardSighting]:
        """Every sighting with its zone, in one pass."""
        names = self.zones_at([s.center for s in sightings])
        return [replace(s, zone=name) for s, name in zip(sightings, names, strict=True)]

    def to_toml(self) -> str:
        """The calibration as a TOML file that :meth:`from_toml` reads back unchanged.

        >>> table = Calibration.default(3, size=(1280, 720))
        >>> Calibration.from_toml(table.to_toml()) == table
        True
        """
        lines = [
            "# tablescore table calibration (docs/VISION.md: Table zones and tracking).",
            "# corners: the table's corners in the image, in pixels: top-left, top-right, bottom-right,",
            "# bottom-left, seen from above with seat 1 at the bottom edge. size: the frame size they fit.",
            f"corners = {_toml_points(self.corners)}",
        ]
        if self.size is not None:
            lines.append(f"size = [{self.size[0]}, {self.size[1]}]")
        lines += [
            "# snap: a card this close (table units) outside every zone goes to the nearest one.",
            f"snap = {float(self.snap)!r}",
            "",
            "# Zone polygons in table coordinates: (0, 0) the top-left corner, (1, 1) the bottom-right.",
            "# Where zones overlap, the smaller wins.",
            "[zones]",
        ]
        lines += [f"{_toml_key(zone.name)} = {_toml_points(zone.polygon)}" for zone in self.zones]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_toml(cls, text: str) -> Calibration:
        """Read a calibration from TOML text; a bad entry raises :class:`ZoneError` naming it.

        A file may give ``seats`` instead of ``[zones]``, for the default layout:

        >>> Calibration.from_toml('corners = [[0, 0], [640, 0], [640, 480], [0, 480]]\\nseats = 2').seats
        2
        >>> Calibration.from_toml('corners = [[0, 0], [10, 0], [10, 10]]\\nseats = 2')
        Traceback (most recent call last):
        ...
        vision.zones.ZoneError: 'corners' needs 4 points [x, y], got 3
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise ZoneError(f"not valid TOML: {error}") from None
        unknown = sorted(set(data) - {"corners", "size", "snap", "seats", "zones"})
        if unknown:
            raise ZoneError(f"unknown entry {unknown[0]!r} (a calibration has corners, size, snap, and seats "
                            "or zones)")
        if "corners" not in data:
            raise ZoneError("missing 'corners': the table's four corners in the image, in pixels")
        if ("seats" in data) == ("zones" in data):
            raise ZoneError("give either 'seats' (2 to 4, for the default layout) or a [zones] table, not both"
                            if "seats" in data else "missing [zones] (or 'seats' for the default layout)")
        zones = data.get("zones") or {}
        if "seats" in data:
            seats = data["seats"]
            if seats not in (2, 3, 4) or isinstance(seats, bool):
                raise ZoneError(f"'seats' is 2, 3 or 4, not {seats!r}")
            zones = {zone.name: zone.polygon for zone in default_zones(seats)}
        if not isinstance(zones, dict):
            raise ZoneError("'zones' is a table of name = [[x, y], ...] polygons")
        size = data.get("size")
        if size is not None and not (isinstance(size, list) and len(size) == 2):
            raise ZoneError(f"'size' is the frame size [width, height] in pixels, not {size!r}")
        return cls(
            corners=data["corners"],
            zones=tuple(Zone(name, polygon) for name, polygon in zones.items()),
            size=None if size is None else (size[0], size[1]),
            snap=data.get("snap", 0.02),
        )

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file; any problem raises :class:`ZoneError` naming the file and the entry."""
        try:
            return cls.from_toml(Path(path).read_text(encoding="utf-8"))
        except OSError as error:
            raise ZoneError(f"{path}: cannot read the calibration: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise ZoneError(f"{path}: not a text file") from None
        except ZoneError as error:
            raise ZoneError(f"{path}: {error}") from None

    def save(self, path: str | Path) -> None:
        """Write the calibration to a TOML file."""
        Path(path).write_text(self.to_toml(), encoding="utf-8")


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _points(points: object, label: str, *, count: int | None = None, reach: float | None) -> tuple[Point, ...]:
    """Check a list of [x, y] points; ``reach`` bounds table coordinates (None for pixels)."""
    if not isinstance(points, list | tuple):
        raise ZoneError(f"{label} is a list of points [x, y], not {points!r}")
    if count is not None and len(points) != count:
        raise ZoneError(f"{label} needs {count} points [x, y], got {len(points)}")
    if len(points) < 3:
        raise ZoneError(f"{label} needs at least 3 points [x, y], got {len(points)}")
    checked = []
    for number, point in enumerate(points, start=1):
        if not (isinstance(point, list | tuple) and len(point) == 2 and all(_is_number(v) for v in point)):
            raise ZoneError(f"{label}: point {number} is {_show(point)}, not [x, y] with two numbers")
        x, y = float(point[0]), float(point[1])
        if reach is not None and not all(-reach <= v <= 1 + reach for v in (x, y)):
            raise ZoneError(f"{label}: point {number} is {_show(point)}: zone points are table coordinates, "
                            f"0 to 1 across the table (at most {reach} beyond its edges), not pixels")
        checked.append((x, y))
    return tuple(checked)


def _show(value: object) -> str:
    return repr(list(value)) if isinstance(value, tuple) else repr(value)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _check_convex(corners: Sequence[Point]) -> None:
    turns = [_cross(corners[i - 1], corners[i], corners[(i + 1) % 4]) for i in range(4)]
    if not (all(t > 0 for t in turns) or all(t < 0 for t in turns)):
        raise ZoneError("'corners' do not make a four-sided table: give them in order top-left, top-right, "
                        "bottom-right, bottom-left, each a distinct point")


def _check_zones(zones: Sequence[Zone]) -> None:
    names = [zone.name for zone in zones]
    seat_numbers = set()
    for number, zone in enumerate(zones):
        if zone.name in names[:number]:
            raise ZoneError(f"zone {zone.name!r} is given twice")
        match = _NAME.match(zone.name)
        if zone.name not in PLACES and not (match and match.group(2) in (None, *ROWS)):
            raise ZoneError(f"unknown zone {zone.name!r}: zones are seat1 to seat4, seatN.front, seatN.middle, "
                            f"seatN.back, {', '.join(PLACES)}")
        if match and match.group(2) and f"seat{match.group(1)}" not in names:
            raise ZoneError(f"zone {zone.name!r} is a row of seat{match.group(1)}, which has no zone")
        if match and not match.group(2):
            seat_numbers.add(int(match.group(1)))
        if zone.area <= _EDGE:
            raise ZoneError(f"zone {zone.name!r} has no area: its points lie on one line")
        if _self_crossing(zone.polygon):
            raise ZoneError(f"zone {zone.name!r} crosses itself: list its points in order around it")
    if sorted(seat_numbers) != list(range(1, len(seat_numbers) + 1)) or not 2 <= len(seat_numbers) <= 4:
        found = ", ".join(f"seat{n}" for n in sorted(seat_numbers)) or "none"
        raise ZoneError(f"a table has 2 to 4 seats numbered from seat1 in turn; the zones name {found}")


def _self_crossing(polygon: Sequence[Point]) -> bool:
    """Whether two edges that do not share a corner cross or touch."""
    edges = list(zip(polygon, [*polygon[1:], polygon[0]], strict=True))
    count = len(edges)
    for i in range(count):
        for j in range(i + 2, count):
            if i == 0 and j == count - 1:
                continue
            (a, b), (c, d) = edges[i], edges[j]
            if (_cross(a, b, c) * _cross(a, b, d) <= 0 and _cross(c, d, a) * _cross(c, d, b) <= 0
                    and max(a[0], b[0]) >= min(c[0], d[0]) and max(c[0], d[0]) >= min(a[0], b[0])
                    and max(a[1], b[1]) >= min(c[1], d[1]) and max(c[1], d[1]) >= min(a[1], b[1])):
                return True
    return False


def _homography(source: Sequence[Point], target: Sequence[Point]) -> Floats:
    """The 3x3 projective map taking the four ``source`` points to the four ``target`` points."""
    rows, values = [], []
    for (x, y), (u, v) in zip(source, target, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        values += [u, v]
    h = np.linalg.solve(np.array(rows, dtype=np.float64), np.array(values, dtype=np.float64))
    matrix: Floats = np.append(h, 1.0).reshape(3, 3)
    return matrix


def _apply(matrix: Floats, points: Sequence[Point], inside: Point) -> Floats:
    """Apply a projective map to points; a point beyond the horizon (away from ``inside``) becomes NaN."""
    if len(points) == 0:
        return np.zeros((0, 2))
    xy = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    with np.errstate(over="ignore", invalid="ignore"):  # a NaN, infinite or huge point maps to NaN: no zone
        mapped = np.column_stack([xy, np.ones(len(xy))]) @ matrix.T
        w = mapped[:, 2:]
        ahead = w * (matrix[2] @ (*inside, 1.0)) > 0
        result: Floats = np.where(ahead, mapped[:, :2] / np.where(ahead, w, 1.0), np.nan)
    return result


def polygon_distances(polygons: Sequence[Floats], points: Floats) -> Floats:
    """The distance from each point to each polygon, a (points, polygons) array: 0 inside or on the polygon's
    edge; a NaN point (beyond the horizon) is infinitely far from everything.

    >>> square, far = np.array(_box(0.0, 0.0, 1.0, 1.0)), np.array(_box(2.0, 0.0, 3.0, 1.0))
    >>> polygon_distances([square, far], np.array([[0.5, 0.5], [1.0, 0.2], [1.5, 0.5], [np.nan, 0.0]])).tolist()
    [[0.0, 1.5], [0.0, 1.0], [0.5, 0.5], [inf, inf]]
    """
    sizes = [len(polygon) for polygon in polygons]
    starts = np.cumsum([0, *sizes[:-1]])
    following = np.arange(1, sum(sizes) + 1)
    following[starts + sizes - 1] = starts  # each polygon's last corner leads back to its first
    a = np.concatenate(polygons)
    edge = a[following] - a
    length = (edge * edge).sum(axis=1)
    offset = points[:, None, :] - a[None, :, :]
    t = np.clip((offset * edge).sum(axis=2) / np.where(length > 0, length, 1.0), 0.0, 1.0)
    gap = np.hypot(*(offset - t[:, :, None] * edge).transpose(2, 0, 1))
    x, y = points[:, :1], points[:, 1:]
    straddles = (a[:, 1] > y) != (a[:, 1] + edge[:, 1] > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        crossing_x = a[:, 0] + (y - a[:, 1]) * edge[:, 0] / edge[:, 1]
    crossings = np.add.reduceat(straddles & (x < crossing_x), starts, axis=1)
    gap = np.minimum.reduceat(gap, starts, axis=1)
    result: Floats = np.where(np.isnan(gap), np.inf, np.where(crossings % 2 == 1, 0.0, gap))
    return result


def _toml_points(points: Iterable[Point]) -> str:
    return "[" + ", ".join(f"[{float(x)!r}, {float(y)!r}]" for x, y in points) + "]"


def _toml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else f'"{name}"'
