"""Gin Rummy (Hoyle): settling a knock, the game's bonuses, and ``tablescore score gin`` requests.

Melds and deadwood live in ``scoring.gin_melds``. A knock is settled as Hoyle plays it (see
docs/rules/gin.md): a knock is legal at 10 or less deadwood; gin (no deadwood) scores 25 plus the defender's
deadwood and the defender may not lay off; otherwise the defender "plays off" unmatched cards onto the
knocker's melds and the lower deadwood scores the difference, the defender adding the 25 undercut bonus
when its deadwood is lower or equal ("higher than or equal to that of the non-knocking player").

>>> hand = settle(parse_cards("5H 6H 7H 8H 9H KS KH KD 2C 3D"), parse_cards("TH JH 4H 2S 2D 2H 9C 9D 9S QC"))
>>> hand.result, hand.winner, hand.points, [str(c) for c in hand.layoffs]
('knock', 'knocker', 5, ['4H', 'TH', 'JH'])
>>> score_request({"hand": "7S 8S 9S TS 7H 7D 2C 3C 4C KD".split()})
{'deadwood': 10, 'melds': [['8S', '9S', 'TS'], ['2C', '3C', '4C'], ['7S', '7H', '7D']], 'unmatched': ['KD']}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from scoring.cards import Card, Rank, Suit, parse_cards  # noqa: F401 (parse_cards: for the doctests)
from scoring.games import Option
from scoring.gin_melds import (
    SUIT_BITS,
    Aces,
    Melding,
    arrangements,
    best_discard,
    card_value,
    cards_of_mask,
    mask_deadwood,
    mask_of,
    meld,
    melding_of,
)
from scoring.requests import (
    RequestError,
    card_field,
    card_list,
    check_distinct,
    check_fields,
    int_field,
    kind_of,
)

__all__ = [
    "GameRules",
    "GameScore",
    "Rules",
    "Settlement",
    "SAMPLES",
    "game_rules",
    "knock_rules",
    "render",
    "request_from_args",
    "score_game",
    "score_request",
    "settle",
]


@dataclass(frozen=True)
class Rules:
    """How a hand is scored; the defaults are Hoyle's.

    ``upcard`` plays Oklahoma: the first upcard's value is the knock limit (an ace: gin only), and with
    ``spade_double`` a spade upcard doubles the hand's score. ``big_gin_bonus`` (0: off; 31 is usual)
    is scored when the knocker melds all 11 cards before discarding.

    >>> Rules(upcard=Card.parse("7S")).limit, Rules(upcard=Card.parse("AH")).limit, Rules().limit
    (7, 0, 10)
    """

    aces: Aces = Aces.LOW
    knock_limit: int = 10
    gin_bonus: int = 25
    undercut_bonus: int = 25
    big_gin_bonus: int = 0
    upcard: Card | None = None
    spade_double: bool = False

    @property
    def limit(self) -> int:
        """The most deadwood a legal knock may have."""
        if self.upcard is None:
            return self.knock_limit
        return 0 if self.upcard.rank is Rank.ACE else card_value(self.upcard)

    @property
    def multiplier(self) -> int:
        """2 when Oklahoma's spade upcard doubles the hand, else 1."""
        return 2 if self.spade_double and self.upcard is not None and self.upcard.suit is Suit.SPADES else 1


Result = Literal["gin", "knock", "undercut", "illegal", "refused"]


@dataclass(frozen=True)
class Settlement:
    """A settled knock.

    ``result`` is ``gin``, ``knock`` or ``undercut``; for an illegal knock (deadwood over the limit) it is
    ``illegal`` until the defender accepts it (then it is scored as a knock) or ``refused`` (no score).
    ``defender.deadwood`` counts what is left after the lay-offs.
    """

    result: Result
    winner: Literal["knocker", "defender"] | None
    points: int
    knocker: Melding
    defender: Melding
    layoffs: tuple[Card, ...]
    limit: int
    big_gin: bool = False

    @property
    def legal(self) -> bool:
        """Whether the knock was within the knock limit."""
        return self.knocker.deadwood <= self.limit


