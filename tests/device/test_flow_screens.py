"""Golden-image tests of the pages each game's flow shows on the OLED: scripted tables (cards laid and
read, buttons pressed) drive each flow through its screens, every page is drawn by the device's own
display path (``device.display.Display`` on luma's dummy 128x64 device) and compared pixel for pixel with
its PNG in tests/device/golden/flows/: waiting for cards, what was seen, the itemised scores page by page,
running totals, confirmations and undo, refusals and unread cards, and the winner.

After a deliberate change, look at the new images and refresh them (stale ones are removed) with
TABLESCORE_UPDATE_GOLDEN=1 pytest tests/device/test_flow_screens.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from device.display import Display, open_device
from device.screens import HEIGHT, WIDTH, paged
from tests.device.flows.script import Table
from tests.device.games_played import GAMES

GOLDEN = Path(__file__).parent / "golden" / "flows"
UPDATE = bool(os.environ.get("TABLESCORE_UPDATE_GOLDEN"))


class Shots:
    """The pages a game's scripted tables show, as the OLED draws them, named in order."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.display = Display(open_device("dummy"))
        self.taken: dict[str, Image.Image] = {}

    def __call__(self, table: Table, name: str, every_page: bool = False) -> None:
        """The page shown now and, with ``every_page``, each further page NEXT turns to (it stays on the
        last, where OK still confirms the first option)."""
        pages = len(paged(table.play.screen())) if every_page else 1
        assert pages > 1 or not every_page, f"{name} has one page"
        for page in range(1, pages + 1):
            if page > 1:
                table.press("next")
            self.display.show(table.play.view())
            image = self.display.device.image
            assert image.size == (WIDTH, HEIGHT)
            self.taken[f"{self.game}-{len(self.taken) + 1:02}-{name}" + (f"-p{page}" if pages > 1 else "")] = image.copy()

    def check(self) -> None:
        """Each page against its golden image (rewritten under TABLESCORE_UPDATE_GOLDEN); none left over."""
        GOLDEN.mkdir(exist_ok=True)
        if UPDATE:
            for stale in GOLDEN.glob(f"{self.game}-*.png"):
                stale.unlink()
            for name, image in self.taken.items():
                image.convert("1").save(GOLDEN / f"{name}.png", optimize=True)
        differ = [name for name, image in self.taken.items()
                  if not (GOLDEN / f"{name}.png").exists() or ImageChops.difference(
                      image.convert("L"), Image.open(GOLDEN / f"{name}.png").convert("L")).getbbox() is not None]
        assert not differ, f"pages differ from their golden images: {differ}"
        assert {path.stem for path in GOLDEN.glob(f"{self.game}-*.png")} == set(self.taken)


def finished(tmp_path: Path, game: str, players: list[str], settings: dict[str, Any] | None = None) -> Table:
    """A whole game played at the table (as the history tests play it), and the device restarted on it:
    the winner's page."""
    path = tmp_path / f"{game}-finished.db"
    GAMES[game](path)
    return Table(path, game, players, settings)


def test_cribbage_pages(tmp_path: Path) -> None:
    shot = Shots("cribbage")
    table = Table(tmp_path / "j.db", "cribbage", ["Ann", "Bob"])
    shot(table, "who-deals")
    table.choose("Bob deals")
    shot(table, "turn-the-starter")
    table.put("starter", "JD")
    shot(table, "starter-his-heels")
    table.ok()
    table.put("seat2", "5H")
    shot(table, "out-of-turn")
    table.take("5H")
    [track] = table.put("seat1", "??")
    shot(table, "card-not-read")
    table.read(track, "KS")
    shot(table, "card-read")
    table.ok()
    for seat, code in [(2, "TH"), (1, "9S")]:
        table.put(f"seat{seat}", code)
        table.ok()
    table.put("seat2", "6D")
    shot(table, "a-go-from-the-order-of-play")
    table.ok()
    table.panel(2)
    shot(table, "refused-go")
    for seat, code in [(1, "AC"), (2, "8D"), (1, "5H"), (2, "9H")]:
        table.put(f"seat{seat}", code)
        table.ok()
    shot(table, "show-pone", every_page=True)
    table.ok()
    shot(table, "show-dealer", every_page=True)
    table.ok()
    shot(table, "turn-the-crib")
    table.put("crib", "KH KD 2C 3C")
    shot(table, "crib", every_page=True)
    table.ok()
    shot(table, "next-hand")
    table.undo()
    shot(table, "undone")
    shot(finished(tmp_path, "cribbage", ["Ann", "Bob"]), "winner")
    shot.check()


def test_gin_pages(tmp_path: Path) -> None:
    shot = Shots("gin")
    table = Table(tmp_path / "j.db", "gin", ["Ann", "Bob"])
    shot(table, "knock-or-dead")
    table.panel(1)
    table.put("seat1", "5H 6H 7H 8H 9H KS KH KD 2C 3D")
    [unread] = table.put("seat2", "TH JH 4H 2S 2D 2H 9C 9D 9S", "??")[-1:]
    shot(table, "lay-out-a-card-not-read")
    table.read(unread, "KD")
    shot(table, "card-used-twice")
    table.read(unread, "QC")
    shot(table, "settlement-lay-offs", every_page=True)
    table.ok()
    shot(table, "scored")
    table.undo()
    shot(table, "undone")
    illegal = Table(tmp_path / "k.db", "gin", ["Ann", "Bob"], {"knock_limit": 4})
    illegal.panel(1)
    illegal.put("seat1", "5H 6H 7H 8H 9H KS KH KD 2C 3D")
    illegal.put("seat2", "TH JH 4H 2S 2D 2H 9C 9D 9S QC")
    shot(illegal, "illegal-knock", every_page=True)
    illegal.press("next")  # on the last page NEXT moves to the second option
    shot(illegal, "illegal-knock-refuse")
    illegal.ok()
    shot(illegal, "knock-refused")
    shot(finished(tmp_path, "gin", ["Ann", "Bob"], {"limit": 100}), "winner")
    shot.check()


