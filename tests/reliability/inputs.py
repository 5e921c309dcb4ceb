"""Bad input for every entry point, and the check that each is handled cleanly.

Shared by ``tests/reliability/test_bad_input.py`` (a few hundred inputs under hypothesis, for CI) and
``benchmarks/fuzz_inputs.py`` (many more, for the figures in docs/RELIABILITY.md).

A *target* is one entry point: ``generate(rng)`` makes an input (structural mutations of a good one, or
noise), ``check(input)`` feeds it in and returns ``"accepted"`` or ``"refused"``, raising ``Failure`` when
the input was handled badly:

- a crash: any exception but the module's own error type (or that type with an empty message);
- a hang: no answer within ``LIMIT_S`` seconds; memory: the process's peak grew by ``MEMORY_MB`` on it;
- damaged state: a good input after the bad one is no longer answered as before;
- an accepted input that breaks the module's own promises (a result that is not JSON, a calibration that
  does not read back).

>>> rng = random.Random(1)
>>> all(TARGETS[name].check(TARGETS[name].generate(rng)) in ("accepted", "refused") for name in ("cards", "frames"))
True
"""

from __future__ import annotations

import argparse
import atexit
import copy
import io
import json
import math
import random
import re
import resource
import shutil
import signal
import string
import struct
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device import config, games, recognize_command, score_command
from device.camera import CameraError, FolderCamera
from device.panel import PanelEvent, SeatPanel
from firmware import protocol
from scoring import pinzique_guide
from scoring.cards import DECK, Card, CardError, Rank, Suit, parse_cards
from scoring.pinzique_roll import score_roll
from tools.text import put_text
from vision.text import SANS_BOLD
from vision.zones import Calibration, ZoneError

LIMIT_S = 10.0
"""An input not answered within this many seconds counts as a hang (generous: CI machines are loaded)."""


MEMORY_MB = 300
"""An input that makes the process's peak memory grow by more than this counts as a failure (a small file
that takes gigabytes would stop the device)."""


class Failure(AssertionError):
    """An input handled badly; the message says how (``kind: detail``), ``kind`` grouping like failures."""

    def __init__(self, kind: str, detail: str = "") -> None:
        self.kind = kind
        super().__init__(f"{kind}: {detail}" if detail else kind)


class Hang(Exception):
    """Raised in the main thread when an input takes longer than its limit."""


@contextmanager
def time_limit(seconds: float = LIMIT_S) -> Iterator[None]:
    """Raise ``Hang`` if the body runs longer than ``seconds`` (main thread, pure Python code)."""

    def expire(signum: int, frame: object) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def clear(message: object, *names: str) -> None:
    """Check a refusal's message: non-empty text on one line, not an internal error, naming ``names``."""
    if not isinstance(message, str) or not message.strip():
        raise Failure("empty message", repr(message))
    if "internal error" in message or "Traceback" in message:
        raise Failure("internal error", message[:300])
    for name in names:
        if name not in message:
            raise Failure("message does not name what was wrong", f"{name!r} not in {message[:300]!r}")


@contextmanager
def refusal(errors: type[Exception] | tuple[type[Exception], ...]) -> Iterator[list[str]]:
    """Run an input: the module's own ``errors`` (with a clear message) are a refusal, anything else a
    crash. The list yielded gets ``"refused"`` when the body was refused."""
    outcome: list[str] = []
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    try:
        with time_limit():
            yield outcome
    except Failure:
        raise
    except Hang:
        raise Failure("hang", f"no answer within {LIMIT_S} s") from None
    except errors as error:
        clear(str(error))
        outcome.append("refused")
    except Exception as error:
        kind = type(error)
        name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
        raise Failure(f"crash {name}", str(error)[:300]) from error
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) >> 10
    if grown > MEMORY_MB:
        raise Failure("memory", f"the process grew {grown} MB on one input")


# Values of every kind, weighted to the awkward ones.

UNICODE = ["é", "ß", "ſ", "İ", "Ｋ", "♥", "♤", "🂡", "\u200f", "\u0000", "\x7f", "\ufeff", "𝟓", "①", "١٠", "Ⅹ"]
NUMBERS: list[object] = [0, -1, 1, 2, 3, 13, 52, 255, 2**31, 2**63, -(2**63), 10**30, 0.5, -0.0, 1e308,
                         math.nan, math.inf, -math.inf, 3.0, True, False]
WORDS = ["A", "B", "H", "S", "D", "C", "T", "Q", "K", "N", "pass", "high", "low", "1-6", "2-4", "", " ", "null"]


