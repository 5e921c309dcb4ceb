"""``tablescore demo``: the kiosk demo mode, for a shop window or a show stand.

It plays the recorded sessions shipped with the package (``device.demo.recording``: one game of each of
the five, rendered as the camera would see them) through the device's whole pipeline: each frame through
the card reader (and for Pinzique the dice reader), the zones, the tracker, the game's flow and engine, a
journal (a scratch one: the demo's games never mix with the real ones), the screens and the OLED, with the
button and seat panel presses the players made. It goes round and round, unattended, at the camera's
pace, each confirmation left on the screen long enough to read.

A press of a real button (a main button or any seat panel button) hands over to live play: the demo stops
where it is and the device goes on as ``tablescore run`` would, with the configured camera, game and
journal. Under systemd (``tablescore-kiosk.service``) it says READY and feeds the watchdog as the device
does, and stops cleanly on SIGTERM.

``--headless`` uses no display, buttons or panel and plays as fast as the pipeline goes; ``--once`` plays
each recording once, prints one line per game (its final scores) and exits: 0 when every recording ended
at the scores its game reached in the engines, 1 (naming the recording, and the first card misread at a
confirmation) when one did not. ``--out DIR`` writes every frame the OLED showed into DIR as a PNG, named
in order with the game (``00042-cribbage.png``).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when the demo runs, not whenever the command line starts
    from device.demo.recording import Recording
    from device.display import Display
    from device.flows.loop import ButtonSource, PanelSource
    from device.lifecycle import Lifecycle
    from device.screens import Screen

log = logging.getLogger("tablescore")

TITLE_SECONDS = 3.0
"""How long the kiosk shows each recording's title before playing it."""
DWELL_SECONDS = 0.8
"""How long the kiosk leaves the screen after each button press, so a score can be read."""
HOLD_SECONDS = 5.0
"""How long the kiosk leaves each game's final scores on the screen."""
FRAME_SECONDS = 0.1
"""The kiosk plays the recordings at 10 frames a second, as they were recorded."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``demo`` command to the top-level parser."""
    parser = commands.add_parser(
        "demo", help="kiosk demo mode: play recorded games through the whole pipeline",
        description="Play recorded games of every game through the whole pipeline, round and round; a button "
                    "press hands over to live play.")
    parser.add_argument("--config", type=Path, default=None,
                        help="the configuration (display, buttons, seat panel, and the live game a press hands "
                             "over to; default as for tablescore run)")
    parser.add_argument("--headless", action="store_true",
                        help="no display, buttons or seat panel; play as fast as the pipeline goes")
    parser.add_argument("--once", action="store_true",
                        help="play each recording once, print each game's final scores and exit")
    parser.add_argument("--out", type=Path, default=None, metavar="DIR",
                        help="write every frame the OLED shows into DIR as a PNG")
    parser.set_defaults(handler=demo)


class FrameFolder:
    """Every image the OLED shows, written to a folder in order, named with ``label``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.label = "demo"
        self.count = 0
        for old in folder.glob("[0-9][0-9][0-9][0-9][0-9]-*.png"):  # the frames of an earlier run
            old.unlink()

    def save(self, image: Any) -> None:
        self.count += 1
        image.save(self.folder / f"{self.count:05}-{self.label}.png")


@dataclass
class Played:
    """A recording played through the device: where it ended."""

    recording: Recording
    sides: tuple[str, ...]
    """Who scores: each player, or partners (``Ann & Cy``)."""
    scores: tuple[int, ...]
    frames: int
    shown: int
    result: dict[str, Any] | None
    misread: str | None
    """The first card misread in a frame where a button was pressed (what a wrong score comes from)."""
    finished: bool

    @property
    def right(self) -> bool:
        """Whether the recording ran to its end, at the scores the engines reached for its game."""
        return self.finished and self.scores == self.recording.expect

    def summary(self) -> str:
        """One line: the game, each player's final score, the winner."""
        recording = self.recording
        scores = ", ".join(f"{side} {score}" for side, score in zip(self.sides, self.scores, strict=True))
        outcome = f"{self.result['winner']} wins" if self.result and "winner" in self.result else "totals so far"
        return f"{recording.name}: {scores} ({outcome}; {recording.title}; {self.frames} frames, {self.shown} OLED frames)"

    def problem(self) -> str:
        """Why the recording went wrong."""
        recording = self.recording
        where = f"ended at {list(self.scores)}" if self.finished else f"stopped at frame {self.frames}"
        why = f"; the first card misread at a confirmation: {self.misread}" if self.misread else ""
        return f"the {recording.name} recording {where}, not the expected {list(recording.expect)}{why}"


class Shown:
    """The OLED, counting the screens shown."""

    def __init__(self, display: Display) -> None:
        self.display, self.count = display, 0

    def show(self, screen: Screen) -> None:
        self.count += 1
        self.display.show(screen)

    @property
    def fault(self) -> str | None:
        """The display's fault (the loop draws its page again at each frame while there is one)."""
        return self.display.fault


