"""The re-reads: a reading counts only if it holds when the patch is re-framed (``indices.VARIANTS``), unless
the first read is firm (``indices.FIRM``), when it stands for its re-reads and the network is not asked again."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from scoring.cards import Card
from vision import glyphs, indices

from .test_cards import lay
from .test_expert import Sure


def read_by(monkeypatch: pytest.MonkeyPatch, net: object) -> list[Card | None]:
    """The cards of the corners read on a table with one nine of spades by the reader network ``net`` (the
    committed screens in front, no expert behind)."""
    reader = dataclasses.replace(glyphs.load(), net=net, expert=None)
    monkeypatch.setattr(glyphs, "load", lambda path=glyphs.MODEL: reader)
    return [c.card for c in indices.read_corners(lay([("9S", (640, 360), 25)], seed=3))]


def test_a_firm_first_read_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    firm = Sure((indices.FIRM, 0.5, 0.5))
    read = read_by(monkeypatch, firm)
    assert read and set(read) == {Card.parse("KH")}
    first = firm.asked  # one row for each screened candidate, none for re-reads
    assert first >= len(read)
    all_again = Sure((indices.FIRM, 0.5, 0.5))
    monkeypatch.setattr(indices, "FIRM", 1.01)
    assert set(read_by(monkeypatch, all_again)) == {None}  # re-read at 0.5: index corners, not read
    assert all_again.asked == (1 + len(indices.VARIANTS)) * first  # each taken for an index, so each re-read


@pytest.mark.parametrize("again", [(0.5, 0.99), (0.99, 0.5)])
def test_a_first_read_short_of_firm_must_survive_every_re_read(monkeypatch: pytest.MonkeyPatch,
                                                                 again: tuple[float, float]) -> None:
    assert set(read_by(monkeypatch, Sure((float(np.nextafter(indices.FIRM, 0)), *again)))) == {None}
    assert set(read_by(monkeypatch, Sure((0.99, 0.99, 0.8)))) == {Card.parse("KH")}
