"""Power cuts: the device is killed with SIGKILL at 200 random moments of a demo recording (the
demo's Cribbage game, its rendered frames through the real card reader) and restarted each time (from 25
events before the game's end, so that the cuts cross into the next game on a loaded machine too). Every
restart must find the journal intact, every confirmation the OLED showed in it, and the game resumed as
the reference replay has it. The harness is ``power_cut``; the benchmark (benchmarks/power_cut.py) makes
2,000 cuts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.journal import Journal
from tests.reliability.demo_table import Recorded, device
from tests.reliability.power_cut import power_cuts, read_journal
from tests.reliability.table_script import Keeper, digest, position

CUTS = 200
HEAD_START = 25
"""Events before the end of the game the CI run starts from."""


def test_power_cuts_lose_nothing_and_damage_nothing(tmp_path: Path, demo: Recorded) -> None:
    reference = demo.reference
    tally = power_cuts(demo, tmp_path, CUTS, head_start=len(reference.events) - HEAD_START)
    assert tally.problems == []
    assert (tally.cuts, tally.losses, tally.corruptions, tally.mismatches, tally.crashes) == (CUTS, 0, 0, 0, 0)
    assert tally.resumes > CUTS // 2 and tally.shown > CUTS // 2  # most restarts got going and showed confirmations
    assert tally.pending > 0  # some cuts fell between a commit and its page
    assert tally.games >= 1  # the cuts ran through a whole game, its result recorded, and on into the next
    run = device(demo.blank, demo.marks, tmp_path / "journal.db", Keeper())  # one more start, in this process
    games = run.journal.games()
    assert [game.result for game in games[:-1]] == [reference.result] * (len(games) - 1)
    now = position(run.journal)[1]
    assert digest(run.play.state) == reference.states[now]
    assert tally.events == (len(games) - 1) * len(reference.events) + now


def test_a_device_that_shows_a_confirmation_before_committing_it_is_caught(
        tmp_path: Path, demo: Recorded, monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness can fail: a journal that commits each event only with the next loses the last one
    shown whenever the power goes."""
    def lazy(self: Journal, game_id: int, kind: str, data: dict) -> int:  # type: ignore[type-arg]
        if self.db.in_transaction:
            self.db.execute("COMMIT")
        self.db.execute("BEGIN IMMEDIATE")
        (seq,) = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game_id = ?",
                                 (game_id,)).fetchone()
        self.db.execute("INSERT INTO events VALUES (?, ?, ?, ?, 0)", (game_id, seq, kind, json.dumps(data)))
        return int(seq)

    monkeypatch.setattr(Journal, "append", lazy)
    tally = power_cuts(demo, tmp_path, 20)
    assert tally.losses > 0, tally


def test_a_damaged_journal_is_found(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with Journal(path) as journal:
        journal.append(journal.start_game("cribbage", ["Ann", "Bob"], {}), "deal", {"dealer": 0})
    assert len(read_journal(path)[0][3]) == 1
    data = bytearray(path.read_bytes())
    for page in range(4096, len(data), 4096):
        data[page:page + 8] = b"\xff" * 8  # each table's page header spoiled
    path.write_bytes(data)
    assert isinstance(read_journal(path), str)
