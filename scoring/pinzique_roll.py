"""The best score of one Pinzique roll: eight faces in, the melds with the largest total out.

A roll is eight faces in any order (the camera cannot tell the dice apart). ``score_roll`` checks that the
faces can lie on the eight dice at once, then finds the melds with the largest total under the rules for
which dice may count twice, and on a tie the choice that scores on the most dice. Each meld lists the
dice it uses as positions in the roll. The fragment's example 2, a small run and a marriage in hearts:

>>> roll = score_roll(parse_cards("9H TH JH QH KH KH QH 9C"))
>>> [(meld.code, meld.points, meld.dice) for meld in roll.melds], roll.total, roll.all_dice
([('SMH', 650, (0, 1, 2, 3, 4)), ('MH', 35, (5, 6))], 685, False)
>>> score_roll(parse_cards("QH QH QH 9C TC JH QC KS"))
Traceback (most recent call last):
...
scoring.pinzique_roll.RollError: no set of dice can show this roll: QH, QH, QH need 3 dice but only dice 1, 2 show them (the score guide's dice layout is provisional: if your dice differ, correct it there)

Which dice may count twice [docs/rules/pinzique.md]: a die counts in at most one meld of each kind (marriages,
Pinzique, ranks, runs), but may serve melds of different kinds; the K and Q inside a run are not also a
marriage of that suit. Each family (a suit's marriages, the Pinzique, a rank, a suit's runs) holds at most
one meld: a double is one meld, not two singles. A rank meld takes every die of its rank (five Queens score
as four and only win takeaways); a run takes every other die of its suit that is not in the suit's
marriage, as extras that only win takeaways.

These rules make the search small and exact: kinds are independent except a suit's run and marriage, so
the best total is the best Pinzique, plus every rank meld, plus for each suit the best of every run it
can hold (or none) with the best marriage of the K and Q left over. Only the ties among those per-suit
choices are compared on the dice they score.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scoring.cards import DECK, Card, Rank, Suit, parse_cards
from scoring.pinzique_guide import PINOCHLE_RANKS, MeldRule, ScoreGuide, load_guide
from scoring.requests import RequestError

__all__ = ["FACES", "FACE_NUMBER", "Meld", "Pattern", "RollError", "RollScore", "best_patterns", "best_score",
           "check_roll", "default_guide", "parse_cards", "score_roll", "unmatched_faces", "unmatched_problem"]

SUITS = tuple(sorted(Suit, key=lambda suit: suit.index))
FACES = tuple(Card(rank, suit) for suit in SUITS for rank in PINOCHLE_RANKS)
"""The 24 faces, numbered suit by suit in run order: face ``suit.index * 6 + rank position``."""
FACE_NUMBER = {card: number for number, card in enumerate(FACES)}
_NUMBER_OF_INDEX = [FACE_NUMBER.get(card, -1) for card in DECK]  # by Card.index, faster than hashing a Card
QUEEN, KING = PINOCHLE_RANKS.index(Rank.QUEEN), PINOCHLE_RANKS.index(Rank.KING)
JS, QH = FACE_NUMBER[Card.parse("JS")], FACE_NUMBER[Card.parse("QH")]
RUNS = (("SM", "small run", 1, range(0, 5)), ("SM", "small run", 1, range(1, 6)),
        ("MR", "medium run", 2, range(0, 6)), ("LR", "large run", 3, range(0, 6)))
"""Each run: guide code, name, size level (small < medium < large) and the rank positions it needs."""
SHORTEST_RUN = min(len(needed) for *_, needed in RUNS)
RUN, MARRIAGE, PINZIQUE, RANK = range(4)
"""The kinds of meld, in the order results list them: a die counts once in each kind."""
RANK_NAMES = ("nines", "tens", "jacks", "queens", "kings", "aces")
COUNT_NAMES = {4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


class RollError(RequestError):
    """Faces that the eight dice cannot show."""


@dataclass(frozen=True, slots=True)
class Meld:
    """One scored meld: ``dice`` are positions in the roll; ``family`` and ``strength`` settle takeaways
    (within a family, the larger strength beats the smaller)."""

    code: str
    name: str
    points: int
    provisional: bool
    dice: tuple[int, ...]
    family: str
    strength: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The batch form: code, points, dice, and the name and provisional mark."""
        return {"code": self.code, "points": self.points, "dice": list(self.dice), "name": self.name,
                "provisional": self.provisional}


