"""A journal written by an earlier tablescore still replays: ``fixtures/journal-v1.db`` holds whole games of
every kind (finished, in progress, cut short mid-hand, with undos, one set aside), written with schema 1
through the device's flows; ``fixtures/journal-v1.json`` holds what that code showed for each game after
replaying it (the screen, the result) and what its history said. Today's code must show the same."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from device.games import flow_for
from device.history import ReadOnlyJournal, as_json, histories
from device.journal import Journal
from device.session import Session

FIXTURES = Path(__file__).parent / "fixtures"
SHOWN: list[dict[str, Any]] = json.loads((FIXTURES / "journal-v1.json").read_text())


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the old journal (opening it may write WAL files beside it)."""
    path = tmp_path_factory.mktemp("old") / "journal.db"
    shutil.copy(FIXTURES / "journal-v1.db", path)
    return path


@pytest.mark.parametrize("shown", SHOWN, ids=lambda shown: f"{shown['id']}-{shown['game']}")
def test_an_old_game_replays_to_the_same_screen(journal: Path, shown: dict[str, Any]) -> None:
    with Journal(journal) as opened:
        record = opened.game(shown["id"])
        flow = flow_for(record.game, record.players, record.settings)
        state = Session(opened, flow, record.id).state
        screen = flow.screen(state)
        assert (record.game, record.finished is not None) == (shown["game"], shown["finished"])
        assert (screen.title, screen.big, list(screen.lines)) == (shown["title"], shown["big"], shown["lines"])
        assert json.loads(json.dumps(flow.result(state))) == shown["result"]


def test_an_old_journal_has_the_same_history(journal: Path) -> None:
    with ReadOnlyJournal(journal) as opened:
        assert [json.loads(json.dumps(as_json(history))) for history in histories(opened)] == \
            [shown["history"] for shown in SHOWN]
