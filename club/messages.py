"""What a table publishes to the club's broker, and where: the one format both sides share.

Every topic lies under ``tablescore/<club>/<table>/``:

- ``events``: each entry of the table's journal, in order, at QoS 1. An entry is a game begun (``seq`` 0),
  a confirmed event (``seq`` 1, 2, ... as in the journal, an undo included) or a game over (``seq``
  ``end``). Its ``id`` (``<game>:<seq>``) is the journal's own, so a message sent twice is known as one.
  Each carries its game's record (game, players, settings, start; the result once over), so the server
  needs no other message to place it.
- ``state``: the table's current game and totals, retained, so the server (or anyone) knows every table
  at once on connecting.
- ``status``: ``online``, retained; the broker sets it to ``offline`` (the table's last will) when the
  table drops off without a goodbye.

The server asks for everything again (a database rebuilt from nothing) by retaining a new token on
``tablescore/<club>/resend``; each table publishes its whole journal once for each new token.

>>> entry = Entry("north", 3, 0, record={"game": "gin", "players": ["Ann", "Bob"], "settings": {},
...                                       "started": 1.0, "finished": None, "result": None})
>>> entry.id, topic("riverside", "north", EVENTS)
('3:0', 'tablescore/riverside/north/events')
>>> Entry.parse("north", entry.payload()) == entry
True
>>> parse_topic("riverside", "tablescore/riverside/north/state")
('north', 'state')
>>> check_name("table", "north 2")
Traceback (most recent call last):
...
ValueError: table: 'north 2' must be letters, digits, '-' or '_' (it names an MQTT topic)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

ROOT = "tablescore"
EVENTS, STATE, STATUS = "events", "state", "status"
ONLINE, OFFLINE = "online", "offline"
RESEND = "resend"
END = "end"
"""The ``seq`` of a game-over entry."""

_NAME = re.compile(r"[A-Za-z0-9_-]+")


def check_name(what: str, name: str) -> None:
    """Refuse a club or table name that cannot be one level of a topic (or a broker user name)."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"{what}: {name!r} must be letters, digits, '-' or '_' (it names an MQTT topic)")


def topic(club: str, table: str, leaf: str) -> str:
    """The topic of one table's ``leaf`` (EVENTS, STATE, STATUS)."""
    return f"{ROOT}/{club}/{table}/{leaf}"


def resend_topic(club: str) -> str:
    """The topic on which the server asks every table for its whole journal again."""
    return f"{ROOT}/{club}/{RESEND}"


def parse_topic(club: str, name: str) -> tuple[str, str] | None:
    """The table and leaf of one of ``club``'s table topics; None for any other topic."""
    parts = name.split("/")
    if len(parts) != 4 or parts[:2] != [ROOT, club] or not _NAME.fullmatch(parts[2]):
        return None
    return parts[2], parts[3]


@dataclass(frozen=True)
class Entry:
    """One journal entry of a table: a game begun (``seq`` 0), a confirmed event, or a game over (``END``)."""

    table: str
    game_id: int
    seq: int | str
    record: dict[str, Any]
    """The game's journal record: ``game``, ``players``, ``settings``, ``started``, ``finished``, ``result``."""
    kind: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    at: float | None = None

    @property
    def id(self) -> str:
        """The journal's id of the entry: ``<game>:<seq>``."""
        return f"{self.game_id}:{self.seq}"

    def payload(self) -> bytes:
        """The message's body: JSON."""
        return json.dumps({"id": self.id, "game_id": self.game_id, "seq": self.seq, "record": self.record,
                           "kind": self.kind, "data": self.data, "at": self.at}).encode()

    @classmethod
    def parse(cls, table: str, payload: bytes | bytearray) -> Entry:
        """The entry of a message from ``table``; ValueError naming what is wrong with it."""
        try:
            body = json.loads(payload)
            record = body["record"]
            entry = cls(table, int(body["game_id"]), body["seq"], dict(record), body.get("kind"),
                        dict(body.get("data") or {}), body.get("at"))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"not an entry from table {table}: {error}") from None
        if not (entry.seq == END or isinstance(entry.seq, int) and entry.seq >= 0):
            raise ValueError(f"entry {entry.id} from table {table}: seq must be 0, 1, ... or {END!r}")
        missing = {"game", "players", "settings", "started"} - set(record)
        if missing:
            raise ValueError(f"entry {entry.id} from table {table}: its record lacks {', '.join(sorted(missing))}")
        if isinstance(entry.seq, int) and entry.seq > 0 and not entry.kind:
            raise ValueError(f"entry {entry.id} from table {table}: an event without its kind")
        return entry
