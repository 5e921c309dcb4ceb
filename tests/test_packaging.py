"""What ``pip install .`` puts on a Raspberry Pi: the reader, the engine, the device and club mode, with
their models and the two fonts the dice reader draws in; never the tools that make data and recordings
(``tools/``), nor the fonts only data is drawn in. The files are those of setuptools' ``build_py``, the
step whose output the wheel packs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The paths of the files the wheel holds, relative to site-packages."""
    lib = tmp_path_factory.mktemp("wheel") / "lib"
    build = "import setuptools, sys; sys.argv[0] = 'setup.py'; setuptools.setup()"
    subprocess.run([sys.executable, "-c", build, "-q", "build_py", "--build-lib", str(lib)], cwd=ROOT,
                   check=True, capture_output=True, timeout=300)
    return {path.relative_to(lib).as_posix() for path in lib.rglob("*") if path.is_file()}


def test_the_runtime_and_its_data_are_installed(installed: set[str]) -> None:
    for path in ("scoring/cribbage.py", "vision/cards.py", "vision/dice.py", "vision/models/index_reader.onnx",
                 "vision/models/cocked_judge.onnx", "vision/fonts/DejaVuSans-Bold.ttf", "device/cli.py",
                 "device/demo/stage.py", "device/demo/dice_drawing.py", "device/demo/recordings/deck.png",
                 "club/serve.py", "firmware/protocol.py"):
        assert path in installed


def test_the_tools_and_their_fonts_are_not(installed: set[str]) -> None:
    assert not [path for path in installed if path.startswith("tools/")]
    assert sorted(path for path in installed if path.startswith("vision/fonts/") and path.endswith(".ttf")) == [
        "vision/fonts/DejaVuSans-Bold.ttf", "vision/fonts/DejaVuSans.ttf"]
