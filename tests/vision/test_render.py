"""The synthetic card faces: the hard cases (``render.table_scene``'s ``hard``) keep the index corners clear."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scoring.cards import Card
from tools.cards import render


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


needs_faces = pytest.mark.skipif(not render.CARD_FACES.exists(),
                                 reason=f"the real deck designs are not here: {render.CARD_FACES}")


@needs_faces
@pytest.mark.parametrize("deck", render.TRAINING_DECKS + render.HELD_OUT_DECKS)
def test_a_real_deck_s_index_is_found_where_its_faces_print_it(deck: str) -> None:
    """Each real deck's index (rank over suit, or beside it) lies in the face's top-left corner at a rank's
    height from its suit, and the turned index is its mirror through the middle (none on a one-index deck);
    there is ink at both marks (the three of spades is black; at the rank alone on a tab-index deck)."""
    face, marks = render.deck_face(deck, Card.parse("3S"))
    assert face.shape == (render.FACE_H, render.FACE_W, 3)
    top = marks[0]
    assert top.rank[0] < 0.25 * render.FACE_W and top.rank[1] < 0.2 * render.FACE_H
    gap = np.hypot(top.suit[0] - top.rank[0], top.suit[1] - top.rank[1])
    assert 0.5 * top.height < gap < (3.0 if deck in render.SUIT_BESIDE else 1.6) * top.height
    assert len(marks) == (1 if deck in render.TOP_LEFT_ONLY else 2)
    if len(marks) == 2:
        assert np.allclose(marks[1].rank, (render.FACE_W - top.rank[0], render.FACE_H - top.rank[1]))
    for x, y in ((int(v) for v in point) for point in (top.rank, top.suit)[:1 if deck in render.TAB_INDEX else 2]):
        assert face[y - 3:y + 4, x - 3:x + 4].min() < 150


@needs_faces
def test_a_scene_dealt_from_real_decks_knows_both_index_corners_of_each_card() -> None:
    scene = render.table_scene(np.random.default_rng(3), size=(360, 640), decks=("nicu-white",), real_share=1.0)
    assert scene.cards and all(len(card.marks) == 2 for card in scene.cards)
