"""The shared serial protocol: COBS, CRC-32, messages and the deframer."""

import contextlib
import doctest
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware import protocol
from firmware.protocol import (
    Ack,
    Button,
    Deframer,
    Heartbeat,
    Hello,
    Led,
    ProtocolError,
    cobs_decode,
    cobs_encode,
    crc32,
    crc32_by_hand,
    decode_frame,
    encode_frame,
)

u32 = st.integers(0, 0xFFFFFFFF)
u16 = st.integers(0, 0xFFFF)
seats = st.integers(1, protocol.SEATS)
text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=protocol.MAX_TEXT)
messages = st.one_of(
    st.builds(Hello, st.integers(0, 255), u32, st.integers(0, 255), text),
    st.builds(Heartbeat, u32, u32, u16, u16),
    st.builds(Button, u32, st.integers(1, 0xFFFFFFFF), seats, st.integers(0, 1), st.integers(0, 1)),
    st.builds(Led, u32, seats, st.integers(0, 2)),
    st.builds(Ack, u32, u32),
)


def test_doctests_of_the_firmware_modules():
    # CI collects doctests from scoring/vision/device only; the firmware package's run here.
    from firmware import main, standin

    for module in (protocol, main, standin):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0, module.__name__


def test_crc32_check_value():
    # The catalogued check value of CRC-32/ISO-HDLC (the ZIP CRC) over the ASCII digits 1-9.
    assert crc32_by_hand(b"123456789") == 0xCBF43926 == crc32(b"123456789")
    assert crc32_by_hand(b"") == 0


@given(st.binary(max_size=300))
def test_crc32_by_hand_matches_zlib(data):
    assert crc32_by_hand(data) == zlib.crc32(data) == crc32(data)


@given(st.binary(max_size=1200))
def test_cobs_round_trip_without_zeros(data):
    encoded = cobs_encode(data)
    assert 0 not in encoded
    assert len(encoded) <= len(data) + 1 + len(data) // 254
    assert cobs_decode(encoded) == data


@pytest.mark.parametrize("size", [253, 254, 255, 508, 509])
def test_cobs_around_the_254_byte_block(size):
    for data in (b"\x01" * size, b"\x01" * size + b"\x00", b"\x00" + b"\x02" * size):
        assert cobs_decode(cobs_encode(data)) == data


@given(st.binary(max_size=200))
def test_cobs_decode_of_anything_raises_only_protocol_error(data):
    with contextlib.suppress(ProtocolError):
        cobs_decode(data)


@given(messages)
def test_every_message_round_trips(message):
    frame = message.frame()
    assert frame[0] == 0 and frame[-1] == 0 and frame.count(0) == 2
    assert decode_frame(frame[1:-1]) == message
    assert len(frame) <= protocol.MAX_FRAME + 2


@given(messages, st.data())
def test_a_flipped_bit_never_yields_a_message(message, data):
    frame = bytearray(message.frame())
    at = data.draw(st.integers(1, len(frame) - 2))
    frame[at] ^= 1 << data.draw(st.integers(0, 7))
    reader = Deframer()
    assert reader.feed(bytes(frame)) == []
    assert reader.bad >= 1


@given(st.binary(max_size=100))
def test_decoding_anything_raises_only_protocol_error(data):
    try:
        message = decode_frame(data)
    except ProtocolError:
        return
    message.check()  # if it did decode (CRC matched by chance), it is a well-formed message


def _framed(payload):
    """A frame with a correct CRC around a payload the encoder would refuse to write."""
    return encode_frame(payload)[1:-1]


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (
            bytes([3]) + (1).to_bytes(4, "little") + (1).to_bytes(4, "little") + bytes([5, 0, 0]),
            "seat must be 1-4, not 5",
        ),
        (
            bytes([3]) + (1).to_bytes(4, "little") + (1).to_bytes(4, "little") + bytes([0, 0, 0]),
            "seat must be 1-4, not 0",
        ),
        (bytes([3]) + (1).to_bytes(4, "little") + (0).to_bytes(4, "little") + bytes([1, 0, 0]), "seq >= 1"),
        (bytes([3]) + (1).to_bytes(4, "little") + (1).to_bytes(4, "little") + bytes([1, 2, 0]), "button < 2"),
        (bytes([4]) + (1).to_bytes(4, "little") + bytes([1, 3]), "mode must be below 3, not 3"),
        (bytes([9, 1, 2, 3]), "unknown message type 9"),
        (bytes([5, 1, 2, 3]), "Ack of 3 bytes, expected 8"),
        (bytes([1, 1]) + bytes(4) + bytes([4]) + b"caf\xc3\xa9", "not printable ASCII"),
        (bytes([1, 1]) + bytes(4) + bytes([4]) + b"x" * 33, "Hello of 39 bytes"),
        (b"", "too short"),
    ],
)
def test_a_well_checksummed_but_bad_message_is_refused_with_a_reason(payload, reason):
    with pytest.raises(ProtocolError, match=reason):
        decode_frame(_framed(payload))


def test_a_bad_crc_is_refused():
    frame = bytearray(Ack(1, 2).frame()[1:-1])
    raw = bytearray(cobs_decode(bytes(frame)))
    raw[-1] ^= 0x80
    with pytest.raises(ProtocolError, match="CRC mismatch"):
        decode_frame(cobs_encode(bytes(raw)))


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda: Button(1, 1, 5, 0, 0), "seat must be 1-4"),
        (lambda: Led(1, 1, 7), "mode must be below 3"),
        (lambda: Ack(-1, 0), "Ack boot out of range"),
        (lambda: Heartbeat(0, 0, 70000, 0), "bad_frames out of range"),
        (lambda: Hello(1, 0, 4, "x" * 40), "printable ASCII of at most 32"),
        (lambda: Hello(1, 0, 4, "café"), "printable ASCII"),
        (lambda: Ack(1), "Ack takes 2 values, not 1"),
    ],
)
def test_nothing_out_of_range_is_ever_written(make, reason):
    with pytest.raises(ProtocolError, match=reason):
        make().frame()


@given(
    st.lists(messages, max_size=8),
    st.lists(st.binary(max_size=40), min_size=9, max_size=9),
    st.lists(st.integers(1, 20), max_size=10),
)
def test_deframer_recovers_every_frame_from_noise_and_any_split(sent, noise, cuts):
    """Noise between frames (no matter what it holds) costs no frame: each frame starts with a zero."""
    stream = noise[0] + b"".join(
        message.frame() + junk for message, junk in zip(sent, noise[1:], strict=False)
    )
    reader = Deframer()
    received, at = [], 0
    for cut in cuts + [len(stream)]:
        received += reader.feed(stream[at : at + cut])
        at += cut
    received += reader.feed(stream[at:] + b"\x00")
    assert received == sent
    assert reader.good == len(sent)


def test_deframer_counts_an_overlong_frame_once_and_resumes():
    reader = Deframer()
    assert reader.feed(b"\x01" * (protocol.MAX_FRAME * 3) + Ack(3, 4).frame()) == [Ack(3, 4)]
    assert reader.bad == 1
    assert reader.feed(b"\x00\x00\x00") == [] and reader.bad == 1  # empty frames are not errors


def test_message_equality_and_repr():
    assert Led(1, 2, protocol.BLINK) == Led(1, 2, 2) != Led(1, 2, 1)
    assert Ack(1, 2) != Heartbeat(1, 2, 0, 0)
    assert repr(Led(1, 2, 2)) == "Led(seq=1, seat=2, mode=2)"
