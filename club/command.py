"""``tablescore club serve --config club.toml``: the club server (``club.serve``) until SIGTERM."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

log = logging.getLogger("tablescore.club")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``club`` command (``club serve``) to the top-level parser."""
    club = commands.add_parser("club", help="club mode: the server of a club's tables",
                               description="Club mode: many tables, one MQTT broker, a live standings page.")
    actions = club.add_subparsers(title="actions", metavar="ACTION", required=True)
    serve = actions.add_parser("serve", help="keep the club's games and serve the live standings page",
                               description="Subscribe to the club's broker, keep every table's games in a "
                                           "database, and serve the live standings page.")
    serve.add_argument("--config", type=Path, required=True, help="the club server's configuration (club.toml)")
    serve.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until SIGTERM; 2 when the configuration cannot be used."""
    from club.config import load
    from club.serve import ClubServer
    from device.config import ConfigError
    from device.lifecycle import Lifecycle

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    try:
        config = load(args.config)
        club = ClubServer(config)
    except (ConfigError, OSError) as error:
        print(f"tablescore club serve: {error}", file=sys.stderr)
        return 2
    with club, Lifecycle() as life:
        host, port = str(club.web.server_address[0]), club.web.server_address[1]
        log.info("the standings are on http://%s:%s/ (the TV's page: /tv)", host, port)
        life.ready(f"club {config.club.name}: http://{host}:{port}/")
        while life.alive():
            life.wait(1.0)
    return 0
