"""The service units: systemd finds nothing wrong in them, rates the sandbox 2.0 or lower, and they keep
to what the installer and the device expect."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from device.config import load

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
SERVICE, KIOSK = SYSTEMD / "tablescore.service", SYSTEMD / "tablescore-kiosk.service"
UNITS = (SERVICE, KIOSK)
COMMAND = "/opt/tablescore/venv/bin/tablescore"
"""Where install.sh puts the command; `systemd-analyze verify` wants it to exist, so tests point the units
at a stand-in executable instead."""

ANALYZE = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(ANALYZE is None, reason="systemd-analyze is not installed (no systemd here)")


def entries(unit: Path) -> dict[str, list[tuple[str, str]]]:
    """The unit's sections, each a list of (key, value) in order (keys may repeat)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    for line in unit.read_text().splitlines():
        line = line.strip()
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
        elif line and not line.startswith("#"):
            key, _, value = line.partition("=")
            current.append((key, value))
    return sections


def values(unit: Path, section: str, key: str) -> list[str]:
    return [value for name, value in entries(unit)[section] if name == key]


def analyze(*args: str) -> subprocess.CompletedProcess[str]:
    assert ANALYZE is not None
    return subprocess.run([ANALYZE, *args], capture_output=True, text=True, timeout=60)


def stand_in_units(folder: Path, edit: dict[str, str] | None = None) -> list[Path]:
    """Copies of both units in ``folder`` whose ExecStart runs a stand-in executable; ``edit`` replaces
    text in the service's copy."""
    command = folder / "tablescore"
    command.write_text("#!/bin/sh\nexit 0\n")
    command.chmod(0o755)
    copies = []
    for unit in UNITS:
        text = unit.read_text()
        assert f"ExecStart={COMMAND} " in text
        text = text.replace(COMMAND, str(command))
        for old, new in (edit or {}).items() if unit == SERVICE else ():
            assert old in text
            text = text.replace(old, new)
        copy = folder / unit.name
        copy.write_text(text)
        copies.append(copy)
    return copies


@needs_analyze
def test_systemd_analyze_verify_finds_nothing(tmp_path: Path) -> None:
    result = analyze("verify", *map(str, stand_in_units(tmp_path)))
    assert (result.returncode, result.stdout + result.stderr) == (0, "")


@needs_analyze
def test_verify_would_catch_a_mistake(tmp_path: Path) -> None:
    service, _ = stand_in_units(tmp_path, {"Restart=on-failure": "Restart=sometimes"})
    result = analyze("verify", str(service))
    assert "Failed to parse service restart specifier, ignoring: sometimes" in result.stderr


