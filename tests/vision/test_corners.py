"""Index-corner candidates (``vision.corners``) and the synthetic data they are trained on (``tools.cards.render``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from scoring.cards import Card, Suit
from tools.cards import render
from tools.text import put_text
from vision import corners, patches
from vision.text import SANS, SANS_BOLD


def index_on_paper(ink: tuple[int, int, int], frame_gap: int | None = None) -> tuple[np.ndarray, tuple[float, float]]:
    """A white card corner on a dark table with a 'K' over a suit blob in ``ink``, optionally a thin
    picture frame line ``frame_gap`` pixels right of the K's box; and the K's centre."""
    image = np.full((120, 160, 3), 40, np.uint8)
    cv2.rectangle(image, (20, 10), (150, 115), (235, 238, 240), -1)
    put_text(image, "K", (32, 42), 24, ink, SANS_BOLD)
    cv2.circle(image, (40, 56), 6, ink, -1, cv2.LINE_AA)
    if frame_gap is not None:
        cv2.line(image, (47 + frame_gap, 22), (47 + frame_gap, 110), ink, 1)
    return cv2.GaussianBlur(image, (0, 0), 1.0), (40.0, 34.0)


def has_pair_at(found: corners.Candidates, centre: tuple[float, float]) -> bool:
    near = np.hypot(*(found.rank - np.array(centre)).T) < 5
    downward = found.down[:, 1] > 0.9
    return bool((near & downward).any())


@pytest.mark.parametrize("ink", [(20, 20, 20), (180, 180, 240)], ids=["black", "faint red"])  # faint: 0.77 of paper
def test_a_rank_over_its_suit_is_a_candidate(ink: tuple[int, int, int]) -> None:
    image, centre = index_on_paper(ink)
    assert has_pair_at(corners.candidates(image), centre)


@pytest.mark.parametrize("gap", [0, 1, 3])
def test_a_rank_blurred_into_a_picture_frame_is_still_split_from_it(gap: int) -> None:
    image, centre = index_on_paper((20, 20, 20), frame_gap=gap)  # at gaps 0 and 1 it touches the line
    assert has_pair_at(corners.candidates(image), centre)


def index_beside_a_pip(rank_grey: int, gap: int, bold: bool) -> tuple[np.ndarray, tuple[float, float]]:
    """A grey 'K' (``rank_grey``, regular or bold) over a black suit pip with a big pip ``gap`` pixels to its
    right, blurred; and the K's centre."""
    image = np.full((120, 160, 3), 40, np.uint8)
    cv2.rectangle(image, (20, 10), (150, 115), (235, 238, 240), -1)
    put_text(image, "K", (32, 42), 24, (rank_grey,) * 3, SANS_BOLD if bold else SANS)
    cv2.circle(image, (40, 56), 6, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.circle(image, (60 + gap, 62), 14, (20, 20, 20), -1, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (0, 0), 1.0), (40.0, 34.0)


@pytest.mark.parametrize(("grey", "gap", "bold"), [(110, 2, False), (130, 2, True), (150, 3, False)])
def test_a_faint_rank_pairs_with_its_suit_from_a_stricter_ink_level(grey: int, gap: int, bold: bool) -> None:
    """The pale, thin K holds together only at a loose ink level, where its suit has run into the big pip;
    at a stricter level the suit stands alone (and the K is broken or gone): they pair across the levels."""
    image, centre = index_beside_a_pip(grey, gap, bold)
    assert has_pair_at(corners.candidates(image), centre)


def squeezed_index(edge: int, gap: int) -> tuple[np.ndarray, tuple[float, float]]:
    """A small, thin, narrow 'Q' over a pip, ``edge`` pixels in from the card's edge and ``gap`` pixels left of a
    court picture (coloured, framed), as tight as the real photos' court cards; and the Q's centre."""
    image = np.full((90, 90, 3), 60, np.uint8)
    cv2.rectangle(image, (20, 10), (88, 88), (225, 228, 230), -1)
    x = 20 + edge
    put_text(image, "Q", (x, 26), 15, (20, 20, 20), render.FONTS / "LiberationSansNarrow-Regular.ttf")
    cv2.circle(image, (x + 5, 35), 4, (20, 20, 20), -1, cv2.LINE_AA)
    cv2.rectangle(image, (x + 11 + gap, 14), (86, 86), (40, 150, 210), -1)
    cv2.rectangle(image, (x + 11 + gap, 14), (86, 86), (20, 20, 20), 1)
    return cv2.GaussianBlur(image, (0, 0), 0.7), (x + 5.0, 21.0)


@pytest.mark.parametrize(("edge", "gap"), [(1, 0), (2, 0), (2, 1), (3, 0)])
def test_an_index_squeezed_between_the_card_edge_and_a_picture_is_a_candidate(edge: int, gap: int) -> None:
    image, centre = squeezed_index(edge, gap)  # paper rings a third ink halo when halos are not paper
    assert has_pair_at(corners.candidates(image), centre)


def framed_fan(codes: list[str], seed: int) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """A fan of ``bellot`` cards, each edged in dark grey, blurred; and each card's top index (rank and suit centres)."""
    rng = np.random.default_rng(seed)
    canvas = render.table(rng, (400, 700))
    cover = np.zeros(canvas.shape[:2], bool)
    indices = []
    for k, code in enumerate(codes):
        face, marks = render.deck_face("bellot", Card.parse(code))
        quad = render.card_quad(rng, (150.0 + 34 * k, 220.0 - 3 * k), 170.0, math.radians(3 * k - 25))
        to_image = render.paste(canvas, cover, face, quad, 90)
        indices.append(tuple(cv2.perspectiveTransform(np.float32([[marks[0].rank, marks[0].suit]]), to_image)[0]))
    return cv2.GaussianBlur(canvas, (0, 0), 1.0), indices


@pytest.mark.skipif(not render.CARD_FACES.exists(), reason=f"the real deck designs are not here: {render.CARD_FACES}")
def test_ranks_run_into_a_fan_s_outlines_are_parted_from_them() -> None:
    """The ranks of a fanned deck printed close to the card's edge run into the dark edges, which join into one
    mark; opened, the lines part from them (``corners.Planes.parted``): without, 2 of these 8 pair with their suits."""
    image, indices = framed_fan(["5D", "7C", "6D", "9S", "4H", "2D", "8C", "3H"], seed=2)
    found = corners.candidates(image)
    paired = [(np.hypot(*(found.rank - rank).T) < 0.35 * math.dist(rank, suit))
              & (np.hypot(*(found.suit - suit).T) < 0.35 * math.dist(rank, suit)) for rank, suit in indices]
    assert sum(bool(p.any()) for p in paired) >= 5


@pytest.mark.parametrize("paper", [(228, 193, 159), (150, 200, 235)], ids=["bluish", "yellowish"])
def test_an_index_on_paper_tinted_by_the_light_is_a_candidate(paper: tuple[int, int, int]) -> None:
    image = np.full((120, 160, 3), (40, 60, 90), np.uint8)  # a card (white under a coloured light) on wood
    cv2.rectangle(image, (20, 10), (150, 115), paper, -1)
    put_text(image, "K", (32, 42), 24, (20, 20, 20), SANS_BOLD)
    cv2.circle(image, (40, 56), 6, (20, 20, 20), -1, cv2.LINE_AA)
    assert has_pair_at(corners.candidates(cv2.GaussianBlur(image, (0, 0), 1.0)), (40.0, 34.0))


def test_an_index_on_dim_paper_is_a_candidate() -> None:
    image, centre = index_on_paper((20, 20, 20))
    dim = cv2.convertScaleAbs(image, alpha=0.22)  # paper at 52 levels: a card held up in a dark room
    assert corners.exposure(corners.whitest(dim, dim.min(axis=2))) == corners.MAX_GAIN
    assert has_pair_at(corners.candidates(dim), centre)


def test_an_index_on_dim_paper_under_a_coloured_light_is_a_candidate() -> None:
    # a dim frame whose whitest thing is a warm spot on wood: brightened, its red would pass 255; the light's
    # colour is taken before that, so the card's cream paper still counts as paper
    image = np.full((120, 160, 3), (60, 80, 120), np.uint8)
    image[:, 130:] = (113, 124, 163)  # the spot, the frame's whitest thing
    cv2.rectangle(image, (10, 10), (120, 115), (92, 101, 128), -1)
    put_text(image, "K", (22, 42), 24, (15, 15, 20), SANS_BOLD)
    cv2.circle(image, (30, 56), 6, (15, 15, 20), -1, cv2.LINE_AA)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    assert corners.exposure(corners.whitest(image, image.min(axis=2))) > 1.5
    assert corners.Planes(image).paper[80:110, 60:110].mean() > 0.9
    assert has_pair_at(corners.candidates(image), (30.0, 34.0))


def test_an_index_beside_a_window_is_a_candidate() -> None:
    """A card in shade (its paper at 90 levels) held up before a window (250): the paper beside its index is still
    paper (``PAPER_BRIGHT``), though the window within a few indices' reach is nearly three times as bright."""
    image = np.full((120, 160, 3), 40, np.uint8)
    image[:, 128:] = 250
    cv2.rectangle(image, (10, 10), (124, 115), (90, 90, 90), -1)
    put_text(image, "K", (100, 42), 24, (20, 20, 20), SANS_BOLD)
    cv2.circle(image, (108, 56), 6, (20, 20, 20), -1, cv2.LINE_AA)
    assert has_pair_at(corners.candidates(cv2.GaussianBlur(image, (0, 0), 1.0)), (108.0, 34.0))


def test_a_well_lit_frame_is_read_as_it_is() -> None:
    image, _ = index_on_paper((20, 20, 20))
    assert corners.exposure(corners.whitest(image, image.min(axis=2))) == 1.0
    assert np.array_equal(corners.Planes(image).lo, image.min(axis=2))


def test_a_coloured_table_alone_is_not_taken_for_tinted_paper() -> None:
    felt = np.full((120, 160, 3), (60, 140, 30), np.uint8)
    assert corners.white_gains(corners.whitest(felt, felt.min(axis=2))) is None
    assert not corners.paper_mask(corners.Planes(felt)).any()


def test_one_pair_found_at_several_ink_levels_is_kept_once() -> None:
    found = corners.candidates(index_on_paper((20, 20, 20))[0])
    pairs = {(round(r[0] / 3), round(r[1] / 3), round(s[0] / 3), round(s[1] / 3)) for r, s in zip(found.rank, found.suit, strict=True)}
    assert len(pairs) == len(found)


def test_a_suit_printed_beside_its_rank_is_sampled_as_if_below_it() -> None:
    """A rank with its suit across paper to its right (one index a card, across its top) is a candidate whose
    patch is that of the same rank with the suit below it: the paper between them is cut out."""
    def corner(suit_at: tuple[int, int]) -> np.ndarray:
        image = np.full((120, 160, 3), 40, np.uint8)
        cv2.rectangle(image, (4, 10), (150, 115), (235, 238, 240), -1)  # paper across the whole patch
        put_text(image, "7", (32, 42), 24, (20, 20, 20), SANS_BOLD)
        cv2.circle(image, suit_at, 8, (20, 20, 20), -1, cv2.LINE_AA)
        return cv2.GaussianBlur(image, (0, 0), 1.0)

    found = corners.beside_candidates(corner((95, 34)))
    at = np.flatnonzero(np.hypot(*(found.suit - (95, 34)).T) < 3)
    assert len(at) == 1 and np.allclose(found.down[at[0]], (0, 1), atol=0.1)
    under = found.rank[at[0]] + found.down[at[0]] * found.scale[at[0]]  # where the suit would be below the rank
    as_below = corners.Candidates(found.rank[at], found.down[at], found.scale[at], np.zeros((1, 2), np.float32))
    patch = patches.features(corner((95, 34)), found[at])[0, :patches.PATCH_W * patches.PATCH_H]
    drawn = patches.features(corner((round(float(under[0])), round(float(under[1])))), as_below)
    assert np.abs(patch - drawn[0, :patches.PATCH_W * patches.PATCH_H]).mean() < 0.03


def test_features_are_upright_whatever_the_turn() -> None:
    image, centre = index_on_paper((20, 20, 20))
    found = corners.candidates(image)
    upright = patches.features(image, found[np.array([np.argmin(np.hypot(*(found.rank - centre).T))])])
    turned = cv2.rotate(image, cv2.ROTATE_180)
    found_turned = corners.candidates(turned)
    at = (159 - centre[0], 119 - centre[1])
    flipped = patches.features(turned, found_turned[np.array([np.argmin(np.hypot(*(found_turned.rank - at).T))])])
    assert np.abs(upright - flipped).mean() < 0.05



def test_features_of_many_candidates_at_once_are_each_candidates_own() -> None:
    """``features`` samples candidates in blocks, in order of scale, level by level: none of it changes a row, but for
    a bilinear sample's last level. The sample points are one matrix product a block, and OpenBLAS picks its kernel
    by the processor and the product's shape: on some processors a point's last bit differs between a block and a
    single row, and a sample rounds to the next level (on an AMD EPYC, 2 of the 664,608 values here by one level)."""
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 1.5)
    planes = corners.Planes(image)
    n = patches._BLOCK + 90
    turn = rng.uniform(0, 2 * np.pi, n)
    gap = np.where(rng.random((n, 1)) < 0.3, rng.normal(0, 40, (n, 2)), 0.0)  # some suits beside their ranks
    found = corners.Candidates(rng.uniform((-10, -10), (330, 250), (n, 2)).astype(np.float32),
                               np.stack([np.sin(turn), np.cos(turn)], axis=1).astype(np.float32),
                               rng.uniform(2, 150, n).astype(np.float32), gap.astype(np.float32))  # every pyramid level, mixed
    alone = np.vstack([patches.features(planes, found[np.array([i])]) for i in range(n)])
    def alike(x: np.ndarray, y: np.ndarray) -> bool:  # at most a level apart (1 / 25: the least span), and rarely
        apart = np.abs(x - y)
        return bool(apart.max() <= 1 / 25 + 1e-6 and np.count_nonzero(apart) <= 1e-4 * apart.size)

    assert alike(patches.features(planes, found), alone)
    blocks = list(patches.feature_blocks(planes, found))
    assert len(blocks) == 2 and sorted(np.concatenate([rows for rows, _ in blocks]).tolist()) == list(range(n))
    assert all(alike(x, alone[rows]) for rows, x in blocks)


