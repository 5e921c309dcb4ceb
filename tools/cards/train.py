"""Train the index-corner reader from synthetic card tables: ``python -m tools.cards.train``.

The data recipe, all regenerated from seeds and ``../shared/data`` (nothing downloaded):

1. ``tools.cards.render.table_scene`` draws a frame (1280x720 down to 384x288, landscape or portrait) of one or two random
   deck designs (index fonts from ``render.RANK_FONTS``; ``render.HELD_OUT_FONTS`` are kept for testing; with
   ``--deck-scenes``, more scenes whose designs are mostly the real public-domain decks, ``render.TRAINING_DECKS``;
   the (L)GPL decks, ``render.HELD_OUT_DECKS``, are kept for testing),
   laid out singly, fanned, in overlapping melds or in grids, with backs, chips, dice and hands, under
   uneven light, glare, blur, noise and JPEG loss; ``--hard-scenes`` adds scenes with what real photos show
   and those never do (``table_scene``'s ``hard``: court pictures framed right beside the index, ornate
   aces of spades, more small cards, heavier and motion blur, and the ranks whose small indices real photos
   confuse, ``render.HARD_RANKS``, dealt three times as often);
2. ``vision.corners.candidates`` proposes rank-over-suit pairs exactly as at run time;
3. a candidate is labelled with its card when its rank mark is on a visible index's rank and its partner
   on that index's suit, "not an index" when it is nowhere near a visible index, and left out when it
   is near an index hidden under something (neither answer is right there); with ``--photos DIR``, the
   colour photos of light-faced decks of the real photos' ``train`` split are labelled alike from their
   labelled corner boxes (``photo_samples``) and added;
4. the convolutional reader (``conv_net``) is fitted by PyTorch (AdamW, one-cycle learning rate) on all
   positives and a sample of the negatives, checked after each epoch on validation scenes drawn with
   the held-out fonts (seeds from ``VALIDATION_SEED``, apart from the benchmark's), and exported to ONNX
   for ``cv2.dnn`` (the run time needs no PyTorch); a batch of rows with PyTorch's logits for them is
   saved with it, so the tests check that ``cv2.dnn`` reads the file as PyTorch did;
5. the small NumPy screen (``glyphs.Sieve``) is fitted (``fit_screen``) on the coarse view of the same
   samples to foretell the exported reader's own verdict (``reader_keeps``): a row is a positive when it
   is an index corner that the reader keeps for a second look, a negative when it is neither (the few rows
   where label and reader disagree are left out); its pass mark is set on the validation scenes, to keep
   ``SCREEN_KEEPS`` of their index corners that the reader keeps; it is saved with the median card
   geometry (card height and centre in index units);
6. the looks in front of it (``glyphs.Look``: each another ``glyphs.Sieve``, of one ReLU layer) are
   fitted the same way, to the same targets, finest first, each on the glance at its stride of each row
   (``patches.glance_view``: one point in ``stride`` each way of the patch, renormalised by their own
   contrast, which is what ``patches.glance_blocks`` samples from a frame at a fraction of the cost of a
   full row: so it is derived from the stored rows, no scene is rendered again); each look's pass mark
   keeps ``PRESCREEN_KEEPS`` of the validation index corners that the reader, the screen and the finer
   looks keep, so the losses of the stages add up. At run time the looks are applied coarsest first, each
   to what the one before passed, and the full rows are sampled only for the candidates they all pass.
7. the expert (``--expert``: a ``conv_net`` of ``EXPERT_CHANNELS`` and ``EXPERT_HIDDEN``) is fitted the
   same way on the index corners, the "not an index" rows the model's reader takes as an index at least
   ``EXPERT_DOUBT`` surely (of ``EXPERT_ASKED`` asked) and a quarter as many others (``expert_rows``),
   and exported beside the model (``glyphs.expert_path``); the reader is left as it is.

Recipe (PyTorch is needed for training only: the ``train`` extra; on 2 cores keep to 2 threads):

    python -m venv /tmp/train-venv && /tmp/train-venv/bin/pip install -e '.[train]'
    nice -n 19 /tmp/train-venv/bin/python -m tools.cards.train --cache /tmp/card-samples

Options: ``--scenes N`` (default 6000), ``--validation-scenes`` (300), ``--epochs`` (16), ``--screen-hidden``
(64,32: the screen's ReLU layers), ``--looks`` (3,2: the looks' strides, coarsest first),
``--prescreen-hidden`` (64: each look's ReLU layer), ``--screen-epochs`` (12), ``--seed``, ``--jobs`` (2,
scene rendering), ``--threads`` (2, PyTorch: the reader; the screen is fitted on one), ``--cache DIR`` (keep
the rendered samples there; a later run with the same seed and scenes reuses them, and the reader's PyTorch
weights are saved there as ``reader-SEED-SCENES.pt``), ``--init FILE`` (go on training from such weights, or
from an exported network, ``from_onnx``: ``--init vision/models/index_reader.onnx`` goes on from the committed
reader, whose PyTorch weights were not kept, and the expert's file with ``--expert`` from the committed
expert), ``--max-lr`` (3e-3), ``--screen-from MODEL`` (keep an earlier model's screen and looks instead of
fitting them; they foretell that model's reader, so refit it with ``--screen-only`` once the reader has
changed), ``--hard-scenes N`` (0; N more scenes with the hard cases, seeds from ``(--seed + 1) * 1_000_000``),
``--deck-scenes N`` (0; N more scenes of the real public-domain decks), ``--photos DIR`` (add the real photos'
train split), ``--photo-variants N`` (0; with ``--photos``, each photo read again in N variants,
``photo_set``), ``--out``, ``--screen-only`` (refit only the screen and every look of the model at ``--out``
against its reader, which is left untouched, from the same samples: no PyTorch reader training), ``--expert``
(fit only the expert of the model at ``--out``, from the same samples), ``--expert-widths`` (the expert's channels
per layer and hidden units, ``EXPERT_CHANNELS`` and ``EXPERT_HIDDEN`` unless given), ``--second-from OTHER_MODEL``
and ``--third-from OTHER_MODEL`` (make the expert of another model the second or third expert of the model at
``--out``: ``confirmer_from``; nothing is fitted).

The committed reader was made in four runs, each going on from the one before's reader: the second on
twice the scenes, the third on those and as many hard scenes; the screen and looks (strides 3 and 2, the
default ``--looks``) were refitted after, against that reader, from the second run's samples, and the
expert fitted (14 epochs, about 30 minutes on 2 threads). All of that was on samples the finder proposed
when it cut marks at three fixed shares of the paper's brightness (before commit 437e242); the fourth run
went on from the third's reader on samples of the present finder (``corners.ink_depth``), in a new cache
DIR2, and refitted the screen and looks after it (the expert was kept):

    python -m tools.cards.train --cache DIR --scenes 6000 --epochs 12 --out FIRST/index_reader.npz
    python -m tools.cards.train --cache DIR --scenes 12000 --epochs 4 --max-lr 1e-3 --init DIR/reader-0-6000.pt \\
        --screen-from FIRST/index_reader.npz --out SECOND/index_reader.npz
    python -m tools.cards.train --cache DIR --scenes 12000 --hard-scenes 12000 --epochs 6 --max-lr 1e-3 \\
        --init DIR/reader-0-12000.pt --screen-from SECOND/index_reader.npz
    python -m tools.cards.train --cache DIR --scenes 12000 --validation-scenes 1500 --screen-only
    python -m tools.cards.train --cache DIR --scenes 12000 --hard-scenes 12000 --validation-scenes 1500 --epochs 14 --expert
    python -m tools.cards.train --cache DIR2 --scenes 6000 --hard-scenes 6000 --validation-scenes 1000 --epochs 4 \\
        --max-lr 1e-3 --init DIR/reader-0-12000-12000hard.pt

Those went on from the models before them on the same scenes with real decks and real photos too: the reader 4
epochs, its screen and looks refitted after, and the expert 2 epochs on the rows that reader chose. The present
reader and expert went on from those in turn (``docs/CARD_MODEL.md``), on the finder that reads a dim frame
brightened (``corners.exposure``), each real photo read as it is and in 3 more variants (``--photo-variants``):
the reader 3 epochs, its screen and looks refitted after, then the expert 2 epochs (the photos are labelled by
the reader committed before, whose file ``--photos`` reads):

    python -m tools.cards.train --cache DIR4 --scenes 6000 --hard-scenes 6000 --deck-scenes 3000 \\
        --validation-scenes 1000 --photos ../shared/data/real-cards-cardcounter --photo-variants 3 --epochs 3 \\
        --max-lr 1e-3 --init vision/models/index_reader.onnx --out NEW/index_reader.npz
    python -m tools.cards.train --cache DIR4 --scenes 6000 --hard-scenes 6000 --deck-scenes 3000 \\
        --validation-scenes 1000 --photos ../shared/data/real-cards-cardcounter --photo-variants 3 --epochs 2 \\
        --max-lr 1e-3 --expert --init vision/models/index_reader.expert.onnx --out NEW/index_reader.npz

The second expert is the expert of another model, OTHER: a reader trained 16 epochs on from the
committed one, on 12,000 + 12,000 scenes of the present finder (DIR3), and an expert fitted 8 epochs on from the
committed expert, on the rows that reader chose (OTHER's reader and screens are not used at run time):

    python -m tools.cards.train --cache DIR3 --scenes 12000 --hard-scenes 12000 --validation-scenes 1000 --epochs 16 \\
        --max-lr 1e-3 --init vision/models/index_reader.onnx --out OTHER/index_reader.npz
    python -m tools.cards.train --cache DIR3 --scenes 12000 --hard-scenes 12000 --validation-scenes 1000 --epochs 8 \\
        --max-lr 1e-3 --expert --init vision/models/index_reader.expert.onnx --out OTHER/index_reader.npz
    python -m tools.cards.train --second-from OTHER/index_reader.npz

The third expert is the expert of a copy WIDE of the committed model, fitted from scratch at twice the expert's
widths, 6 epochs on the rows the committed reader chooses from the present reader's samples (DIR4):

    cp -r vision/models WIDE
    python -m tools.cards.train --cache DIR4 --scenes 6000 --hard-scenes 6000 --deck-scenes 3000 \\
        --validation-scenes 1000 --photos ../shared/data/real-cards-cardcounter --photo-variants 3 --epochs 6 \\
        --max-lr 2e-3 --expert --expert-widths 32,64,128,256 --out WIDE/index_reader.npz
    python -m tools.cards.train --third-from WIDE/index_reader.npz
"""

