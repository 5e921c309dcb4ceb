"""Settling, keeping and counting rolls: vision.dice_tracker over synthetic readings and rendered frames,
and the settled dice through the device loop into the Pinzique flow."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from device import cli
from device.config import ConfigError, DiceSection, parse
from device.demo.dice_drawing import render
from device.flows.loop import Loop
from device.flows.play import Play
from device.games import flow_for
from device.inputs import Press
from device.journal import Journal
from device.screens import Screen
from scoring.cards import parse_cards
from scoring.pinzique_roll import score_roll
from tools.dice.rolls import lay_out, random_tray
from vision.dice import DiceReading, read_dice
from vision.dice_tracker import DiceSettings, DiceTracker, SettledDice
from vision.observations import DieSighting
from vision.zones import Calibration, Zone, ZoneError, default_zones

SPOTS = [(100.0 + 60 * k, 200.0 + 7 * k) for k in range(8)]
ROLL = "9C TD QH KS KC JH QD 9D"  # one face of each die, die 0 to 7


def reading(codes: str, spots=SPOTS, unknown=()) -> DiceReading:
    faces = parse_cards(codes)
    return DiceReading(tuple(DieSighting(None if k in unknown else face, spot, 0.95)
                             for k, (face, spot) in enumerate(zip(faces, spots, strict=True))), ())


def feed(tracker: DiceTracker, frames):
    return [roll for frame in frames if (roll := tracker.update(frame)) is not None]


def test_a_roll_settles_once_every_die_has_lain_still_for_steady_frames():
    tracker = DiceTracker(DiceSettings(steady=3))
    rng = np.random.default_rng(1)
    tumbling = [reading(ROLL, [(x + rng.uniform(-40, 40), y + rng.uniform(-40, 40)) for x, y in SPOTS])
                for _ in range(5)]
    assert feed(tracker, tumbling) == []
    assert tracker.update(reading(ROLL)) is None and tracker.update(reading(ROLL)) is None
    roll = tracker.update(reading(ROLL))
    assert roll is not None and roll.number == 1 and roll.frame == 7 and roll.complete
    assert [f.code for f in roll.faces] == ROLL.split() and roll.kept == () and roll.rerolled == tuple(range(8))
    assert feed(tracker, [reading(ROLL)] * 5) == []  # the same roll is announced once


def test_one_die_still_moving_keeps_the_roll_unsettled():
    tracker = DiceTracker(DiceSettings(steady=2))
    for step in range(6):
        spots = SPOTS[:7] + [(SPOTS[7][0] + 10 * step, SPOTS[7][1])]
        assert tracker.update(reading(ROLL, spots)) is None


def test_seven_or_nine_dice_never_settle():
    tracker = DiceTracker(DiceSettings(steady=2))
    seven = DiceReading(reading(ROLL).dice[:7], ())
    nine = DiceReading(reading(ROLL).dice + (DieSighting(None, (900.0, 500.0), 0.6),), ("9 dice seen: the game has 8",))
    assert feed(tracker, [seven] * 4 + [nine] * 4) == []
    assert tracker.seen.problems == ("9 dice seen: the game has 8",)  # what the flow can show meanwhile


def test_a_face_is_agreed_by_most_frames_and_any_disagreement_makes_it_unknown():
    tracker = DiceTracker(DiceSettings(steady=3))
    other = ROLL.replace("QH", "KH")
    frames = [reading(ROLL, unknown={0}), reading(ROLL, unknown={0, 1}), reading(other)]
    roll = feed(tracker, frames)[0]
    assert roll.faces[0] is None  # read in one frame of three: not enough
    assert roll.faces[1].code == "TD"  # read in two of three, never otherwise
    assert roll.faces[2] is None  # QH twice, KH once: unsure
    assert roll.faces[3].code == "KS" and not roll.complete


def test_kept_dice_stay_put_and_show_the_same_face_the_rest_are_rerolled():
    tracker = DiceTracker(DiceSettings(steady=2))
    first = feed(tracker, [reading(ROLL)] * 2)[0]
    assert first.number == 1
    # dice 0, 3 and 5 kept; the rest picked up and rolled again
    spots = [spot if k in (0, 3, 5) else (spot[0] + 25, spot[1] + 80) for k, spot in enumerate(SPOTS)]
    second = feed(tracker, [DiceReading((), ())] * 3 + [reading("9C TC KD KS KC JH AC 9H", spots)] * 2)
    assert len(second) == 1 and second[0].number == 2
    assert second[0].kept == (0, 3, 5) and second[0].rerolled == (1, 2, 4, 6, 7)
    assert tracker.rolls == 2
    third = feed(tracker, [reading(ROLL)] * 2)[0]  # die 4 rolled KC again, elsewhere: rolled, not kept
    assert third.number == 3 and third.kept == (0, 3, 5)
    tracker.new_turn()
    fourth = feed(tracker, [reading(ROLL, [(x, y + 100) for x, y in SPOTS])] * 2)[0]
    assert fourth.number == 1 and fourth.kept == () and tracker.rolls == 1


def test_setting_a_cocked_die_straight_corrects_the_roll_without_counting_a_new_one():
    tracker = DiceTracker(DiceSettings(steady=2))
    cocked = feed(tracker, [reading(ROLL, unknown={4})] * 2)[0]
    assert cocked.number == 1 and not cocked.complete
    spots = SPOTS[:4] + [(SPOTS[4][0] + 3, SPOTS[4][1] - 4)] + SPOTS[5:]
    straight = feed(tracker, [reading(ROLL.replace("KC", "AC"), spots)] * 2)[0]
    assert straight.number == 1 and straight.complete and straight.faces[4].code == "AC"
    assert straight.rerolled == cocked.rerolled


def test_a_glint_on_a_read_die_is_no_new_roll():
    tracker = DiceTracker(DiceSettings(steady=2))
    feed(tracker, [reading(ROLL)] * 2)
    assert feed(tracker, [reading(ROLL, unknown={2, 6})] * 4) == []


def test_faces_no_dice_could_show_are_a_problem_of_the_roll():
    tracker = DiceTracker(DiceSettings(steady=2))
    roll = feed(tracker, [reading("QH QH QH KS AS JH QD 9H")] * 2)[0]
    assert not roll.complete
    (problem,) = roll.problems
    assert problem.startswith("no set of dice can show this roll: QH, QH, QH need 3 dice but only dice 1, 2 show them")


@pytest.mark.parametrize("bad", [{"steady": 0}, {"count": 2.5}, {"still": 0}, {"near": -1.0}])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError, match="dice tracker setting"):
        DiceSettings(**bad)


def test_rendered_turn_first_roll_then_three_dice_kept():
    rng = np.random.default_rng(21)
    tray = random_tray(rng)
    tracker = DiceTracker()
    tumbling = lay_out(rng, tray, rolling=1.0)
    landed = lay_out(rng, tray)
    rolls = feed(tracker, [read_dice(render(rng, tray, p, glare=0)) for p in [tumbling, landed, landed, landed]])
    assert [r.number for r in rolls] == [1]
    first = rolls[0]
    assert sorted(f.code for f in first.faces if f) == sorted(p.face.code for p in landed)
    keep = {p.number: p for p in landed[:3]}
    again = lay_out(rng, tray, keep=keep)
    rolls = feed(tracker, [read_dice(render(rng, tray, p, glare=0)) for p in [lay_out(rng, tray, keep=keep, rolling=1.0),
                                                                              again, again, again]])
    assert [r.number for r in rolls] == [2]
    kept = {(round(d.center[0]), round(d.center[1])) for k, d in enumerate(rolls[0].dice) if k in rolls[0].kept}
    assert len(kept) >= 3
    for pose in landed[:3]:
        x, y = tray.center(pose)
        assert any(abs(x - kx) < 6 and abs(y - ky) < 6 for kx, ky in kept)


def with_tray(polygon) -> Calibration:
    """A 2-seat table filling a 1280x720 frame, with its dice tray where it is told (table units)."""
    zones = tuple(zone for zone in default_zones(2) if zone.name != "tray") + (Zone("tray", polygon),)
    return Calibration(((0, 0), (1280, 0), (1280, 720), (0, 720)), zones, size=(1280, 720))


class Device:
    """Stand-ins for the loop's display and buttons: pages shown are kept, presses given by the test."""

    def __init__(self) -> None:
        self.shown: list[Screen] = []
        self.presses: list[Press] = []

    def show(self, screen: Screen) -> None:
        self.shown.append(screen)

    def take(self) -> list[Press]:
        taken, self.presses = self.presses, []
        return taken


