"""``tablescore run``: the device, on its hardware or on the stand-ins its configuration names.

It builds every part from the configuration (OLED, buttons, seat panel, camera, zones, journal, the
game's flow, the club link when there is a ``[club]`` section), resumes the game in progress from the journal,
and loops one camera frame at a time under ``Lifecycle`` (systemd's READY and watchdog, a clean stop on
SIGTERM). A camera that disappears, or gives frames of another shape than the table's calibration, is
reported on the OLED and reopened until it comes back right; the game carries on where it was. A disk too
full to open the journal is reported too, and the journal opened once there is room. One process writes a
journal: a second is refused. A configuration or a journal that cannot be used stops it with exit status 2,
saying why on the OLED.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the parts are imported when the device runs, not whenever the command line starts
    from device.camera import Camera
    from device.config import Config
    from device.display import Display
    from device.flows.flow import Flow
    from device.flows.loop import ButtonSource, DiceReader, Loop, PanelSource, Reader
    from device.flows.play import Play
    from device.journal import JournalError
    from device.lifecycle import Lifecycle
    from vision.dice_tracker import DiceSettings
    from vision.zones import Calibration

log = logging.getLogger("tablescore")

DEFAULT_CONFIG = Path("/etc/tablescore/tablescore.toml")
CAMERA_RETRY_SECONDS = 1.0
JOURNAL_RETRY_SECONDS = 5.0


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``run`` command to the top-level parser."""
    parser = commands.add_parser(
        "run", help="run the device on its hardware, or with the stand-ins its configuration names",
        description="Run the device: camera, card reader, game flow, buttons, seat panel, OLED and journal.",
    )
    parser.add_argument("--config", type=Path, default=None,
                        help=f"the configuration file (default: $TABLESCORE_CONFIG, else {DEFAULT_CONFIG} "
                             "if it exists, else the built-in stand-ins)")
    parser.add_argument("--keys", action="store_true",
                        help="take the buttons' and the seat panel's presses from the keyboard, one line each "
                             "(o OK, n NEXT, b BACK, O undo, c2 / a2 seat 2's Confirm / Action), for a table "
                             "without them")
    parser.set_defaults(handler=run)


def config_path(given: Path | None) -> Path | None:
    """The configuration file to use: the one given, else $TABLESCORE_CONFIG, else the system one if any."""
    if given is not None:
        return given
    if "TABLESCORE_CONFIG" in os.environ:
        return Path(os.environ["TABLESCORE_CONFIG"])
    return DEFAULT_CONFIG if DEFAULT_CONFIG.exists() else None


def run(args: argparse.Namespace) -> int:
    """Run the device until SIGTERM; 0 on a clean stop, 2 when the configuration or the journal cannot be
    used (said on the OLED too, where it can be: the service stays stopped, showing why)."""
    from device.config import ConfigError, display_of
    from device.journal import JournalError
    from device.lifecycle import Lifecycle

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        table = configured(args.config)
    except ValueError as error:  # ConfigError, ZoneError
        print(f"tablescore run: {error}", file=sys.stderr)
        shown = display_of(config_path(args.config))
        if shown is not None:
            from device.config import Config

            entry = error.entry if isinstance(error, ConfigError) else str(error)
            cannot_start(open_display(Config(display=shown)), f"Config: {entry}")
        return 2
    with ExitStack() as stack:
        try:
            own(table, stack)  # before the OLED: a device already running has it
        except JournalError as error:
            print(f"tablescore run: {error}", file=sys.stderr)
            return 2
        try:
            display = open_display(table.config)
        except ValueError as error:  # a display that cannot be made (its package not installed)
            print(f"tablescore run: {error}", file=sys.stderr)
            return 2
        play: Play[Any] | None = None
        full: JournalError | None = None
        try:
            play = open_play(table, stack)
        except JournalError as error:
            if not error.full:
                print(f"tablescore run: {error}", file=sys.stderr)
                cannot_start(display, error.brief)
                return 2
            full = error
        buttons, panel = keyboard() if args.keys else open_inputs(table.config, stack)
        life = stack.enter_context(Lifecycle(display=display))
        if full is not None:
            play = wait_for_room(table, stack, display, life, full)
        if play is not None:
            live(table, play, display, life, buttons, panel)
    return 0


