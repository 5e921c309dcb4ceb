"""The recorded games the power-cut and fault tests play, recorded and replayed once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.demo_table import Recorded
from tests.reliability.demo_table import recorded as demo_recorded
from tests.reliability.table_script import Reference, Script, record, reference


@pytest.fixture(scope="session")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Script, Reference]:
    """The scripted Cribbage game of the fault tests (a stand-in reader sees the cards it is told)."""
    folder: Path = tmp_path_factory.mktemp("recorded")
    script = record(folder)
    return script, reference(script, folder)


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Recorded:
    """The demo's Cribbage recording, played once through the device with the real card reader."""
    return demo_recorded(tmp_path_factory.mktemp("demo"))
