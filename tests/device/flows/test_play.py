"""Play: a journal that cannot be written refuses the confirmation and says why, with the state as it
was; the seat panel's Confirm held is undo."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from device.flows.flow import Flow, Option, Prompt
from device.inputs import Press
from device.journal import JournalError
from device.screens import paged, wrap
from scoring.cards import Suit
from scoring.events import Event, Record
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
    assert len(pages) >= 3 and (screen.lines[0], screen.choice) == ("OK: Bob accepts", "1/2")
    shown = []
    for number in range(1, len(pages) + 1):
        page = table.play.view()
        assert page.footer == f"{number}/{len(pages)}" and page.lines[:page.head] == pages[0].lines[:page.head]
        shown += page.lines[page.head:]
        table.press("next")
    assert shown == [line for page in pages for line in page.lines[page.head:]]  # every line of the settlement
    assert "Bob deadwood 34:" in shown
    page = table.play.view()  # NEXT on the last page moved the option; the page stayed
    assert page.footer == f"{len(pages)}/{len(pages)}" and table.shown() == ("OK: Bob refuses", "2/2")
    table.press("next")  # after the last option: page 1 and the first option
    assert table.play.view().footer == f"1/{len(pages)}" and table.shown() == ("OK: Bob accepts", "1/2")
    table.press("back")  # BACK walks the same ring backwards
    assert table.play.view().footer == f"{len(pages)}/{len(pages)}" and table.shown() == ("OK: Bob refuses", "2/2")
    table.press("back")
    assert table.play.view().footer == f"{len(pages)}/{len(pages)}" and table.shown() == ("OK: Bob accepts", "1/2")
    table.press("back")
    assert table.play.view().footer == f"{len(pages) - 1}/{len(pages)}"
    table.ok()  # OK on any page confirms the option its head shows
    assert table.play.state.score.points == (5, 0) and table.play.view().footer.startswith("1/")  # page 1 again


def test_next_and_back_held_go_straight_to_the_next_and_the_previous_option(tmp_path: Path) -> None:
    """A long choice is quick once its pages are known: held, NEXT and BACK move to the next and the
    previous option at once, round the same ring as their presses."""
    table = barbu_sixth_hand(tmp_path / "j.db")  # E declares: several pages to read, then 17 contracts
    pages = len(paged(table.play.screen()))
    assert pages > 1 and table.shown() == ("OK: Trumps ♠", "1/17")
    table.press("next", held=True)
    assert table.play.view().footer == f"{pages}/{pages}" and table.shown() == ("OK: Trumps ♥", "2/17")
    table.press("next", held=True)
    assert table.shown() == ("OK: Trumps ♦", "3/17")
    table.press("back", held=True, times=2)
    assert table.play.view().footer == f"{pages}/{pages}" and table.shown() == ("OK: Trumps ♠", "1/17")
    table.press("back", held=True)  # before the first option: the last, as BACK from page 1
    assert table.play.view().footer == f"{pages}/{pages}" and table.shown() == ("OK: Dominoes from 2", "17/17")
    table.press("next", held=True)  # after the last option: page 1 and the first
    assert table.play.view().footer == f"1/{pages}" and table.shown() == ("OK: Trumps ♠", "1/17")
    table.press("next")
    table.press("next", held=True)  # from any page
    table.ok()
    assert table.play.state.trump is Suit.HEARTS


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
    assert page.lines[:page.head] == ("OK: Bob accepts", "! it is Bob's turn") and page.choice == "1/2"


def barbu_sixth_hand(path: Path) -> Table:
    """The scripted Barbu game (tests/device/games_played.py) up to hand 6: E declares, with 17 contracts left
    (Trumps in each suit, Dominoes from each rank) after a Dominoes hand with 3 irregularities."""
    from scoring.barbu_game import Game
    from tests.device.flows.test_barbu import NAMES, play_hand

    table = Table(path, "barbu", NAMES)
    table.choose("E deals")
    game, rng = Game(first_dealer=1), random.Random(28)
    while len(game.hands) < 5:
        game = game.record(play_hand(table, game, rng))
    assert game.declarer == 1 and len(game.hands[-1].irregularities) == 3
    return table


@dataclass(frozen=True)
class Add:
    """The toy game's event: ``n`` more."""

    n: int

    def record(self) -> Record:
        return "add", {"n": self.n}


class Steps(Flow[int]):
    """A toy game whose two options' OK lines wrap to different heights."""

    name = "steps"

    def start(self, players: list[str], settings: dict[str, Any]) -> int:
        return 0

    def apply(self, state: int, event: Event) -> int:
        assert isinstance(event, Add)
        return state + event.n

    def decode(self, kind: str, data: Mapping[str, Any]) -> Add:
        return Add(data["n"])

    def prompt(self, state: int) -> Prompt:
        return Prompt("Steps", big=str(state), lines=tuple(f"line {n}" for n in range(12)),
                      options=(Option("add 1", Add(1)), Option("add a great many, far more than one", Add(9))))


def pages_of_each_option(flow: Flow[Any], state: Any) -> list[list[tuple[str | None, tuple[str, ...]]]]:
    """Each option's pages (footer and lines below what OK would confirm), stepping the options with NEXT
    held: the pages NEXT turns through before the options, and the last page it steps them on."""
    seen = []
    for _ in flow.prompt(state).options:
        screen = flow.screen(state)
        seen.append([(page.footer, page.lines[page.head:]) for page in paged(screen)])
        flow.press(state, Press("next", held=True))
    return seen


def test_the_page_breaks_never_depend_on_the_option_shown(tmp_path: Path) -> None:
    """Options whose OK lines wrap to different heights give the same pages: the OK line is as tall for
    each, so NEXT steps the options on a fixed last page; so do the 17 contracts of a Barbu choice."""
    flow = Steps(["Ann", "Bob"], {})
    heights = [len(wrap(f"OK: {option.label}")) for option in flow.prompt(0).options]
    assert heights[0] == 1 < heights[1]
    first, second = pages_of_each_option(flow, 0)
    assert first == second and len(first) > 2
    table = barbu_sixth_hand(tmp_path / "j.db")
    contracts = pages_of_each_option(table.play.flow, table.play.state)
    assert len(contracts) == 17 and all(pages == contracts[0] for pages in contracts)


def test_a_long_barbu_choice_takes_few_pages(tmp_path: Path) -> None:
    """The contract choice after a hand with irregularities: the score on page 1 only and a one-line OK
    line (drawn tall) leave room for 2 lines of the hand on page 1 and 4 on each further page (fewer where
    a wrapped line goes whole to the next; 14 pages before). The title ('E declares') fits beside the
    option's counter (1/17): the page is a bar at the right edge."""
    table = barbu_sixth_hand(tmp_path / "j.db")
    pages = paged(table.play.screen())
    assert len(pages) <= 8 and pages[0].big and not any(page.big for page in pages[1:])
    assert all(page.head == page.tall == 1 and page.lines[0].startswith("OK: ") for page in pages)
    assert all(page.bar == ("E declares",) for page in pages)
    assert len(pages[0].lines) == 3 and all(4 <= len(page.lines) <= 5 for page in pages[1:-1])
