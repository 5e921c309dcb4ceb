"""The index-corner classifier: small NumPy networks reading rank and suit from a corner patch.

A network has one hidden layer feeding two softmax heads: the rank (A..K, or "not an index") and the suit
(S H D C, or "not an index"). Two are trained: the *reader* on the full patch, and a much smaller
*screen* on a coarse view of it (``screen_view``) that cheaply sets aside the many candidates that are
surely not index corners (pips, picture details, print) before the reader and its re-reads run. The
weights are ``vision/models/index_reader.npz``, made by ``python -m vision.train`` from synthetic card
tables only.

>>> import numpy as np
>>> net = Network.fresh(np.random.default_rng(0), inputs=4, hidden=3)
>>> rank, suit = net.predict(np.zeros((2, 4), np.float32))
>>> rank.shape, suit.shape, bool(np.allclose(rank.sum(axis=1), 1))
((2, 14), (2, 5), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from scoring.cards import Rank, Suit
from vision.corners import PATCH_H, PATCH_W

MODEL = Path(__file__).parent / "models" / "index_reader.npz"
RANKS = tuple(Rank)  # head index k is RANKS[k]; the last class is "not an index"
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
NOT_INDEX_RANK, NOT_INDEX_SUIT = len(RANKS), len(SUITS)


def screen_view(x: np.ndarray) -> np.ndarray:
    """The screen's inputs from full feature rows: the ink patch averaged over 2x2 blocks, the rest as is.

    >>> screen_view(np.ones((3, 1104), np.float32)).shape
    (3, 528)
    """
    n = len(x)
    ink = x[:, :PATCH_W * PATCH_H].reshape(n, PATCH_H // 2, 2, PATCH_W // 2, 2).astype(np.float32)
    pooled = ink.mean(axis=(2, 4)).reshape(n, -1)
    return np.hstack([pooled.round() if x.dtype == np.uint8 else pooled, x[:, PATCH_W * PATCH_H:]]).astype(x.dtype)


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class Network:
    """Weights of the two-headed network (inputs -> hidden ReLU -> rank and suit softmax)."""

    w1: np.ndarray
    b1: np.ndarray
    wr: np.ndarray
    br: np.ndarray
    ws: np.ndarray
    bs: np.ndarray

    @staticmethod
    def fresh(rng: np.random.Generator, inputs: int, hidden: int) -> Network:
        """Randomly initialised weights (He initialisation)."""
        def layer(n_in: int, n_out: int) -> np.ndarray:
            return (rng.standard_normal((n_in, n_out)) * np.sqrt(2 / n_in)).astype(np.float32)

        return Network(layer(inputs, hidden), np.zeros(hidden, np.float32), layer(hidden, len(RANKS) + 1),
                       np.zeros(len(RANKS) + 1, np.float32), layer(hidden, len(SUITS) + 1),
                       np.zeros(len(SUITS) + 1, np.float32))

    def index(self, x: np.ndarray) -> np.ndarray:
        """How surely each row of features is an index corner at all (neither head says "not an index")."""
        p_rank, p_suit = self.predict(x)
        return 1 - np.maximum(p_rank[:, NOT_INDEX_RANK], p_suit[:, NOT_INDEX_SUIT])

    def hidden(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(x @ self.w1 + self.b1, 0)

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities for each row of features."""
        h = self.hidden(x)
        return softmax(h @ self.wr + self.br), softmax(h @ self.ws + self.bs)

    def arrays(self, prefix: str = "") -> dict[str, np.ndarray]:
        """The weights by name (``prefix`` before each), as saved."""
        return {prefix + k: getattr(self, k) for k in _WEIGHTS}


_WEIGHTS = ("w1", "b1", "wr", "br", "ws", "bs")


@dataclass(frozen=True)
class Reader:
    """The trained reader and screen, the screen's pass mark, and the median card geometry in index
    units (``centre_x``, ``centre_y``, ``card_height``; see ``vision.train``)."""

    net: Network
    screen: Network
    screen_pass: float
    geometry: dict[str, float]

    def save(self, path: Path) -> None:
        np.savez_compressed(path, **self.net.arrays(), **self.screen.arrays("screen_"),
                            screen_pass=np.float32(self.screen_pass),
                            **{k: np.float32(v) for k, v in self.geometry.items()})


@cache
def load(path: Path = MODEL) -> Reader:
    """The trained reader stored at ``path``."""
    if not path.exists():
        raise FileNotFoundError(f"card reader model {path} is missing: run python -m vision.train")
    with np.load(path) as data:
        net, screen = (Network(*(data[prefix + k].astype(np.float32) for k in _WEIGHTS)) for prefix in ("", "screen_"))
        geometry = {k: float(data[k]) for k in ("centre_x", "centre_y", "card_height")}
        return Reader(net, screen, float(data["screen_pass"]), geometry)
