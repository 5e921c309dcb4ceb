"""``tablescore recognize``, run with a stand-in card reader so it does not depend on the real one's progress
(one test at the end runs the real reader, when vision.cards is there)."""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from device import cli, recognize_command
from scoring.cards import Card
from vision.observations import CardSighting
from vision.zones import Calibration, default_zones


def box(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return ((x - 30, y - 42), (x + 30, y - 42), (x + 30, y + 42), (x - 30, y + 42))


# What the stand-in reader sees, by the blue value of an image's top-left pixel.
SCENES = {
    1: [CardSighting(Card.parse("TH"), (320.0, 440.0), box(320, 440), 0.99),
        CardSighting(None, (320.0, 240.0), box(320, 240), 0.41),
        CardSighting(Card.parse("5C"), (50.0, 40.0), box(50, 40), 0.97)],
    2: [],
    3: [CardSighting(Card.parse("QS"), (30.0, 240.0), box(30, 240), 0.95)],
    4: [CardSighting(Card.parse("QS"), (30.0, 240.0), box(30, 240), 0.95, index_size=30.0)],
    5: [CardSighting(Card.parse("QS"), (30.0, 240.0), box(30, 240), 0.95, index_size=15.0)],
}


def stand_in_reader(frame: np.ndarray) -> list[CardSighting]:
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    scene = int(frame[0, 0, 0])
    if scene == 9:
        raise ZeroDivisionError("a bug in the reader")
    if scene == 8:
        raise FileNotFoundError("card reader model is missing")
    return list(SCENES[scene])


@pytest.fixture(autouse=True)
def reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(recognize_command, "reader", lambda faces: stand_in_reader)


def photo(folder: Path, name: str, scene: int, size: tuple[int, int] = (640, 480)) -> str:
    """A plain wooden-brown table photo whose first pixel names the stand-in scene."""
    image = np.full((size[1], size[0], 3), (60, 110, 160), np.uint8)
    image[0, 0, 0] = scene
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), image)
    return str(path)


