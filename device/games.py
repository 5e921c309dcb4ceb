"""The games a table plays, one entry each: all the device and the ``tablescore score`` command need to know
of a game. Adding a game is its rules (``scoring/``), its request module (``scoring/requests/``), its flow
(``device/flows/``) with a ledger for its history, its demo recording, and one entry here.

An entry names its modules rather than importing them, so that the score command starts without loading
the device's flows; each is loaded when first used.

>>> [spec.name for spec in GAMES.values()]  # in the order the demo plays them
['cribbage', 'gin', 'barbu', 'ofc', 'pinzique']
>>> spec("gin").title, spec("gin").new_flow(["Ann", "Bob"], {}).name
('Gin Rummy', 'gin')
>>> game("chess")
Traceback (most recent call last):
...
device.games.UnknownGameError: unknown game 'chess' (known games: barbu, cribbage, gin, ofc, pinzique)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from scoring.requests import RequestError, Requests

if TYPE_CHECKING:
    from device.flows.flow import Flow
    from device.history import Ledger

__all__ = ["GAMES", "GameSpec", "UnknownGameError", "flow_for", "game", "names", "spec"]


@dataclass(frozen=True)
class GameSpec:
    """One game: its name (in the configuration's ``game`` and ``[games.NAME]``, on the command line, in the
    journal and the demo's recording ``NAME.json``), its titles, and the modules that score, play and
    tell it."""

    name: str
    title: str
    """The game's full name, as a history shows it."""
    label: str
    """A short name, for the demo's title bar."""
    requests: str
    """The module that scores ``tablescore score NAME`` requests (``scoring.requests.Requests``)."""
    flow: str
    """The game's flow at the table (``device.flows.flow.Flow``), as ``module.Class``."""
    ledger: str
    """What each of its events scored, for the history (``device.history.Ledger``), as ``module.Class``."""
    dice: bool = False
    """Whether the table reads the dice tray."""
    signed: bool = False
    """Whether a hand's points may be negative (shown with their sign)."""

    def scorer(self) -> Requests:
        """The module that scores the game's requests."""
        return cast(Requests, importlib.import_module(self.requests))

    def new_flow(self, players: Sequence[str], settings: Mapping[str, Any]) -> Flow[Any]:
        """A new flow of the game with these players and settings (checked when the game starts)."""
        return cast("type[Flow[Any]]", _load(self.flow))(players, settings)

    def new_ledger(self) -> Ledger[Any]:
        """The game's ledger."""
        return cast("type[Ledger[Any]]", _load(self.ledger))()


def _load(path: str) -> object:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (
    GameSpec("cribbage", "Cribbage", "Cribbage", "scoring.requests.cribbage", "device.flows.cribbage.CribbageFlow",
             "device.history.CribbageLedger"),
    GameSpec("gin", "Gin Rummy", "Gin", "scoring.requests.gin", "device.flows.gin.GinFlow", "device.history.GinLedger"),
    GameSpec("barbu", "Barbu", "Barbu", "scoring.requests.barbu", "device.flows.barbu.BarbuFlow",
             "device.history.BarbuLedger", signed=True),
    GameSpec("ofc", "Open-Face Chinese Poker", "OFC", "scoring.requests.ofc", "device.flows.ofc.OfcFlow",
             "device.history.OfcLedger", signed=True),
    GameSpec("pinzique", "Pinzique", "Pinzique", "scoring.requests.pinzique", "device.flows.pinzique.PinziqueFlow",
             "device.history.PinziqueLedger", dice=True),
)}
"""Every game, by name, in the order the demo plays them."""


class UnknownGameError(RequestError):
    """A game name the device does not know."""


def names() -> list[str]:
    """The known games' names, sorted."""
    return sorted(GAMES)


def spec(name: str) -> GameSpec:
    """The entry of the game ``name``; ``UnknownGameError`` naming the known games if there is none."""
    if name not in GAMES:
        raise UnknownGameError(f"unknown game {name!r} (known games: {', '.join(names())})")
    return GAMES[name]


def game(name: str) -> Requests:
    """The module that scores ``name``'s requests."""
    return spec(name).scorer()


def flow_for(name: str, players: Sequence[str], settings: Mapping[str, Any]) -> Flow[Any]:
    """A new flow for the game ``name`` with these players and settings (checked when the game starts)."""
    return spec(name).new_flow(players, settings)
