"""The seat panel's serial protocol: one file, run by the Pico (MicroPython) and the device (CPython).

Every message is a payload (a type byte, then fixed little-endian fields, then for a hello a short ASCII
text) followed by the CRC-32 of the payload, COBS-encoded so that the frame holds no zero byte, then a
single 0x00 delimiter. A receiver splits the stream at zeros; a frame that does not decode (bad COBS,
wrong CRC, unknown type, wrong length, a value out of range) is counted and dropped, never acted on.

>>> frame = Button(7, 1, 2, ACTION, HOLD).frame()
>>> frame.count(0), frame[0], frame[-1]
(2, 0, 0)
>>> reader = Deframer()
>>> reader.feed(b"noise" + frame[:6]) + reader.feed(frame[6:])
[Button(boot=7, seq=1, seat=2, button=0, kind=1)]
>>> reader.bad
1

This module keeps to what MicroPython (1.22 or later) supports: no typing, dataclasses or enum at run
time, `struct` with little-endian B, H and I only, simple f-strings, and annotations, which MicroPython
parses and ignores.
"""

import struct

try:
    import binascii

    _FAST_CRC = hasattr(binascii, "crc32")
except ImportError:  # a MicroPython build without binascii
    _FAST_CRC = False

PROTOCOL_VERSION = 1
SEATS = 4
MAX_TEXT = 32  # the longest version text a hello may carry
MAX_FRAME = 64  # the longest encoded frame a receiver keeps; anything longer is noise

# Wire codes: a button, what it did, and the LED modes, each a tuple index.
BUTTONS = ("action", "confirm")
KINDS = ("press", "hold")
LED_MODES = ("off", "on", "blink")
ACTION, CONFIRM = 0, 1
PRESS, HOLD = 0, 1
OFF, ON, BLINK = 0, 1, 2

_LIMITS = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFFFFFF}


class ProtocolError(ValueError):
    """A frame or message that is not well formed; the text says what was wrong."""


