"""What every game flow shares: the table it sees, the choices it offers, and how buttons pick one.

A game's flow has two halves. Its ``rules`` are pure: ``start`` and ``apply`` fold confirmed events
(typed, frozen: ``scoring.events.Event``) into the game's state, raising ``RuleError`` for an impossible
event, and ``decode`` reads an event back from the journal, so a ``device.session.Session`` can journal them
and replay them after a power cut. Its ``prompt`` looks at
the confirmed state and the table (``TableView``) and says what it sees: a ``Prompt`` with the score,
itemised lines, and the ``Option`` events a person may confirm. Nothing is confirmed by looking: a person
presses OK. A long screen is paged (the big score on page 1 only), and every page begins with what OK would
confirm, as tall whichever option is shown (so the page breaks never move as NEXT steps the options), with
which option it is (``2/17``) boxed in the title bar, and which page as a bar at the right edge. NEXT walks forward
through everything there is to see and choose: the pages first, then, on the last page, each further
option; after the last option it is back to page 1 and the first option. BACK walks the same way back.
So OK on page 1 confirms the first option, and every page can be read before choosing. Held, NEXT goes
straight to the next option and BACK to the previous one, past the pages between: a long choice (a Barbu
contract) is quick once its pages are known. (A misread card can also be moved so that it is read again:
the options follow the table.) A seat panel's Confirm is OK; its Action means what the game says.

>>> from dataclasses import dataclass
>>> from device.inputs import Button, Press
>>> @dataclass(frozen=True)
... class Add:
...     n: int
...     def record(self): return "add", {"n": self.n}
>>> class Count(Flow[int]):
...     "A toy game: confirm how many cards lie in the centre."
...     name = "count"
...     def start(self, players, settings): return 0
...     def apply(self, state, event): return state + event.n
...     def decode(self, kind, data): return Add(data["n"])
...     def prompt(self, state):
...         n = len(self.table.cards("centre"))
...         return Prompt("Count", big=str(state), options=(Option(f"add {n}", Add(n)), Option("add 1", Add(1))))
>>> flow = Count(["Ann", "Bob"], {})
>>> flow.screen(0)
Screen(title='Count', lines=('OK: add 0',), big='0', footer=None, head=1, choice='1/2', tall=1)
>>> flow.press(0, Press(Button.NEXT, held=False)), flow.press(0, Press(Button.OK, held=False))
(None, Add(n=1))
>>> flow.press(0, Press(Button.NEXT, held=False)), flow.view(0).lines, flow.view(0).choice  # after the last: the first
(None, ('OK: add 0',), '1/2')
>>> flow.press(0, Press(Button.NEXT, held=True)), flow.view(0).lines, flow.view(0).choice  # held: the next at once
(None, ('OK: add 1',), '2/2')
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from device.flows.table import TableView
from device.inputs import Button, Press
from device.screens import Screen, paged, wrap
from scoring.errors import RuleError
from scoring.events import Event

State = TypeVar("State")

@dataclass(frozen=True)
class Option:
    """One event a person may confirm, with the words the screen shows for it."""

    label: str
    event: Event


@dataclass(frozen=True)
class Prompt:
    """What a flow shows: a title, the score (big), itemised lines, and the options OK may confirm."""

    title: str
    big: str | None = None
    lines: tuple[str, ...] = ()
    options: tuple[Option, ...] = ()


def totals(scores: Iterable[int]) -> str:
    """The big line of the running totals, the same in every game, a minus sign never taken for a
    separator.

    >>> totals([20, 15]), totals([29, -29]), totals([130, 35, 0])
    ('20 · 15', '29 · -29', '130 · 35 · 0')
    """
    return " · ".join(map(str, scores))


def short_names(names: Sequence[str]) -> list[str]:
    """Each name cut to its shortest beginning that no other name at the table begins with (the whole
    name if another begins with it), so that no two are the same.

    >>> short_names(["Ann", "Andy", "Bob", "Ben"]), short_names(["Al", "Alan", "Cy", "Di"])
    (['Ann', 'And', 'Bo', 'Be'], ['Al', 'Ala', 'C', 'D'])
    """
    names = [name.strip() for name in names]
    return [next((name[:size] for size in range(1, len(name))
                  if not any(other.startswith(name[:size]) for other in names[:seat] + names[seat + 1:])), name)
            for seat, name in enumerate(names)]


def tally(names: Sequence[str], counts: Iterable[int]) -> str:
    """A count for each player in one short line, each named by ``short_names`` (a colon between a
    name ending in a digit and its count).

    >>> tally(["Ann", "Andy", "Bob", "Ben"], [2, 3, 0, -8]), tally(["P1", "P2"], [10, 3])
    ('Ann2 And3 Bo0 Be-8', 'P1:10 P2:3')
    """
    return " ".join(f"{name}{':' * name[-1:].isdigit()}{count}"
                    for name, count in zip(short_names(names), counts, strict=True))


def check_settings(game: str, settings: Mapping[str, Any], known: Mapping[str, str]) -> None:
    """Refuse a setting the game does not have, naming the ones it has.

    >>> check_settings("Gin Rummy", {"limt": 100}, {"limit": "100, 200, 250, 300 or 500"})
    Traceback (most recent call last):
    ...
    ValueError: unknown Gin Rummy setting 'limt' (settings: limit: 100, 200, 250, 300 or 500)
    """
    for name in settings:
        if name not in known:
            have = "; ".join(f"{key}: {what}" for key, what in known.items())
            raise ValueError(f"unknown {game} setting {name!r} (settings: {have})")


def walk(page: int, choice: int, step: int, pages: int, options: int) -> tuple[int, int]:
    """The page and option (both from 0) one step on (1 NEXT, -1 BACK) round the ring every screen's pages
    and options make: pages 1 to N with the first option, then the last page with each further option,
    then page 1 and the first option again.

    >>> at, seen = (0, 0), []
    >>> for _ in range(4):
    ...     at = walk(*at, 1, pages=3, options=2)
    ...     seen.append(at)
    >>> seen, walk(0, 0, -1, pages=3, options=2)
    ([(1, 0), (2, 0), (2, 1), (0, 0)], (2, 1))
    """
    last = pages - 1
    page = min(page, last)
    at = (page + (choice if page == last else 0) + step) % (last + max(options, 1))
    return min(at, last), max(at - last, 0)


def leap(page: int, choice: int, step: int, pages: int, options: int) -> tuple[int, int]:
    """Where NEXT (1) or BACK (-1) held goes: ``walk`` on past the pages to the next (previous) option; with
    fewer than two options, nowhere.

    >>> leap(0, 0, 1, pages=14, options=17), leap(13, 1, -1, pages=14, options=17)
    ((13, 1), (13, 0))
    >>> leap(13, 16, 1, pages=14, options=17), leap(4, 0, -1, pages=14, options=17), leap(4, 0, 1, 14, 1)
    ((0, 0), (13, 16), (4, 0))
    """
    at = (min(page, pages - 1), choice)
    if options < 2:
        return at
    while at[1] == choice:
        at = walk(*at, step, pages, options)
    return at


class Flow(ABC, Generic[State]):
    """A game's flow: its rules (``start``, ``apply``), what it sees (``prompt``), and its buttons.

    ``players`` are the names in seat order (seat 0 sits at the zone ``seat1``); ``settings`` the game's
    table from the configuration.
    """

    name: ClassVar[str]

    def __init__(self, players: Sequence[str], settings: Mapping[str, Any]) -> None:
        self.players = list(players)
        self.settings = dict(settings)
        self.table = TableView()
        self.error: str | None = None
        """Why the last confirmation was refused, shown until the next one."""
        self._cursor = 0
        self.page = 0
        """Which page of a long screen to show (``view``): NEXT and BACK turn it."""
        self._shown: tuple[str, ...] = ()
        self._options: tuple[Option, ...] = ()
        self._marks: dict[int, int] = {}

    # The rules: a pure fold of confirmed events (the device.session.Fold protocol).

    @abstractmethod
    def start(self, players: list[str], settings: dict[str, Any]) -> State:
        """The state before any event."""

    @abstractmethod
    def apply(self, state: State, event: Event) -> State:
        """The state after a confirmed event; ``RuleError`` (saying why) for an impossible one."""

    @abstractmethod
    def decode(self, kind: str, data: Mapping[str, Any]) -> Event:
        """The event a journal's record holds (``Event.record`` wrote it); ``RuleError`` if none."""

    # What the flow sees and offers.

    @abstractmethod
    def prompt(self, state: State) -> Prompt:
        """What the table and the confirmed state show now, and the options to confirm."""

    def panel(self, state: State, pressed: Press) -> Event | None:
        """The event a seat panel's Action (pressed or held; ``pressed.seat`` says whose) means now: a
        person's own act, confirmed by pressing it."""
        return None

    def result(self, state: State) -> dict[str, Any] | None:
        """The final result once the game is over, else None."""
        return None

    def hand(self, state: State) -> int:
        """The number of the hand (or layout) the state is in: the cards on the table when a new one
        begins are set aside, so only cards laid after count (a table not yet cleared is no new hand)."""
        return 0

    def note(self, state: State) -> None:
        """Set aside the cards on the table if ``state`` begins a hand; called after every confirmation
        and undo. A hand taken back by undo sees its own cards again."""
        hand = self.hand(state)
        self._marks = {number: frame for number, frame in self._marks.items() if number <= hand}
        self.table.since = self._marks.setdefault(hand, self.table.frame)

    def begin(self, state: State) -> None:
        """A new game: every card on the table now is set aside."""
        self._marks = {}
        self.table.since = self._marks[self.hand(state)] = self.table.frame

    def trial(self, state: State, event: Event) -> State | str:
        """The state an event would lead to, or why it cannot happen (in players' names)."""
        try:
            return self.apply(state, event)
        except RuleError as error:
            return self.explain(error)

    def unread(self, *places: str) -> list[str]:
        """A line asking for the cards within ``places`` that cannot be read to be straightened, if any."""
        count = self.table.unread(*places)
        return [f"{count} card{'s' * (count > 1)} not read: straighten {'them' if count > 1 else 'it'}"] if count else []

    def explain(self, error: Exception | str) -> str:
        """An engine's message with its seat numbers (from 0) given as the players' names.

        >>> class Any_(Flow[None]):
        ...     name = "any"
        ...     start = apply = decode = prompt = lambda *args: None
        >>> Any_(["Ann", "Bob"], {}).explain(ValueError("it is seat 1's turn to lay, not seat 0's"))
        "it is Bob's turn to lay, not Ann's"
        """
        def name(match: re.Match[str]) -> str:
            seat = int(match[1])
            return self.players[seat] if seat < len(self.players) else match[0]

        return re.sub(r"\bseat (\d)\b", name, str(error))

    # Buttons.

    def _sync(self, prompt: Prompt) -> tuple[Option, ...]:
        """The prompt's options (kept as ``_options``); whenever they change, the screen goes back to page 1
        and the first option."""
        shown = tuple(option.label for option in prompt.options)
        if shown != self._shown:
            self._shown, self.page, self._cursor = shown, 0, 0
        self._options = prompt.options
        return prompt.options

    def afresh(self) -> None:
        """After a confirmation or an undo: no error, page 1 and the first option."""
        self.error, self.page, self._cursor = None, 0, 0

    def press(self, state: State, pressed: Press) -> Event | None:
        """The event a press asks to confirm, if any; NEXT and BACK ``walk`` the pages and options, held they
        ``leap`` to the next and the previous option; a seat's Confirm is OK, its Action the game's
        ``panel``."""
        if pressed.button == Button.ACTION:
            return self.panel(state, pressed)
        if pressed.undo:
            return None  # undo (``device.flows.play.Play`` does it)
        screen = self.screen(state)  # brings the options up to date (``_sync``)
        if pressed.ok:
            return self._options[self._cursor].event if self._options else None
        move = leap if pressed.held else walk
        self.page, self._cursor = move(self.page, self._cursor, 1 if pressed.button == Button.NEXT else -1,
                                       len(paged(screen)), len(self._options))
        return None

    def screen(self, state: State) -> Screen:
        """The whole screen for now: what OK would confirm (the selected option, or a new game once this one
        is over) and the error if any head every page, then the prompt's lines; the ``choice`` says which
        of several options is selected."""
        self.note(state)
        prompt = self.prompt(state)
        options = self._sync(prompt)
        head, choice = [], None
        if self.result(state) is not None:
            head.append("OK: new game")
        elif options:  # as tall whichever is selected, so that choosing never moves a page's lines
            oks = [f"OK: {option.label}" for option in options]
            tallest = max(len(wrap(ok)) for ok in oks)
            head += [oks[self._cursor], *[""] * (tallest - len(wrap(oks[self._cursor])))]
            if len(options) > 1:
                choice = f"{self._cursor + 1}/{len(options)}"
        tall = len(head)  # what OK would confirm: drawn tall, to be read from every seat
        if self.error:
            head.append(f"! {self.error}")
        return Screen(prompt.title, (*head, *prompt.lines), prompt.big, head=len(head), choice=choice, tall=tall)

    def view(self, state: State) -> Screen:
        """The page of the screen the OLED shows: the first, or the one NEXT and BACK turned to."""
        pages = paged(self.screen(state))
        return pages[min(self.page, len(pages) - 1)]
