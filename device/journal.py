"""The journal: every confirmed event of every game, in SQLite on disk, so nothing confirmed is lost.

Events are only ever appended (an undo is itself an event), each in its own transaction committed with
``synchronous=FULL`` in WAL mode before the caller may show it. On start the device reads the game in
progress back and replays it.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.db"
>>> with Journal(path, clock=lambda: 1700000000.0) as journal:
...     game = journal.start_game("cribbage", ["Ann", "Bob"], {"target": 121})
...     journal.append(game, "show", {"seat": 0, "points": 12})
...     journal.append(game, "undo", {})
1
2
>>> with Journal(path) as journal:
...     current = journal.current_game()
...     [(event.seq, event.kind) for event in journal.events(current.id)]
[(1, 'show'), (2, 'undo')]
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

SCHEMA_VERSION = 1
SET_ASIDE = "set_aside"
"""The key of a set-aside game's result: why it was set aside (``Journal.set_aside``)."""
ROOM = 1 << 20
"""With less free space than this (bytes), a SQLite I/O error means a full disk: in WAL mode opening the
journal needs room for its ``-wal`` and ``-shm`` files, and fails with "disk I/O error" without it."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    settings TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


DAMAGED = "Journal damaged: see the log"
"""What the OLED says of a journal SQLite finds damaged."""


class JournalError(RuntimeError):
    """The journal cannot be read or written (a damaged file, a full disk, ...); the message says which,
    ``brief`` says it in a few words for the OLED, and ``full`` whether the disk is full (room made later
    lets it work)."""

    def __init__(self, message: str, brief: str | None = None, full: bool = False) -> None:
        super().__init__(message)
        self.brief = brief or message
        self.full = full


class Owner:
    """The one process that writes the journal at ``path``: an exclusive lock on ``PATH.lock`` (holding the
    owner's process id), taken on entering and let go on leaving, or when the process ends however it
    ends. A second device (or a demo handing over to live play) on the same journal would append every
    event twice; it is refused instead, with a JournalError naming the owner. Readers
    (``tablescore history``) take no lock.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.db"
    >>> with Owner(path):
    ...     with Owner(path):
    ...         pass
    Traceback (most recent call last):
    ...
    device.journal.JournalError: the journal ... is in use by another tablescore (process ...): one device writes a journal at a time
    >>> with Owner(path):  # let go
    ...     pass
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(f"{path}.lock")
        self.fd: int | None = None

    def __enter__(self) -> Owner:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise JournalError(f"cannot lock the journal: {self.path}: {error.strerror or error}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            owner = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            journal = self.path.with_suffix("")
            raise JournalError(f"the journal {journal} is in use by another tablescore (process {owner}): one "
                               "device writes a journal at a time", "Journal in use by another tablescore") from None
        self.fd = fd
        try:
            os.ftruncate(fd, 0)
            os.write(fd, f"{os.getpid()}\n".encode())
        except OSError:  # a full disk: the lock holds all the same
            pass
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self.fd is not None:
            os.close(self.fd)  # lets the lock go
            self.fd = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game in the journal."""

    id: int
    game: str
    players: list[str]
    settings: dict[str, Any]
    started: float
    finished: float | None
    result: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class Recorded:
    """One confirmed event of a game as the journal keeps it: its number within the game, kind, data
    (``scoring.events.Event.record``) and time."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


class Journal:
    """The SQLite journal at ``path``; ``clock`` gives the time stamps (seconds since the epoch)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.clock = clock
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            (check,) = self.db.execute("PRAGMA quick_check").fetchone()
            if check != "ok":
                raise JournalError(f"journal {self.path} is damaged: {check}", DAMAGED)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(f"journal {self.path} was written by a newer tablescore (schema {version})")
            with self._transaction():
                for statement in SCHEMA.split(";"):
                    self.db.execute(statement)
                self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.Error as error:
            if self._full(error):
                raise JournalError(f"the disk is full: the journal {self.path} cannot be opened ({error})",
                                   "the disk is full: no room to open the journal", full=True) from error
            if getattr(error, "sqlite_errorcode", None) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
                raise JournalError(f"the journal {self.path} is damaged: {error}", DAMAGED) from error
            raise JournalError(f"cannot open the journal {self.path}: {error}") from error

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the database; everything appended is already on disk."""
        self.db.close()

    def start_game(self, game: str, players: list[str], settings: dict[str, Any]) -> int:
        """Record a new game and return its id."""
        with self._transaction():
            cursor = self.db.execute(
                "INSERT INTO games (game, players, settings, started) VALUES (?, ?, ?, ?)",
                (game, json.dumps(players), json.dumps(settings), self.clock()),
            )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def append(self, game_id: int, kind: str, data: dict[str, Any]) -> int:
        """Commit one confirmed event durably and return its number within the game (from 1)."""
        with self._transaction():
            (seq,) = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?", (game_id,)
            ).fetchone()
            self.db.execute(
                "INSERT INTO events (game_id, seq, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, kind, json.dumps(data), self.clock()),
            )
        return int(seq)

    def finish(self, game_id: int, result: dict[str, Any]) -> None:
        """Mark a game finished with its final result."""
        with self._transaction():
            self.db.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                (self.clock(), json.dumps(result), game_id),
            )

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        return [self._record(row) for row in self._query("SELECT * FROM games ORDER BY id")]

    def game(self, game_id: int) -> GameRecord:
        """The game with id ``game_id``."""
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise JournalError(f"no game {game_id} in the journal {self.path}")
        return self._record(rows[0])

    def set_aside(self, game_id: int, reason: str) -> None:
        """Set aside a game that can no longer be resumed (its events no longer replay): it is kept, every
        event of it, and marked finished with the result ``{"set_aside": reason}``, so that it is never
        resumed again; ``tablescore history`` lists it as damaged."""
        self.finish(game_id, {SET_ASIDE: reason})

    def current_game(self, game: str | None = None) -> GameRecord | None:
        """The newest game (of the kind ``game``, if given) not yet finished, if any: the one to resume."""
        rows = self._query("SELECT * FROM games WHERE finished IS NULL AND (? IS NULL OR game = ?) "
                           "ORDER BY id DESC LIMIT 1", (game, game))
        return self._record(rows[0]) if rows else None

    def events(self, game_id: int) -> list[Recorded]:
        """A game's events in order."""
        rows = self._query("SELECT seq, kind, data, at FROM events WHERE game_id = ? ORDER BY seq", (game_id,))
        return [Recorded(seq, kind, json.loads(data), at) for seq, kind, data, at in rows]

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, args).fetchall()
        except sqlite3.Error as error:
            raise JournalError(f"cannot read the journal {self.path}: {error}") from error

    @staticmethod
    def _record(row: tuple[Any, ...]) -> GameRecord:
        id_, game, players, settings, started, finished, result = row
        return GameRecord(id_, game, json.loads(players), json.loads(settings), started, finished,
                          json.loads(result) if result else None)

    def _full(self, error: sqlite3.Error) -> bool:
        """Whether SQLite's ``error`` comes of a full disk: SQLITE_FULL, or an I/O error with less than
        ROOM left where the journal lies."""
        code = getattr(error, "sqlite_errorcode", None)
        if code == sqlite3.SQLITE_FULL:
            return True
        if code is None or code & 0xFF != sqlite3.SQLITE_IOERR:
            return False
        try:
            disk = os.statvfs(self.path.parent)
        except OSError:
            return False
        return disk.f_bavail * disk.f_frsize < ROOM

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``; on any failure rolled back, and SQLite's errors reported."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            yield
            self.db.execute("COMMIT")
        except BaseException as error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(error, sqlite3.Error) and self._full(error):
                raise JournalError(f"the disk is full (journal {self.path})", "the disk is full: not saved",
                                   full=True) from error
            if isinstance(error, sqlite3.Error):
                raise JournalError(f"cannot write the journal {self.path}: {error}") from error
            raise
