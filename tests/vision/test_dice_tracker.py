"""Settling, keeping and counting rolls: vision.dice_tracker over synthetic readings and rendered frames."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.cards import parse_cards
from vision.dice import DiceReading, read_dice
from vision.dice_render import Tray, lay_out, render
from vision.dice_tracker import DiceSettings, DiceTracker
from vision.observations import DieSighting

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
    assert roll.problems == ("no set of dice can show these faces: QH, QH, QH need 3 dice but only dice 1, 2 show them",)


@pytest.mark.parametrize("bad", [{"steady": 0}, {"count": 2.5}, {"still": 0}, {"near": -1.0}])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError, match="dice tracker setting"):
        DiceSettings(**bad)


def test_rendered_turn_first_roll_then_three_dice_kept():
    rng = np.random.default_rng(21)
    tray = Tray.random(rng)
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
