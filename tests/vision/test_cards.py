"""The card reader on real photos, synthetic tables with known answers, things that are not cards, bad frames.

Accuracy figures live in ``benchmarks/card_vision.py``; these tests pin behaviour: known cards are read,
nothing is ever read wrong here, unreadable corners are unknown, non-cards give nothing.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.cards import DECK, Card, Rank
from tools.cards import render
from vision import corners, indices
from vision.cards import CLEAR_INDEX, cards_of, detail_zoom, index_note, read_cards, scaled
from vision.indices import Corner, read_corners, right_of, same_corner
from vision.observations import CardSighting
from vision.sightings import PAIR_REACH, _corner_pairs, assemble

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "real-cards-pinochle-ranks" / "images"
RANKS = {"nine": Rank.NINE, "ten": Rank.TEN, "jack": Rank.JACK, "queen": Rank.QUEEN, "king": Rank.KING,
         "ace": Rank.ACE}
HELD_OUT = render.available(render.HELD_OUT_FONTS)


def lay(cards: list[tuple[str, tuple[float, float], float]], *, seed: int = 0, height: float = 170,
        background: np.ndarray | None = None, backs: int = 0) -> np.ndarray:
    """A 1280x720 wooden table with face-up cards (code, centre, angle in degrees) and ``backs`` backs."""
    rng = np.random.default_rng(seed)
    canvas = background.copy() if background is not None else render.table(rng, (720, 1280))
    cover = np.zeros(canvas.shape[:2], bool)
    design = render.Design.random(rng, HELD_OUT)
    for k in range(backs):
        quad = render.card_quad(rng, (150 + 260 * k, 560), height, rng.uniform(-3, 3))
        render.paste(canvas, cover, render.card_back(rng), quad, 200)
    for code, centre, angle in cards:
        face, _ = render.card_face(Card.parse(code), design, rng)
        render.paste(canvas, cover, face, render.card_quad(rng, centre, height, math.radians(angle)), 200)
    return cv2.GaussianBlur(canvas, (0, 0), 0.7)


def check(seen: list[CardSighting], layout: list[tuple[str, tuple[float, float], float]], at_least: int,
          found: int = 0) -> None:
    """Nothing read wrong or twice, every read card where it lies, at least ``at_least`` read and at
    least ``found`` cards reported (read or unknown)."""
    where = {code: centre for code, centre, _ in layout}
    read = [s for s in seen if s.card is not None]
    assert all(s.code in where for s in read), [s.code for s in read]
    assert len({s.code for s in read}) == len(read), "a card reported twice"
    for s in read:
        x, y = where[s.code]
        assert math.hypot(s.center[0] - x, s.center[1] - y) < 60, s
        assert len(s.outline) == 4 and 0.5 <= s.confidence <= 1 and s.zone is None
    assert len(read) >= at_least, f"only {sorted(s.code for s in read)} of {sorted(where)} read"
    assert found <= len(seen) <= len(layout)  # all found, no phantoms


def across_the_top(code: str, font: str = "FreeSans") -> np.ndarray:
    """A face with one index, its suit across the card's top from its rank (as some modern decks print it), and
    one big suit in the middle; drawn here in a font the reader was never fitted on."""
    card = Card.parse(code)
    face = np.full((render.FACE_H, render.FACE_W, 3), 242, np.uint8)
    ink = (40, 40, 220) if card.suit.red else (40, 40, 40)
    rank = render.glyph(font, "10" if card.rank is Rank.TEN else card.rank.label)
    height = 60
    width = height * rank.shape[1] / rank.shape[0]
    render._stamp(face, rank, (20, 18, width, height), ink)
    render._stamp(face, render.drawn_suit(card.suit, 0), (render.FACE_W - 18 - height, 18, height, height), ink)
    render._stamp(face, render.drawn_suit(card.suit, 0), (45, 150, 160, 170), ink)
    return face


def test_a_deck_with_its_suit_across_the_top_from_the_rank_is_read() -> None:
    """One index a card, its suit across the card's top from the rank, a card's width apart: the paper between
    them is cut out and the index read as a rank over its suit; the card is placed by the two marks."""
    rng = np.random.default_rng(5)
    canvas = render.table(rng, (720, 1280))
    cover = np.zeros(canvas.shape[:2], bool)
    layout = [("7S", (200.0, 220.0), 0.0), ("3H", (520.0, 240.0), 8.0), ("KD", (860.0, 260.0), -12.0),
              ("TC", (300.0, 520.0), 180.0), ("QH", (700.0, 520.0), 95.0)]
    for code, centre, angle in layout:
        render.paste(canvas, cover, across_the_top(code), render.card_quad(rng, centre, 240, math.radians(angle)), 200)
    seen = read_cards(cv2.GaussianBlur(canvas, (0, 0), 0.7))
    check(seen, layout, at_least=4)


def knocked_out(code: str, font: str = "FreeSans", style: int = 0) -> np.ndarray:
    """A face whose rank is left light inside a big solid suit shape in its middle (as some modern decks print it),
    with no other index; drawn here in a font and suit style the reader was never fitted on."""
    card = Card.parse(code)
    face = np.full((render.FACE_H, render.FACE_W, 3), 242, np.uint8)
    ink = (40, 40, 220) if card.suit.red else (50, 50, 50)
    render._stamp(face, render.drawn_suit(card.suit, style), (35, 85, 180, 180), ink)
    rank = render.glyph(font, "10" if card.rank is Rank.TEN else card.rank.label)
    height = 62
    width = height * rank.shape[1] / rank.shape[0]
    render._stamp(face, rank, (125 - width / 2, 160 - height / 2, width, height), (242, 242, 242))
    return face


def test_a_deck_with_its_rank_knocked_out_of_a_big_suit_is_read() -> None:
    """The rank left light inside a big suit shape is redrawn as an ordinary index and read: over three tables of six
    such cards, in fonts the reader was never fitted on, most are read; a 6 or a 9 is unknown (turned over, each is
    the other); nothing is read wrong, and nothing is seen that is not there."""
    read = readable = 0
    for seed in range(3):
        rng = np.random.default_rng(seed)
        canvas = render.table(rng, (720, 1280))
        cover = np.zeros(canvas.shape[:2], bool)
        codes = [str(c) for c in rng.choice([card.code for card in DECK], 6, replace=False)]
        layout = [(code, (220.0 + 420 * (k % 3), 190.0 + 340 * (k // 3)), float(rng.uniform(0, 360)))
                  for k, code in enumerate(codes)]
        for code, centre, angle in layout:
            face = knocked_out(code, str(rng.choice(HELD_OUT)), int(rng.integers(1000)))
            render.paste(canvas, cover, face, render.card_quad(rng, centre, 240, math.radians(angle)), 200)
        seen = read_cards(cv2.GaussianBlur(canvas, (0, 0), 0.8))
        check(seen, layout, at_least=0)
        assert not any(s.code[0] in "69" for s in seen if s.card is not None)
        read += sum(s.card is not None for s in seen)
        readable += sum(code[0] not in "69" for code in codes)
    assert read >= readable / 2, f"{read} of {readable} read"


@pytest.mark.skipif(not render.CARD_FACES.exists(), reason=f"the real deck designs are not here: {render.CARD_FACES}")
def test_a_queen_beside_a_dark_outline_is_never_read_as_a_ten() -> None:
    """A narrow queen printed close to the card's dark outline looks like a "10": the outline its "1". The
    reader reads such queens as tens surely; a ten stands only where the expert reads it too."""
    rng = np.random.default_rng(0)
    canvas = render.table(rng, (720, 1280))
    cover = np.zeros(canvas.shape[:2], bool)
    layout = [("QH", (200.0, 200.0), 0.0), ("QD", (520.0, 220.0), 6.0), ("QS", (860.0, 200.0), -8.0),
              ("QC", (1120.0, 240.0), 4.0), ("TH", (300.0, 520.0), 180.0), ("TS", (700.0, 520.0), 90.0)]
    for code, centre, angle in layout:
        face, _ = render.deck_face("aisleriot-neoclassical", Card.parse(code))
        quad = render.card_quad(rng, centre, float(rng.uniform(150, 200)), math.radians(angle + rng.uniform(-5, 5)))
        render.paste(canvas, cover, face, quad, 200)
    seen = read_cards(cv2.GaussianBlur(canvas, (0, 0), float(rng.uniform(0.6, 1.1))))
    check(seen, layout, at_least=3, found=6)
    assert {s.code for s in seen} >= {"TH", "TS"}


# ------------------------------------------------------------------------------------ synthetic tables

def test_lone_cards_at_any_angle_are_read_with_centres() -> None:
    layout = [("AS", (200, 200), 0), ("TH", (500, 220), 37), ("QD", (850, 250), 95), ("7C", (1100, 240), 180),
              ("2H", (300, 500), -60), ("KC", (700, 520), 140)]
    check(read_cards(lay(layout, seed=3)), layout, at_least=3)


def test_a_fanned_hand_is_read_from_its_corners() -> None:
    fan = [(code, (420 + 48 * k, 360 + 4 * k), 8 * k - 16) for k, code in enumerate(["5H", "6D", "JC", "9S", "TD"])]
    check(read_cards(lay(fan, seed=5)), fan, at_least=3)


def test_a_fan_s_corner_no_pair_of_marks_finds_is_read_between_its_neighbours(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a fan packed tight a rank runs into the next card's edge and no pair of marks is proposed there; the corners
    read either side of it frame it (``foreseen``), and the reader reads it. Here the finder is kept from
    proposing the middle card's corner."""
    fan = [(code, (420 + 50 * k, 360), 0) for k, code in enumerate(["5H", "JC", "9S", "6D", "KH"])]
    image = lay(fan, seed=5)
    middle = next(c for c in read_corners(image) if c.card == Card.parse("9S"))
    pairs = corners.candidates

    def blind(frame: corners.Planes) -> corners.Candidates:
        found = pairs(frame)
        return found[~same_corner(found.rank, found.scale, middle.rank, middle.scale)]

    monkeypatch.setattr(corners, "candidates", blind)
    assert "9S" in {c.card.code for c in read_corners(image) if c.card is not None}
    monkeypatch.setattr(indices, "fan_corners", lambda read: corners.Candidates.empty())
    assert "9S" not in {c.card.code for c in read_corners(image) if c.card is not None}


