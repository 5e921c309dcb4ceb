"""The club server (``tablescore club serve``): it keeps every table's games from the club's broker in its own
database and serves the live standings on the web (``club.web``).

It subscribes to every table's topics with a session the broker keeps (QoS 1): what the tables publish
while the server is down waits in the broker, and each entry is committed to the database before the broker
hears it arrived. A new (or lost) database asks the tables to send their whole journals again.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from types import TracebackType
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from club.config import ServerConfig
from club.messages import EVENTS, ROOT, STATE, STATUS, Entry, parse_topic, resend_topic
from club.mqtt import client
from club.standings import Club
from club.store import Store
from club.web import Changes, Pages, server

log = logging.getLogger(__name__)

SESSION = 7 * 24 * 3600
"""How long (seconds) the broker keeps the server's subscriptions and what they receive while it is down."""


class ClubServer:
    """The broker's subscriber, the database and the web server of ``config``, running between ``start()``
    and ``close()``."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.name = config.club.name
        self.store = Store(config.server.database)
        self.changes = Changes()
        self.club = Club(self.store)
        self.web = server(Pages(self.club, self.changes, self.name), config.server.listen, config.server.port)
        self.client = client(config.broker, f"tablescore-club-{self.name}")
        self.client.on_connect = self._connected
        self.client.on_message = self._message
        self.connected = threading.Event()
        self._web = threading.Thread(target=self.web.serve_forever, name="club-web", daemon=True)

    def __enter__(self) -> ClubServer:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def start(self) -> ClubServer:
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION
        broker = self.config.broker
        self.client.connect_async(broker.host, broker.port, keepalive=10, clean_start=False, properties=properties)
        self.client.loop_start()
        self._web.start()
        return self

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
        self.web.shutdown()
        self.web.server_close()
        self.store.close()

    # paho's network thread calls these.

    def _connected(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            log.error("the broker refuses the club server: %s", reason)
            return
        log.info("connected to the club's broker")
        client.subscribe(f"{ROOT}/{self.name}/+/+", qos=1)
        if self.store.empty():
            log.info("the database is new: asking every table for its whole journal")
            client.publish(resend_topic(self.name), uuid.uuid4().hex, qos=1, retain=True)
        self.connected.set()

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        where = parse_topic(self.name, message.topic)
        if where is None:
            return
        table, leaf = where
        try:
            if leaf == EVENTS:
                changed = self.store.add(Entry.parse(table, message.payload))
            elif leaf == STATUS:
                self.store.report(table, status=message.payload.decode())
                changed = True
            elif leaf == STATE:
                self.store.report(table, state=json.loads(message.payload))
                changed = True
            else:
                return
        except ValueError as error:  # one bad message is logged and skipped; the others still count
            log.warning("skipped a message on %s: %s", message.topic, error)
            return
        if changed:
            self.changes.bump()