def card_code(rng: random.Random) -> str:
    """A card code: canonical, spelled another way, or a near miss."""
    card = rng.choice(DECK)
    code = rng.choice([card.code, card.code.lower(), card.symbol, card.rank.label + card.suit.letter.lower()])
    roll = rng.random()
    if roll < 0.6:
        return code
    if roll < 0.75:
        at = rng.randrange(len(code) + 1)
        return code[:at] + rng.choice(string.printable + "".join(UNICODE)) + code[at:]
    if roll < 0.9:
        at = rng.randrange(len(code))
        return code[:at] + rng.choice(string.ascii_letters + string.digits + "".join(UNICODE)) + code[at + 1 :]
    return code[: rng.randrange(len(code))]


def text(rng: random.Random) -> str:
    """A string: a card code, a word, unicode, or something long."""
    roll = rng.random()
    if roll < 0.4:
        return card_code(rng)
    if roll < 0.6:
        return rng.choice(WORDS)
    if roll < 0.9:
        return "".join(rng.choice(UNICODE + list(string.printable)) for _ in range(rng.randrange(1, 12)))
    return rng.choice(["5H", "x", "♥"]) * rng.choice([100, 10_000])


def value(rng: random.Random, depth: int = 0, toml: bool = False) -> object:
    """Any JSON (or TOML: no null) value, nested at most a few deep."""
    roll = rng.random()
    if roll < 0.3:
        return text(rng)
    if roll < 0.55:
        return rng.choice(NUMBERS)
    if roll < 0.6 and not toml:
        return None
    if roll < 0.8 and depth < 3:
        return [value(rng, depth + 1, toml) for _ in range(rng.choice([0, 1, 2, 5, 13]))]
    if roll < 0.9 and depth < 3:
        return {text(rng): value(rng, depth + 1, toml) for _ in range(rng.randrange(3))}
    if roll < 0.95:
        return [card_code(rng) for _ in range(rng.choice([0, 3, 4, 5, 8, 10, 11, 13, 14, 52, 53]))]
    return rng.choice([[[[[[1]]]]], {"a": {"b": {"c": {}}}}, [None] * 3, ""])


def mutate(data: object, rng: random.Random, names: list[str], toml: bool = False) -> object:
    """A copy of JSON-shaped ``data`` with one to three structural changes: a field dropped or added
    (from ``names``: fields the module knows, so the change reaches past the first check), a value of the
    wrong type, a huge number, unicode, more nesting, a card duplicated, a list too long or too short."""
    data = copy.deepcopy(data)
    for _ in range(rng.choice([1, 1, 2, 3])):
        data = _mutate_once(data, rng, names, toml)
    return data


def nodes(data: object, path: tuple[object, ...] = ()) -> Iterator[tuple[tuple[object, ...], object]]:
    """Every node of JSON-shaped ``data`` with its path of keys and indexes, the whole first."""
    yield path, data
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, item in items:
        yield from nodes(item, (*path, key))


def card_codes(data: object) -> list[tuple[tuple[object, ...], str]]:
    """The strings in ``data`` short enough to be card codes, with their paths."""
    return [(path, node) for path, node in nodes(data) if path and isinstance(node, str) and len(node) <= 3]


def _mutate_once(data: object, rng: random.Random, names: list[str], toml: bool) -> object:
    codes = card_codes(data)
    if len(codes) >= 2 and rng.random() < 0.25:  # two cards change places: often still a good request
        (first, _), (second, _) = rng.sample(codes, 2)
        a, b = parent_of(data, first), parent_of(data, second)
        a[first[-1]], b[second[-1]] = b[second[-1]], a[first[-1]]
        return data
    path, node = rng.choice(list(nodes(data)))
    roll = rng.random()
    if isinstance(node, dict) and roll < 0.5:
        if node and rng.random() < 0.5:
            del node[rng.choice(list(node))]
        else:
            node[rng.choice(names) if rng.random() < 0.8 else text(rng)] = value(rng, toml=toml)
        return data
    if isinstance(node, list) and roll < 0.5:
        choice = rng.randrange(5)
        if choice == 0 and node:
            del node[rng.randrange(len(node))]
        elif choice == 1 and node:
            node.insert(rng.randrange(len(node) + 1), copy.deepcopy(rng.choice(node)))  # a duplicate
        elif choice == 2:
            node.append(card_code(rng) if rng.random() < 0.7 else value(rng, toml=toml))
        elif choice == 3:
            node[:] = node * rng.choice([0, 2, 20])
        else:
            rng.shuffle(node)
        return data
    if isinstance(node, str) and codes and roll < 0.7:  # a card used twice, or a near miss
        new: object = rng.choice(codes)[1] if rng.random() < 0.5 else card_code(rng)
    elif roll < 0.8:
        new = value(rng, toml=toml)
    elif roll < 0.9:
        new = [node] if rng.random() < 0.5 else {rng.choice(names): node}  # nested one deeper
    else:
        new = rng.choice(NUMBERS)
    if not path:
        return new
    parent_of(data, path)[path[-1]] = new
    return data


