"""Reading the dice: rendered trays (tools.dice.rolls, drawn by device.demo.dice_drawing) through vision.dice.read_dice."""

from __future__ import annotations

import dataclasses
import json
import re

import cv2
import numpy as np
import pytest

from device import cli, recognize_command
from device.demo.dice_drawing import render
from scoring.cards import Card, parse_cards
from scoring.pinzique_guide import load_guide
from scoring.pinzique_roll import RollError, score_roll
from tools.dice.rolls import cock, lay_out, leaning, random_tray
from tools.text import put_text
from vision.dice import (
    CROP,
    DOUBT,
    JUDGED_COCKED,
    DiceReading,
    _judge_net,
    bright_masks,
    check_faces,
    die_patches,
    judge,
    mirrored,
    read_dice,
    top_faces,
)
from vision.observations import DieSighting
from vision.text import SANS_BOLD


def roll(seed: int, **kwargs):
    rng = np.random.default_rng(seed)
    tray = random_tray(rng)
    poses = lay_out(rng, tray, **kwargs)
    return tray, poses, render(rng, tray, poses)


def matched(tray, poses, reading: DiceReading) -> list[tuple[Card, DieSighting | None]]:
    """Each die's true face and the sighting found at its centre (None if none)."""
    out = []
    for pose in poses:
        x, y = tray.center(pose)
        near = [d for d in reading.dice if np.hypot(d.center[0] - x, d.center[1] - y) < 6]
        assert len(near) <= 1
        out.append((pose.face, near[0] if near else None))
    return out


@pytest.mark.parametrize("seed", [101, 102, 103])
def test_a_still_roll_is_read_die_by_die_and_never_wrong(seed):
    tray, poses, frame = roll(seed)
    reading = read_dice(frame)
    pairs = matched(tray, poses, reading)
    assert len(reading.dice) == 8 and all(seen is not None for _, seen in pairs)
    assert all(seen.face in (face, None) for face, seen in pairs)  # never a wrong face
    assert sum(seen.face == face for face, seen in pairs) >= 7
    assert reading.problems == ()


