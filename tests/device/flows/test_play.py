"""Play: a journal that cannot be written refuses the confirmation and says why, with the state as it
was; the seat panel's Confirm held is undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.journal import JournalError
from tests.device.flows.script import Table


def test_a_failed_write_is_shown_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path / "j.db", "cribbage", ["Ann", "Bob"])
    before = table.play.state

    def full(*args: object) -> int:
        raise JournalError("cannot write the journal: database or disk is full")

    monkeypatch.setattr(table.journal, "append", full)
    table.press("ok")
    assert table.play.state == before
    assert table.lines()[1] == "! cannot write the journal: database or disk is full"


def test_panel_confirm_held_undoes_and_settled_boards_are_set_aside(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "ofc", ["Ann", "Bob"])
    rows = {"seat1.front": "QS QH 7D", "seat1.middle": "QD QC 9S 8S 2S", "seat1.back": "AS AH AD 2H 2D",
            "seat2.front": "KS KH 7H", "seat2.middle": "KD KC 6S 5S 4S", "seat2.back": "3S 3H 3D 2C 8D"}
    for zone, codes in rows.items():
        table.put(zone, codes)
    table.panel(2, "confirm")
    assert table.play.state.totals == (19, -19)
    table.panel(2, "confirm", "hold")
    assert table.play.state.totals == (0, 0)
    table.ok()
    assert table.lines()[0].startswith("setting: Ann 0/0/0")  # the settled boards are set aside