def parent_of(data: Any, path: tuple[Any, ...]) -> Any:
    """The list or dict holding the node at ``path``."""
    for key in path[:-1]:
        data = data[key]
    return data


def mutate_bytes(raw: bytes, rng: random.Random) -> bytes:
    """``raw`` with a byte-level fault: cut short, bytes flipped or inserted, a line dropped or doubled,
    invalid UTF-8, a byte-order mark."""
    choice = rng.randrange(7)
    if choice == 0:
        return raw[: rng.randrange(len(raw) + 1)]
    if choice == 1 and raw:
        data = bytearray(raw)
        for _ in range(rng.choice([1, 1, 2, 8])):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        return bytes(data)
    if choice == 2:
        at = rng.randrange(len(raw) + 1)
        return raw[:at] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 5))) + raw[at:]
    if choice == 3:
        lines = raw.split(b"\n")
        at = rng.randrange(len(lines))
        lines[at : at + 1] = [] if rng.random() < 0.5 else [lines[at]] * 2
        return b"\n".join(lines)
    if choice == 4:
        return raw + rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\x00"])
    if choice == 5:
        return b"\xef\xbb\xbf" + raw
    return raw


# TOML text for the file targets (tomllib reads but does not write).

_BARE = re.compile(r"[A-Za-z0-9_-]+")


def toml_key(key: str) -> str:
    return key if _BARE.fullmatch(key) else toml_string(key)


def toml_string(text: str) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        elif 0xD800 <= ord(char) < 0xE000:
            out.append("\\uFFFD")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_value(item: object) -> str:
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, float):
        return "nan" if math.isnan(item) else ("inf" if item > 0 else "-inf") if math.isinf(item) else repr(item)
    if isinstance(item, str):
        return toml_string(item)
    if isinstance(item, list):
        return "[" + ", ".join(toml_value(v) for v in item) + "]"
    if isinstance(item, dict):
        return "{" + ", ".join(f"{toml_key(str(k))} = {toml_value(v)}" for k, v in item.items()) + "}"
    return '""'  # TOML has no null