@dataclass(frozen=True, slots=True)
class RollScore:
    """A roll's best melds, and whether every die is in at least one of them."""

    faces: tuple[Card, ...]
    melds: tuple[Meld, ...]
    all_dice: bool

    @property
    def total(self) -> int:
        """The points of all the melds."""
        return sum(meld.points for meld in self.melds)

    @property
    def provisional(self) -> bool:
        """Whether any meld's points are assumed rather than from the rulebook."""
        return any(meld.provisional for meld in self.melds)

    def to_json(self) -> dict[str, Any]:
        """The batch form of a ``dice`` request's answer."""
        return {"total": self.total, "melds": [meld.to_json() for meld in self.melds], "all_dice": self.all_dice,
                "provisional": self.provisional}


@lru_cache(maxsize=1)
def default_guide() -> ScoreGuide:
    """The score guide shipped with tablescore (loaded once)."""
    return load_guide()


def score_roll(faces: Sequence[Card], guide: ScoreGuide | None = None) -> RollScore:
    """The best score of eight faces, in any order, after checking the dice can show them.

    The fragment's bonus example scores on all eight dice: four Jacks, a Pinzique, marriages in two suits.

    >>> roll = score_roll(parse_cards("JS JH JD JC QH KH KC QC"))
    >>> [(meld.code, meld.dice) for meld in roll.melds], roll.total, roll.all_dice
    ([('MH', (4, 5)), ('MC', (6, 7)), ('P', (0, 4)), ('4J', (0, 1, 2, 3))], 160, True)
    """
    guide = guide or default_guide()
    numbers = _numbers(faces)
    _check(faces, numbers, guide)
    return _best(faces, numbers, guide)


def _numbers(faces: Sequence[Card]) -> list[int]:
    """Each face's number (see FACES), or -1 for a card that is on no Pinzique die."""
    return [_NUMBER_OF_INDEX[face.index] for face in faces]


def check_roll(faces: Sequence[Card], guide: ScoreGuide) -> None:
    """Raise RollError unless the faces can lie on the guide's dice at once (one face a die).

    >>> check_roll(parse_cards("9C TC JH QC KS AD 2H QH"), default_guide())
    Traceback (most recent call last):
    ...
    scoring.pinzique_roll.RollError: face 2H (position 6) is not on any die: the dice show 9, 10, J, Q, K and A
    """
    _check(faces, _numbers(faces), guide)


def _check(faces: Sequence[Card], numbers: Sequence[int], guide: ScoreGuide) -> None:
    if len(faces) != len(guide.dice):
        raise RollError(f"a roll is {len(guide.dice)} faces, one a die, not {len(faces)}")
    showing = _showing(guide)
    for position, (face, number) in enumerate(zip(faces, numbers, strict=True)):
        if number < 0 or not showing[number]:
            raise RollError(f"face {face} (position {position}) is not on any die: the dice show "
                            f"{', '.join(rank.label for rank in PINOCHLE_RANKS[:-1])} and {PINOCHLE_RANKS[-1].label}")
    problem = unmatched_problem(numbers, guide)
    if problem:
        raise RollError(problem)


def unmatched_problem(numbers: Sequence[int], guide: ScoreGuide) -> str | None:
    """Why no set of the guide's dice can show the faces numbered ``numbers`` (see FACES; all the dice's
    or only some) at once, in words; None when some set can.

    >>> unmatched_problem([FACE_NUMBER[Card.parse("9C")]], default_guide()) is None
    True
    >>> print(unmatched_problem([FACE_NUMBER[Card.parse(code)] for code in ("JS", "KH", "KH")], default_guide()))
    no set of dice can show this roll: JS, KH, KH need 3 dice but only dice 6, 7 show them (the score guide's dice layout is provisional: if your dice differ, correct it there)
    """
    stuck = unmatched_faces(tuple(sorted(numbers)), guide)
    if not stuck:
        return None
    stuck_faces, dice = stuck
    hint = " (the score guide's dice layout is provisional: if your dice differ, correct it there)"
    return (f"no set of dice can show this roll: {', '.join(str(FACES[f]) for f in stuck_faces)} need "
            f"{len(stuck_faces)} dice but only dice {', '.join(map(str, dice))} show them"
            + (hint if guide.dice_provisional else ""))


@lru_cache(maxsize=8)
def _showing(guide: ScoreGuide) -> tuple[tuple[int, ...], ...]:
    """The dice showing each face, by face number."""
    return tuple(guide.dice_showing(card) for card in FACES)


