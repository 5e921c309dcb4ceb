"""The games the engine scores: each game's command-line name and its request module
(``scoring.requests.Requests``).

>>> sorted(GAMES) == names()
True
>>> game("chess")
Traceback (most recent call last):
...
scoring.games.UnknownGameError: unknown game 'chess' (known games: ...)
"""

from __future__ import annotations

import importlib
from typing import cast

from scoring.requests import RequestError, Requests

__all__ = ["GAMES", "UnknownGameError", "game", "names"]

GAMES: dict[str, str] = {
    "barbu": "scoring.requests.barbu",
    "gin": "scoring.requests.gin",
    "cribbage": "scoring.requests.cribbage",
    "pinzique": "scoring.requests.pinzique",
    "ofc": "scoring.requests.ofc",
}
"""Each game's command-line name and the module that scores its requests."""


class UnknownGameError(RequestError):
    """A game name the engine does not know."""


def names() -> list[str]:
    """The known games' names, sorted."""
    return sorted(GAMES)


def game(name: str) -> Requests:
    """The module that scores ``name``'s requests."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known games: {', '.join(names())})")
    return cast(Requests, importlib.import_module(GAMES[name]))