from __future__ import annotations

import argparse
import functools
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from scoring.cards import Card
from tools.cards import photos, render
from vision import corners, glyphs, patches

if TYPE_CHECKING:
    import torch  # the train extra: PyTorch fits the networks

SIZES = ((720, 1280), (540, 960), (504, 378), (378, 504), (288, 384), (384, 288))
NEGATIVE_SHARE = 0.35
JITTERED = 2  # extra copies of each index corner, turned, shifted and scaled a little
SCREEN_KEEPS = 0.9997  # share of the validation index corners kept by the reader that the screen lets through
PRESCREEN_KEEPS = 0.9999  # the same, for each look, of those the finer stages keep (its losses add to theirs)
SCREEN_POSITIVE_WEIGHT = 4.0  # a missed index corner costs the screen's fit this many times a row let through
CHANNELS, CNN_HIDDEN = (8, 16, 32), 96  # the convolutional reader's channels per layer and hidden units
EPOCH_NEGATIVES = 0.3  # share of the "not an index" samples the reader sees in each epoch
EXPERT_CHANNELS, EXPERT_HIDDEN = (16, 32, 64), 128  # the expert's: twice the reader's widths (3.6 times its work a row)
EXPERT_ASKED, EXPERT_DOUBT = 1_200_000, 0.2  # "not an index" rows the reader is asked about, and how surely it must
# take one as an index for the expert to learn it: the expert only ever reads corners the reader takes as an index
DECK_SHARE = 0.75  # of the designs in a --deck-scenes scene that are real decks (render.TRAINING_DECKS)
VALIDATION_SEED = 800_000_000  # validation scenes (held-out fonts); the benchmark's start at 900_000_000


