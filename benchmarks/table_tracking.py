"""What zones and the tracker cost per frame, beside the card reader's 25 ms budget for a 1280x720 frame.

A simulated evening's table: 30 cards on a four-seat table seen in perspective, dealt a few a frame, with
detection jitter, a card in ten dropping out each frame, an unread sighting or two, and a hand's burst of odd
detections every 40 frames. Each frame's sightings get their zones (``Calibration.assign_zones``) and go to
``Tracker.update``; the script prints the per-frame times (CPU time of this process: one core) and checks the
events (every card appears once, none is removed).

    .venv/bin/python benchmarks/table_tracking.py [--frames 3000] [--cards 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from scoring.cards import DECK
from vision.observations import CardSighting
from vision.tracker import Tracker
from vision.zones import Calibration, default_zones

CORNERS = ((210.0, 80.0), (1130.0, 95.0), (900.0, 650.0), (330.0, 610.0))


def frames(count: int, cards: int, seed: int = 9) -> list[list[CardSighting]]:
    """The sightings of ``count`` frames of a table with ``cards`` cards dealt onto it."""
    rng = random.Random(seed)
    spots = [(rng.uniform(340, 880), rng.uniform(110, 600)) for _ in range(cards)]
    deck = rng.sample(DECK, cards)
    result = []
    for number in range(count):
        dealt = min(cards, number // 2 + 1)
        seen = []
        for card, (x, y) in zip(deck[:dealt], spots[:dealt], strict=True):
            if rng.random() < 0.1:
                continue  # dropped out this frame
            x, y = x + rng.gauss(0, 1), y + rng.gauss(0, 1)
            outline = ((x - 25, y - 35), (x + 25, y - 35), (x + 25, y + 35), (x - 25, y + 35))
            seen.append(CardSighting(None if rng.random() < 0.03 else card, (x, y), outline, 0.98))
        if number % 40 == 39:
            seen += [CardSighting(None, (rng.uniform(0, 1280), rng.uniform(0, 720)), (), 0.3) for _ in range(6)]
        result.append(seen)
    return result


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--frames", type=int, default=3000)
    options.add_argument("--cards", type=int, default=30)
    args = options.parse_args()
    calibration = Calibration(CORNERS, default_zones(4), size=(1280, 720))
    tracker = Tracker()
    zone_times, track_times, events = [], [], []
    for sightings in frames(args.frames, args.cards):
        start = time.process_time()
        placed = calibration.assign_zones(sightings)
        middle = time.process_time()
        events += tracker.update(placed)
        zone_times.append(middle - start)
        track_times.append(time.process_time() - middle)
    appeared = sorted(e.sighting.code for e in events if e.kind == "appeared" and e.card)
    removed = [e for e in events if e.kind == "removed"]
    print(f"{args.frames} frames, {args.cards} cards: {len(appeared)} appeared, {len(removed)} removed "
          f"(expected {args.cards} and 0)")
    for name, times in (("assign_zones", zone_times), ("tracker.update", track_times),
                        ("both", [a + b for a, b in zip(zone_times, track_times, strict=True)])):
        full = times[args.frames // 2:]  # once every card is dealt
        print(f"{name:>15}: mean {statistics.fmean(full) * 1e3:.3f} ms, "
              f"p95 {sorted(full)[int(len(full) * 0.95)] * 1e3:.3f} ms per frame ({args.cards} cards, one core)")


if __name__ == "__main__":
    main()