def crc32_by_hand(data: bytes) -> int:
    """The CRC-32 of ZIP and Ethernet (reflected polynomial 0xEDB88320), bit by bit.

    >>> hex(crc32_by_hand(b"123456789"))  # the standard check value
    '0xcbf43926'
    """
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def crc32(data: bytes) -> int:
    """The CRC-32 of `data`: binascii's where the build has it, else `crc32_by_hand`.

    >>> crc32(b"123456789") == crc32_by_hand(b"123456789")
    True
    """
    if _FAST_CRC:
        return binascii.crc32(data) & 0xFFFFFFFF
    return crc32_by_hand(data)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: `data` rewritten without zero bytes (one byte longer per 254).

    >>> cobs_encode(b"\\x11\\x00\\x00\\x22")
    b'\\x02\\x11\\x01\\x02"'
    """
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block = bytearray()
        else:
            out.append(len(block) + 1)
            out += block
            block = bytearray()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """The inverse of `cobs_encode`; raises ProtocolError for anything it could not have written.

    >>> cobs_decode(b'\\x02\\x11\\x01\\x02"')
    b'\\x11\\x00\\x00"'
    >>> cobs_decode(b"\\x05ab")
    Traceback (most recent call last):
    ...
    firmware.protocol.ProtocolError: COBS block of 4 bytes runs past the frame's 2
    """
    out = bytearray()
    at = 0
    while at < len(data):
        code = data[at]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS frame")
        end = at + code
        if end > len(data):
            raise ProtocolError(f"COBS block of {code - 1} bytes runs past the frame's {len(data) - at - 1}")
        block = data[at + 1 : end]
        if b"\x00" in block:
            raise ProtocolError("zero byte inside a COBS frame")
        out += block
        at = end
        if code != 255 and at < len(data):
            out.append(0)
    return bytes(out)


class Message:
    """A message of the protocol; each subclass names its type byte, its fields and their layout."""

    TYPE = 0
    FORMAT = "<"  # struct layout of the fixed fields after the type byte
    FIELDS: tuple[str, ...] = ()  # names of the fixed fields, in order
    TEXT = ""  # the name of a trailing ASCII text field, if the type has one

    def __init__(self, *values: object) -> None:
        names = self.names()
        if len(values) != len(names):
            raise ProtocolError(f"{type(self).__name__} takes {len(names)} values, not {len(values)}")
        for at in range(len(names)):
            setattr(self, names[at], values[at])

    def names(self) -> tuple[str, ...]:
        """The field names, in order (the text last)."""
        return self.FIELDS + ((self.TEXT,) if self.TEXT else ())

    def values(self) -> tuple[object, ...]:
        """The field values, in order (the text last)."""
        return tuple(getattr(self, name) for name in self.names())

    def check(self) -> None:
        """Raise ProtocolError unless every field is in range."""
        for at in range(len(self.FIELDS)):
            value = getattr(self, self.FIELDS[at])
            if not isinstance(value, int) or not 0 <= value <= _LIMITS[self.FORMAT[at + 1]]:
                raise ProtocolError(f"{type(self).__name__} {self.FIELDS[at]} out of range: {value!r}")
        if self.TEXT:
            text = getattr(self, self.TEXT)
            if not isinstance(text, str) or len(text) > MAX_TEXT or not _printable(text.encode()):
                raise ProtocolError(
                    f"{type(self).__name__} {self.TEXT} must be printable ASCII of at most {MAX_TEXT}: {text!r}"
                )

    def payload(self) -> bytes:
        """The message as bytes: its type, its fields, and its text."""
        self.check()
        fixed = struct.pack(self.FORMAT, *self.values()[: len(self.FIELDS)])
        text = getattr(self, self.TEXT).encode() if self.TEXT else b""
        return bytes((self.TYPE,)) + fixed + text

    def frame(self) -> bytes:
        """The message framed for the wire: COBS(payload + CRC-32) and a 0x00."""
        return encode_frame(self.payload())

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self.values() == other.values()  # type: ignore[attr-defined,unused-ignore]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.names())
        return f"{type(self).__name__}({fields})"


def _seat_checked(message: Message, seat: int) -> None:
    if not 1 <= seat <= SEATS:
        raise ProtocolError(f"{type(message).__name__} seat must be 1-{SEATS}, not {seat}")


class Hello(Message):
    """Sent by the panel at start and whenever asked; the host sends one to ask (seats 0, its own version).

    The protocol version comes first and the layout of a hello never changes, so either side can read the
    other's version even when they differ.
    """

    TYPE = 1
    FORMAT = "<BIB"
    FIELDS = ("protocol", "boot", "seats")
    TEXT = "version"
    protocol: int
    boot: int  # the panel's boot id (random each start); a host sends 0
    seats: int
    version: str


class Heartbeat(Message):
    """Sent every half second by both sides: the sender is alive, and how its side of the line is doing."""

    TYPE = 2
    FORMAT = "<IIHH"
    FIELDS = ("boot", "uptime", "bad_frames", "dropped")
    boot: int
    uptime: int  # seconds since the sender started
    bad_frames: int  # frames the sender has counted and dropped (wraps at 65536)
    dropped: int  # button events the panel could not queue (its outbox was full)


class Button(Message):
    """A button event from the panel; `seq` counts from 1 each boot and the host acknowledges it."""

    TYPE = 3
    FORMAT = "<IIBBB"
    FIELDS = ("boot", "seq", "seat", "button", "kind")
    boot: int
    seq: int
    seat: int  # 1-4
    button: int  # ACTION or CONFIRM
    kind: int  # PRESS or HOLD

    def check(self) -> None:
        Message.check(self)
        _seat_checked(self, self.seat)
        if self.seq == 0 or self.button >= len(BUTTONS) or self.kind >= len(KINDS):
            raise ProtocolError(f"Button needs seq >= 1, button < {len(BUTTONS)}, kind < {len(KINDS)}")


class Led(Message):
    """From the host: show `mode` on a seat's LED; the panel acknowledges `seq`."""

    TYPE = 4
    FORMAT = "<IBB"
    FIELDS = ("seq", "seat", "mode")
    seq: int
    seat: int
    mode: int  # OFF, ON or BLINK

    def check(self) -> None:
        Message.check(self)
        _seat_checked(self, self.seat)
        if self.mode >= len(LED_MODES):
            raise ProtocolError(f"Led mode must be below {len(LED_MODES)}, not {self.mode}")


