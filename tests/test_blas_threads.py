"""The test session runs NumPy's OpenBLAS on one thread, as the device does (the root ``conftest.py``)."""

from __future__ import annotations

import ctypes
import os
from pathlib import Path

import numpy as np

# What each OpenBLAS build calls its thread-count getter (NumPy's wheels ship scipy-openblas).
GETTERS = ("scipy_openblas_get_num_threads64_", "scipy_openblas_get_num_threads", "openblas_get_num_threads")


def blas_threads() -> list[int]:
    """The thread count of each OpenBLAS library loaded in this process."""
    np.ones(1)  # NumPy (and so its BLAS) is loaded
    maps = Path("/proc/self/maps").read_text(encoding="utf-8").splitlines()
    libraries = sorted({line.split()[-1] for line in maps if "openblas" in line.rsplit("/", 1)[-1]})
    counts = []
    for path in libraries:
        library = ctypes.CDLL(path)  # already loaded: the same library NumPy uses
        counts += [int(getattr(library, name)()) for name in GETTERS if hasattr(library, name)]
    return counts


def test_numpy_blas_runs_one_thread() -> None:
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    assert blas_threads(), "no OpenBLAS library found in this process"
    assert set(blas_threads()) == {1}
