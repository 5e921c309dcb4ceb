"""``tablescore history``: the games in the journal, listed, exported as CSV or JSON, or drawn as a score
sheet (docs/DEVICE.md, "tablescore history").

The journal is the configured one (``--config``, ``$TABLESCORE_CONFIG`` or the system configuration, as
for ``tablescore run``), or ``--journal PATH``. It is only read: a missing journal is reported, never
created. Any trouble (no journal, a damaged one, no games, an unknown game, a game that cannot be
replayed) is one line on stderr and exit status 2; but the list shows every game it can, and marks one
that cannot be replayed ``damaged`` with the reason.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported when the command runs (every game's flow), not whenever the command line starts
    from device.history import Damaged, History

FORMAT_VERSION = 1
"""The JSON export's ``version``: raised only when a field changes meaning or goes."""


class Refusal(Exception):
    """Something the command cannot do; the message says what."""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``history`` command (and its ``list``, ``export`` and ``sheet``) to the top-level parser."""
    summary = "list, export and draw the games in the journal"
    parser = commands.add_parser("history", help=summary, description=f"{summary.capitalize()} (read-only).")
    _where(parser, None)
    parser.set_defaults(handler=_handler(list_games, every=True))
    subcommands = parser.add_subparsers(title="subcommands", metavar="SUBCOMMAND")
    listing = subcommands.add_parser("list", help="one line a game: who, when, how it stands (the default)",
                                     description="List every game: id, game, players, started and ended, "
                                                 "state, scores and winner.")
    _where(listing, argparse.SUPPRESS)
    listing.set_defaults(handler=_handler(list_games, every=True))
    export = subcommands.add_parser("export", help="the full record of one game or all, as JSON or CSV",
                                    description="Every confirmed scoring event, hand by hand, with running totals.")
    export.add_argument("ids", metavar="GAME_ID", type=int, nargs="*", help="the games (default: all)")
    export.add_argument("--format", choices=("json", "csv"), default=None,
                        help="json or csv (default: from the --out file's suffix, else json)")
    export.add_argument("--out", type=Path, default=None, help="write to this file (default: stdout)")
    _where(export, argparse.SUPPRESS)
    export.set_defaults(handler=_handler(export_games))
    sheet = subcommands.add_parser("sheet", help="draw one game's score sheet as a PNG",
                                   description="Draw a game's score sheet (hands as rows, players as columns).")
    sheet.add_argument("id", metavar="GAME_ID", type=int)
    sheet.add_argument("--out", type=Path, default=None, help="the PNG to write (default: game-ID.png)")
    _where(sheet, argparse.SUPPRESS)
    sheet.set_defaults(handler=_handler(draw_sheet))


def _where(parser: argparse.ArgumentParser, default: object) -> None:
    """``--journal`` and ``--config``, on ``history`` and again on each subcommand (``SUPPRESS`` there,
    so that a value given before the subcommand stands)."""
    parser.add_argument("--journal", type=Path, default=default,
                        help="the journal to read (default: the configuration's [journal] path)")
    parser.add_argument("--config", type=Path, default=default,
                        help="the configuration naming the journal (found as for tablescore run)")


def journal_path(args: argparse.Namespace) -> Path:
    """``--journal``, else the configuration's journal."""
    if args.journal is not None:
        return Path(args.journal)
    from device.config import ConfigError, load
    from device.run_command import config_path

    try:
        return Path(load(config_path(args.config)).journal.path)
    except ConfigError as error:
        raise Refusal(str(error)) from None


def _handler(action: Callable[[argparse.Namespace, list[Any]], str | None], every: bool = False
             ) -> Callable[[argparse.Namespace], int]:
    """Run ``action`` on the games the arguments name (``every``: all of them, a damaged one included); with
    no game named, on every game that replays, each one left out named on stderr (exit status 1). Print its
    answer, or the one reason it cannot."""

    def handler(args: argparse.Namespace) -> int:
        from device.history import Damaged, HistoryError, ReadOnlyJournal, histories, listing
        from device.journal import JournalError

        left_out: list[Damaged] = []
        try:
            path = journal_path(args)
            with ReadOnlyJournal(path) as journal:
                if not journal.games():
                    raise Refusal(f"the journal {path} holds no games yet")
                ids = getattr(args, "ids", None) or ([args.id] if hasattr(args, "id") else [])
                found: Sequence[History | Damaged] = listing(journal) if every or not ids else histories(journal, ids)
            if not every:
                left_out = [game for game in found if isinstance(game, Damaged)]
                found = [game for game in found if not isinstance(game, Damaged)]
                if not found:
                    raise Refusal(f"no game in the journal {path} replays: "
                                  f"game {left_out[0].record.id} ({left_out[0].record.game}): {left_out[0].reason}")
            answer = action(args, list(found))
        except (Refusal, JournalError, HistoryError, OSError) as error:
            print(f"tablescore history: {error}", file=sys.stderr)
            return 2
        if answer:
            sys.stdout.write(answer)
        for game in left_out:
            print(f"tablescore history: left out game {game.record.id} ({game.record.game}), which no longer "
                  f"replays: {game.reason}", file=sys.stderr)
        return 1 if left_out else 0

    return handler


def list_games(args: argparse.Namespace, games: list[History | Damaged]) -> str:
    """One line a game, under a header; a game that cannot be replayed is ``damaged``, with the reason."""
    from device.history import Damaged, minute

    rows: list[tuple[str, ...]] = [("id", "game", "players", "started", "ended", "state", "scores", "winner")]
    for game in games:
        record = game.record
        if isinstance(game, Damaged):  # the reason stands where the scores would
            rows.append((str(record.id), record.game, " v ".join(record.players), minute(record.started), "",
                         "damaged", game.reason))
        else:
            rows.append((str(record.id), record.game, " v ".join(game.sides), minute(record.started),
                         "" if game.ended is None else minute(game.ended), game.state, " ".join(map(str, game.totals)), game.winner or ""))
    state = rows[0].index("state")  # a reason is as wide as it is: it sets no column's width
    widths = [max(len(row[n]) for row in rows if n <= state or len(row) == len(rows[0])) for n in range(len(rows[0]))]
    return "".join("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip() + "\n"
                   for row in rows)


def export_games(args: argparse.Namespace, games: list[History]) -> str | None:
    """The games as JSON (``{"format", "version", "games"}``) or CSV (``CSV_FIELDS``), to stdout or --out."""
    from device.history import CSV_FIELDS, as_json, csv_rows

    fmt = args.format or ("csv" if args.out is not None and args.out.suffix.lower() == ".csv" else "json")
    if fmt == "json":
        text = json.dumps({"format": "tablescore-history", "version": FORMAT_VERSION,
                           "games": [as_json(history) for history in games]}, indent=2, ensure_ascii=False) + "\n"
    else:
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, CSV_FIELDS, lineterminator="\n")
        writer.writeheader()
        for history in games:
            writer.writerows(csv_rows(history))
        text = buffer.getvalue()
    if args.out is None:
        return text
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {len(games)} game{'s' * (len(games) != 1)} as {fmt.upper()} to {args.out}", file=sys.stderr)
    return None


def draw_sheet(args: argparse.Namespace, games: list[History]) -> None:
    """The one game's score sheet, as a PNG."""
    from device.score_sheet import draw

    (history,) = games
    out = args.out or Path(f"game-{history.record.id}.png")
    draw(history).save(out, format="PNG")
    print(f"wrote the score sheet of game {history.record.id} ({history.title}) to {out}", file=sys.stderr)
