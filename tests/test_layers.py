"""The layering check of ``make test`` (``lint-imports``, the contracts in pyproject.toml) fails on an import
that crosses a layer the wrong way: tried on a copy of the packages with one such import added."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "vision", "device", "club", "firmware", "tools")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(command), "--no-cache", "--no-logo"], cwd=root, capture_output=True, text=True,
                          timeout=120)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """The packages' Python files and the contracts, copied."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"),
                        copy_function=lambda src, dst: shutil.copy2(src, dst) if src.endswith(".py") else None)
    shutil.copy2(ROOT / "pyproject.toml", tmp_path)
    return tmp_path


def test_the_packages_keep_their_layers(tree: Path) -> None:
    result = lint_imports(tree)
    assert result.returncode == 0, result.stdout


@pytest.mark.parametrize(("module", "line", "said"), [
    ("scoring/cards.py", "from vision import observations", "scoring is not allowed to import vision"),
    ("vision/cards.py", "from device import panel", "vision is not allowed to import device"),
    ("device/session.py", "from tools.cards import render", "device is not allowed to import tools"),
    ("club/store.py", "from vision.observations import CardSighting", "club is not allowed to import vision"),
])
def test_an_import_against_the_layers_fails_the_check(tree: Path, module: str, line: str, said: str) -> None:
    with (tree / module).open("a") as file:
        file.write(f"\n{line}  # noqa\n")
    result = lint_imports(tree)
    assert result.returncode == 1 and said in result.stdout, result.stdout
