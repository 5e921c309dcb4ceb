"""The table's club link against a real broker: everything the journal holds reaches the club server once,
in order, whether the broker was there or not; the broker refuses a table another table's topic."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from club.config import parse as parse_server
from club.messages import Entry, topic
from club.mqtt import client
from club.serve import ClubServer
from device.club_link import ClubLink, Outbox
from device.config import ClubSection, ConfigError, parse
from device.journal import Journal
from tests.club.broker import CLUB, Mosquitto, server_config
from tests.club.table import play


def wait_for(check: Callable[[], object], seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.02)


def journal_rows(path: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """A journal's games and events, as the server must hold them."""
    with closing(sqlite3.connect(path)) as db:
        games = [(id_, game, json.loads(players), json.loads(settings), started, finished,
                  json.loads(result) if result else None) for id_, game, players, settings, started, finished, result
                 in db.execute("SELECT * FROM games ORDER BY id")]
        events = [(game_id, seq, kind, json.loads(data), at) for game_id, seq, kind, data, at
                  in db.execute("SELECT * FROM events ORDER BY game_id, seq")]
    return games, events


def server_rows(path: Path, table: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """One table's games and events in the club server's database (none while it is not made yet)."""
    if not path.exists():
        return [], []
    with closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone():
            return [], []
        games = [(id_, game, json.loads(players), json.loads(settings), started, finished,
                  json.loads(result) if result else None) for _, id_, game, players, settings, started, finished,
                 result in db.execute("SELECT * FROM games WHERE tbl = ? ORDER BY id", (table,))]
        events = [(game_id, seq, kind, json.loads(data), at) for _, game_id, seq, kind, data, at
                  in db.execute("SELECT * FROM events WHERE tbl = ? ORDER BY game_id, seq", (table,))]
    return games, events


@pytest.fixture(name="server")
def server_fixture(broker: Mosquitto, tmp_path: Path) -> Iterator[ClubServer]:
    with ClubServer(parse_server(server_config(broker, tmp_path / "club.db"))) as server:
        assert server.connected.wait(10)
        yield server


def resend_taken(journal: Path) -> bool:
    """Whether the link has taken the new club server's request for the whole journal and sent it all again
    (a server with a new database asks each table once, so what is queued afterwards is what is new)."""
    with Outbox(journal, "north") as outbox:
        return bool(outbox.db.execute("SELECT 1 FROM resent").fetchone()) and not outbox.pending()


def club_settings(broker: Mosquitto, table: str, user: str | None = None) -> ClubSection:
    """A table's ``[club]`` section on ``broker``, logging in as ``user`` (the table's own by default)."""
    settings = broker.settings(user or table)
    return ClubSection(host=settings.host, port=settings.port, username=settings.username, password=settings.password,
                name=CLUB, table=table)


def link_for(broker: Mosquitto, table: str, journal: Path, user: str | None = None) -> ClubLink:
    return ClubLink(club_settings(broker, table, user), journal)


def test_a_device_without_a_club_section_has_no_link_and_a_wrong_one_is_named() -> None:
    assert parse('[table]\ngame = "gin"\nplayers = ["Ann", "Bob"]').club is None
    with pytest.raises(ConfigError, match=r"\[club\] table: 'north/east' must be letters"):
        parse('[club]\nname = "riverside"\ntable = "north/east"')
    with pytest.raises(ConfigError, match=r"\[club\] port: 0 is not a TCP port"):
        parse('[club]\nname = "riverside"\ntable = "north"\nport = 0')


def test_entries_wait_in_the_journal_while_the_broker_is_down_and_arrive_once_in_order(
        broker: Mosquitto, server: ClubServer, tmp_path: Path) -> None:
    path = tmp_path / "north.db"
    with Journal(path) as journal, link_for(broker, "north", path) as link:
        play(journal, ["Ann", "Bob"], 2)
        wait_for(lambda: resend_taken(path) and link.brief() == "club ok"
                 and server_rows(server.store.path, "north") == journal_rows(path))
        broker.stop()
        wait_for(lambda: not link.connected)
        play(journal, ["Ann", "Bob"], 10)  # the game ends at the ninth hand and the next begins
        wait_for(lambda: link.brief() == "offline, queued 18")  # 8 hands, a game over, a game begun
        broker.start()
        wait_for(lambda: server_rows(server.store.path, "north") == journal_rows(path))
        wait_for(lambda: link.brief() == "club ok")
    games, events = server_rows(server.store.path, "north")
    assert [game[5] is not None for game in games] == [True, False]
    assert len(events) == 20


def test_the_server_counts_a_message_sent_twice_once(broker: Mosquitto, server: ClubServer, tmp_path: Path) -> None:
    path = tmp_path / "south.db"
    with Journal(path) as journal:
        play(journal, ["Cy", "Di"], 1)
    with link_for(broker, "south", path):
        wait_for(lambda: server_rows(server.store.path, "south") == journal_rows(path))
    (tmp_path / "south.db-club").unlink()  # the link forgets what it sent: it all goes again
    added: list[tuple[str, bool]] = []
    store_add = server.store.add
    server.store.add = lambda entry: added.append((entry.id, store_add(entry))) or added[-1][1]  # type: ignore[method-assign]
    with link_for(broker, "south", path) as link:
        wait_for(lambda: link.brief() == "club ok")
    assert server_rows(server.store.path, "south") == journal_rows(path)
    assert {entry for entry, _ in added} == {"1:0", "1:1", "1:2"}  # received again (perhaps more than once),
    assert not any(new for _, new in added)  # counted once


def test_the_broker_refuses_a_table_another_tables_topic_and_a_wrong_password(broker: Mosquitto, server: ClubServer,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "forged.db"
    with Journal(path) as journal:
        play(journal, ["Eve", "Mal"], 1)
    with link_for(broker, "south", path, user="north") as link:  # north's password, south's topics
        wait_for(lambda: link.brief() == "refused by broker")
        assert link.queued == 3
    wrong = replace(club_settings(broker, "south"), password="guessed")
    with ClubLink(wrong, path) as link:
        wait_for(lambda: link.brief() == "login refused")
        assert "Not authorized" in (link.login or "")
    refused: list[bool] = []
    forger = client(broker.settings("north"), "forger")
    forger.on_publish = lambda c, u, mid, reason, p: refused.append(reason.is_failure)
    forger.connect(broker.settings("north").host, broker.port)
    forger.loop_start()
    entry = Entry("south", 1, 0, {"game": "gin", "players": ["Eve", "Mal"], "settings": {}, "started": 1.0})
    forger.publish(topic(CLUB, "south", "events"), entry.payload(), qos=1).wait_for_publish(5)
    forger.publish(topic(CLUB, "north", "events"), b"not json", qos=1).wait_for_publish(5)
    forger.disconnect()
    forger.loop_stop()
    assert refused == [True, False]  # its own topic it may use (the server skips what is not an entry)
    assert server.store.empty()


def test_tls_to_the_broker_is_a_setting(tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker", ["north"], tls=True).start()
    path = tmp_path / "north.db"
    with Journal(path) as journal:
        play(journal, ["Ann", "Bob"], 1)
    settings = club_settings(broker, "north")
    try:
        with ClubServer(parse_server(server_config(broker, tmp_path / "club.db"))) as server:
            for untrusted in (replace(settings, port=broker.tls_port, tls=True),  # the system's CAs: not ours
                              replace(settings, port=broker.tls_port)):           # no TLS to a TLS listener
                with ClubLink(untrusted, path) as link:
                    time.sleep(1.0)
                    assert link.brief() == "offline, queued 3"
            assert server.store.empty()
            with ClubLink(replace(settings, port=broker.tls_port, tls=True, ca_file=str(broker.ca)), path) as link:
                wait_for(lambda: server_rows(server.store.path, "north") == journal_rows(path))
                wait_for(lambda: link.brief() == "club ok")
    finally:
        broker.stop()