def _layoff_chains(melds: Iterable[int], defender: int, aces: Aces) -> Iterator[list[int]]:
    """For each of the knocker's melds, the defender's cards that can be laid off on it one after another:
    a set of three's fourth card, and each run's chain of cards down from its low end and up from its
    high end (on a 14-place line A 2 ... K A when aces are also high)."""
    top = 13 if aces is Aces.HIGH_LOW else 12
    for meld_mask in melds:
        suits = [meld_mask >> (13 * s) & SUIT_BITS for s in range(4)]
        if sum(1 for bits in suits if bits) > 1:  # a set
            if meld_mask.bit_count() == 3:
                rank = next(bits for bits in suits if bits)
                yield [fourth] if (fourth := sum(rank << (13 * s) for s in range(4)) & ~meld_mask & defender) else []
            continue
        suit = next(s for s in range(4) if suits[s])
        run = suits[suit]
        line = (run & ~1) | 1 << 13 if run & 1 and run >> 12 & 1 else run  # Q-K-A: the ace above the king
        low, high = (line & -line).bit_length() - 1, line.bit_length() - 1
        for places in (range(low - 1, -1, -1), range(high + 1, top + 1)):
            chain = []
            for place in places:
                card = 1 << (13 * suit + place % 13)
                if not card & defender:
                    break
                chain.append(card)
            yield chain


def _best_layoff(melds: Sequence[int], defender: int, aces: Aces) -> tuple[int, int]:
    """The defender's least deadwood after laying off on ``melds``, and the cards laid off (a mask).

    Every combination of how far along each chain it lays off is tried; of equal results, the fewest
    cards laid off."""
    options = {
        sum(set(itertools.chain.from_iterable(parts)))
        for parts in itertools.product(*([chain[:n] for n in range(len(chain) + 1)] for chain in _layoff_chains(melds, defender, aces)))
    }
    return min((mask_deadwood(defender & ~laid, aces), laid.bit_count(), laid) for laid in options)[::2]


def settle(
    knocker: Sequence[Card],
    defender: Sequence[Card],
    rules: Rules = Rules(),
    accept_illegal: bool | None = None,
) -> Settlement:
    """Settle a knock: ``knocker`` holds the 10 cards kept (or all 11 for big gin), ``defender`` 10.

    The knocker's arrangement is one of minimum deadwood, and of those the one that lets the defender lay
    off least; the defender then lays off and arranges its own cards for the least deadwood.

    >>> gin = settle(parse_cards("AS 2S 3S 4H 5H 6H 9C 9D 9H 9S"), parse_cards("5S 4S KD QD 2C 3C 4C 5C 6C 8D"))
    >>> gin.result, gin.points, gin.layoffs
    ('gin', 62, ())
    >>> tie = settle(parse_cards("2S 3S 4S 6H 7H 8H 9C 9D 9H 2D"), parse_cards("5S TC JC QC KC 7C 7D 7S AD AH"))
    >>> tie.result, tie.winner, tie.points, tie.layoffs  # deadwood 2 each once 5S is laid off
    ('undercut', 'defender', 25, (Card.parse('5S'),))
    """
    check_distinct({"knocker": knocker, "defender": defender})
    held, against = mask_of(knocker), mask_of(defender)
    aces = rules.aces
    big_gin = len(knocker) == 11
    if big_gin and not (rules.big_gin_bonus and mask_deadwood(held, aces) == 0):
        raise ValueError("the knocker shows 11 cards only for big gin (all 11 melded, with big gin scored)")
    shown = meld(knocker, aces)
    if shown.deadwood == 0:
        bonus = rules.big_gin_bonus if big_gin else rules.gin_bonus
        unlaid = meld(defender, aces)
        return Settlement("gin", "knocker", (bonus + unlaid.deadwood) * rules.multiplier, shown, unlaid, (),
                          rules.limit, big_gin)
    if shown.deadwood > rules.limit and not accept_illegal:
        return Settlement("illegal" if accept_illegal is None else "refused", None, 0, shown, meld(defender, aces),
                          (), rules.limit)
    # The knocker's favour: of its minimum arrangements, the one leaving the defender the most deadwood.
    (left, laid), melds, unmatched = max(
        ((_best_layoff(melds, against, aces), melds, unmatched) for melds, unmatched in arrangements(held, aces)),
        key=lambda outcome: outcome[0][0],
    )
    remaining = meld(cards_of_mask(against & ~laid), aces)
    undercut = left <= shown.deadwood
    points = (shown.deadwood - left + rules.undercut_bonus) if undercut else left - shown.deadwood
    return Settlement("undercut" if undercut else "knock", "defender" if undercut else "knocker",
                      points * rules.multiplier, melding_of(melds, unmatched), remaining,
                      tuple(cards_of_mask(laid)), rules.limit)


