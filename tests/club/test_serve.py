"""The commands as systemd runs them: ``tablescore club serve`` (ready, watched, stopped cleanly; a
configuration it cannot use named, exit 2) and ``tablescore run`` in club mode on a real broker (the game it
starts reaches the club server, the table shows online, and offline once stopped)."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from club.config import parse as parse_server
from club.serve import ClubServer
from device import cli
from tests.club.broker import Mosquitto, free_port, server_config, table_config
from tests.club.test_link import wait_for
from tests.device.notify_standin import NotifySocket
from tests.systemd.test_service import command, configuration, run_as_systemd_would


@pytest.fixture(name="listener")
def listener_fixture() -> Iterator[NotifySocket]:
    with NotifySocket() as listener:
        yield listener


def test_the_club_server_runs_as_systemd_would(broker: Mosquitto, listener: NotifySocket) -> None:
    config = listener.folder / "club.toml"
    config.write_text(server_config(broker, listener.folder / "club.db").replace("port = 0", f"port = {free_port()}"))
    run_as_systemd_would(listener, "club", "serve", "--config", str(config))


@pytest.mark.parametrize(("text", "message"), [
    ('[club]\nname = "river side"', "[club] name: 'river side' must be letters, digits, '-' or '_'"),
    ('[club]\nname = "riverside"\n[broker]\nport = 70000', "[broker] port: 70000 is not a TCP port"),
    ('[broker]\nhost = "pi"', "[club] name: the club's name is missing"),
    ('[club]\nname = "riverside"\n[web]\nport = 80', "[web]: unknown section (known: club, broker, server)"),
])
def test_a_club_configuration_it_cannot_use_is_named_and_exits_2(tmp_path: Path, text: str, message: str,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.toml"
    path.write_text(text)
    assert cli.main(["club", "serve", "--config", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_a_table_in_club_mode_publishes_its_game_and_says_when_it_goes(broker: Mosquitto, tmp_path: Path) -> None:
    device = configuration(tmp_path)
    device.write_text(device.read_text().replace('[table]\ngame = "cribbage"\nplayers = ["Ann", "Bob"]\n', "")
                      + table_config(broker, "north", ["<i>Ann</i>", "Bob"]))
    with ClubServer(parse_server(server_config(broker, tmp_path / "club.db"))) as server:
        child = subprocess.Popen([*command(), "run", "--config", str(device)], cwd=tmp_path,
                                 env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT)
        try:
            wait_for(lambda: [record.players for _, record in server.store.games()] == [["<i>Ann</i>", "Bob"]], 60)
            wait_for(lambda: server.store.tables()["north"][0] == "online")
            child.send_signal(signal.SIGTERM)
            assert child.wait(15) == 0
            wait_for(lambda: server.store.tables()["north"][0] == "offline")
        finally:
            child.kill()
            output = child.communicate()[0].decode()
        assert "connected to the club's broker" in output