def test_dice_that_touch_are_told_apart():
    rng = np.random.default_rng(7)
    tray = random_tray(rng)
    x, y = tray.camera.table_point((640, 360))
    turn = 0.4
    step = 16.4  # mm between centres: the 16 mm dice touch
    block = []  # eight dice in a block of four by two, all touching their neighbours
    for k, pose in enumerate(lay_out(rng, tray)):
        u, v = (k % 4 - 1.5) * step, (k // 4 - 0.5) * step
        block.append(dataclasses.replace(pose, x=x + u * np.cos(turn) - v * np.sin(turn),
                                         y=y + u * np.sin(turn) + v * np.cos(turn), yaw=turn, tilt=0.0))
    reading = read_dice(render(rng, tray, block, glare=0))
    pairs = matched(tray, block, reading)
    assert all(seen is not None and seen.face == face for face, seen in pairs)


def test_rolling_dice_are_not_read():
    tray, poses, frame = roll(11, rolling=1.0)
    assert all(p.rolling for p in poses)
    for _, seen in matched(tray, poses, read_dice(frame)):
        assert seen is None or seen.face is None


def test_no_dice_in_an_empty_tray_or_among_other_things():
    rng = np.random.default_rng(5)
    tray = random_tray(rng)
    assert read_dice(render(rng, tray, [])).dice == ()
    clutter = tray.background.copy()
    for _ in range(40):  # white boxes with dark borders and writing: cards' corners, labels, chips
        x, y = int(rng.integers(50, 1200)), int(rng.integers(50, 650))
        size = int(rng.integers(12, 60))
        corner = (x + size, y + int(size * rng.uniform(0.6, 1.4)))
        cv2.rectangle(clutter, (x, y), corner, (245, 245, 245), -1)
        cv2.rectangle(clutter, (x, y), corner, (30, 30, 30), 2)
        put_text(clutter, "8", (x + 3, y + size - 3), round(size * 0.75), (40, 40, 40), SANS_BOLD)
    assert all(die.face is None for die in read_dice(clutter).dice)


@pytest.mark.parametrize("seed", [42, 43])
def test_dark_felt_is_left_out_of_the_bright_masks_whole(seed):
    """Sensor noise on dark felt (a tray floor at 16 of 255) would riddle the masks with thousands of specks,
    each a contour to trace (4,337 in one mask of seed 43 without PAPER); the felt is left out whole and
    every die is still read."""
    rng = np.random.default_rng(seed)
    tray = dataclasses.replace(random_tray(rng), background=np.full((720, 1280, 3), 16, np.uint8))
    poses = lay_out(rng, tray)
    frame = render(rng, tray, poses, glare=0)
    for bright in bright_masks(frame):
        assert len(cv2.findContours(bright, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]) < 300
    assert all(seen is not None and seen.face == face for face, seen in matched(tray, poses, read_dice(frame)))


def test_a_big_frame_is_read_at_its_own_scale():
    tray, poses, frame = roll(102)
    big = cv2.resize(frame, (2560, 1440), interpolation=cv2.INTER_LINEAR)
    small, large = read_dice(frame), read_dice(big)
    assert len(large.dice) == len(small.dice)
    for a, b in zip(small.dice, large.dice, strict=True):
        assert np.hypot(2 * a.center[0] - b.center[0], 2 * a.center[1] - b.center[1]) < 6


def test_frames_that_are_not_images_are_refused():
    with pytest.raises(ValueError, match="HxWx3 BGR image of uint8"):
        read_dice(np.zeros((720, 1280), np.float32))
    assert read_dice(np.zeros((10, 10, 3), np.uint8)) == DiceReading((), ())


def test_too_many_dice_and_impossible_faces_are_problems():
    guide = load_guide()
    assert check_faces(parse_cards("9C 9S 9D 9C 9H 9S 9H 9D"), guide) == []  # die by die
    assert check_faces([None] * 9, guide) == ["9 dice seen: the game has 8"]
    # JS is on dice 6 and 7 only, and so is KH: three of them cannot lie on two dice
    (problem,) = check_faces(parse_cards("JS KH KH 9C"), guide)  # worded as the engine words it
    assert problem.startswith("no set of dice can show this roll: JS, KH, KH need 3 dice but only dice 6, 7 show them")
    with pytest.raises(RollError, match=re.escape(problem)):
        score_roll(parse_cards("JS KH KH 9C TC JH QC KS"), guide)


def test_a_face_on_no_die_of_an_owners_guide_is_a_problem():
    guide = load_guide()
    odd = dataclasses.replace(guide, dice=tuple(tuple(f for f in die if f.code != "AS") for die in guide.dice))
    assert check_faces(parse_cards("AS QH"), odd) == ["face AS on no die of the score guide"]


def test_tablescore_recognize_lists_the_dice(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(recognize_command, "reader", lambda faces: lambda frame: [])  # no cards on a dice tray
    tray, poses, frame = roll(102)
    path = tmp_path / "tray.png"
    assert cv2.imwrite(str(path), frame)
    assert cli.main(["recognize", str(path), "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["dice"]
    assert sorted(d["face"] for d in listed) == sorted(p.face.code for p in poses)
    for die in listed:
        assert set(die) == {"face", "center", "confidence"} and 0 < die["confidence"] <= 1
        x, y = die["center"]
        assert any(np.hypot(x - tray.center(p)[0], y - tray.center(p)[1]) < 6 and die["face"] == p.face.code
                   for p in poses)


def cocked_roll(seed: int, degrees: float, way: str):
    """A roll with die 3 cocked ``degrees`` (:func:`tools.dice.rolls.cock`), its top face leaning ``way``
    from the point under the camera (:func:`tools.dice.rolls.leaning`)."""
    rng = np.random.default_rng(seed)
    tray = random_tray(rng)
    poses = lay_out(rng, tray)
    for _ in range(400):
        pose = cock(rng, tray, poses[3], poses[:3] + poses[4:], tilt=np.radians(degrees))
        if pose is not None and leaning(tray, pose) == way:
            poses[3] = pose
            return tray, poses, render(rng, tray, poses, glare=0)
    raise AssertionError(f"no room to cock die 3 {way} in roll {seed}")


@pytest.mark.parametrize(("seed", "degrees", "way"), [(31, 35, "away"), (32, 30, "away"), (33, 35, "sideways"),
                                                      (34, 33, "sideways")])
def test_a_die_cocked_steeply_is_reported_unknown_and_the_flat_dice_still_read(seed, degrees, way):
    tray, poses, frame = cocked_roll(seed, degrees, way)
    assert poses[3].cocked and sum(p.cocked for p in poses) == 1
    pairs = matched(tray, poses, read_dice(frame))
    cocked = pairs[3][1]
    assert cocked is None or (cocked.face is None and cocked.confidence == 0)  # dropped, or found and unknown
    flat = pairs[:3] + pairs[4:]
    assert all(seen is not None and seen.face in (face, None) for face, seen in flat)  # found, never wrong
    assert sum(seen.face == face for face, seen in flat) >= 6


@pytest.mark.parametrize(("seed", "degrees"), [(35, 20), (36, 30)])
def test_a_die_cocked_towards_the_camera_is_reported_unknown(seed, degrees):
    # it looks as square as a flat die: the judge (tools.dice.train) tells it by the sides it shows
    tray, poses, frame = cocked_roll(seed, degrees, "towards")
    pairs = matched(tray, poses, read_dice(frame))
    cocked = pairs[3][1]
    assert cocked is None or cocked.face is None
    flat = pairs[:3] + pairs[4:]
    assert all(seen is not None and seen.face in (face, None) for face, seen in flat)
    assert sum(seen.face == face for face, seen in flat) >= 6


def test_the_judge_tells_cocked_dice_from_flat_ones():
    """On trays with many dice cocked (seeds neither the training nor the benchmark uses), the judge takes
    nearly every cocked die for cocked and no flat one, slightly tilted ones included."""
    flat, cocked = [], []
    for seed in range(41, 47):
        rng = np.random.default_rng(seed)
        tray = random_tray(rng)
        poses = lay_out(rng, tray, cocked=0.5)
        frame = render(rng, tray, poses)
        faces = top_faces(frame)
        odds = judge(die_patches(frame, faces, (640, 360)))
        for seen, value in zip(faces, odds, strict=True):
            pose = min(poses, key=lambda p: np.hypot(*np.subtract(tray.center(p), seen.centre)))
            (cocked if pose.cocked else flat).append(value)
    assert len(flat) >= 20 and len(cocked) >= 10
    assert max(flat) < JUDGED_COCKED
    assert np.mean(np.array(cocked) > JUDGED_COCKED) >= 0.8


def test_the_judge_looks_again_at_the_mirror_image_of_a_doubtful_die_only():
    """``judge``: the network's own log odds, but the mean of the patch's and its mirror image's for a die
    within DOUBT of the threshold (a cocked die on the test trays, so that some are doubtful)."""
    frame = cocked_roll(35, 20, "towards")[2]
    patches = die_patches(frame, top_faces(frame), (640, 360))
    net = _judge_net()
    net.setInput(patches)
    once = net.forward().reshape(-1)
    net.setInput(mirrored(patches))
    twice = (once + net.forward().reshape(-1)) / 2
    doubtful = np.abs(once - JUDGED_COCKED) < DOUBT
    assert doubtful.any() and not doubtful.all()
    assert np.allclose(judge(patches), np.where(doubtful, twice, once), atol=1e-4)


def test_the_judge_sees_a_die_turned_with_the_way_out_up():
    """``die_patches``: the sticker in the middle, its paper about 1, and the way from the frame's middle
    to the die pointing up the patch (within 45 degrees), as long as the die is far out."""
    tray, poses, frame = roll(102)
    faces = top_faces(frame)
    patches = die_patches(frame, faces, (640, 360))
    assert patches.shape == (len(faces), 5, CROP, CROP)
    for seen, patch in zip(faces, patches, strict=True):
        middle = patch[:3, CROP // 2 - 2:CROP // 2 + 2, CROP // 2 - 2:CROP // 2 + 2]
        assert 0.2 < middle.max() <= 1.3
        across, down = patch[3, 0, 0], patch[4, 0, 0]
        assert down <= 0 and abs(across) <= -down + 1e-6
        assert np.isclose(np.hypot(across, down), np.hypot(seen.centre[0] - 640, seen.centre[1] - 360) / 640, atol=1e-4)
