"""Which cards are on the table, over frames, and in what order they arrived or left.

Feed :meth:`Tracker.update` each frame's card sightings (with zones) and it returns "appeared" and
"removed" events:

- A card counts only once it has been seen, read the same, lying still (``still``) and in the same zone,
  in ``steady`` frames running. A card moved to another zone is removed from the old zone and appears in
  the new one once it is steady there. A card must move ``near`` to change zone, so one lying on a zone's
  edge keeps its zone.
- A counted card is removed only after it has been missing for ``absent`` frames in which its spot was
  visible. Its spot is not visible while a card that arrived after it lies over it, while an unread
  sighting lies where it was not seen (a hand half over it), while the caller marks it ``hidden`` (a hand's
  outline), or in a frame with a burst of ``burst`` or more new sightings (a hand sweeping the table makes
  odd detections). An unread sighting among cards that are seen (a fanned hand) is a card of its own.
- Cards appear in the order they arrived (pegging and tricks need the order of play): a card that has
  settled waits for every card that arrived before it and is still settling, for up to ``wait`` frames.
  Within one frame, removals come first, then appearances by arrival.
- A card seen but not read (``card`` None) is tracked by its position, so the flow can ask the player to
  adjust it. When it is read later, it keeps its track number and arrival frame: the event pair
  "removed ??" then "appeared TH" on the same track says which unknown it was.
- A card is in one place at a time (one deck): when it appears somewhere, a copy of it still counted
  elsewhere but no longer seen there is removed first.

Dice have a tracker of their own, :mod:`vision.dice_tracker`.

>>> from scoring.cards import Card
>>> def seen(code, x, zone):
...     return CardSighting(Card.parse(code), (x, 100.0), (), 0.99, zone)
>>> tracker = Tracker(Settings(steady=2, absent=3))
>>> tracker.update([seen("5H", 100, "centre")])
[]
>>> [str(e) for e in tracker.update([seen("5H", 101, "centre"), seen("TC", 300, "centre")])]
['frame 1: 5H appeared in centre (arrived frame 0, track 1)']
>>> [str(e) for e in tracker.update([seen("5H", 100, "centre"), seen("TC", 300, "centre")])]
['frame 2: TC appeared in centre (arrived frame 1, track 2)']
>>> for frame in range(3):
...     events = tracker.update([seen("TC", 300, "centre")])
>>> [str(e) for e in events], [s.code for s in tracker.table()]
(['frame 5: 5H removed from centre (arrived frame 0, track 1)'], ['TC'])
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np

from scoring.cards import Card
from vision.observations import CardSighting, Point
from vision.settings import check as check_settings
from vision.zones import polygon_distances

__all__ = ["CardEvent", "Settings", "Tracker"]

Kind = Literal["appeared", "removed"]


@dataclass(frozen=True, slots=True)
class Settings:
    """How the tracker decides; counts are in frames, ``near`` in image pixels.

    >>> Settings(steady=0)
    Traceback (most recent call last):
    ...
    ValueError: tracker setting 'steady' must be a whole number of at least 1, not 0
    """

    steady: int = 3
    """Frames running a card must be seen, read the same and in the same zone, to count."""
    absent: int = 10
    """Frames a counted card must be missing, with its spot visible, to be removed."""
    near: float = 25.0
    """How far (pixels) a card's centre may shift between frames and still be the same card."""
    still: float = 8.0
    """How far (pixels) a card's centre may shift between frames and still count as lying steady."""
    burst: int = 3
    """New sightings in one frame that make it a disturbed frame (a hand over the table)."""
    wait: int = 10
    """Frames a settling card may hold back cards that arrived after it."""

    def __post_init__(self) -> None:
        check_settings(self, "tracker", {"steady": 1, "absent": 1, "burst": 1, "wait": 0}, ("near", "still"))


@dataclass(frozen=True, slots=True)
class CardEvent:
    """A card that appeared on or was removed from the table (``sighting.zone`` says where)."""

    kind: Kind
    sighting: CardSighting
    """The card as last seen, with the zone it appeared in or was removed from."""
    frame: int
    """The frame this was decided in."""
    since: int
    """The frame the card arrived in that zone: the order of play."""
    track: int
    """The same physical card keeps its number, also when an unknown card is read later."""

    @property
    def card(self) -> Card | None:
        """The card, or None when it was not read."""
        return self.sighting.card

    @property
    def zone(self) -> str | None:
        """Where the card appeared or was removed from."""
        return self.sighting.zone

    def __str__(self) -> str:
        where = "in" if self.kind == "appeared" else "from"
        return (f"frame {self.frame}: {self.sighting.code} {self.kind} {where} {self.zone} "
                f"(arrived frame {self.since}, track {self.track})")