def scene_samples(seed: int, fonts: tuple[str, ...] = tuple(render.RANK_FONTS),
                  hard: bool = False, decks: tuple[str, ...] = ()) -> dict[str, NDArray[Any]]:
    """Features (uint8, 0..255), rank and suit labels and card geometry from one synthetic scene (with
    ``hard``, one with the hard cases too; with ``decks``, one whose designs are mostly those real decks:
    ``render.table_scene``)."""
    rng = np.random.default_rng(seed)
    size = SIZES[seed % len(SIZES)]
    scene = render.table_scene(rng, size=size, fonts=render.available(fonts),
                               hard=np.random.default_rng([seed, 1]) if hard else None, decks=decks,
                               real_share=DECK_SHARE)
    planes = corners.Planes(scene.image)
    found = corners.candidates(planes)
    rank_label, suit_label, geometry = label(scene, found)
    return {**rows(planes, found, rank_label, suit_label, rng, JITTERED), "geometry": geometry}


def rows(planes: corners.Planes, found: corners.Candidates, rank: NDArray[Any], suit: NDArray[Any],
         rng: np.random.Generator, jittered: int) -> dict[str, NDArray[Any]]:
    """The feature rows (uint8, 0..255) and labels of labelled candidates: every index corner, and ``jittered``
    more copies of each a little turned, shifted and scaled; ``NEGATIVE_SHARE`` of the "not an index" ones;
    none of those left out (-1)."""
    positive = (rank >= 0) & (rank < glyphs.NOT_INDEX_RANK)
    negative = (rank == glyphs.NOT_INDEX_RANK) & (rng.random(len(found)) < NEGATIVE_SHARE)
    copies = [np.nonzero(positive)[0]] * jittered
    keep = np.concatenate([np.nonzero(positive | negative)[0], *copies])
    n = len(keep)
    jitter = np.arange(n) >= n - sum(len(c) for c in copies)
    x = patches.features(planes, found[keep].varied(np.where(jitter, rng.normal(0, 0.08, n), 0.0),
                                                    np.where(jitter, rng.uniform(0.9, 1.1, n), 1.0),
                                                    np.where(jitter[:, None], rng.normal(0, 0.06, (n, 2)), 0.0)))
    return {"x": (x * 255).round().astype(np.uint8), "rank": rank[keep], "suit": suit[keep]}


def label(scene: render.Scene, found: corners.Candidates) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """Rank and suit class per candidate (-1: left out) and (x, y, height) of the card per positive."""
    n = len(found)
    rank = np.full(n, glyphs.NOT_INDEX_RANK)
    suit = np.full(n, glyphs.NOT_INDEX_SUIT)
    geometry = []
    suit_at = found.suit
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


PHOTO_JITTERED = 8  # extra copies of each real index corner (the photos are few beside the scenes)
PHOTO_DOUBT = 0.05  # how surely the committed reader must take a lone labelled corner's best pair as an index


def photo_samples(photo: photos.Photo, image: NDArray[Any], reader: glyphs.ConvNet, seed: int) -> dict[str, NDArray[Any]]:
    """Features and labels from one real photo, as ``scene_samples`` gives them from a scene.

    A labelled corner's box holds its rank and suit marks but not which is which (a pair read the wrong way
    round lies in the box too). Where both corners of a card are labelled, the rank-to-suit direction of
    each points across the card toward the other; a lone corner's is that of its pair the ``reader`` takes
    most surely as an index (at least ``PHOTO_DOUBT``). The candidates whose rank and suit marks lie where
    that pair's do (as ``label`` matches them in a scene) are the card; the rest near a box are left out,
    and those far from every box are "not an index"."""
    rng = np.random.default_rng(seed)
    planes = corners.Planes(image)
    found = corners.candidates(planes)
    h, w = image.shape[:2]
    rank = np.full(len(found), glyphs.NOT_INDEX_RANK)
    suit = np.full(len(found), glyphs.NOT_INDEX_SUIT)
    share = glyphs.index_share(*reader.predict(patches.features(planes, found))) if len(found) else np.zeros(0)
    suit_at = found.suit
    for code in photo.codes:
        boxes = np.array(photo.corners(code, w, h), np.float32).reshape(-1, 4)
        centres = (boxes[:, :2] + boxes[:, 2:]) / 2
        for k, (x0, y0, x1, y1) in enumerate(boxes):
            mx, my = 0.25 * (x1 - x0), 0.25 * (y1 - y0)
            near = ((found.rank[:, 0] > x0 - 3 * mx) & (found.rank[:, 0] < x1 + 3 * mx)
                    & (found.rank[:, 1] > y0 - 3 * my) & (found.rank[:, 1] < y1 + 3 * my))
            rank[near & (rank == glyphs.NOT_INDEX_RANK)] = -1
            inside = np.all((found.rank > (x0 - mx, y0 - my)) & (found.rank < (x1 + mx, y1 + my))
                            & (suit_at > (x0 - mx, y0 - my)) & (suit_at < (x1 + mx, y1 + my)), axis=1)
            if len(centres) > 1:
                across = centres[1 - k if len(centres) == 2 else np.argmax(np.linalg.norm(centres - centres[k], axis=1))] - centres[k]
                inside &= found.down @ across > 0.5 * np.linalg.norm(across)
            else:
                inside &= share >= PHOTO_DOUBT
            if not inside.any():
                continue
            best = np.flatnonzero(inside)[np.argmax(share[inside])]
            d = float(found.scale[best])
            hit = ((np.linalg.norm(found.rank - found.rank[best], axis=1) < 0.45 * d)
                   & (np.linalg.norm(suit_at - suit_at[best], axis=1) < 0.35 * d))
            card = Card.parse(code)
            rank[hit], suit[hit] = glyphs.RANKS.index(card.rank), glyphs.SUITS.index(card.suit)
    suit[rank == -1] = -1
    return {**rows(planes, found, rank, suit, rng, PHOTO_JITTERED), "geometry": np.zeros((0, 3), np.float32)}


