"""The doctests that make scratch folders with ``tempfile`` (journals, frames) leave nothing in the temporary
folder: conftest.py puts them under pytest's own ``tmp_path``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_doctests_leave_no_scratch_folders(tmp_path: Path) -> None:
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "device/journal.py",
                          "device/camera.py"], cwd=ROOT, env={**os.environ, "TMPDIR": str(scratch)},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert [p.name for p in scratch.iterdir() if not p.name.startswith("pytest-of-")] == []
