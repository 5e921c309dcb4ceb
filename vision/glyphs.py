"""The index-corner classifier: small networks reading rank and suit from a corner patch.

The reader has two softmax heads: the rank (A..K, or "not an index") and the suit (S H D C, or "not an
index"). The *screen* (NumPy: two small ReLU layers and one output) reads a coarse view of the patch
(``screen_view``) and cheaply sets aside the many candidates that are surely not index corners (pips,
picture details, print): it is fitted to foretell the reader's own verdict, so it passes what the reader
would keep as an index corner and little else. In front of it are the *looks*, each a pre-screen (a
screen of one ReLU layer) on a glance at each candidate (``patches.glance_blocks``: one point in the
look's stride each way of the patch), fitted to the same verdict and applied in turn, coarsest first:
the first (one point in 3 each way, a ninth of the points) sets aside most candidates of a busy frame,
the next (one point in 2, a quarter) glances only at what it passed and sets aside most of the rest, and
only what both pass is sampled in full for the screen. The *reader* reads the rest: a small convolutional network
(``ConvNet``: three 3x3 convolutions with max-pooling on the ink patch, then a hidden layer), run by
OpenCV's ``cv2.dnn`` from an ONNX file, so shifts, stroke widths and unusual glyphs are tolerated far
better than by a layer on raw pixels. The *expert* (the same kind of network at twice the widths) reads
only the corners the reader takes surely as an index but cannot read surely; the *second* expert (another
such network, trained apart) is asked only to confirm the expert's reading of the corners the expert
cannot read surely alone, and the *third* (twice the expert's widths again, trained apart from both) only to
confirm what the second did not. The models are ``vision/models/index_reader.npz`` (the screens, their pass
marks, card geometry), ``index_reader.onnx`` (reader), ``index_reader.expert.onnx`` (expert),
``index_reader.second.onnx`` and ``index_reader.third.onnx`` (the second and third experts) beside it, made by
``python -m tools.cards.train`` from synthetic card tables and the real photos' train split.

>>> import numpy as np
>>> screen = Sieve([np.eye(2, dtype=np.float32), np.ones((2, 1), np.float32)], [np.zeros(2, np.float32), np.zeros(1, np.float32)])
>>> screen.index(np.array([[0, 0], [3, -1], [-5, -5]], np.float32)).round(3)
array([0.5  , 0.953, 0.5  ], dtype=float32)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from scoring.cards import Rank, Suit
from vision import corners, patches
from vision.patches import PATCH_H, PATCH_W

MODEL = Path(__file__).parent / "models" / "index_reader.npz"
"""The screens, their pass marks and the card geometry; the reader is beside it, with the suffix ``.onnx``, and
the experts with ``.expert.onnx``, ``.second.onnx`` and ``.third.onnx`` (``expert_path``)."""
RANKS = tuple(Rank)  # head index k is RANKS[k]; the last class is "not an index"
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
NOT_INDEX_RANK, NOT_INDEX_SUIT = len(RANKS), len(SUITS)
GEOMETRY = ("centre_x", "centre_y", "card_height")
"""The median card geometry saved with the screen, in index units (see ``Reader``)."""


def screen_view(x: NDArray[Any]) -> NDArray[Any]:
    """The screen's inputs from full feature rows: the ink patch averaged over 2x2 blocks, the rest as is.

    >>> screen_view(np.ones((3, 1104), np.float32)).shape, screen_view(np.ones((0, 1104), np.uint8)).shape
    ((3, 528), (0, 528))
    """
    n = len(x)
    pairs = x[:, :PATCH_W * PATCH_H].reshape(n * PATCH_H // 2, 2, PATCH_W).astype(np.float32, copy=False)
    rows = pairs[:, 0] + pairs[:, 1]  # each two rows summed, then each two columns of that
    pooled = ((rows[:, 0::2] + rows[:, 1::2]) * np.float32(0.25)).reshape(n, PATCH_W * PATCH_H // 4)
    if x.dtype == np.uint8:
        pooled = pooled.round().astype(np.uint8)
    return np.hstack([pooled, x[:, PATCH_W * PATCH_H:]])


def softmax(z: NDArray[Any]) -> NDArray[Any]:
    """Row-wise softmax."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: NDArray[Any] = e / e.sum(axis=1, keepdims=True)
    return out