def exposure(unit: Path) -> float:
    result = analyze("security", "--offline=true", str(unit))
    found = re.search(rf"Overall exposure level for {re.escape(unit.name)}: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    return float(found.group(1))


@needs_analyze
@pytest.mark.parametrize("unit", UNITS, ids=lambda unit: unit.name)
def test_security_rates_the_sandbox_ok(unit: Path) -> None:
    assert exposure(unit) <= 2.0


@needs_analyze
def test_security_would_notice_a_weaker_sandbox(tmp_path: Path) -> None:
    weak = tmp_path / "tablescore.service"
    weak.write_text(re.sub(r"(?m)^(Protect|Private|Restrict)\w+=.*\n", "", SERVICE.read_text()))
    assert exposure(weak) > 2.0


def test_both_units_share_one_sandbox_and_conflict() -> None:
    def sandbox(unit: Path) -> list[tuple[str, str]]:
        service = entries(unit)["Service"]
        return service[[key for key, _ in service].index("StateDirectory"):]

    assert sandbox(SERVICE) == sandbox(KIOSK)
    assert entries(SERVICE)["Install"] == entries(KIOSK)["Install"] == [("WantedBy", "multi-user.target")]
    assert values(SERVICE, "Unit", "Conflicts") == [KIOSK.name]
    assert values(KIOSK, "Unit", "Conflicts") == [SERVICE.name]


def test_the_service_runs_the_device_as_a_watched_unprivileged_user() -> None:
    assert values(SERVICE, "Service", "ExecStart") == [f"{COMMAND} run --config /etc/tablescore/tablescore.toml"]
    assert values(KIOSK, "Service", "ExecStart") == [f"{COMMAND} demo --config /etc/tablescore/tablescore.toml"]
    for key, expected in [("Type", "notify"), ("NotifyAccess", "main"), ("Restart", "on-failure"),
                          ("User", "tablescore"), ("StateDirectory", "tablescore"), ("DevicePolicy", "closed"),
                          ("SupplementaryGroups", "video i2c gpio dialout")]:
        assert values(SERVICE, "Service", key) == [expected], key
    assert values(SERVICE, "Service", "WatchdogSec")
    for key in ("Type", "NotifyAccess", "WatchdogSec"):  # the kiosk demo is watched the same way
        assert values(KIOSK, "Service", key) == values(SERVICE, "Service", key), key
    devices = {value.split()[0] for value in values(SERVICE, "Service", "DeviceAllow")}
    assert devices == {"char-video4linux", "char-media", "char-dma_heap", "char-i2c", "char-gpiochip", "char-ttyACM"}


def test_the_example_configuration_loads_and_keeps_the_journal_in_the_state_directory() -> None:
    config = load(SYSTEMD / "tablescore.toml")
    assert Path(config.journal.path).parent == Path("/var/lib") / values(SERVICE, "Service", "StateDirectory")[0]
    assert (config.display.kind, config.camera.source, config.panel.port) == ("ssd1306", "picamera", "auto")


CLUB = SYSTEMD / "tablescore-club.service"


@needs_analyze
def test_the_club_server_unit_verifies_and_its_sandbox_rates_ok(tmp_path: Path) -> None:
    command = tmp_path / "tablescore"
    command.write_text("#!/bin/sh\nexit 0\n")
    command.chmod(0o755)
    copy = tmp_path / CLUB.name
    copy.write_text(CLUB.read_text().replace(COMMAND, str(command)))
    result = analyze("verify", str(copy))
    assert (result.returncode, result.stdout + result.stderr) == (0, "")
    assert exposure(CLUB) <= 2.0
    assert values(CLUB, "Service", "ExecStart") == [f"{COMMAND} club serve --config /etc/tablescore/club.toml"]
    for key in ("Type", "NotifyAccess", "User", "NoNewPrivileges", "ProtectSystem", "SystemCallFilter"):
        assert values(CLUB, "Service", key)[:1] == values(SERVICE, "Service", key)[:1], key


@needs_analyze
def test_a_club_table_reaches_the_network_and_its_sandbox_still_rates_ok(tmp_path: Path) -> None:
    drop_in = (SYSTEMD / "tablescore-club-table.conf").read_text()
    body = "".join(line + "\n" for line in drop_in.splitlines() if line and not line.startswith(("#", "[")))
    merged = tmp_path / SERVICE.name
    merged.write_text(SERVICE.read_text().replace("\n[Install]", f"{body}\n[Install]"))
    assert "RestrictAddressFamilies=AF_UNIX AF_NETLINK AF_INET AF_INET6" in body
    assert exposure(merged) <= 2.0


def test_the_club_servers_example_configuration_loads_and_keeps_its_database_in_its_state_directory() -> None:
    from club.config import load as load_club

    config = load_club(SYSTEMD / "club.toml")
    assert Path(config.server.database).parent == Path("/var/lib") / values(CLUB, "Service", "StateDirectory")[0]
    assert (config.club.name, config.broker.username, config.server.port) == ("riverside", "server", 8080)
    acl = (SYSTEMD / "mosquitto-club.acl").read_text()
    assert "pattern write tablescore/riverside/%u/#" in acl  # the ACL tests/club run the broker with


def test_the_example_configurations_club_section_loads_once_uncommented() -> None:
    from device.config import parse

    text = (SYSTEMD / "tablescore.toml").read_text()
    club = text[text.index("# [club]"):]
    config = parse("\n".join(line.removeprefix("# ") for line in club.splitlines()))
    assert config.club is not None and (config.club.name, config.club.user) == ("riverside", "north")
    assert load(SYSTEMD / "tablescore.toml").club is None  # as shipped, the table runs on its own
