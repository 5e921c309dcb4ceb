"""Train the cocked-die judge of ``vision.dice`` from rendered trays: ``python -m tools.dice.train``.

The recipe, all regenerated from seeds (nothing downloaded, no photo used):

1. ``tools.dice.rolls`` lays out a tray (``random_tray``: camera height and tilt, felt, light) drawn by
   ``device.demo.dice_drawing``,
   a share ``COCKED_SHARE`` of its dice cocked (``cock``: 18-35 degrees, an edge on the floor, wedged
   against a die lying flat or the wall) and half of the flat ones tilted up to ``TILT_SLIGHT`` (6 degrees:
   still flat, to be read);
2. the reader finds the top faces exactly as at run time (``vision.dice.top_faces``), and each one within
   6 px of a die's true centre becomes a sample: ``vision.dice.die_patches`` (the colour around it, turned
   so the frame's middle is below it, and the way out), labelled cocked or flat;
3. two small convolutional networks (each three 3x3 convolutions of 8, 16 and 32 channels, each halving
   the patch, then 32 hidden units) are fitted by Adam, from seeds 0 and 1, on the training trays (seeds
   200000 on) and on more (``LOW_SEED``, 300000 on) whose cocked dice lean only 17-22 degrees
   (``LOW_LEAN``), every patch also mirrored (as ``vision.dice.judge`` also asks it of both); the judge is
   their mean, saved as one ONNX file for ``cv2.dnn``;
4. trays it never saw (seeds 400000 on) measure it: the log odds of each flat die read as a face, and of
   each cocked one; ``vision.dice.JUDGED_COCKED`` is set so that a flat die is about never taken for
   cocked (picked on tuning trays, 208000 on, and confirmed on these).

PyTorch is needed here only (never at run time): run with an interpreter that has it, e.g.
``PYTHONPATH=. /path/to/torch-venv/bin/python -m tools.dice.train``. Options: ``--trays`` (8000),
``--low`` (2000 trays leaning little), ``--check`` (1500 trays), ``--epochs`` (8), ``--judges`` (2
networks averaged), ``--jobs`` (2, tray rendering), ``--threads`` (2, PyTorch), ``--device`` (``cpu``; ``cuda``
fits on a GPU where there is one), ``--out``. The committed model was made with the defaults (its
patches were stored from an earlier ``die_patches``, equal to these to within 0.0083 in 0.02 % of their
values), in about an hour on two busy cores (the trays about 30 minutes, each network's fitting 9-16).
Twice the trays of the first judge (4,000) and patches of 56 px instead of 40 (the sides a cocked die
shows are a few pixels wide) each caught more cocked dice on the check trays; together, at one flat die
rejected in 7,098, 96 % of the cocked ones instead of 91 %. The low-leaning trays and the second network
then missed 34 of 4,356 cocked dice on the check trays instead of 91 (those leaning 18-19 degrees: 14 of
266 instead of 26), with 1 flat die rejected instead of 3.
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from device.demo.dice_drawing import TILT_SLIGHT, render
from tools.dice.rolls import lay_out, random_tray
from vision.dice import CROP, MODEL, die_patches, judge, mirrored, top_faces
from vision.glyphs import onnx_net

if TYPE_CHECKING:
    import torch  # the train extra: PyTorch fits the networks

COCKED_SHARE = 0.4
"""Share of the dice a training tray lands cocked (where there is room)."""
TRAIN_SEED, TUNING_SEED, LOW_SEED, CHECK_SEED = 200_000, 208_000, 300_000, 400_000
"""Training trays, trays ``vision.dice.JUDGED_COCKED`` is picked on, more training trays whose cocked dice
lean little (``LOW_LEAN``), and measuring trays; the benchmark uses 500000 on, the tests small seeds."""
LOW_LEAN = (math.radians(17), math.radians(22))
"""How far the cocked dice of the ``LOW_SEED`` trays lean: the least a die cocks, where its top face looks
most like a flat one's."""
HIDDEN = 32


def tray_samples(seed: int, lean: tuple[float, float] | None = None) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """One tray's samples: patches (n, 5, CROP, CROP) float16, cocked (n,) bool, read as a face (n,) bool
    (``lean``: how far its cocked dice lean, as ``lay_out`` takes it)."""
    rng = np.random.default_rng(seed)
    tray = random_tray(rng)
    poses = [pose if pose.cocked or rng.random() < 0.5 else replace(pose, tilt=float(rng.uniform(0, TILT_SLIGHT)))
             for pose in lay_out(rng, tray, cocked=COCKED_SHARE, lean=lean)]
    frame = render(rng, tray, poses)
    faces, labels = [], []
    for seen in top_faces(frame):
        near = [p for p in poses if math.dist(tray.center(p), seen.centre) < 6]
        if near:
            faces.append(seen)
            labels.append(near[0].cocked)
    patches = die_patches(frame, faces, (frame.shape[1] / 2, frame.shape[0] / 2))
    return (patches.astype(np.float16), np.array(labels, bool),
            np.array([seen.face is not None for seen in faces], bool))


