"""The recorded game the power-cut and fault tests play, recorded and replayed once per session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.reliability.table_script import Reference, Script, record, reference


@pytest.fixture(scope="session")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Script, Reference]:
    folder: Path = tmp_path_factory.mktemp("recorded")
    script = record(folder)
    return script, reference(script, folder)