def test_rendered_rolls_through_the_device_loop_score_as_the_engine_scores(tmp_path: Path):
    rng = np.random.default_rng(200)
    tray = random_tray(rng)
    table = with_tray(((0, 0), (1, 0), (1, 1), (0, 1)))  # the whole frame
    device = Device()
    play = Play(Journal(tmp_path / "j.db"), flow_for("pinzique", ["Ann", "Bob"], {}))
    loop = Loop(play, lambda frame: [], table, device, buttons=device, dice=SettledDice(calibration=table))
    first = lay_out(rng, tray)
    second = lay_out(rng, tray, keep={pose.number: pose for pose in first[:5]})  # three dice re-rolled
    for number, landed in enumerate((first, second), start=1):
        page = loop.step(render(rng, tray, lay_out(rng, tray, rolling=1.0)))
        assert not page.lines[0].startswith(f"OK: roll {number}")  # nothing offered while the dice tumble
        look = rng.integers(2**63)
        pages = [loop.step(render(np.random.default_rng(look), tray, landed, shot=shot)) for shot in range(3)]
        faces = [pose.face for pose in landed]
        engine = score_roll(faces)
        assert pages[-1].lines[0].rstrip() == f"OK: roll {number} of 3: {engine.total}", pages[-1].lines
        device.presses = [Press("ok", False)]
        loop.step(render(np.random.default_rng(look), tray, landed, shot=3))
        game = play.state.game
        assert game.rolls_made == number and game.last is not None
        assert sorted(f.code for f in game.last.faces) == sorted(f.code for f in faces) and game.last.total == engine.total
        assert sorted(meld.code for meld in game.last.melds) == sorted(meld.code for meld in engine.melds)


