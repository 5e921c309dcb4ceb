"""The die-face design and the printable sticker sheet."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring.cards import Card, Suit
from scoring.pinzique_guide import load_guide
from tools.dice import stickers
from vision.dice_faces import SUIT_COLOURS, WINDOW, face_image, faces


def test_every_face_of_the_guide_is_drawn_and_all_differ():
    guide = load_guide()
    shown = faces(guide)
    assert len(shown) == 24 and set(shown) == {card for die in guide.dice for card in die}
    images = [face_image(card, 60).astype(np.int32) for card in shown]
    for i in range(len(images)):
        for j in range(i):
            assert np.abs(images[i] - images[j]).mean() > 5, (shown[i], shown[j])


@pytest.mark.parametrize("suit", list(Suit))
def test_frame_and_band_carry_the_suit_colour_and_the_window_is_white(suit):
    face = face_image(Card.parse(f"K{suit.letter}"), 200)
    assert tuple(int(v) for v in face[2, 100]) == SUIT_COLOURS[suit]  # top frame
    assert tuple(int(v) for v in face[197, 10]) == SUIT_COLOURS[suit]  # bottom band
    x0, y0, x1, y1 = (round(v * 200) for v in WINDOW)
    assert face[y0 + 2, x0 + 2].min() > 240 and face[y1 - 3, x1 - 3].min() > 240


def test_only_pinochle_ranks_are_faces():
    with pytest.raises(ValueError, match="2H is not a Pinzique face"):
        face_image(Card.parse("2H"))


def test_sheet_png_holds_every_sticker_at_300_dpi(tmp_path, capsys):
    out = tmp_path / "dice.png"
    assert stickers.main([str(out), "--page", "letter"]) == 0
    assert "48 stickers, 300 dpi" in capsys.readouterr().out
    data = out.read_bytes()
    at = data.index(b"pHYs")
    x, y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert (x, y, unit) == (11811, 11811, 1)  # 300 dots per inch in dots per metre
    assert struct.unpack(">I", data[at + 13:at + 17])[0] == zlib.crc32(data[at:at + 13])
    page = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert page.shape[:2] == (stickers.mm(279.4), stickers.mm(215.9))
    side = stickers.mm(12.7)
    sticker = face_image(Card.parse("9C"), side)  # die 0's first face, found on the page exactly
    # the best match's score is a float sum, a few hundred off zero on some OpenCV builds: the pixels it
    # points at are compared exactly
    _, _, (x, y), _ = cv2.minMaxLoc(cv2.matchTemplate(page, sticker, cv2.TM_SQDIFF))
    assert np.array_equal(page[y:y + side, x:x + side], sticker)


def test_sheet_refuses_a_bad_guide_and_an_unwritable_file(tmp_path, capsys):
    bad = tmp_path / "guide.toml"
    bad.write_text("[turn]\nrolls = 3\n")
    assert stickers.main([str(tmp_path / "a.png"), "--guide", str(bad)]) == 2
    assert "score guide" in capsys.readouterr().err
    assert stickers.main([str(tmp_path / "no" / "a.png")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_the_readme_preview_shows_the_current_design():
    root = Path(__file__).resolve().parents[2]
    shown = cv2.imread(str(root / "docs" / "dice-stickers.png"))
    made = stickers.preview(load_guide())
    assert shown is not None and shown.shape == made.shape, "run python -m tools.dice.stickers docs/dice-stickers.png --preview"
    assert np.abs(shown.astype(int) - made).mean() < 0.5
