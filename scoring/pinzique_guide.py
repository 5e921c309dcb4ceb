"""The Pinzique score guide: the eight dice's faces and every meld's points, read from a TOML file.

The guide ships as ``scoring/data/pinzique.toml``; an owner holding the printed Score Guide can load
their own copy with ``load_guide(path)``. Every value we assumed is marked provisional there, and the
engine carries the mark into its results. A file that is malformed or inconsistent is refused with a
message naming the entry.

>>> guide = load_guide()
>>> len(guide.dice), guide.dice[0]
(8, (Card.parse('9C'), Card.parse('TC'), Card.parse('JH'), Card.parse('QC'), Card.parse('KS'), Card.parse('AD')))
>>> guide.dice_showing(Card.parse("QH")), guide.rolls
((1, 2), 3)
>>> guide.meld("4Q")
MeldRule(code='4Q', points=60, provisional=False)
>>> guide.meld("DM").provisional, guide.meld("4T") is None
(True, True)
>>> parse_guide({"turn": {"rolls": 3, "provisional": True}}, "my-guide.toml")
Traceback (most recent call last):
...
scoring.pinzique_guide.GuideError: score guide my-guide.toml: missing entry 'dice'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from scoring.cards import Card, CardError, Rank, Suit
from scoring.errors import RuleError
from scoring.requests import kind_of

__all__ = ["PINOCHLE_RANKS", "GuideError", "MeldRule", "ScoreGuide", "load_guide", "parse_guide"]

PINOCHLE_RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
"""The ranks on the dice, in run order (a run is consecutive in this order)."""

DICE = 8
FACES_PER_DIE = 6
COPIES = 2  # a pinochle deck holds each card twice

SUITED_CODES = ("M", "DM", "P", "DP", "SM", "MR", "LR")
REQUIRED_RANK_CODES = tuple(f"{n}{rank.letter}" for rank in PINOCHLE_RANKS[2:] for n in (4, 8))
OPTIONAL_RANK_CODES = tuple(f"{n}{rank.letter}" for rank in PINOCHLE_RANKS[:2] for n in (4, 8))
ORDERED = (("M", "DM"), ("P", "DP"), ("SM", "MR"), ("MR", "LR")) + tuple(
    (f"4{rank.letter}", f"8{rank.letter}") for rank in PINOCHLE_RANKS
)
"""Pairs (smaller, larger) of one family: the larger meld must score more."""


class GuideError(RuleError):
    """A score guide file that cannot be used; the message names the file and the entry."""


@dataclass(frozen=True, slots=True)
class MeldRule:
    """What one meld scores: ``code`` as in the guide (``M``, ``4Q``, ``SM``...), and whether the points
    are assumed rather than read from the rulebook."""

    code: str
    points: int
    provisional: bool


@dataclass(frozen=True, eq=False)
class ScoreGuide:
    """The dice (die 0-7, six faces each), the meld rules, and the rolls a turn.

    Compared and hashed by identity: engines cache their tables per guide.
    """

    dice: tuple[tuple[Card, ...], ...]
    dice_provisional: bool
    melds: tuple[MeldRule, ...]
    rolls: int
    rolls_provisional: bool
    source: str
    _by_code: dict[str, MeldRule] = field(init=False, repr=False)
    _showing: dict[Card, tuple[int, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {rule.code: rule for rule in self.melds})
        showing: dict[Card, tuple[int, ...]] = {}
        for number, faces in enumerate(self.dice):
            for card in faces:
                showing[card] = (*showing.get(card, ()), number)
        object.__setattr__(self, "_showing", showing)

    def meld(self, code: str) -> MeldRule | None:
        """The rule for a guide code (``M``, ``4Q``, ``SM``...), or None if the guide has no such meld."""
        return self._by_code.get(code)

    def dice_showing(self, card: Card) -> tuple[int, ...]:
        """The dice that have ``card`` on a face."""
        return self._showing.get(card, ())


def load_guide(path: str | Path | None = None) -> ScoreGuide:
    """The score guide in the TOML file at ``path``, or the one shipped with tablescore.

    >>> load_guide("/no/such/guide.toml")
    Traceback (most recent call last):
    ...
    scoring.pinzique_guide.GuideError: score guide /no/such/guide.toml: cannot read it (No such file or directory)
    """
    source = resources.files("scoring") / "data" / "pinzique.toml" if path is None else Path(path)
    try:
        text = source.read_bytes().decode("utf-8")
        data = tomllib.loads(text)
    except OSError as error:
        raise GuideError(f"score guide {source}: cannot read it ({error.strerror})") from None
    except UnicodeDecodeError as error:
        raise GuideError(f"score guide {source}: not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise GuideError(f"score guide {source}: not valid TOML: {error}") from None
    return parse_guide(data, str(source))


def parse_guide(data: Mapping[str, object], source: str) -> ScoreGuide:
    """A score guide from parsed TOML; ``source`` names it in error messages.

    >>> guide = {"turn": {"rolls": 3, "provisional": True}, "melds": {},
    ...          "dice": {"provisional": True, "faces": [["9C", "TC", "JH", "QC", "KS", "2D"]] * 8}}
    >>> parse_guide(guide, "mine.toml")
    Traceback (most recent call last):
    ...
    scoring.pinzique_guide.GuideError: score guide mine.toml: dice.faces[0][5]: 2D is not a pinochle card (9, 10, J, Q, K or A)
    """
    entries = _Entries(source)
    entries.keys(data, "", required={"turn", "dice", "melds"})
    turn = entries.table(data, "turn")
    entries.keys(turn, "turn", required={"rolls", "provisional"})
    dice = entries.table(data, "dice")
    entries.keys(dice, "dice", required={"faces", "provisional"})
    return ScoreGuide(
        dice=_dice(entries, dice["faces"]),
        dice_provisional=entries.flag(dice, "dice"),
        melds=_melds(entries, entries.table(data, "melds")),
        rolls=entries.number(turn, "turn.rolls", "rolls", range(1, 11)),
        rolls_provisional=entries.flag(turn, "turn"),
        source=source,
    )


@dataclass(frozen=True)
class _Entries:
    """Checks entries of one guide file, raising GuideError naming the file and the entry."""

    source: str

    def error(self, entry: str, problem: str) -> GuideError:
        return GuideError(f"score guide {self.source}: {entry + ': ' if entry else ''}{problem}")

    def keys(self, table: Mapping[str, object], entry: str, required: set[str], optional: tuple[str, ...] = ()) -> None:
        prefix = f"{entry}." if entry else ""
        for key in table:
            if key not in required and key not in optional:
                expected = ", ".join(sorted(required) + list(optional))
                raise self.error("", f"unknown entry '{prefix}{key}' (expected: {expected})")
        for key in sorted(required - set(table)):
            raise self.error("", f"missing entry '{prefix}{key}'")

    def table(self, data: Mapping[str, object], key: str) -> Mapping[str, object]:
        value = data[key]
        if not isinstance(value, Mapping):
            raise self.error(key, f"should be a table, not {kind_of(value)}")
        return value

    def flag(self, table: Mapping[str, object], entry: str) -> bool:
        value = table["provisional"]
        if not isinstance(value, bool):
            raise self.error(f"{entry}.provisional", f"should be true or false, not {value!r}")
        return value

    def number(self, table: Mapping[str, object], entry: str, key: str, allowed: range) -> int:
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            limit = f"from {allowed.start} to {allowed.stop - 1}" if allowed.stop < 10**9 else f"above {allowed.start - 1}"
            raise self.error(entry, f"should be a whole number {limit}, not {value!r}")
        return value

    def list(self, value: object, entry: str, length: int) -> list[object]:
        if not isinstance(value, list) or len(value) != length:
            raise self.error(entry, f"should be a list of {length}, not {value!r}")
        return value


def _dice(entries: _Entries, faces: object) -> tuple[tuple[Card, ...], ...]:
    dice = []
    for number, die in enumerate(entries.list(faces, "dice.faces", DICE)):
        entry = f"dice.faces[{number}]"
        cards = [_face(entries, code, f"{entry}[{place}]") for place, code in enumerate(entries.list(die, entry, FACES_PER_DIE))]
        for card in cards:
            if cards.count(card) > 1:
                raise entries.error(entry, f"die {number} shows {card} twice")
        dice.append(tuple(cards))
    showing = {Card(rank, suit): [number for number, die in enumerate(dice) if Card(rank, suit) in die]
               for suit in Suit for rank in PINOCHLE_RANKS}
    for card, numbers in sorted(showing.items(), key=lambda item: -len(item[1])):  # too many first: the typo
        if len(numbers) != COPIES:
            where = f" ({', '.join(map(str, numbers))})" if numbers else ""
            raise entries.error("dice.faces", f"{card} is on {len(numbers)} {'die' if len(numbers) == 1 else 'dice'}"
                                f"{where}: the 48 faces are a pinochle deck, each card on exactly two dice")
    return tuple(dice)


def _face(entries: _Entries, code: object, entry: str) -> Card:
    try:
        card = Card.parse(code)  # type: ignore[arg-type]  # Card.parse refuses a non-string itself
    except CardError as error:
        raise entries.error(entry, str(error)) from None
    if card.rank not in PINOCHLE_RANKS:
        raise entries.error(entry, f"{card} is not a pinochle card (9, 10, J, Q, K or A)")
    return card


def _melds(entries: _Entries, melds: Mapping[str, object]) -> tuple[MeldRule, ...]:
    entries.keys(melds, "melds", required=set(SUITED_CODES + REQUIRED_RANK_CODES), optional=OPTIONAL_RANK_CODES)
    rules = {}
    for code, entry in melds.items():
        if not isinstance(entry, Mapping):
            raise entries.error(f"melds.{code}", f"should be a table like {{ points = 35, provisional = true }}, not {entry!r}")
        entries.keys(entry, f"melds.{code}", required={"points", "provisional"})
        points = entries.number(entry, f"melds.{code}.points", "points", range(1, 10**9))
        rules[code] = MeldRule(code, points, entries.flag(entry, f"melds.{code}"))
    for rank in PINOCHLE_RANKS[:2]:
        four, eight = f"4{rank.letter}", f"8{rank.letter}"
        if (four in rules) != (eight in rules):
            raise entries.error("melds", f"{four} and {eight} go together: give both or neither")
    for smaller, larger in ORDERED:
        if smaller in rules and rules[larger].points <= rules[smaller].points:
            raise entries.error(f"melds.{larger}", f"{larger} ({rules[larger].points}) must score more than "
                                f"{smaller} ({rules[smaller].points})")
    return tuple(rules.values())
