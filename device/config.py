"""The device's configuration: one TOML file, checked on load with errors that name the entry.

Every entry has a default, so an empty file (or none) is a working stand-in configuration: the
emulated display, no camera recording, the default pins.

>>> config = parse('''
... [table]
... game = "gin"
... players = ["Ann", "Bob"]
... [games.gin]
... limit = 250
... [display]
... kind = "sh1106"
... ''')
>>> config.table.game, config.games["gin"], config.display.kind, config.buttons.ok
('gin', {'limit': 250}, 'sh1106', 17)
>>> parse('[display]\\nkind = "lcd"')
Traceback (most recent call last):
...
device.config.ConfigError: configuration: [display] kind: 'lcd' is not one of ssd1306, sh1106, emulator, dummy
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from device.display import KINDS as DISPLAY_KINDS
from device.games import names
from device.screens import GLASSES

if TYPE_CHECKING:
    from vision.dice_tracker import DiceSettings

GAMES = tuple(names())
"""The games a table may play: the scoring engine's registry."""


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the entry, ``entry`` only
    the entry and what is wrong with it (for the OLED)."""

    def __init__(self, message: str, entry: str | None = None) -> None:
        super().__init__(message)
        self.entry = entry or message


class Section:
    """A table of settings; ``check`` raises ValueError for values that are the right type but wrong."""

    def check(self) -> None:
        """Nothing to check beyond the types."""


S = typing.TypeVar("S", bound=Section)


@dataclass(frozen=True)
class TableSection(Section):
    """Which game is played, by whom."""

    game: str = "cribbage"
    players: list[str] = field(default_factory=lambda: ["North", "South"])

    def check(self) -> None:
        _one_of(self.game, GAMES, "game")
        for number, name in enumerate(self.players, 1):
            if not name.strip():
                raise ValueError(f"players: player {number}'s name is blank")
            if not name.isprintable():
                raise ValueError(f"players: player {number}'s name {name!r} holds a control character")
        if not 2 <= len(self.players) <= 4 or len({name.strip() for name in self.players}) != len(self.players):
            raise ValueError(f"players: {self.players!r} must be 2 to 4 different names")


@dataclass(frozen=True)
class ButtonsSection(Section):
    """The main buttons' BCM pins and the hold time for undo."""

    ok: int = 17
    back: int = 27
    next: int = 22
    hold_time: float = 1.5

    def check(self) -> None:
        pins = [self.ok, self.back, self.next]
        if len(set(pins)) != 3 or not all(0 <= pin <= 27 for pin in pins):
            raise ValueError(f"pins {pins} must be three different BCM pins 0-27")
        _positive(self.hold_time, "hold_time", "seconds")


@dataclass(frozen=True)
class DisplaySection(Section):
    """The OLED: controller (or a stand-in), I2C port and address, rotation, emulator folder, and the
    glass's size in inches ("1.3" or "0.96": how tall the lines are drawn, ``device.screens.GLASSES``)."""

    kind: str = "emulator"
    port: int = 1
    address: int = 0x3C
    rotate: int = 0
    folder: str = "oled-frames"
    size: str = "1.3"

    def check(self) -> None:
        _one_of(self.kind, DISPLAY_KINDS, "kind")
        _one_of(self.size, tuple(GLASSES), "size")
        _one_of(self.rotate, (0, 1, 2, 3), "rotate")
        if self.port < 0:
            raise ValueError(f"port: {self.port} is not an I2C bus number (0, 1, ...)")
        if not 0 <= self.address <= 0x7F:
            raise ValueError(f"address: {self.address} is not a 7-bit I2C address (0x00-0x7F, usually 0x3C)")


@dataclass(frozen=True)
class CameraSection(Section):
    """Where frames come from (picamera, usb:N, a video file or an image folder), at what size, and the deck's
    faces ("light": dark print on light paper, nearly every deck; "dark": light print on black).

    The size is the Camera Module 3's whole view, binned (``device.camera.sensor_mode``): over a table about a
    metre across, ordinary cards' indices measure about 24 pixels from rank to suit (``vision.cards.DETAIL_INDEX``),
    which the card reader reads in detail from the frame it was found in scaled down (``vision.live``)."""

    source: str = "picamera"
    width: int = 2304
    height: int = 1296
    fps: float = 10.0
    faces: str = "light"

    def check(self) -> None:
        _one_of(self.faces, ("light", "dark"), "faces")
        _positive(self.width, "width", "pixels")
        _positive(self.height, "height", "pixels")
        _positive(self.fps, "fps", "frames a second")


@dataclass(frozen=True)
class PanelSection(Section):
    """The seat panel: ``auto`` finds a Pico by its USB id, ``none`` runs without one, else a port."""

    port: str = "auto"


@dataclass(frozen=True)
class JournalSection(Section):
    """Where confirmed events are kept."""

    path: str = "tablescore.db"


@dataclass(frozen=True)
class DiceSection(Section):
    """Pinzique's dice tray (``vision.dice_tracker.DiceSettings``; how many dice, the score guide's): frames
    the dice must lie still for a roll to settle, how far (pixels) a die may shift and still lie still, and
    how far from where it lay a die is still one kept from the last roll."""

    steady: int = 3
    still: float = 4.0
    near: float = 10.0

    def settings(self) -> DiceSettings:
        """The dice tracker's settings; ValueError naming one that is wrong. Checked by the commands that
        run the table (``tablescore run``, ``demo``), not as the configuration loads: it imports the dice
        reader (NumPy, OpenCV), which ``tablescore history`` has no use for."""
        from vision.dice_tracker import DiceSettings

        return DiceSettings(**dataclasses.asdict(self))