def samples(first: int, count: int, jobs: int, lean: tuple[float, float] | None = None
            ) -> tuple[NDArray[Any], NDArray[Any], NDArray[Any]]:
    """The samples of trays ``first`` to ``first + count - 1``, joined."""
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(partial(tray_samples, lean=lean), range(first, first + count), chunksize=20))
    x, y, read = (np.concatenate([part[k] for part in parts]) for k in range(3))
    return x, y, read


def network() -> torch.nn.Module:
    import torch.nn as nn  # training only

    return nn.Sequential(
        nn.Conv2d(5, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(32 * (CROP // 8) ** 2, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, 1))


def averaged(models: list[torch.nn.Module]) -> torch.nn.Module:
    """One network whose log odds are the mean of those of ``models`` (the judge as one ONNX file)."""
    import torch.nn as nn  # training only

    class Averaged(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.parts = nn.ModuleList(models)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return sum(part(x) for part in self.parts) / len(self.parts)

    return Averaged()


def fit(x: NDArray[Any], y: NDArray[Any], epochs: int, seed: int = 0, device: str = "cpu") -> torch.nn.Module:
    """The network fitted to patches ``x`` and labels ``y`` (and their mirror images), on PyTorch's ``device``
    ("cpu", or "cuda" where there is one), returned on the CPU."""
    import torch  # training only

    torch.manual_seed(seed)
    data = torch.from_numpy(np.ascontiguousarray(x))  # kept as given (float16): mirrored and widened a batch at a time
    labels = torch.from_numpy(np.concatenate([y, y]).astype(np.float32))  # sample k + len(x): k mirrored
    model = network().to(device)
    optimiser = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=epochs * (len(labels) // 128 + 1))
    weight = torch.tensor(float((1 - y).sum() / max(y.sum(), 1)), device=device)  # both classes weigh alike
    loss_of = torch.nn.BCEWithLogitsLoss(pos_weight=weight)
    for epoch in range(epochs):
        order = torch.randperm(len(labels))
        total = 0.0
        for start in range(0, len(labels), 128):
            pick = order[start:start + 128]
            batch = data[pick % len(data)].float()
            turned = pick >= len(data)
            batch[turned] = torch.from_numpy(mirrored(batch[turned].numpy()))
            batch[:, :3] *= (1 + 0.1 * torch.randn(len(pick), 1, 1, 1)).clamp(0.7, 1.3)  # the paper's white a bit off
            loss = loss_of(model(batch.to(device)).squeeze(1), labels[pick].to(device))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(pick)
        print(f"  epoch {epoch + 1}: loss {total / len(labels):.4f}", flush=True)
    return model.cpu()


def save_onnx(model: torch.nn.Module, path: Path) -> None:
    """The network as ONNX (opset 13) for ``cv2.dnn``, exported as ``tools.cards.train.export`` does."""
    import torch  # training only

    path.parent.mkdir(parents=True, exist_ok=True)
    with torch.no_grad():
        torch.onnx.export(model, torch.zeros(2, 5, CROP, CROP), str(path), input_names=["patches"],
                          output_names=["odds"], opset_version=13, dynamo=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trays", type=int, default=8000)
    parser.add_argument("--check", type=int, default=1500)
    parser.add_argument("--low", type=int, default=2000)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--judges", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--out", type=Path, default=MODEL)
    args = parser.parse_args()
    import torch  # training only

    torch.set_num_threads(args.threads)
    start = time.time()
    parts = [samples(TRAIN_SEED, args.trays, args.jobs), samples(LOW_SEED, args.low, args.jobs, LOW_LEAN)]
    x, y = (np.concatenate([part[k] for part in parts]) for k in range(2))
    print(f"{len(x)} training dice ({int(y.sum())} cocked) from {args.trays} + {args.low} trays, "
          f"{time.time() - start:.0f} s", flush=True)
    save_onnx(averaged([fit(x, y, args.epochs, seed, args.device) for seed in range(args.judges)]), args.out)
    for name, first in (("tuning", TUNING_SEED), ("check", CHECK_SEED)):
        x, y, read = samples(first, args.check, args.jobs)
        odds = judge(x.astype(np.float32), onnx_net(args.out))
        flat, tipped = np.sort(odds[~y & read]), np.sort(odds[y & read])
        print(f"measured on {args.check} unseen {name} trays: {len(flat)} flat and {len(tipped)} cocked dice read as a face")
        print("  flat dice's log odds, highest: " + ", ".join(f"{v:.2f}" for v in flat[-8:][::-1]))
        for cut in (*flat[-4:][::-1], 0.0):
            print(f"  above {cut:.2f}: {int((flat > cut).sum())} flat, {int((tipped > cut).sum())} of {len(tipped)} "
                  f"cocked ({(tipped > cut).mean():.1%})")
    print(f"{time.time() - start:.0f} s in all; model written to {args.out}")


if __name__ == "__main__":
    main()
