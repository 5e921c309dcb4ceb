"""The score command's plumbing, exercised with a tiny stand-in game (tests/device/highcard.py)."""

import io
import json
import subprocess
import sys

import pytest

from device import cli, games, score_command
from scoring.requests import Requests

HIGHCARD = games.GameSpec("highcard", "High card", "High card", "tests.device.highcard", flow="", ledger="")
"""A game the score command scores (it is never played: no flow, no ledger)."""


@pytest.fixture
def highcard(monkeypatch: pytest.MonkeyPatch) -> Requests:
    monkeypatch.setitem(games.GAMES, "highcard", HIGHCARD)
    return games.game("highcard")


def batch(game: Requests, data: bytes) -> list[dict[str, object]]:
    out = io.BytesIO()
    score_command.score_batch(game, io.BytesIO(data), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"{not json", "line is not JSON"),
        (b'{"cards": ["5H", "KS"], "colour": 1}', "unknown field 'colour'"),
        (b'{"cards": ["5H", "XS"]}', "bad card code 'XS'"),
        (b'{"cards": ["5H"]}', "'cards' needs 2 cards, got 1"),
        (b'{"cards": ["5H", "5h"]}', "card 5H is used twice"),
        (b'{}', "missing field 'cards'"),
        (b'[1, 2]', "a request is a JSON object, not a list"),
        (b'{"cards": "5H KS"}', "'cards' is a list of card codes, not a string"),
        (b"\xff\xfe", "not UTF-8"),
        (b"   ", "empty line"),
        (b"[" * 100000, "line is not JSON"),
    ],
)
def test_each_kind_of_bad_line_gets_its_own_error_and_the_batch_goes_on(
    highcard: Requests, line: bytes, message: str
) -> None:
    results = batch(highcard, b'{"cards": ["2C", "3C"]}\n' + line + b'\n{"cards": ["QH", "JH"]}\n')
    assert results[0] == {"high": "3C"}
    assert list(results[1]) == ["error"] and message in str(results[1]["error"])
    assert results[2] == {"high": "QH"}


def test_a_bug_in_a_game_is_reported_on_its_line(highcard: Requests, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(request: object) -> dict[str, object]:
        raise ZeroDivisionError

    monkeypatch.setattr(highcard, "score_request", broken)
    assert batch(highcard, b"{}\n{}\n") == [{"error": "internal error scoring this request (ZeroDivisionError); "
                                             "please report it"}] * 2


def test_last_line_without_newline_is_answered(highcard: Requests) -> None:
    assert batch(highcard, b'{"cards": ["2C", "3C"]}') == [{"high": "3C"}]


def test_batch_streams_one_answer_per_line_before_reading_the_next() -> None:
    """A caller may write a request and wait for its answer: each answer is flushed at once."""
    code = f"import sys; from device import games; from device.games import GameSpec; games.GAMES['highcard'] = {HIGHCARD!r}; " \
           "from device.cli import main; sys.exit(main(['score', 'highcard', '--batch']))"
    proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin and proc.stdout
    for request, high in ((b'{"cards": ["2C", "3C"]}', "3C"), (b"oops", None), (b'{"cards": ["AS", "KD"]}', "KD")):
        proc.stdin.write(request + b"\n")
        proc.stdin.flush()
        answer = json.loads(proc.stdout.readline())
        assert answer.get("high") == high and (high is not None or "error" in answer)
    proc.stdin.close()
    assert proc.wait(timeout=30) == 0


def test_readable_form_and_json(highcard: Requests, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "highcard", "5H", "KS"]) == 0
    assert capsys.readouterr().out == "high card: KS\n"
    assert cli.main(["score", "highcard", "5H", "KS", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"high": "KS"}
    assert cli.main(["score", "highcard", "5H", "5H"]) == 2
    assert "card 5H is used twice" in capsys.readouterr().err


def test_unknown_game_names_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "chess", "--batch"]) == 2
    err = capsys.readouterr().err
    assert "unknown game 'chess'" in err
    assert all(name in err for name in games.names())


def test_help_lists_the_subcommands() -> None:
    out = subprocess.run([sys.executable, "-m", "device.cli", "--help"], capture_output=True, text=True,
                         check=True).stdout
    for command in ("score", "recognize", "demo", "run", "history"):
        assert command in out


def test_version() -> None:
    out = subprocess.run([sys.executable, "-m", "device.cli", "--version"], capture_output=True, text=True,
                         check=True).stdout
    assert out.startswith("tablescore ")


def test_split_args_collects_lists_and_refuses_repeats() -> None:
    assert score_command.split_args(["--front", "QH", "QD", "7C", "--seat", "2"]) == (
        [], {"front": ["QH", "QD", "7C"], "seat": "2"})
    with pytest.raises(games.RequestError, match="given twice"):
        score_command.split_args(["--seat", "1", "--seat", "2"])


def test_samples_of_every_game_score(capsys: pytest.CaptureFixture[str]) -> None:
    """The main job until the demo exists: every registered game's samples score without error."""
    assert cli.main(["score", "--samples"]) == 0
    out = capsys.readouterr().out
    assert all(f"== {name}:" in out for name in games.names())


class _Requests:
    """A read-only byte stream of ``count`` request lines, made as they are read."""

    def __init__(self, count: int) -> None:
        self.left = count

    def readline(self) -> bytes:
        self.left -= 1
        return b'{"cards": ["2C", "3C"]}\n' if self.left >= 0 else b""


class _Counter:
    """A write-only byte stream that keeps only a count of its lines."""

    lines = 0

    def write(self, data: bytes) -> int:
        self.lines += data.count(b"\n")
        return len(data)

    def flush(self) -> None:
        pass


def test_batch_runs_in_constant_memory(highcard: Requests) -> None:
    """Memory at 20,000 lines stays within that at 500: nothing is kept per line."""
    import tracemalloc

    peaks = []
    for count in (500, 20_000):
        sink = _Counter()
        tracemalloc.start()
        score_command.score_batch(highcard, _Requests(count), sink)  # type: ignore[arg-type]
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        assert sink.lines == count
    assert peaks[1] < peaks[0] + 64_000