def cannot_start(display: Display, why: str) -> None:
    """Leave on the OLED, as the device exits, why it cannot start."""
    from device.screens import Screen

    display.show(Screen("Cannot start", lines=(why,)))
    display.device.persist = True  # luma would blank the OLED when the process exits


@dataclass(frozen=True)
class Setup:
    """What the configuration says is played, checked: the game's flow, the zones and the readers."""

    config: Config
    flow: Flow[Any]
    calibration: Calibration
    reader: Reader
    dice: DiceReader | None


def configured(given: Path | None) -> Setup:
    """The table of the configuration file (see ``config_path``); ValueError (ConfigError, ZoneError)
    naming what cannot be used."""
    from device.config import ConfigError, load
    from device.games import flow_for, spec
    from device.glyphs import spelt
    from device.screens import use_glass

    config = load(config_path(given))
    use_glass(config.display.size)  # every screen from now on is drawn for the configured OLED
    for number, name in enumerate(config.table.players, 1):
        if (shown := spelt(name)).count("?") > name.count("?"):
            log.warning("player %d's name %s shows as %s on the OLED: its font has no such letters", number, name,
                        shown)
    calibration = _calibration(config)
    game = config.table.game
    try:
        settings = config.games.get(game, {})
        flow = flow_for(game, config.table.players, settings)
        flow.start(list(config.table.players), settings)  # the settings are checked as a game starts
    except ValueError as error:
        raise ConfigError(f"[games.{game}] {error}") from None
    try:
        dice = config.dice.settings()  # checked whatever the game: the configuration is wrong either way
    except ValueError as error:
        raise ConfigError(f"[dice] {error}") from None
    try:
        reader = _reader(config.camera.faces)
    except RuntimeError as error:
        raise ConfigError(str(error)) from None
    return Setup(config, flow, calibration, reader, _dice(dice, calibration) if spec(game).dice else None)


def open_display(config: Config) -> Display:
    """The OLED (or its stand-in) the configuration names; an OLED missing now is set up once it answers."""
    from device.display import connect

    shown = config.display
    return connect(shown.kind, port=shown.port, address=shown.address, rotate=shown.rotate, folder=shown.folder)


def open_inputs(config: Config, stack: ExitStack) -> tuple[ButtonSource | None, PanelSource]:
    """The main buttons (None where there is no GPIO) and the seat panel, closed with ``stack``."""
    from device.panel import SeatPanel

    buttons = _buttons(config)
    if buttons is not None:
        stack.callback(buttons.close)
    return buttons, stack.enter_context(SeatPanel.configured(config.panel.port).start())


def own(table: Setup, stack: ExitStack) -> None:
    """Become the one process writing the configured journal until ``stack`` closes; JournalError when
    another has it."""
    from device.journal import Owner

    stack.enter_context(Owner(table.config.journal.path))


def keyboard() -> tuple[ButtonSource, PanelSource]:
    """The keyboard (lines on standard input) as the buttons and the seat panel."""
    from device.keys import HELP, Keys

    log.info("the keyboard stands in for the buttons and the seat panel: %s, each followed by Enter", HELP)
    keys = Keys(sys.stdin)
    return keys, keys


def open_play(table: Setup, stack: ExitStack) -> Play[Any]:
    """The game in progress in the configured journal (closed with ``stack``), or a new one; JournalError
    when the journal cannot be used. The journal must be ``own``ed first."""
    from device.flows.play import Play
    from device.journal import Journal

    journal = stack.enter_context(Journal(table.config.journal.path))
    return Play(journal, table.flow)


