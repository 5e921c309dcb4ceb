"""Gin Rummy (Hoyle): settling a knock and the game's bonuses (its requests: ``scoring.requests.gin``).

Melds and deadwood live in ``scoring.gin_melds``. A knock is settled as Hoyle plays it (see
docs/rules/gin.md): a knock is legal at 10 or less deadwood; gin (no deadwood) scores 25 plus the defender's
deadwood and the defender may not lay off; otherwise the defender "plays off" unmatched cards onto the
knocker's melds and the lower deadwood scores the difference, the defender adding the 25 undercut bonus
when its deadwood is lower or equal ("higher than or equal to that of the non-knocking player").

>>> hand = settle(parse_cards("5H 6H 7H 8H 9H KS KH KD 2C 3D"), parse_cards("TH JH 4H 2S 2D 2H 9C 9D 9S QC"))
>>> hand.result, hand.winner, hand.points, [str(c) for c in hand.layoffs]
('knock', 'knocker', 5, ['4H', 'TH', 'JH'])
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from scoring.cards import Card, Rank, Suit, parse_cards  # noqa: F401 (parse_cards: for the doctests)
from scoring.gin_melds import (
    SUIT_BITS,
    Aces,
    Melding,
    arrangements,
    card_value,
    cards_of_mask,
    mask_deadwood,
    mask_of,
    meld,
    melding_of,
)
from scoring.requests import (
    check_distinct,
)

__all__ = [
    "GameRules",
    "GameScore",
    "Rules",
    "Settlement",
    "score_game",
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
