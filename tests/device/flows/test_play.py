"""Play: a journal that cannot be written refuses the confirmation and says why, with the state as it
was; the seat panel's Confirm held is undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.journal import JournalError
from device.screens import paged
from tests.device.flows.script import Table


def test_a_failed_write_is_shown_and_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path / "j.db", "cribbage", ["Ann", "Bob"])
    before = table.play.state

    def full(*args: object) -> int:
        raise JournalError("cannot write the journal: database or disk is full")

    monkeypatch.setattr(table.journal, "append", full)
    table.press("ok")
    assert table.play.state == before
    assert table.lines()[1] == "! cannot write the journal: database or disk is full"


def test_panel_confirm_held_undoes_and_settled_boards_are_set_aside(tmp_path: Path) -> None:
    table = Table(tmp_path / "j.db", "ofc", ["Ann", "Bob"])
    rows = {"seat1.front": "QS QH 7D", "seat1.middle": "QD QC 9S 8S 2S", "seat1.back": "AS AH AD 2H 2D",
            "seat2.front": "KS KH 7H", "seat2.middle": "KD KC 6S 5S 4S", "seat2.back": "3S 3H 3D 2C 8D"}
    for zone, codes in rows.items():
        table.put(zone, codes)
    table.panel(2, "confirm")
    assert table.play.state.totals == (19, -19)
    table.panel(2, "confirm", "hold")
    assert table.play.state.totals == (0, 0)
    table.ok()
    assert table.lines()[0].startswith("setting: Ann 0/0/0")  # the settled boards are set aside


def illegal_knock(path: Path) -> Table:
    """Ann knocks with deadwood 5 over a knock limit of 4: Bob accepts or refuses, having read it all."""
    table = Table(path, "gin", ["Ann", "Bob"], {"knock_limit": 4})
    table.panel(1)
    table.put("seat1", "5H 6H 7H 8H 9H KS KH KD 2C 3D")
    table.put("seat2", "TH JH 4H 2S 2D 2H 9C 9D 9S QC")
    return table


def test_next_turns_every_page_then_the_options_and_ok_confirms_the_one_shown(tmp_path: Path) -> None:
    table = illegal_knock(tmp_path / "j.db")
    screen = table.play.screen()
    pages = paged(screen)
    assert len(pages) >= 4 and screen.lines[0] == "OK: Bob accepts  (1/2)"
    shown = []
    for number in range(1, len(pages) + 1):
        page = table.play.view()
        assert page.footer == f"{number}/{len(pages)}" and page.lines[:page.head] == pages[0].lines[:page.head]
        shown += page.lines[page.head:]
        table.press("next")
    assert shown == [line for page in pages for line in page.lines[page.head:]]  # every line of the settlement
    assert "Bob deadwood 34:" in shown
    page = table.play.view()  # NEXT on the last page moved the option; the page stayed
    assert page.footer == f"{len(pages)}/{len(pages)}" and table.lines()[0] == "OK: Bob refuses  (2/2)"
    table.press("next")  # after the last option: page 1 and the first option
    assert table.play.view().footer == f"1/{len(pages)}" and table.lines()[0] == "OK: Bob accepts  (1/2)"
    table.press("back")  # BACK walks the same ring backwards
    assert table.play.view().footer == f"{len(pages)}/{len(pages)}" and table.lines()[0] == "OK: Bob refuses  (2/2)"
    table.press("back")
    assert table.play.view().footer == f"{len(pages)}/{len(pages)}" and table.lines()[0] == "OK: Bob accepts  (1/2)"
    table.press("back")
    assert table.play.view().footer == f"{len(pages) - 1}/{len(pages)}"
    table.ok()  # OK on any page confirms the option its head shows
    assert table.play.state.score.points == (5, 0) and table.play.view().footer.startswith("1/")  # page 1 again


def test_next_and_back_held_go_straight_to_the_next_and_the_previous_option(tmp_path: Path) -> None:
    """A long choice is quick once its pages are known: held, NEXT and BACK move to the next and the
    previous option at once, round the same ring as their presses."""
    table = Table(tmp_path / "j.db", "barbu", ["Ann", "Bob", "Cy", "Di"])
    table.choose("Ann deals")  # and declares, with the standing to read and 22 contracts to choose from
    pages = len(paged(table.play.screen()))
    assert pages > 1 and table.lines()[0] == "OK: No Tricks  (1/22)"
    table.press("next", held=True)
    assert table.play.view().footer == f"{pages}/{pages}" and table.lines()[0] == "OK: No Queens  (2/22)"
    table.press("next", held=True)
    assert table.lines()[0] == "OK: No Last Trick  (3/22)"
    table.press("back", held=True, times=2)
    assert table.play.view().footer == f"{pages}/{pages}" and table.lines()[0] == "OK: No Tricks  (1/22)"
    table.press("back", held=True)  # before the first option: the last, as BACK from page 1
    assert table.play.view().footer == f"{pages}/{pages}" and table.lines()[0] == "OK: Dominoes from 2  (22/22)"
    table.press("next", held=True)  # after the last option: page 1 and the first
    assert table.play.view().footer == f"1/{pages}" and table.lines()[0] == "OK: No Tricks  (1/22)"
    table.press("next")
    table.press("next", held=True)  # from any page
    table.ok()
    assert table.play.state.contract.title == "No Queens"


def test_ok_on_the_first_page_confirms_the_first_option_and_a_refusal_heads_every_page(tmp_path: Path) -> None:
    table = illegal_knock(tmp_path / "j.db")
    table.press("back")
    table.ok()  # Bob refuses from the last page
    assert table.play.state.knocker is None and table.play.state.hands == ()
    table.undo()
    table.ok()  # page 1, the first option: Bob accepts
    assert table.play.state.score.points == (5, 0)
    table.undo()
    table.press("next", 2)
    table.play.flow.error = "it is Bob's turn"  # as a refused confirmation leaves it
    page = table.play.view()
    assert page.lines[:page.head] == ("OK: Bob accepts ", "(1/2)", "! it is Bob's turn")