@dataclass(slots=True)
class _Placement:
    """A card settled in a zone: announced, or waiting for earlier arrivals."""

    sighting: CardSighting
    since: int

    @property
    def key(self) -> tuple[Card | None, str | None]:
        return self.sighting.card, self.sighting.zone


@dataclass(slots=True)
class _Track:
    """One physical card: what it is being seen as now, and what has been said about it."""

    id: int
    sighting: CardSighting
    since: int
    anchor: Point
    """Where the card was when it entered its zone."""
    last_seen: int
    streak: int = 1
    absent: int = 0
    settled: _Placement | None = None
    announced: _Placement | None = None
    seen: bool = True

    @property
    def key(self) -> tuple[Card | None, str | None]:
        return self.sighting.card, self.sighting.zone

    @property
    def target(self) -> _Placement | None:
        """The placement the track has settled in, announced or not."""
        return self.settled or self.announced

    @property
    def center(self) -> Point:
        return self.sighting.center


class Tracker:
    """Tracks the cards on a table over frames; see the module docstring for the rules."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.frame = -1
        """The number of the last frame given to :meth:`update` (frames count from 0)."""
        self._tracks: list[_Track] = []
        self._ids = 0

    def table(self) -> list[CardSighting]:
        """The cards counted on the table now, in the order they arrived."""
        placed = sorted((t.announced.since, t.id, t.announced.sighting) for t in self._tracks if t.announced)
        return [sighting for _, _, sighting in placed]

    def update(self, cards: Iterable[CardSighting], hidden: Sequence[Sequence[Point]] = ()) -> list[CardEvent]:
        """Take one frame's sightings (zones assigned); ``hidden``: image polygons known to be covered.

        Returns the events this frame decided: removals first, then appearances in arrival order.
        """
        self.frame += 1
        sightings = list(cards)
        for track in self._tracks:
            track.seen = False
        unmatched, covered = self._match(sightings)
        order = {id(s): i for i, s in enumerate(sightings)}
        for sighting in sorted(unmatched, key=lambda s: order[id(s)]):
            self._ids += 1  # new cards numbered in the order the reader listed them
            self._tracks.append(_Track(self._ids, sighting, self.frame, sighting.center, self.frame))
        # What may lie over a card not seen: a card that arrived after it, or a region the caller hides.
        over: list[tuple[tuple[float, float], Sequence[Point]]] = [
            ((t.since, t.id), t.sighting.outline) for t in self._tracks if t.seen and len(t.sighting.outline) > 2]
        over += [((math.inf, math.inf), polygon) for polygon in hidden]
        self._mark_missing(len(unmatched) >= self.settings.burst, covered, over)
        events = self._remove_gone()
        return events + self._release()

    def _match(self, sightings: list[CardSighting]) -> tuple[list[CardSighting], set[int]]:
        """Give sightings to tracks; returns the sightings of new cards and the ids of covered tracks."""
        near = self.settings.near
        by_card: dict[Card | None, list[_Track]] = {}
        for track in self._tracks:
            by_card.setdefault(track.sighting.card, []).append(track)
        left = self._pair([s for s in sightings if s.card is not None], by_card, near, read=True)  # in place
        unknown = self._pair([s for s in sightings if s.card is None], by_card, near, read=False)  # still unread
        left = self._pair(left, by_card, near, read=False)  # an unknown card read at last
        left = self._pair(left, by_card, math.inf, read=True)  # a card moved
        covered = set()
        for sighting in unknown:  # unread where a card lies that was not seen: that card, half covered
            under = {t.id for t in self._tracks if not t.seen and _distance(t.center, sighting.center) <= near}
            covered |= under
            if not under:
                left.append(sighting)
        return left, covered

    def _pair(self, sightings: list[CardSighting], by_card: dict[Card | None, list[_Track]], reach: float, *,
              read: bool) -> list[CardSighting]:
        """Match sightings to tracks not yet matched, nearest pairs first; returns the sightings left over.

        With ``read``, a sighting goes to a track of its own card; without, to a track of an unread card.
        """
        pairs = sorted(
            (_distance(s.center, t.center), t.id, i, t)
            for i, s in enumerate(sightings)
            for t in by_card.get(s.card if read else None, ())
            if not t.seen
        )
        taken = set()
        for distance, _, i, track in pairs:
            if distance <= reach and not track.seen and i not in taken:
                taken.add(i)
                self._observe(track, sightings[i])
        return [s for i, s in enumerate(sightings) if i not in taken]

    def _observe(self, track: _Track, sighting: CardSighting) -> None:
        """Count a frame in which the track was seen as ``sighting``.

        A card changes zone only once it has moved ``near`` from where it entered its zone: a card lying
        on a zone's edge keeps one zone however its detected centre jitters.
        """
        if sighting.zone != track.sighting.zone and _distance(sighting.center, track.anchor) <= self.settings.near:
            sighting = replace(sighting, zone=track.sighting.zone)
        if sighting.zone != track.sighting.zone:
            track.since, track.anchor, track.streak = self.frame, sighting.center, 1
        elif sighting.card != track.sighting.card or _distance(sighting.center, track.center) > self.settings.still:
            track.streak = 1
        else:
            track.streak += 1
        track.sighting, track.seen, track.absent, track.last_seen = sighting, True, 0, self.frame
        target = track.target
        if track.streak >= self.settings.steady and (target is None or target.key != track.key):
            track.settled = _Placement(sighting, track.since)

    def _mark_missing(self, disturbed: bool, covered: set[int],
                      over: list[tuple[tuple[float, float], Sequence[Point]]]) -> None:
        """Restart the count of frames seen for each track not seen; count a missing frame if its spot showed.

        ``over``: outlines, each with the arrival of what it outlines; it hides the cards that arrived before.
        """
        missing = [t for t in self._tracks if not t.seen]
        for track in missing:
            track.streak = 0
        missing = [t for t in missing if not (disturbed or t.id in covered)]
        if not missing:
            return
        hidden = np.zeros(len(missing), dtype=bool)
        if over:
            centers = np.array([t.center for t in missing], dtype=np.float64)
            inside = polygon_distances([np.array(o, dtype=np.float64).reshape(-1, 2) for _, o in over], centers) == 0
            later = np.array([[arrival > (t.since, t.id) for arrival, _ in over] for t in missing])
            hidden = (inside & later).any(axis=1)
        for track, under in zip(missing, hidden.tolist(), strict=True):
            track.absent += 0 if under else 1

    def _remove_gone(self) -> list[CardEvent]:
        """Forget the tracks missing ``absent`` visible frames; removal events for those announced.

        A track never announced is forgotten after ``absent`` frames unseen of any kind, so a long burst
        of odd detections leaves nothing behind.
        """
        absent = self.settings.absent
        gone = [t for t in self._tracks if t.settled is None
                and (t.absent >= absent or not t.announced and self.frame - t.last_seen >= absent)]
        return [event for track in sorted(gone, key=_arrival) for event in self._forget(track)]

    def _forget(self, track: _Track) -> list[CardEvent]:
        self._tracks.remove(track)
        return [self._event("removed", track.announced, track)] if track.announced else []

    def _release(self) -> list[CardEvent]:
        """Announce settled cards in arrival order, each once no earlier arrival is still settling."""
        blockers = [(t.since, t.id) for t in self._tracks if self._settling(t)]
        events = []
        for track in sorted((t for t in self._tracks if t.settled), key=_arrival):
            if any(blocker < _arrival(track) for blocker in blockers):
                break
            events += self._announce(track)
        return events

    def _settling(self, track: _Track) -> bool:
        """Whether the track is on its way to a new placement: it holds back later arrivals."""
        target = track.target
        return ((target is None or target.key != track.key) and track.absent < self.settings.steady
                and self.frame - track.since < self.settings.wait)

    def _announce(self, track: _Track) -> list[CardEvent]:
        placement, track.settled = track.settled, None
        assert placement is not None
        if track.announced and track.announced.key == placement.key:  # back where it was announced
            return []
        card = placement.sighting.card
        stale = [t for t in self._tracks if t is not track and t.announced and card is not None
                 and t.announced.sighting.card == card and not t.seen]
        events = [event for other in stale for event in self._forget(other)]  # one deck: it moved
        if track.announced:
            events.append(self._event("removed", track.announced, track))
        track.announced = placement
        return [*events, self._event("appeared", placement, track)]

    def _event(self, kind: Kind, placement: _Placement, track: _Track) -> CardEvent:
        said = placement.sighting
        sighting = replace(track.sighting, card=said.card, zone=said.zone) if kind == "removed" else said
        return CardEvent(kind, sighting, self.frame, placement.since, track.id)


def _arrival(track: _Track) -> tuple[int, int]:
    """The order of play: the frame a track's placement began, then the track number."""
    placement = track.settled or track.announced
    return (placement.since if placement else track.since), track.id


def _distance(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
