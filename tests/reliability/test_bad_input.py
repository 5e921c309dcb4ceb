"""Bad input: nothing crashes or hangs, every refusal has a clear message, state survives.

Every target in tests/reliability/inputs.py (card codes, batch requests for each game, the readable command
line, the configuration file, the score guide, serial frames and the panel link, the zones file, image
files, frames for the card reader) gets a few hundred hypothesis-made inputs here; ``benchmarks/fuzz_inputs.py`` runs many more and
prints the figures kept in docs/RELIABILITY.md. Then targeted checks that a message names what was
wrong, and regression tests for the bugs the fuzzing found.
"""

import copy
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device import config, games, score_command
from tests.reliability.inputs import HUGE_INT, TARGETS, card_codes, check_card_frame, clear, nodes, parent_of

EXAMPLES = {"cards": 1000, "frames": 500, "link": 60, "card frames": 100}
"""Inputs per target in CI (default 200): about 20 s in all; the benchmark runs many more."""


@pytest.mark.parametrize("name", TARGETS)
def test_no_input_crashes_hangs_or_goes_unexplained(name: str) -> None:
    target = TARGETS[name]

    @settings(max_examples=EXAMPLES.get(name, 200), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.randoms(use_true_random=False))
    def check(rng):
        assert target.check(target.generate(rng)) in ("accepted", "refused")

    check()


def batch(game: str, lines: list[bytes]) -> list[dict[str, object]]:
    out = io.BytesIO()
    score_command.score_batch(games.game(game), io.BytesIO(b"\n".join(lines) + b"\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


WRONG = [{"x": 1}, 10**30, -1, 1.5, True, None, "ß♥", "", [[["AS"]]]]


def requests_with_a_wrong_value(game: str):
    """Each sample with one value (anywhere in it) replaced by a wrong one: (top-level field, request)."""
    for sample in games.game(game).SAMPLES:
        for path, _ in nodes(sample):
            for wrong in WRONG if path else ():
                request = copy.deepcopy(sample)
                parent_of(request, path)[path[-1]] = wrong
                yield path[0], request


@pytest.mark.parametrize("game", games.names())
def test_a_wrong_value_anywhere_is_refused_naming_its_field(game: str) -> None:
    module = games.game(game)
    cases = list(requests_with_a_wrong_value(game))
    answers = batch(game, [json.dumps(request).encode() for _, request in cases])
    assert len(answers) == len(cases)
    refused = 0
    for (field, request), answer in zip(cases, answers, strict=True):
        if "error" in answer:
            refused += 1
            clear(answer["error"], field)
        else:
            assert answer == module.score_request(request)
    assert refused > len(cases) // 2


@pytest.mark.parametrize("game", games.names())
def test_an_unknown_field_is_named(game: str) -> None:
    for sample in games.game(game).SAMPLES:
        [answer] = batch(game, [json.dumps({**sample, "colour ♥": 1}).encode()])
        clear(answer["error"], "unknown field 'colour ♥'")


@pytest.mark.parametrize("game", ["barbu", "cribbage", "gin", "ofc"])  # Pinzique's dice show each card twice
def test_a_card_given_twice_is_refused_naming_the_card(game: str) -> None:
    for sample in games.game(game).SAMPLES:
        codes = [(path, code) for path, code in card_codes(sample) if len(code) == 2 and code[1] in "SHDC"]
        if len(codes) < 2:
            continue
        request = copy.deepcopy(sample)
        (path, _), (_, first) = codes[-1], codes[0]
        parent_of(request, path)[path[-1]] = first
        [answer] = batch(game, [json.dumps(request).encode()])
        clear(answer["error"], first)


# Regression tests for what the fuzzing found.


@pytest.mark.parametrize("game", games.names())
def test_a_number_too_long_for_python_is_one_bad_line(game: str) -> None:
    """json.loads raised ValueError (not JSONDecodeError) for an integer of over 4300 digits, which ended
    the whole batch."""
    good = json.dumps(games.game(game).SAMPLES[0]).encode()
    first, bad, last = batch(game, [good, b'{"hand": [' + HUGE_INT.encode() + b"]}", good])
    assert first == last and "error" not in first
    assert bad == {"error": f"line holds a number of more than {sys.get_int_max_str_digits()} digits"}


@pytest.mark.parametrize(
    ("toml", "named"),
    [
        ("[camera]\nfps = nan", "[camera] fps: nan"),
        ("[camera]\nfps = inf", "[camera] fps: inf"),
        ("[camera]\nfps = 0", "[camera] fps: 0"),
        ("[camera]\nwidth = 0", "[camera] width: 0"),
        ("[camera]\nheight = -720", "[camera] height: -720"),
        ("[buttons]\nhold_time = -1.5", "[buttons] hold_time: -1.5"),
        ("[buttons]\nhold_time = nan", "[buttons] hold_time: nan"),
        ("[display]\naddress = 0x1FF", "[display] address: 511"),
        ("[display]\nport = -1", "[display] port: -1"),
    ],
)
def test_numbers_that_make_no_sense_are_refused(toml: str, named: str) -> None:
    """These were accepted: a camera at NaN frames a second, a hold of -1.5 s, an address no I2C bus has."""
    with pytest.raises(config.ConfigError) as error:
        config.parse(toml)
    clear(str(error.value), named)


def test_a_gin_game_names_the_hand_whose_points_are_wrong() -> None:
    """'points' must be a whole number... did not say which of a game's hands it was."""
    hands = [{"winner": "A", "points": 20}, {"winner": "B", "points": -5}]
    [answer] = batch("gin", [json.dumps({"hands": hands}).encode()])
    assert answer["error"] == "'hands[1]': 'points' must be a whole number from 0 to 10000, not -5"
    [answer] = batch("gin", [json.dumps({"hands": [{"winner": None, "colour": 1}]}).encode()])
    assert answer["error"] == "'hands[0]': unknown field 'colour' (expected: points, winner)"


def test_a_gin_game_refuses_a_list_inside_shutout_doubles() -> None:
    """Found by the benchmark (input 18,165 of 20,000): set() of a list holding a list raised TypeError."""
    request = {"hands": [{"winner": "A", "points": 30}], "shutout_doubles": ["game", ["box"]]}
    [answer] = batch("gin", [json.dumps(request).encode()])
    assert answer["error"] == "'shutout_doubles' is a list of some of points, game, box, not ['game', ['box']]"


BOMBS = """
import pathlib, resource, struct, sys, zlib
resource.setrlimit(resource.RLIMIT_AS, (1536 << 20, 1536 << 20))  # a small machine's memory
import cv2, numpy
from device.camera import CameraError, FolderCamera
from device.recognize_command import RecognizeError, load_image

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

side = 30000  # 2.7 GB of pixels, under OpenCV's own limit of 2**30 pixels
png = (b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
       + chunk(b"IDAT", zlib.compress(bytes(side * 3 + 1))) + chunk(b"IEND", b""))
jpeg = bytearray(cv2.imencode(".jpg", numpy.full((120, 160, 3), 90, numpy.uint8))[1].tobytes())
at = jpeg.index(b"\\xff\\xc0")  # the frame header: length, precision, height, width
jpeg[at + 5 : at + 9] = struct.pack(">HH", side, side)
chunk_png = png[:33] + struct.pack(">I", 1778778112) + b"IDAT" + bytes(80)  # a chunk claiming 1.7 GB
for name, raw in (("bomb.png", png), ("bomb.jpg", jpeg), ("chunk.png", chunk_png)):
    folder = pathlib.Path(sys.argv[1]) / name.replace(".", "-")
    folder.mkdir()
    (folder / name).write_bytes(raw)
    try:
        load_image(str(folder / name))
    except RecognizeError as error:
        print("recognize:", error)
    try:
        FolderCamera(folder).read()
    except CameraError as error:
        print("camera:", error)
"""


def test_an_image_whose_header_claims_gigabytes_is_one_bad_image(tmp_path: Path) -> None:
    """Found by atheris: libjpeg decodes a JPEG cut short to the full size its header claims, so a 1 KB file
    claiming 30000x30000 pixels filled 2.7 GB; OpenCV 5 sets aside the length a PNG chunk claims, so a
    126-byte PNG took 1.8 GB and 2 s. A PNG claiming 30000x30000 pixels made cv2.imread raise cv2.error
    (failing to allocate them), which neither the recognize command's loader nor the recorded camera caught.
    Run under a memory limit in a child process, so that a regression fails rather than fills memory."""
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(BOMBS), str(tmp_path)], capture_output=True,
                         text=True, timeout=120, cwd=Path(__file__).resolve().parents[2])
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["recognize", "camera"] * 3, run.stdout
    assert "cannot be read as an image: Failed to allocate" in lines[0]
    assert "bomb.png cannot be read as an image: Failed to allocate" in lines[1]
    assert lines[2] == "recognize: claims about 30000x30000 pixels, more than an image may have (134,217,728)"
    assert lines[3].endswith("bomb.jpg claims about 30000x30000 pixels, more than an image may have (134,217,728)")
    damaged = "is cut short or damaged: a PNG chunk claims 1,778,778,112 bytes, past the end of the file"
    assert lines[4] == f"recognize: {damaged}" and lines[5].endswith(f"chunk.png {damaged}")


