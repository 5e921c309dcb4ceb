"""A Pinzique round (takeaway points, bonus rounds) and a whole game (ten rounds, playoffs, partners).

Takeaway [fragment]: melds are compared within a family (a suit's marriages, the Pinzique, a rank, a
suit's runs). Whoever holds less than the best of a family loses that meld's points for the round; equal
holdings keep theirs; the taker gains nothing. The fragment's third example: Player 1's four Queens fall
to Player 2's five.

>>> one = score_roll(parse_cards("QS QH QD QC JS KH KC 9S"))
>>> two = score_roll(parse_cards("QS QH QD QC QH KH KD JS"))
>>> result = settle_round([one, two])
>>> result.points, [[(loss.meld.code, loss.to) for loss in lost] for lost in result.losses], result.bonus
((120, 180), [[('4Q', (1,))], []], (False, True))

Everything here is pure and frozen: a Game move returns the next Game. A game as a table plays it is moved
on by typed events, ``Rolled(faces)`` (the side up's next roll; after the last roll a turn allows, the turn
ends by itself) and ``Stood()`` (the side up keeps its latest roll): ``game.apply(event)``.

>>> game = Game.new(["Ann", "Bob"], rounds=1).apply(Rolled(tuple(parse_cards("9H TH JH QH KH KH QH 9C"))))
>>> game = game.apply(decode(*Stood().record()))
>>> game.up, game.finals[0].total
(1, 685)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from scoring.cards import Card, parse_cards
from scoring.errors import RuleError
from scoring.events import Record
from scoring.pinzique_guide import DICE, ScoreGuide
from scoring.pinzique_roll import Meld, RollScore, default_guide, score_roll
from scoring.requests import check_fields

__all__ = [
    "Event", "Game", "GameError", "Loss", "Rolled", "RoundResult", "SheetRow", "Stood", "decode", "parse_cards",
    "settle_round",
]

ROUNDS = 10
"""Regular rounds in a game [fragment: "the standard ten round game"]."""


class GameError(RuleError):
    """A move the game cannot take now (rolling out of turn, standing before rolling...)."""


@dataclass(frozen=True, slots=True)
class Loss:
    """A meld taken away, and the players (by place in the round) holding the best of its family."""

    meld: Meld
    to: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.meld.code, "points": self.meld.points, "to": list(self.to)}


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Every player's final roll in one round, and the melds each lost to takeaway.

    In a bonus round, settled only among that round's bonus players, nobody earns another bonus round.
    """

    rolls: tuple[RollScore, ...]
    losses: tuple[tuple[Loss, ...], ...]
    bonus_round: bool = False

    @property
    def points(self) -> tuple[int, ...]:
        """Each player's points after takeaway."""
        return tuple(roll.total - sum(loss.meld.points for loss in lost)
                     for roll, lost in zip(self.rolls, self.losses, strict=True))

    @property
    def bonus(self) -> tuple[bool, ...]:
        """Who earns a bonus round: scored on all eight dice and lost nothing [fragment]."""
        return tuple(not self.bonus_round and roll.all_dice and not lost
                     for roll, lost in zip(self.rolls, self.losses, strict=True))

    def to_json(self) -> dict[str, Any]:
        """The batch form of a ``round`` request's answer."""
        return {"points": list(self.points), "bonus": list(self.bonus),
                "lost": [[loss.to_json() for loss in lost] for lost in self.losses],
                "rolls": [roll.to_json() for roll in self.rolls], "bonus_round": self.bonus_round}


