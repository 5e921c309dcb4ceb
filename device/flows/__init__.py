"""Game flows: one a game, each turning what the tracker sees and the buttons into confirmed events,
engine calls and screens (``flow.Flow``); ``play.Play`` runs one at the table with its journal.

>>> sorted(FLOWS)
['barbu', 'cribbage', 'gin', 'ofc', 'pinzique']
>>> flow_for("cribbage", ["Ann", "Bob"], {}).name
'cribbage'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from device.flows.barbu import BarbuFlow
from device.flows.cribbage import CribbageFlow
from device.flows.flow import Flow
from device.flows.gin import GinFlow
from device.flows.ofc import OfcFlow
from device.flows.pinzique import PinziqueFlow

FLOWS: dict[str, type[Flow[Any]]] = {
    "barbu": BarbuFlow,
    "cribbage": CribbageFlow,
    "gin": GinFlow,
    "ofc": OfcFlow,
    "pinzique": PinziqueFlow,
}
"""Each game's flow, by the game's name in the configuration."""


def flow_for(game: str, players: Sequence[str], settings: Mapping[str, Any]) -> Flow[Any]:
    """A new flow for ``game`` with these players and settings (checked when the game starts)."""
    if game not in FLOWS:
        raise ValueError(f"no flow for the game {game!r} (games: {', '.join(sorted(FLOWS))})")
    return FLOWS[game](players, settings)
