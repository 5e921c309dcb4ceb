"""The synthetic card faces: the hard cases (``render.table_scene``'s ``hard``) keep the index corners clear."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scoring.cards import Card
from vision import render


@pytest.mark.parametrize("code", ["KH", "QS", "JC", "AS"])
def test_hard_faces_leave_the_margin_beside_each_index_blank(code: str) -> None:
    """A court picture framed beside the index, or an ornate ace's scrolls, never spill into the index
    column: below the top index and above the bottom one, the strip as wide as the index's nearer half is
    bare paper (a spill there would put ink on corners labelled clear). Hard faces differ from plain ones."""
    fonts = render.available(render.RANK_FONTS)
    changed = 0
    for seed in range(12):
        design = replace(render.Design.random(np.random.default_rng(seed), fonts), border=False)
        face, marks = render.card_face(Card.parse(code), design, np.random.default_rng(seed),
                                       np.random.default_rng([seed, 1]))
        plain, _ = render.card_face(Card.parse(code), design, np.random.default_rng(seed))
        changed += not np.array_equal(face, plain)
        top, bottom = marks
        below = face[int(top.suit[1] + top.height):, :int(top.rank[0])]
        above = face[:int(bottom.suit[1] - bottom.height), int(bottom.rank[0]) + 1:]
        assert (below == design.paper).all() and (above == design.paper).all(), seed
    assert changed >= 3
