"""Club mode on the device: the journal published to the club's broker, never holding up the camera loop.

The journal is the outbox. ``Outbox`` reads it (read-only, through its own connection) and lists every
entry the broker has not acknowledged yet, in the journal's order: each game begun, each confirmed event,
each game over (``club.messages.Entry``). What was acknowledged is kept beside the journal, in
``<journal>-club``; losing that file only means entries are sent again, which the server counts once.

``ClubLink`` runs in a thread of its own: it publishes the outbox's entries one by one at QoS 1, each
marked sent once the broker acknowledges it, then the table's state (retained). While the broker cannot
be reached (Wi-Fi gone, broker restarted) entries wait in the journal and go out in order when it is back;
paho reconnects on its own. The loop only asks ``brief()`` for the OLED's title bar: ``club ok``,
``queued 3``, ``offline``, ``login refused``, ``refused by broker``.

>>> import pathlib, tempfile
>>> from device.journal import Journal
>>> path = pathlib.Path(tempfile.mkdtemp()) / "journal.db"
>>> with Journal(path, clock=lambda: 1700000000.0) as journal:
...     game = journal.start_game("gin", ["Ann", "Bob"], {})
...     _ = journal.append(game, "knock", {"seat": 0})
>>> with Outbox(path, "north") as outbox:
...     first, second = outbox.pending()
...     outbox.sent(first)
...     [entry.id for entry in outbox.pending()]
['1:1']
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from club.messages import END, EVENTS, OFFLINE, ONLINE, STATE, STATUS, Entry, resend_topic, topic
from device.history import ReadOnlyJournal, replay

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt

    from device.config import ClubSection

log = logging.getLogger(__name__)

POLL = 0.1
"""How often (seconds) the link looks whether the journal has changed."""
RETRY = 2.0
"""How often (seconds) it tries again what the broker has not acknowledged."""
ACK_WAIT = 5.0
"""How long (seconds) it waits for the broker to acknowledge one entry before trying again later."""
KEEPALIVE = 10
"""Seconds between MQTT pings: a table gone silent is offline to the broker within 1.5 times this."""

SENT = """
CREATE TABLE IF NOT EXISTS sent (game_id INTEGER PRIMARY KEY, seq INTEGER NOT NULL, finished INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS resent (token TEXT NOT NULL);
"""


class Outbox:
    """The entries of the journal at ``path`` that the broker has not acknowledged, for table ``table``."""

    def __init__(self, path: str | Path, table: str) -> None:
        self.table = table
        self.journal = ReadOnlyJournal(path, live=True)
        self.db = sqlite3.connect(f"{path}-club", isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # a lost mark only sends an entry again
        self.db.executescript(SENT)

    def __enter__(self) -> Outbox:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self.journal.close()
        self.db.close()

    def version(self) -> int:
        """A number that changes whenever the device commits to the journal."""
        return int(self.journal.db.execute("PRAGMA data_version").fetchone()[0])

    def pending(self) -> list[Entry]:
        """Every entry not yet acknowledged, in the journal's order (game by game)."""
        sent = {game: (seq, finished) for game, seq, finished in self.db.execute("SELECT * FROM sent")}
        rows = self.journal.db.execute(
            "SELECT g.id, g.game, g.players, g.settings, g.started, g.finished, g.result, MAX(e.seq) "
            "FROM games g LEFT JOIN events e ON e.game_id = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        entries: list[Entry] = []
        for game_id, game, players, settings, started, finished, result, last in rows:
            seq, over = sent.get(game_id, (-1, False))
            if (last or 0) <= seq and (finished is None or over):
                continue
            record = {"game": game, "players": json.loads(players), "settings": json.loads(settings),
                      "started": started, "finished": finished, "result": json.loads(result) if result else None}
            if seq < 0:
                entries.append(Entry(self.table, game_id, 0, record, at=started))
            entries += [Entry(self.table, game_id, event.seq, record, event.kind, event.data, event.at)
                        for event in self.journal.events(game_id) if event.seq > seq]
            if finished is not None and not over:
                entries.append(Entry(self.table, game_id, END, record, at=finished))
        return entries

    def sent(self, entry: Entry) -> None:
        """Mark ``entry`` acknowledged by the broker."""
        seq, over = (-1, 1) if entry.seq == END else (entry.seq, 0)
        self.db.execute("INSERT INTO sent VALUES (?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                        "seq = MAX(seq, excluded.seq), finished = MAX(finished, excluded.finished)",
                        (entry.game_id, seq, over))

    def resend(self, token: str) -> bool:
        """Send everything again if the server's ``token`` is new to this table; whether it was."""
        if self.db.execute("SELECT 1 FROM resent WHERE token = ?", (token,)).fetchone():
            return False
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM sent")
        self.db.execute("DELETE FROM resent")
        self.db.execute("INSERT INTO resent VALUES (?)", (token,))
        self.db.execute("COMMIT")
        return True

    def state(self) -> dict[str, Any] | None:
        """The table's state for the retained message: its newest game, who plays, the totals and what the
        latest scoring event scored; None before the first game."""
        games = self.journal.games()
        if not games:
            return None
        current = self.journal.current_game()
        record = current or games[-1]
        history = replay(self.journal, record, set() if current is None else {current.id})
        scored = [step for step in history.steps if step.scores]
        return {"game_id": record.id, "game": record.game, "title": history.title, "sides": list(history.sides),
                "totals": list(history.totals), "state": history.state, "winner": history.winner,
                "last": [str(score) for score in scored[-1].scores] if scored else [],
                "events": len(history.steps)}


class ClubLink:
    """The table's link to the club (``config``: the ``[club]`` section), publishing the journal at
    ``journal`` from its own thread between ``start()`` and ``close()``."""

    def __init__(self, config: ClubSection, journal: str | Path) -> None:
        from club.mqtt import client

        self.config, self.path = config, Path(journal)
        self.client: mqtt.Client = client(config, f"tablescore-{config.name}-{config.table}", config.user)
        self.client.will_set(self._topic(STATUS), OFFLINE, qos=1, retain=True)
        self.client.on_connect = self._connected
        self.client.on_disconnect = self._disconnected
        self.client.on_publish = self._acknowledged
        self.client.on_message = self._message
        self.connected = False
        self.queued: int | None = None
        """Entries waiting for the broker (None until the journal has been read)."""
        self.refused = False
        """Whether the broker refused the latest entry (the ACL does not let this table's user publish it)."""
        self.login: str | None = None
        """Why the broker refused the latest login (a wrong user name or password), if it did."""
        self._refusals: set[int] = set()
        self._token: str | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="club-link", daemon=True)

    def __enter__(self) -> ClubLink:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def start(self) -> ClubLink:
        """Connect (in the background) and start publishing."""
        self.client.connect_async(self.config.host, self.config.port, keepalive=KEEPALIVE)
        self.client.loop_start()
        self._thread.start()
        return self

    def close(self) -> None:
        """Stop publishing, say goodbye (the table is offline) and disconnect; unsent entries stay queued
        in the journal for the next start."""
        self._stop.set()
        self._wake.set()
        self._thread.join()
        if self.connected:
            self.client.publish(self._topic(STATUS), OFFLINE, qos=1, retain=True).wait_for_publish(1.0)
        self.client.disconnect()
        self.client.loop_stop()

    def brief(self) -> str:
        """The link in a few words for the OLED's title bar.

        >>> from device.config import ClubSection
        >>> link = ClubLink(ClubSection(name="riverside", table="north"), "journal.db")
        >>> link.brief(), (setattr(link, "queued", 3), link.brief())[1]
        ('offline', 'offline, queued 3')
        >>> link.connected = True; link.brief()
        'queued 3'
        >>> link.queued = 0; link.brief()
        'club ok'
        """
        if not self.connected:
            if self.login:
                return "login refused"
            return f"offline, queued {self.queued}" if self.queued else "offline"
        if self.queued is None:
            return "connecting"
        if self.refused:
            return "refused by broker"
        return f"queued {self.queued}" if self.queued else "club ok"

    def _topic(self, leaf: str) -> str:
        return topic(self.config.name, self.config.table, leaf)

    # paho's network thread calls these.

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            if str(reason) != self.login:  # logged once, not at every retry
                log.error("the club's broker refuses user %r: %s", self.config.user, reason)
            self.login = str(reason)
            return
        self.login = None
        log.info("connected to the club's broker %s:%s", self.config.host, self.config.port)
        client.publish(self._topic(STATUS), ONLINE, qos=1, retain=True)
        client.subscribe(resend_topic(self.config.name), qos=1)
        self.connected = True
        self._wake.set()

    def _disconnected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.connected and not self._stop.is_set():
            log.warning("lost the club's broker (%s): entries wait in the journal", reason)
        self.connected = False

    def _acknowledged(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            self._refusals.add(mid)

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._token = message.payload.decode(errors="replace")
        self._wake.set()

    # The link's own thread.

    def _run(self) -> None:
        outbox: Outbox | None = None
        state: dict[str, Any] | None = None
        failed: str | None = None
        while not self._stop.is_set():
            try:  # the table plays on whatever goes wrong here: the journal keeps everything for later
                outbox = outbox or Outbox(self.path, self.config.table)
                if self._token is not None and outbox.resend(self._token):
                    log.info("the club server asks for everything again: resending the journal")
                    state = None
                version = outbox.version()  # before reading: a commit from now on wakes the wait
                entries = outbox.pending()
                self.queued = len(entries)
                if self.connected and self._publish(outbox, entries):
                    now = outbox.state()
                    if now != state and now is not None:
                        self.client.publish(self._topic(STATE), json.dumps(now), qos=1, retain=True)
                        state = now
                self._wait(outbox, version)
                failed = None
            except Exception as error:
                if repr(error) != failed:  # logged once, not at every retry
                    log.exception("the club link failed; trying again every %s s", RETRY)
                    failed = repr(error)
                self._stop.wait(RETRY)
        if outbox is not None:
            outbox.close()

    def _publish(self, outbox: Outbox, entries: list[Entry]) -> bool:
        """Publish ``entries`` in order, each marked sent once acknowledged; whether all of them were."""
        for entry in entries:
            info = self.client.publish(self._topic(EVENTS), entry.payload(), qos=1)
            deadline = time.monotonic() + ACK_WAIT
            while not _published(info) and time.monotonic() < deadline and self.connected:
                if self._stop.wait(0.05):
                    return False
            if not _published(info):
                return False
            refused = info.mid in self._refusals
            if refused != self.refused:
                if refused:
                    log.error("the broker refuses entry %s on %s: the club's ACL must let user %r publish "
                              "there", entry.id, self._topic(EVENTS), self.config.user)
                self.refused = refused
            if refused:
                self._refusals.discard(info.mid)
                return False
            outbox.sent(entry)
            self.queued = (self.queued or 1) - 1
        return True

    def _wait(self, outbox: Outbox, version: int) -> None:
        """Until the journal changes from ``version``, the broker connects, a stop, or RETRY seconds."""
        deadline = time.monotonic() + RETRY
        while time.monotonic() < deadline:
            if self._wake.wait(POLL):
                self._wake.clear()
                return
            if outbox.version() != version:
                return


def _published(info: mqtt.MQTTMessageInfo) -> bool:
    """Whether the broker has acknowledged a message (not when it could not be sent: the link dropped)."""
    try:
        return info.is_published()
    except (RuntimeError, ValueError):
        return False


@contextmanager
def linked(config: ClubSection | None, journal: str | Path) -> Iterator[ClubLink | None]:
    """The club link of a ``[club]`` section, running while the block runs; None without one."""
    if config is None:
        yield None
        return
    with ClubLink(config, journal) as link:
        yield link
