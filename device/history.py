"""The games in the journal as a club keeps them: who played, when, how it stands, and every point scored.

Nothing here scores a game. Each game is replayed from its journaled events through its own flow (the
same ``start`` and ``apply`` the device folds them with, undos taken back as ``device.session``
does), and a small ``Ledger`` per game reads what the engine's state says each confirmed event scored
(the pegs of a Cribbage play, a Gin settlement and its bonuses, a Barbu hand's net scores, an OFC
settlement, a Pinzique round's sheet row) and the running totals after it. So one piece of code owns
each rule, and a history always agrees with the screen the players confirmed.

The journal is opened read-only (``ReadOnlyJournal``): history never creates, changes or locks it.

>>> import pathlib, tempfile
>>> from device.journal import Journal
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.db"
>>> with Journal(path, clock=lambda: 1700000000.0) as journal:
...     game = journal.start_game("gin", ["Ann", "Bob"], {"limit": 100})
...     _ = journal.append(game, "knock", {"seat": 0})
...     _ = journal.append(game, "hand", {"knocker": "5H 6H 7H 8H 9H KS KH KD 2C 3D".split(),
...                                       "defender": "TH JH 4H 2S 2D 2H 9C 9D 9S QC".split()})
>>> with ReadOnlyJournal(path) as journal:
...     (history,) = histories(journal)
>>> history.state, history.sides, history.totals, history.winner
('in progress', ('Ann', 'Bob'), (5, 0), None)
>>> [(step.kind, step.hand, [str(score) for score in step.scores], step.totals) for step in history.steps]
[('knock', '1', [], (0, 0)), ('hand', '1', ['Ann: knock 5 (Ann deadwood 5, Bob deadwood 10; laid off 4♥ 10♥ J♥)'], (5, 0))]
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from device.flows.flow import Flow
from device.flows.pinzique import State as PinziqueState
from device.games import GAMES, flow_for, spec
from device.journal import SCHEMA_VERSION, GameRecord, Journal, JournalError, Recorded
from device.session import UNDO, effective
from scoring.barbu import SEATS
from scoring.barbu_hand import Progress as BarbuProgress
from scoring.cribbage_hand import Progress as CribbageProgress
from scoring.gin_hand import Progress as GinProgress
from scoring.ofc import ROWS
from scoring.ofc_hand import Progress as OfcProgress
from scoring.poker import describe

S = TypeVar("S")

IN_PROGRESS, FINISHED, ABANDONED = "in progress", "finished", "abandoned"
"""A game's state: the newest unfinished game of each kind is in progress (``tablescore run`` resumes it
when the configuration names that game); one over (or recorded finished) is finished; any other unfinished
game was abandoned when a newer one of its kind began."""

class HistoryError(ValueError):
    """A game that cannot be replayed from the journal: the message names the game, ``reason`` says why
    (naming the event)."""

    def __init__(self, record: GameRecord, reason: str) -> None:
        super().__init__(f"game {record.id} ({record.game}): {reason}")
        self.reason = reason


@dataclass(frozen=True)
class Damaged:
    """A game of the journal that cannot be replayed (its events no longer fold), and why."""

    record: GameRecord
    reason: str


class ReadOnlyJournal(Journal):
    """A journal opened read-only: it must exist, and nothing is written to it, even by opening it.

    With no ``-wal`` file beside it no device has it open, so it is read as an immutable file (no
    lock or shared-memory file is made); otherwise, or when ``live`` (the device's own reader, which must
    see every later commit), it is read alongside the device, through its WAL.
    """

    def __init__(self, path: str | Path, live: bool = False) -> None:  # not Journal's: it creates and writes
        self.path = Path(path)
        if not self.path.exists():
            raise JournalError(f"no journal at {self.path}")
        if not self.path.is_file():
            raise JournalError(f"the journal {self.path} is not a file")
        wal = Path(f"{self.path}-wal")
        immutable = "" if live or wal.exists() else "&immutable=1"
        try:
            self.db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro{immutable}", uri=True)
            (check,) = self.db.execute("PRAGMA quick_check").fetchone()
            tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as error:
            raise JournalError(f"cannot read the journal {self.path}: {error}") from error
        if check != "ok":
            raise JournalError(f"the journal {self.path} is damaged: {check}")
        if not {"games", "events"} <= tables:
            copied = "" if tables or wal.exists() else (
                f" (one copied from a running device needs its {wal.name} beside it: copy both files, or stop "
                "the device first)")
            raise JournalError(f"{self.path} is not a tablescore journal{copied}")
        if version > SCHEMA_VERSION:
            raise JournalError(f"the journal {self.path} was written by a newer tablescore (schema {version})")


@dataclass(frozen=True)
class Score:
    """Points one confirmed event scored for one side (by its number), what for (``what``, short:
    ``play``, ``knock``, ``dead hand``...), the player who scored them, and the itemised detail."""

    side: int
    points: int
    what: str
    player: str
    detail: str = ""
    marks: tuple[str, ...] = ()
    """What the event earned besides points, for a club's standings (``Fantasyland``)."""

    def __str__(self) -> str:
        return f"{self.player}: {self.what} {self.points}" + (f" ({self.detail})" if self.detail else "")