@dataclass(frozen=True)
class BrokerSection(Section):
    """The club's MQTT broker: where it listens, the user and password to log in with, and whether to speak
    TLS to it (checked against ``ca_file``, or the system's certificate authorities when it is empty)."""

    host: str = "localhost"
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""

    def check(self) -> None:
        if not 0 < self.port < 65536:
            raise ValueError(f"port: {self.port} is not a TCP port (1-65535; MQTT's is 1883, 8883 with TLS)")
        if not self.host:
            raise ValueError("host: the broker's host name or address is missing")


@dataclass(frozen=True)
class ClubSection(BrokerSection):
    """Club mode: the club's and this table's names (the table's topics are ``tablescore/<name>/<table>/``)
    and the broker it publishes to; the user name is the table's unless given."""

    name: str = ""
    table: str = ""

    def check(self) -> None:
        from club.messages import check_name

        super().check()
        check_name("name", self.name)
        check_name("table", self.table)

    @property
    def user(self) -> str:
        """The user name to log in with."""
        return self.username or self.table


@dataclass(frozen=True)
class Config:
    """The whole configuration."""

    table: TableSection = field(default_factory=TableSection)
    games: dict[str, dict[str, Any]] = field(default_factory=dict)
    buttons: ButtonsSection = field(default_factory=ButtonsSection)
    display: DisplaySection = field(default_factory=DisplaySection)
    camera: CameraSection = field(default_factory=CameraSection)
    panel: PanelSection = field(default_factory=PanelSection)
    journal: JournalSection = field(default_factory=JournalSection)
    dice: DiceSection = field(default_factory=DiceSection)
    zones: str | None = None
    club: ClubSection | None = None
    """Club mode's settings; None (no ``[club]`` section) runs the table on its own."""


def _one_of(value: object, allowed: tuple[object, ...], name: str) -> None:
    if value not in allowed:
        raise ValueError(f"{name}: {value!r} is not one of {', '.join(map(str, allowed))}")


def _positive(value: float, name: str, unit: str) -> None:
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"{name}: {value!r} must be a number of {unit} above 0")


def section(kind: type[S], data: object, name: str) -> S:
    """Build the dataclass ``kind`` from a TOML table, checking each entry's type."""
    if not isinstance(data, dict):
        raise ConfigError(f"[{name}] must be a table of settings")
    hints = typing.get_type_hints(kind)
    known = {f.name for f in dataclasses.fields(kind)}  # type: ignore[arg-type]
    for key, value in data.items():
        if key not in known:
            raise ConfigError(f"[{name}] {key}: unknown setting (known: {', '.join(sorted(known))})")
        if not _fits(value, hints[key]):
            raise ConfigError(f"[{name}] {key}: {value!r} is not {_describe(hints[key])}")
    section = kind(**data)
    try:
        section.check()
    except ValueError as error:
        raise ConfigError(f"[{name}] {error}") from None
    return section


def _fits(value: object, hint: Any) -> bool:
    if hint is bool:
        return isinstance(value, bool)
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return any(_fits(value, arm) for arm in typing.get_args(hint))
    if origin is list:
        (item,) = typing.get_args(hint)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _describe(hint: Any) -> str:
    """A type of the configuration in words.

    >>> _describe(list[str]), _describe(str | None), _describe(float)
    ('a list of strings', 'a string or nothing', 'a number')
    """
    names = {int: "a whole number", float: "a number", str: "a string", bool: "true or false", type(None): "nothing"}
    if typing.get_origin(hint) is list:
        (item,) = typing.get_args(hint)
        return f"a list of {_describe(item).removeprefix('a ')}s"
    if typing.get_origin(hint) in (types.UnionType, typing.Union):
        return " or ".join(_describe(arm) for arm in typing.get_args(hint))
    return names.get(hint, "a value of another kind")


def parse(text: str, source: str = "configuration") -> Config:
    """The configuration in TOML ``text``; ``source`` names it in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}", f"not valid TOML: {error}") from None
    sections = typing.get_type_hints(Config)
    built: dict[str, Any] = {}
    try:
        for name, value in data.items():
            hint = sections.get(name)
            if hint is None:
                raise ConfigError(f"[{name}]: unknown section (known: {', '.join(sorted(sections))})")
            if name == "games":
                built[name] = _games(value)
            elif name == "zones":
                if not isinstance(value, str):
                    raise ConfigError("zones: expected the path of a zones file")
                built[name] = value
            else:
                (kind,) = (arm for arm in typing.get_args(hint) or (hint,) if arm is not type(None))
                built[name] = section(kind, value, name)
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}", str(error)) from None
    return Config(**built)


def _games(value: object) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict):
        raise ConfigError("[games] must hold one table of settings per game")
    for game, settings in value.items():
        if game not in GAMES:
            raise ConfigError(f"[games.{game}]: unknown game (known: {', '.join(GAMES)})")
        if not isinstance(settings, dict):
            raise ConfigError(f"[games.{game}] must be a table of settings")
    return dict(value)


def display_of(path: str | Path | None) -> DisplaySection | None:
    """The ``[display]`` section of the configuration file at ``path``, where it can be read and used even
    if the rest cannot (to say on the OLED what is wrong); None where it cannot, or there is no file.

    >>> display_of(None) is None
    True
    """
    if path is None:
        return None
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        shown = section(DisplaySection, data.get("display", {}), "display")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ConfigError):
        return None
    assert isinstance(shown, DisplaySection)
    return shown


def load(path: str | Path | None) -> Config:
    """The configuration in the file at ``path``; with None, the defaults."""
    if path is None:
        return Config()
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the configuration {path}: {error}") from None
    return parse(text, str(path))
