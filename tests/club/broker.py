"""A real Mosquitto broker for the club tests, on a free localhost port: a user and password for the club
server and each table, and the example ACL ``systemd/mosquitto-club.acl`` (a table publishes only under its
own topic). ``stop()`` and ``start()`` take it down and bring it back on the same port with what it persisted.
``table_config`` and ``server_config`` write the configurations of a table and of the club server on it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from device.config import BrokerSection

EXAMPLE_ACL = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto-club.acl"
CLUB = "testclub"
TABLES = ["north", "south", "east"]
PASSWORD = "secret-{user}"
"""Each user's password in the tests."""


def acl(club: str) -> str:
    """The club's ACL: the example ``systemd/mosquitto-club.acl`` for ``club``."""
    return EXAMPLE_ACL.read_text().replace("tablescore/riverside/", f"tablescore/{club}/")


def table_config(broker: Mosquitto, table: str, players: list[str]) -> str:
    """A device configuration (TOML) for ``table`` in club mode, playing Gin Rummy."""
    settings = broker.settings(table)
    names = ", ".join(f'"{name}"' for name in players)
    return (f'[table]\ngame = "gin"\nplayers = [{names}]\n[club]\nname = "{CLUB}"\ntable = "{table}"\n'
            f'host = "{settings.host}"\nport = {settings.port}\npassword = "{settings.password}"\n')


def server_config(broker: Mosquitto, database: Path) -> str:
    """The club server's configuration (TOML) on ``broker``, its web pages on a free port."""
    settings = broker.settings("server")
    return (f'[club]\nname = "{CLUB}"\n[broker]\nhost = "{settings.host}"\nport = {settings.port}\n'
            f'username = "server"\npassword = "{settings.password}"\n[server]\ndatabase = "{database}"\n'
            f'listen = "127.0.0.1"\nport = 0\n')


def certificates(folder: Path) -> str:
    """A certificate authority (``ca.crt``) and the broker's certificate for 127.0.0.1 signed by it, made with
    openssl in ``folder``; the listener's lines that use them."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    openssl("req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=club test CA")
    openssl("req", *key, "-keyout", "broker.key", "-out", "broker.csr", "-subj", "/CN=127.0.0.1")
    (folder / "names.cnf").write_text("subjectAltName = IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "broker.crt", "-days", "2", "-extfile", "names.cnf")
    return f"cafile {folder / 'ca.crt'}\ncertfile {folder / 'broker.crt'}\nkeyfile {folder / 'broker.key'}\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto:
    """Mosquitto in ``folder`` with users ``server`` and each of ``tables``."""

    def __init__(self, folder: Path, tables: list[str], tls: bool = False) -> None:
        self.folder, self.port = folder, free_port()
        self.tls_port = free_port() if tls else None
        """With ``tls``, a second listener speaking TLS with a certificate for 127.0.0.1 from ``ca``."""
        self.ca = folder / "ca.crt"
        self.process: subprocess.Popen[bytes] | None = None
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "data").mkdir(exist_ok=True)
        passwords = folder / "passwords"
        for n, user in enumerate(["server", *tables]):
            subprocess.run([_tool("mosquitto_passwd"), *(["-c"] if n == 0 else []), "-b", str(passwords), user,
                            PASSWORD.format(user=user)], check=True, capture_output=True)
        (folder / "acl").write_text(acl(CLUB))
        (folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous false\npassword_file {passwords}\n"
            f"acl_file {folder / 'acl'}\npersistence true\npersistence_location {folder / 'data'}/\n"
            f"autosave_interval 1\nuser {_user()}\nlog_dest file {folder / 'mosquitto.log'}\n"
            + (f"listener {self.tls_port} 127.0.0.1\n{certificates(folder)}" if tls else ""))

    def settings(self, user: str) -> BrokerSection:
        """How ``user`` reaches the broker."""
        return BrokerSection(host="127.0.0.1", port=self.port, username=user, password=PASSWORD.format(user=user))

    def start(self) -> Mosquitto:
        self.process = subprocess.Popen([_tool("mosquitto"), "-c", str(self.folder / "mosquitto.conf")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"mosquitto failed: {self.process.stderr.read().decode()}")  # type: ignore[union-attr]
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not listen within 10 s")

    def stop(self) -> None:
        """Stop it as systemd does (SIGTERM: it saves what it persists)."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if found is None:
        raise RuntimeError(f"{name} is missing: install the Debian package mosquitto (make test does)")
    return found


def _user() -> str:
    """Mosquitto started as root runs as this user: the current one, who owns the test's files."""
    import getpass

    return getpass.getuser()
