"""The expert: a wider reader asked only about the corners the reader takes surely as an index but cannot
read surely. It must never touch a corner the reader reads, and it reads a corner only when it reads it
surely at every framing the reader tried (``cards.EXPERT_SURE``).

Figures of what it adds live in ``benchmarks/card_vision.py``; the fidelity of its ONNX file to PyTorch is
checked with the reader's in ``test_index_net.py``.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from scoring.cards import Card
from vision import cards, glyphs

from .test_cards import lay


class Sure:
    """An expert that reads every row as the king of hearts, as surely as ``framings`` says for the rows of
    each framing in turn (first read, then the re-reads), and counts the rows it was asked about."""

    def __init__(self, framings: tuple[float, ...]) -> None:
        self.framings, self.asked = list(framings), 0

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows come a framing at a time: the first framing's, then the others' (of the corners it read)."""
        framings = [self.framings.pop(0)] if self.asked == 0 else self.framings
        self.asked += len(x)
        sure = np.repeat(framings, len(x) // len(framings))[:, None]
        rank, suit = np.zeros((len(x), glyphs.NOT_INDEX_RANK + 1)), np.zeros((len(x), glyphs.NOT_INDEX_SUIT + 1))
        rank[:, 12:13], suit[:, 1:2] = sure, sure
        rank[:, 7:8], suit[:, 2:3] = 1 - sure, 1 - sure  # the rest on an 8 of diamonds
        return rank, suit


def smudged() -> np.ndarray:
    """A queen of hearts with both index corners smeared: the reader sees two index corners, reads neither."""
    frame = lay([("QH", (640, 360), 0)], seed=2, height=200)
    for x, y in ((583, 272), (697, 448)):
        roi = frame[y - 22:y + 22, x - 14:x + 14]
        roi[:] = cv2.GaussianBlur(roi, (0, 0), 5)
    return frame


def read_with(monkeypatch: pytest.MonkeyPatch, frame: np.ndarray, expert: object) -> list[tuple[Card | None, float, list[float]]]:
    """The corners read in ``frame`` with the committed reader and ``expert``: card, confidence, rank mark."""
    reader = dataclasses.replace(glyphs.load(), expert=expert)
    monkeypatch.setattr(glyphs, "load", lambda path=glyphs.MODEL: reader)
    return [(c.card, round(c.confidence, 4), c.rank.tolist()) for c in cards.read_corners(frame)]


def test_the_expert_reads_an_unread_corner_only_when_sure_at_every_framing(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = smudged()
    alone = read_with(monkeypatch, frame, None)
    assert alone and all(card is None for card, _, _ in alone)
    unsure = Sure((0.95, 0.95, 0.8))
    assert read_with(monkeypatch, frame, unsure) == alone and unsure.asked == 3 * len(alone)
    first_unsure = Sure((0.8, 0.99, 0.99))
    assert read_with(monkeypatch, frame, first_unsure) == alone and first_unsure.asked == len(alone)
    sure = Sure((0.95, 0.92, 0.99))
    read = read_with(monkeypatch, frame, sure)
    assert read == [(Card.parse("KH"), 0.92, at) for _, _, at in alone]


def test_corners_the_reader_reads_are_never_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = lay([("9S", (400, 360), 20), ("TD", (800, 360), -35)], seed=4)
    expert = Sure((1.0, 1.0, 1.0))
    read = read_with(monkeypatch, frame, expert)
    assert expert.asked == 0 and {card for card, _, _ in read} == {Card.parse("9S"), Card.parse("TD")}


def test_the_committed_expert_reads_what_the_reader_cannot() -> None:
    """On the smudged queen the reader reads nothing surely; the committed expert, if it reads a corner at
    all, reads the queen of hearts."""
    frame = smudged()
    assert all(s.card in (None, Card.parse("QH")) for s in cards.read_cards(frame))
