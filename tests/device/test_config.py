"""The configuration file: defaults, and one clear message for each kind of mistake."""

import subprocess
import sys
from pathlib import Path

import pytest

from device.config import Config, ConfigError, load, parse


def test_no_file_and_an_empty_file_give_the_defaults() -> None:
    assert load(None) == parse("") == Config()


def test_a_full_file(tmp_path: Path) -> None:
    path = tmp_path / "tablescore.toml"
    path.write_text("""
zones = "/etc/tablescore/zones.toml"
[table]
game = "barbu"
players = ["N", "E", "S", "W"]
[games.barbu]
trump_must_ruff = true
[buttons]
ok = 5
back = 6
next = 13
hold_time = 2
[display]
kind = "ssd1306"
address = 0x3D
[camera]
source = "usb:0"
fps = 15
faces = "dark"
[panel]
port = "/dev/ttyACM0"
[journal]
path = "/var/lib/tablescore/journal.db"
""")
    config = load(path)
    assert config.table.players == ["N", "E", "S", "W"]
    assert config.buttons.hold_time == 2 and config.display.address == 0x3D
    assert config.games == {"barbu": {"trump_must_ruff": True}}
    assert config.zones == "/etc/tablescore/zones.toml"
    assert (config.camera.faces, Config().camera.faces) == ("dark", "light")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[table\n", "not valid TOML"),
        ("[colour]\nx = 1", "[colour]: unknown section"),
        ("[display]\nbrightness = 3", "[display] brightness: unknown setting"),
        ("[display]\nport = 'one'", "[display] port: 'one' is not a whole number"),
        ("[display]\nport = true", "[display] port: True is not a whole number"),
        ("[table]\ngame = 'poker'", "[table] game: 'poker' is not one of"),
        ("[table]\nplayers = ['Ann']", "must be 2 to 4 different names"),
        ("[table]\nplayers = ['Ann', 'Ann']", "must be 2 to 4 different names"),
        ("[table]\nplayers = ['Ann', 3]", "[table] players: ['Ann', 3] is not a list of strings"),
        ("[table]\nplayers = ['', 'Bob', 'Cy', 'Di']", "[table] players: player 1's name is blank"),
        ("[table]\nplayers = ['Ann', '  ']", "[table] players: player 2's name is blank"),
        ("[table]\nplayers = ['Ann', 'Ann ']", "must be 2 to 4 different names"),
        ("[table]\nplayers = ['Ann', \"Bo\\nb\"]", "player 2's name 'Bo\\nb' holds a control character"),
        ("[buttons]\nok = 17\nback = 17", "must be three different BCM pins"),
        ("[camera]\nfaces = 'shiny'", "[camera] faces: 'shiny' is not one of light, dark"),
        ("[games.poker]\nx = 1", "[games.poker]: unknown game"),
        ("table = 3", "[table] must be a table of settings"),
        ("zones = 3", "zones: expected the path"),
    ],
)
def test_each_mistake_names_its_entry(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as error:
        parse(text, "my.toml")
    assert str(error.value).startswith("my.toml: ") and message in str(error.value)


def test_a_games_settings_reach_its_flow() -> None:
    """Barbu's house rule that only the declarer redoubles, set in the file."""
    from device.games import flow_for

    config = parse("[table]\ngame = 'barbu'\nplayers = ['N', 'E', 'S', 'W']\n[games.barbu]\nredoubles = 'declarer'")
    flow = flow_for("barbu", config.table.players, config.games["barbu"])
    assert flow.start(config.table.players, config.games["barbu"]).rules.redoubles == "declarer"
    assert flow.start(config.table.players, {}).rules.redoubles == "any"


def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the configuration .*missing.toml"):
        load(tmp_path / "missing.toml")


def test_a_dice_section_is_loaded_without_the_dice_reader(tmp_path: Path) -> None:
    """``tablescore history`` reads the configuration for its journal: a [dice] section (checked by the
    commands that run the table, tests/device/test_run_command.py) must not load the dice reader and OpenCV
    for it."""
    path = tmp_path / "tablescore.toml"
    path.write_text(f"[journal]\npath = '{tmp_path / 'none.db'}'\n[dice]\nsteady = 0\n")
    code = ("import sys; from device import cli; status = cli.main(['history', 'list', '--config', sys.argv[1]]); "
            "print(status, sorted({'cv2', 'vision.dice', 'vision.dice_tracker'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
    assert done.stdout.split("\n")[-2] == "2 []"  # no journal there (status 2), and none of them loaded
    assert "no journal" in done.stderr