@pytest.mark.parametrize("stride", [2, 3, 4])
def test_a_glance_from_the_frame_is_the_glance_view_of_the_features(stride: int) -> None:
    """Each look is fitted on ``glance_view`` at its stride of stored feature rows and reads
    ``glance_blocks`` at that stride from the frame: the two must agree (but for the rounding of rows
    stored as uint8), on real candidates of a table at every scale and on random frames where clipping is
    common."""
    scene = render.table_scene(np.random.default_rng(11), size=(720, 1280))
    planes = corners.Planes(scene.image)
    found = corners.candidates(planes)
    rng = np.random.default_rng(4)
    noise = corners.Planes(cv2.GaussianBlur(rng.integers(0, 256, (240, 320, 3), dtype=np.uint8), (0, 0), 1.5))
    n = stride * stride * patches._BLOCK // 4 + 90  # two blocks of glances at this stride
    turn = rng.uniform(0, 2 * np.pi, n)
    gap = np.where(rng.random((n, 1)) < 0.3, rng.normal(0, 40, (n, 2)), 0.0)
    random = corners.Candidates(rng.uniform((-10, -10), (330, 250), (n, 2)).astype(np.float32),
                                np.stack([np.sin(turn), np.cos(turn)], axis=1).astype(np.float32),
                                rng.uniform(2, 150, n).astype(np.float32), gap.astype(np.float32))
    for frame, some in ((planes, found), (noise, random)):
        x, g = patches.features(frame, some), patches.glances(frame, some, stride)
        assert len(some) > 200 and g.shape == (len(some), patches.glance_features(stride))
        assert np.abs(patches.glance_view(x, stride) - g).max() < 1e-4
        stored = patches.glance_view((x * 255).round().astype(np.uint8), stride)
        assert np.percentile(np.abs(stored - g), 99) < 0.01
        blocks = list(patches.glance_blocks(frame, some, stride))
        assert sorted(np.concatenate([rows for rows, _ in blocks]).tolist()) == list(range(len(some)))
        assert some is found or len(blocks) == 2


