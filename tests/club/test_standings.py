"""The club's standings from whole games played at scripted tables (``tests.device.games_played``, each
checked against its engine): what the server would hold once the tables published their journals."""

from __future__ import annotations

from pathlib import Path

from club.standings import Club, night_of
from club.store import Store
from device.club_link import Outbox
from device.history import ReadOnlyJournal, histories
from tests.device.games_played import START, cribbage, gin, ofc


def test_each_games_standings_agree_with_its_engine_and_count_its_feats(tmp_path: Path) -> None:
    played = {"north": ("cribbage", cribbage(tmp_path / "north.db")), "south": ("gin", gin(tmp_path / "south.db")),
              "east": ("ofc", ofc(tmp_path / "east.db"))}
    with Store(tmp_path / "club.db") as store:
        for table in played:
            with Outbox(tmp_path / f"{table}.db", table) as outbox:
                for entry in outbox.pending():
                    assert store.add(entry)
        snapshot = Club(store).snapshot()
    assert snapshot["night"] == night_of(START)
    standings = {game["game"]: game for game in snapshot["standings"]}
    for table, (kind, (totals, winner)) in played.items():
        with ReadOnlyJournal(tmp_path / f"{table}.db") as journal:
            (history,) = histories(journal)
        rows = {row["side"]: row for row in standings[kind]["rows"]}
        assert {side: rows[side]["points"] for side in history.sides} == dict(zip(history.sides, totals, strict=True))
        assert {side for side, row in rows.items() if row["won"]} == ({winner} if winner else set())
        sheet = history.hands()
        for side, row in rows.items():
            n = history.sides.index(side)
            assert row["best"] == max(hand.points[n] for hand in sheet)
            assert row["hands"] == sum(hand.points[n] == max(hand.points) > min(hand.points) for hand in sheet)
        if kind == "cribbage":
            skunked = sum(skunk is not None for skunk in history.result["skunks"])
            assert [row["skunks"] for row in rows.values()] == [skunked if side == winner else 0 for side in rows]
        if kind == "gin":
            assert rows[winner]["shutouts"] == int(history.result["shutout"])
        if kind == "ofc":
            details = [score for step in history.steps for score in step.scores]
            assert {side: rows[side]["fantasyland"] for side in history.sides} == {
                side: sum("Fantasyland" in score.detail for score in details if score.player == side)
                for side in history.sides}
            assert sum(rows[side]["fantasyland"] for side in history.sides) > 0
    assert [table["table"] for table in snapshot["tables"]] == ["east", "north", "south"]
