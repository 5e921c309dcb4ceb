"""Golden-image tests of the OLED screens: each screen is drawn and compared pixel for pixel with its
PNG in tests/device/golden/. After a deliberate change, look at the new images and refresh them with
TABLESCORE_UPDATE_GOLDEN=1 pytest tests/device/test_screens.py."""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from device.display import Display, open_device
from device.screens import GLASSES, Screen, paged, render, use_glass

GOLDEN = Path(__file__).parent / "golden"

SCREENS = {
    "show": Screen("Cribbage: show", big="Ann 29",
                   lines=("15 two: 5♥ 5♣ 5♦  +2", "double pair royal +12", "his nobs: J♠  +1")),
    "totals": Screen("Barbu: totals", lines=("N  45", "E -20", "S  10", "W -35")),
    "long-title": Screen("Open-Face Chinese Poker settlement", lines=("A +7  B -3  C -4",), footer="2/3"),
    "title-in-two-rows": Screen("Bob: No King of ♥", lines=("OK: Ann doubles Bob", "N 0  E 0  S 0  W 0"),
                                choice="2/3", footer="1/2"),
    "error": Screen("Unknown card", lines=("seat 2: a card I", "cannot read.", "Move it, then OK.")),
    "lay": Screen("Cribbage: the play", big="20 · 15", head=2, tall=1, choice="1/3",
                  lines=("OK: Bob lays J♣", "! it is Bob's turn", "Ann: go 1", "Bob: play 2", "count 31")),
}


@pytest.fixture(params=sorted(GLASSES))
def glass(request: pytest.FixtureRequest) -> Iterator[str]:
    """Screens drawn for each size of OLED, then for the default again."""
    use_glass(request.param)
    yield request.param
    use_glass("1.3")


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_golden_image(name: str, glass: str) -> None:
    image = render(paged(SCREENS[name])[0])
    path = GOLDEN / (f"{name}.png" if glass == "1.3" else f"{name}-{glass}.png")
    if os.environ.get("TABLESCORE_UPDATE_GOLDEN"):
        image.save(path)
    golden = Image.open(path).convert("L")
    assert ImageChops.difference(image.convert("L"), golden).getbbox() is None, f"{name} differs from {path}"


def test_on_the_small_glass_every_line_is_tall_and_a_page_holds_fewer(glass: str) -> None:
    pages = paged(Screen("Show", lines=("OK: Ann shows 8", *(f"item {n}" for n in range(6))), head=1, tall=1))
    rows = {"1.3": [4, 2], "0.96": [2, 2, 2]}[glass]  # below the tall OK line: 8 px rows, or 16 px
    assert [len(page.lines) - 1 for page in pages] == rows
    assert all(page.lines[0] == "OK: Ann shows 8" and page.tall == 1 for page in pages)


def test_long_breakdowns_page_and_wrap() -> None:
    screen = Screen("Show", big="24", lines=tuple(f"fifteen {n}: 4♥ 5♠ 6♦ and so on" for n in range(8)))
    pages = paged(screen)
    assert len(pages) > 2 and all(len(page.lines) <= page.room for page in pages)
    assert pages[-1].footer == f"{len(pages)}/{len(pages)}"


def test_a_long_title_takes_a_second_row_of_the_bar_not_a_line_of_text() -> None:
    short, long = (Screen(title, lines=tuple(f"item {n}" for n in range(11))) for title in ("Show", "Show " * 8))
    assert len(short.bar) == 1 and len(long.bar) == 2 and long.room == short.room - 1
    assert [len(page.lines) for page in paged(long)] == [5, 5, 1]  # three pages, each of the same room
    assert all(len(page.bar) == 2 for page in paged(long)) and " ".join(long.bar).startswith("Show Show Show")


def test_paging_a_page_gives_the_page() -> None:  # the display pages what a flow paged already
    for screen in SCREENS.values():
        for page in paged(screen):
            assert paged(page) == [page]


def test_a_fault_retried_again_and_again_shows_each_page_of_its_message_in_turn(glass: str) -> None:
    display = Display(open_device("dummy"))
    fault = Screen("Camera: retrying", lines=("the calibration is for 1280x720 frames, not 640x480: calibrate for "
                                              "this camera setting",))
    shown = []
    for _ in range(4):
        display.cycle(fault)
        shown.append(display.page)
    assert shown == {"1.3": [0, 0, 0, 0], "0.96": [0, 1, 0, 1]}[glass]  # 6 rows fit one page; 16 px rows, two
    display.cycle(Screen("Camera: retrying", lines=("another message",)))
    assert display.page == 0


def test_the_display_turns_pages_and_survives_bus_errors() -> None:
    display = Display(open_device("dummy"))
    display.show(Screen("Show", lines=tuple(str(n) for n in range(13))))
    first = display.device.image
    display.turn()
    assert display.page == 1 and display.device.image != first

    def broken(image: Image.Image) -> None:
        raise OSError(121, "Remote I/O error")

    real = display.device.display
    display.device.display = broken
    display.turn()
    assert display.fault == "OLED: [Errno 121] Remote I/O error"
    display.device.display = real
    display.turn()
    assert display.fault is None


def test_the_emulator_writes_png_frames(tmp_path: Path) -> None:
    display = Display(open_device("emulator", folder=tmp_path))
    display.show(SCREENS["show"])
    display.show(SCREENS["totals"])
    frames = sorted(tmp_path.glob("*.png"))
    assert [Image.open(frame).size for frame in frames] == [(128, 64)] * 2


def test_unknown_display_kind() -> None:
    with pytest.raises(ValueError, match="unknown display kind 'lcd'"):
        open_device("lcd")
