"""The games the engine scores, and what each game module offers the ``tablescore score`` command.

Each game module (``scoring.cribbage``, ...) provides:

- ``score_request(request)``: a JSON-shaped request (a dict) to a JSON-shaped result, raising
  ``RequestError`` with a clear message for a bad request; pure, no I/O.
- ``request_from_args(cards, options)``: the same request from the readable command line, where
  ``cards`` are the positional arguments and ``options`` the ``--name value...`` options.
- ``render(result)``: the result as itemised text for a person.
- ``SAMPLES``: a few requests, scored by the main job and checked by the tests.

>>> sorted(GAMES) == names()
True
>>> game("chess")
Traceback (most recent call last):
...
scoring.games.UnknownGameError: unknown game 'chess' (known games: ...)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

from scoring.requests import RequestError

__all__ = ["GAMES", "Game", "Option", "UnknownGameError", "game", "names"]

Option = str | list[str] | bool
"""A readable-form option's value: a flag, one word, or several words."""

GAMES: dict[str, str] = {
    "barbu": "scoring.barbu",
    "gin": "scoring.gin",
    "cribbage": "scoring.cribbage",
    "pinzique": "scoring.pinzique",
    "ofc": "scoring.ofc",
}
"""Each game's command-line name and the module that scores it."""


class Game(Protocol):
    """What a game module offers the score command."""

    SAMPLES: Sequence[Mapping[str, Any]]

    def score_request(self, request: Mapping[str, Any]) -> dict[str, Any]: ...

    def request_from_args(self, cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]: ...

    def render(self, result: Mapping[str, Any]) -> str: ...


class UnknownGameError(RequestError):
    """A game name the engine does not know."""


def names() -> list[str]:
    """The known games' names, sorted."""
    return sorted(GAMES)


def game(name: str) -> Game:
    """The module that scores ``name``."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known games: {', '.join(names())})")
    return cast(Game, importlib.import_module(GAMES[name]))