# The game: hands accumulate to the limit, then the bonuses.

LIMITS = (100, 200, 250, 300, 500)
PARTS = ("points", "game", "box")


@dataclass(frozen=True)
class GameRules:
    """How a game is scored; the defaults are Hoyle's.

    The winner of the game (first to ``limit``) gets ``game_bonus``; each player gets ``box_bonus`` per
    hand won; if the loser scored nothing (a shutout) the winner's ``shutout_doubles`` parts (hand points,
    game bonus, box bonuses: by default all, so its whole total) are multiplied by ``shutout_multiplier``.
    """

    limit: int = 100
    game_bonus: int = 100
    box_bonus: int = 25
    shutout_multiplier: int = 2
    shutout_doubles: frozenset[str] = field(default_factory=lambda: frozenset(PARTS))

    def __post_init__(self) -> None:
        if self.limit not in LIMITS:
            raise ValueError(f"the game limit is one of {', '.join(map(str, LIMITS))}, not {self.limit}")
        if not self.shutout_doubles <= set(PARTS):
            raise ValueError(f"a shutout doubles some of {', '.join(PARTS)}, not {sorted(self.shutout_doubles)}")


@dataclass(frozen=True)
class GameScore:
    """A game so far (players 0 and 1); once ``over``, the bonuses and each player's final total.

    ``totals`` are the hand points while the game goes on, and the final scores, bonuses in, once over.
    """

    points: tuple[int, int]
    hands_won: tuple[int, int]
    over: bool
    winner: int | None
    game_bonus: int
    box_bonuses: tuple[int, int]
    shutout: bool
    totals: tuple[int, int]

    @property
    def margin(self) -> int:
        """By how much the winner's total beats the loser's (0 while the game goes on)."""
        return self.totals[self.winner] - self.totals[1 - self.winner] if self.winner is not None else 0


def score_game(hands: Iterable[tuple[int | None, int]], rules: GameRules = GameRules()) -> GameScore:
    """Score a game from its hands, each (the winner 0 or 1, or None for a dead hand, and its points).

    >>> game = score_game([(0, 30), (1, 12), (0, 75)])
    >>> game.over, game.winner, game.points, game.totals, game.margin
    (True, 0, (105, 12), (255, 37), 218)
    >>> score_game([(0, 60), (0, 45)]).totals  # a shutout: (105 + 100 + 50) x 2
    (510, 0)
    """
    points, won = [0, 0], [0, 0]
    winner = None
    for number, (hand_winner, hand_points) in enumerate(hands, 1):
        if winner is not None:
            raise ValueError(f"hand {number} comes after the game was won")
        if hand_winner is None:
            if hand_points:
                raise ValueError(f"hand {number} has no winner, so scores no points, not {hand_points}")
            continue
        if hand_winner not in (0, 1) or hand_points < 0:
            raise ValueError(f"hand {number}: the winner is player 0 or 1 and the points 0 or more")
        points[hand_winner] += hand_points
        won[hand_winner] += 1
        if points[hand_winner] >= rules.limit:
            winner = hand_winner
    if winner is None:
        return GameScore((points[0], points[1]), (won[0], won[1]), False, None, 0, (0, 0), False,
                         (points[0], points[1]))
    box = [rules.box_bonus * n for n in won]
    shutout = points[1 - winner] == 0
    parts = {"points": points[winner], "game": rules.game_bonus, "box": box[winner]}
    multiplied = rules.shutout_multiplier if shutout else 1
    totals = [points[p] + box[p] for p in (0, 1)]
    totals[winner] = sum(value * (multiplied if name in rules.shutout_doubles else 1) for name, value in parts.items())
    return GameScore((points[0], points[1]), (won[0], won[1]), True, winner, rules.game_bonus,
                     (box[0], box[1]), shutout, (totals[0], totals[1]))


