"""Upright patches of index-corner candidates, sampled for the networks: ``features(planes, found)``, a row a candidate.

Each candidate (``vision.corners.Candidates``: a rank mark, its card's "down" and its scale) is sampled as an upright,
scale-normalised patch (``PATCH_W`` x ``PATCH_H``), a coarser copy of its redness and a coarse view of the corner's
surroundings, all relative to the paper, from the pyramid level whose pixels match its scale; ``glances`` take one
point in a few of the same, for the looks in front of the screen (``vision.glyphs``).

>>> import numpy as np
>>> from vision import corners
>>> features(np.full((120, 160, 3), 200, np.uint8), corners.candidates(np.full((120, 160, 3), 200, np.uint8))).shape
(0, 1104)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.corners import Candidates, Planes

PATCH_W, PATCH_H = 24, 32
"""The upright patch a candidate is read from."""
LEFT, RIGHT, TOP, BOTTOM = -1.1, 1.1, -1.0, 1.7
"""The patch's extent in units of the rank-to-suit distance, from the rank mark's centre."""
SPLIT = 0.5
"""Where a patch's suit part begins (scale units down from the rank mark): taken from beside the rank where
its suit is printed there."""
CONTEXT, CONTEXT_SPAN = 12, 5.0
"""The coarse surroundings: CONTEXT x CONTEXT samples over CONTEXT_SPAN scale units, from above-left of
the rank mark (where a card's corner is) to below-right (into the card)."""
FEATURES = PATCH_W * PATCH_H + (PATCH_W // 2) * (PATCH_H // 2) + CONTEXT * CONTEXT



def _grid(w: int, h: int) -> NDArray[Any]:
    """Sample points (h * w, 2) over the patch's extent, in scale units from the rank mark."""
    out: NDArray[Any] = np.stack(np.meshgrid(LEFT + (np.arange(w) + 0.5) / w * (RIGHT - LEFT),
                                             TOP + (np.arange(h) + 0.5) / h * (BOTTOM - TOP)), axis=-1).reshape(-1, 2)
    return out


_GRID, _COARSE_GRID = _grid(PATCH_W, PATCH_H), _grid(PATCH_W // 2, PATCH_H // 2)
_CONTEXT = np.stack(np.meshgrid(*[-2.0 + (np.arange(CONTEXT) + 0.5) / CONTEXT * CONTEXT_SPAN] * 2),
                    axis=-1).reshape(-1, 2)
_MARK_ROWS = slice(round((-0.6 - TOP) / (BOTTOM - TOP) * PATCH_H), round((0.6 - TOP) / (BOTTOM - TOP) * PATCH_H))
_MARK_COLS = slice(round((-0.6 - LEFT) / (RIGHT - LEFT) * PATCH_W), round((0.6 - LEFT) / (RIGHT - LEFT) * PATCH_W))


def features(frame: NDArray[Any] | Planes, found: Candidates) -> NDArray[Any]:
    """One row of classifier inputs per candidate: the upright ink patch, its coarse redness, and a
    coarse view of the surroundings (where a corner's card edges are), all relative to the paper."""
    out = np.empty((len(found), FEATURES), np.float32)
    for rows, x in feature_blocks(frame, found):
        out[rows] = x
    return out


def feature_blocks(frame: NDArray[Any] | Planes, found: Candidates) -> Iterator[tuple[NDArray[Any], NDArray[Any]]]:
    """The rows of ``features`` a block of at most ``_BLOCK`` candidates at a time: (the block's candidate
    indices, its rows), so a caller can set rows aside before the next block is made.

    Candidates are sampled in order of scale, so each block's maps and samples stay in the cache and
    each block reads each pyramid level in one ``cv2.remap`` call."""
    for rows, samples in _sampled_blocks(frame, found, _POINTS, _POINT_BOUNDS, _BLOCK):
        yield rows, _normalised(*samples)


def glance_blocks(frame: NDArray[Any] | Planes, found: Candidates, stride: int, order: NDArray[Any] | None = None
                  ) -> Iterator[tuple[NDArray[Any], NDArray[Any]]]:
    """A cheap look at each candidate (or at those of ``order``: indices, by scale as ``Candidates.by_scale``
    orders them), a block at a time as ``feature_blocks``: the rows of ``glance_view`` (one point in
    ``stride`` each way of the patch's points, renormalised by their own contrast), sampled straight from
    the frame at a fraction of the cost of ``features``."""
    glance = _glance(stride)
    block = _BLOCK * stride * stride // 4
    for rows, samples in _sampled_blocks(frame, found, glance.points, glance.bounds, block, order):
        yield rows, _glance_normalised(*samples, glance.mark)


def glances(frame: NDArray[Any] | Planes, found: Candidates, stride: int) -> NDArray[Any]:
    """All rows of ``glance_blocks``, in the candidates' order."""
    out = np.empty((len(found), glance_features(stride)), np.float32)
    for rows, x in glance_blocks(frame, found, stride):
        out[rows] = x
    return out


def _sampled_blocks(frame: NDArray[Any] | Planes, found: Candidates, points: NDArray[Any], bounds: list[int],
                    block: int, order: NDArray[Any] | None = None
                    ) -> Iterator[tuple[NDArray[Any], tuple[NDArray[Any], NDArray[Any], NDArray[Any]]]]:
    """Raw samples (uint8) of ``points`` (the ink patch's, its redness's and the surroundings' points, one
    after the other as ``bounds`` splits them, in scale units) of each block of ``block`` candidates, by
    scale (or of ``order``'s, in its order). A glance at stride s takes blocks of ``_BLOCK`` s^2 / 4
    candidates, about as many samples a block as the glance at stride 2 (coarser glances spend less Python
    a candidate: 12% less at 4)."""
    by_scale = found.by_scale() if order is None else order
    if not len(by_scale):
        return
    lo_pyramid, red_pyramid = (frame if isinstance(frame, Planes) else Planes(frame)).pyramids
    step = found.scale * (RIGHT - LEFT) / PATCH_W
    for start in range(0, len(by_scale), block):
        rows = by_scale[start:start + block]
        part = found[rows]
        xs, ys = part.to_image(points)  # the three grids' points in one product, then each grid apart
        if (beside := np.flatnonzero(part.beside)).size:  # their suits' part of the patch is taken from beside
            at = np.flatnonzero((points[:, 1] > SPLIT) & (np.arange(len(points)) < bounds[2]))
            xs[np.ix_(beside, at)] += part.gap[beside, :1]
            ys[np.ix_(beside, at)] += part.gap[beside, 1:]
        grids = [(xs[:, a:b], ys[:, a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        yield rows, (_sample_patches(lo_pyramid, grids[0], step[rows]),
                     _sample_patches(red_pyramid, grids[1], 2 * step[rows]),
                     _sample_patches(lo_pyramid, grids[2], part.scale * CONTEXT_SPAN / CONTEXT))


_BLOCK = 512
"""Candidates sampled together by ``feature_blocks`` (and by ``glance_blocks`` at stride 2)."""
_POINTS = np.vstack([_GRID, _COARSE_GRID, _CONTEXT])
_POINT_BOUNDS = np.cumsum([0, len(_GRID), len(_COARSE_GRID), len(_CONTEXT)]).tolist()


def _every(h: int, w: int, stride: int) -> NDArray[Any]:
    """Indices, in a row-major h x w grid, of one point in ``stride`` each way (the middle one of each
    stride, or the one after it).

    >>> _every(4, 6, 2).tolist()
    [7, 9, 11, 19, 21, 23]
    """
    at = stride // 2
    return (np.arange(at, h, stride)[:, None] * w + np.arange(at, w, stride)).ravel()


@dataclass(frozen=True)
class _Glance:
    """The points a glance at one stride takes: indices into the ink patch, its redness and the
    surroundings (as ``features`` orders them), which of the ink points lie on the rank mark, and all the
    points in scale units, split by ``bounds`` into the three."""

    ink: NDArray[Any]
    red: NDArray[Any]
    around: NDArray[Any]
    mark: NDArray[Any]
    points: NDArray[Any]
    bounds: list[int]


@cache
def _glance(stride: int) -> _Glance:
    """The glance of one point in ``stride`` each way (it must leave a point on the rank mark)."""
    ink, red, around = (_every(PATCH_H, PATCH_W, stride), _every(PATCH_H // 2, PATCH_W // 2, stride),
                        _every(CONTEXT, CONTEXT, stride))
    mark = np.isin(ink, (np.arange(PATCH_H)[_MARK_ROWS, None] * PATCH_W + np.arange(PATCH_W)[_MARK_COLS]).ravel())
    if not (len(red) and len(around) and mark.any()):
        raise ValueError(f"a glance of one point in {stride} each way is too coarse to see a rank mark")
    return _Glance(ink, red, around, mark, np.vstack([_GRID[ink], _COARSE_GRID[red], _CONTEXT[around]]),
                   np.cumsum([0, len(ink), len(red), len(around)]).tolist())


def glance_features(stride: int) -> int:
    """How many values a glance at ``stride`` has (``glance_view``).

    >>> [glance_features(stride) for stride in (2, 3, 4)]
    [276, 124, 69]
    >>> glance_features(40)
    Traceback (most recent call last):
    ValueError: a glance of one point in 40 each way is too coarse to see a rank mark
    """
    return len(_glance(stride).points)


def glance_view(x: NDArray[Any], stride: int) -> NDArray[Any]:
    """The glance at ``stride`` (``glance_blocks``) of each row of ``features`` (floats 0..1, or uint8 as
    ``tools.cards.train`` keeps them), as floats 0..1: the glance's points, renormalised by their own contrast,
    just as ``glance_blocks`` does from the frame. The two agree, but for the rounding of uint8 rows:
    features are an affine function of the pixels (ink 1 at the rank mark's darkest, 0 at the patch's
    brightest), clipped where the glance clips too (see ``_glance_normalised``). So a pre-screen fitted on
    stored feature rows reads glances as it read them.

    >>> glance_view(np.ones((3, FEATURES), np.float32), 4).shape
    (3, 69)
    """
    glance = _glance(stride)
    x = x.astype(np.float32) / 255 if x.dtype == np.uint8 else x
    ink = x[:, glance.ink]
    bright, dark = ink.min(axis=1, keepdims=True), ink[:, glance.mark].max(axis=1, keepdims=True)
    span = np.maximum(dark - bright, np.float32(1 / 255))
    red = x[:, PATCH_W * PATCH_H + glance.red]
    around = x[:, FEATURES - CONTEXT * CONTEXT + glance.around]
    out = np.hstack([ink - bright, red, around - bright]) / span
    out[(dark <= bright)[:, 0]] = 0
    clipped: NDArray[Any] = np.clip(out, 0, 1, out=out)
    return clipped


def _glance_normalised(ink: NDArray[Any], coarse: NDArray[Any], around: NDArray[Any], mark: NDArray[Any]) -> NDArray[Any]:
    """Glance rows from samples (n, k each, uint8) of the glance's points: paper is the brightest of the
    glance's ink points, ink the darkest of those on the rank mark (``mark``); redness is twice the red
    over that contrast (as in ``_normalised``). Everything is clipped to 0..1, as ``features`` clips: a
    point brighter than the patch's brightest is 0 in both, and one darker than the rank mark's darkest 1.
    A glance with no contrast at all (its rank mark's points as bright as its brightest) is all 0: the
    features' least contrast (25 levels) can hide what is darker there, so only 0 is the same in both."""
    bright = ink.max(axis=1, keepdims=True).astype(np.float32)
    span = bright - ink[:, mark].min(axis=1, keepdims=True)
    out = _scaled(ink, coarse, around, bright, np.maximum(span, 1))
    out[span[:, 0] == 0] = 0
    return out


def _normalised(ink: NDArray[Any], coarse: NDArray[Any], around: NDArray[Any]) -> NDArray[Any]:
    """Feature rows from samples (n, k each, uint8) of the ink patch, its redness and its surroundings: paper is
    the brightest of the patch, ink the darkest of the rank mark (not of the table beside it)."""
    n = len(ink)
    p_lo = ink.reshape(n, PATCH_H, PATCH_W)[:, _MARK_ROWS, _MARK_COLS].min(axis=(1, 2))[:, None].astype(np.float32)
    span = np.maximum(ink.max(axis=1)[:, None] - p_lo, 25)
    return _scaled(ink, coarse, around, p_lo + span, span)  # 1 - (v - p_lo) / span is (top - v) / span


def _scaled(ink: NDArray[Any], coarse: NDArray[Any], around: NDArray[Any], top: NDArray[Any], span: NDArray[Any]) -> NDArray[Any]:
    """Rows of (top - ink) / span, 2 coarse / span and (top - around) / span (``top`` and ``span``: n x 1),
    clipped to 0..1."""
    out = np.empty((len(ink), ink.shape[1] + coarse.shape[1] + around.shape[1]), np.float32)
    red_at = ink.shape[1] + coarse.shape[1]
    np.subtract(top, ink, out=out[:, :ink.shape[1]])
    np.multiply(coarse, np.float32(2), out=out[:, ink.shape[1]:red_at])
    np.subtract(top, around, out=out[:, red_at:])
    out /= span
    return np.clip(out, 0, 1, out=out)


def _sample_patches(pyramid: list[NDArray[Any]], points: tuple[NDArray[Any], NDArray[Any]], step: NDArray[Any]) -> NDArray[Any]:
    """Bilinear samples (n, k, uint8) at image ``points`` (x and y, each n x k, n under 32767 as ``cv2.remap``
    wants) from the pyramid level whose pixels are about ``step`` (n,) apart, so large corners are not
    aliased; one ``cv2.remap`` call for each run of rows at one level (rows sorted by step make few runs)."""
    xs, ys = points
    level = np.clip(np.floor(np.log2(np.maximum(step, 1.0))), 0, len(pyramid) - 1).astype(int)
    out = np.empty(xs.shape, np.uint8)
    bounds = [0, *(np.flatnonzero(np.diff(level)) + 1).tolist(), len(level)]
    for start, end in zip(bounds[:-1], bounds[1:], strict=False):
        lv, run = int(level[start]), slice(start, end)
        run_xs, run_ys = (xs[run], ys[run]) if lv == 0 else (xs[run] / 2**lv, ys[run] / 2**lv)
        out[run] = cv2.remap(pyramid[lv], run_xs, run_ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out
