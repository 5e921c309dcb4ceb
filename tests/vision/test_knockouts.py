"""Ranks knocked out of a big suit shape: found on a card, not in a table's print or grain, and turned upright.

What the reader then makes of them is pinned in ``test_cards.py`` (a deck drawn so is read, never wrong).
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tools.cards import render
from vision import corners, knockouts

from .test_cards import knocked_out


def lone(code: str, turn: float, seed: int = 0) -> np.ndarray:
    """A 1280x720 table with one card drawn by ``knocked_out``, turned ``turn`` degrees (counter-clockwise)."""
    rng = np.random.default_rng(seed)
    canvas = render.table(rng, (720, 1280))
    cover = np.zeros(canvas.shape[:2], bool)
    quad = render.card_quad(rng, (640.0, 360.0), 260, math.radians(turn))
    render.paste(canvas, cover, knocked_out(code), quad, 200)
    return cv2.GaussianBlur(canvas, (0, 0), 0.8)


@pytest.mark.parametrize("seed", range(12))
def test_a_table_alone_has_no_knocked_out_shape(seed: int) -> None:
    # wood grain, felt, cloth, a page of print: none has a solid shape on paper with a rank's holes in it
    table = cv2.GaussianBlur(render.table(np.random.default_rng(seed), (720, 1280)), (0, 0), 0.8)
    assert knockouts.shapes(corners.Planes(table)) == []


@pytest.mark.parametrize("turn", [0, 30, 90, 145, 200, 300])
@pytest.mark.parametrize("code", ["7S", "KH", "AC", "4D"])
def test_a_big_suit_with_its_rank_knocked_out_is_turned_upright(code: str, turn: float) -> None:
    found = knockouts.shapes(corners.Planes(lone(code, turn)))
    assert len(found) == 1
    shape = found[0]
    assert shape.origin[0] < 640 < shape.origin[0] + shape.size and shape.origin[1] < 360 < shape.origin[1] + shape.size
    # one of the turns tried stands the card upright (within a few degrees)
    miss = min(abs((math.degrees(a) - turn + 180) % 360 - 180) for a in knockouts.upright_turns(shape))
    assert miss <= 8
    turns = knockouts.upright_turns(shape)  # each axis both ways up; a suit has one to four axes
    assert 2 <= len(turns) <= 8 and all(abs(b - a - math.pi) < 1e-6 for a, b in zip(turns[::2], turns[1::2], strict=True))
