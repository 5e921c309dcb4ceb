"""install.sh and uninstall.sh, rehearsed in a throwaway root: the files they leave, the commands they
would run, and that running them again is safe. Stand-ins answer their questions about the system (is
there a user, a group, a package?), and every command that could change it fails loudly if called."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).resolve().parents[2] / "systemd"
SOURCE = SYSTEMD.parent
FORBIDDEN = ("apt-get", "systemctl", "useradd", "usermod", "groupadd", "userdel", "raspi-config", "modprobe",
             "python3", "pip", "chown", "chgrp")

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the installer is a bash script")


@dataclass
class Rehearsal:
    root: Path
    stubs: Path
    env: dict[str, str]

    def run(self, script: str, *args: str, status: int = 0) -> list[str]:
        """Run ``script`` rehearsing in ``root``; the lines it printed."""
        result = subprocess.run([str(SYSTEMD / script), "--root", str(self.root), *args], env=self.env,
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == status, result.stdout + result.stderr
        return (result.stdout + result.stderr).splitlines()

    def would_run(self, script: str, *args: str) -> list[str]:
        return [line.removeprefix("would run: ") for line in self.run(script, *args)
                if line.startswith("would run: ")]

    def file(self, path: str) -> Path:
        return self.root / path.lstrip("/")


@pytest.fixture
def rehearsal(tmp_path: Path) -> Iterator[Rehearsal]:
    stubs = tmp_path / "bin"
    stubs.mkdir()
    log = tmp_path / "called"

    def stub(name: str, body: str) -> None:
        (stubs / name).write_text(f"#!/bin/sh\n{body}\n")
        (stubs / name).chmod(0o755)

    for name in FORBIDDEN:
        stub(name, f'echo "{name} $*" >> {log}; exit 99')
    stub("apt-cache", 'case " $STUB_MISSING " in *" $2 "*) exit 100 ;; esac')
    stub("getent", 'case " $STUB_GROUPS " in *" $2 "*) exit 0 ;; esac; exit 2')
    stub("id", 'if [ "$2" = tablescore ]; then [ "$STUB_USER" = 1 ]; exit; fi\n'
               'if [ "$*" = -u ] && [ -n "$STUB_UID" ]; then echo "$STUB_UID"; exit; fi\n'
               f'exec {shutil.which("id")} "$@"')
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}", "STUB_GROUPS": "video dialout",
           "STUB_USER": "0", "STUB_MISSING": ""}
    for name in ("ROOT", "STUB_UID", "SUDO_USER"):
        env.pop(name, None)
    yield Rehearsal(tmp_path / "root", stubs, env)
    assert not log.exists(), f"the rehearsal ran commands that change the system: {log.read_text()}"


PACKAGES = "python3-venv python3-pip python3-picamera2 python3-lgpio i2c-tools libgl1 libglib2.0-0"
FIRST_RUN = [
    "apt-get update",
    f"apt-get install -y --no-install-recommends {PACKAGES}",
    "raspi-config nonint do_i2c 0",
    "modprobe -a i2c-dev cdc_acm videodev",
    "groupadd --system i2c",
    "groupadd --system gpio",
    "useradd --system --user-group --home-dir /var/lib/tablescore --no-create-home --shell /usr/sbin/nologin "
    "--comment 'tablescore scorekeeper' --groups video,i2c,gpio,dialout tablescore",
    "python3 -m venv --system-site-packages /opt/tablescore/venv",
    f"/opt/tablescore/venv/bin/pip install --upgrade --constraint {SYSTEMD}/constraints.txt /opt/tablescore/build",
    "systemctl daemon-reload",
    "systemctl disable --now tablescore-kiosk.service",
    "systemctl enable tablescore.service",
    "systemctl restart tablescore.service",
]


def test_install_leaves_the_files_and_shows_each_command(rehearsal: Rehearsal) -> None:
    assert rehearsal.would_run("install.sh") == FIRST_RUN
    for unit in ("tablescore.service", "tablescore-kiosk.service"):
        assert rehearsal.file(f"/etc/systemd/system/{unit}").read_bytes() == (SYSTEMD / unit).read_bytes()
    config = rehearsal.file("/etc/tablescore/tablescore.toml")
    assert config.read_bytes() == (SYSTEMD / "tablescore.toml").read_bytes()
    assert oct(config.stat().st_mode & 0o777) == "0o644"
    modules = rehearsal.file("/etc/modules-load.d/tablescore.conf").read_text().split("\n")
    assert [line for line in modules if line and not line.startswith("#")] == ["i2c-dev", "cdc_acm", "videodev"]
    assert sorted(str(p.relative_to(rehearsal.root)) for p in rehearsal.root.rglob("*") if p.is_file()) == [
        "etc/modules-load.d/tablescore.conf", "etc/systemd/system/tablescore-kiosk.service",
        "etc/systemd/system/tablescore.service", "etc/tablescore/tablescore.toml"]


def test_it_builds_from_a_fresh_copy_and_lets_the_owner_read_the_scores(rehearsal: Rehearsal) -> None:
    rehearsal.env["SUDO_USER"] = "pi"
    lines = rehearsal.run("install.sh")
    assert "would run: usermod --append --groups tablescore pi" in lines
    assert "pi may read the scores (tablescore history) from their next login" in lines
    assert not rehearsal.file("/opt/tablescore/build").exists()  # removed once built
    link = rehearsal.file("/usr/local/bin/tablescore")
    assert os.readlink(link) == "/opt/tablescore/venv/bin/tablescore"
    rehearsal.run("uninstall.sh")
    assert not link.is_symlink()


def test_a_second_run_keeps_the_configuration_and_updates_the_rest(rehearsal: Rehearsal) -> None:
    rehearsal.run("install.sh")
    config = rehearsal.file("/etc/tablescore/tablescore.toml")
    config.write_text('[table]\nplayers = ["Ann", "Bob", "Cy"]\n')  # the owner's own settings
    unit = rehearsal.file("/etc/systemd/system/tablescore.service")
    unit.write_text("[Service]\nExecStart=/bin/old\n")               # an older release's unit
    venv_python = rehearsal.file("/opt/tablescore/venv/bin/python")
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text("")
    venv_python.chmod(0o755)
    rehearsal.env.update(STUB_USER="1", STUB_GROUPS="video dialout i2c gpio")
    lines = rehearsal.run("install.sh")
    assert config.read_text() == '[table]\nplayers = ["Ann", "Bob", "Cy"]\n'
    assert f"kept: /etc/tablescore/tablescore.toml (the example is {SYSTEMD}/tablescore.toml)" in lines
    assert unit.read_bytes() == (SYSTEMD / "tablescore.service").read_bytes()
    commands = [line.removeprefix("would run: ") for line in lines if line.startswith("would run: ")]
    assert "usermod --append --groups video,i2c,gpio,dialout tablescore" in commands
    assert not [c for c in commands if c.startswith(("useradd", "groupadd", "python3 -m venv"))]
    assert commands[-1] == "systemctl restart tablescore.service"  # the new package runs at once


def test_kiosk_and_no_start(rehearsal: Rehearsal) -> None:
    assert rehearsal.would_run("install.sh", "--kiosk")[-4:] == [
        "systemctl daemon-reload", "systemctl disable --now tablescore.service",
        "systemctl enable tablescore-kiosk.service", "systemctl restart tablescore-kiosk.service"]
    assert rehearsal.would_run("install.sh", "--no-start")[-1] == "systemctl enable tablescore.service"


def test_on_plain_debian_what_is_missing_is_left_out(rehearsal: Rehearsal) -> None:
    rehearsal.env["STUB_MISSING"] = "python3-picamera2 python3-lgpio"
    (rehearsal.stubs / "raspi-config").unlink()
    lines = rehearsal.run("install.sh")
    if shutil.which("raspi-config") is None:
        assert not [line for line in lines if "raspi-config nonint" in line]
        assert "note: no raspi-config here: turn I2C on yourself (dtparam=i2c_arm=on in the boot config.txt)" in lines
    assert "note: python3-picamera2 is not in this system's archives (not Raspberry Pi OS?): left out" in lines
    assert ("would run: apt-get install -y --no-install-recommends python3-venv python3-pip i2c-tools libgl1 "
            "libglib2.0-0") in lines


def test_root_from_the_environment(rehearsal: Rehearsal) -> None:
    rehearsal.env["ROOT"] = str(rehearsal.root)
    result = subprocess.run([str(SYSTEMD / "install.sh")], env=rehearsal.env, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert [line.removeprefix("would run: ") for line in result.stdout.splitlines()
            if line.startswith("would run: ")] == FIRST_RUN
    assert rehearsal.file("/etc/systemd/system/tablescore.service").exists()


def test_bad_options_are_refused(rehearsal: Rehearsal) -> None:
    lines = rehearsal.run("install.sh", "--kiosks", status=2)
    assert lines[-1] == "install.sh: unknown option --kiosks"
    assert any(line.strip().startswith("sudo systemd/install.sh --kiosk") for line in lines)  # the usage
    result = subprocess.run([str(SYSTEMD / "uninstall.sh"), "--root", "/"], env=rehearsal.env,
                            capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (
        2, "uninstall.sh: --root / is the real system: leave --root out to install for real\n")


def test_uninstall_keeps_the_scores_unless_purged(rehearsal: Rehearsal) -> None:
    rehearsal.run("install.sh")
    journal = rehearsal.file("/var/lib/tablescore/tablescore.db")
    journal.parent.mkdir(parents=True)
    journal.write_text("every confirmed score")
    rehearsal.file("/opt/tablescore/venv/bin").mkdir(parents=True)
    assert rehearsal.would_run("uninstall.sh") == [
        "systemctl disable --now tablescore.service", "systemctl disable --now tablescore-kiosk.service",
        "systemctl daemon-reload"]
    assert not rehearsal.file("/etc/systemd/system/tablescore.service").exists()
    assert not rehearsal.file("/opt/tablescore").exists()
    assert not rehearsal.file("/etc/modules-load.d/tablescore.conf").exists()
    assert rehearsal.file("/etc/tablescore/tablescore.toml").exists() and journal.exists()
    assert rehearsal.would_run("uninstall.sh") == ["systemctl daemon-reload"]  # again: nothing left to stop
    rehearsal.env["STUB_USER"] = "1"
    assert rehearsal.would_run("uninstall.sh", "--purge") == ["systemctl daemon-reload", "userdel tablescore"]
    assert not rehearsal.file("/etc/tablescore").exists() and not journal.exists()


def test_only_root_installs_for_real(rehearsal: Rehearsal) -> None:
    rehearsal.env["STUB_UID"] = "1000"
    for script in ("install.sh", "uninstall.sh"):
        result = subprocess.run([str(SYSTEMD / script)], env=rehearsal.env, capture_output=True, text=True,
                                timeout=60)
        assert (result.returncode, result.stderr) == (
            2, f"{script}: run it as root (sudo {SYSTEMD / script}), or rehearse with --root DIR\n")
        help_ = subprocess.run([str(SYSTEMD / script), "--help"], env=rehearsal.env, capture_output=True,
                               text=True, timeout=60)
        assert help_.returncode == 0 and f"sudo systemd/{script}" in help_.stdout


def test_a_club_table_gets_the_network_drop_in_and_loses_it_when_installed_without(rehearsal: Rehearsal) -> None:
    assert rehearsal.would_run("install.sh", "--club") == FIRST_RUN
    drop_in = rehearsal.file("/etc/systemd/system/tablescore.service.d/club.conf")
    assert drop_in.read_bytes() == (SYSTEMD / "tablescore-club-table.conf").read_bytes()
    rehearsal.run("install.sh")
    assert not drop_in.exists()


def test_the_club_server_role(rehearsal: Rehearsal) -> None:
    assert rehearsal.would_run("install.sh", "--club-server") == [
        "apt-get update",
        "apt-get install -y --no-install-recommends python3-venv python3-pip mosquitto",
        "useradd --system --user-group --home-dir /var/lib/tablescore --no-create-home --shell /usr/sbin/nologin "
        "--comment 'tablescore scorekeeper' tablescore",
        "python3 -m venv --system-site-packages /opt/tablescore/venv",
        f"/opt/tablescore/venv/bin/pip install --upgrade --constraint {SYSTEMD}/constraints.txt /opt/tablescore/build",
        "chgrp tablescore /etc/tablescore/club.toml",
        "chgrp mosquitto /etc/mosquitto/tablescore-club.passwd",
        "systemctl daemon-reload",
        "systemctl enable tablescore-club.service",
        "systemctl restart mosquitto.service tablescore-club.service",
    ]
    assert sorted(str(p.relative_to(rehearsal.root)) for p in rehearsal.root.rglob("*") if p.is_file()) == [
        "etc/mosquitto/conf.d/tablescore-club.conf", "etc/mosquitto/tablescore-club.acl",
        "etc/mosquitto/tablescore-club.passwd", "etc/systemd/system/tablescore-club.service",
        "etc/tablescore/club.toml"]
    assert rehearsal.file("/etc/mosquitto/tablescore-club.acl").read_bytes() == (
        SYSTEMD / "mosquitto-club.acl").read_bytes()
    assert oct(rehearsal.file("/etc/tablescore/club.toml").stat().st_mode & 0o777) == "0o640"
    rehearsal.file("/etc/mosquitto/tablescore-club.acl").write_text("user server\n")  # the organiser's own
    rehearsal.env["STUB_USER"] = "1"
    lines = rehearsal.run("install.sh", "--club-server", "--no-start")
    assert "kept: /etc/mosquitto/tablescore-club.acl" in lines
    assert rehearsal.file("/etc/mosquitto/tablescore-club.acl").read_text() == "user server\n"
    assert [line for line in lines if line.startswith("would run: systemctl")][-1] == (
        "would run: systemctl enable tablescore-club.service")
    assert rehearsal.run("install.sh", "--club-server", "--kiosk", status=2)[-1] == (
        "install.sh: --club-server installs the club server, not a table")
    rehearsal.file("/opt/tablescore/venv/bin").mkdir(parents=True)
    assert rehearsal.would_run("uninstall.sh") == ["systemctl disable --now tablescore-club.service",
                                                   "systemctl daemon-reload"]
