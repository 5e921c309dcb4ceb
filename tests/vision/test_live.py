"""``LiveReader``: a stream of frames read as ``read_cards`` reads each one, read again only where it changed."""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from device.demo.recording import Playback, Recording, deck
from device.demo.stage import Pose, Stage, camera
from vision import cards as cards_module
from vision.cards import read_cards
from vision.indices import Layout, read_corners
from vision.live import CHANGE, SETTLE, LiveReader
from vision.observations import same_cards


@pytest.fixture(name="table")
def table_fixture() -> Stage:
    stage = Stage(deck(), seed=3)
    for code, x, y, turn in (("TH", 400, 300, 0.1), ("QS", 700, 320, -0.3), ("5D", 950, 480, 1.2)):
        stage.put(Pose(code, x, y, turn))
    return stage


def test_a_recorded_game_reads_as_every_frame_read_whole() -> None:
    """The OFC recording, frame by frame with camera noise: the live reader gives the cards ``read_cards`` gives
    each frame, where it gives them in all but a frame or two (a corner read in one and not the other places its
    card from one corner, not two), and reads far less of the frames to do it."""
    playback, live, rng, shares = Playback(Recording.load("ofc")), LiveReader(), np.random.default_rng(7), []
    placed_apart = 0
    while not playback.done:
        frame = camera(playback.read(), rng)
        streamed, whole = live(frame), read_cards(frame)
        assert sorted(s.code for s in streamed) == sorted(s.code for s in whole), f"frame {playback.frame}"
        placed_apart += not same_cards(streamed, whole)
        shares.append(live.read_share)
    assert placed_apart <= 2 and np.mean(shares) < 0.3 and shares.count(0.0) > len(shares) / 4


def test_a_still_table_is_not_read_again(table: Stage) -> None:
    live, rng = LiveReader(), np.random.default_rng(1)
    first = live(camera(table.image(), rng))
    assert [s.code for s in first] and live.read_share == 1.0
    assert live(camera(table.image(), rng)) == first and live.read_share == 0.0


def test_a_card_laid_or_taken_is_read_in_a_crop_around_it(table: Stage) -> None:
    live, rng = LiveReader(), np.random.default_rng(2)
    live(camera(table.image(), rng))
    table.put(Pose("7C", 250, 550, 0.5))
    laid = live(camera(table.image(), rng))
    assert 0.0 < live.read_share < 0.5
    assert same_cards(laid, read_cards(table.image())) and "7C" in [s.code for s in laid]
    table.take("QS")
    taken = live(camera(table.image(), rng))  # the table where she lay has only just changed: she is hidden
    assert live.read_share == 0.0 and sorted(s.code for s in taken) == ["5D", "7C", "TH"]
    shares = [live.read_share for _ in range(SETTLE) if live(camera(table.image(), rng)) == taken]
    assert len(shares) == SETTLE and 0.0 < max(shares) < 0.5  # once it has lain still, read in a crop


def test_a_card_laid_over_an_index_drops_the_corner_it_hides(table: Stage) -> None:
    """The queen's corners are held from the first frame; a card laid over her hides them both."""
    live, rng = LiveReader(), np.random.default_rng(4)
    live(camera(table.image(), rng))
    table.put(Pose("2H", 700, 320, -0.3))
    assert sorted(s.code for s in live(camera(table.image(), rng))) == ["2H", "5D", "TH"]


