"""The card reader on a camera's stream: ``LiveReader`` (read again only where the table changed) against
``read_cards`` on every frame whole: CPU ms a frame on one core, the cards each misread against what lies on
the table (``device.demo.recording.misreads``), and the frames where the two readers differ.

Three streams, each frame with fresh camera noise (a standard deviation of ``--noise`` levels in every channel):
- the demo's five recordings, as the kiosk plays them (833 frames: cards laid, moved and gathered);
- a 30-card table dealt a card at a time onto a four-seat grid, three still frames after each card, and a
  hand jumping across the table and back (a third of it a frame) after every tenth card;
- a 30-card table with a hand gliding across it slowly and back quickly (20 and 60 of the demo's pixels a
  frame), as a hand moves over a real table.

``--size`` sets the camera's resolution: the same tables as a camera of that many pixels sees them (the cards
drawn at that resolution from the deck's faces; at 2304x1296, the Pi camera's stream, indices of about 28 px
from rank to suit, 15 px at the demo's 1280x720).

    .venv/bin/python -m benchmarks.live_reading [--noise 3] [--size 2304x1296]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: set before NumPy loads its BLAS

import argparse  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from dataclasses import replace  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from device.demo.recording import Playback, deck, misreads, recordings  # noqa: E402
from device.demo.stage import BACK, CARD_HEIGHT, SIZE, Pose, Stage, camera, draw_card  # noqa: E402
from scoring.cards import DECK  # noqa: E402
from vision.cards import read_cards  # noqa: E402
from vision.live import LiveReader  # noqa: E402
from vision.observations import CardSighting, same_cards  # noqa: E402

Frames = Iterator[tuple[str, np.ndarray, Stage]]
"""Each frame of a stream, with the table it shows; a new table's first frame is named."""


def recorded(zoom: float) -> Frames:
    """Every frame of the demo's recordings, ``zoom`` times the demo's resolution."""
    for recording in recordings():
        playback = Playback(recording)
        while not playback.done:
            frame = playback.read()
            yield (recording.name if playback.frame == 0 else ""), at_zoom(frame, playback.stage, zoom), playback.stage


def dealt(zoom: float, cards: int = 30, seed: int = 5) -> Frames:
    """A table dealt ``cards`` cards one at a time, with a hand passing over after every tenth, ``zoom`` times the
    demo's resolution: the hand jumps a third of the table a frame."""
    rng = np.random.default_rng(seed)
    stage = Stage(deck(), seed=seed)
    for k, pose in enumerate(_deal(rng, cards)):
        stage.put(pose)
        for still in range(4):
            yield ("dealt" if k == still == 0 else ""), at_zoom(stage.image(), stage, zoom), stage
        if k % 10 == 9:
            for step in range(8):  # across and back
                centre = (100 + 1080 * (1 - abs(step - 3.5) / 3.5), rng.uniform(200, 500))
                yield "", _with_hand(at_zoom(stage.image(), stage, zoom), centre, zoom), stage


def glided(zoom: float, cards: int = 30, seed: int = 5) -> Frames:
    """A table of ``cards`` cards dealt as ``dealt`` deals them (no hand passing meanwhile, so the later cards lie
    a little otherwise), with a hand gliding across it, 20 of the demo's pixels a frame (about 0.3 m/s at 30
    frames a second over a table a metre wide), and back at 60 (about 1 m/s); the table still before, between
    and after."""
    stage = Stage(deck(), seed=seed)
    for pose in _deal(np.random.default_rng(seed), cards):
        stage.put(pose)
    table = at_zoom(stage.image(), stage, zoom)
    yield "glided", table, stage
    for step in (20, -60):
        xs = np.arange(50, 1231, step) if step > 0 else np.arange(1230, 49, step)
        for x in xs:
            yield "", _with_hand(table, (float(x), 350.0), zoom), stage
        for _ in range(3):
            yield "", table, stage


