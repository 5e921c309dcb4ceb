"""``tablescore history`` end to end: journals written by playing real games through the flows at a
scripted table, then listed, exported (JSON, CSV) and drawn through the real command line. The numbers
must be the engines' own (each game's reference scored beside the table by its engine), every event's
scores must add up to the change in the running totals, and bad journals get one line and status 2.

The score sheets are compared pixel for pixel with their PNGs in tests/device/golden/; after a
deliberate change, look at the new images and refresh them with
TABLESCORE_UPDATE_GOLDEN=1 pytest tests/device/test_history.py."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from device.cli import main
from device.history import CSV_FIELDS, ReadOnlyJournal, as_json, histories
from device.journal import Journal
from tests.device.games_played import GAMES, START, cribbage, table

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Times are shown in local time: the tests run in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def cli(*args: str) -> tuple[int, str, str]:
    """Run ``tablescore ARGS``; the exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    from contextlib import redirect_stderr, redirect_stdout

    with redirect_stdout(out), redirect_stderr(err):
        status = main(list(args))
    return status, out.getvalue(), err.getvalue()


def exported(path: Path, *ids: str) -> list[dict[str, Any]]:
    status, out, err = cli("history", "export", *ids, "--journal", str(path))
    assert status == 0, err
    document = json.loads(out)
    assert document["format"] == "tablescore-history" and document["version"] == 1
    return list(document["games"])


@pytest.mark.parametrize("name", sorted(GAMES))
def test_exports_carry_the_engines_scores(tmp_path: Path, name: str) -> None:
    path = tmp_path / "journal.db"
    totals, winner = GAMES[name](path)
    (record,) = exported(path)
    assert record["totals"] == totals and record["winner"] == winner
    assert record["state"] == ("in progress" if winner is None else "finished")
    assert record["events"] and record["hands"][-1]["totals"] == totals
    running = [0] * len(totals)
    for event in record["events"]:  # each event's scores are exactly the change in the running totals
        for score in event["scores"]:
            running[score["side"]] += score["points"]
        assert running == event["totals"], event
    for hand in record["hands"]:
        assert [sum(item["points"] for item in side) for side in hand["items"]] == hand["points"]
    status, out, err = cli("history", "export", "--format", "csv", "--journal", str(path))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert status == 0 and tuple(rows[0]) == CSV_FIELDS
    sides = record["sides"]
    assert [sum(int(row["points"]) for row in rows if row["side"] == side) for side in sides] == totals
    assert rows[-1]["totals"] == " ".join(map(str, totals))


