"""The tracker on recorded frame sequences: steadiness, flicker, hands over the table, moves, order of play.

A frame is written as sightings ``CODE@x,y`` (``??`` for a card seen but not read) on a 1000 x 1000 image of a
four-seat table in the default layout: seat 1's rows are y 700-800 (front), 800-900 (middle), 900-1000 (back)
for x 300-700, the centre is x and y 300-700. Each card is a 60 x 84 pixel box around its centre.
"""

import random
from collections.abc import Iterable, Sequence

import cv2
import numpy as np
import pytest

from scoring.cards import Card
from vision.observations import CardSighting, Point
from vision.tracker import CardEvent, Settings, Tracker
from vision.zones import Calibration

TABLE = Calibration.default(4, size=(1000, 1000))


def card(code: str, x: float, y: float, size: tuple[float, float] = (60, 84)) -> CardSighting:
    w, h = size[0] / 2, size[1] / 2
    outline = ((x - w, y - h), (x + w, y - h), (x + w, y + h), (x - w, y + h))
    return TABLE.assign_zone(CardSighting(None if code == "??" else Card.parse(code), (x, y), outline, 0.9))


def frame(spec: str) -> list[CardSighting]:
    """``"TH@500,950 ??@400,500"``: the sightings of one frame."""
    sightings = []
    for item in spec.split():
        code, _, where = item.partition("@")
        x, y = where.split(",")
        sightings.append(card(code, float(x), float(y)))
    return sightings


def run(frames: Iterable[Sequence[CardSighting]], tracker: Tracker | None = None,
        hidden: Sequence[Sequence[Sequence[Point]]] = ()) -> list[str]:
    """Feed the frames; the events as ``"frame +CODE zone"`` / ``"frame -CODE zone"``."""
    tracker = tracker or Tracker()
    events: list[CardEvent] = []
    for number, sightings in enumerate(frames):
        events += tracker.update(sightings, hidden[number] if hidden else ())
    return [f"{e.frame} {'+' if e.kind == 'appeared' else '-'}{e.sighting.code} {e.zone}" for e in events]


def repeat(spec: str, count: int) -> list[list[CardSighting]]:
    return [frame(spec) for _ in range(count)]


# Steadiness and flicker (steady = 3 frames, absent = 10 frames by default)

def test_a_card_counts_once_seen_in_three_frames_running() -> None:
    assert run(repeat("TH@500,950", 2)) == []
    assert run(repeat("TH@500,950", 3)) == ["2 +TH seat1.back"]
    assert run(repeat("TH@500,950", 30)) == ["2 +TH seat1.back"]


def test_a_card_read_two_ways_does_not_count_until_one_reading_is_steady() -> None:
    """A sighting that flips between two codes is two cards, neither steady; the steady one counts."""
    flipping = [frame("TH@500,950" if n % 2 else "TD@500,950") for n in range(8)]
    assert run(flipping) == []
    assert run([*flipping, *repeat("TD@500,950", 3)]) == ["10 +TD seat1.back"]


def test_a_phantom_that_flickers_never_counts() -> None:
    """Glare read as a card every other frame is never steady."""
    assert run([frame("5S@400,500" if n % 2 else "") for n in range(40)]) == []


def test_a_settling_card_that_flickers_keeps_its_arrival_frame() -> None:
    tracker = Tracker()
    frames = [frame("KC@500,500"), frame("KC@500,500"), frame(""), *repeat("KC@500,500", 3)]
    assert run(frames, tracker) == ["5 +KC centre"]
    assert [s.code for s in tracker.table()] == ["KC"]


def test_a_counted_card_whose_detection_flickers_is_never_removed() -> None:
    frames = repeat("QH@500,950", 3) + [frame("QH@500,950" if n % 3 else "") for n in range(60)]
    assert run(frames) == ["2 +QH seat1.back"]


def test_a_card_still_moving_does_not_count_until_it_lies_still() -> None:
    """A card slid across the table (20 pixels a frame) counts three frames after it stops."""
    frames = [frame(f"7D@{300 + 20 * min(n, 10)},500") for n in range(16)]
    assert run(frames) == ["12 +7D centre"]


