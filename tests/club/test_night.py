"""A club night with everything going wrong: three tables (processes playing Gin Rummy through the device's
session, publishing through the club link) and the club server (``tablescore club serve``) on a real
broker; the broker is stopped and started mid-game, a table is killed with SIGKILL and started again, and
so is the server. Afterwards the server's database holds exactly the tables' journals: every result once,
in order. A server that lost its database gets it all back from the tables."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from club.config import parse as parse_server
from club.serve import ClubServer
from device.journal import Journal
from tests.club.broker import TABLES, Mosquitto, free_port, server_config, table_config
from tests.club.table import play
from tests.club.test_link import journal_rows, link_for, server_rows, wait_for

ROOT = Path(__file__).resolve().parents[2]
HANDS = 24
"""Hands each table confirms: two and a half games of Gin Rummy."""
PACE = 0.25
"""Seconds between a table's hands: the whole night lasts about 6 s, so each fault falls mid-game even when a
busy machine slows the server."""


def start_table(folder: Path, table: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "tests.club.table", str(folder / f"{table}.db"),
                             str(folder / f"{table}.toml"), str(HANDS), str(PACE)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)


def start_server(config: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "device.cli", "club", "serve", "--config", str(config)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stderr=subprocess.PIPE)


def journal_hands(path: Path) -> int:
    return sum(kind == "hand" for _, _, kind, _, _ in journal_rows(path)[1])


def hands_stored(database: Path, table: str) -> int:
    return sum(kind == "hand" for _, _, kind, _, _ in server_rows(database, table)[1])


def test_nothing_is_lost_or_doubled_when_the_broker_a_table_and_the_server_go_down(
        broker: Mosquitto, tmp_path: Path) -> None:
    database, config = tmp_path / "club.db", tmp_path / "club.toml"
    config.write_text(server_config(broker, database).replace("port = 0", f"port = {free_port()}"))
    for n, table in enumerate(TABLES):
        (tmp_path / f"{table}.toml").write_text(table_config(broker, table, [f"P{n}a", f"P{n}b"]))
    server = start_server(config)
    tables = {table: start_table(tmp_path, table) for table in TABLES}
    try:
        wait_for(lambda: all(hands_stored(database, table) >= 3 for table in TABLES))
        broker.stop()  # mid-game: the tables play on, their entries wait in their journals
        time.sleep(0.4)
        broker.start()
        wait_for(lambda: journal_hands(tmp_path / "south.db") >= 8)
        tables["south"].send_signal(signal.SIGKILL)
        tables["south"].wait()
        assert journal_hands(tmp_path / "south.db") < HANDS  # killed mid-game
        tables["south"] = start_table(tmp_path, "south")
        # the server is killed while a table plays: south, started again mid-game (the others may have ended
        # by now on a busy machine)
        assert journal_hands(tmp_path / "south.db") < HANDS
        server.send_signal(signal.SIGKILL)  # what the broker gives it meanwhile waits in the broker
        server.wait()
        time.sleep(0.3)
        server = start_server(config)
        for table, process in tables.items():
            _, errors = process.communicate(timeout=60)
            assert process.returncode == 0, f"{table}: {errors.decode()}"
        for table in TABLES:
            wait_for(lambda table=table: server_rows(database, table) == journal_rows(tmp_path / f"{table}.db"))
    finally:
        for process in [server, *tables.values()]:
            process.kill()
            process.wait()
    for table in TABLES:
        games, events = server_rows(database, table)
        assert sum(kind == "hand" for _, _, kind, _, _ in events) == HANDS
        assert [game[5] is not None for game in games] == [True, True, False]
        for game_id, *_ in games:  # in order: each game's events numbered 1, 2, ... with no gap
            seqs = [seq for game, seq, *_ in events if game == game_id]
            assert seqs == list(range(1, len(seqs) + 1))


def test_a_server_that_lost_its_database_gets_everything_again(broker: Mosquitto, tmp_path: Path) -> None:
    config = parse_server(server_config(broker, tmp_path / "club.db"))
    journals = {table: tmp_path / f"{table}.db" for table in TABLES[:2]}
    for n, path in enumerate(journals.values()):
        with Journal(path) as journal:
            play(journal, [f"P{n}a", f"P{n}b"], 3)
    links = [link_for(broker, table, path).start() for table, path in journals.items()]
    try:
        with ClubServer(config) as server:
            for table, path in journals.items():
                wait_for(lambda table=table, path=path: server_rows(server.store.path, table) == journal_rows(path))
        for name in ("club.db", "club.db-wal", "club.db-shm"):
            (tmp_path / name).unlink(missing_ok=True)
        with ClubServer(config) as server:  # a new database asks the tables for their whole journals
            for table, path in journals.items():
                wait_for(lambda table=table, path=path: server_rows(server.store.path, table) == journal_rows(path))
    finally:
        for link in links:
            link.close()
