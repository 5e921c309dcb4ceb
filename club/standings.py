"""The club's standings, from the server's store: each game replayed as the device's history replays it
(``device.history.replay``, so the club agrees with every table's screen), grouped into nights.

A night runs from noon to noon (local time), so a game begun after midnight belongs to the evening before.
For each night and each kind of game the standings rank who played (a player, or partners) by games won,
then total points, with the hands won, the best hand, and the game's own feats: skunks dealt in Cribbage,
shutouts in Gin Rummy, Fantasyland entries in Open-Face Chinese Poker.

>>> import time
>>> night_of(time.mktime((2026, 11, 28, 1, 30, 0, 0, 0, -1))), night_of(time.mktime((2026, 11, 27, 19, 0, 0, 0, 0, -1)))
('2026-11-27', '2026-11-27')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from club.messages import ONLINE
from club.store import Store, TableEvents
from device.history import FINISHED, History, as_json, csv_rows, minute, replay

NIGHT_TURNS = 12
"""The hour (local time) at which one night's games end and the next night's begin."""

FEATS = {"cribbage": ("skunks",), "gin": ("shutouts",), "ofc": ("fantasyland",)}
"""The columns each game adds to its standings."""


def night_of(at: float) -> str:
    """The night (its evening's date) of a moment."""
    return (datetime.fromtimestamp(at) - timedelta(hours=NIGHT_TURNS)).date().isoformat()


@dataclass
class Row:
    """One player's (or partnership's) line in a game's standings for a night."""

    side: str
    games: int = 0
    won: int = 0
    points: int = 0
    hands: int = 0
    best: int | None = None
    feats: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Game:
    """One game at one table, replayed."""

    table: str
    history: History

    @property
    def night(self) -> str:
        return night_of(self.history.record.started)


class Club:
    """The club's games in ``store``, each replayed again only when it has changed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._replayed: dict[tuple[str, int], tuple[tuple[int, float | None, bool], History]] = {}
        """Each game replayed, with what it was replayed at: its events, its end, whether in progress."""

    def games(self) -> list[Game]:
        """Every table's games, oldest first."""
        counts = self.store.counts()
        records = self.store.games()
        current: dict[str, int] = {}
        for table, record in records:  # a table's newest unfinished game is the one in progress
            if record.finished is None:
                current[table] = record.id
        games = []
        for table, record in records:
            key = (counts.get((table, record.id), 0), record.finished, current.get(table) == record.id)
            cached = self._replayed.get((table, record.id))
            if cached is None or cached[0] != key:
                cached = key, replay(TableEvents(self.store, table), record,
                                      {current[table]} if table in current else set())
                self._replayed[(table, record.id)] = cached
            games.append(Game(table, cached[1]))
        return sorted(games, key=lambda game: (game.history.record.started, game.table))

    def snapshot(self, night: str | None = None) -> dict[str, Any]:
        """Everything the page shows for ``night`` (the newest with games, when None): each table's state,
        the standings of each kind of game, and the night's games."""
        games = self.games()
        nights = sorted({game.night for game in games}, reverse=True)
        night = night or (nights[0] if nights else night_of(datetime.now().timestamp()))
        tonight = [game for game in games if game.night == night]
        return {"night": night, "nights": nights, "tables": self.tables(games),
                "standings": standings(tonight), "games": [summary(game) for game in tonight]}

    def tables(self, games: list[Game]) -> list[dict[str, Any]]:
        """Each table: online or not, and its newest game (its retained state until the server has it)."""
        newest = {game.table: game for game in sorted(games, key=lambda game: game.history.record.id)}
        reported = self.store.tables()
        shown = []
        for table in sorted(set(reported) | set(newest)):
            status, state = reported.get(table, (None, None))
            game = newest.get(table)
            if game is not None:
                state = {**summary(game), "last": _last(game.history)}
            shown.append({**(state or {}), "table": table, "online": status == ONLINE})
        return shown

    def export(self, night: str) -> dict[str, Any]:
        """The night as JSON: its standings and every game's whole record (``tablescore history``'s)."""
        tonight = [game for game in self.games() if game.night == night]
        return {"night": night, "standings": standings(tonight),
                "games": [{"table": game.table, **as_json(game.history)} for game in tonight]}

    def csv(self, night: str) -> Iterable[dict[str, Any]]:
        """The night's rows for the CSV: ``tablescore history``'s, each with its table."""
        for game in self.games():
            if game.night == night:
                for row in csv_rows(game.history):
                    yield {"table": game.table, **row}


def summary(game: Game) -> dict[str, Any]:
    """One game in a few fields."""
    history = game.history
    return {"table": game.table, "game_id": history.record.id, "game": history.record.game, "title": history.title,
            "sides": list(history.sides), "totals": list(history.totals), "state": history.state,
            "winner": history.winner, "hands": len(history.hands()), "started": minute(history.record.started)}


def _last(history: History) -> list[str]:
    scored = [step for step in history.steps if step.scores]
    return [str(score) for score in scored[-1].scores] if scored else []


def standings(games: list[Game]) -> list[dict[str, Any]]:
    """Each kind of game's standings over ``games``, best first."""
    kinds: dict[str, dict[str, Row]] = {}
    titles: dict[str, str] = {}
    for game in games:
        history = game.history
        kind = history.record.game
        titles[kind] = history.title
        rows = kinds.setdefault(kind, {})
        lines = [rows.setdefault(side, Row(side, feats=dict.fromkeys(FEATS.get(kind, ()), 0)))
                 for side in history.sides]
        for side, line in enumerate(lines):
            line.games += 1
            line.points += history.totals[side]
            line.won += history.state == FINISHED and history.winner == line.side
        for hand in history.hands():
            top = max(hand.points)
            for side, line in enumerate(lines):
                line.best = hand.points[side] if line.best is None else max(line.best, hand.points[side])
                line.hands += hand.points[side] == top and top > min(hand.points)
        result = history.result or {}
        winner = next((line for line in lines if line.side == history.winner), None)
        if winner is not None and kind == "cribbage":
            winner.feats["skunks"] += sum(skunk is not None for skunk in result.get("skunks", ()))
        if winner is not None and kind == "gin":
            winner.feats["shutouts"] += bool(result.get("shutout"))
        for step in history.steps:
            for score in step.scores:
                if "Fantasyland" in score.marks:
                    lines[score.side].feats["fantasyland"] += 1
    return [{"game": kind, "title": titles[kind], "feats": list(FEATS.get(kind, ())),
             "rows": [{"side": row.side, "games": row.games, "won": row.won, "points": row.points,
                       "hands": row.hands, "best": row.best, **row.feats}
                      for row in sorted(rows.values(), key=lambda row: (-row.won, -row.points, row.side))]}
            for kind, rows in sorted(kinds.items())]