def settle_round(rolls: Sequence[RollScore], bonus_round: bool = False) -> RoundResult:
    """Settle takeaway points among the players' final rolls (one roll a player, in turn order).

    A third player holding more knocks out both [fragment: "will then knock points off the preceding two"]:

    >>> jacks = [score_roll(parse_cards(roll)) for roll in
    ...          ("JS JH JD JC 9C TS 9S TC", "JS JH JD JC JC TS 9S TC", "JS JH JD JC JC JD 9S TC")]
    >>> [[(loss.meld.code, loss.to) for loss in lost] for lost in settle_round(jacks).losses]
    [[('4J', (2,))], [('5J', (2,))], []]
    """
    best: dict[str, tuple[int, ...]] = {}
    for roll in rolls:
        for meld in roll.melds:
            best[meld.family] = max(best.get(meld.family, meld.strength), meld.strength)
    holders = {family: tuple(player for player, roll in enumerate(rolls)
                             if any(meld.family == family and meld.strength == strength for meld in roll.melds))
               for family, strength in best.items()}
    losses = tuple(tuple(Loss(meld, holders[meld.family]) for meld in roll.melds if meld.strength < best[meld.family])
                   for roll in rolls)
    return RoundResult(tuple(rolls), losses, bonus_round)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One settled round on the score sheet: ``label`` is ``3`` for round 3, ``B-3`` for its bonus round,
    ``P1`` for the first playoff round; ``sides`` played it, in turn order."""

    label: str
    sides: tuple[int, ...]
    result: RoundResult

    def points_of(self, side: int) -> int | None:
        """The side's points in this round, or None if it did not play it."""
        return self.result.points[self.sides.index(side)] if side in self.sides else None


@dataclass(frozen=True)
class Game:
    """A game in progress: the sides (a player, or partners sharing a score sheet), the settled rounds,
    and the round being played. ``Game.new`` starts one; ``roll`` and ``stand`` move it on.

    >>> game = Game.new(["Ann", ("Bob", "Cy")], rounds=1)
    >>> game.label, game.up, game.rolls_left
    ('1', 0, 3)
    >>> game = game.roll(parse_cards("9C TD JD QS KH AC 9S TC")).stand()
    >>> game = game.roll(parse_cards("9C TD JD QS KH AC 9S TC")).stand()
    >>> game.label, game.playing, game.totals
    ('P1', (0, 1), (0, 0))
    >>> game = game.roll(parse_cards("JS JH JD JC QH KH KC QC")).stand()
    >>> game = game.roll(parse_cards("9C TD JD QS KH AC 9S TC")).stand()
    >>> game.label, game.playing, game.totals
    ('B-P1', (0,), (160, 0))
    >>> game = game.roll(parse_cards("9C TD JD QS KH AC 9S TC")).stand()
    >>> game.over, game.winner, [row.label for row in game.sheet]
    (True, 0, ['1', 'P1', 'B-P1'])
    """

    sides: tuple[tuple[str, ...], ...]
    guide: ScoreGuide
    rolls_per_turn: int
    rounds: int = ROUNDS
    sheet: tuple[SheetRow, ...] = ()
    label: str = "1"
    playing: tuple[int, ...] = ()
    finals: tuple[RollScore, ...] = ()
    last: RollScore | None = None
    rolls_made: int = 0

    @classmethod
    def new(cls, sides: Sequence[str | Sequence[str]], guide: ScoreGuide | None = None,
            rolls_per_turn: int | None = None, rounds: int = ROUNDS) -> Game:
        """A new game. A side is a player's name, or two partners' names: partners share a score sheet,
        take one turn a round between them and score as one team [fragment: "play as a team"].
        ``rolls_per_turn`` defaults to the score guide's (3)."""
        guide = guide or default_guide()
        if isinstance(sides, str):
            raise GameError(f"sides is a list of players or pairs of partners, not the one name {sides!r}")
        teams = tuple((side,) if isinstance(side, str) else tuple(side) for side in sides)
        names = [name for team in teams for name in team]
        if not teams:
            raise GameError("a game needs at least one side")
        for team in teams:
            if not 1 <= len(team) <= 2 or not all(isinstance(name, str) and name.strip() for name in team):
                raise GameError(f"a side is one player or two partners, each with a name, not {team!r}")
        if len(set(names)) != len(names):
            raise GameError(f"each player's name must differ: {', '.join(names)}")
        rolls = guide.rolls if rolls_per_turn is None else rolls_per_turn
        if not 1 <= rolls <= 10 or not 1 <= rounds <= 100:
            raise GameError(f"rolls a turn must be 1 to 10 and rounds 1 to 100, not {rolls} and {rounds}")
        return cls(teams, guide, rolls, rounds, playing=tuple(range(len(teams))))

    @property
    def over(self) -> bool:
        """Whether the game has ended (ten rounds, their bonus rounds, and playoffs while the lead was tied)."""
        return not self.playing

    @property
    def up(self) -> int | None:
        """The side whose turn it is, or None when the game is over."""
        return None if self.over else self.playing[len(self.finals)]

    @property
    def rolls_left(self) -> int:
        """Rolls the side up may still make this turn."""
        return self.rolls_per_turn - self.rolls_made

    def roll(self, faces: Sequence[Card]) -> Game:
        """Record the side up's next roll (all eight faces showing); the turn ends by itself after the
        last roll allowed. Raises RollError if the dice cannot show the faces."""
        if self.over:
            raise GameError("the game is over")
        if not self.rolls_left:
            raise GameError(f"a turn has {self.rolls_per_turn} rolls; this one has had them all")
        game = replace(self, last=score_roll(faces, self.guide), rolls_made=self.rolls_made + 1)
        return game.stand() if not game.rolls_left else game

    def stand(self) -> Game:
        """End the side up's turn, its latest roll being its final roll."""
        if self.over:
            raise GameError("the game is over")
        if self.last is None:
            raise GameError("roll the dice before ending the turn")
        game = replace(self, finals=(*self.finals, self.last), last=None, rolls_made=0)
        return game if len(game.finals) < len(game.playing) else game._settled()

    def apply(self, event: Event) -> Game:
        """The game after a table's ``event``."""
        return self.stand() if isinstance(event, Stood) else self.roll(event.faces)

    def _settled(self) -> Game:
        """The game after settling the round just played, at the start of the next (or over)."""
        result = settle_round(self.finals, bonus_round=self.label.startswith("B-"))
        game = replace(self, sheet=(*self.sheet, SheetRow(self.label, self.playing, result)), finals=())
        if any(result.bonus):
            bonus = tuple(side for side, earned in zip(self.playing, result.bonus, strict=True) if earned)
            return replace(game, label=f"B-{self.label}", playing=bonus)
        origin = self.label.removeprefix("B-")
        if origin.isdigit() and int(origin) < self.rounds:
            return replace(game, label=str(int(origin) + 1), playing=tuple(range(len(self.sides))))
        if len(game.leaders) > 1:  # playoff rounds among the tied leaders, one at a time, until one leads
            playoffs = sum(row.label.startswith("P") for row in game.sheet)
            return replace(game, label=f"P{playoffs + 1}", playing=game.leaders)
        return replace(game, label="", playing=())

    @property
    def totals(self) -> tuple[int, ...]:
        """Each side's running total over the settled rounds."""
        return tuple(sum(row.points_of(side) or 0 for row in self.sheet) for side in range(len(self.sides)))

    @property
    def leaders(self) -> tuple[int, ...]:
        """The sides with the highest total."""
        totals = self.totals
        return tuple(side for side, total in enumerate(totals) if total == max(totals))

    @property
    def winner(self) -> int | None:
        """The side with the highest total once the game is over [assumed: highest total wins]."""
        return self.leaders[0] if self.over else None