def wait_for_room(table: Setup, stack: ExitStack, display: Display, life: Lifecycle,
                  full: JournalError) -> Play[Any] | None:
    """The game in progress once the journal opens: while the disk is too full for it (``full``), the
    OLED and the log say so and it is tried again every JOURNAL_RETRY_SECONDS; None when a stop comes
    first."""
    from device.journal import JournalError
    from device.screens import Screen

    log.error("%s: waiting for room", full)
    life.ready("waiting for room: the disk is full")
    while True:
        display.cycle(Screen("Journal: retrying", lines=(full.brief,)))
        if not life.wait(JOURNAL_RETRY_SECONDS):
            return None
        try:
            play = open_play(table, stack)
        except JournalError as error:
            if not error.full:
                raise
            full = error
            continue
        log.info("there is room again: the journal is open")
        return play


def live(table: Setup, play: Play[Any], display: Display, life: Lifecycle, buttons: ButtonSource | None,
         panel: PanelSource | None) -> None:
    """Play the table's game with the configured camera until a stop is asked for."""
    from device.camera import open_camera
    from device.club_link import linked
    from device.flows.loop import Loop

    config = table.config
    with linked(config.club, play.journal.path) as link:
        loop = Loop(play, table.reader, table.calibration, display, buttons=buttons, panel=panel, dice=table.dice,
                    link=link)
        life.ready(f"{config.table.game}: {' v '.join(config.table.players)}")
        camera = config.camera
        _loop(life, loop, display, lambda: open_camera(camera.source, camera.width, camera.height),
              1.0 / camera.fps)


def _loop(life: Lifecycle, loop: Loop, display: Display, opener: Callable[[], Camera], period: float) -> None:
    """Step ``loop`` with each frame until a stop; while the camera gives no frames, or frames of another
    shape than the calibration's, the OLED and the log say so and the camera is opened again."""
    from device.camera import CameraError
    from device.screens import Screen
    from vision.zones import ZoneError

    camera: Camera | None = None
    gone = False  # logged once when the camera goes, once when it is back (not at every retry)
    while life.alive():
        try:
            camera = camera or opener()
            loop.step(camera.read())
            if gone:
                log.info("the camera works again")
                gone = False
        except (CameraError, ZoneError) as error:
            if not gone:
                log.warning("%s", error)
                gone = True
            display.cycle(Screen("Camera: retrying", lines=(str(error),)))
            loop.shown = None  # show the game again once frames come back
            if camera is not None:
                camera.close()
            camera = None
            life.wait(CAMERA_RETRY_SECONDS)
            continue
        life.wait(period)
    if camera is not None:
        camera.close()


def _calibration(config: Config) -> Calibration:
    from vision.zones import Calibration

    if config.zones is not None:
        return Calibration.load(config.zones)
    return Calibration.default(len(config.table.players), size=(config.camera.width, config.camera.height))


def _reader(faces: str) -> Reader:
    """The card reader for the camera's stream of a deck with ``faces``: each frame read again only where the table
    changed."""
    try:
        from vision.cards import checked_faces
        from vision.live import LiveReader
    except ImportError as error:
        raise RuntimeError(f"the card reader cannot run: {error}") from error
    return LiveReader(checked_faces(faces))


def _dice(settings: DiceSettings, calibration: Calibration) -> DiceReader:
    """The dice reader: each roll once it has settled in the calibration's tray zone."""
    from vision.dice_tracker import SettledDice

    return SettledDice(settings, calibration=calibration)


def _buttons(config: Config) -> Any:
    """The main buttons, or None (with a warning) where gpiozero finds no GPIO (not a Pi, no mock)."""
    from device.buttons import Buttons

    pins = {"ok": config.buttons.ok, "back": config.buttons.back, "next": config.buttons.next}
    try:
        return Buttons(pins, hold_time=config.buttons.hold_time)
    except Exception as error:  # gpiozero raises several kinds when there is no GPIO at all
        log.warning("no main buttons (%s): the seat panel alone takes presses", error)
        return None