PHOTO_BLUR = 0.7  # the most blur (pixels) a photo's variant adds to what its camera gave it


def photo_set(data: Path, reader: glyphs.ConvNet, split: str = "train", variants: int = 0) -> dict[str, NDArray[Any]]:
    """``photo_samples`` of every colour photo of a light-faced deck (``photos.COLOUR_LIGHT``) in ``split``, its labels
    ``photos.corrected``, each photo as it is and in ``variants`` more copies under other light, colour, noise, a
    little blur and JPEG loss (``render.degraded``, seeded by the photo's place and the variant)."""
    parts = []
    for k, photo in enumerate(map(photos.corrected, photos.photos(data, split))):
        if photo.group not in photos.COLOUR_LIGHT:
            continue
        image = photos.image(data, photo)
        parts.append(photo_samples(photo, image, reader, k))
        for v in range(1, variants + 1):
            shown = render.degraded(np.random.default_rng([k, v]), image, blur=PHOTO_BLUR, resampled=0.0)
            parts.append(photo_samples(photo, shown, reader, k + v * 100_000))
    return joined(parts)


def joined(parts: list[dict[str, NDArray[Any]]]) -> dict[str, NDArray[Any]]:
    """Sample sets (``scene_samples``, ``photo_samples``) as one: each array of each, one after another.

    >>> joined([{"x": np.zeros(1), "rank": np.ones(1), "suit": np.ones(1), "geometry": np.zeros((1, 3))}] * 2)["rank"]
    array([1., 1.])
    """
    return {k: np.concatenate([p[k] for p in parts]) for k in ("x", "rank", "suit", "geometry")}


def _sliced(view: Callable[[NDArray[Any]], NDArray[Any]], x: NDArray[Any]) -> NDArray[Any]:
    """``view`` of many rows, 65536 at a time (so its float intermediates stay small), joined."""
    return np.concatenate([view(x[k:k + 65536]) for k in range(0, len(x), 65536)])


def reader_keeps(net: glyphs.ConvNet, x: NDArray[Any]) -> NDArray[Any]:
    """Whether the reader keeps each row of features (uint8) for a second look, as ``indices.read_corners``
    does: read surely, or surely an index corner."""
    from vision.indices import first_read, kept

    return _sliced(lambda part: kept(*first_read(*net.predict(part.astype(np.float32) / 255))[2:]), x)


def coarse_view(x: NDArray[Any]) -> NDArray[Any]:
    """``glyphs.screen_view`` of many rows of uint8 features, a slice at a time."""
    return _sliced(glyphs.screen_view, x)


def glance_view(x: NDArray[Any], stride: int) -> NDArray[Any]:
    """``patches.glance_view`` at ``stride`` of many rows of uint8 features, as uint8 (0..255), a slice at a time."""
    return _sliced(lambda part: (patches.glance_view(part, stride) * 255).round().astype(np.uint8), x)