def brute_force_partners(center: np.ndarray, size: np.ndarray) -> corners.Candidates:
    """``_nearest_partners`` the slow way: every mark against every mark, ties by position across the frame."""
    across = np.lexsort((np.arange(len(size)), center[:, 0])).argsort()
    ranks, downs, scales = [], [], []
    for i in range(len(size)):
        options = []
        for j in range(len(size)):
            vec = center[j] - center[i]
            dist = np.hypot(vec[0], vec[1])
            if 0.5 * size[i] <= dist <= 2.3 * size[i] and 0.3 <= size[j] / size[i] <= 1.8:
                options.append((dist, across[j], vec))
        for dist, _, vec in sorted(options, key=lambda o: o[:2])[:corners.MAX_PARTNERS]:
            ranks.append(center[i])
            downs.append(vec / dist)
            scales.append(dist)
    return corners.Candidates(np.array(ranks, np.float32).reshape(-1, 2), np.array(downs, np.float32).reshape(-1, 2),
                              np.array(scales, np.float32), np.zeros((len(scales), 2), np.float32))


@pytest.mark.parametrize("seed", range(4))
def test_nearest_partners_are_those_of_all_against_all(seed: int) -> None:
    """Marks are compared band by band, not all against all: no partner is lost or added by it, for marks of
    mixed sizes (a band as tall as a typical reach: big marks span several), in clusters like print and
    on a grid with equal distances (ties), marks on band edges included."""
    rng = np.random.default_rng(seed)
    if seed == 3:  # a grid of equal marks: many partners at exactly the same distance
        grid = np.stack(np.meshgrid(np.arange(0, 200, 12), np.arange(0, 150, 12)), axis=-1).reshape(-1, 2)
        center, size = grid.astype(np.float32), np.full(len(grid), 10, np.float32)
    else:
        lumps = rng.uniform(0, (1280, 720), (12, 2))
        center = (lumps[rng.integers(0, 12, 300)] + rng.normal(0, 30 * (seed + 1), (300, 2))).astype(np.float32)
        center = np.round(center * 2) / 2  # half pixels, as centroids of small marks often are
        size = np.where(rng.random(300) < 0.1, rng.uniform(30, 96, 300), rng.uniform(5, 20, 300)).astype(np.float32)
    fast, slow = corners._nearest_partners(center, size), brute_force_partners(center, size)
    for key in ("rank", "down", "scale"):
        assert np.allclose(getattr(fast, key), getattr(slow, key), atol=1e-5), key