def hand(frame: np.ndarray, centre: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """The frame with a hand (a skin-coloured blob, ``size`` its half-axes) over it at ``centre``."""
    out = frame.copy()
    cv2.ellipse(out, centre, size, 20.0, 0, 360, (120, 150, 205), -1)
    return out


def test_a_hand_passing_beside_the_indices_is_not_read_and_holds_the_cards(table: Stage) -> None:
    """A hand moving over the ten's middle, clear of its indices, shows no new index: nothing is read, not even
    its rim (cells of skin and paper together), and the cards stay; where it has gone, the table is as it was."""
    live, rng = LiveReader(), np.random.default_rng(5)
    first = live(camera(table.image(), rng))
    for centre in ((380, 290), (400, 300), (420, 310)):
        covered = live(camera(hand(table.image(), centre, (60, 40)), rng))
        assert live.read_share == 0.0 and sorted(s.code for s in covered) == sorted(s.code for s in first)
    assert live(camera(table.image(), rng)) == first and live.read_share == 0.0


def test_a_hand_passing_over_a_card_hides_it_unread_until_it_leaves(table: Stage) -> None:
    """The corners a moving hand covers are hidden, not read; where it leaves, they are given again, unread."""
    live, rng = LiveReader(), np.random.default_rng(6)
    first = live(camera(table.image(), rng))
    assert sorted(s.code for s in live(camera(hand(table.image(), (400, 300), (110, 70)), rng))) == ["5D", "QS"]
    assert live.read_share == 0.0
    assert live(camera(table.image(), rng)) == first and live.read_share == 0.0


def test_a_hand_at_rest_over_a_card_drops_it_until_it_leaves(table: Stage) -> None:
    """Once a hand has lain still for ``SETTLE`` frames, the corners it covers are read again, and not found;
    where it leaves, they are read again."""
    live, rng = LiveReader(), np.random.default_rng(6)
    live(camera(table.image(), rng))
    resting = hand(table.image(), (400, 300), (110, 70))
    shares = [live.read_share for _ in range(SETTLE + 1) if sorted(s.code for s in live(camera(resting, rng))) == ["5D", "QS"]]
    assert len(shares) == SETTLE + 1 and shares[:SETTLE] == [0.0] * SETTLE and shares[-1] > 0.0
    assert sorted(s.code for s in live(camera(table.image(), rng))) == ["5D", "QS", "TH"] and live.read_share > 0.0


def test_a_card_laid_beside_a_passing_hand_is_read_once_the_hand_has_gone(table: Stage) -> None:
    """A hand passing over one of the queen's corners while a card is laid over her: the card's cells beside the
    hand pass with it, unread and held as they were, so once the hand has gone they are read, and she is not
    given."""
    live, rng = LiveReader(), np.random.default_rng(7)
    live(camera(table.image(), rng))
    queen = next(c for c in read_corners(table.image()) if c.card is not None and c.card.code == "QS")
    table.put(Pose("2H", 700, 320, -0.3))
    x, y = (round(float(v)) for v in queen.middle)
    assert "QS" not in [s.code for s in live(camera(hand(table.image(), (x, y), (30, 24)), rng))]
    assert sorted(s.code for s in live(camera(table.image(), rng))) == ["2H", "5D", "TH"]


def test_small_changes_add_up_until_they_count(table: Stage) -> None:
    """Light creeping up a level at a time is not read again at each step, but once it has moved by
    ``CHANGE`` since the table was read."""
    live, image = LiveReader(), table.image()
    live(image)
    shares = []
    for level in range(1, CHANGE + 3):
        live(np.clip(image.astype(int) + level, 0, 255).astype(np.uint8))
        shares.append(live.read_share)
    assert shares[:CHANGE - 1] == [0.0] * (CHANGE - 1) and max(shares) == 1.0


def test_another_size_or_a_new_view_is_read_whole(table: Stage) -> None:
    live = LiveReader()
    live(table.image())
    live(table.image()[:600, :1000])
    assert live.read_share == 1.0
    live(table.image())
    live(np.full_like(table.image(), 200))
    assert live.read_share == 1.0 and live(np.full_like(table.image(), 200)) == []


@pytest.mark.parametrize("frame", [np.zeros((120, 160, 3), np.uint16), np.zeros((2, 2, 2, 2), np.uint8), "frame.png"])
def test_a_bad_frame_is_refused_as_read_cards_refuses_it_and_loses_nothing(table: Stage, frame: object) -> None:
    live, image = LiveReader(), table.image()
    held = live(image)
    with pytest.raises((TypeError, ValueError)) as refused:
        live(frame)  # type: ignore[arg-type]
    with pytest.raises(type(refused.value), match=re.escape(str(refused.value))):
        read_cards(frame)  # type: ignore[arg-type]
    assert live(image) == held and live.read_share == 0.0


def test_each_corner_is_read_once_where_crops_meet(table: Stage, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two cards laid far apart are read in two crops, and no corner comes twice."""
    crops: list[tuple[int, ...]] = []
    read = cards_module.read_corners

    def counted(image: np.ndarray, layout: Layout | None = None, shapes: bool = True, confirm: bool = False) -> list:
        crops.append(image.shape)
        return read(image, layout, shapes, confirm)

    live = LiveReader()
    live(table.image())
    monkeypatch.setattr(cards_module, "read_corners", counted)
    table.put(Pose("9S", 200, 150, 0.0))
    table.put(Pose("KD", 1100, 600, 0.2))
    seen = live(table.image())
    assert len(crops) == 2 and same_cards(seen, read_cards(table.image()))


@pytest.fixture(name="wide")
def wide_fixture() -> Stage:
    """A 2304x1296 camera's view of a table about twice as wide as the demo's: indices of 13 to 15 pixels, 7 or 8
    in the frame scaled down to 1280, so ``read_cards`` reads it in detail, at its own size."""
    stage = Stage(deck(), seed=3, size=(2304, 1296))
    for code, x, y, turn in (("TH", 700, 500, 0.1), ("QS", 1260, 560, -0.3), ("5D", 1700, 860, 1.2), ("8C", 400, 1000, 0.4)):
        stage.put(Pose(code, x, y, turn))
    return stage


def test_a_large_frame_is_read_in_crops_of_its_own_pixels(wide: Stage, monkeypatch: pytest.MonkeyPatch) -> None:
    live, rng = LiveReader(), np.random.default_rng(5)
    frame = camera(wide.image(), rng)
    assert sorted(s.code for s in live(frame)) == sorted(s.code for s in read_cards(frame)) == ["5D", "8C", "QS", "TH"]
    crops: list[bool] = []  # whether each image read is a part of the camera's frame itself
    read = cards_module.read_corners
    monkeypatch.setattr(cards_module, "read_corners", lambda image, layout=None, shapes=True, confirm=False:
                        crops.append(np.shares_memory(image, frame)) or read(image, layout, shapes, confirm))
    wide.put(Pose("7C", 450, 300, 0.5))
    frame = camera(wide.image(), rng)
    laid = live(frame)
    assert crops == [True] and 0.0 < live.read_share < 0.5
    assert sorted(s.code for s in laid) == sorted(s.code for s in read_cards(frame)) == ["5D", "7C", "8C", "QS", "TH"]
    assert live(camera(wide.image(), rng)) == laid and live.read_share == 0.0


def test_the_detail_is_chosen_again_when_the_cards_call_for_another() -> None:
    """An empty table 2.5 times the demo's resolution is read in detail at its own size (nothing tells how large
    the indices are); its first card's indices (about 35 px) call for less, so that frame is read whole, and the
    next card laid is read in a crop again."""
    live, rng = LiveReader(), np.random.default_rng(6)
    empty = Stage(deck(), seed=3)

    def seen(stage: Stage) -> np.ndarray:
        return camera(cv2.resize(stage.image(), (3200, 1800), interpolation=cv2.INTER_CUBIC), rng)

    assert live(seen(empty)) == [] and live.read_share == 1.0
    empty.put(Pose("TH", 400, 300, 0.1))
    frame = seen(empty)
    assert [s.code for s in live(frame)] == ["TH"] and live.read_share == 1.0
    empty.put(Pose("QS", 900, 450, -0.3))
    frame = seen(empty)
    assert sorted(s.code for s in live(frame)) == sorted(s.code for s in read_cards(frame)) == ["QS", "TH"]
    assert 0.0 < live.read_share < 0.5
