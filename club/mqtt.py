"""A paho-mqtt client for the club's broker, as both sides use it: MQTT 5, the broker's user and password,
TLS when the settings ask for it, and reconnecting on its own (from a second up to ``MAX_DELAY``)."""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from device.config import BrokerSection

MAX_DELAY = 10
"""The longest wait (seconds) between two tries to reach a broker that is down."""


def client(broker: BrokerSection, client_id: str, user: str | None = None) -> mqtt.Client:
    """A client for ``broker``, logging in as ``user`` (``broker.username`` unless given); not connected yet."""
    made = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5)
    name = user if user is not None else broker.username
    if name:
        made.username_pw_set(name, broker.password or None)
    if broker.tls:
        made.tls_set(ca_certs=broker.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
    made.reconnect_delay_set(min_delay=1, max_delay=MAX_DELAY)
    return made