def test_list_shows_each_game_and_its_state(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    clock = itertools.count(START, 60).__next__
    cribbage(path)
    again = table(path, "cribbage", ["Ann", "Bob"], clock=clock)
    again.ok()  # the finished game recorded; the next begins
    again.choose("Ann deals")
    table(path, "gin", ["Ann", "Bob"], clock=clock).choose("Bob knocks")  # the second cribbage kept for later
    status, out, err = cli("history", "--journal", str(path))
    assert status == 0 and err == ""
    header, *lines = out.splitlines()
    assert header.split() == ["id", "game", "players", "started", "ended", "state", "scores", "winner"]
    assert len(lines) == 3
    assert lines[0].startswith("1   cribbage  Ann v Bob  2024-05-29 16:26  2024-05-29 ") and "finished" in lines[0]
    assert lines[0].endswith(" Ann") and lines[2].split()[1] == "gin"
    assert "in progress  0 0" in lines[1] and "in progress  0 0" in lines[2]  # each resumes when configured
    assert cli("history", "list", "--journal", str(path))[1] == out


def test_json_round_trips_and_names_its_fields(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    cribbage(path)
    out = tmp_path / "game.json"
    status, stdout, err = cli("history", "export", "1", "--out", str(out), "--journal", str(path))
    assert status == 0 and stdout == "" and "wrote 1 game as JSON" in err
    (record,) = json.loads(out.read_text(encoding="utf-8"))["games"]
    with ReadOnlyJournal(path) as journal:
        assert record == json.loads(json.dumps(as_json(histories(journal)[0])))
    assert set(record) == {"id", "game", "title", "players", "sides", "settings", "started", "ended", "state",
                           "totals", "winner", "result", "undone", "hands", "events"}
    assert set(record["events"][0]) == {"seq", "time", "hand", "kind", "data", "totals", "scores"}
    assert record["started"] == "2024-05-29T16:26:40+00:00" and record["result"]["winner"] == "Ann"
    heels = [score for event in record["events"] for score in event["scores"] if score["what"] == "his heels"]
    assert all(score["points"] == 2 for score in heels)
    shows = [score for event in record["events"] if event["kind"] == "show" for score in event["scores"]]
    assert shows and all(score["what"] == "hand" and score["detail"].count(":") >= (score["points"] > 0)
                         for score in shows)


def test_undone_events_are_not_in_the_record(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    scripted = table(path, "gin", ["Ann", "Bob"])
    scripted.choose("dead hand")
    scripted.undo()
    scripted.choose("Ann knocks")
    (record,) = exported(path)
    assert [event["kind"] for event in record["events"]] == ["knock"] and record["undone"] == 1


@pytest.mark.parametrize("name", ["cribbage", "pinzique"])
def test_the_score_sheet_matches_its_golden_image(tmp_path: Path, name: str) -> None:
    path = tmp_path / "journal.db"
    GAMES[name](path)
    out = tmp_path / "sheet.png"
    status, _, err = cli("history", "sheet", "1", "--out", str(out), "--journal", str(path))
    assert status == 0 and f"to {out}" in err
    image = Image.open(out)
    golden = GOLDEN / f"sheet-{name}.png"
    if os.environ.get("TABLESCORE_UPDATE_GOLDEN"):
        golden.write_bytes(out.read_bytes())
    assert image.size == Image.open(golden).size
    assert ImageChops.difference(image.convert("L"), Image.open(golden).convert("L")).getbbox() is None


def test_the_sheet_defaults_to_a_file_named_for_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "journal.db"
    table(path, "ofc", ["Ann", "Bob"])
    monkeypatch.chdir(tmp_path)
    assert cli("history", "sheet", "1", "--journal", str(path))[0] == 0
    assert Image.open(tmp_path / "game-1.png").size[0] >= 2 * 200


def test_the_configured_journal_is_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "club.db"
    table(path, "gin", ["Ann", "Bob"]).choose("dead hand")
    config = tmp_path / "tablescore.toml"
    config.write_text(f'[journal]\npath = "{path}"\n', encoding="utf-8")
    assert "gin" in cli("history", "--config", str(config))[1]
    monkeypatch.setenv("TABLESCORE_CONFIG", str(config))
    assert "gin" in cli("history", "list")[1]
    config.write_text("[journal]\npath = 3\n", encoding="utf-8")
    status, out, err = cli("history", "list")
    assert status == 2 and err.startswith("tablescore history: ") and "[journal] path" in err


def journal_files(path: Path) -> dict[str, bytes]:
    return {file.name: file.read_bytes() for file in sorted(path.parent.iterdir())}


def test_the_journal_is_only_read(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    scripted = table(path, "gin", ["Ann", "Bob"])
    scripted.choose("dead hand")
    scripted.journal.close()  # the device stopped
    before = journal_files(path)
    assert list(before) == ["journal.db"]
    sheet = tmp_path.parent / f"{tmp_path.name}-sheet.png"
    for args in (["list"], ["export"], ["export", "--format", "csv"], ["sheet", "1", "--out", str(sheet)]):
        assert cli("history", *args, "--journal", str(path))[0] == 0
    assert journal_files(path) == before  # not a byte changed, no lock or WAL file made
    with Journal(path) as device:  # the device runs: read alongside it, through its WAL
        device.append(1, "dead", {})
        before = journal_files(path)
        assert "journal.db-wal" in before
        assert cli("history", "export", "--journal", str(path))[0] == 0
        after = journal_files(path)
        assert {name: after[name] for name in ("journal.db", "journal.db-wal")} == {
            name: before[name] for name in ("journal.db", "journal.db-wal")}
        assert len(exported(path)[0]["events"]) == 2


def refused(*args: str) -> str:
    status, out, err = cli("history", *args)
    assert status == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (status, out, err)
    assert err.startswith("tablescore history: ")
    return err.removeprefix("tablescore history: ").strip()


def test_bad_journals_and_games_get_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "none" / "journal.db"
    assert refused("--journal", str(missing)) == f"no journal at {missing}"
    assert not missing.parent.exists()
    assert refused("--journal", str(tmp_path)) == f"the journal {tmp_path} is not a file"
    empty = tmp_path / "empty.db"
    Journal(empty).close()
    assert refused("export", "--journal", str(empty)) == f"the journal {empty} holds no games yet"
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(bytes(range(256)) * 16)
    assert refused("--journal", str(garbage)) == f"cannot read the journal {garbage}: file is not a database"
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    assert refused("--journal", str(other)) == f"{other} is not a tablescore journal"
    path = tmp_path / "journal.db"
    table(path, "gin", ["Ann", "Bob"]).choose("dead hand")
    assert refused("export", "7", "--journal", str(path)) == f"no game 7 in the journal {path}"
    assert refused("sheet", "7", "--journal", str(path)) == f"no game 7 in the journal {path}"
    running = tmp_path / "running"  # a device's journal copied while it runs, without its -wal
    running.mkdir()
    with Journal(running / "journal.db") as journal:
        journal.start_game("gin", ["Ann", "Bob"], {})
        copy = tmp_path / "copy.db"
        copy.write_bytes((running / "journal.db").read_bytes())
        assert refused("--journal", str(copy)) == (
            f"{copy} is not a tablescore journal (one copied from a running device needs its copy.db-wal beside "
            "it: copy both files, or stop the device first)")
    truncated = tmp_path / "truncated.db"
    truncated.write_bytes(path.read_bytes()[:5000])
    assert refused("--journal", str(truncated)).startswith(f"cannot read the journal {truncated}: ")


def test_an_event_that_cannot_be_replayed_is_named(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    table(path, "gin", ["Ann", "Bob"]).choose("Ann knocks")
    with Journal(path) as journal:
        journal.append(1, "hand", {"knocker": ["5H"], "defender": []})
    assert refused("export", "--journal", str(path)).startswith(
        f"no game in the journal {path} replays: game 1 (gin): event 2 (hand) cannot be replayed: ")


def test_the_list_marks_a_game_that_cannot_be_replayed_and_shows_the_others(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    clock = itertools.count(START, 60).__next__
    table(path, "gin", ["Ann", "Bob"], clock=clock).choose("Ann knocks")
    with Journal(path, clock=clock) as journal:
        journal.append(1, "knock", {"seat": 1})  # the journal says Bob knocked too: no longer replays
        unknown = journal.start_game("gin", ["Ann", "Bob"], {"limit": 150})  # a setting since refused
        odd = journal.start_game("cribbage", ["Ann", "Bob"], {})
        journal.append(odd, "deal", [1])  # data that is no object
    table(path, "ofc", ["Cy", "Di"], clock=clock)
    status, out, err = cli("history", "--journal", str(path))
    assert status == 0 and err == ""
    header, *lines = out.splitlines()
    assert len(lines) == 4
    assert lines[0].split()[:2] == ["1", "gin"] and lines[0].split("damaged")[1].strip() == (
        "event 2 (knock) cannot be replayed: Ann has knocked: lay out both hands")
    assert lines[1].split()[:2] == [str(unknown), "gin"] and lines[1].split("damaged")[1].strip().startswith(
        "cannot be replayed: the game limit is one of")
    assert lines[2].split("damaged")[1].strip() == "event 1 (deal) cannot be replayed: its data is [1], not an object"
    assert lines[3].split()[:2] == ["4", "ofc"] and "in progress  0 0" in lines[3]
    assert lines[0].index("damaged") == lines[3].index("in progress") == header.index("state")
    assert cli("history", "list", "--journal", str(path))[1] == out
    expected = "game 1 (gin): event 2 (knock) cannot be replayed: Ann has knocked: lay out both hands"
    assert refused("export", "1", "--journal", str(path)) == expected
    assert refused("sheet", "1", "--journal", str(path)) == expected
    assert json.loads(cli("history", "export", "4", "--journal", str(path))[1])["games"][0]["game"] == "ofc"
    status, out, err = cli("history", "export", "--journal", str(path))  # all: the damaged ones left out, named
    assert status == 1 and [game["id"] for game in json.loads(out)["games"]] == [4]
    assert err.splitlines()[0] == ("tablescore history: left out game 1 (gin), which no longer replays: event 2 "
                                   "(knock) cannot be replayed: Ann has knocked: lay out both hands")
    assert len(err.splitlines()) == 3