def test_only_the_dice_in_the_tray_zone_are_read():
    rng = np.random.default_rng(201)
    tray = random_tray(rng)
    poses = lay_out(rng, tray)
    table = with_tray(((0, 0), (0.5, 0), (0.5, 1), (0, 1)))  # the left half of the frame
    settled = SettledDice(DiceSettings(steady=2), calibration=table)
    frame = render(rng, tray, poses)
    inside = [pose for pose in poses if tray.center(pose)[0] < 640]
    seen = settled.read(frame).dice
    assert 0 < len(inside) < 8 and len(seen) == len(inside)
    for die in seen:
        assert min(np.hypot(die.center[0] - x, die.center[1] - y) for x, y in map(tray.center, inside)) < 6
    assert settled(frame) is None and settled(frame) is None  # too few dice for a roll to settle


def test_a_calibration_without_a_tray_is_refused():
    table = Calibration.default(2, size=(1280, 720))
    with pytest.raises(ZoneError, match="the calibration has no 'tray' zone"):
        SettledDice(calibration=Calibration(table.corners, tuple(z for z in table.zones if z.name != "tray")))


def test_the_configuration_s_dice_section_is_checked():
    """Its entries' names and types as the configuration loads; their values as the dice tracker's settings,
    which the commands that run the table take (``tablescore run`` names a bad one: tests/device/
    test_run_command.py) and ``tablescore history`` never loads (tests/device/test_config.py)."""
    assert parse("").dice.settings() == DiceSettings()  # the same defaults
    assert parse("[dice]\nsteady = 5\nstill = 3").dice == DiceSection(steady=5, still=3.0)
    for text, message in [("[dice]\nstill = 'far'", "[dice] still: 'far' is not a number"),
                          ("[dice]\ncount = 9", "[dice] count: unknown setting")]:
        with pytest.raises(ConfigError, match=re.escape(message)):
            parse(text)
    for text, message in [("[dice]\nsteady = 0", "dice tracker setting 'steady' must be a whole number of at least 1"),
                          ("[dice]\nnear = -2", "dice tracker setting 'near' must be a positive distance")]:
        with pytest.raises(ValueError, match=re.escape(message)):
            parse(text).dice.settings()


def test_tablescore_run_reads_pinzique_s_dice_in_the_tray(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    class Built(Exception):
        pass

    def loop(*args, **kwargs):
        raise Built(kwargs["dice"])

    monkeypatch.setattr("device.flows.loop.Loop", loop)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    path = tmp_path / "tablescore.toml"
    path.write_text(f'[table]\ngame = "pinzique"\nplayers = ["Ann", "Bob"]\n[display]\nkind = "dummy"\n'
                    f'[panel]\nport = "none"\n[journal]\npath = "{tmp_path / "j.db"}"\n[dice]\nsteady = 4\n')
    with pytest.raises(Built) as built:
        cli.main(["run", "--config", str(path)])
    dice = built.value.args[0]
    assert isinstance(dice, SettledDice) and dice.tracker.settings.steady == 4 and dice.calibration is not None