def test_an_overlapping_meld_shows_only_top_strips() -> None:
    meld = [(code, (640, 220 + 52 * k), 0) for k, code in enumerate(["8C", "9C", "TC", "JC"])]
    check(read_cards(lay(meld, seed=8)), meld, at_least=1, found=4)  # each found; unsure ones unknown


# ----------------------------------------------------------------------------------- not cards at all

def test_backs_wood_chips_and_dice_give_no_cards() -> None:
    rng = np.random.default_rng(11)
    for seed in range(3):
        board = lay([], seed=seed, backs=4)
        render.clutter(rng, board, np.zeros(board.shape[:2], np.uint8), 170)
        assert read_cards(board) == []


def test_plain_tables_give_no_cards() -> None:
    rng = np.random.default_rng(12)
    for _ in range(6):
        assert read_cards(render.table(rng, (720, 1280))) == []


# ------------------------------------------------------------------------------- unknown, never wrong

def test_a_smudged_corner_is_unknown_or_absent_never_wrong() -> None:
    frame = lay([("QH", (640, 360), 0)], seed=2, height=200)
    # smear both index corners (the card is 200 x 143 px around (640, 360))
    for x, y in ((583, 272), (697, 448)):
        roi = frame[y - 22:y + 22, x - 14:x + 14]
        roi[:] = cv2.GaussianBlur(roi, (0, 0), 5)
    assert all(s.card in (None, Card.parse("QH")) for s in read_cards(frame))


