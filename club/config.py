"""The club server's configuration: one TOML file, checked on load as the device's is.

>>> config = parse('''
... [club]
... name = "riverside"
... [broker]
... username = "server"
... password = "s3cret"
... [server]
... port = 8080
... ''')
>>> config.club.name, config.broker.username, config.server.port, config.server.database
('riverside', 'server', 8080, 'club.db')
>>> parse('[club]\\nname = "river side"')
Traceback (most recent call last):
...
device.config.ConfigError: club.toml: [club] name: 'river side' must be letters, digits, '-' or '_' (it names an MQTT topic)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from club.messages import check_name
from device.config import BrokerSection, ConfigError, Section, section


@dataclass(frozen=True)
class ClubName(Section):
    """Which club: the first level of its tables' topics (``tablescore/<name>/<table>/...``)."""

    name: str = ""

    def check(self) -> None:
        check_name("name", self.name)


@dataclass(frozen=True)
class Server(Section):
    """The server's database and where its web pages listen."""

    database: str = "club.db"
    listen: str = "0.0.0.0"
    port: int = 8080

    def check(self) -> None:
        if not 0 <= self.port < 65536:
            raise ValueError(f"port: {self.port} is not a TCP port (0-65535)")


@dataclass(frozen=True)
class ServerConfig:
    """The whole configuration; ``[club] name`` has no default."""

    club: ClubName
    broker: BrokerSection = field(default_factory=BrokerSection)
    server: Server = field(default_factory=Server)


SECTIONS = ("club", "broker", "server")


def parse(text: str, source: str = "club.toml") -> ServerConfig:
    """The configuration in TOML ``text``; ``source`` names it in messages."""
    try:
        data = tomllib.loads(text)
        unknown = set(data) - set(SECTIONS)
        if unknown:
            raise ConfigError(f"[{min(unknown)}]: unknown section (known: {', '.join(SECTIONS)})")
        if "club" not in data:
            raise ConfigError("[club] name: the club's name is missing")
        return ServerConfig(section(ClubName, data["club"], "club"), section(BrokerSection, data.get("broker", {}), "broker"),
                            section(Server, data.get("server", {}), "server"))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source}: not valid TOML: {error}") from None
    except ConfigError as error:
        raise ConfigError(f"{source}: {error}") from None


def load(path: str | Path) -> ServerConfig:
    """The configuration in the file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read the configuration {path}: {error}") from None
    return parse(text, str(path))