# Requests for ``tablescore score gin``.

SAMPLES: tuple[dict[str, Any], ...] = (
    {"hand": ["4S", "4C", "4D", "4H", "5S", "5C", "5D", "6S", "2C", "3S", "3C"]},
    {"hand": ["3S", "4S", "5S", "2C", "3C", "4C", "5D", "2H", "3H", "4H", "5H"]},
    {"knocker": ["5H", "6H", "7H", "8H", "9H", "KS", "KH", "KD", "2C", "3D"], "defender": ["TH", "JH", "4H", "2S", "2D", "2H", "9C", "9D", "9S", "QC"]},
    {"knocker": ["2S", "3S", "4S", "6H", "7H", "8H", "9C", "9D", "9H", "2D"], "defender": ["5S", "TC", "JC", "QC", "KC", "7C", "7D", "7S", "AD", "AH"]},
    {"hands": [{"winner": "A", "points": 30}, {"winner": "B", "points": 12}, {"winner": "A", "points": 75}]},
)
"""A hand with overlapping sets and runs, a gin after the right discard, a knock with lay-offs in chains,
an undercut on a tie, and a game."""

HAND_SETTINGS = ("aces",)
KNOCK_SETTINGS = ("aces", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", "upcard", "spade_double",
                  "accept_illegal")
GAME_SETTINGS = ("limit", "game_bonus", "box_bonus", "shutout_multiplier", "shutout_doubles")
PLAYERS = ("A", "B")


def _flag(request: Mapping[str, Any], name: str, default: bool | None) -> bool | None:
    value = request.get(name, default)
    if value is not None and not isinstance(value, bool):
        raise RequestError(f"{name!r} must be true or false, not {value!r}")
    return value


def _aces(request: Mapping[str, Any]) -> Aces:
    try:
        return Aces(request.get("aces", "low"))
    except ValueError:
        raise RequestError(f"'aces' must be \"low\" or \"high-low\", not {request['aces']!r}") from None


def _cards_json(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _melding_json(melding: Melding) -> dict[str, Any]:
    """``deadwood``, ``melds``, ``unmatched`` and, after a discard, ``discard``."""
    result = {"deadwood": melding.deadwood, "melds": [_cards_json(m) for m in melding.melds],
              "unmatched": _cards_json(melding.unmatched)}
    return result if melding.discard is None else {**result, "discard": melding.discard.code}


def _hand_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"hand"}, optional=HAND_SETTINGS)
    cards = card_list(request, "hand", count=range(10, 12))
    return _melding_json(best_discard(cards, _aces(request)) if len(cards) == 11 else meld(cards, _aces(request)))


def knock_rules(request: Mapping[str, Any]) -> Rules:
    """The knock rules a request's settings name (the device's configuration uses the same names)."""
    ints = {name: int_field(request, name, 0, 100) for name in ("gin_bonus", "undercut_bonus", "big_gin_bonus")
            if name in request}
    if "knock_limit" in request:
        ints["knock_limit"] = int_field(request, "knock_limit", 0, 99)
    upcard = card_field(request, "upcard") if "upcard" in request else None
    return Rules(aces=_aces(request), upcard=upcard, spade_double=bool(_flag(request, "spade_double", False)), **ints)


def _knock_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"knocker", "defender"}, optional=KNOCK_SETTINGS)
    rules = knock_rules(request)
    knocker = card_list(request, "knocker", count=range(10, 12) if rules.big_gin_bonus else 10)
    defender = card_list(request, "defender", count=10)
    check_distinct({"knocker": knocker, "defender": defender, **({"upcard": [rules.upcard]} if rules.upcard else {})})
    try:
        hand = settle(knocker, defender, rules, _flag(request, "accept_illegal", None))
    except ValueError as error:
        raise RequestError(str(error)) from None
    if hand.result == "illegal":
        raise RequestError(
            f"illegal knock: the knocker's deadwood is {hand.knocker.deadwood}, over the knock limit of "
            f"{hand.limit} (the defender accepts it with \"accept_illegal\": true, or refuses with false)"
        )
    return {
        "winner": hand.winner,
        "points": hand.points,
        "result": hand.result,
        "layoffs": _cards_json(hand.layoffs),
        "legal": hand.legal,
        "big_gin": hand.big_gin,
        "knock_limit": hand.limit,
        "knocker": _melding_json(hand.knocker),
        "defender": _melding_json(hand.defender),
    }