@lru_cache(maxsize=4096)
def unmatched_faces(faces: tuple[int, ...], guide: ScoreGuide) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """None if the faces can be matched to distinct dice; else faces that need more dice than show them
    (Hall's condition fails), with those dice. Augmenting paths, as in Kuhn's algorithm."""
    showing = [_showing(guide)[face] for face in faces]
    die_holds: dict[int, int] = {}  # die -> index in faces

    def place(index: int, tried: set[int]) -> bool:
        for die in showing[index]:
            if die not in tried:
                tried.add(die)
                if die not in die_holds or place(die_holds[die], tried):
                    die_holds[die] = index
                    return True
        return False

    for index in range(len(faces)):
        tried: set[int] = set()
        if not place(index, tried):
            # the faces reachable from this one by alternating paths show only the dice tried
            held = sorted(die_holds[die] for die in tried)
            return tuple(sorted(faces[i] for i in [index, *held])), tuple(sorted(tried))
    return None


def best_score(faces: Sequence[Card], guide: ScoreGuide | None = None) -> RollScore:
    """The best score of faces already known to lie on the dice (``score_roll`` checks that first).

    Dice counting twice: the JS is in both the 4J and the Pinzique, the QH in the Pinzique and a marriage.

    >>> [meld.code for meld in best_score(parse_cards("QS QH QD QC JS KH KC 9S")).melds]
    ['MH', 'MC', 'P', '4Q']
    """
    numbers = _numbers(faces)
    if min(numbers, default=0) < 0:
        raise RollError(f"{faces[numbers.index(-1)]} is not on any die")
    return _best(faces, numbers, guide or default_guide())


def _best(faces: Sequence[Card], numbers: Sequence[int], guide: ScoreGuide) -> RollScore:
    patterns, scored = best_patterns(tuple(sorted(numbers)), guide)
    where: dict[int, list[int]] = {}
    for position, number in enumerate(numbers):
        where.setdefault(number, []).append(position)
    # Hand each meld the next copy of each face it needs, round and round: the run and marriage of one
    # suit come first and so get different dice, and melds of other kinds spread over uncounted copies.
    used = Counter[int]()
    melds = []
    for pattern in patterns:
        dice = []
        for number in pattern.faces:
            dice.append(where[number][used[number] % len(where[number])])
            used[number] += 1
        melds.append(Meld(pattern.code, pattern.name, pattern.rule.points, pattern.rule.provisional,
                          tuple(sorted(dice)), pattern.family, pattern.strength))
    return RollScore(tuple(faces), tuple(melds), scored == len(faces))


@dataclass(frozen=True, slots=True)
class Pattern:
    """A meld by the faces it uses (face numbers, with repeats), before they are placed on dice; ``rule``
    is the guide's entry that gives its points."""

    kind: int
    code: str
    name: str
    rule: MeldRule
    family: str
    strength: tuple[int, ...]
    faces: tuple[int, ...]


def best_patterns(faces: tuple[int, ...], guide: ScoreGuide) -> tuple[tuple[Pattern, ...], int]:
    """The best melds of sorted face numbers (see FACES) and the number of dice they score on.

    >>> melds, dice = best_patterns(tuple(sorted(FACE_NUMBER[f] for f in parse_cards("9H TH JH QH KH AH KH QH"))), default_guide())
    >>> [meld.code for meld in melds], dice
    (['LRH'], 8)
    """
    counts = [0] * len(FACES)
    for number in faces:
        counts[number] += 1
    melds: list[Pattern] = []
    ties: list[tuple[tuple[Pattern, ...], ...]] = []
    for suit in range(4):
        held = counts[suit * 6:suit * 6 + 6]
        if held[QUEEN] and held[KING] or sum(held) >= SHORTEST_RUN:  # else no marriage and no run
            choices = _suit_choices(suit, tuple(held), guide)
            if len(choices) == 1:
                melds.extend(choices[0])
            else:
                ties.append(choices)
    pinzique = _pinzique(counts[JS], counts[QH], guide)
    if pinzique:
        melds.append(pinzique)
    for rank in range(len(PINOCHLE_RANKS)):
        if counts[rank] and counts[6 + rank] and counts[12 + rank] and counts[18 + rank]:
            meld = _rank_meld(rank, (counts[rank], counts[6 + rank], counts[12 + rank], counts[18 + rank]), guide)
            if meld:
                melds.append(meld)
    if ties:  # several per-suit choices score the same: take the one scoring on the most dice
        melds += max((tuple(pattern for choice in tied for pattern in choice) for tied in itertools.product(*ties)),
                     key=lambda tied: _dice_scored(counts, [*melds, *tied]))
    best = tuple(sorted(melds, key=lambda pattern: (pattern.kind, pattern.faces[0])))  # kinds, then suits or ranks
    return best, _dice_scored(counts, best)