@pytest.mark.parametrize("seed", range(3))
def test_marks_labelled_in_16_bits_are_those_labelled_in_32(seed: int) -> None:
    """Busy tables (most of them labelled in 16 bits by Spaghetti, ``components``) give the same marks, stats and
    centres as 32-bit labels by BBDT do, at both ink levels."""
    planes = corners.Planes(render.table_scene(np.random.default_rng(seed), max_cards=30).image)
    for ink in planes.inks:
        labels, stats, centres = corners.components(ink)
        _, wide_labels, wide_stats, wide_centres = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S,
                                                                                                 cv2.CCL_BBDT)
        assert (labels == wide_labels).all() and (stats == wide_stats).all() and np.allclose(centres, wide_centres)


def test_distinct_keeps_the_first_candidate_of_each_cell_quadruple() -> None:
    rng = np.random.default_rng(4)
    n = 400
    gap = np.where(rng.random((n, 1)) < 0.3, rng.normal(0, 40, (n, 2)), 0.0)
    found = corners.Candidates(rng.uniform(-30, 300, (n, 2)).astype(np.float32), rng.normal(size=(n, 2)).astype(np.float32),
                               rng.uniform(2, 90, n).astype(np.float32), gap.astype(np.float32))
    found = found[np.concatenate([np.arange(n), rng.integers(0, n, 200)])]  # repeats, suits off the frame too
    cells = np.floor(np.hstack([found.rank, found.suit]) / 3).astype(int)
    first = sorted({tuple(c): i for i, c in reversed(list(enumerate(cells.tolist())))}.values())
    assert corners.distinct(found).tolist() == first
    assert len(corners.distinct(found[np.zeros(0, int)])) == 0