def _deal(rng: np.random.Generator, cards: int) -> Iterator[Pose]:
    """``cards`` cards of a shuffled deck dealt on a grid of six columns, each a little askew (turned as it is
    dealt: ``rng`` may serve others between cards)."""
    spots = [(160 + 190 * (k % 6) + rng.uniform(-20, 20), 110 + 125 * (k // 6) + rng.uniform(-10, 10))
             for k in range(cards)]
    for (x, y), card in zip(spots, rng.permutation(len(DECK))[:cards], strict=True):
        yield Pose(DECK[card].code, x, y, float(rng.uniform(-0.4, 0.4)))


def _with_hand(frame: np.ndarray, centre: tuple[float, float], zoom: float) -> np.ndarray:
    """The frame with a hand (an arm's skin-coloured blob) over it at ``centre`` (the demo's pixels)."""
    out = frame.copy()
    cv2.ellipse(out, (int(zoom * centre[0]), int(zoom * centre[1])), (round(110 * zoom), round(70 * zoom)), 20.0,
                0, 360, (120, 150, 205), -1)
    return out


_drawn: dict[tuple[int, float], np.ndarray] = {}


def at_zoom(image: np.ndarray, stage: Stage, zoom: float) -> np.ndarray:
    """The demo's frame of ``stage`` (``image``) as a camera of ``zoom`` times its resolution sees it: the frame
    scaled up, and every card drawn again over it at that resolution, bottom to top (the last frame kept)."""
    if zoom == 1.0:
        return image
    key = (zlib.crc32(image), zoom)
    if key not in _drawn:
        size = (round(image.shape[1] * zoom), round(image.shape[0] * zoom))
        frame = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
        for pose in stage.cards():
            at = replace(pose, x=pose.x * zoom, y=pose.y * zoom)
            draw_card(frame, stage.deck.faces[BACK if pose.down else pose.code], at.quad(CARD_HEIGHT * zoom))
        _drawn.clear()
        _drawn[key] = frame
    return _drawn[key]


def in_demo_pixels(seen: list[CardSighting], zoom: float) -> list[CardSighting]:
    """Sightings in a frame ``zoom`` times the demo's resolution, placed in the demo's pixels."""
    return [replace(s, center=(s.center[0] / zoom, s.center[1] / zoom)) for s in seen]


def measure(stream: Frames, noise: float, rng: np.random.Generator, zoom: float) -> dict[str, list[float]]:
    """CPU ms of each frame both ways, the cards each misread, the share of the frame the live reader read,
    and whether the two agree."""
    cv2.setNumThreads(1)
    live = LiveReader()
    out: dict[str, list[float]] = {"whole": [], "live": [], "share": [], "differ": [], "whole misread": [],
                                   "live misread": []}
    for name, image, stage in stream:
        if name:
            live = LiveReader()  # each recording is a table of its own
        frame = camera(image, rng, noise)
        start = time.process_time()
        whole = read_cards(frame)
        middle = time.process_time()
        seen = live(frame)
        end = time.process_time()
        out["whole"].append((middle - start) * 1000)
        out["live"].append((end - middle) * 1000)
        out["share"].append(live.read_share)
        whole, seen = in_demo_pixels(whole, zoom), in_demo_pixels(seen, zoom)  # "the same" within the demo's pixels
        out["differ"].append(float(not same_cards(seen, whole)))
        out["whole misread"].append(len(misreads(stage, whole)))
        out["live misread"].append(len(misreads(stage, seen)))
    return out


def report(title: str, figures: dict[str, list[float]]) -> None:
    whole, live, share = (np.array(figures[k]) for k in ("whole", "live", "share"))

    def ms(times: np.ndarray) -> str:
        return (f"median {np.median(times):.1f}, p90 {np.percentile(times, 90):.1f}, "
                f"p99 {np.percentile(times, 99):.1f}, mean {times.mean():.1f} ms")

    def wrong(way: str) -> str:
        counts = np.array(figures[f"{way} misread"])
        return f"{int(counts.sum())} cards misread in {int(np.count_nonzero(counts))} frames"

    print(f"{title}: {len(whole)} frames; the two readers' cards differ in {int(sum(figures['differ']))}")
    print(f"  whole frames: {ms(whole)}; {wrong('whole')}")
    print(f"  live:         {ms(live)}; {wrong('live')}")
    print(f"  share of each frame read {share.mean():.3f} on average; frames read whole {np.mean(share == 1):.1%}, "
          f"in crops {np.mean((share > 0) & (share < 1)):.1%}, not read {np.mean(share == 0):.1%}")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--noise", type=float, default=3.0, help="camera noise, levels (standard deviation)")
    options.add_argument("--size", default="1280x720", help="the camera's resolution, WIDTHxHEIGHT (16:9)")
    args = options.parse_args()
    width, _, height = args.size.partition("x")
    if not (width.isdigit() and height.isdigit()) or int(width) * SIZE[1] != int(height) * SIZE[0]:
        options.error(f"--size {args.size}: expected WIDTHxHEIGHT at 16:9, like 2304x1296")
    zoom = int(width) / SIZE[0]
    read_cards(np.zeros((720, 1280, 3), np.uint8))  # load the model
    rng = np.random.default_rng(11)
    print(f"frames of {width}x{height}")
    report("the demo's recordings", measure(recorded(zoom), args.noise, rng, zoom))
    report("a 30-card table dealt, a hand passing", measure(dealt(zoom), args.noise, rng, zoom))
    report("a 30-card table, a hand gliding across and back", measure(glided(zoom), args.noise, rng, zoom))


if __name__ == "__main__":
    main()