def test_a_card_nudged_within_its_zone_stays_one_card() -> None:
    frames = [frame(f"7D@{450 + 3 * n},{500 + 2 * n}") for n in range(30)]
    assert run(frames) == ["2 +7D centre"]


# Removal

def test_a_card_missing_ten_visible_frames_is_removed() -> None:
    frames = repeat("TH@500,950 5C@400,500", 5) + repeat("5C@400,500", 9)
    assert run(frames) == ["2 +TH seat1.back", "2 +5C centre"]
    assert run([*frames, frame("5C@400,500")]) == ["2 +TH seat1.back", "2 +5C centre", "14 -TH seat1.back"]


def test_a_trick_gathered_is_removed_in_the_order_it_was_played() -> None:
    trick = ["9S@450,450", "KS@550,450", "2S@550,550", "AS@450,550"]
    frames = [frame(" ".join(trick[: 1 + n // 4])) for n in range(16)] + repeat("", 10)
    events = run(frames)
    assert events[4:] == [f"25 -{code[:2]} centre" for code in trick]
    assert events[:4] == [f"{2 + 4 * n} +{code[:2]} centre" for n, code in enumerate(trick)]


def test_the_top_card_taken_from_a_pile_is_removed() -> None:
    """A gin discard pile: 8C lies on 4H; taking 8C shows 4H again, and 8C goes though its centre is within 4H's
    outline (4H arrived first, so it cannot be lying over 8C)."""
    frames = repeat("4H@500,500", 4) + repeat("4H@500,500 8C@505,510", 4) + repeat("4H@500,500", 10)
    assert run(frames) == ["2 +4H centre", "6 +8C centre", "17 -8C centre"]


def test_a_card_under_another_card_is_not_removed_until_its_spot_shows() -> None:
    """A gin discard pile: 4H covered by 8C laid over it stays; when the pile is taken, both go."""
    frames = repeat("4H@500,500", 4) + repeat("8C@505,510", 30) + repeat("", 10)
    assert run(frames) == ["2 +4H centre", "6 +8C centre", "43 -4H centre", "43 -8C centre"]


# A hand over the table

def test_a_hand_passing_over_does_not_remove_cards() -> None:
    """Cards hidden for fewer than ten frames (a hand dealing over them) come back without events."""
    cards = "TH@400,950 5C@500,950 JD@600,950 2S@500,500"
    frames = repeat(cards, 4) + repeat("2S@500,500", 9) + repeat(cards, 20)
    assert run(frames) == ["2 +TH seat1.back", "2 +5C seat1.back", "2 +JD seat1.back", "2 +2S centre"]


def sweep(cards: dict[str, Point], steps: int, hand_width: float = 260) -> tuple[list[list[CardSighting]], list]:
    """A hand sweeping from the left edge to the right over the table: the cards under it vanish and its edge makes
    odd unread detections. Returns the frames and the hand's outline in each (what a hand detector would give)."""
    frames, hands = [], []
    rng = random.Random(9)
    for step in range(steps):
        left = -hand_width + step * (1000 + hand_width) / (steps - 1)
        right = left + hand_width
        hand = ((left, 600.0), (right, 600.0), (right, 1000.0), (left, 1000.0))
        visible = [card(code, x, y) for code, (x, y) in cards.items() if not left <= x <= right]
        noise = [card("??", right + rng.uniform(-30, 10), rng.uniform(600, 1000), (20, 20))
                 for _ in range(5 if 0 < right < 1000 else 0)]
        frames.append(visible + noise)
        hands.append([hand])
    return frames, hands


SEAT1 = {"TH": (400.0, 950.0), "5C": (500.0, 950.0), "JD": (600.0, 950.0), "QS": (500.0, 750.0)}
SPEC = " ".join(f"{code}@{x:.0f},{y:.0f}" for code, (x, y) in SEAT1.items())
SETTLED = ["2 +TH seat1.back", "2 +5C seat1.back", "2 +JD seat1.back", "2 +QS seat1.front"]


def test_a_slow_hand_with_odd_detections_removes_nothing() -> None:
    """The hand covers each card for about 14 frames, more than ten, but the burst of odd detections it makes
    marks those frames as disturbed."""
    frames, _ = sweep(SEAT1, 50)
    assert run(repeat(SPEC, 3) + frames + repeat(SPEC, 20)) == SETTLED


def test_a_slow_quiet_hand_removes_nothing_when_the_hand_is_marked_hidden() -> None:
    frames, hands = sweep(SEAT1, 50)
    quiet = [[s for s in sightings if s.card] for sightings in frames]  # no odd detections at all
    all_frames = repeat(SPEC, 3) + quiet + repeat(SPEC, 20)
    assert run(all_frames, hidden=[[]] * 3 + hands + [[]] * 20) == SETTLED
    # Without the hand's outline or its odd detections, a card hidden over ten frames counts as gone (and back).
    assert run(all_frames) == [*SETTLED, "28 -TH seat1.back", "31 +TH seat1.back", "32 -5C seat1.back",
                               "32 -QS seat1.front", "35 +5C seat1.back", "35 +QS seat1.front",
                               "36 -JD seat1.back", "39 +JD seat1.back"]


def test_a_hand_that_takes_a_card_away() -> None:
    frames, _ = sweep(SEAT1, 20)
    taken = [[s for s in sightings if s.code != "5C" or n < 8] for n, sightings in enumerate(frames)]
    rest = " ".join(f"{c}@{x:.0f},{y:.0f}" for c, (x, y) in SEAT1.items() if c != "5C")
    # Taken at frame 11; the hand's odd detections disturb frames up to 18; ten quiet frames later, it is gone.
    assert run(repeat(SPEC, 3) + taken + repeat(rest, 20)) == [*SETTLED, "28 -5C seat1.back"]


def test_a_hand_half_over_a_card_does_not_remove_it() -> None:
    """The card is found but not read while a hand rests on its index: still the same card."""
    frames = repeat("AH@500,500", 3) + repeat("??@508,493", 40) + repeat("AH@500,500", 3)
    assert run(frames) == ["2 +AH centre"]


# Moves and zones

def test_a_card_moved_to_another_zone_leaves_one_and_appears_in_the_other() -> None:
    frames = repeat("TH@500,950 2C@400,950", 4) + repeat("2C@400,950", 2) + repeat("TH@520,480 2C@400,950", 5)
    assert run(frames) == ["2 +TH seat1.back", "2 +2C seat1.back", "8 -TH seat1.back", "8 +TH centre"]


def test_a_card_on_a_zone_edge_keeps_its_zone_however_it_jitters() -> None:
    frames = [frame(f"6H@500,{700 + (-2 if n % 2 else 2)}") for n in range(30)]
    assert run(frames) == ["2 +6H seat1.front"]


def test_a_card_pushed_slowly_across_an_edge_changes_zone_once_it_has_really_moved() -> None:
    frames = [frame(f"6H@500,{760 - 4 * n}") for n in range(30)]  # from the front row into the centre
    assert run(frames) == ["2 +6H seat1.front", "18 -6H seat1.front", "18 +6H centre"]


# Order of play

def test_cards_appear_in_the_order_they_arrived_even_when_the_first_flickers() -> None:
    """Pegging: seat 1 plays 5H at frame 0, seat 2 plays TC at frame 1; 5H's detection drops at frame 2, so TC
    is steady first, but 5H is announced first."""
    frames = [frame("5H@500,750"), frame("5H@500,750 TC@250,500"), frame("TC@250,500"),
              *repeat("5H@500,750 TC@250,500", 3)]
    tracker = Tracker()
    assert run(frames, tracker) == ["5 +5H seat1.front", "5 +TC seat2.front"]
    assert [s.code for s in tracker.table()] == ["5H", "TC"]


def test_cards_settling_in_the_same_frame_are_ordered_by_when_they_were_first_seen() -> None:
    frames = [frame("KD@400,500"), frame("QD@600,500 KD@400,500"), frame("QD@600,500"), frame("QD@600,500"),
              *repeat("QD@600,500 KD@400,500", 3)]
    assert run(frames) == ["6 +KD centre", "6 +QD centre"]


def test_a_settling_phantom_holds_back_later_cards_only_for_a_while() -> None:
    """An unread glare spot flickering from frame 0 delays the card laid at frame 1 by at most ten frames."""
    frames = [frame(("??@300,300 " if n % 2 == 0 else "") + ("9C@500,500" if n else "")) for n in range(20)]
    events = run(frames)
    assert events == ["10 +9C centre"]


def test_a_pegging_sequence_is_reported_in_the_order_of_play() -> None:
    plays = ["5H@350,750", "TC@250,400", "5D@420,750", "JS@250,480", "5S@490,750", "QH@250,560"]
    frames, laid = [], []
    for play in plays:
        laid.append(play)
        frames += [frame(" ".join(laid))] * 2  # a card every two frames: faster than they settle
    events = run(frames + repeat(" ".join(laid), 5))
    assert [event.split()[1] for event in events] == ["+" + play[:2] for play in plays]


# Unknown cards

def test_an_unknown_card_is_tracked_and_then_read() -> None:
    tracker = Tracker()
    frames = repeat("??@500,500 3C@400,950", 5) + repeat("8D@503,498 3C@400,950", 5)
    events = []
    for sightings in frames:
        events += tracker.update(sightings)
    assert [str(e) for e in events] == [
        "frame 2: ?? appeared in centre (arrived frame 0, track 1)",
        "frame 2: 3C appeared in seat1.back (arrived frame 0, track 2)",
        "frame 7: ?? removed from centre (arrived frame 0, track 1)",
        "frame 7: 8D appeared in centre (arrived frame 0, track 1)",
    ]
    assert events[0].card is None and events[3].card == Card.parse("8D")


def test_an_unread_card_in_a_fanned_hand_is_its_own_card() -> None:
    """A hand fanned 15 pixels a card: the unread one among read neighbours is a card to adjust, not a neighbour
    half covered; when it is read, it takes its place in the order."""
    fan = "4S@440,950 ??@455,950 6S@470,950"
    frames = repeat(fan, 4) + repeat(fan.replace("??", "5S"), 4)
    assert run(frames) == ["2 +4S seat1.back", "2 +?? seat1.back", "2 +6S seat1.back",
                           "6 -?? seat1.back", "6 +5S seat1.back"]


def test_a_card_laid_next_to_an_unread_one_does_not_take_its_place() -> None:
    frames = repeat("??@500,500", 4) + repeat("??@500,500 JC@512,505", 4)
    assert run(frames) == ["2 +?? centre", "6 +JC centre"]


def test_unknown_cards_in_different_places_are_different_cards() -> None:
    frames = repeat("??@400,500 ??@600,500 ??@500,950", 4) + repeat("??@400,500 ??@600,500", 10)
    assert run(frames) == ["2 +?? centre", "2 +?? centre", "2 +?? seat1.back", "13 -?? seat1.back"]


def test_a_card_read_in_a_new_place_leaves_its_old_place_at_once() -> None:
    """One deck: 7S moves from seat 1 to the centre, unread there at first; when it is read, it leaves seat 1."""
    frames = repeat("7S@500,950", 3) + repeat("??@500,500", 4) + repeat("7S@500,500", 3)
    assert run(frames) == ["2 +7S seat1.back", "5 +?? centre", "9 -7S seat1.back", "9 -?? centre",
                           "9 +7S centre"]


def test_a_burst_of_odd_detections_does_not_count_as_a_visible_frame() -> None:
    def burst(n: int) -> str:  # a hand's odd detections, somewhere else each frame
        return " ".join(f"??@{100 + 90 * k + 7 * n},{150 + 70 * (k % 3) + 11 * n}" for k in range(5))

    frames = repeat("2H@500,500", 3) + [frame(burst(n) if n % 2 else "") for n in range(18)]
    assert run(frames) == ["2 +2H centre"]  # 9 quiet frames: not yet gone
    assert run([*frames, frame("")]) == ["2 +2H centre", "21 -2H centre"]


def test_a_long_burst_of_odd_detections_leaves_no_tracks_behind() -> None:
    """A patterned cloth under a moving hand for 200 frames: every frame is disturbed, and its noise is forgotten."""
    tracker = Tracker()
    rng = random.Random(3)
    for _ in range(200):
        noise = " ".join(f"??@{rng.uniform(0, 1000):.0f},{rng.uniform(0, 1000):.0f}" for _ in range(6))
        assert tracker.update(frame("2H@500,500 " + noise)) == [] or tracker.frame == 2
    assert len(tracker._tracks) <= 1 + 6 * 11
    assert [s.code for s in tracker.table()] == ["2H"]


def test_settings_are_checked() -> None:
    assert Settings().steady == 3
    for bad in ({"absent": 0}, {"burst": True}, {"wait": -1}, {"steady": 2.5}):
        with pytest.raises(ValueError, match=f"tracker setting '{next(iter(bad))}' must be a whole number of at least"):
            Settings(**bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="'near' must be a positive distance"):
        Settings(near=0)
    with pytest.raises(ValueError, match="'still' must be a positive distance"):
        Settings(still=-1.0)
    assert run(repeat("TH@500,950", 5), Tracker(Settings(steady=5))) == ["4 +TH seat1.back"]


# Rendered frames: white cards on a wooden table and a hand sliding over them, found by a stand-in detector that
# reads a card by the colour of its middle when the whole card shows, and reports what is left of a partly
# covered card as unread, with its centre where the visible part is.

MARKS = {"AS": (255, 0, 0), "KH": (0, 200, 0), "QD": (0, 0, 255), "JC": (0, 220, 220)}
SMALL_TABLE = Calibration.default(4, size=(480, 360))


def render(cards: dict[str, Point], hand_left: float) -> "np.ndarray":
    image = np.full((360, 480, 3), (70, 120, 170), np.uint8)  # wood
    for code, (x, y) in cards.items():
        cv2.rectangle(image, (int(x - 20), int(y - 28)), (int(x + 20), int(y + 28)), (255, 255, 255), -1)
        cv2.rectangle(image, (int(x - 5), int(y - 5)), (int(x + 5), int(y + 5)), MARKS[code], -1)
    cv2.rectangle(image, (int(hand_left), 230), (int(hand_left + 90), 359), (120, 160, 210), -1)  # a hand
    return image


def detect(image: "np.ndarray") -> list[CardSighting]:
    face = np.zeros(image.shape[:2], np.uint8)
    for colour in [(255, 255, 255), *MARKS.values()]:
        face[(image == colour).all(axis=2)] = 255
    found = []
    for contour in cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        if cv2.contourArea(contour) < 150:
            continue
        (x, y), (w, h), _ = cv2.minAreaRect(contour)
        outline = tuple((float(px), float(py)) for px, py in cv2.boxPoints(((x, y), (w, h), 0)))
        mark = tuple(int(v) for v in image[int(y), int(x)])
        code = next((c for c, colour in MARKS.items() if colour == mark), None) if abs(w * h - 41 * 57) < 200 else None
        found.append(CardSighting(Card.parse(code) if code else None, (x, y), outline, 0.9))
    return SMALL_TABLE.assign_zones(sorted(found, key=lambda s: s.center))


def test_rendered_frames_of_a_hand_sliding_over_a_dealt_hand() -> None:
    dealt = {"AS": (170.0, 305.0), "KH": (220.0, 305.0), "QD": (270.0, 305.0), "JC": (320.0, 305.0)}
    still = [detect(render(dealt, -200)) for _ in range(3)]
    passing = [detect(render(dealt, left)) for left in range(-90, 480, 10)]
    assert run(still + passing + still * 5) == [f"2 +{code} seat1.middle" for code in dealt]
    # The same hand, but it takes the king away as it passes over it.
    taking = [detect(render({c: p for c, p in dealt.items() if c != "KH" or left < 200}, left))
              for left in range(-90, 480, 10)]
    gone = {c: p for c, p in dealt.items() if c != "KH"}
    assert run(still + taking + [detect(render(gone, -200))] * 15)[4:] == ["36 -KH seat1.middle"]
