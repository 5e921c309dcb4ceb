"""Train the index-corner reader from synthetic card tables: ``python -m vision.train``.

The data recipe, all regenerated from seeds (nothing downloaded, no real photo used):

1. ``vision.render.table_scene`` draws a frame (1280x720 down to 384x288, landscape or portrait) of one or two random
   deck designs (index fonts from ``render.RANK_FONTS``; ``render.HELD_OUT_FONTS`` are kept for testing),
   laid out singly, fanned, in overlapping melds or in grids, with backs, chips, dice and hands, under
   uneven light, glare, blur, noise and JPEG loss;
2. ``vision.corners.candidates`` proposes rank-over-suit pairs exactly as at run time;
3. a candidate is labelled with its card when its rank mark is on a visible index's rank and its partner
   on that index's suit, "not an index" when it is nowhere near a visible index, and left out when it
   is near an index hidden under something (neither answer is right there);
4. the two-headed reader of ``vision.glyphs`` is fitted by Adam on all positives and a sample of the
   negatives, and so is the small screen (on the coarse view of the same samples); the screen's pass
   mark is set so that it keeps ``SCREEN_KEEPS`` of the training index corners; all is saved with the
   median card geometry (card height and centre in index units).

Options: ``--scenes N`` (default 6000), ``--epochs`` (24), ``--hidden`` (256), ``--screen-hidden`` (24),
``--seed``, ``--out``, ``--jobs`` (2). The committed model was made with the defaults, in about 25 minutes on 2 busy cores.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from vision import corners, glyphs, render

SIZES = ((720, 1280), (540, 960), (504, 378), (378, 504), (288, 384), (384, 288))
NEGATIVE_SHARE = 0.35
JITTERED = 2  # extra copies of each index corner, turned, shifted and scaled a little
SCREEN_KEEPS = 0.998  # share of the training index corners the screen lets through


def scene_samples(seed: int, fonts: tuple[str, ...] = tuple(render.RANK_FONTS)) -> dict[str, np.ndarray]:
    """Features (uint8, 0..255), rank and suit labels and card geometry from one synthetic scene."""
    rng = np.random.default_rng(seed)
    size = SIZES[seed % len(SIZES)]
    scene = render.table_scene(rng, size=size, fonts=render.available(fonts))
    planes = corners.Planes(scene.image)
    found = corners.candidates(planes)
    rank_label, suit_label, geometry = label(scene, found)
    positive = (rank_label >= 0) & (rank_label < glyphs.NOT_INDEX_RANK)
    negative = (rank_label == glyphs.NOT_INDEX_RANK) & (rng.random(len(found)) < NEGATIVE_SHARE)
    copies = [np.nonzero(positive)[0]] * JITTERED
    keep = np.concatenate([np.nonzero(positive | negative)[0], *copies])
    n = len(keep)
    jitter = np.arange(n) >= n - sum(len(c) for c in copies)
    x = corners.features(planes, found[keep].varied(np.where(jitter, rng.normal(0, 0.08, n), 0.0),
                                                    np.where(jitter, rng.uniform(0.9, 1.1, n), 1.0),
                                                    np.where(jitter[:, None], rng.normal(0, 0.06, (n, 2)), 0.0)))
    return {"x": (x * 255).round().astype(np.uint8), "rank": rank_label[keep], "suit": suit_label[keep],
            "geometry": geometry}


def label(scene: render.Scene, found: corners.Candidates) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rank and suit class per candidate (-1: left out) and (x, y, height) of the card per positive."""
    n = len(found)
    rank = np.full(n, glyphs.NOT_INDEX_RANK)
    suit = np.full(n, glyphs.NOT_INDEX_SUIT)
    geometry = []
    suit_at = found.rank + found.down * found.scale[:, None]
    for pc in scene.cards:
        for r, s, _height, visible in pc.marks:
            d = float(np.linalg.norm(s - r))
            near = np.linalg.norm(found.rank - r, axis=1)
            if not visible:
                rank[(near < 1.2 * d) & (rank == glyphs.NOT_INDEX_RANK)] = -1
                continue
            hit = (near < 0.45 * d) & (np.linalg.norm(suit_at - s, axis=1) < 0.35 * d)
            rank[hit] = glyphs.RANKS.index(pc.card.rank)
            suit[hit] = glyphs.SUITS.index(pc.card.suit)
            centre = np.array(pc.center)
            card_height = float(np.linalg.norm(pc.outline[3] - pc.outline[0]))
            for k in np.nonzero(hit)[0]:
                delta = centre - found.rank[k]
                right = found.right[k]
                geometry.append((delta @ right / found.scale[k], delta @ found.down[k] / found.scale[k],
                                 card_height / found.scale[k]))
    suit[rank == -1] = -1
    return rank, suit, np.array(geometry, np.float32).reshape(-1, 3)