# The card reader (vision/cards.py): each awkward frame read or refused clearly.

AWKWARD = {
    "empty": np.zeros((0, 0, 3), np.uint8),
    "one pixel": np.zeros((1, 1, 3), np.uint8),
    "grey": np.full((120, 160), 200, np.uint8),
    "one channel": np.full((120, 160, 1), 200, np.uint8),
    "two channels": np.zeros((120, 160, 2), np.uint8),
    "four channels": np.zeros((120, 160, 4), np.uint8),
    "16-bit": np.zeros((120, 160, 3), np.uint16),
    "NaN floats": np.full((120, 160, 3), np.nan, np.float32),
    "booleans": np.zeros((120, 160, 3), bool),
    "no dimensions": np.zeros(()),
    "four dimensions": np.zeros((2, 2, 2, 2), np.uint8),
    "strided": np.zeros((120, 320, 3), np.uint8)[:, ::2],
    "long and thin": np.zeros((40, 5000, 3), np.uint8),
    # read_cards shrinks the long side to 1280: the short side must not round to 0 rows (fixed in 07adaf5)
    "a strip 32 high, 60000 wide": np.zeros((32, 60_000, 3), np.uint8),
    "a strip 60000 high, 32 wide": np.zeros((60_000, 32, 3), np.uint8),
}


@pytest.mark.parametrize("frame", [pytest.param(frame, id=name) for name, frame in AWKWARD.items()])
def test_the_card_reader_reads_or_refuses_an_awkward_frame(frame: np.ndarray) -> None:
    assert check_card_frame(frame) in ("accepted", "refused")


def test_the_scratch_folder_is_removed_at_exit() -> None:
    """Each import of the inputs makes a scratch folder for the file targets; none is left behind in /tmp."""
    code = "from tests.reliability import inputs; print(inputs.scratch_file(b'x = 1').parent)"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60,
                         cwd=Path(__file__).resolve().parents[2])
    folder = Path(run.stdout.strip())
    assert folder.name.startswith("tablescore-fuzz-") and not folder.exists()