def index_share(p_rank: NDArray[Any], p_suit: NDArray[Any]) -> NDArray[Any]:
    """How surely each row (of classes, the last axis) is an index corner at all (neither head says "not
    an index")."""
    out: NDArray[Any] = 1 - np.maximum(p_rank[..., NOT_INDEX_RANK], p_suit[..., NOT_INDEX_SUIT])
    return out


@dataclass(frozen=True)
class Sieve:
    """A small NumPy network that sets candidates aside before the reader (the reader's screen, and each of its
    looks): ReLU layers (``weights[k]``, ``biases[k]``) and a last layer giving one logit, that the
    row is an index corner the reader would keep. Its weights are kept as float32, those under ``TINY_WEIGHT``
    as zero."""

    weights: list[NDArray[Any]]
    biases: list[NDArray[Any]]

    def __post_init__(self) -> None:
        for name in ("weights", "biases"):
            object.__setattr__(self, name, [_flushed(v) for v in getattr(self, name)])

    def index(self, x: NDArray[Any]) -> NDArray[Any]:
        """How surely each row of ``screen_view`` inputs (floats 0..1) is an index corner, 0..1."""
        h = x
        for w, b in zip(self.weights[:-1], self.biases[:-1], strict=True):
            h = np.maximum(h @ w + b, 0)
        logit = (h @ self.weights[-1] + self.biases[-1])[:, 0]
        out: NDArray[Any] = 1 / (1 + np.exp(-np.clip(logit, -30, 30)))
        return out

    def arrays(self, prefix: str = "") -> dict[str, NDArray[Any]]:
        """The weights by name (``prefix`` before each), as saved: ``w0``, ``b0``, ``w1``, ..."""
        return {f"{prefix}{name}{k}": v for name, values in (("w", self.weights), ("b", self.biases))
                for k, v in enumerate(values)}

    @staticmethod
    def read(data: Any, prefix: str = "") -> Sieve:
        """The screen from arrays named as ``arrays`` names them (an ``np.load`` of a saved model)."""
        layers = sum(1 for k in data if k.startswith(prefix + "w"))
        return Sieve([data[f"{prefix}w{k}"] for k in range(layers)], [data[f"{prefix}b{k}"] for k in range(layers)])


TINY_WEIGHT = 1e-12
"""Sieve weights smaller than this are zero. Training (``tools.cards.train.fit_screen``, Adam without weight decay)
left the weights of inputs that never vary (about two thirds of the screens' weights) as subnormal floats,
which many x86 CPUs multiply through a slow path: with them, the looks and screen took 60% of a frame here
(a glance of 3,000 rows 59 ms instead of 0.6). Together they change no logit by more than 1e-9."""


def _flushed(weights: NDArray[Any]) -> NDArray[Any]:
    """The weights as float32, those under ``TINY_WEIGHT`` zero.

    >>> _flushed(np.array([0.5, -3e-41, 1e-13, 0.25])).tolist()
    [0.5, 0.0, 0.0, 0.25]
    """
    return np.where(np.abs(weights) < TINY_WEIGHT, 0, weights).astype(np.float32)


CONV_INPUTS = ("ink", "red", "around")


