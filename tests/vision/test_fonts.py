"""The fonts card faces are drawn in come with the source (vision/fonts): every machine draws the same faces,
whatever fonts it has installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision import render
from vision.text import FONTS


@pytest.mark.parametrize("name", sorted({*render.RANK_FONTS, *render.HELD_OUT_FONTS, *render.SUIT_FONTS}))
def test_every_font_a_face_is_drawn_in_ships_in_vision_fonts(name: str) -> None:
    path = render.font_path(name)
    assert path is not None and Path(path).parent == FONTS, f"{name} is not in {FONTS} (see its README.md)"