class Ack(Message):
    """From the host: every button event of `boot` up to `seq` is safely received.
    From the panel: the LED command `seq` is applied (`boot` is the panel's own)."""

    TYPE = 5
    FORMAT = "<II"
    FIELDS = ("boot", "seq")
    boot: int
    seq: int


TYPES = {kind.TYPE: kind for kind in (Hello, Heartbeat, Button, Led, Ack)}


def _printable(raw: bytes) -> bool:
    return all(32 <= byte < 127 for byte in raw)


def encode_frame(payload: bytes) -> bytes:
    """Frame a payload: COBS(payload + little-endian CRC-32) between two 0x00 delimiters.

    The leading zero ends whatever noise the line carried before, so noise never spoils a good frame.
    """
    return b"\x00" + cobs_encode(payload + crc32(payload).to_bytes(4, "little")) + b"\x00"


def decode_frame(frame: bytes) -> Message:
    """The message in one frame (without its delimiter); raises ProtocolError saying what was wrong.

    >>> decode_frame(Ack(9, 4).frame()[1:-1])
    Ack(boot=9, seq=4)
    >>> decode_frame(cobs_encode(b"\\x05" + bytes(12)))
    Traceback (most recent call last):
    ...
    firmware.protocol.ProtocolError: CRC mismatch
    """
    raw = cobs_decode(frame)
    if len(raw) < 5:
        raise ProtocolError(f"frame of {len(raw)} bytes is too short")
    payload = raw[:-4]
    if crc32(payload) != int.from_bytes(raw[-4:], "little"):
        raise ProtocolError("CRC mismatch")
    kind = TYPES.get(payload[0])
    if kind is None:
        raise ProtocolError(f"unknown message type {payload[0]}")
    size = struct.calcsize(kind.FORMAT)
    body = payload[1:]
    if len(body) != size and not (kind.TEXT and size <= len(body) <= size + MAX_TEXT):
        raise ProtocolError(f"{kind.__name__} of {len(body)} bytes, expected {size}")
    values = list(struct.unpack(kind.FORMAT, body[:size]))
    if kind.TEXT:
        if not _printable(body[size:]):
            raise ProtocolError(f"{kind.__name__} text is not printable ASCII")
        values.append(body[size:].decode())
    message = kind(*values)
    message.check()
    return message


class Deframer:
    """Splits a byte stream into messages; counts and drops bad frames (in `bad`).

    Empty frames (two zeros in a row) are not counted: a sender may write a zero to end any partial frame
    the line holds before its own.
    """

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.overlong = False
        self.bad = 0
        self.good = 0

    def feed(self, data: bytes) -> list[Message]:
        """Take bytes from the line; return the messages whose frames they completed, in order."""
        messages: list[Message] = []
        for byte in data:
            if byte:
                if len(self.buffer) < MAX_FRAME:
                    self.buffer.append(byte)
                else:
                    self.overlong = True
                continue
            if self.overlong:
                self.bad += 1
            elif self.buffer:
                try:
                    messages.append(decode_frame(bytes(self.buffer)))
                    self.good += 1
                except ProtocolError:
                    self.bad += 1
            self.buffer = bytearray()
            self.overlong = False
        return messages