# --------------------------------------------------------------------------------------- synthetic data

def test_camera_noise_lands_in_every_colour_channel() -> None:
    flat = np.full((200, 200, 3), 128, np.uint8)
    noisy = render.degraded(np.random.default_rng(4), flat)
    spread = [float(cv2.Laplacian(noisy[..., c], cv2.CV_32F).std()) for c in range(3)]
    assert min(spread) > 0.5 * max(spread), spread


@pytest.mark.parametrize("style", [1, 77, 4242])
def test_drawn_suits_are_four_distinct_signs(style: int) -> None:
    signs = [render.drawn_suit(suit, style) for suit in Suit]
    for sign in signs:
        assert 100 <= sign.shape[0] <= 125 and 0.5 < sign.shape[1] / sign.shape[0] < 1.1
    small = [cv2.resize(s, (12, 16), interpolation=cv2.INTER_AREA) for s in signs]
    assert min(np.abs(a - b).mean() for k, a in enumerate(small) for b in small[k + 1:]) > 0.05


def test_thinned_and_bolded_ranks_keep_their_shape() -> None:
    font = render.available(render.RANK_FONTS)[0]
    plain, thin, bold = (render.glyph(font, "K", stroke) for stroke in (0, -3, 3))
    assert thin.sum() < plain.sum() < bold.sum()
    assert abs(thin.shape[0] - plain.shape[0]) <= 8 and abs(bold.shape[0] - plain.shape[0]) <= 8