# ------------------------------------------------------------------------------------------ bad frames

@pytest.mark.parametrize("frame", [np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 3), np.uint8),
                                   np.full((480, 640, 3), 128, np.uint8), np.full((480, 640), 255, np.uint8),
                                   np.zeros((480, 640, 4), np.uint8), np.zeros((32, 60_000, 3), np.uint8),
                                   np.zeros((60_000, 32, 3), np.uint8), np.zeros((120, 320, 3), np.uint8)[:, ::2]])
def test_empty_grey_tiny_thin_or_strided_frames_give_nothing(frame: np.ndarray) -> None:
    assert read_cards(frame) == []


@pytest.mark.parametrize("frame, message", [(np.zeros((100, 100, 3), np.float32), "uint8"),
                                            (np.zeros((100, 100, 2), np.uint8), "shape"),
                                            (np.zeros(100, np.uint8), "shape")])
def test_malformed_frames_are_refused_clearly(frame: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_cards(frame)


def test_each_card_s_index_size_is_measured_in_the_frame_s_pixels() -> None:
    """``index_size`` is the rank-to-suit distance of the card's index (within a quarter of the drawn one's); a
    frame twice the size is read at 1280 pixels but reported in its own pixels; small indices get a note."""
    scene = render.table_scene(np.random.default_rng(7), fonts=HELD_OUT)
    drawn = {c.card: c.index_sizes for c in scene.cards}
    seen = sorted((s for s in read_cards(scene.image) if s.card is not None), key=lambda s: s.code)
    assert len(seen) >= 8
    for s in seen:
        assert s.index_size is not None and 0.75 * min(drawn[s.card]) <= s.index_size <= 1.25 * max(drawn[s.card]), s
    larger = sorted((s for s in read_cards(cv2.resize(scene.image, None, fx=2, fy=2)) if s.card is not None),
                    key=lambda s: s.code)
    assert [s.code for s in larger] == [s.code for s in seen]
    for s in larger:  # in the larger frame's pixels: twice the drawn size (within the same quarter)
        assert s.index_size is not None and 1.5 * min(drawn[s.card]) <= s.index_size <= 2.5 * max(drawn[s.card]), s
    # measured twice as large: the median within 1%, each card within a fifth (at the larger size a card's
    # measure may come out a few pixels off, differently on different OpenCV builds)
    ratios = [b.index_size / a.index_size for a, b in zip(seen, larger, strict=True)]
    assert 1.98 < float(np.median(ratios)) < 2.02 and all(1.6 < ratio < 2.4 for ratio in ratios), ratios
    assert index_note(seen, scene.image.shape) is None  # about 30 px: clear
    smaller = cv2.resize(scene.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    note = index_note(read_cards(smaller), smaller.shape)
    assert note is not None and f"under {CLEAR_INDEX:.0f}" in note and "lower the camera" in note
    assert index_note(larger, (2 * scene.image.shape[0], 2 * scene.image.shape[1], 3)) is None


def test_a_frame_larger_than_the_read_size_is_read_in_detail_where_its_indices_are_small() -> None:
    """A 12 MP frame of 3 x 3 tables (indices of 20 to 40 px): scaled to 1280 pixels its indices are 6 to 13 px,
    so ``read_cards`` reads it again in tiles at up to its own size, and reads more of its cards right."""
    parts = [render.table_scene(np.random.default_rng([5, k]), size=(1000, 1333), fonts=HELD_OUT) for k in range(9)]
    frame = np.vstack([np.hstack([p.image for p in parts[r * 3:r * 3 + 3]]) for r in range(3)])
    truth = {c.card for p in parts for c in p.cards if c.index_sizes}
    small, shrink = scaled(frame)
    assert shrink < 0.33 and detail_zoom(read_corners(small), shrink) > 0.6
    reduced = {s.card for s in cards_of(read_corners(small), shrink)} & truth
    detailed = [s for s in read_cards(frame) if s.card is not None]
    assert len({s.card for s in detailed} & truth) >= len(reduced) + 8
    assert sum(s.card not in truth for s in detailed) <= 2


def test_a_grey_frame_reads_like_colour_for_rank() -> None:
    frame = lay([("KS", (640, 360), 20)], seed=4)
    seen = read_cards(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert [s.card.rank for s in seen if s.card] in ([Rank.KING], [])


# ------------------------------------------------------------------------------------------ real photos

REAL = ("test/IMG_2568.JPG", "test/IMG_2636.JPG", "test/IMG_2654.JPG", "test/IMG_2675.JPG",
        "test/IMG_2383.JPG", "test/IMG_2470.JPG", "test/cam_image45.jpg",
        # each card once: these once gave a second sighting of a card (two corners left unpaired)
        "test/IMG_2595.JPG", "test/IMG_2639.JPG", "test/cam_image2.jpg", "train/IMG_2467.JPG",
        "train/IMG_2599.JPG", "train/IMG_2667.JPG", "train/IMG_2669.JPG", "train/cam_image3.jpg",
        # these once gave a phantom: big heart pips read as a 7 of hearts; a newspaper's "OK" as an index
        "train/IMG_2663.JPG", "test/IMG_2482.JPG",
        # these once left the card unknown: each corner read it surely but for one re-read (K as 8)
        "test/IMG_2440.JPG", "train/cam_image32.jpg")
"""Real photos (never used in training) whose every labelled card is read with the right rank, once."""


def real_photo(name: str) -> tuple[np.ndarray, list[tuple[Rank, tuple[int, int, int, int]]]]:
    if not DATA.exists():
        pytest.skip(f"real card photos are absent ({DATA})")
    split, file = name.split("/")
    labels = []
    for line in (DATA / f"{split}_labels.csv").read_text().splitlines()[1:]:
        f, _w, _h, cls, x0, y0, x1, y1 = line.split(",")
        if f == file:
            labels.append((RANKS[cls], (int(x0), int(y0), int(x1), int(y1))))
    return cv2.imread(str(DATA / name)), labels


@pytest.mark.parametrize("name", REAL)
def test_real_photos_are_read(name: str) -> None:
    image, labels = real_photo(name)
    seen = read_cards(image)
    assert sorted(s.card.rank for s in seen if s.card) == sorted(rank for rank, _ in labels)
    for s in seen:  # each where its card lies
        assert s.card is not None
        x, y = s.center
        assert any(x0 <= x <= x1 and y0 <= y <= y1 for rank, (x0, y0, x1, y1) in labels if rank == s.card.rank)


# ------------------------------------------------------------------------------- one sighting per card

GEOMETRY = {"centre_x": 2.46, "centre_y": 3.36, "card_height": 8.61}


def corner(code: str | None, at: tuple[float, float], down: tuple[float, float], scale: float) -> Corner:
    d = np.array(down) / np.hypot(*down)
    return Corner(Card.parse(code) if code else None, 0.99, np.array(at, np.float32), d.astype(np.float32), scale)


def test_a_tilted_ten_s_two_corners_are_one_card() -> None:
    # the corners of a ten of hearts in a real photo (train/IMG_2467): the wide "10" skews one corner's
    # "down" by 7 degrees and the perspective makes one corner 1.4 times the other
    a = corner("TH", (96, 308), (-0.12, 0.99), 15.8)
    b = corner(None, (207, 435), (-0.02, -1.0), 22.2)
    seen = assemble([a, b], GEOMETRY)
    assert [(s.code, round(s.center[0]), round(s.center[1])) for s in seen] == [("TH", 152, 372)]


def test_corners_pair_with_their_own_card_first() -> None:
    # two cards fanned 20 pixels apart: the right card's bottom corner could pass for the left card's
    # (and is met first), but the left card's own bottom corner lies where the card's shape expects it
    left = [corner("9S", (100, 100), (0, 1), 10), corner("9S", (149, 167), (0, -1), 10)]
    right = [corner("9D", (120, 100), (0, 1), 10), corner("9D", (169, 167), (0, -1), 10)]
    seen = assemble([left[0], right[0], right[1], left[1]], GEOMETRY)
    assert sorted(s.code for s in seen) == ["9D", "9S"]


def test_corners_unlike_in_rank_and_colour_are_two_cards() -> None:
    # held-out deck table 1: an ace of diamonds' top corner and, a card's diagonal away, the bottom corner of
    # the queen of spades beneath it (the other two corners hidden) lie where one card's two corners would
    top, bottom = corner("AD", (100, 100), (0, 1), 10), corner("QS", (149, 167), (0, -1), 10)
    assert sorted(s.code for s in assemble([top, bottom], GEOMETRY)) == ["AD", "QS"]
    # one corner misread in rank alone, or in suit alone (a red ink gone dark), is still one card: unknown
    for other in ("5D", "AH", "AS"):
        seen = assemble([top, corner(other, (149, 167), (0, -1), 10)], GEOMETRY)
        assert [s.code for s in seen] == ["??"], other


def test_corners_read_as_one_card_pair_before_nearer_ones() -> None:
    # synthetic benchmark table 96: cards in a grid, their indices large for their size, so that a card's
    # top corner lies nearer the median offset from the bottom corner of the card below it than from its own
    top = corner("KS", (0, 0), (0, 1), 10)
    own, below = corner("KS", (28.8, 39.6), (0, -1), 10), corner("TC", (52.8, 72.6), (0, -1), 10)
    geometry = {"centre_x": 2.4, "centre_y": 3.3, "card_height": 8.6}
    assert [p[1:] for p in _corner_pairs([top, own, below], 2.4, 3.3, 8.6)] == [(0, 1), (0, 2)]
    seen = assemble([top, below, own], geometry)
    assert sorted(s.code for s in seen) == ["KS", "TC"]
    assert next(s for s in seen if s.code == "KS").center == pytest.approx((14.4, 19.8))  # between its corners


def test_a_lone_unknown_corner_is_drawn_at_the_size_of_the_read_ones() -> None:
    # validation table 80: a queen's corner found as its rank with a piece of its suit, at 9.4 where the
    # table's read indices are about 15, drew the unknown card off its own
    read = [corner("9S", (100, 100), (0, 1), 15), corner("TD", (400, 100), (0, 1), 14), corner("2C", (700, 100), (0, 1), 16)]
    small = corner(None, (100, 400), (0, 1), 9.4)
    unknown = next(s for s in assemble([*read, small], GEOMETRY) if s.card is None)
    assert unknown.center == pytest.approx((100 + 15 * 2.46, 400 + 15 * 3.36), abs=1e-3)
    assert np.hypot(*np.subtract(unknown.outline[3], unknown.outline[0])) == pytest.approx(15 * 8.61, abs=1e-3)
    # a lone read corner keeps its own size, and so does an unknown on a table with nothing read
    nine = next(s for s in assemble([*read, small], GEOMETRY) if s.code == "9S")
    assert nine.center == pytest.approx((100 + 15 * 2.46, 100 + 15 * 3.36), abs=1e-3)
    alone = assemble([small], GEOMETRY)[0]
    assert alone.center == pytest.approx((100 + 9.4 * 2.46, 400 + 9.4 * 3.36), abs=1e-3)


def test_a_card_read_at_both_corners_but_unpaired_is_reported_once() -> None:
    # both corners upright (one read the wrong way round cannot pair), each placing the card near the other
    seen = assemble([corner("QC", (100, 100), (0, 1), 10), corner("QC", (110, 130), (0, 1), 10),
                      corner("QD", (300, 100), (0, 1), 10)], GEOMETRY)
    assert sorted(s.code for s in seen) == ["QC", "QD"]


def test_the_corners_of_a_card_with_small_indices_read_alike_are_one_card() -> None:
    # held-out synthetic table 800002128: a two of spades whose indices are small for its size, its corners
    # 1.8 times the median card's offset apart in index units, was reported twice (one of them a phantom)
    top, bottom = corner("2S", (94, 305), (0, 1), 9.3), corner("2S", (201, 447), (0.03, -1), 9.3)
    seen = assemble([top, bottom], GEOMETRY)
    assert [(s.code, round(s.center[0]), round(s.center[1])) for s in seen] == [("2S", 148, 376)]
    # corners reading different cards, or one unread, pair only within the median card's reach
    assert len(assemble([top, corner("2C", (201, 447), (0.03, -1), 9.3)], GEOMETRY)) == 2
    assert len(assemble([top, corner(None, (201, 447), (0.03, -1), 9.3)], GEOMETRY)) == 2


def test_corner_pairs_are_those_of_each_pair_tried_in_turn() -> None:
    """``_corner_pairs`` tries all pairs of corners at once: the same pairs, scores and order as trying each
    pair in turn (opposite directions, like scales, the offset down and right of the expected length)."""
    rng = np.random.default_rng(6)
    cx, cy, height = 0.9, 1.0, 3.0
    found = []
    for _ in range(25):  # cards: both corners, roughly where the geometry puts them, and lone corners
        turn, scale = rng.uniform(0, 2 * np.pi), rng.uniform(8, 30)
        down = np.array([np.sin(turn), np.cos(turn)], np.float32)
        rank = rng.uniform(0, 1000, 2).astype(np.float32)
        found.append(Corner(None, 0.9, rank, down, float(scale)))
        if rng.random() < 0.7:
            off = scale * (rng.uniform(1.5, 3.5) * down + rng.uniform(0.8, 2.5) * right_of(down))
            other_down = -down + rng.normal(0, 0.1, 2)
            found.append(Corner(None, 0.9, (rank + off).astype(np.float32), (other_down / np.linalg.norm(other_down)).astype(np.float32),
                                float(scale * rng.uniform(0.8, 1.2))))
    slow = []
    for i, a in enumerate(found):
        for j in range(i + 1, len(found)):
            b = found[j]
            if float(a.down @ b.down) > -0.8 or not 0.6 < b.scale / a.scale < 1.67:
                continue
            axis = (a.down - b.down) / np.linalg.norm(a.down - b.down)
            v = (b.rank - a.rank) * 2 / (a.scale + b.scale)
            along, across = float(v @ axis), float(v @ right_of(axis))
            if 0.4 * height < along < PAIR_REACH * height and 0.3 < across / along < 1.2:
                slow.append((abs(along / (2 * cy) - 1) + abs(across / along - cx / cy), i, j))
    fast = _corner_pairs(found, cx, cy, height)
    assert len(slow) > 10 and [p[1:] for p in fast] == [p[1:] for p in sorted(slow)]
    assert np.allclose([p[0] for p in fast], [p[0] for p in sorted(slow)], atol=1e-5)
    assert _corner_pairs(found[:1], cx, cy, height) == []


def test_a_corner_far_larger_than_every_read_index_is_not_a_card() -> None:
    # real photo train/IMG_2663: two big heart pips of a half-covered nine read as a 7 of hearts, at twice
    # the size of the table's real indices
    nine, jack = corner("9H", (27, 265), (0.39, 0.92), 17.5), corner("JS", (174, 212), (-0.08, 1.0), 18.4)
    pips = corner("7H", (164, 350), (-0.32, -0.95), 38.9)
    assert sorted(s.code for s in assemble([nine, jack, pips], GEOMETRY)) == ["9H", "JS"]
    # a like index on a table of its own size is a card (perspective alone changes sizes less)
    nearer = corner("7H", (330, 40), (0.0, 1.0), 1.5 * 18.4)
    assert sorted(s.code for s in assemble([nine, jack, nearer], GEOMETRY)) == ["7H", "9H", "JS"]


def unread(at: tuple[float, float], down: tuple[float, float], rank: tuple[float, float, float],
           suit: tuple[float, float, float]) -> Corner:
    """An unknown corner of the king of diamonds: its reads (first, re-reads) give the king ``rank`` (the
    rest to 8) and diamonds ``suit`` (the rest to hearts)."""
    p_rank, p_suit = np.zeros((3, 14)), np.zeros((3, 5))
    p_rank[:, 12], p_rank[:, 7] = rank, np.subtract(1, rank)
    p_suit[:, 2], p_suit[:, 1] = suit, np.subtract(1, suit)
    d = np.array(down) / np.hypot(*down)
    return Corner(None, 0.95, np.array(at, np.float32), d.astype(np.float32), 15.0, p_rank, p_suit)


def test_two_unread_corners_read_their_card_together_by_rank_never_by_suit() -> None:
    # as in the real photo test/IMG_2440: both corners read a king but for one re-read, where each sees an 8
    top, bottom = ((100, 100), (0, 1)), ((174, 201), (0, -1))
    seen = assemble([unread(*top, (0.99, 0.29, 0.91), (1, 1, 1)), unread(*bottom, (1.0, 0.44, 1.0), (1, 1, 1))],
                     GEOMETRY)
    assert [s.code for s in seen] == ["KD"] and seen[0].confidence >= 0.75
    # the suit is not pooled: mix-ups of suits repeat at both corners of a card
    seen = assemble([unread(*top, (1, 1, 1), (0.9, 0.6, 0.9)), unread(*bottom, (1, 1, 1), (0.9, 0.9, 0.9))], GEOMETRY)
    assert [s.code for s in seen] == ["??"]
    # and a rank lost at too many reads stays unknown
    seen = assemble([unread(*top, (0.99, 0.29, 0.91), (1, 1, 1)), unread(*bottom, (1.0, 0.2, 0.9), (1, 1, 1))],
                     GEOMETRY)
    assert [s.code for s in seen] == ["??"]
