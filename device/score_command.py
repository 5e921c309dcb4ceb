"""``tablescore score``: score one request given readably, or a stream of JSON requests (``--batch``).

The readable form takes cards as arguments and ``--name value...`` options, which each game maps to
the same request its batch form takes:

>>> split_args(["5H", "5C", "--starter", "5S", "--crib", "--json"])
(['5H', '5C'], {'starter': '5S', 'crib': True, 'json': True})
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Iterable
from typing import IO, Any

from device import games
from scoring.requests import Option, RequestError, Requests

USAGE = """\
tablescore score GAME CARD... [--OPTION VALUE...] [--json]
       tablescore score GAME --batch  < requests.jsonl > results.jsonl
       tablescore score --samples"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``score`` command to the top-level parser."""
    parser = commands.add_parser(
        "score",
        usage=USAGE,
        help="score cards for a game, readably or as a JSON batch",
        description="Score cards for a game. With --batch, read one JSON request a line from standard "
        "input and write one JSON result a line, in order; a bad line gets {\"error\": ...}. "
        f"Games: {', '.join(games.names())}.",
    )
    parser.add_argument("--samples", action="store_true", help="score each game's sample requests")
    parser.add_argument("game", nargs="?", help="the game: " + ", ".join(games.names()))
    parser.add_argument("args", nargs=argparse.REMAINDER, help="cards, options, --json or --batch")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``tablescore score`` with parsed arguments; returns the exit status."""
    try:
        if args.samples:
            print_samples(sys.stdout)
            return 0
        if args.game is None:
            raise RequestError(f"name a game ({', '.join(games.names())}), or give --samples")
        game = games.game(args.game)
        cards, options = split_args(args.args)
        if options.pop("batch", False):
            if cards or options:
                raise RequestError("--batch reads its requests from standard input and takes no other arguments")
            score_batch(game, sys.stdin.buffer, sys.stdout.buffer)
            return 0
        as_json = options.pop("json", False)
        result = game.score_request(game.request_from_args(cards, options))
    except RequestError as error:
        print(f"tablescore score: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False) if as_json else game.render(result))
    return 0


def split_args(args: Iterable[str]) -> tuple[list[str], dict[str, Option]]:
    """Split readable arguments into the leading cards and ``--name value...`` options.

    An option takes every word up to the next option: none makes it a flag, one a word, more a list.
    """
    cards: list[str] = []
    options: dict[str, Option] = {}
    name = None
    for arg in args:
        if arg.startswith("--") and len(arg) > 2:
            name = arg[2:].replace("-", "_")
            if name in options:
                raise RequestError(f"option --{arg[2:]} is given twice")
            options[name] = True
        elif name is None:
            cards.append(arg)
        else:
            value = options[name]
            options[name] = arg if isinstance(value, bool) else [value, arg] if isinstance(value, str) else [*value, arg]
    return cards, options


def score_line(game: Requests, line: bytes) -> dict[str, Any]:
    """The result for one batch line: the game's answer, or ``{"error": message}``."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return {"error": f"line is not UTF-8 text (byte {error.start})"}
    if not text.strip():
        return {"error": "empty line: expected one JSON request"}
    try:
        request = json.loads(text)
    except json.JSONDecodeError as error:
        return {"error": f"line is not JSON: {error.msg} at column {error.colno}"}
    except ValueError:  # json reads a number Python will not make an int of (int_max_str_digits)
        return {"error": f"line holds a number of more than {sys.get_int_max_str_digits()} digits"}
    except RecursionError:
        return {"error": "line is not JSON: nested too deeply"}
    try:
        return game.score_request(request)
    except RequestError as error:
        return {"error": str(error)}
    except Exception as error:  # a bug must not stop the batch: say so on the line and in the log
        traceback.print_exc(file=sys.stderr)
        return {"error": f"internal error scoring this request ({type(error).__name__}); please report it"}


def score_batch(game: Requests, source: IO[bytes], sink: IO[bytes]) -> None:
    """Answer each line of ``source`` with one JSON line on ``sink``, flushing each answer.

    Lines are read and answered one at a time, so a batch of any length runs in constant memory.
    """
    while line := source.readline():
        result = score_line(game, line)
        sink.write(json.dumps(result, ensure_ascii=False).encode("utf-8") + b"\n")
        sink.flush()


def print_samples(out: IO[str]) -> None:
    """Score and print every game's sample requests: the main job until the demo exists."""
    for name in games.names():
        game = games.game(name)
        for request in game.SAMPLES:
            print(f"== {name}: {json.dumps(request, ensure_ascii=False)}", file=out)
            print(game.render(game.score_request(request)), file=out)
            print(file=out)
