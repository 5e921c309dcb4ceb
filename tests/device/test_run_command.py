"""`tablescore run` refuses what it cannot use with one clear message and exit status 2 (the unit's
RestartPreventExitStatus), before touching any hardware. Running it for real is tests/systemd/test_service.py."""

import sys
from pathlib import Path

import pytest

from device import cli


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[display]\nkind = 'lcd'", "[display] kind: 'lcd' is not one of"),
        ("zones = '/no/such/zones.toml'", "cannot read the calibration"),
        ("[games.cribbage]\ntarget = 'lots'", "[games.cribbage] the game is to 121 or 61 points, not lots"),
        ("[table]\ngame = 'barbu'\nplayers = ['N', 'E', 'S', 'W']\n[games.barbu]\nredoubles = 'nobody'",
         "[games.barbu] Barbu setting 'redoubles' is \"any\" or \"declarer\", not 'nobody'"),
        ("[dice]\nsteady = 0", "[dice] dice tracker setting 'steady' must be a whole number of at least 1, not 0"),
        ("[dice]\nnear = -1.5", "[dice] dice tracker setting 'near' must be a positive distance, not -1.5"),
    ],
)
def test_a_configuration_it_cannot_use_is_named_and_exits_2(tmp_path: Path, text: str, message: str,
                                                            capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # where the emulated OLED (the default display) draws why
    path = tmp_path / "tablescore.toml"
    path.write_text(text)
    assert cli.main(["run", "--config", str(path)]) == 2
    assert message in capsys.readouterr().err
    assert list((tmp_path / "oled-frames").glob("*.png")) or "[display]" in text


def test_the_emulated_display_without_its_extra_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "luma.emulator.device", None)  # a plain install: no luma.emulator
    path = tmp_path / "tablescore.toml"
    path.write_text(f"[display]\nkind = 'emulator'\nfolder = '{tmp_path / 'frames'}'\n"
                    f"[journal]\npath = '{tmp_path / 'tablescore.db'}'\n")
    assert cli.main(["run", "--config", str(path)]) == 2
    assert "needs luma.emulator, which is not installed: pip install 'tablescore[emulator]'" in capsys.readouterr().err


def test_a_missing_configuration_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--config", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read the configuration" in capsys.readouterr().err