@dataclass(frozen=True, slots=True)
class Rolled:
    """The side up's next roll: the dice's faces."""

    kind: ClassVar[str] = "roll"
    faces: tuple[Card, ...]

    def record(self) -> Record:
        return self.kind, {"faces": [card.code for card in self.faces]}


@dataclass(frozen=True, slots=True)
class Stood:
    """The side up keeps its latest roll as its final one."""

    kind: ClassVar[str] = "stand"

    def record(self) -> Record:
        return self.kind, {}


Event = Rolled | Stood
"""Every event of a game of Pinzique."""


def decode(kind: str, data: Mapping[str, Any]) -> Event:
    """The event a journal's record holds; ``RuleError`` for one that cannot be.

    >>> decode("roll", {"faces": ["9H"]})
    Traceback (most recent call last):
    ...
    scoring.pinzique_game.GameError: 'faces' is a list of the 8 dice's faces, not ['9H']
    """
    if kind == "stand":
        check_fields(data, ())
        return Stood()
    if kind != "roll":
        raise GameError(f"unknown Pinzique event {kind!r}")
    check_fields(data, ("faces",))
    faces = data["faces"]
    if not isinstance(faces, list) or len(faces) != DICE:
        raise GameError(f"'faces' is a list of the {DICE} dice's faces, not {faces!r}")
    return Rolled(tuple(parse_cards(faces)))