@dataclass(frozen=True)
class Step:
    """One confirmed event standing in the journal: its number, time, the hand it belongs to (``1``,
    or a Pinzique sheet label: ``B-3`` a bonus round, ``P1`` a playoff), what it scored, and each side's
    running total after it."""

    seq: int
    at: float
    hand: str
    kind: str
    data: dict[str, Any]
    scores: tuple[Score, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class HandRow:
    """One hand (or round) on the score sheet: each side's points, its items (what for, points) in the
    order scored, and the running totals at its end."""

    hand: str
    points: tuple[int, ...]
    items: tuple[tuple[tuple[str, int], ...], ...]
    totals: tuple[int, ...]


@dataclass(frozen=True)
class History:
    """One game of the journal, replayed."""

    record: GameRecord
    sides: tuple[str, ...]
    """Who scores: each player, or partners (``Ann & Cy``)."""
    state: str
    steps: tuple[Step, ...]
    undone: int
    """How many confirmations were taken back (their events and the undos are in the journal)."""
    totals: tuple[int, ...]
    """Each side's final (or current) total."""
    result: dict[str, Any] | None
    """The flow's result once the game is over (winner, totals and the game's own extras)."""
    ended: float | None

    @property
    def title(self) -> str:
        """The game's full name (``Gin Rummy``)."""
        known = GAMES.get(self.record.game)
        return known.title if known else self.record.game

    @property
    def winner(self) -> str | None:
        """The winning side once the game is over, else None."""
        return self.result["winner"] if self.result else None

    def hands(self) -> list[HandRow]:
        """The score sheet: a row for each hand that scored (or was settled for nothing), in order."""
        rows: dict[str, list[Step]] = {}
        for step in self.steps:
            if step.scores:
                rows.setdefault(step.hand, []).append(step)
        sheet = []
        for hand, steps in rows.items():
            items: list[dict[str, int]] = [{} for _ in self.sides]
            for score in (score for step in steps for score in step.scores):
                items[score.side][score.what] = items[score.side].get(score.what, 0) + score.points
            sheet.append(HandRow(hand, tuple(sum(side.values()) for side in items),
                                 tuple(tuple(side.items()) for side in items), steps[-1].totals))
        return sheet


def histories(journal: Journal, ids: Sequence[int] = ()) -> list[History]:
    """The games with these ids (all of them, oldest first, with none), each replayed; HistoryError for
    the first that cannot be."""
    records = [journal.game(game_id) for game_id in ids] if ids else journal.games()
    current = _current(journal)
    return [replay(journal, record, current) for record in records]


def listing(journal: Journal) -> list[History | Damaged]:
    """Every game, oldest first, replayed; one that cannot be is ``Damaged``, and the others still listed."""
    current = _current(journal)
    found: list[History | Damaged] = []
    for record in journal.games():
        try:
            found.append(replay(journal, record, current))
        except HistoryError as error:
            found.append(Damaged(record, error.reason))
    return found


def _current(journal: Journal) -> set[int]:
    """The ids of the games in progress: the newest unfinished one of each kind, which ``tablescore run``
    resumes when the configuration names that game."""
    kinds = {record.game for record in journal.games()}
    return {game.id for kind in kinds if (game := journal.current_game(kind)) is not None}


class Events(Protocol):
    """Where a game's events are read from: a journal, or a club server's copy of a table's."""

    def events(self, game_id: int) -> list[Recorded]: ...


def replay(journal: Events, record: GameRecord, current: set[int]) -> History:
    """``record``'s events folded through its flow, step by step (``current``: the games in progress)."""
    try:
        flow = flow_for(record.game, record.players, record.settings)
        ledger = spec(record.game).new_ledger()
        state = flow.start(list(record.players), dict(record.settings))
    except (ValueError, KeyError) as error:
        raise HistoryError(record, f"cannot be replayed: {error}") from None
    events = journal.events(record.id)
    standing = effective(events)
    steps = []
    for event in standing:
        try:
            if not isinstance(event.data, dict):
                raise ValueError(f"its data is {json.dumps(event.data)}, not an object")
            after = flow.apply(state, flow.decode(event.kind, event.data))
            hand, scores = ledger.hand(state), tuple(ledger.scores(flow, state, after))
        except (ValueError, KeyError, TypeError) as error:  # whatever the journal holds, one game's reason
            raise HistoryError(record, f"event {event.seq} ({event.kind}) cannot be replayed: "
                                       f"{flow.explain(error)}") from None
        steps.append(Step(event.seq, event.at, hand, event.kind, event.data, scores, ledger.totals(after)))
        state = after
    result = flow.result(state)
    if result is not None or record.finished is not None:
        status, ended = FINISHED, record.finished or (events[-1].at if events else record.started)
    else:
        status, ended = (IN_PROGRESS if record.id in current else ABANDONED), None
    return History(record, tuple(ledger.sides(flow, state)), status, tuple(steps),
                   len(events) - len(standing) - sum(event.kind == UNDO for event in events),
                   ledger.totals(state), result, ended)


# What each game's state says an event scored. A ledger reads the engine's results; it never scores.

class Ledger(Generic[S]):
    """How to read one game's flow state: the sides, their totals, the hand in progress, and what the
    latest event scored."""

    def sides(self, flow: Flow[Any], state: S) -> list[str]:
        """Who scores, in the order of the totals: each player, or partners (``Ann & Cy``)."""
        return list(flow.players)

    def totals(self, state: S) -> tuple[int, ...]:
        """Each side's running total in ``state``."""
        raise NotImplementedError

    def hand(self, state: S) -> str:
        """The hand (or round) in progress in ``state``, before the next event."""
        raise NotImplementedError

    def scores(self, flow: Flow[Any], before: S, after: S) -> Iterable[Score]:
        """What the event that turned ``before`` into ``after`` scored, side by side and item by item."""
        raise NotImplementedError


class CribbageLedger(Ledger[CribbageProgress]):
    """Each peg (play, go, 31, last card, his heels, a hand, the crib) with its itemised combinations."""

    def sides(self, flow: Flow[Any], state: CribbageProgress) -> list[str]:
        players, sides = flow.players, state.game.settings.sides
        return [" & ".join(players[side::sides]) for side in range(sides)]

    def totals(self, state: CribbageProgress) -> tuple[int, ...]:
        return tuple(state.game.scores)

    def hand(self, state: CribbageProgress) -> str:
        return str(max(state.hands, 1))

    def scores(self, flow: Flow[Any], before: CribbageProgress, after: CribbageProgress) -> Iterable[Score]:
        settings = after.game.settings
        scores = [Score(settings.side(peg.seat), peg.points, peg.reason, flow.players[peg.seat],
                        "; ".join(map(str, peg.items))) for peg in after.pegs]
        if after.game.outcome is None or not scores:
            return scores
        last = scores[-1]  # the game ends the moment a side reaches the target: its last peg stops there
        pegged = after.game.scores[last.side] - before.game.scores[last.side]
        stopped = pegged - sum(score.points for score in scores[:-1] if score.side == last.side)
        counted = f"{last.points} counted, pegged out at {settings.target}"
        return [*scores[:-1], replace(last, points=stopped, detail="; ".join(filter(None, (counted, last.detail))))]


class GinLedger(Ledger[GinProgress]):
    """Each settled knock (gin, knock, undercut; a refused knock and a dead hand score nothing), and at
    the end the game bonus, the box bonuses and a shutout."""

    def totals(self, state: GinProgress) -> tuple[int, ...]:
        return tuple(state.score.totals)

    def hand(self, state: GinProgress) -> str:
        return str(len(state.hands) + 1)

    def scores(self, flow: Flow[Any], before: GinProgress, after: GinProgress) -> Iterable[Score]:
        names = flow.players
        if after.settled == before.settled:  # a knock, or a dead hand
            return [Score(side, 0, "dead hand", name) for side, name in enumerate(names)
                    if len(after.hands) > len(before.hands)]
        assert after.last is not None  # a knock settled
        knocker, settled = after.last
        detail = (f"{names[knocker]} deadwood {settled.knocker.deadwood}, {names[1 - knocker]} deadwood "
                  f"{settled.defender.deadwood}" + (f"; laid off {_symbols(settled.layoffs)}" if settled.layoffs else ""))
        if len(after.hands) == len(before.hands):
            return [Score(knocker, 0, "knock refused", names[knocker], detail)]
        winner = after.hands[-1][0]
        assert winner is not None  # a settled knock has a winner
        scores = [Score(winner, settled.points, settled.result, names[winner], detail)]
        final = after.score
        if final.over:
            assert final.winner is not None
            scores.append(Score(final.winner, final.game_bonus, "game bonus", names[final.winner]))
            scores += [Score(side, box, "box bonus", names[side]) for side, box in enumerate(final.box_bonuses) if box]
            before_totals = self.totals(before)
            for side in (0, 1):
                rest = final.totals[side] - before_totals[side] - sum(s.points for s in scores if s.side == side)
                if rest:
                    scores.append(Score(side, rest, "shutout" if final.shutout else "bonus", names[side]))
        return scores


class BarbuLedger(Ledger[BarbuProgress]):
    """Each hand's net scores (after doubling), with its contract, raw scores and doubles."""

    def totals(self, state: BarbuProgress) -> tuple[int, ...]:
        return tuple(state.game.totals) if state.game else (0,) * SEATS

    def hand(self, state: BarbuProgress) -> str:
        return str(len(state.game.hands) + 1 if state.game else 1)

    def scores(self, flow: Flow[Any], before: BarbuProgress, after: BarbuProgress) -> Iterable[Score]:
        if before.game is None or after.game is None or len(after.game.hands) == len(before.game.hands):
            return []
        hand, names = after.last, flow.players
        assert hand is not None  # a hand was recorded
        what = f"{names[hand.declarer]}'s {hand.contract.title}"
        doubles = "; ".join(f"{names[d.by]} doubled {names[d.on]}" + (", redoubled" if d.redoubled else "")
                            for d in hand.doubles)
        return [Score(seat, hand.net[seat], what, names[seat],
                      f"raw {hand.scores[seat]}" + (f"; {doubles}" if doubles else "")) for seat in range(SEATS)]


class OfcLedger(Ledger[OfcProgress]):
    """Each hand's net points a player, with their rows, royalties, fouls and Fantasyland."""

    def totals(self, state: OfcProgress) -> tuple[int, ...]:
        return tuple(state.totals)

    def hand(self, state: OfcProgress) -> str:
        return str(state.hands + 1)

    def scores(self, flow: Flow[Any], before: OfcProgress, after: OfcProgress) -> Iterable[Score]:
        if after.hands == before.hands:
            return []
        settled = after.last
        assert settled is not None  # a hand was played
        scores = []
        for seat, (name, hand) in enumerate(zip(flow.players, settled.hands, strict=True)):
            rows = "fouled" if hand.fouled else "; ".join(
                f"{row} {describe(value)}" + (f" +{royalty}" if royalty else "")
                for row, value, royalty in zip(ROWS, hand.values, hand.royalties, strict=True))
            fantasy = settled.fantasyland_cards[seat]
            detail = rows + (f"; Fantasyland, {fantasy} cards" if fantasy else "")
            scores.append(Score(seat, settled.net[seat], "hand", name, detail, ("Fantasyland",) * bool(fantasy)))
        return scores


class PinziqueLedger(Ledger[PinziqueState]):
    """Each settled round's points a side, after takeaways, with its final roll and the melds lost."""

    def sides(self, flow: Flow[Any], state: PinziqueState) -> list[str]:
        return [" & ".join(side) for side in state.game.sides]

    def totals(self, state: PinziqueState) -> tuple[int, ...]:
        return tuple(state.game.totals)

    def hand(self, state: PinziqueState) -> str:
        return str(state.game.label)

    def scores(self, flow: Flow[Any], before: PinziqueState, after: PinziqueState) -> Iterable[Score]:
        game, sides = after.game, self.sides(flow, after)
        scores = []
        for row in game.sheet[len(before.game.sheet):]:
            what = {"B": "bonus round", "P": "playoff"}.get(row.label[0], "round")
            for place, side in enumerate(row.sides):
                lost = "; ".join(f"lost {loss.meld.code} to {', '.join(sides[row.sides[t]] for t in loss.to)}"
                                 for loss in row.result.losses[place])
                detail = f"rolled {row.result.rolls[place].total}" + (f"; {lost}" if lost else "")
                scores.append(Score(side, row.result.points[place], what, sides[side], detail))
        return scores



def when(at: float | None) -> str | None:
    """A time stamp as local ISO 8601 with its UTC offset (None stays None)."""
    return None if at is None else datetime.fromtimestamp(at).astimezone().isoformat(timespec="seconds")


def minute(at: float, after: float | None = None) -> str:
    """A time stamp in local time to the minute, as the listing and the score sheet show it; only the time
    of day when it falls on the day of ``after``.

    >>> import time
    >>> noon = time.mktime((2025, 3, 1, 12, 0, 0, 0, 0, -1))
    >>> minute(noon), minute(noon + 5400, after=noon), minute(noon + 86400, after=noon)
    ('2025-03-01 12:00', '13:30', '2025-03-02 12:00')
    """
    moment = datetime.fromtimestamp(at)
    same_day = after is not None and datetime.fromtimestamp(after).date() == moment.date()
    return moment.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")


def _symbols(cards: Iterable[Any]) -> str:
    return " ".join(card.symbol for card in cards)


# The record as data: JSON and CSV, with stable field names (docs/DEVICE.md, "tablescore history").

CSV_FIELDS = ("game_id", "game", "hand", "seq", "time", "event", "side", "player", "points", "what", "detail",
              "total", "totals")
"""The CSV's columns: one row for each score of each confirmed event. ``side`` is who scores (a player,
or partners), ``player`` who within the side, ``total`` that side's running total after the event, and
``totals`` every side's, space-separated in the order of the game's sides."""


def as_json(history: History) -> dict[str, Any]:
    """The whole record of one game, JSON-shaped: its hands (the score sheet) and its events (every
    confirmed event standing, what it scored and the running totals after it)."""
    record = history.record
    return {
        "id": record.id, "game": record.game, "title": history.title, "players": list(record.players),
        "sides": list(history.sides), "settings": record.settings, "started": when(record.started),
        "ended": when(history.ended), "state": history.state, "totals": list(history.totals),
        "winner": history.winner, "result": history.result, "undone": history.undone,
        "hands": [{"hand": row.hand, "points": list(row.points), "totals": list(row.totals),
                   "items": [[{"what": what, "points": points} for what, points in side] for side in row.items]}
                  for row in history.hands()],
        "events": [{"seq": step.seq, "time": when(step.at), "hand": step.hand, "kind": step.kind,
                    "data": step.data, "totals": list(step.totals),
                    "scores": [{"side": score.side, "player": score.player, "points": score.points,
                                "what": score.what, "detail": score.detail} for score in step.scores]}
                   for step in history.steps],
    }


def csv_rows(history: History) -> Iterable[dict[str, Any]]:
    """The game's rows for the CSV (``CSV_FIELDS``)."""
    record = history.record
    for step in history.steps:
        for score in step.scores:
            yield {"game_id": record.id, "game": record.game, "hand": step.hand, "seq": step.seq,
                   "time": when(step.at), "event": step.kind, "side": history.sides[score.side],
                   "player": score.player, "points": score.points, "what": score.what,
                   "detail": score.detail, "total": step.totals[score.side],
                   "totals": " ".join(map(str, step.totals))}
