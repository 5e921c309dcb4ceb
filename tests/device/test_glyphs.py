"""Names in any language on the OLED and the score sheet: drawn with the font's own code page, spelt in
its letters where it has none."""

from __future__ import annotations

import pytest
from luma.core.legacy.font import CP437_FONT, proportional
from PIL import ImageChops

from device.glyphs import codes, spelt
from device.screens import Screen, render

FONT = proportional(CP437_FONT)


@pytest.mark.parametrize(("name", "glyphs"), [
    ("José", "José"), ("Zoë", "Zoë"), ("Jürgen", "Jürgen"), ("Søren", "Soren"), ("Ольга", "Ol'ga"),
    ("Żaneta", "Zaneta"), ("Ærøskøbing", "Æroskobing"), ("Dvořák", "Dvorák"), ("Ιωάννα", "Ioanna"),
    ("Щукин", "Shchukin"), ("Ńgozi Ọkafor", "Ngozi Okafor"), ("李", "?"),
])
def test_a_name_is_drawn_as_itself_or_spelt_in_letters_the_font_has(name: str, glyphs: str) -> None:
    assert spelt(name) == glyphs
    assert all(code >= 32 or code in (3, 4, 5, 6) for code in codes(name))
    same = ImageChops.difference(render(Screen("Score", lines=(name,))), render(Screen("Score", lines=(glyphs,))))
    assert same.getbbox() is None


def test_accented_letters_are_the_code_pages_glyphs_not_their_unicode_numbers() -> None:
    assert codes("é") == [130] and codes("ü") == [129] and codes("ñ") == [164]  # not Θ (233), ⁿ (252), ±
    assert [FONT[code] for code in codes("é")] != [FONT[ord("é")]]
    assert codes("♣♠") == [5, 6] and codes("·°") == [250, 248]