def fit(x: np.ndarray, y_rank: np.ndarray, y_suit: np.ndarray, hidden: int, epochs: int,
        rng: np.random.Generator) -> glyphs.Network:
    """Adam on the summed cross-entropy of both heads, with a step-down learning rate."""
    net = glyphs.Network.fresh(rng, x.shape[1], hidden)
    names = ("w1", "b1", "wr", "br", "ws", "bs")
    m = {k: np.zeros_like(getattr(net, k)) for k in names}
    v = {k: np.zeros_like(getattr(net, k)) for k in names}
    step, batch = 0, 256
    for epoch in range(epochs):
        lr = 2e-3 * (0.1 if epoch >= epochs * 0.8 else 1.0)
        order = rng.permutation(len(x))
        loss = 0.0
        for start in range(0, len(x), batch):
            idx = order[start:start + batch]
            xb = x[idx].astype(np.float32) / 255
            h = net.hidden(xb)
            pr, ps = glyphs.softmax(h @ net.wr + net.br), glyphs.softmax(h @ net.ws + net.bs)
            rows = np.arange(len(idx))
            loss -= float(np.log(pr[rows, y_rank[idx]] + 1e-9).sum() + np.log(ps[rows, y_suit[idx]] + 1e-9).sum())
            pr[rows, y_rank[idx]] -= 1
            ps[rows, y_suit[idx]] -= 1
            pr /= len(idx)
            ps /= len(idx)
            dh = (pr @ net.wr.T + ps @ net.ws.T) * (h > 0)
            grads = {"w1": xb.T @ dh, "b1": dh.sum(0), "wr": h.T @ pr, "br": pr.sum(0), "ws": h.T @ ps,
                     "bs": ps.sum(0)}
            step += 1
            for k in names:
                g = grads[k] + (1e-4 * getattr(net, k) if k.startswith("w") else 0)
                m[k] = 0.9 * m[k] + 0.1 * g
                v[k] = 0.999 * v[k] + 0.001 * g * g
                update = lr * (m[k] / (1 - 0.9**step)) / (np.sqrt(v[k] / (1 - 0.999**step)) + 1e-8)
                setattr(net, k, (getattr(net, k) - update).astype(np.float32))
        print(f"epoch {epoch + 1}/{epochs}: loss {loss / len(x):.4f}", flush=True)
    return net


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=6000)
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--screen-hidden", type=int, default=24)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=glyphs.MODEL)
    args = parser.parse_args(argv)
    started = time.time()
    seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.scenes)
    parts = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(scene_samples, seeds, chunksize=8):
            parts.append(part)
            if len(parts) % 200 == 0:
                print(f"{len(parts)} scenes, {time.time() - started:.0f} s", flush=True)
    x = np.concatenate([p["x"] for p in parts])
    y_rank = np.concatenate([p["rank"] for p in parts])
    y_suit = np.concatenate([p["suit"] for p in parts])
    geometry = np.concatenate([p["geometry"] for p in parts])
    positives = int((y_rank < glyphs.NOT_INDEX_RANK).sum())
    print(f"{len(x)} samples ({positives} index corners) from {args.scenes} scenes in {time.time() - started:.0f} s")
    net = fit(x, y_rank, y_suit, args.hidden, args.epochs, np.random.default_rng(args.seed))
    coarse = np.concatenate([glyphs.screen_view(x[k:k + 65536]) for k in range(0, len(x), 65536)])
    screen = fit(coarse, y_rank, y_suit, args.screen_hidden, args.epochs, np.random.default_rng(args.seed + 1))
    positive = y_rank < glyphs.NOT_INDEX_RANK
    index = np.concatenate([screen.index(coarse[k:k + 65536][positive[k:k + 65536]].astype(np.float32) / 255)
                            for k in range(0, len(x), 65536)])
    screen_pass = float(np.quantile(index, 1 - SCREEN_KEEPS))
    kept = float(np.mean(np.concatenate([screen.index(coarse[k:k + 65536][~positive[k:k + 65536]]
                                                                 .astype(np.float32) / 255) >= screen_pass
                                         for k in range(0, len(x), 65536)])))
    print(f"screen pass mark {screen_pass:.4f}: keeps {SCREEN_KEEPS:.1%} of index corners, {kept:.1%} of the rest")
    centre_x, centre_y, height = (float(v) for v in np.median(geometry, axis=0))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    glyphs.Reader(net, screen, screen_pass, {"centre_x": centre_x, "centre_y": centre_y, "card_height": height}
                  ).save(args.out)
    print(f"saved {args.out} after {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