def conv_inputs(x: Any) -> tuple[Any, Any, Any]:
    """The convolutional reader's three inputs from feature rows (a NumPy array or a PyTorch tensor):
    the ink patch (n, 1, PATCH_H, PATCH_W), its coarse redness (n, 1, PATCH_H / 2, PATCH_W / 2) and the
    coarse surroundings (n, CONTEXT ** 2).

    >>> [a.shape for a in conv_inputs(np.zeros((3, 1104), np.float32))]
    [(3, 1, 32, 24), (3, 1, 16, 12), (3, 144)]
    """
    ink, red = PATCH_W * PATCH_H, PATCH_W * PATCH_H // 4
    return (x[:, :ink].reshape(-1, 1, PATCH_H, PATCH_W), x[:, ink:ink + red].reshape(-1, 1, PATCH_H // 2, PATCH_W // 2),
            x[:, ink + red:])


CLASSIC: int | None = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
"""OpenCV 5's classic ONNX engine (the only one before OpenCV 5, where this is None): the faster one here for
our small networks (the card reader 1.7x, the cocked-dice judge 1.4x), and it runs a fixed-batch file on any
number of rows."""


def onnx_net(path: Path, engine: int | None = CLASSIC) -> Any:
    """A ``cv2.dnn`` network read from an ONNX file, in ``engine`` where this OpenCV has engines."""
    if engine is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine)  # type: ignore[call-overload, unused-ignore]  # OpenCV 4's stubs lack engines


