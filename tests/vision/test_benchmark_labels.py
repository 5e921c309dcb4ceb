"""The card-vision benchmark's corrections to the real photos' labels (``benchmarks.card_vision.LABEL_ERRATA``)."""

import doctest

import pytest

from benchmarks import card_vision


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