def play(recording: Recording, display: Display, journal: Path, alive: Callable[[], bool],
         pace: Callable[[bool], None] | None = None) -> Played:
    """Play ``recording`` through the pipeline onto ``display`` while ``alive()``; ``pace(pressed)`` is
    called after each frame (the kiosk waits there)."""
    from device.demo.recording import Playback
    from device.demo.stage import SIZE
    from device.flows.loop import DiceReader, Loop
    from device.flows.play import Play
    from device.games import flow_for, spec
    from device.journal import Journal
    from vision.live import LiveReader
    from vision.zones import Calibration

    playback = Playback(recording)
    first: list[str] = []
    live = LiveReader()  # as on the device

    def read(frame: Any) -> Any:
        seen = live(frame)
        if not first and playback.pressed and (wrong := playback.misread(seen)):
            first.append(wrong)
        return seen

    calibration = Calibration.default(len(recording.players), size=SIZE)
    dice: DiceReader | None = None
    if spec(recording.game).dice:
        from vision.dice_tracker import SettledDice

        dice = SettledDice(calibration=calibration)
    shown = Shown(display)
    with Journal(journal) as kept:
        game = Play(kept, flow_for(recording.game, list(recording.players), recording.settings))
        loop = Loop(game, read, calibration, shown, buttons=playback, panel=playback, dice=dice)
        while not playback.done and alive():
            loop.step(playback.read())
            if pace is not None:
                pace(playback.pressed)
        ledger = spec(recording.game).new_ledger()  # the sides and totals as the journal's history reads them
        return Played(recording, tuple(ledger.sides(game.flow, game.state)), ledger.totals(game.state),
                      playback.frame + 1, shown.count, game.flow.result(game.state), first[0] if first else None,
                      playback.done)


def title(recording: Recording) -> Screen:
    """The screen before each recording."""
    from device.games import spec
    from device.screens import Screen

    return Screen("tablescore demo", lines=(recording.title, " v ".join(recording.players), "Press to play"),
                  big=spec(recording.game).label)


def demo(args: argparse.Namespace) -> int:
    """Run the demo; see the module's description for the exit status."""
    from device import run_command
    from device.demo.recording import recordings
    from device.display import Display, open_device
    from device.journal import JournalError
    from device.lifecycle import Lifecycle

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    out: Path | None = args.out
    if out is not None and (problem := _unwritable(out)):
        print(f"tablescore demo: cannot write the OLED frames into {out}: {problem}", file=sys.stderr)
        return 2
    try:
        table = run_command.configured(args.config)  # the live game a press hands over to, checked now
        films = recordings()
        # the configured display as `tablescore run` opens it: an OLED missing or power-cycled is set up again
        display = Display(open_device("dummy")) if args.headless else run_command.open_display(table.config)
    except ValueError as error:
        print(f"tablescore demo: {error}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        frames = FrameFolder(out) if out is not None else None
        if frames is not None:
            display.copy = frames.save
        buttons: ButtonSource | None = None
        panel: PanelSource | None = None
        if not args.headless:
            buttons, panel = run_command.open_inputs(table.config, stack)
        life = stack.enter_context(Lifecycle(display=display))
        life.ready("demo: " + ", ".join(film.name for film in films))
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tablescore-demo-")))
        handed = Handover(buttons, panel)
        results = _show(films, display, frames, life, handed, scratch, args)
        if frames is not None:
            frames.label = "end"
        if handed.pressed and life.alive():
            log.info("a button was pressed: live play")
            try:
                run_command.own(table, stack)
                play_live = run_command.open_play(table, stack)
            except JournalError as error:
                print(f"tablescore demo: {error}", file=sys.stderr)
                return 2
            run_command.live(table, play_live, display, life, buttons, panel)
            return 0
    wrong = [played for played in results if not played.right]
    for played in wrong:
        print(f"tablescore demo: {played.problem()}", file=sys.stderr)
    return 1 if args.once and wrong else 0


def _show(films: list[Recording], display: Display, frames: FrameFolder | None, life: Lifecycle,
          handed: Handover, scratch: Path, args: argparse.Namespace) -> list[Played]:
    """Play the recordings (once, or round and round) until a stop or a hand-over; the last round's results."""
    paced = not args.headless

    def alive() -> bool:
        return life.alive() and not handed.check()

    def wait(seconds: float) -> bool:
        """Wait, watching the buttons; False when a stop or a hand-over came first."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if not life.wait(min(left, 0.1)) or handed.check():
                return False
        return True

    def pace(pressed: bool) -> None:
        wait(DWELL_SECONDS if pressed else FRAME_SECONDS)

    rounds = 0
    while alive():
        rounds += 1
        results: list[Played] = []
        for number, film in enumerate(films):
            if frames is not None:
                frames.label = film.name
            display.show(title(film))
            if paced and not wait(TITLE_SECONDS):
                return results
            started = time.monotonic()
            journal = scratch / f"{rounds}-{number}-{film.name}.db"
            played = play(film, display, journal, alive, pace if paced else None)
            journal.unlink(missing_ok=True)
            results.append(played)
            if not played.finished:
                return results
            log.info("%s (%.1f s)", played.summary(), time.monotonic() - started)
            if args.once:
                print(played.summary(), flush=True)
            elif not played.right:
                log.error("%s", played.problem())
            if paced and not wait(HOLD_SECONDS):
                return results
        if args.once:
            return results
    return []


class Handover:
    """The real buttons and seat panel, watched during the demo: any press hands over to live play."""

    def __init__(self, buttons: ButtonSource | None, panel: PanelSource | None) -> None:
        self.buttons, self.panel = buttons, panel
        self.pressed = False

    def check(self) -> bool:
        """Whether a real button has been pressed (the press itself only wakes the device)."""
        if not self.pressed:
            self.pressed = bool(self.buttons.take()) if self.buttons is not None else False
            while self.panel is not None and self.panel.get(timeout=0) is not None:
                self.pressed = True
        return self.pressed


def _unwritable(folder: Path) -> str | None:
    """Why PNGs cannot be written into ``folder`` (made if need be), or None when they can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".png"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    return None