class ConvNet:
    """The convolutional reader, run by ``cv2.dnn`` from an ONNX file made by ``tools.cards.train``: it takes
    feature rows (``patches.features``, split by ``conv_inputs``) and gives rank and suit logits (outputs
    ``rank`` and ``suit``). The file has a fixed batch size, run on any number of rows."""

    BATCH = 128
    """Rows per forward pass. Larger passes outgrow the cache: 600 rows took 37.6 us a row (the reader) and 92
    (the expert) in passes of 128 here, 47.2 and 111 in passes of 512; passes of 32 to 128 are alike. The reads
    are the same to the bit."""

    def __init__(self, path: Path, engine: int | None = CLASSIC) -> None:
        self.path = path
        self.net = onnx_net(path, engine)

    def logits(self, x: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        """Rank and suit logits for each row of features."""
        if not len(x):
            return np.zeros((0, len(RANKS) + 1), np.float32), np.zeros((0, len(SUITS) + 1), np.float32)
        parts = []
        for start in range(0, len(x), self.BATCH):
            for name, part in zip(CONV_INPUTS, conv_inputs(x[start:start + self.BATCH]), strict=True):
                self.net.setInput(np.ascontiguousarray(part, np.float32), name)
            parts.append(self.net.forward(["rank", "suit"]))
        return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])

    def predict(self, x: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        """Rank and suit probabilities for each row of features."""
        rank, suit = self.logits(x)
        return softmax(rank), softmax(suit)


@dataclass(frozen=True)
class Look:
    """A pre-screen: a screen reading the glance at ``stride`` (``patches.glance_blocks``) and its pass mark."""

    stride: int
    screen: Sieve
    pass_mark: float

    def passes(self, g: NDArray[Any]) -> NDArray[Any]:
        """Which rows of glances at ``stride`` this look lets through."""
        passed: NDArray[Any] = self.screen.index(g) >= self.pass_mark
        return passed


@dataclass(frozen=True)
class Reader:
    """The trained reader and screen, the screen's pass mark, the median card geometry in index units
    (``centre_x``, ``centre_y``, ``card_height``; see ``tools.cards.train``), the looks in front of the
    screen, coarsest first (none in a model fitted without them: every candidate then goes to the screen),
    and the expert: a wider reader asked only about the corners the reader takes surely as an index but
    cannot read surely (None: they stay unknown), and the second and third experts, asked in turn to confirm
    the expert's reading of the corners the expert cannot read surely (None: not asked)."""

    net: ConvNet
    screen: Sieve
    screen_pass: float
    geometry: dict[str, float]
    looks: tuple[Look, ...] = ()
    expert: ConvNet | None = None
    second: ConvNet | None = None
    third: ConvNet | None = None

    def passes(self, x: NDArray[Any]) -> NDArray[Any]:
        """Which rows of features (``patches.features``, floats 0..1) the screen lets through to the reader."""
        passed: NDArray[Any] = self.screen.index(screen_view(x)) >= self.screen_pass
        return passed

    def glanced(self, planes: corners.Planes, found: corners.Candidates) -> NDArray[Any]:
        """The candidates (indices, in order) that every look lets through to the screen: each look glances
        only at those the looks before it passed, a block at a time, by scale (what a look passes stays so)."""
        ahead = found.by_scale()
        for look in self.looks:
            ahead = np.concatenate([ahead[:0], *(rows[look.passes(g)] for rows, g
                                                 in patches.glance_blocks(planes, found, look.stride, ahead))])
        return np.sort(ahead)


def save(path: Path, screen: Sieve, screen_pass: float, geometry: dict[str, float],
         looks: tuple[Look, ...] = (), **extra: NDArray[Any]) -> None:
    """Saves all but the reader (which ``tools.cards.train`` exports beside ``path``, with the suffix ``.onnx``):
    the looks as ``look_strides``, ``look_passes`` and the screens ``look0_w0``, ``look0_b0``, ..."""
    arrays: dict[str, Any] = {**screen.arrays("screen_"), "screen_pass": np.float32(screen_pass),
                              **{k: np.float32(v) for k, v in geometry.items()},
                              "look_strides": np.array([look.stride for look in looks], np.int32),
                              "look_passes": np.array([look.pass_mark for look in looks], np.float32)}
    for k, look in enumerate(looks):
        arrays.update(look.screen.arrays(f"look{k}_"))
    np.savez_compressed(path, **arrays | extra)


EXPERTS = ("expert", "second", "third")
"""The experts a model has, by their field of ``Reader``, the suffix of their files and the prefix of their
reference rows."""


def expert_path(path: Path, expert: str = "expert") -> Path:
    """Where an expert (one of ``EXPERTS``) of the model at ``path`` is kept: beside it.

    >>> expert_path(Path("models/index_reader.npz")).name, expert_path(Path("models/index_reader.npz"), "second").name
    ('index_reader.expert.onnx', 'index_reader.second.onnx')
    """
    return path.with_suffix(f".{expert}.onnx")


def read_looks(data: Any, path: Path) -> tuple[Look, ...]:
    """The looks saved in ``data`` (an ``np.load`` of the model at ``path``); a model saved before looks
    (with one pre-screen, ``prescreen_*``) is refused, naming the refit."""
    refit = "refit it (python -m tools.cards.train --screen-only)"
    if "look_strides" not in data:
        raise ValueError(f"{path} was saved before the looks (one pre-screen): {refit}")
    looks = tuple(Look(int(stride), Sieve.read(data, f"look{k}_"), float(pass_mark))
                  for k, (stride, pass_mark) in enumerate(zip(data["look_strides"], data["look_passes"], strict=True)))
    for look in looks:
        if look.screen.weights[0].shape[0] != patches.glance_features(look.stride):
            raise ValueError(f"the look at stride {look.stride} of {path} reads {look.screen.weights[0].shape[0]} "
                             f"glance features, not {patches.glance_features(look.stride)}: {refit}")
    return looks


@cache
def load(path: Path = MODEL) -> Reader:
    """The trained reader stored at ``path`` (and beside it, with the suffixes ``.onnx``, ``.expert.onnx``,
    ``.second.onnx`` and ``.third.onnx``); a missing file is named with the ``tools.cards.train`` run that makes
    it (each expert's is a run of its own)."""
    confirmers = ((expert_path(path, e), f" --{e}-from OTHER_MODEL --out {path}") for e in EXPERTS[1:])
    for part, run in ((path, ""), (path.with_suffix(".onnx"), ""), (expert_path(path), f" --expert --out {path}"),
                      *confirmers):
        if not part.exists():
            raise FileNotFoundError(f"card reader model {part} is missing: run python -m tools.cards.train{run}")
    with np.load(path) as data:
        return Reader(ConvNet(path.with_suffix(".onnx")), Sieve.read(data, "screen_"), float(data["screen_pass"]),
                      {k: float(data[k]) for k in GEOMETRY}, read_looks(data, path),
                      **{expert: ConvNet(expert_path(path, expert)) for expert in EXPERTS})
