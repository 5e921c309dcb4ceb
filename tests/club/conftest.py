"""The club tests' parts: a real Mosquitto broker, club servers and tables' configurations."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.broker import CLUB, Mosquitto

TABLES = ["north", "south", "east"]


@pytest.fixture(name="broker")
def broker_fixture(tmp_path: Path) -> Iterator[Mosquitto]:
    """Mosquitto with the club's ACL, a user for the server and each of TABLES."""
    broker = Mosquitto(tmp_path / "broker", TABLES).start()
    yield broker
    broker.stop()


def table_config(broker: Mosquitto, table: str, players: list[str]) -> str:
    """A device configuration (TOML) for ``table`` in club mode, playing Gin Rummy."""
    settings = broker.settings(table)
    names = ", ".join(f'"{name}"' for name in players)
    return (f'[table]\ngame = "gin"\nplayers = [{names}]\n[club]\nname = "{CLUB}"\ntable = "{table}"\n'
            f'host = "{settings.host}"\nport = {settings.port}\npassword = "{settings.password}"\n')


def server_config(broker: Mosquitto, database: Path) -> str:
    """The club server's configuration (TOML) on ``broker``, its web pages on a free port."""
    settings = broker.settings("server")
    return (f'[club]\nname = "{CLUB}"\n[broker]\nhost = "{settings.host}"\nport = {settings.port}\n'
            f'username = "server"\npassword = "{settings.password}"\n[server]\ndatabase = "{database}"\n'
            f'listen = "127.0.0.1"\nport = 0\n')
