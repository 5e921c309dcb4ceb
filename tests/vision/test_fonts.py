"""The fonts card faces are drawn in come with the source (tools/cards/fonts, and vision/fonts for the two the
dice reader draws at run time): every machine draws the same faces, whatever fonts it has installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.cards import render
from vision import text


@pytest.mark.parametrize("name", sorted({*render.RANK_FONTS, *render.HELD_OUT_FONTS, *render.SUIT_FONTS}))
def test_every_font_a_face_is_drawn_in_ships_with_the_source(name: str) -> None:
    path = render.font_path(name)
    assert path is not None and Path(path).parent in (render.FONTS, text.FONTS), \
        f"{name} is in neither {render.FONTS} nor {text.FONTS} (see their README.md)"


def test_the_run_time_fonts_are_the_dice_stickers_and_ship_with_the_reader() -> None:
    assert text.SANS.parent == text.SANS_BOLD.parent == text.FONTS
    assert sorted(path.name for path in text.FONTS.glob("*.ttf")) == [text.SANS_BOLD.name, text.SANS.name]
