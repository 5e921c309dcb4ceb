"""The index-corner classifier: a small NumPy network reading rank and suit from a corner patch.

One hidden layer feeds two softmax heads: the rank (A..K, or "not an index") and the suit (S H D C, or
"not an index"). Its weights are ``vision/models/index_reader.npz``, made by ``python -m vision.train``
from synthetic card tables only.

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

MODEL = Path(__file__).parent / "models" / "index_reader.npz"
RANKS = tuple(Rank)  # head index k is RANKS[k]; the last class is "not an index"
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
NOT_INDEX_RANK, NOT_INDEX_SUIT = len(RANKS), len(SUITS)


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

    def hidden(self, x: np.ndarray) -> np.ndarray:
        return np.maximum(x @ self.w1 + self.b1, 0)

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities for each row of features."""
        h = self.hidden(x)
        return softmax(h @ self.wr + self.br), softmax(h @ self.ws + self.bs)

    def save(self, path: Path, **extra: np.ndarray) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, wr=self.wr, br=self.br, ws=self.ws, bs=self.bs,
                            **extra)


@cache
def load(path: Path = MODEL) -> tuple[Network, dict[str, float]]:
    """The trained network and the card geometry stored with it (see ``vision.train``)."""
    if not path.exists():
        raise FileNotFoundError(f"card reader model {path} is missing: run python -m vision.train")
    with np.load(path) as data:
        net = Network(*(data[k].astype(np.float32) for k in ("w1", "b1", "wr", "br", "ws", "bs")))
        geometry = {k: float(data[k]) for k in data.files if data[k].ndim == 0}
    return net, geometry
