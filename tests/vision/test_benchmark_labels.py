"""Corrections to the real photos' labels: the card-vision benchmark's ``LABEL_ERRATA`` (ranks 9 to A), and
``tools.cards.photos``' ``PHOTO_ERRATA``, ``PHOTO_BOX_ERRATA`` and ``PHOTO_MISSING``, which training takes too; and
``PHOTO_ILLEGIBLE``, the cards the benchmark also leaves out of its figures of legible cards."""

import doctest

import pytest

from benchmarks import card_vision
from tools.cards import photos


def test_doctests_of_the_card_vision_benchmark():
    # CI collects doctests from scoring/vision/device only; this benchmark's run here.
    result = doctest.testmod(card_vision, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_each_erratum_names_a_labelled_card_and_changes_its_rank():
    if not card_vision.DATA.exists():
        pytest.skip(f"real card photos are absent ({card_vision.DATA})")
    labelled = {(path.name, box): rank for path, cards in card_vision.real_labels(card_vision.DATA).items()
                for rank, box in cards}
    for key, rank in card_vision.LABEL_ERRATA.items():
        assert key in labelled, key  # the data set still holds that card, in that box
        assert labelled[key] != rank, key  # and still labels it otherwise


def test_each_photo_erratum_names_a_labelled_card_and_each_missing_card_an_unlabelled_one():
    if not (photos.DATA / "boxes.json").exists():
        pytest.skip(f"real card photos are absent ({photos.DATA})")
    by_name = {photo.name: photo for photo in photos.photos(photos.DATA)}
    for (name, code), card in photos.PHOTO_ERRATA.items():
        assert code in by_name[name].codes and card != code, (name, code)
    for (name, centre), card in photos.PHOTO_BOX_ERRATA.items():
        labelled = [code for code, box in by_name[name].boxes if box[:2] == centre]
        assert len(labelled) == 1 and labelled[0] != card, (name, centre)  # one box there, labelled otherwise
    for name, cards in photos.PHOTO_MISSING.items():
        photo = by_name[name]
        assert photo.split == "test" and photo.group in photos.COLOUR_LIGHT, name  # where the figures count it
        for code, (cx, cy, w, h) in cards:
            assert code not in photo.codes, (name, code)  # still left out by the labels
            assert 0 <= cx - w / 2 < cx + w / 2 <= 1 and 0 <= cy - h / 2 < cy + h / 2 <= 1, (name, code)


def test_each_illegible_card_is_a_labelled_card_of_a_test_photo_of_a_light_deck_in_colour():
    if not (photos.DATA / "boxes.json").exists():
        pytest.skip(f"real card photos are absent ({photos.DATA})")
    by_name = {photo.name: photo for photo in photos.photos(photos.DATA)}
    for (name, code), why in photos.PHOTO_ILLEGIBLE.items():
        photo = photos.corrected(by_name[name])
        assert photo.split == "test" and photo.group in photos.COLOUR_LIGHT, name  # where the figures count it
        assert code in photo.codes and why, (name, code)
