"""The club tests' parts: a real Mosquitto broker, club servers and tables' configurations."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.broker import TABLES, Mosquitto


@pytest.fixture(name="broker")
def broker_fixture(tmp_path: Path) -> Iterator[Mosquitto]:
    """Mosquitto with the club's ACL, a user for the server and each of TABLES."""
    broker = Mosquitto(tmp_path / "broker", TABLES).start()
    yield broker
    broker.stop()