def game_rules(request: Mapping[str, Any]) -> GameRules:
    """The game rules (limit, bonuses, shutout) a request's settings name."""
    settings: dict[str, Any] = {name: int_field(request, name, 0, 1000) for name in GAME_SETTINGS[:4] if name in request}
    if "shutout_doubles" in request:
        parts = request["shutout_doubles"]
        if not isinstance(parts, list) or not all(part in PARTS for part in parts):  # parts may be unhashable
            raise RequestError(f"'shutout_doubles' is a list of some of {', '.join(PARTS)}, not {parts!r}")
        settings["shutout_doubles"] = frozenset(parts)
    try:
        return GameRules(**settings)
    except ValueError as error:
        raise RequestError(str(error)) from None


def _game_hand(number: int, hand: object) -> tuple[int | None, int]:
    where = f"hands[{number}]"
    if not isinstance(hand, Mapping):
        raise RequestError(f"{where!r} is an object like {{\"winner\": \"A\", \"points\": 25}}, not {hand!r}")
    try:  # the shared checks name the field; say which hand it is in
        check_fields(hand, required={"winner"}, optional={"points"})
        points = int_field(hand, "points", 0, 10000) if "points" in hand else None
    except RequestError as error:
        raise RequestError(f"{where!r}: {error}") from None
    if hand["winner"] is None:
        if points:
            raise RequestError(f"{where!r} has no winner (a dead hand), so it scores no points")
        return None, 0
    if hand["winner"] not in PLAYERS:
        raise RequestError(f"{where + '.winner'!r} is \"A\", \"B\" or null, not {hand['winner']!r}")
    if points is None:
        raise RequestError(f"missing field 'points' in {where!r}")
    return PLAYERS.index(hand["winner"]), points


