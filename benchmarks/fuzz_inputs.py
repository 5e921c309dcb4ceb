"""Bad input, fuzzed at length: per target, inputs tried and failures found (docs/RELIABILITY.md).

    .venv/bin/python benchmarks/fuzz_inputs.py [--count 5000 | --seconds 60] [--seed 1] [--targets cards ...]
    .venv/bin/python benchmarks/fuzz_inputs.py --engine atheris --seconds 60   # coverage-guided, byte level

The targets, their inputs and their checks are those of tests/reliability/test_bad_input.py (kept in
tests/reliability/inputs.py): a failure is a crash (an exception other than the module's own error, or
that error with no message), a hang (over LIMIT_S seconds), a refusal whose message is empty or an
internal error, or state damaged (a good input after the bad one answered differently). Failures do not
stop the run: each is counted, and the first of each kind is printed with its input.

The default engine makes structured inputs (samples changed field by field, damaged files and frames)
from a seeded random generator, so a run is reproducible. ``--engine atheris`` (``pip install atheris``,
not a dependency of the package) lets libFuzzer mutate bytes under coverage guidance, starting from the
same good inputs, one child process a target; it reports inputs tried, failures and coverage edges.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

ATHERIS_TARGETS = ("cards", "batch barbu", "batch cribbage", "batch gin", "batch ofc", "batch pinzique", "config",
                   "guide", "zones", "frames", "link", "image files")
"""The targets whose input is bytes or text, which libFuzzer can mutate directly."""


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """Send file descriptor 2 to /dev/null: libpng and libjpeg complain there about every damaged image."""
    sys.stderr.flush()
    saved = os.dup(2)
    with open(os.devnull, "w") as null:
        os.dup2(null.fileno(), 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


class Tally:
    """Inputs, outcomes and failures of one target; the first input of each failure kind kept."""

    def __init__(self) -> None:
        self.outcomes: collections.Counter[str] = collections.Counter()
        self.failures: collections.Counter[str] = collections.Counter()
        self.examples: dict[str, tuple[str, str]] = {}
        self.seconds = 0.0

    @property
    def inputs(self) -> int:
        return sum(self.outcomes.values()) + sum(self.failures.values())

    def run(self, check: Callable[[Any], str], given: Any) -> tuple[str, str] | None:
        """Check one input; for a failure, its kind and (message, input)."""
        from tests.reliability.inputs import Failure, describe

        try:
            self.outcomes[check(given)] += 1
        except Failure as failure:
            self.failures[failure.kind] += 1
            example = (str(failure)[:300], describe(given, 300))
            self.examples.setdefault(failure.kind, example)
            return failure.kind, example
        return None


def fuzz_random(names: list[str], count: int | None, seconds: float | None, seed: int) -> dict[str, Tally]:
    """Each target's own generator, ``count`` inputs or ``seconds`` of them, from ``seed``."""
    from tests.reliability.inputs import TARGETS

    tallies = {}
    for name in names:
        target, tally, rng = TARGETS[name], Tally(), random.Random(f"{seed}:{name}")
        start = time.perf_counter()
        with quiet_stderr():
            while (tally.inputs < count) if count is not None else (time.perf_counter() - start < seconds):  # type: ignore[operator]
                tally.run(target.check, target.generate(rng))
        tally.seconds = time.perf_counter() - start
        tallies[name] = tally
        report_line(name, tally)
    return tallies


def report_line(name: str, tally: Tally) -> None:
    outcomes = ", ".join(f"{kind} {n}" for kind, n in sorted(tally.outcomes.items()))
    print(f"{name:<15} {tally.inputs:>8} {sum(tally.failures.values()):>8}   {tally.inputs / tally.seconds:>7.0f}/s"
          f"   {outcomes}", flush=True)


def report(tallies: dict[str, Tally]) -> None:
    total = sum(t.inputs for t in tallies.values())
    failed = sum(sum(t.failures.values()) for t in tallies.values())
    print(f"{'all':<15} {total:>8} {failed:>8}")
    for name, tally in tallies.items():
        for kind, (message, given) in tally.examples.items():
            print(f"\n{name}: {tally.failures[kind]} x {kind}\n  {message}\n  input: {given}")


# The atheris engine: one child process a target, libFuzzer mutating bytes.


def atheris_input(name: str, data: bytes) -> Any:
    """The target's input made from libFuzzer's bytes."""
    import atheris

    if name == "cards":
        return atheris.FuzzedDataProvider(data).ConsumeUnicodeNoSurrogates(len(data))
    if name == "frames":
        return data
    if name == "link":
        return data, 2
    if name == "image files":
        return (".png", ".jpg", ".bmp")[data[0] % 3] if data else ".png", data[1:]
    if name.startswith("batch "):
        return data.replace(b"\n", b" ")  # one line
    return data


def check_line(line: bytes) -> str:
    """For raw bytes: the Deframer never raises, and every message it yields is framed whole in the line."""
    from tests.reliability.inputs import Failure, protocol, refusal

    reader = protocol.Deframer()
    with refusal(()):
        messages = reader.feed(line)
    segments = set(line.split(b"\x00"))
    for message in messages:
        if message.frame()[1:-1] not in segments:
            raise Failure("message not in the line", repr(message))
    return "refused" if reader.bad else "accepted"