def to_toml(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> str:
    """TOML text for ``data``: plain entries first, then one [section] per nested table."""
    lines = [f"[{'.'.join(map(toml_key, prefix))}]"] if prefix else []
    tables = {}
    for key, item in data.items():
        if isinstance(item, dict) and item and all(isinstance(k, str) for k in item):
            tables[key] = item
        else:
            lines.append(f"{toml_key(str(key))} = {toml_value(item)}")
    text = "\n".join(lines) + "\n"
    return text + "".join(to_toml(item, (*prefix, key)) for key, item in tables.items())


def _text_file(rng: random.Random, good: dict[str, Any], names: list[str]) -> bytes:
    """A file made from ``good`` (parsed TOML): changed in structure, in bytes, or both."""
    data = mutate(good, rng, names, toml=True) if rng.random() < 0.85 else good
    if not isinstance(data, dict):  # a file is a table: the whole was replaced, so it goes under a name
        data = {rng.choice(names): data}
    raw = to_toml(data).encode("utf-8", "replace")
    return mutate_bytes(raw, rng) if rng.random() < 0.3 else raw


_SCRATCH = Path(tempfile.mkdtemp(prefix="tablescore-fuzz-"))
"""Where the file targets write their inputs (one file each, rewritten for every input); removed at exit."""
atexit.register(shutil.rmtree, _SCRATCH, ignore_errors=True)


def scratch_file(raw: bytes, name: str = "input.toml") -> Path:
    """``raw`` written to a scratch file (one per name, rewritten each time)."""
    path = _SCRATCH / name
    path.write_bytes(raw)
    return path


# The targets.


@dataclass(frozen=True)
class Target:
    """One entry point: how to make inputs for it and how to check it handled one well."""

    name: str
    generate: Callable[[random.Random], Any]
    check: Callable[[Any], str]
    about: str


def describe(given: object, limit: int = 160) -> str:
    """An input, short enough for a report: arrays by shape and type, the rest by repr, cut."""
    if isinstance(given, np.ndarray):
        return f"array of shape {given.shape}, {given.dtype}"
    shown = repr(given)
    return shown if len(shown) <= limit else shown[:limit] + f"... ({len(shown)} characters)"


def _cards_input(rng: random.Random) -> object:
    roll = rng.random()
    if roll < 0.75:
        return rng.choice(["", " ", "\t"]) + card_code(rng) + rng.choice(["", "", " ", "\n"])
    if roll < 0.9:
        return ", ".join(card_code(rng) for _ in range(rng.randrange(6)))
    return value(rng)


# The spellings the rule in scoring/cards.py names, written out again here as the oracle.
_RANK_SPELLINGS = {rank.letter: rank for rank in Rank} | {"10": Rank.TEN}
_SUIT_SPELLINGS = {suit.letter: suit for suit in Suit} | {suit.symbol: suit for suit in Suit} | {
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}


def expected_card(code: str) -> Card | None:
    """The card a code names by the rule in scoring/cards.py (rank then suit, either case), else None."""
    code = code.strip()
    for cut in (1, 2):
        rank, suit = _RANK_SPELLINGS.get(code[:cut].upper()), _SUIT_SPELLINGS.get(code[cut:].upper())
        if rank is not None and suit is not None:
            return Card(rank, suit)
    return None


def check_cards(code: object) -> str:
    """``Card.parse`` of one code, or ``parse_cards`` of a list: the card the rule names, or CardError
    naming the code."""
    if isinstance(code, str) and ("," in code or not code.strip()):
        with refusal(CardError) as outcome:
            cards = parse_cards(code)
        tokens = code.replace(",", " ").split()
        if outcome:
            if not any(expected_card(token) is None for token in tokens):
                raise Failure("good codes refused", repr(code))
            return "refused"
        if cards != [expected_card(token) for token in tokens]:
            raise Failure("wrong cards", f"{code!r} read as {cards}")
        return "accepted"
    with refusal(CardError) as outcome:
        try:
            card = Card.parse(code)
        except CardError as error:
            name = repr(code.strip()) if isinstance(code, str) else repr(code)
            clear(str(error), name[:200])
            raise
    want = expected_card(code) if isinstance(code, str) else None
    if outcome:
        if want is not None:
            raise Failure("good code refused", repr(code))
        return "refused"
    if card != want:
        raise Failure("wrong card", f"{code!r} read as {card}")
    return "accepted"


FIELDS = sorted({
    "hand", "starter", "crib", "pegging", "knocker", "defender", "hands", "winner", "points", "aces",
    "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", "upcard", "spade_double", "accept_illegal",
    "limit", "game_bonus", "box_bonus", "shutout_multiplier", "shutout_doubles", "contract", "declarer",
    "tricks", "trump", "must_trump", "order", "start", "plays", "doubles", "redoubles", "redoubles_by", "leader",
    "cards", "players", "front", "middle", "back", "in_fantasyland", "scoring", "progressive", "pineapple", "dice",
    "round", "bonus_round",
})
"""Every field some game's request knows: added fields reach past "unknown field" to the value checks."""

HUGE_INT = "9" * 5000  # more digits than Python will turn into an int


def batch_line(game: str, rng: random.Random) -> bytes:
    """One line of a ``--batch`` stream for ``game``: a sample changed in structure, or a broken line."""
    sample = rng.choice(games.game(game).SAMPLES)
    line = json.dumps(mutate(sample, rng, FIELDS), ensure_ascii=rng.random() < 0.5).encode("utf-8")
    roll = rng.random()
    if roll < 0.1:
        line = mutate_bytes(line, rng)
    elif roll < 0.13:
        line = line.replace(b"[", b"[" + HUGE_INT.encode() + b", ", 1)
    elif roll < 0.16:
        line = b"[" * rng.choice([50, 1000, 100_000]) + line
    return line.replace(b"\n", b" ")


def _strict_json(raw: bytes) -> Any:
    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(raw, parse_constant=refuse)


def check_batch(game: str, line: bytes) -> str:
    """A bad line between two good ones: one answer a line, the good lines answered as alone, the bad
    line's answer strict JSON: a result that renders, or ``{"error": message}``."""
    module = games.game(game)
    good = json.dumps(module.SAMPLES[0]).encode()
    want = json.dumps(module.score_request(module.SAMPLES[0]), ensure_ascii=False)
    out = io.BytesIO()
    with refusal(()):
        score_command.score_batch(module, io.BytesIO(b"\n".join([good, line, good]) + b"\n"), out)
    answers = out.getvalue().decode("utf-8").splitlines()
    if len(answers) != 3:
        raise Failure("wrong number of answers", f"{len(answers)} for 3 lines")
    if answers[0] != want or answers[2] != want:
        raise Failure("state damaged", "a good line after the bad one was answered differently")
    try:
        answer = _strict_json(answers[1].encode())
    except ValueError as error:
        raise Failure("answer is not JSON", str(error)) from None
    if list(answer) == ["error"]:
        clear(answer["error"])
        return "refused"
    with refusal(()):
        rendered = module.render(answer)
    if not isinstance(rendered, str) or not rendered.strip():
        raise Failure("empty rendering", repr(rendered))
    return "accepted"


_CONFIG_GOOD = tomllib.loads("""
zones = "/etc/tablescore/zones.toml"
[table]
game = "gin"
players = ["Ann", "Bob", "Cy"]
[games.gin]
limit = 250
[buttons]
ok = 5
back = 6
next = 13
hold_time = 2.0
[display]
kind = "sh1106"
port = 1
address = 60
rotate = 2
folder = "frames"
[camera]
source = "usb:0"
width = 640
height = 480
fps = 15.0
[panel]
port = "auto"
[journal]
path = "journal.db"
""")
_CONFIG_NAMES = ["table", "games", "buttons", "display", "camera", "panel", "journal", "zones", "game", "players",
                 "ok", "back", "next", "hold_time", "kind", "port", "address", "rotate", "folder", "source",
                 "width", "height", "fps", "path", "gin", "barbu", "cribbage", "ofc", "pinzique"]


def load_file(raw: bytes, name: str, load: Callable[[Path], Any], error: type[Exception]) -> Any:
    """What ``load`` makes of ``raw`` written to a scratch file ``name``; None when it refuses the file with
    ``error`` naming the file."""
    path = scratch_file(raw, name)
    with refusal(error):
        try:
            return load(path)
        except error as refused:
            clear(str(refused), str(path))
            raise
    return None


def check_config(raw: bytes) -> str:
    """``device.config.load``: a Config whose numbers make sense, or ConfigError naming the file."""
    loaded = load_file(raw, "tablescore.toml", config.load, config.ConfigError)
    if loaded is None:
        return "refused"
    camera, buttons = loaded.camera, loaded.buttons
    for name, number in (("camera.fps", camera.fps), ("buttons.hold_time", buttons.hold_time),
                         ("camera.width", camera.width), ("camera.height", camera.height)):
        if not (math.isfinite(number) and number > 0):
            raise Failure("nonsense accepted", f"{name} = {number!r}")
    if not 0 <= loaded.display.address <= 0x7F or loaded.display.port < 0:
        raise Failure("nonsense accepted", f"display port {loaded.display.port}, address {loaded.display.address}")
    return "accepted"


_GUIDE_GOOD = tomllib.loads((Path(pinzique_guide.__file__).parent / "data" / "pinzique.toml").read_text("utf-8"))
_GUIDE_NAMES = sorted({key for path, _ in nodes(_GUIDE_GOOD) for key in path if isinstance(key, str)})


def check_guide(raw: bytes) -> str:
    """``load_guide(path)``: a ScoreGuide, or GuideError naming the file."""
    guide = load_file(raw, "guide.toml", pinzique_guide.load_guide, pinzique_guide.GuideError)
    if guide is None:
        return "refused"
    if len(guide.dice) != 8 or any(len(die) != 6 for die in guide.dice):
        raise Failure("nonsense accepted", f"dice {guide.dice}")
    with refusal(()):  # a guide that loads scores any roll of its dice
        score_roll([die[number % 6] for number, die in enumerate(guide.dice)], guide)
    return "accepted"


def frame_stream(rng: random.Random) -> tuple[list[bytes], list[protocol.Message]]:
    """Pieces of a serial line: good frames, damaged frames and noise; and the good frames' messages."""
    pieces, intact = [], []
    for _ in range(rng.randrange(1, 8)):
        message = random_message(rng)
        roll = rng.random()
        if roll < 0.35:
            pieces.append(message.frame())
            intact.append(message)
        elif roll < 0.75:
            frame = message.frame()
            damaged = frame[:1] + mutate_bytes(frame[1:-1], rng) + frame[-1:]
            pieces.append(damaged)
            if frame[1:-1] in damaged.split(b"\x00"):  # the mutation left the frame whole (a zero around it)
                intact.append(message)
        elif roll < 0.9:
            pieces.append(bytes(rng.randrange(256) for _ in range(rng.choice([1, 5, 40, 300]))))
        else:  # a good CRC round a payload that is no message
            pieces.append(protocol.encode_frame(bad_payload(rng)))
    return pieces, intact


def bad_payload(rng: random.Random) -> bytes:
    """A payload no message has: an unknown type, a wrong length, or a seat out of range."""
    roll = rng.randrange(3)
    if roll == 0:
        return bytes([rng.choice([0, 6, 7, 128, 255])]) + rng.randbytes(rng.randrange(20))
    if roll == 1:
        kind = rng.choice(list(protocol.TYPES.values()))
        size = struct.calcsize(kind.FORMAT)
        longer = size + (protocol.MAX_TEXT if kind.TEXT else 0) + rng.choice([1, 2])
        return bytes([kind.TYPE]) + rng.randbytes(rng.choice([max(0, size - rng.choice([1, 3])), longer]))
    seat = rng.choice([0, protocol.SEATS + 1, 255])
    return rng.choice([protocol.Button.TYPE.to_bytes(1, "little") + struct.pack("<IIBBB", 7, 1, seat, 0, 0),
                       protocol.Led.TYPE.to_bytes(1, "little") + struct.pack("<IBB", 1, seat, 0)])


def random_message(rng: random.Random, boots: tuple[int, ...] = (1, 7, 0xFFFFFFFF)) -> protocol.Message:
    """A well-formed message of any type, with fields anywhere in their ranges."""
    boot, seq, seat = rng.choice(boots), rng.choice([1, 2, 3, 0xFFFFFFFF]), rng.randint(1, protocol.SEATS)
    return rng.choice([
        lambda: protocol.Hello(rng.choice([0, 1, 2, 255]), boot, rng.choice([0, 4]),
                               "".join(rng.choice(string.printable[:94]) for _ in range(rng.randrange(33)))),
        lambda: protocol.Heartbeat(boot, rng.randrange(2**32), rng.randrange(2**16), rng.randrange(2**16)),
        lambda: protocol.Button(boot, seq, seat, rng.randrange(2), rng.randrange(2)),
        lambda: protocol.Led(seq, seat, rng.randrange(3)),
        lambda: protocol.Ack(boot, seq),
    ])()


def check_frames(stream: tuple[list[bytes], list[protocol.Message]]) -> str:
    """A Deframer given the pieces in arbitrary chunks yields exactly the intact messages; decode_frame
    of each damaged piece raises ProtocolError with a message or gives back the message it was."""
    pieces, intact = stream
    line = b"".join(pieces)
    reader = protocol.Deframer()
    got = []
    with refusal(()):
        at = 0
        while at < len(line):
            step = 1 + (at * 7919 + len(line)) % 23
            got += reader.feed(line[at : at + step])
            at += step
        for piece in pieces:
            for frame in piece.split(b"\x00"):
                try:
                    protocol.decode_frame(frame)
                except protocol.ProtocolError as error:
                    clear(str(error))
    if got != intact:
        raise Failure("wrong messages", f"{got} from a line holding {intact}")
    return "refused" if reader.bad else "accepted"


class FakePort:
    """A serial port that plays back bytes and swallows what is written."""

    def __init__(self, data: bytes) -> None:
        self.data = bytearray(data)

    @property
    def in_waiting(self) -> int:
        return len(self.data)

    def read(self, size: int) -> bytes:
        if not self.data:
            time.sleep(0.002)
            return b""
        chunk, self.data[:size] = bytes(self.data[:size]), b""
        return chunk

    def write(self, data: bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


FINAL_BOOT = 0x5EA7


def link_input(rng: random.Random) -> tuple[bytes, int]:
    """Noise, damaged frames and well-formed but unwelcome messages, then how many presses follow."""
    pieces, _ = frame_stream(rng)
    for _ in range(rng.randrange(6)):
        pieces.insert(rng.randrange(len(pieces) + 1), random_message(rng).frame())
    return b"".join(pieces), rng.randint(1, 4)


def check_link(given: tuple[bytes, int]) -> str:
    """The device's link keeps running through any line, and a panel starting afresh afterwards has its
    presses delivered, in order, once."""
    noise, presses = given
    final = [protocol.Button(FINAL_BOOT, seq, 1 + seq % 4, seq % 2, 0) for seq in range(1, presses + 1)]
    port = FakePort(noise + protocol.Hello(protocol.PROTOCOL_VERSION, FINAL_BOOT, 4, "fuzz").frame()
                    + b"".join(message.frame() for message in final))
    want = [PanelEvent(m.seat, protocol.BUTTONS[m.button], protocol.KINDS[m.kind], m.seq) for m in final]
    with refusal(()), SeatPanel(finder=lambda: "fake", opener=lambda path: port) as link:
        got: list[PanelEvent] = []
        deadline = time.monotonic() + LIMIT_S / 2
        while got[-presses:] != want and time.monotonic() < deadline:
            event = link.get(timeout=0.05)
            if event is not None:
                got.append(event)
        alive = link._thread is not None and link._thread.is_alive()
        status = link.status()
    if not alive:
        raise Failure("link thread died")
    if got[-presses:] != want:
        raise Failure("state damaged", f"after the noise, presses {want} arrived as {got[-presses:]}")
    return "refused" if status.bad_frames else "accepted"


_ZONES_GOOD = tomllib.loads(Calibration.default(4, size=(1280, 720)).to_toml())
_ZONES_NAMES = ["corners", "size", "snap", "seats", "zones", "seat1", "seat2", "seat3", "seat4", "seat1.front",
                "seat2.back", "centre", "crib", "starter", "tray", "seat5"]


def zones_input(rng: random.Random) -> bytes:
    good = _ZONES_GOOD if rng.random() < 0.8 else {"corners": _ZONES_GOOD["corners"], "seats": 3}
    return _text_file(rng, good, _ZONES_NAMES)


POINTS = [(640.0, 360.0), (0.0, 0.0), (-1e9, 5.0), (1e300, -1e300), (math.nan, 1.0), (math.inf, 0.0), (5.0, -math.inf)]


def check_zones(raw: bytes) -> str:
    """``Calibration.load``: a calibration that maps any point and reads back from its own TOML, or
    ZoneError naming the file."""
    table = load_file(raw, "zones.toml", Calibration.load, ZoneError)
    if table is None:
        return "refused"
    with refusal(()):
        zones = table.zones_at(POINTS)
        again = Calibration.from_toml(table.to_toml())
    if len(zones) != len(POINTS) or not all(zone is None or isinstance(zone, str) for zone in zones):
        raise Failure("bad zones", repr(zones))
    if again != table:
        raise Failure("does not read back", table.to_toml()[:300])
    return "accepted"


def _base_image() -> np.ndarray:
    """A small table scene: green baize, a white card with a rank and a suit mark in its corner."""
    image = np.full((120, 160, 3), (40, 110, 30), np.uint8)
    cv2.rectangle(image, (50, 20), (110, 105), (245, 245, 245), -1)
    put_text(image, "Q", (54, 40), 18, (20, 20, 200), SANS_BOLD)
    cv2.circle(image, (60, 50), 4, (20, 20, 200), -1)
    return image


BASE = _base_image()
ENCODED = {suffix: cv2.imencode(suffix, BASE)[1].tobytes() for suffix in (".png", ".jpg", ".bmp")}


def damaged_image(rng: random.Random) -> tuple[str, bytes]:
    """An image file (suffix, bytes) cut short, with bytes changed, empty, or its header alone."""
    suffix = rng.choice(list(ENCODED))
    raw = ENCODED[suffix]
    roll = rng.random()
    if roll < 0.4:
        raw = raw[: rng.randrange(len(raw))]
    elif roll < 0.8:
        raw = mutate_bytes(raw, rng)
    elif roll < 0.9:
        raw = b""
    else:
        raw = raw[:64]
    return suffix, raw


def check_image_file(given: tuple[str, bytes]) -> str:
    """``tablescore recognize`` refuses a damaged file with RecognizeError or reads a BGR frame from it; a
    recorded camera folder reports it as CameraError and reads the frame after it."""
    suffix, raw = given
    folder = _SCRATCH / "recording"
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    path = folder / f"0001{suffix}"
    path.write_bytes(raw)
    (folder / "0002.png").write_bytes(ENCODED[".png"])
    with refusal(recognize_command.RecognizeError) as outcome:
        frame = recognize_command.load_image(str(path))
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3 or not frame.size:
            raise Failure("not a BGR frame", f"{frame.dtype} {frame.shape}")
    camera = FolderCamera(folder)
    with refusal(CameraError):
        camera.read()
    with refusal(()):
        after = camera.read()
    if not np.array_equal(after, BASE):
        raise Failure("state damaged", "the frame after a bad one was not read")
    return outcome[0] if outcome else "accepted"


SHAPES = [(0, 0), (0, 10), (1, 1), (2, 3), (31, 4000), (40, 5000), (4000, 33), (32, 32), (120, 160), (32, 50_000),
          (40_000, 40)]
"""Frame sizes (height, width): empty, tiny, below the reader's smallest, and of extreme aspect."""


def awkward_frame(rng: random.Random) -> np.ndarray:
    """A frame array of an awkward size, shape or type (NaN in float ones), or a damaged file decoded."""
    if rng.random() < 0.3:
        suffix, raw = damaged_image(rng)
        decoded = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_UNCHANGED) if raw else None
        if decoded is not None:
            return decoded
    height, width = rng.choice(SHAPES)
    kind = rng.choice(["uint8", "uint8", "uint16", "float32", "float64", "bool", "int8"])
    channels = rng.choice([None, 1, 2, 3, 4, 5])
    shape = (height, width) if channels is None else (height, width, channels)
    array = np.random.default_rng(rng.randrange(2**32)).integers(0, 256, shape).astype(kind)
    if kind.startswith("float") and array.size:
        array.flat[:: max(1, array.size // 7)] = np.nan
    if rng.random() < 0.15:
        array = rng.choice([np.zeros(()), np.zeros((2, 2, 2, 2), np.uint8), array[:, ::2], array.T])
    return array


def check_card_frame(frame: np.ndarray) -> str:
    """The card reader reads a frame (a list of sightings) or refuses it (TypeError or ValueError saying
    what is wrong with it)."""
    with refusal((TypeError, ValueError)) as outcome:
        cards = recognize_command.reader()(frame)
    if outcome:
        return "refused"
    if not isinstance(cards, list):
        raise Failure("not a list of sightings", repr(cards)[:200])
    return "accepted"


def command_line(rng: random.Random) -> tuple[str, list[str]]:
    """A game and the readable form's arguments: cards, options, words and numbers in any order."""
    tokens = [lambda: card_code(rng), lambda: "--" + rng.choice(FIELDS).replace("_", rng.choice("_-")),
              lambda: rng.choice(["--json", "--", "--samples", "-x", "--crib"]), lambda: text(rng),
              lambda: str(rng.choice(NUMBERS))]
    game = rng.choice(games.names())
    sample = rng.choice(games.game(game).SAMPLES)
    words = [code for _, code in card_codes(sample) if len(code) == 2][:13] if rng.random() < 0.5 else []
    for _ in range(rng.randrange(8)):
        words.insert(rng.randrange(len(words) + 1), rng.choice(tokens)())
    return game, words


def check_command_line(given: tuple[str, list[str]]) -> str:
    """``tablescore score GAME ARGS...``: a result (status 0) or one message on standard error (status 2)."""
    game, words = given
    out, err = io.StringIO(), io.StringIO()
    with refusal(()), redirect_stdout(out), redirect_stderr(err):
        status = score_command.run(argparse.Namespace(samples=False, game=game, args=words))
    if status == 0 and out.getvalue().strip() and not err.getvalue():
        return "accepted"
    message = err.getvalue()
    if status != 2 or not message.startswith("tablescore score: ") or message.count("\n") != 1:
        raise Failure("not one message", f"status {status}, {message[:300]!r}")
    clear(message.removeprefix("tablescore score: "))
    return "refused"


def _game_target(name: str) -> Target:
    return Target(f"batch {name}", lambda rng: batch_line(name, rng), lambda line: check_batch(name, line),
                  f"`tablescore score {name} --batch`: a sample request changed in structure, or a broken line")


TARGETS: dict[str, Target] = {
    target.name: target
    for target in [
        Target("cards", _cards_input, check_cards, "card codes: `Card.parse`, `parse_cards`"),
        *(_game_target(name) for name in games.names()),
        Target("config", lambda rng: _text_file(rng, _CONFIG_GOOD, _CONFIG_NAMES), check_config,
               "the configuration file: `device.config.load`"),
        Target("guide", lambda rng: _text_file(rng, _GUIDE_GOOD, _GUIDE_NAMES), check_guide,
               "the Pinzique score guide file: `load_guide(path)`"),
        Target("frames", frame_stream, check_frames, "serial frames: `Deframer.feed`, `decode_frame`"),
        Target("link", link_input, check_link, "the device's seat panel link (`SeatPanel`) on a noisy line"),
        Target("zones", zones_input, check_zones, "the zones file: `Calibration.load`"),
        Target("command line", command_line, check_command_line,
               "`tablescore score GAME CARD... --OPTION...`, the readable form, for every game"),
        Target("image files", damaged_image, check_image_file,
               "damaged image files: `tablescore recognize`'s loader, a recorded camera folder"),
        Target("card frames", awkward_frame, check_card_frame,
               "awkward frames for the card reader `read_cards`"),
    ]
}
"""Every target, by name."""