def recognize(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = cli.main(["recognize", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_is_one_object_per_image_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deal, empty = photo(tmp_path, "deal.png", 1), photo(tmp_path, "empty.png", 2)
    status, out, err = recognize(capsys, deal, empty, "--json")
    assert (status, err) == (0, "")
    assert [json.loads(line) for line in out.splitlines()] == [
        {"image": deal, "dice": [], "cards": [
            {"card": "TH", "center": [320.0, 440.0], "zone": "seat1.back", "confidence": 0.99,
             "outline": [[290.0, 398.0], [350.0, 398.0], [350.0, 482.0], [290.0, 482.0]]},
            {"card": "??", "center": [320.0, 240.0], "zone": "centre", "confidence": 0.41,
             "outline": [[290.0, 198.0], [350.0, 198.0], [350.0, 282.0], [290.0, 282.0]]},
            {"card": "5C", "center": [50.0, 40.0], "zone": "tray", "confidence": 0.97,
             "outline": [[20.0, -2.0], [80.0, -2.0], [80.0, 82.0], [20.0, 82.0]]},
        ]},
        {"image": empty, "cards": [], "dice": []},
    ]


def test_the_readable_listing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = recognize(capsys, photo(tmp_path, "deal.png", 1), photo(tmp_path, "empty.png", 2))
    assert status == 0
    assert out == (
        f"{tmp_path}/deal.png: 3 cards, 1 unknown\n"
        "  centre       ??        at (320, 240)  41%  unknown: adjust this card\n"
        "  seat1.back   TH  10♥   at (320, 440)  99%\n"
        "  tray         5C  5♣    at (50, 40)  97%\n"
        f"{tmp_path}/empty.png: no cards found\n"
    )


def test_small_indices_get_a_note_for_whoever_places_the_camera(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The indices' size counts as read: 30 px in a 2560-pixel photo are 15 px at the 1280 it is first read at,
    and it is read again in detail, so they are clear; 15 px are small at any scale."""
    near, far, small = (photo(tmp_path, "near.png", 4), photo(tmp_path, "far.png", 4, size=(2560, 1440)),
                        photo(tmp_path, "small.png", 5, size=(2560, 1440)))
    status, out, _ = recognize(capsys, near, far, small, "--json")
    lines = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and "note" not in lines[0] and lines[0]["cards"][0]["index_size"] == 30.0
    assert "note" not in lines[1]
    note = ("index corners 15 px from rank to suit as read (under 18 read less surely): lower the camera or frame "
            "less of the table")
    assert lines[2]["note"] == note
    status, out, _ = recognize(capsys, small)
    assert out.splitlines()[:2] == [f"{small}: 1 card", f"  note: {note}"]


def zones_of(out: str) -> list[str]:
    return [card["zone"] for line in out.splitlines() for card in json.loads(line)["cards"]]


def test_seats_pick_the_default_layout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A card at the middle of the left edge is seat 2's with four seats, and in the centre with two."""
    image = photo(tmp_path, "left.png", 3)
    assert zones_of(recognize(capsys, image, "--json")[1]) == ["seat2.back"]
    assert zones_of(recognize(capsys, image, "--json", "--seats", "2")[1]) == ["centre"]


def test_a_calibration_file_places_the_cards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corners = ((100.0, 0.0), (540.0, 0.0), (640.0, 480.0), (0.0, 480.0))  # a table seen in perspective
    calibration = Calibration(corners, default_zones(3), size=(640, 480))
    calibration.save(tmp_path / "table.toml")
    status, out, _ = recognize(capsys, photo(tmp_path, "deal.png", 1), "--json", "--zones", str(tmp_path / "table.toml"))
    assert status == 0
    assert zones_of(out) == [calibration.zone_at(s.center) for s in SCENES[1]] == ["seat1.back", "centre", None]
    # The same calibration on a photo twice the size: its corners scale with the frame.
    big = photo(tmp_path, "big.png", 1, size=(1280, 960))
    status, out, _ = recognize(capsys, big, "--json", "--zones", str(tmp_path / "table.toml"))
    assert zones_of(out) == [calibration.zone_at((x / 2, y / 2)) for x, y in (s.center for s in SCENES[1])]


def cut(folder: Path, name: str) -> str:
    """A photo of the table cut off at two thirds of its file, as a copy that stopped short leaves it."""
    photo(folder, "whole" + Path(name).suffix, 1)
    raw = (folder / ("whole" + Path(name).suffix)).read_bytes()
    (folder / name).write_bytes(raw[:len(raw) * 2 // 3])
    return str(folder / name)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda folder: str(folder / "missing.png"), "missing.png: no such file"),
        (lambda folder: str(folder), ": is a folder, not an image"),
        (lambda folder: (folder / "notes.png").write_text("not a picture") and str(folder / "notes.png"),
         "notes.png: not an image OpenCV can read"),
        (lambda folder: photo(folder, "bug.png", 9), "bug.png: internal error reading the cards (ZeroDivisionError); "
         "please report it"),
        (lambda folder: photo(folder, "square.png", 1, size=(480, 480)),
         "square.png: the calibration is for 640x480 frames, not 480x480"),
        (lambda folder: cut(folder, "cut.jpg"), "cut.jpg: is cut short: the JPEG ends before its image does"),
        (lambda folder: cut(folder, "cut.png"), "cut.png: is cut short"),
    ],
)
def test_a_bad_image_gets_one_message_and_the_rest_still_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make, message: str  # type: ignore[no-untyped-def]
) -> None:
    Calibration.default(4, size=(640, 480)).save(tmp_path / "table.toml")
    before, after = photo(tmp_path, "before.png", 1), photo(tmp_path, "after.png", 2)
    bad = make(tmp_path)
    status, out, err = recognize(capsys, before, bad, after, "--json", "--zones", str(tmp_path / "table.toml"))
    assert status == 1
    assert [json.loads(line)["image"] for line in out.splitlines()] == [before, after]
    message_lines = [line for line in err.splitlines() if line.startswith("tablescore recognize:")]
    assert len(message_lines) == 1 and message in message_lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--zones", "nowhere.toml"], "nowhere.toml: cannot read the calibration: No such file"),
        (["--zones", "table.toml", "--seats", "2"], "give --zones (a calibration) or --seats"),
        (["--zones", "bad.toml"], "bad.toml: unknown zone 'seat1.top'"),
        (["--draw", "out.txt"], "--draw out.txt: name an image file"),
    ],
)
def test_bad_arguments_stop_before_any_image(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Calibration.default(2, size=(640, 480)).save("table.toml")
    Path("bad.toml").write_text(Path("table.toml").read_text().replace('"seat1.front"', '"seat1.top"'))
    status, out, err = recognize(capsys, photo(tmp_path, "deal.png", 1), *args)
    assert (status, out) == (2, "")
    assert err.startswith("tablescore recognize: ") and message in err and err.count("\n") == 1


def test_a_missing_reader_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(faces: str) -> None:
        raise ModuleNotFoundError("No module named 'vision.cards'")

    monkeypatch.setattr(recognize_command, "reader", missing)
    status, out, err = recognize(capsys, photo(tmp_path, "deal.png", 1))
    assert (status, out) == (2, "")
    assert err == "tablescore recognize: the card reader (vision.cards) is not available: " \
                  "No module named 'vision.cards'\n"


def test_a_reader_that_cannot_load_its_model_stops_the_command(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    images = [photo(tmp_path, "first.png", 2), photo(tmp_path, "second.png", 8), photo(tmp_path, "third.png", 1)]
    status, out, err = recognize(capsys, *images, "--json")
    assert status == 2 and [json.loads(line)["image"] for line in out.splitlines()] == images[:1]
    assert err == "tablescore recognize: the card reader cannot run: card reader model is missing\n"


def test_draw_writes_the_annotated_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = photo(tmp_path, "deal.png", 1)
    status, _, err = recognize(capsys, image, "--draw", str(tmp_path / "drawn.png"))
    assert (status, err) == (0, "")
    drawn, plain = cv2.imread(str(tmp_path / "drawn.png")), cv2.imread(image)
    assert drawn.shape == plain.shape
    b, g, r = (int(v) for v in drawn[430, 290])  # on the left edge of TH's outline: green
    assert g > 150 and g > r + 60 and g > b + 60
    b, g, r = (int(v) for v in drawn[250, 290])  # on the unknown card's outline: red
    assert r > 150 and r > g + 60
    b, g, r = (int(v) for v in drawn[100, 192])  # the centre zone's left edge, x = 0.3 of the width: yellow
    assert r > 150 and g > 130 and b < 100
    assert np.array_equal(drawn[345:470, 10:180], plain[345:470, 10:180])  # the free corner: untouched
    assert recognize(capsys, image, "--draw", str(tmp_path / "drawn.jpg"))[0] == 0
    assert cv2.imread(str(tmp_path / "drawn.jpg")).shape == plain.shape


def test_draw_with_several_images_fills_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    images = [photo(tmp_path, "a/deal.png", 1), photo(tmp_path, "b/deal.png", 2), photo(tmp_path, "left.bmp", 3)]
    status, _, err = recognize(capsys, *images, "--draw", str(tmp_path / "drawn"))
    assert (status, err) == (0, "")
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == [
        "deal-recognized-2.png", "deal-recognized.png", "left-recognized.png"]
    assert cv2.imread(str(tmp_path / "drawn" / "deal-recognized.png")).shape == (480, 640, 3)
    (tmp_path / "file.png").write_bytes(b"")
    status, _, err = recognize(capsys, *images, "--draw", str(tmp_path / "file.png"))
    assert status == 2 and "with several images, OUT is a folder" in err


def test_draw_into_an_existing_folder_for_one_image(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out").mkdir()
    assert recognize(capsys, photo(tmp_path, "deal.png", 1), "--draw", str(tmp_path / "out"))[0] == 0
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["deal-recognized.png"]


def test_the_command_runs_as_a_program(tmp_path: Path) -> None:
    image = photo(tmp_path, "deal.png", 1)
    code = ("import sys; from device import cli, recognize_command; "
            "from tests.device.test_recognize_command import stand_in_reader; "
            "recognize_command.reader = lambda faces: stand_in_reader; "
            "sys.exit(cli.main(sys.argv[1:]))")
    done = subprocess.run([sys.executable, "-c", code, "recognize", image, str(tmp_path / "gone.png"), "--json"],
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[2])
    assert done.returncode == 1
    assert [card["card"] for card in json.loads(done.stdout)["cards"]] == ["TH", "??", "5C"]
    assert done.stderr == f"tablescore recognize: {tmp_path}/gone.png: no such file\n"


@pytest.mark.skipif(importlib.util.find_spec("vision.cards") is None, reason="vision.cards is not written yet")
def test_the_real_reader_on_an_empty_table(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Wired to vision.cards.read_cards: a bare table gives a well-formed answer with no phantom cards."""
    monkeypatch.undo()
    image = photo(tmp_path, "bare.png", 2, size=(1280, 720))
    status, out, err = recognize(capsys, image, "--json")
    assert (status, err) == (0, "")
    assert json.loads(out) == {"image": image, "cards": [], "dice": []}
