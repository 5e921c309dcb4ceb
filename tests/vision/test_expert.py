"""The expert: a wider reader asked about the corners the reader takes surely as an index but cannot read
surely. It never touches a corner the reader reads surely but a ten (``indices.TEN``) or one it reads barely surely
(``indices.LEAN``), and it reads a corner only when it reads it
surely at every framing the reader tried (``indices.EXPERT_SURE``), or when the second expert, or else the
third, reads the expert's first read so surely.

Figures of what it adds live in ``benchmarks/card_vision.py``; the fidelity of its ONNX file to PyTorch is
checked with the reader's in ``test_index_net.py``.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from scoring.cards import Card
from vision import cards, glyphs, indices
from vision.live import LiveReader

from .test_cards import lay


class Sure:
    """A network that reads every row as the king of hearts, its rank as surely as ``framings`` says for the
    rows of each framing in turn (first read, then the re-reads) and its suit as surely or at ``suit``, and
    counts the rows it was asked about. As the reader (or the second expert) it is asked the first framing, then
    the others; as the expert (``at_once``), all framings in one call."""

    def __init__(self, framings: tuple[float, ...], suit: float | None = None, at_once: bool = False) -> None:
        self.framings, self.suit, self.at_once, self.asked = framings, suit, at_once, 0

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rows come a framing at a time: all the first framing's, then each other's."""
        framings = self.framings if self.at_once else self.framings[1:] if self.asked else self.framings[:1]
        self.asked += len(x)
        sure = np.repeat(framings, len(x) // len(framings))[:, None]
        suit = sure if self.suit is None else np.full_like(sure, self.suit)
        rank, suits = np.zeros((len(x), glyphs.NOT_INDEX_RANK + 1)), np.zeros((len(x), glyphs.NOT_INDEX_SUIT + 1))
        rank[:, 12:13], suits[:, 1:2] = sure, suit
        rank[:, 7:8], suits[:, 2:3] = 1 - sure, 1 - suit  # the rest on an 8 of diamonds
        return rank, suits


def smudged() -> np.ndarray:
    """A queen of hearts with both index corners smeared: the reader sees two index corners, reads neither."""
    frame = lay([("QH", (640, 360), 0)], seed=2, height=200)
    for x, y in ((583, 272), (697, 448)):
        roi = frame[y - 22:y + 22, x - 14:x + 14]
        roi[:] = cv2.GaussianBlur(roi, (0, 0), 3)
    return frame


def read_with(monkeypatch: pytest.MonkeyPatch, frame: np.ndarray, expert: object, second: object = None,
              third: object = None) -> list[tuple[Card | None, float, list[float]]]:
    """The corners read in ``frame`` with the committed reader, ``expert``, ``second`` and ``third`` (the second
    and third experts): card, confidence, rank mark."""
    reader = dataclasses.replace(glyphs.load(), expert=expert, second=second, third=third)
    monkeypatch.setattr(glyphs, "load", lambda path=glyphs.MODEL: reader)
    return [(c.card, round(c.confidence, 4), c.rank.tolist()) for c in indices.read_corners(frame)]


def test_the_expert_reads_an_unread_corner_only_when_sure_at_every_framing(monkeypatch: pytest.MonkeyPatch) -> None:
    frame = smudged()
    alone = read_with(monkeypatch, frame, None)
    assert alone and all(card is None for card, _, _ in alone)
    unsure = Sure((0.95, 0.95, 0.8), at_once=True)
    assert read_with(monkeypatch, frame, unsure) == alone and unsure.asked == 3 * len(alone)
    first_unsure = Sure((0.8, 0.99, 0.99), at_once=True)
    assert read_with(monkeypatch, frame, first_unsure) == alone
    sure = Sure((0.95, 0.92, 0.99), at_once=True)
    read = read_with(monkeypatch, frame, sure)
    assert read == [(Card.parse("KH"), 0.92, at) for _, _, at in alone]


class Dulled:
    """The committed reader with its rank reads dulled: ``kept`` of each row's rank probabilities as they were (0.6:
    below ``indices.READ_SURE``), the rest on an 8 (whether a row is an index is read as before)."""

    def __init__(self, net: glyphs.ConvNet, kept: float = 0.6) -> None:
        self.net, self.kept = net, kept

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rank, suit = self.net.predict(x)
        rank = self.kept * rank
        rank[:, 7] += 1 - self.kept
        return rank, suit


def test_two_corners_the_expert_reads_unsurely_read_their_card_together(monkeypatch: pytest.MonkeyPatch) -> None:
    # the rank is pooled over both corners' reads (sightings._pooled), the expert's where it was asked: a king
    # lost at one framing of each corner alone (as in real photo train/IMG_2439) is read from the six together
    frame = lay([("KH", (640, 360), 10)], seed=2, height=200)
    expert = Sure((0.95, 0.6, 0.95), 1.0, at_once=True)
    reader = dataclasses.replace(glyphs.load(), net=Dulled(glyphs.load().net), expert=expert, second=None, third=None)
    monkeypatch.setattr(glyphs, "load", lambda path=glyphs.MODEL: reader)
    corners = indices.read_corners(frame)
    assert len(corners) == 2 and all(c.card is None for c in corners)
    assert [(s.card, round(s.confidence, 3)) for s in cards.read_cards(frame)] == [(Card.parse("KH"), 0.833)]
    # the suit is not pooled: one unsure framing of it leaves the card unknown, and the expert's suit must
    # hold as surely as the expert must read alone (EXPERT_SURE), not just at READ_SURE
    for suit in (None, 0.8):
        reader = dataclasses.replace(reader, expert=Sure((0.95, 0.6, 0.95), suit, at_once=True))
        assert [s.card for s in cards.read_cards(frame)] == [None]


def test_the_second_expert_reads_a_corner_only_by_confirming_the_experts_read_at_every_framing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # indices.EXPERT_SURE: a corner the expert reads unsurely (0.6 at one framing) is read when the second reads
    # the expert's first read (the king of hearts) at least as surely at each framing, never otherwise
    frame, unsure = smudged(), Sure((0.95, 0.6, 0.95), at_once=True)
    alone = read_with(monkeypatch, frame, unsure)
    assert alone and all(card is None for card, _, _ in alone)
    # (indices.confirmed) the second is asked the first framing, and the others only where that one is sure
    for doubting, asked in (((0.95, 0.8, 0.99), 3), ((0.05, 0.99, 0.99), 1)):  # unsure once; sure of the 8 of diamonds
        second = Sure(doubting)
        assert read_with(monkeypatch, frame, unsure, second) == alone and second.asked == asked * len(alone)
    read = read_with(monkeypatch, frame, unsure, Sure((0.97, 0.92, 0.99)))
    assert read == [(Card.parse("KH"), 0.92, at) for _, _, at in alone]
    sure, second = Sure((0.95, 0.92, 0.99), at_once=True), Sure((1.0, 1.0, 1.0))
    assert read_with(monkeypatch, frame, sure, second) == read and second.asked == 0  # the expert read them


def test_the_third_expert_is_asked_only_what_the_second_did_not_confirm(monkeypatch: pytest.MonkeyPatch) -> None:
    frame, unsure = smudged(), Sure((0.95, 0.6, 0.95), at_once=True)
    alone = read_with(monkeypatch, frame, unsure)
    third = Sure((0.97, 0.92, 0.99))
    read = read_with(monkeypatch, frame, unsure, Sure((0.95, 0.8, 0.99)), third)
    assert read == [(Card.parse("KH"), 0.92, at) for _, _, at in alone] and third.asked == 3 * len(alone)
    third = Sure((0.97, 0.8, 0.99))  # neither confirms it at every framing: unknown
    assert read_with(monkeypatch, frame, unsure, Sure((0.95, 0.8, 0.99)), third) == alone
    third = Sure((1.0, 1.0, 1.0))  # the second confirmed it: the third is not asked
    assert read_with(monkeypatch, frame, unsure, Sure((0.97, 0.92, 0.99)), third) == read and third.asked == 0


def test_corners_the_reader_reads_surely_are_never_asked_about_but_tens(monkeypatch: pytest.MonkeyPatch) -> None:
    own = glyphs.load().expert
    frame = lay([("9S", (400, 360), 20), ("4D", (800, 360), -35)], seed=4)
    expert, second = Sure((1.0, 1.0, 1.0), at_once=True), Sure((1.0, 1.0, 1.0))
    read = read_with(monkeypatch, frame, expert, second)
    assert expert.asked == second.asked == 0 and {card for card, _, _ in read} == {Card.parse("9S"), Card.parse("4D")}
    # a ten the reader reads stands only where the expert reads the same card (indices.TEN): not where it reads a king
    frame = lay([("TD", (640, 360), -35)], seed=4)
    committed = read_with(monkeypatch, frame, own)
    assert committed and {card for card, _, _ in committed} == {Card.parse("TD")}
    expert = Sure((1.0, 1.0, 1.0), at_once=True)
    read = read_with(monkeypatch, frame, expert, second)
    assert len(read) == len(committed) and all(card is None for card, _, _ in read)
    assert expert.asked and second.asked == 0


def test_a_corner_read_barely_surely_stands_only_where_the_expert_reads_it_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # indices.LEAN: read at least READ_SURE but less than LEAN (0.78 of the committed reader's sure nine), a corner
    # is asked about as a ten is, and stands where the committed expert reads the nine of spades too, not where an
    # expert reads the king of hearts
    frame = lay([("9S", (640, 360), 20)], seed=4)
    own = glyphs.load()
    reader = dataclasses.replace(own, net=Dulled(own.net, 0.78), second=None, third=None)
    monkeypatch.setattr(glyphs, "load", lambda path=glyphs.MODEL: reader)
    read = indices.read_corners(frame)
    assert read and {c.card for c in read} == {Card.parse("9S")}
    assert all(c.sure_at == indices.EXPERT_SURE for c in read)  # asked about, as a ten is
    reader = dataclasses.replace(reader, expert=Sure((1.0, 1.0, 1.0), at_once=True))
    read = indices.read_corners(frame)
    assert read and all(c.card is None for c in read)
    reader = dataclasses.replace(own, net=Dulled(own.net, 0.9), expert=Sure((1.0, 1.0, 1.0), at_once=True))
    assert {c.card for c in indices.read_corners(frame)} == {Card.parse("9S")}  # 0.9 is sure enough alone


def test_a_dark_deck_s_reads_stand_only_where_the_expert_reads_them_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # a deck named dark is read as its negative, which the networks were never fitted on (indices.read_at_scale's
    # confirm): every read is asked about, in a frame read whole and in the live reader's crops alike
    light = lay([("9S", (640, 360), 20)], seed=4)
    dark = cards.negative(light)  # light print on a black card
    own = glyphs.load()
    assert {s.card for s in cards.read_cards(dark, "dark")} == {Card.parse("9S")}  # the committed expert reads it too
    unsure = Sure((0.95, 0.6, 0.95), at_once=True)  # an expert that reads no card surely
    reader = dataclasses.replace(own, expert=unsure, second=None, third=None)
    monkeypatch.setattr(glyphs, "load", lambda path=glyphs.MODEL: reader)
    assert {s.card for s in cards.read_cards(light)} == {Card.parse("9S")} and unsure.asked == 0
    assert [s.card for s in cards.read_cards(dark, "dark")] == [None] and unsure.asked
    live = LiveReader("dark")
    live(np.full_like(dark, 20))  # a bare black table, then the card laid on it: read in a crop
    assert [s.card for s in live(dark)] == [None] and live.read_share < 1.0


def test_the_committed_expert_reads_what_the_reader_cannot() -> None:
    """On the smudged queen the reader reads nothing surely; the committed expert, if it reads a corner at
    all, reads the queen of hearts."""
    frame = smudged()
    assert all(s.card in (None, Card.parse("QH")) for s in cards.read_cards(frame))
