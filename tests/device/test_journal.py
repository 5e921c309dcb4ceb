"""The journal: durable, append-only, clear about failures."""

import multiprocessing
import os
import signal
import sqlite3
from pathlib import Path

import pytest

from device.journal import Journal, JournalError


def test_events_come_back_in_order_with_their_data(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db", clock=lambda: 5.0) as journal:
        first = journal.start_game("gin", ["Ann", "Bob"], {"limit": 100})
        second = journal.start_game("ofc", ["A", "B", "C"], {})
        for n in range(5):
            assert journal.append(first, "hand", {"n": n}) == n + 1
        journal.append(second, "hand", {"x": [1, 2]})
        journal.finish(first, {"winner": 0})
    with Journal(tmp_path / "j.db") as journal:
        assert [e.data["n"] for e in journal.events(first)] == [0, 1, 2, 3, 4]
        assert journal.events(second)[0].data == {"x": [1, 2]}
        assert journal.current_game() == journal.game(second)
        assert journal.game(first).result == {"winner": 0} and journal.game(first).finished == 5.0
        assert [g.game for g in journal.games()] == ["gin", "ofc"]


def test_uses_wal_and_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        assert journal.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert journal.db.execute("PRAGMA synchronous").fetchone() == (2,)


def test_a_damaged_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(JournalError, match="j.db"):
        Journal(path)


def test_a_full_disk_loses_nothing_already_written(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(path) as journal:
        game = journal.start_game("cribbage", ["A", "B"], {})
        journal.append(game, "show", {"points": 4})
        (pages,) = journal.db.execute("PRAGMA page_count").fetchone()
        journal.db.execute(f"PRAGMA max_page_count={pages}")  # the disk is now full
        with pytest.raises(JournalError, match="full"):
            for n in range(10_000):
                journal.append(game, "show", {"points": n, "pad": "x" * 500})
        appended = len(journal.events(game))
    with Journal(path) as journal:
        assert len(journal.events(game)) == appended
        assert journal.events(game)[0].data == {"points": 4}


def test_an_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal, pytest.raises(JournalError, match="no game 7"):
        journal.game(7)


def _append_forever(path: str, ready: "multiprocessing.synchronize.Event") -> None:
    with Journal(path) as journal:
        game = journal.start_game("barbu", ["A", "B", "C", "D"], {})
        n = 0
        while True:
            n = journal.append(game, "trick", {"n": n})
            if n == 50:
                ready.set()


def test_a_killed_writer_leaves_every_committed_event(tmp_path: Path) -> None:
    """SIGKILL mid-stream: the file is intact and holds an unbroken run of events."""
    path = str(tmp_path / "j.db")
    ready = multiprocessing.get_context("fork").Event()
    writer = multiprocessing.get_context("fork").Process(target=_append_forever, args=(path, ready))
    writer.start()
    assert ready.wait(timeout=30)
    assert writer.pid is not None
    os.kill(writer.pid, signal.SIGKILL)
    writer.join(timeout=30)
    with Journal(path) as journal:
        events = journal.events(1)
    assert len(events) >= 50
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    assert [e.data["n"] for e in events] == list(range(len(events)))
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