def test_barbu_pages(tmp_path: Path) -> None:
    shot = Shots("barbu")
    names = ["N", "E", "S", "W"]
    table = Table(tmp_path / "j.db", "barbu", names)
    shot(table, "who-deals")
    table.choose("N deals")
    shot(table, "contracts")
    table.choose("No King of ♥")
    shot(table, "doubling")
    table.panel(2)
    table.panel(1)
    shot(table, "doubled-and-redoubled", every_page=True)
    table.press("next")
    shot(table, "redouble-offered")
    table.put("centre", "2C 5C AC")
    shot(table, "trick-3-of-4")
    table.put("centre", "3D")
    shot(table, "trick")
    table.ok()
    table.put("centre", "4S")
    shot(table, "next-trick")
    owed = Table(tmp_path / "k.db", "barbu", names, {"doubles_owed": 7})
    owed.choose("N deals")
    owed.choose("No Tricks")
    owed.put("centre", "2C 5C AC 3D")
    shot(owed, "must-double")
    dominoes = Table(tmp_path / "l.db", "barbu", names)
    dominoes.choose("N deals")
    dominoes.choose("Dominoes from J")
    dominoes.put("centre", "JS")
    dominoes.ok()
    dominoes.panel(2, kind="hold")  # E cannot lay
    shot(dominoes, "dominoes-layout")
    dominoes.panel(2, kind="hold")
    shot(dominoes, "dominoes-out-of-turn")
    shot(finished(tmp_path, "barbu", names), "winner")
    defenders = Table(tmp_path / "m.db", "barbu", names)
    defenders.choose("N deals")
    defenders.choose("No Queens")
    defenders.choose("S doubles W")
    while defenders.shown()[0] != "OK: W redoubles S":
        defenders.press("next")
    shot(defenders, "redouble-offered-to-w")
    defenders.panel(4)  # W, not the declarer, redoubles S with their Action
    shot(defenders, "redoubled-by-w", every_page=True)
    alike = Table(tmp_path / "n.db", "barbu", ["Ann", "Andy", "Bob", "Ben"])
    alike.choose("Ann deals")
    alike.choose("No Queens")
    alike.put("centre", "2C 5C AC 3D")
    alike.ok()
    shot(alike, "names-that-begin-alike")
    shot.check()


def test_ofc_pages(tmp_path: Path) -> None:
    shot = Shots("ofc")
    table = Table(tmp_path / "j.db", "ofc", ["Ann", "Bob"])
    table.put("seat1.front", "QS QH 7D")
    table.put("seat1.middle", "QD QC 9S 8S 2S")
    table.put("seat1.back", "AS AH AD 2H 2D")
    table.put("seat2.front", "KS KH 7H")
    [odd] = table.put("seat2.middle", "KD KC 6S 5S ??")[-1:]
    shot(table, "setting-a-card-not-read")
    table.read(odd, "QS")
    table.put("seat2.back", "3S 3H 3D 2C 8D")
    shot(table, "card-used-twice")
    table.read(odd, "4S")
    shot(table, "settlement", every_page=True)
    table.ok()
    shot(table, "fantasyland-next-hand")
    table.undo()
    shot(table, "undone")
    shot.check()


def test_pinzique_pages(tmp_path: Path) -> None:
    shot = Shots("pinzique")
    table = Table(tmp_path / "j.db", "pinzique", ["Ann", "Bob"], {"rounds": 1})
    shot(table, "roll-into-the-tray")
    table.dice("QS QH QD QC JS KH KC ??")
    shot(table, "die-not-read")
    table.dice("QH QH QH 9C TC JH QC KS")
    shot(table, "impossible-roll")
    table.dice("QS QH QD QC JS KH KC 9S")
    shot(table, "roll")
    table.ok()
    shot(table, "stand-or-roll")
    table.ok()
    table.dice("QS QH QD QC QH KH KD JS")
    table.ok()
    shot(table, "second-side")
    table.choose("Bob stands")
    shot(table, "round-settled-takeaways", every_page=True)
    table.undo()
    shot(table, "undone")
    shot(finished(tmp_path, "pinzique", ["Ann", "Bob", "Cy", "Di"], {"partners": True, "rounds": 3}), "winner")
    shot.check()


@pytest.mark.parametrize("game", ["barbu", "cribbage", "gin", "ofc", "pinzique"])
def test_each_golden_page_is_a_small_one_bit_oled_frame(game: str) -> None:
    pages = sorted(GOLDEN.glob(f"{game}-*.png"))
    assert len(pages) >= 5
    for page in pages:
        image = Image.open(page)
        assert image.size == (WIDTH, HEIGHT) and image.mode == "1" and page.stat().st_size < 1500, page