def seeds(name: str, folder: Path, rng: random.Random) -> None:
    """A starting corpus: good inputs and a few of the generator's."""
    from tests.reliability import inputs

    good: list[bytes] = []
    if name.startswith("batch "):
        good = [json.dumps(sample).encode() for sample in inputs.games.game(name[6:]).SAMPLES]
    elif name in ("config", "guide", "zones"):
        table = {"config": inputs._CONFIG_GOOD, "guide": inputs._GUIDE_GOOD, "zones": inputs._ZONES_GOOD}[name]
        good = [inputs.to_toml(table).encode()]
    elif name in ("frames", "link"):
        good = [b"".join(inputs.random_message(rng).frame() for _ in range(3)) for _ in range(5)]
    elif name == "image files":
        good = [bytes([index]) + raw for index, raw in enumerate(inputs.ENCODED.values())]
    elif name == "cards":
        good = [card.encode() for card in ("AS", "10♥", "td", " qC ")]
    for number, raw in enumerate(good):
        (folder / f"seed-{number}").write_bytes(raw)


def atheris_child(name: str, libfuzzer_args: list[str]) -> None:
    """Run inside the child: instrument our packages, fuzz one target, log failures as JSON lines."""
    import atheris

    with atheris.instrument_imports(include=["scoring", "device", "firmware", "vision"]):
        from tests.reliability.inputs import TARGETS, games

        for game in games.names():  # game modules load on first use: load them here, to be instrumented
            games.game(game)

    check = check_line if name == "frames" else TARGETS[name].check
    log = Path(os.environ["FUZZ_FAILURES"])
    tally = Tally()

    def one(data: bytes) -> None:
        failed = tally.run(check, atheris_input(name, data))
        if failed:
            with log.open("a") as out:
                out.write(json.dumps({"kind": failed[0], "example": failed[1]}) + "\n")

    atheris.Setup([sys.argv[0], *libfuzzer_args], one)
    atheris.Fuzz()


def fuzz_atheris(names: list[str], count: int | None, seconds: float | None, seed: int) -> dict[str, Tally]:
    tallies = {}
    for name in names:
        if name not in ATHERIS_TARGETS:
            print(f"{name:<15} (structured input only: run it with the default engine)")
            continue
        with tempfile.TemporaryDirectory() as scratch:
            corpus, failures = Path(scratch) / "corpus", Path(scratch) / "failures.jsonl"
            corpus.mkdir()
            seeds(name, corpus, random.Random(seed))
            limit = f"-runs={count}" if count is not None else f"-max_total_time={int(seconds or 60)}"
            args = [limit, f"-seed={seed}", "-timeout=0", "-rss_limit_mb=3000", "-print_final_stats=1",
                    f"-artifact_prefix={scratch}/", str(corpus)]
            start = time.perf_counter()
            run = subprocess.run([sys.executable, __file__, "--atheris-child", name, "--", *args], cwd=ROOT,
                                 env={**os.environ, "FUZZ_FAILURES": str(failures)}, capture_output=True, text=True,
                                 errors="replace")
            tally = Tally()
            tally.seconds = time.perf_counter() - start
            done = re.search(r"Done (\d+) runs", run.stderr) or re.search(r"stat::number_of_executed_units: (\d+)",
                                                                         run.stderr)
            edges = re.findall(r"cov: (\d+)", run.stderr)
            logged = [json.loads(line) for line in failures.read_text().splitlines()] if failures.exists() else []
            for entry in logged:
                tally.failures[entry["kind"]] += 1
                tally.examples.setdefault(entry["kind"], tuple(entry["example"]))  # type: ignore[arg-type]
            if run.returncode != 0 and not logged:
                tally.failures["child died"] += 1
                tally.examples["child died"] = (f"exit status {run.returncode}", run.stderr[-600:])
            runs = int(done.group(1)) if done else 0
            tally.outcomes["tried"] = runs - len(logged)
            tallies[name] = tally
            print(f"{name:<15} {runs:>8} {sum(tally.failures.values()):>8}   {runs / tally.seconds:>7.0f}/s"
                  f"   coverage edges {edges[-1] if edges else '?'}", flush=True)
    return tallies


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--atheris-child"]:
        atheris_child(argv[1], argv[3:])
        return 0
    from tests.reliability.inputs import TARGETS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--count", type=int, help="inputs per target (default 5000)")
    budget.add_argument("--seconds", type=float, help="seconds per target, instead of a count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--targets", nargs="+", choices=list(TARGETS), metavar="TARGET", default=list(TARGETS),
                        help="which targets (default all): " + ", ".join(TARGETS))
    parser.add_argument("--engine", choices=("random", "atheris"), default="random")
    args = parser.parse_args(argv)
    count = args.count if args.count is not None or args.seconds is not None else 5000
    print(f"engine {args.engine}, seed {args.seed}, "
          + (f"{count} inputs a target" if count is not None else f"{args.seconds:g} s a target")
          + f", load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'target':<15} {'inputs':>8} {'failures':>8}   {'rate':>9}   outcomes")
    fuzz = fuzz_atheris if args.engine == "atheris" else fuzz_random
    tallies = fuzz(args.targets, count, args.seconds, args.seed)
    report(tallies)
    return 1 if any(t.failures for t in tallies.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
