"""The club server's database: every table's games and events as the tables' journals hold them, in
SQLite on disk.

An entry is stored once, whatever how often it arrives: games are keyed by (table, game id) and events by
(table, game id, seq), the journal's own ids. Each entry is committed (``synchronous=FULL``) before the
broker hears it was received, so a server killed at any moment loses nothing the broker gave it. The
tables' retained status and state are kept too.

>>> import pathlib, tempfile
>>> from club.messages import Entry
>>> record = {"game": "gin", "players": ["Ann", "Bob"], "settings": {}, "started": 1.0, "finished": None,
...           "result": None}
>>> with Store(pathlib.Path(tempfile.mkdtemp()) / "club.db") as store:
...     knock = Entry("north", 1, 1, record, "knock", {"seat": 0}, 2.0)
...     store.add(knock), store.add(knock), [event.kind for event in store.events("north", 1)]
(True, False, ['knock'])
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

from club.messages import END, Entry
from device.journal import GameRecord, Recorded

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    tbl TEXT NOT NULL, id INTEGER NOT NULL, game TEXT NOT NULL, players TEXT NOT NULL, settings TEXT NOT NULL,
    started REAL NOT NULL, finished REAL, result TEXT, PRIMARY KEY (tbl, id));
CREATE TABLE IF NOT EXISTS events (
    tbl TEXT NOT NULL, game_id INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
    at REAL NOT NULL, PRIMARY KEY (tbl, game_id, seq));
CREATE TABLE IF NOT EXISTS tables (tbl TEXT PRIMARY KEY, status TEXT, state TEXT);
"""


class Store:
    """The database at ``path``; safe to share between threads (one at a time)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.executescript(SCHEMA)
        self.lock = threading.Lock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def add(self, entry: Entry) -> bool:
        """Store one entry (its game, and its event if it is one); whether anything was new."""
        record = entry.record
        over = entry.seq == END
        with self.lock:
            before = self.db.total_changes
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.execute(
                    "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tbl, id) DO UPDATE SET "
                    "finished = excluded.finished, result = excluded.result "
                    "WHERE games.finished IS NULL AND excluded.finished IS NOT NULL",
                    (entry.table, entry.game_id, record["game"], json.dumps(record["players"]),
                     json.dumps(record["settings"]), record["started"], record.get("finished") if over else None,
                     json.dumps(record.get("result")) if over and record.get("result") is not None else None))
                if isinstance(entry.seq, int) and entry.seq > 0:
                    self.db.execute("INSERT OR IGNORE INTO events VALUES (?, ?, ?, ?, ?, ?)",
                                    (entry.table, entry.game_id, entry.seq, entry.kind, json.dumps(entry.data),
                                     entry.at if entry.at is not None else record["started"]))
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            return bool(self.db.total_changes > before)

    def report(self, table: str, status: str | None = None, state: dict[str, Any] | None = None) -> None:
        """A table's retained status (``online``, ``offline``) or state."""
        with self.lock:
            self.db.execute("INSERT INTO tables (tbl) VALUES (?) ON CONFLICT DO NOTHING", (table,))
            if status is not None:
                self.db.execute("UPDATE tables SET status = ? WHERE tbl = ?", (status, table))
            if state is not None:
                self.db.execute("UPDATE tables SET state = ? WHERE tbl = ?", (json.dumps(state), table))

    def empty(self) -> bool:
        """Whether no game is stored yet (a new or rebuilt database)."""
        return bool(self._query("SELECT COUNT(*) FROM games")[0][0] == 0)

    def games(self) -> list[tuple[str, GameRecord]]:
        """Every table's games, with the table's name, table by table, oldest first."""
        return [(tbl, GameRecord(id_, game, json.loads(players), json.loads(settings), started, finished,
                                 json.loads(result) if result else None))
                for tbl, id_, game, players, settings, started, finished, result
                in self._query("SELECT * FROM games ORDER BY tbl, id")]

    def events(self, table: str, game_id: int) -> list[Recorded]:
        """One game's events in order."""
        rows = self._query("SELECT seq, kind, data, at FROM events WHERE tbl = ? AND game_id = ? ORDER BY seq",
                           (table, game_id))
        return [Recorded(seq, kind, json.loads(data), at) for seq, kind, data, at in rows]

    def counts(self) -> dict[tuple[str, int], int]:
        """How many events each game has: (table, game id) to count."""
        return {(tbl, game): n for tbl, game, n in
                self._query("SELECT tbl, game_id, COUNT(*) FROM events GROUP BY tbl, game_id")}

    def tables(self) -> dict[str, tuple[str | None, dict[str, Any] | None]]:
        """Each table heard of: its status and its retained state."""
        return {tbl: (status, json.loads(state) if state else None)
                for tbl, status, state in self._query("SELECT * FROM tables ORDER BY tbl")}

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        with self.lock:
            return self.db.execute(sql, args).fetchall()


class TableEvents:
    """One table's events in the store, as ``device.history.replay`` reads a journal's."""

    def __init__(self, store: Store, table: str) -> None:
        self.store, self.table = store, table

    def events(self, game_id: int) -> list[Recorded]:
        return self.store.events(self.table, game_id)