def fit_screen(coarse: NDArray[Any], target: NDArray[Any], hidden: tuple[int, ...], epochs: int,
               seed: int) -> glyphs.Sieve:
    """PyTorch's Adam (batches of 1024, the learning rate down tenfold for the last quarter) on the
    cross-entropy of one logit per row of ``coarse`` (uint8 ``screen_view`` rows) against ``target``, the
    positives weighted ``SCREEN_POSITIVE_WEIGHT``; on one thread, so that a run repeats exactly."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)
    torch.set_flush_denormal(True)  # subnormal floats take the CPU's slow path: epochs of 3 to 4 s took 22 to 160 s
    sizes = (coarse.shape[1], *hidden)
    layers: list[nn.Module] = []
    for n_in, n_out in zip(sizes, sizes[1:], strict=False):
        layers += [nn.Linear(n_in, n_out), nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(sizes[-1], 1))
    linear = [m for m in model if isinstance(m, nn.Linear)]
    x, y = torch.from_numpy(coarse), torch.from_numpy(target.astype(np.float32))
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3)
    started = time.time()
    for epoch in range(epochs):
        for group in optimiser.param_groups:
            group["lr"] = 3e-3 * (0.1 if epoch >= 0.75 * epochs else 1.0)
        order = torch.randperm(len(x))
        total = 0.0
        for start in range(0, len(x), 1024):
            idx = order[start:start + 1024]
            logit = model(x[idx].float() / 255)[:, 0]
            loss = nn.functional.binary_cross_entropy_with_logits(logit, y[idx],
                                                                  weight=1 + (SCREEN_POSITIVE_WEIGHT - 1) * y[idx])
            loss = loss + 5e-5 * sum((m.weight ** 2).sum() for m in linear)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(idx)
        print(f"screen epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f} ({time.time() - started:.0f} s)", flush=True)
    return glyphs.Sieve([m.weight.detach().numpy().T for m in linear],
                         [m.bias.detach().numpy() for m in linear])


def screen_targets(net: glyphs.ConvNet, part: dict[str, NDArray[Any]]) -> tuple[NDArray[Any], NDArray[Any]]:
    """The rows a screen must pass (index corners ``net`` keeps for a second look) and the rows it is
    fitted on (where label and reader agree; see the module's step 5)."""
    keep, index = reader_keeps(net, part["x"]), part["rank"] < glyphs.NOT_INDEX_RANK
    return keep & index, keep == index


def refit_screen(data: dict[str, NDArray[Any]], check: dict[str, NDArray[Any]],
                 targets: tuple[NDArray[Any], NDArray[Any]], check_positive: NDArray[Any],
                 view: Callable[[NDArray[Any]], NDArray[Any]], hidden: tuple[int, ...], epochs: int, seed: int,
                 keeps: float, name: str = "screen") -> tuple[glyphs.Sieve, float, NDArray[Any]]:
    """A screen of the ``view`` of ``data``'s rows (uint8 rows in, uint8 out), fitted to ``targets`` (from
    ``screen_targets``), its pass mark, set to keep ``keeps`` of ``check``'s ``check_positive`` rows, and
    which of ``check``'s rows it passes."""
    positive, agree = targets
    print(f"{name}: {int(positive.sum())} index corners the reader keeps, {int((~agree).sum())} rows left out "
          "(label and reader disagree)", flush=True)
    screen = fit_screen(view(data["x"])[agree], positive[agree], hidden, epochs, seed)
    index = screen.index(view(check["x"]).astype(np.float32) / 255)
    screen_pass = float(np.quantile(index[check_positive], 1 - keeps))
    negative = check["rank"] == glyphs.NOT_INDEX_RANK
    print(f"{name} pass mark {screen_pass:.4f}: keeps {np.mean(index[check_positive] >= screen_pass):.2%} of the "
          f"validation index corners the stages after it keep, {np.mean(index[negative] >= screen_pass):.2%} of the rest")
    return screen, screen_pass, index >= screen_pass


def fit_looks(data: dict[str, NDArray[Any]], check: dict[str, NDArray[Any]], targets: tuple[NDArray[Any], NDArray[Any]],
              kept: NDArray[Any], args: argparse.Namespace) -> tuple[glyphs.Look, ...]:
    """The looks at ``args.looks``' strides (coarsest first), fitted finest first (see the module's step 6):
    each keeps ``PRESCREEN_KEEPS`` of ``check``'s rows ``kept`` by the stages after it."""
    if len(set(args.looks)) != len(args.looks) or args.looks != tuple(sorted(args.looks, reverse=True)):
        raise SystemExit(f"--looks {args.looks}: give distinct strides, coarsest first (3,2)")
    negative, through = check["rank"] == glyphs.NOT_INDEX_RANK, np.ones(len(check["rank"]), bool)
    looks: list[glyphs.Look] = []
    for k, stride in enumerate(reversed(args.looks)):
        screen, pass_mark, passed = refit_screen(data, check, targets, kept, functools.partial(glance_view, stride=stride),
                                                 args.prescreen_hidden, args.screen_epochs, args.seed + 2 + k,
                                                 PRESCREEN_KEEPS, f"look at stride {stride}")
        kept, through = kept & passed, through & passed
        looks.insert(0, glyphs.Look(stride, screen, pass_mark))
        print(f"the looks from stride {stride} on pass {np.mean(through[negative]):.2%} of the other validation rows")
    return tuple(looks)


def conv_net(channels: tuple[int, int, int] = CHANNELS, hidden: int = CNN_HIDDEN) -> torch.nn.Module:
    """The convolutional reader (PyTorch; training only). It takes the feature rows of the run-time reader
    (``patches.features``) split by ``glyphs.conv_inputs``: the ink patch goes through three 3x3
    convolutions, each followed by 2x2 max-pooling (the coarse redness joins after the first pooling,
    where it has the same size); the result, with the coarse surroundings, feeds a hidden layer and the
    two heads."""
    import torch
    from torch import nn

    c1, c2, c3 = channels
    ink = patches.PATCH_W * patches.PATCH_H
    red = ink // 4

    class ConvReader(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.conv1 = nn.Sequential(nn.Conv2d(1, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(), nn.MaxPool2d(2))
            self.conv2 = nn.Sequential(nn.Conv2d(c1 + 1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(),
                                       nn.MaxPool2d(2))
            self.conv3 = nn.Sequential(nn.Conv2d(c2, c3, 3, padding=1), nn.BatchNorm2d(c3), nn.ReLU(), nn.MaxPool2d(2))
            flat = c3 * (patches.PATCH_H // 8) * (patches.PATCH_W // 8) + patches.FEATURES - ink - red
            self.hidden = nn.Sequential(nn.Linear(flat, hidden), nn.ReLU(), nn.Dropout(0.2))
            self.rank = nn.Linear(hidden, len(glyphs.RANKS) + 1)
            self.suit = nn.Linear(hidden, len(glyphs.SUITS) + 1)

        def forward(self, ink: torch.Tensor, red: torch.Tensor, around: torch.Tensor
                    ) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.conv3(self.conv2(torch.cat([self.conv1(ink), red], 1)))
            h = self.hidden(torch.cat([h.flatten(1), around], 1))
            return self.rank(h), self.suit(h)

    return ConvReader()


def from_onnx(path: Path) -> torch.nn.Module:
    """A ``conv_net`` holding the weights of a network ``export`` wrote (its widths read from the file), to go on
    training it when its PyTorch weights were not kept. The export folded each batch-norm into the convolution
    before it, so the batch-norms here are identities, and stay so while it trains."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    values = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    layers = [[values[name] for name in node.input[1:]] for node in graph.node if node.op_type in ("Conv", "Gemm")]
    c1, c2, c3 = (int(weight.shape[0]) for weight, _ in layers[:3])
    model = _folded(conv_net((c1, c2, c3), int(layers[3][0].shape[0])))
    targets = (model.conv1[0], model.conv2[0], model.conv3[0], model.hidden[0], model.rank, model.suit)
    with torch.no_grad():
        for target, (weight, bias) in zip(targets, layers, strict=True):
            target.weight.copy_(torch.tensor(weight))
            target.bias.copy_(torch.tensor(bias))
    return model


def _folded(model: torch.nn.Module) -> torch.nn.Module:
    """A ``conv_net`` without its batch-norms (identities in their place), for weights with them folded in."""
    import torch

    for block in (model.conv1, model.conv2, model.conv3):
        block[1] = torch.nn.Identity()
    return model


def initial(init: Path | None, channels: tuple[int, int, int] = CHANNELS, hidden: int = CNN_HIDDEN) -> torch.nn.Module:
    """The network a run starts from: a fresh ``conv_net`` of ``channels`` and ``hidden``
    units, or the one at ``init``: PyTorch weights an earlier run saved (``--cache``), or an exported network
    (``.onnx``, ``from_onnx``)."""
    import torch

    if init is not None and init.suffix == ".onnx":
        return from_onnx(init)
    model = conv_net(channels, hidden)
    if init is not None:
        state = torch.load(init)
        if "conv1.1.running_mean" not in state:  # saved by a run that went on from an exported network
            model = _folded(model)
        model.load_state_dict(state)
    return model


def samples(seeds: range, jobs: int, fonts: tuple[str, ...] = tuple(render.RANK_FONTS),
            cache: Path | None = None, hard: bool = False, decks: tuple[str, ...] = ()) -> dict[str, NDArray[Any]]:
    """``scene_samples`` of every seed, joined (read from ``cache`` if it holds them, else saved there)."""
    if cache is not None and cache.exists():
        with np.load(cache) as data:
            return {k: data[k] for k in data.files}
    started = time.time()
    parts = []
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(scene_samples, seeds, [fonts] * len(seeds), [hard] * len(seeds), [decks] * len(seeds),
                             chunksize=8):
            parts.append(part)
            if len(parts) % 500 == 0:
                print(f"{len(parts)} scenes, {time.time() - started:.0f} s", flush=True)
    together: dict[str, Any] = joined(parts)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, **together)
    return together


def fit_conv(train: dict[str, NDArray[Any]], check: dict[str, NDArray[Any]], epochs: int, seed: int,
             threads: int, init: Path | None = None, max_lr: float = 3e-3, channels: tuple[int, int, int] = CHANNELS,
             hidden: int = CNN_HIDDEN, negatives_share: float = EPOCH_NEGATIVES, batch: int = 1024) -> torch.nn.Module:
    """AdamW on the summed cross-entropy of both heads (batches of ``batch``), the learning rate on one cycle,
    for a ``conv_net`` of ``channels`` and ``hidden`` units; each epoch sees every index corner and a fresh
    ``negatives_share`` of the rest. After each epoch, the share of ``check``'s index corners read right and surely (both heads at least
    ``indices.READ_SURE``), read wrong but surely, and of its other candidates taken as surely an index."""
    import torch
    from torch.nn.functional import cross_entropy

    from vision.indices import INDEX_SURE, READ_SURE, first_read

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    model = initial(init, channels, hidden)
    x, y_rank, y_suit = (torch.from_numpy(train[k]) for k in ("x", "rank", "suit"))
    positives = torch.from_numpy(np.nonzero(train["rank"] < glyphs.NOT_INDEX_RANK)[0])
    negatives = torch.from_numpy(np.nonzero(train["rank"] == glyphs.NOT_INDEX_RANK)[0])
    per_epoch = len(positives) + int(negatives_share * len(negatives))
    steps = epochs * (per_epoch // batch)
    optimiser = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=max_lr, total_steps=steps, pct_start=0.1)
    started = time.time()
    for epoch in range(epochs):
        model.train()
        order = torch.cat([positives, negatives[torch.randperm(len(negatives))[:per_epoch - len(positives)]]])
        order = order[torch.randperm(len(order))]
        total = 0.0
        for start in range(0, per_epoch - batch + 1, batch):
            idx = order[start:start + batch]
            rank, suit = model(*glyphs.conv_inputs(x[idx].float() / 255))
            loss = cross_entropy(rank, y_rank[idx]) + cross_entropy(suit, y_suit[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * batch
        model.eval()
        with torch.no_grad():
            logits = [model(*glyphs.conv_inputs(torch.from_numpy(check["x"][k:k + 4096]).float() / 255)) for k in range(0, len(check["x"]), 4096)]
        p_rank = torch.cat([r for r, _ in logits]).softmax(1).numpy()
        p_suit = torch.cat([s for _, s in logits]).softmax(1).numpy()
        positive = check["rank"] < glyphs.NOT_INDEX_RANK
        rank_k, suit_k, sureness, index = first_read(p_rank, p_suit)
        sure = sureness >= READ_SURE
        right = (rank_k == check["rank"]) & (suit_k == check["suit"])
        print(f"epoch {epoch + 1}/{epochs}: loss {total / per_epoch:.4f}; validation index corners read right "
              f"{np.mean(right & sure & positive) / np.mean(positive):.1%}, wrong "
              f"{np.mean(~right & sure & positive) / np.mean(positive):.2%}, other candidates taken as an index "
              f"{np.mean((index >= INDEX_SURE) & ~positive) / np.mean(~positive):.2%} ({time.time() - started:.0f} s)",
              flush=True)
    return model.eval()


def expert_rows(data: dict[str, NDArray[Any]], reader: glyphs.ConvNet, seed: int) -> NDArray[Any]:
    """The rows of ``data`` the expert is fitted on: every index corner; of ``EXPERT_ASKED`` "not an index"
    rows at random, those ``reader`` takes as an index at least ``EXPERT_DOUBT`` surely; and a quarter as
    many other "not an index" rows at random."""
    rng = np.random.default_rng([seed, 2])
    negatives = np.nonzero(data["rank"] == glyphs.NOT_INDEX_RANK)[0]
    asked = np.sort(rng.choice(negatives, min(EXPERT_ASKED, len(negatives)), replace=False))
    share = _sliced(lambda x: glyphs.index_share(*reader.predict(x.astype(np.float32) / 255)), data["x"][asked])
    doubted, others = asked[share >= EXPERT_DOUBT], asked[share < EXPERT_DOUBT]
    return np.concatenate([np.nonzero(data["rank"] < glyphs.NOT_INDEX_RANK)[0], doubted,
                           rng.choice(others, min(len(others), len(doubted) // 4), replace=False)])


def export(model: torch.nn.Module, path: Path, check: NDArray[Any]) -> dict[str, NDArray[Any]]:
    """Writes ``model`` as ONNX to ``path`` (inputs ``glyphs.CONV_INPUTS``, logits ``rank`` and ``suit``
    out; batch-norm folded into the convolutions) and returns ``check`` (rows of features) with the
    model's logits for them, as PyTorch computed them. The batch size is fixed in the file (OpenCV's
    classic importer cannot concatenate inputs of a symbolic size) but ``glyphs.ConvNet`` runs any."""
    import torch

    with torch.no_grad():
        torch.onnx.export(model, glyphs.conv_inputs(torch.zeros(2, patches.FEATURES)), str(path),
                          input_names=list(glyphs.CONV_INPUTS), output_names=["rank", "suit"], opset_version=13,
                          dynamo=False)
        rank, suit = model(*glyphs.conv_inputs(torch.from_numpy(check)))
    return {"check_x": check, "check_rank": rank.numpy(), "check_suit": suit.numpy()}


def references(saved: Any) -> dict[str, NDArray[Any]]:
    """The reference rows a model file keeps (``np.load`` of it): the reader's as ``export`` names them, and
    each expert's, the same names after its name (``glyphs.EXPERTS``) and ``_`` (so a refit of the screens keeps
    them all).

    >>> sorted(references({"check_x": 1, "screen_w0": 2, "expert_check_rank": 3, "second_check_x": 4, "centre_x": 5}))
    ['check_x', 'expert_check_rank', 'second_check_x']
    """
    names = [f"{prefix}check_{k}" for prefix in ("", *(f"{e}_" for e in glyphs.EXPERTS)) for k in ("x", "rank", "suit")]
    return {k: saved[k] for k in saved if k in names}


def with_arrays(path: Path, **arrays: NDArray[Any]) -> None:
    """Saves ``arrays`` into the model file at ``path``, each in place of any of its name there, the rest
    kept (so an expert fitted again replaces the reference rows of the one before).

    >>> import tempfile
    >>> path = Path(tempfile.mkdtemp()) / "model.npz"
    >>> np.savez_compressed(path, a=np.zeros(1), b=np.ones(1))
    >>> with_arrays(path, b=np.full(1, 2.0), c=np.zeros(2)); with_arrays(path, c=np.ones(3))
    >>> with np.load(path) as saved: {k: saved[k].tolist() for k in saved.files}
    {'a': [0.0], 'b': [2.0], 'c': [1.0, 1.0, 1.0]}
    """
    with np.load(path) as saved:
        kept = {k: saved[k] for k in saved.files}
    np.savez_compressed(path, **{**kept, **arrays})


def fit_expert(data: dict[str, NDArray[Any]], check: dict[str, NDArray[Any]], args: argparse.Namespace) -> None:
    """Fits the expert of the model at ``args.out`` on its ``expert_rows`` and exports it beside the model
    (``glyphs.expert_path``), saving a batch of rows with PyTorch's logits for them into the model file."""
    path = glyphs.expert_path(args.out)
    rows = expert_rows(data, glyphs.ConvNet(args.out.with_suffix(".onnx")), args.seed)
    print(f"the expert learns from {len(rows)} rows", flush=True)
    model = fit_conv({k: data[k][rows] for k in ("x", "rank", "suit")}, check, args.epochs, args.seed, args.threads,
                     args.init, max_lr=args.max_lr, channels=args.expert_widths[:3], hidden=args.expert_widths[3],
                     negatives_share=1.0, batch=512)
    reference = export(model, path, check["x"][:16].astype(np.float32) / 255)
    with_arrays(args.out, **{f"expert_{k}": v for k, v in reference.items()})
    print(f"saved {path} and its reference rows in {args.out}")


def confirmer_from(other: Path, out: Path, expert: str) -> None:
    """Makes the expert of the model at ``other`` the ``expert`` (``second`` or ``third``: ``glyphs.EXPERTS``) of the
    model at ``out``: its file is copied beside ``out`` (``glyphs.expert_path(out, expert)``) and its reference rows
    saved into ``out`` as ``{expert}_*``."""
    shutil.copyfile(glyphs.expert_path(other), glyphs.expert_path(out, expert))
    with np.load(other) as saved:
        rows = {f"{expert}_{k.removeprefix('expert_')}": v for k, v in references(saved).items() if k.startswith("expert_")}
    with_arrays(out, **rows)
    print(f"saved {glyphs.expert_path(out, expert)} (the expert of {other}) and its reference rows in {out}")


def comma_ints(text: str) -> tuple[int, ...]:
    """Sizes or strides given on the command line, comma-separated.

    >>> comma_ints("64,32")
    (64, 32)
    """
    return tuple(int(n) for n in text.split(","))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=6000)
    parser.add_argument("--validation-scenes", type=int, default=300)
    parser.add_argument("--epochs", type=int, default=16)
    parser.add_argument("--screen-hidden", type=comma_ints, default=(64, 32),
                        help="the screen's ReLU layers, comma-separated sizes")
    parser.add_argument("--looks", type=comma_ints, default=(3, 2),
                        help="the strides of the looks in front of the screen, comma-separated, coarsest first")
    parser.add_argument("--prescreen-hidden", type=comma_ints, default=(64,),
                        help="each look's ReLU layers, comma-separated sizes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cache", type=Path, help="a folder to keep the generated samples in, for later runs")
    parser.add_argument("--out", type=Path, default=glyphs.MODEL)
    parser.add_argument("--init", type=Path, help="PyTorch weights (as --cache saves them) or an exported network "
                                                  "(.onnx, such as the committed reader or expert) to go on training from")
    parser.add_argument("--max-lr", type=float, default=3e-3)
    parser.add_argument("--screen-epochs", type=int, default=12)
    parser.add_argument("--screen-from", type=Path, help="keep the screen of this earlier model (do not fit one)")
    parser.add_argument("--hard-scenes", type=int, default=0,
                        help="this many more scenes with the hard cases too (seeds of --seed + 1)")
    parser.add_argument("--deck-scenes", type=int, default=0,
                        help="this many more scenes drawn mostly with the real public-domain deck designs "
                             "(render.TRAINING_DECKS; seeds of --seed + 2)")
    parser.add_argument("--photos", type=Path, help="add the train split of these real labelled photos "
                                                    "(tools.cards.photos: ../shared/data/real-cards-cardcounter)")
    parser.add_argument("--photo-variants", type=int, default=0,
                        help="with --photos, read each photo again this many times under other light, colour, noise "
                             "and JPEG loss")
    parser.add_argument("--screen-only", action="store_true",
                        help="refit only the screen and looks of the model at --out, against its reader (left as it is)")
    parser.add_argument("--expert", action="store_true",
                        help="fit only the expert of the model at --out (beside it, suffix .expert.onnx), against "
                             "its reader (left as it is)")
    parser.add_argument("--expert-widths", type=comma_ints, default=(*EXPERT_CHANNELS, EXPERT_HIDDEN),
                        help="with --expert, its three layers' channels and its hidden units, comma-separated")
    for confirmer in glyphs.EXPERTS[1:]:
        parser.add_argument(f"--{confirmer}-from", type=Path, metavar="OTHER_MODEL",
                            help=f"make the expert of the model OTHER_MODEL the {confirmer} expert of the model at "
                                 f"--out (copied beside it, suffix .{confirmer}.onnx); nothing is fitted")
    args = parser.parse_args(argv)
    for confirmer in glyphs.EXPERTS[1:]:
        if getattr(args, f"{confirmer}_from") is not None:
            confirmer_from(getattr(args, f"{confirmer}_from"), args.out, confirmer)
            return
    started = time.time()
    cache = args.cache and args.cache / f"samples-{args.seed}-{args.scenes}.npz"
    data = samples(range(args.seed * 1_000_000, args.seed * 1_000_000 + args.scenes), args.jobs, cache=cache)
    if args.hard_scenes:
        first = (args.seed + 1) * 1_000_000
        hard = samples(range(first, first + args.hard_scenes), args.jobs, hard=True,
                       cache=args.cache and args.cache / f"samples-{args.seed + 1}-{args.hard_scenes}-hard.npz")
        data = joined([data, hard])
    if args.deck_scenes:
        first = (args.seed + 2) * 1_000_000
        real = samples(range(first, first + args.deck_scenes), args.jobs, decks=render.TRAINING_DECKS,
                       cache=args.cache and args.cache / f"samples-{args.seed + 2}-{args.deck_scenes}-decks.npz")
        data = joined([data, real])
    if args.photos is not None:  # the real photos' train split, read by the committed reader's file to label them
        real = photo_set(args.photos, glyphs.ConvNet(glyphs.MODEL.with_suffix(".onnx")), variants=args.photo_variants)
        print(f"{int(np.sum(real['rank'] < glyphs.NOT_INDEX_RANK))} index corners from the real photos", flush=True)
        data = joined([data, real])
    check = samples(range(VALIDATION_SEED, VALIDATION_SEED + args.validation_scenes), args.jobs,
                    render.HELD_OUT_FONTS, args.cache and args.cache / f"validation-{args.validation_scenes}.npz")
    print(f"{len(data['x'])} samples ({int(np.sum(data['rank'] < glyphs.NOT_INDEX_RANK))} index corners) from "
          f"{args.scenes + args.hard_scenes} scenes, {len(check['x'])} validation samples, in {time.time() - started:.0f} s",
          flush=True)
    if args.expert:
        fit_expert(data, check, args)
        return
    if args.screen_only:  # the reader and expert, their reference rows and the card geometry of the model at --out
        with np.load(args.out) as saved:
            reference = references(saved)
            geometry = {k: float(saved[k]) for k in glyphs.GEOMETRY}
    else:
        model = fit_conv(data, check, args.epochs, args.seed, args.threads, args.init, args.max_lr)
        if args.cache is not None:  # the PyTorch weights too, to export them again without training
            import torch

            torch.save(model.state_dict(), args.cache / f"reader-{args.seed}-{args.scenes}{f'-{args.hard_scenes}hard' * bool(args.hard_scenes)}.pt")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        reference = export(model, args.out.with_suffix(".onnx"), check["x"][:16].astype(np.float32) / 255)
        if args.out.exists():  # the expert beside it is kept as it is, and so are its reference rows
            with np.load(args.out) as saved:
                reference = {**references(saved), **reference}
        geometry = dict(zip(glyphs.GEOMETRY,
                            (float(v) for v in np.median(data["geometry"], axis=0)), strict=True))
    if args.screen_from is not None:  # the screens (and their pass marks) of an earlier model, as they were
        earlier = glyphs.load(args.screen_from)
        screen, screen_pass = earlier.screen, earlier.screen_pass
        looks = earlier.looks
    else:
        reader = glyphs.ConvNet(args.out.with_suffix(".onnx"))  # the one just saved, or the one left as it is
        targets, (check_positive, _) = screen_targets(reader, data), screen_targets(reader, check)
        screen, screen_pass, kept = refit_screen(data, check, targets, check_positive, coarse_view, args.screen_hidden,
                                                 args.screen_epochs, args.seed + 1, SCREEN_KEEPS)
        looks = fit_looks(data, check, targets, check_positive & kept, args)
    glyphs.save(args.out, screen, screen_pass, geometry, looks, **reference)
    written = [args.out] if args.screen_only else [args.out, args.out.with_suffix(".onnx")]
    print(f"saved {' and '.join(map(str, written))} after {time.time() - started:.0f} s")


if __name__ == "__main__":
    main()
