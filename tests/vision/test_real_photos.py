"""The reader's contract on real photos it never trained on (``real-cards-cardcounter``'s test split): a card of
every rank and every suit, from three decks and three cameras, each read right where it lies (on the Pi's
OpenCV and NumPy too), and the threes that the reader once read as fives (flat-topped threes, as many real
decks print them), close-ups whose indices are too large to read unless halved; and a black deck, read when its
faces are named dark."""

from __future__ import annotations

import json

import numpy as np
import pytest
from numpy.typing import NDArray

from benchmarks.card_vision import photo_outcomes
from device import cli
from tools.cards import photos
from vision.cards import read_cards
from vision.live import LiveReader

pytestmark = pytest.mark.skipif(not (photos.DATA / "boxes.json").exists(),
                                reason=f"the real photos are not here: {photos.DATA}")

EVERY_RANK = [
    ("IMG_20220921_194228.jpg", "AH"), ("IMG_20220921_193944.jpg", "2H"),
    ("WIN_20240627_12_54_54_Pro.jpg", "2H"), ("IMG_20220921_194012.jpg", "3S"), ("IMG_20220921_193925.jpg", "4H"),
    ("4c-48f9637d-3992-11ed-ba9d-ec2e98cc7ff6.jpg", "4C"), ("IMG_20220921_194030.jpg", "5S"),
    ("WIN_20240630_19_37_20_Pro.jpg", "5H"), ("IMG_20220921_193938.jpg", "6H"), ("6c-2eedb910-3992-11ed-94e7-ec2e98cc7ff6.jpg", "6C"),
    ("IMG_20220921_194234.jpg", "7S"), ("IMG_20220921_194103.jpg", "8S"), ("8d-7d28896b-3991-11ed-9812-ec2e98cc7ff6.jpg", "8D"),
    ("WIN_20240627_12_54_54_Pro.jpg", "8D"), ("IMG_20220921_193942.jpg", "9D"), ("9c-0de2dc0d-3992-11ed-a72a-ec2e98cc7ff6.jpg", "9C"),
    ("IMG_20220921_194121.jpg", "TH"), ("10c-fe6f5332-3991-11ed-9cf0-ec2e98cc7ff6.jpg", "TC"), ("WIN_20240627_12_54_54_Pro.jpg", "TS"),
    ("IMG_20220921_194129.jpg", "JH"), ("Jc-f2a9877e-3991-11ed-a51a-ec2e98cc7ff6.jpg", "JC"), ("WIN_20240630_19_37_20_Pro.jpg", "JD"),
    ("IMG_20220921_193954.jpg", "QS"), ("Qc-e6debfb2-3991-11ed-af61-ec2e98cc7ff6.jpg", "QC"), ("IMG_20220921_194017.jpg", "KS"),
    ("Kc-d9e94890-3991-11ed-8462-ec2e98cc7ff6.jpg", "KC"), ("WIN_20240630_19_37_20_Pro.jpg", "KD"),
]
THREES = [
    ("IMG_20220921_194841.jpg", "3H"), ("IMG_20220921_195359.jpg", "3C"), ("IMG_20220921_200502.jpg", "3D"),
    ("IMG_20220921_200503.jpg", "3C"), ("IMG_20220921_200614.jpg", "3H"), ("WIN_20240627_11_36_55_Pro.jpg", "3H"),
    ("WIN_20240627_12_08_56_Pro.jpg", "3D"), ("WIN_20240627_17_00_45_Pro.jpg", "3C"), ("WIN_20240627_17_03_05_Pro.jpg", "3D"),
    ("WIN_20240630_19_36_15_Pro.jpg", "3C"), ("WIN_20240630_19_36_29_Pro.jpg", "3S"),
]

LARGE = [("IMG_20220921_200756.jpg", code) for code in ("2H", "3C", "7H", "KC")] + [("IMG_20220921_201038.jpg", "AC")]
"""Close-up phone photos whose indices measure 60 px and more from rank to suit: read halved."""


def named_photo(name: str) -> tuple[photos.Photo, NDArray[np.uint8]]:
    """The test split's photo of that name and its picture."""
    photo = next(p for p in photos.photos(photos.DATA, "test") if p.name == name)
    return photo, photos.image(photos.DATA, photo)


def fared(name: str) -> dict[str, tuple[str, str]]:
    photo, image = named_photo(name)
    return photo_outcomes(read_cards(image), photo, image.shape[1], image.shape[0])[0]


def test_the_photos_hold_every_rank_and_suit_from_three_cameras() -> None:
    assert {code[0] for _, code in EVERY_RANK} == set("A23456789TJQK")
    assert {code[1] for _, code in EVERY_RANK} == set("SHDC")
    assert {next(p for p in photos.photos(photos.DATA, "test") if p.name == name).group
            for name, _ in EVERY_RANK} == set(photos.COLOUR_LIGHT)


@pytest.mark.parametrize(("name", "code"), EVERY_RANK + THREES + LARGE)
def test_a_real_card_is_read_right_where_it_lies(name: str, code: str) -> None:
    assert fared(name)[code] == ("correct", code)


def test_a_black_and_white_photo_gives_unknown_cards_never_a_suit_by_shape() -> None:
    """The test split's black-and-white phone photos show no suit's colour: what is found there is unknown."""
    gray = [p for p in photos.photos(photos.DATA, "test") if p.group == "gray"]
    for photo in gray[:6]:
        image = photos.image(photos.DATA, photo)
        assert all(seen.card is None for seen in read_cards(image)), photo.name


DARK_DECK = ["IMG_7714.jpg", "IMG_7730.jpg", "IMG_7742.jpg", "IMG_7745.jpg", "IMG_7786.jpg", "IMG_7842.jpg"]
"""Photos of the black deck (gold print for hearts and diamonds, silver for spades and clubs), every card read."""


def test_the_dark_deck_is_read_when_its_faces_are_named_dark_and_is_never_guessed_otherwise() -> None:
    codes: set[str] = set()
    for name in DARK_DECK:
        photo, image = named_photo(name)
        fared, left = photo_outcomes(read_cards(image, "dark"), photo, image.shape[1], image.shape[0])
        assert (fared, left) == ({code: ("correct", code) for code in photo.codes}, []), name
        assert all(seen.card is None for seen in read_cards(image)), name  # as a light deck: nothing is read
        codes |= set(photo.codes)
    assert {code[1] for code in codes} == set("SHDC") and len(codes) == 17


def test_the_device_stream_and_recognize_read_the_dark_deck_when_told(capsys: pytest.CaptureFixture[str]) -> None:
    photo, image = named_photo(DARK_DECK[-1])
    codes = sorted(photo.codes)
    assert sorted(seen.code for seen in LiveReader("dark")(image)) == codes
    assert cli.main(["recognize", str(photos.DATA / "images" / photo.name), "--json", "--faces", "dark"]) == 0
    assert sorted(card["card"] for card in json.loads(capsys.readouterr().out)["cards"]) == codes
    with pytest.raises(ValueError, match="faces is one of light, dark, not 'shiny'"):
        LiveReader("shiny")  # type: ignore[arg-type]