def _dice_scored(counts: Sequence[int], melds: Iterable[Pattern]) -> int:
    """How many dice are in at least one meld, given the count of each face in the roll, each meld's
    copies of a face spread over its dice."""
    wanted: dict[int, int] = {}
    for meld in melds:
        for number in meld.faces:
            wanted[number] = wanted.get(number, 0) + 1
    return sum(min(counts[number], want) for number, want in wanted.items())


@lru_cache(maxsize=4096)
def _suit_choices(suit: int, counts: tuple[int, ...], guide: ScoreGuide) -> tuple[tuple[Pattern, ...], ...]:
    """The best choices of a run and a marriage in one suit, given its count of each rank (several if
    they tie on points)."""
    choices = [_marriage(suit, counts[QUEEN], counts[KING], guide)]
    for code, name, level, needed in RUNS:
        if not all(counts[rank] for rank in needed) or (code == "LR" and sum(counts) != len(guide.dice)):
            continue
        left = [count - (rank in needed) for rank, count in enumerate(counts)]
        marriage = () if code == "LR" else _marriage(suit, left[QUEEN], left[KING], guide)
        for pattern in marriage:  # the run's K and Q are not also a marriage: the marriage takes others
            for number in pattern.faces:
                left[number - suit * 6] -= 1
        extras = [rank for rank in reversed(range(6)) for _ in range(left[rank])]
        letter = SUITS[suit].letter
        run = Pattern(RUN, code + letter, f"{name} in {SUITS[suit].name.lower()}", _rule(guide, code),
                       f"{SUITS[suit].name.lower()} run", (level, needed[-1], *extras),
                       tuple(suit * 6 + rank for rank in [*needed, *extras]))
        choices.append((run, *marriage))
    points = [sum(pattern.rule.points for pattern in choice) for choice in choices]
    return tuple(choice for choice, total in zip(choices, points, strict=True) if total == max(points))


def _marriage(suit: int, queens: int, kings: int, guide: ScoreGuide) -> tuple[Pattern, ...]:
    """The suit's best marriage from the queens and kings not in a run (none, one pattern)."""
    pairs = min(queens, kings, 2)
    if not pairs:
        return ()
    code, name = ("M", "marriage") if pairs == 1 else ("DM", "double marriage")
    suit_name = SUITS[suit].name.lower()
    return (Pattern(MARRIAGE, code + SUITS[suit].letter, f"{name} in {suit_name}", _rule(guide, code),
                     f"{suit_name} marriage", (pairs,), (suit * 6 + QUEEN, suit * 6 + KING) * pairs),)


@lru_cache(maxsize=64)
def _pinzique(jacks: int, queens: int, guide: ScoreGuide) -> Pattern | None:
    """The Pinzique (JS and QH) or double Pinzique, if the roll holds one."""
    pairs = min(jacks, queens, 2)
    if not pairs:
        return None
    code, name = ("P", "Pinzique") if pairs == 1 else ("DP", "double Pinzique")
    return Pattern(PINZIQUE, code, name, _rule(guide, code), "Pinzique", (pairs,), (JS, QH) * pairs)


@lru_cache(maxsize=1024)
def _rank_meld(rank: int, counts: tuple[int, ...], guide: ScoreGuide) -> Pattern | None:
    """The meld of one rank, given its count in each suit: one of each suit at least, taking every die
    of the rank; eight (two of each suit) scores as the eight, fewer as the four."""
    letter = PINOCHLE_RANKS[rank].letter
    four = guide.meld(f"4{letter}")
    if four is None or not all(counts):
        return None
    dice = sum(counts)
    rule = _rule(guide, f"8{letter}") if dice == 2 * len(counts) else four
    return Pattern(RANK, f"{dice}{letter}", f"{COUNT_NAMES[dice]} {RANK_NAMES[rank]}", rule, RANK_NAMES[rank],
                    (dice,), tuple(suit * 6 + rank for suit in range(4) for _ in range(counts[suit])))


def _rule(guide: ScoreGuide, code: str) -> MeldRule:
    """A meld rule every guide has (the loader requires it)."""
    rule = guide.meld(code)
    assert rule is not None, code
    return rule
