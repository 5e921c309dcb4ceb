"""Club mode under load: N tables confirm a Gin Rummy hand each second through one Mosquitto broker to the
club server, while the live page's event stream is watched.

    .venv/bin/python benchmarks/club_mqtt.py [--tables 10] [--seconds 600] [--fps 10]

Each table is a process running the device's own loop (``device.flows.loop.Loop``: a frame through the
zones and tracker, the game's page drawn on an in-memory OLED, the club link in the title bar) at ``--fps``,
and once a second confirms a hand (a knock, then both hands laid out) through its session into its journal;
its club link publishes from its own thread. It is run twice: first without a club (no link: the device as
it is without ``[club]``), then in club mode, and each frame's loop time is compared: the frames that
confirm a hand (two journal commits, each waiting for the disk) apart from the others. On this one machine
the tables share the CPU and the disk with the broker and the club server, which only work in club mode.

The club server (``tablescore club serve``, its own process) keeps the games; this process reads its
``/live`` event stream as the TV page does and notes when each hand first shows there. Page latency runs
from the hand's commit in the table's journal to that moment (both clocks are this machine's). At the end
the server's database must equal every table's journal.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ROOT = Path(__file__).resolve().parents[1]


def table(name: str, journal: Path, config: Path | None, seconds: float, fps: float, out: Path) -> None:
    """One table: the device's loop at ``fps`` for ``seconds``, a hand confirmed each second; its loop
    times and commits written to ``out`` (JSON)."""
    import numpy as np

    from device.club_link import Outbox, linked
    from device.config import load
    from device.display import Display, open_device
    from device.flows.loop import Loop
    from device.flows.play import Play
    from device.games import flow_for
    from device.journal import Journal
    from device.session import Session
    from tests.club.table import GIN, KNOCK
    from vision.zones import Calibration

    players = [f"{name}-a", f"{name}-b"]
    club = load(config).club if config else None
    frame = np.zeros((720, 1280, 3), np.uint8)
    loop_ms: list[float] = []
    commit_ms: list[float] = []
    commits: list[tuple[int, int, float]] = []
    with Journal(journal) as journal_, linked(club, journal) as link:
        play = Play(journal_, flow_for("gin", players, {}))
        loop = Loop(play, lambda image: [], Calibration.default(2, size=(1280, 720)), Display(open_device("dummy")),
                    link=link)
        start = time.monotonic()
        next_hand, hands = start + 1.0, 0
        while (now := time.monotonic()) < start + seconds:
            began = time.perf_counter()
            loop.step(frame)
            confirming = now >= next_hand
            if confirming:
                next_hand += 1.0
                flow, session = play.flow, play.session
                if flow.result(session.state) is not None:
                    session.finish(flow.result(session.state) or {})
                    play.session = session = Session(journal_, flow, journal_.start_game("gin", players, {}))
                    hands = 0
                session.confirm("knock", {"seat": hands % 2})
                knocker, defender = GIN if hands % 3 == 2 else KNOCK
                session.confirm("hand", {"knocker": knocker, "defender": defender})
                hands += 1
                commits.append((session.game_id, hands, time.time()))
            (commit_ms if confirming else loop_ms).append((time.perf_counter() - began) * 1000)
            time.sleep(max(0.0, began + 1.0 / fps - time.perf_counter()))
        if club is not None:  # what is still queued goes out before the table stops
            with Outbox(journal, club.table) as outbox:
                deadline = time.monotonic() + 60
                while outbox.pending() and time.monotonic() < deadline:
                    time.sleep(0.05)
    out.write_text(json.dumps({"loop_ms": loop_ms, "commit_ms": commit_ms, "commits": commits}))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_tables(folder: Path, names: list[str], linked: bool, seconds: float, fps: float) -> dict[str, dict]:
    processes = {}
    for name in names:
        config = folder / f"{name}.toml"
        processes[name] = subprocess.Popen(
            [sys.executable, __file__, "--table", name, "--journal", str(folder / f"{name}-{linked}.db"),
             *(["--config", str(config)] if linked else []), "--seconds", str(seconds), "--fps", str(fps),
             "--out", str(folder / f"{name}-{linked}.json")], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    for process in processes.values():
        if process.wait() != 0:
            raise SystemExit("a table failed")
    return {name: json.loads((folder / f"{name}-{linked}.json").read_text()) for name in names}


class Stream:
    """The page's event stream, read in a thread: when each (table, game) first showed each hand count."""

    def __init__(self, port: int) -> None:
        import threading

        self.seen: dict[tuple[str, int, int], float] = {}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.connection.request("GET", "/live")
        self.response = self.connection.getresponse()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.response:
            if not line.startswith(b"data: "):
                continue
            now = time.time()
            for game in json.loads(line[6:])["games"]:
                for hand in range(1, game["hands"] + 1):
                    self.seen.setdefault((game["table"], game["game_id"], hand), now)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--fps", type=float, default=10)
    parser.add_argument("--table", help=argparse.SUPPRESS)
    parser.add_argument("--journal", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--config", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.table:
        table(args.table, args.journal, args.config, args.seconds, args.fps, args.out)
        return 0

    from tests.club.broker import Mosquitto, free_port, server_config, table_config
    from tests.club.test_link import journal_rows, server_rows

    names = [f"t{n:02d}" for n in range(args.tables)]
    folder = Path(tempfile.mkdtemp(prefix="club-bench-"))
    broker = Mosquitto(folder / "broker", names).start()
    port = free_port()
    (folder / "club.toml").write_text(server_config(broker, folder / "club.db").replace("port = 0", f"port = {port}"))
    for name in names:
        (folder / f"{name}.toml").write_text(table_config(broker, name, [f"{name}-a", f"{name}-b"]))
    server = subprocess.Popen([sys.executable, "-m", "device.cli", "club", "serve", "--config",
                               str(folder / "club.toml")], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                stream = Stream(port)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("the club server did not start") from None
                time.sleep(0.1)
        print(f"{args.tables} tables, {args.seconds:.0f} s, a hand a second each, device loop at {args.fps:g} fps")
        alone = run_tables(folder, names, False, args.seconds, args.fps)
        club = run_tables(folder, names, True, args.seconds, args.fps)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
                server_rows(folder / "club.db", name) == journal_rows(folder / f"{name}-True.db") for name in names):
            time.sleep(0.2)
        whole = [name for name in names
                 if server_rows(folder / "club.db", name) == journal_rows(folder / f"{name}-True.db")]
        commits = [(name, game, hand, at) for name in names for game, hand, at in club[name]["commits"]]
        latency = [(stream.seen[(name, game, hand)] - at) * 1000 for name, game, hand, at in commits
                   if (name, game, hand) in stream.seen]
    finally:
        server.terminate()
        server.wait()
        broker.stop()
    print(f"results confirmed: {len(commits)}; shown on the page: {len(latency)}; tables whose journal the "
          f"server holds whole: {len(whole)}/{len(names)}")
    if latency:
        print(f"page latency (commit to the page's event stream), ms: median {statistics.median(latency):.0f}, "
              f"p99 {percentile(latency, 0.99):.0f}, max {max(latency):.0f}")
    for label, runs in (("without a club", alone), ("in club mode", club)):
        for frames, key in (("a frame", "loop_ms"), ("a frame confirming a hand", "commit_ms")):
            times = [ms for run in runs.values() for ms in run[key]]
            print(f"device loop {label}, ms {frames}: median {statistics.median(times):.2f}, p99 "
                  f"{percentile(times, 0.99):.2f} ({len(times)} frames)")
    return 0 if len(whole) == len(names) and len(latency) == len(commits) else 1


if __name__ == "__main__":
    sys.exit(main())