def _game_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"hands"}, optional=GAME_SETTINGS)
    rules = game_rules(request)
    hands = request["hands"]
    if not isinstance(hands, list):
        raise RequestError(f"'hands' is a list of hands, not {kind_of(hands)}")
    try:
        game = score_game((_game_hand(n, hand) for n, hand in enumerate(hands)), rules)
    except ValueError as error:
        raise RequestError(str(error)) from None
    return {
        "over": game.over,
        "winner": None if game.winner is None else PLAYERS[game.winner],
        "points": dict(zip(PLAYERS, game.points, strict=True)),
        "hands_won": dict(zip(PLAYERS, game.hands_won, strict=True)),
        "game_bonus": game.game_bonus,
        "box_bonuses": dict(zip(PLAYERS, game.box_bonuses, strict=True)),
        "shutout": game.shutout,
        "totals": dict(zip(PLAYERS, game.totals, strict=True)),
        "margin": game.margin,
    }


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one batch request: a ``hand`` (10 or 11 cards), a ``knocker`` and ``defender``, or a game's
    ``hands``, each with optional settings.

    >>> score_request({"knocker": "AS 2S 3S 4S 5S 6S 7S KD KH QC".split(), "defender": "2C 3C 4C 5C 6C 7C 8C 9C TC JC".split()})
    Traceback (most recent call last):
    ...
    scoring.requests.RequestError: illegal knock: the knocker's deadwood is 30, over the knock limit of 10 (...)
    """
    check_fields(request, required=(), optional={"hand", "knocker", "defender", "hands", *KNOCK_SETTINGS, *GAME_SETTINGS})
    if "hand" in request:
        return _hand_request(request)
    if "knocker" in request or "defender" in request:
        return _knock_request(request)
    if "hands" in request:
        return _game_request(request)
    raise RequestError("a gin request has a 'hand', a 'knocker' and a 'defender', or a game's 'hands'")


INT_OPTIONS = {"knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", *GAME_SETTINGS[:4]}


def _words(value: Option) -> list[str]:
    return [value] if isinstance(value, str) else [] if value is True else list(value)  # type: ignore[arg-type]


def _option(name: str, value: Option) -> Any:
    if name in ("knocker", "defender", "shutout_doubles"):
        return _words(value)
    if name in ("accept_illegal", "spade_double"):
        if value is True or value in ("yes", "true"):
            return True
        if value in ("no", "false"):
            return False
        raise RequestError(f"--{name.replace('_', '-')} takes yes or no, not {value!r}")
    if isinstance(value, (bool, list)):
        raise RequestError(f"--{name.replace('_', '-')} takes one value")
    if name in INT_OPTIONS:
        if not value.isdigit():
            raise RequestError(f"--{name.replace('_', '-')} takes a whole number, not {value!r}")
        return int(value)
    return value


def _game_hand_arg(word: str) -> dict[str, Any]:
    """``A25``, ``B:12`` or ``-`` (a dead hand) as a game hand."""
    if word == "-":
        return {"winner": None}
    player, points = word[:1].upper(), word[1:].lstrip(":")
    if player not in PLAYERS or not points.isdigit():
        raise RequestError(f"a game hand is A or B then its points (A25, B:12), or - for a dead hand; not {word!r}")
    return {"winner": player, "points": int(points)}


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    """The readable form: ``gin 10-or-11 CARDS``, ``gin --knocker CARDS --defender CARDS [--accept-illegal]``
    or ``gin --hands A25 B12 - ...``, each with ``--setting value`` options.

    >>> request_from_args([], {"hands": ["A25", "b:12", "-"], "limit": "200"})
    {'hands': [{'winner': 'A', 'points': 25}, {'winner': 'B', 'points': 12}, {'winner': None}], 'limit': 200}
    """
    request: dict[str, Any] = {"hand": cards} if cards else {}
    for name, value in options.items():
        if name == "hands":
            request["hands"] = [_game_hand_arg(word) for word in _words(value)]
        else:
            request[name] = _option(name, value)
    return request


def _meld_lines(arrangement: Mapping[str, Any]) -> str:
    melds = "  ".join(" ".join(m) for m in arrangement["melds"]) or "none"
    return f"melds {melds}; unmatched {' '.join(arrangement['unmatched']) or 'none'}"


def render(result: Mapping[str, Any]) -> str:
    """A result as text for a person.

    >>> print(render(score_request(SAMPLES[2])))
    knock: knocker wins 5
      knocker deadwood 5: melds 5H 6H 7H 8H 9H  KS KH KD; unmatched 3D 2C
      defender lays off 4H TH JH
      defender deadwood 10: melds 2S 2H 2D  9S 9D 9C; unmatched QC
    """
    if "deadwood" in result:
        discard = f"discard {result['discard']}, " if "discard" in result else ""
        return f"{discard}deadwood {result['deadwood']}: {_meld_lines(result)}"
    if "result" in result:
        lines = [f"{result['result']}: " + (f"{result['winner']} wins {result['points']}" if result["winner"]
                                              else "no score, the knocker's cards stay face up")]
        if not result["legal"]:
            lines[0] += f" (an illegal knock: deadwood {result['knocker']['deadwood']} over {result['knock_limit']})"
        lines.append(f"  knocker deadwood {result['knocker']['deadwood']}: {_meld_lines(result['knocker'])}")
        if result["layoffs"]:
            lines.append(f"  defender lays off {' '.join(result['layoffs'])}")
        lines.append(f"  defender deadwood {result['defender']['deadwood']}: {_meld_lines(result['defender'])}")
        return "\n".join(lines)
    state = "game over" if result["over"] else "game goes on"
    lines = [f"{state}: " + ", ".join(f"{p} {result['points'][p]} points (won {result['hands_won'][p]})"
                                      for p in PLAYERS)]
    if result["over"]:
        lines.append(f"  {result['winner']} wins: game bonus {result['game_bonus']}, box bonuses "
                     + ", ".join(f"{p} {result['box_bonuses'][p]}" for p in PLAYERS)
                     + (", shutout" if result["shutout"] else ""))
        lines.append("  totals " + ", ".join(f"{p} {result['totals'][p]}" for p in PLAYERS)
                     + f"; {result['winner']} by {result['margin']}")
    return "\n".join(lines)
