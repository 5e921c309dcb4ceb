"""The 28-hand game of Barbu: who declares, the contracts each has left, running totals, and the
obligation to double.

Each player in turn declares seven hands, one of each contract, the deal passing left after their seven
(``Rules.deal_passes_each_hand``: after every hand). During the seven hands a player declares, every
other player must double them at least twice (``Rules.doubles_owed``); the game says who still owes
doubles before a declarer's last hands and refuses a hand that would leave a double impossible to make.

>>> from scoring.barbu import Contract, Double, dominoes_hand
>>> game = Game()
>>> game.declarer, game.contracts_left(0)[-1], game.owed()
(0, <Contract.DOMINOES: 'D'>, {1: 2, 2: 2, 3: 2})
>>> game = game.record(dominoes_hand(0, [1, 2, 3, 0], [Double(1, 0), Double(2, 0), Double(2, 3)]))
>>> game.totals, sum(game.totals), game.owed()
((-80, 95, 60, -10), 65, {1: 1, 2: 1, 3: 2})
>>> game.record(dominoes_hand(0, [0, 1, 2, 3]))
Traceback (most recent call last):
...
scoring.barbu.BarbuError: seat 0 has already declared Dominoes (left: NT, Q, LT, H, K, T)
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.barbu import SEATS, STANDARD_RULES, BarbuError, Contract, Hand, Rules, check_doubles

__all__ = ["HANDS", "Game"]

CONTRACTS = len(Contract)
"""Each player declares each contract once: seven hands."""

HANDS = SEATS * CONTRACTS
"""A game is 28 hands."""


@dataclass(frozen=True, slots=True)
class Game:
    """A game of Barbu so far: the hands recorded, in order, from ``first_dealer``'s first."""

    first_dealer: int = 0
    rules: Rules = STANDARD_RULES
    hands: tuple[Hand, ...] = ()

    @property
    def over(self) -> bool:
        """Whether all 28 hands are played."""
        return len(self.hands) == HANDS

    @property
    def declarer(self) -> int | None:
        """Who deals and declares the next hand (None once the game is over)."""
        return None if self.over else self.declarer_of(len(self.hands))

    def declarer_of(self, number: int) -> int:
        """Who declares hand ``number`` (counted from 0).

        >>> [Game(first_dealer=2).declarer_of(number) for number in (0, 6, 7, 27)]
        [2, 2, 3, 1]
        >>> [Game(rules=Rules(deal_passes_each_hand=True)).declarer_of(number) for number in (0, 1, 4, 27)]
        [0, 1, 0, 3]
        """
        turn = number if self.rules.deal_passes_each_hand else number // CONTRACTS
        return (self.first_dealer + turn) % SEATS

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's running total: the sum of its net scores so far."""
        return tuple(sum(hand.net[seat] for hand in self.hands) for seat in range(SEATS))

    def contracts_left(self, seat: int) -> tuple[Contract, ...]:
        """The contracts ``seat`` has not yet declared."""
        declared = {hand.contract for hand in self.hands if hand.declarer == seat}
        return tuple(contract for contract in Contract if contract not in declared)

    def hands_left(self, seat: int) -> int:
        """How many hands ``seat`` has still to declare."""
        return len(self.contracts_left(seat))

    def doubles(self, by: int, on: int) -> int:
        """How often ``by`` has doubled ``on`` in hands ``on`` declared."""
        return sum(any(double.by == by and double.on == on for double in hand.doubles)
                   for hand in self.hands if hand.declarer == on)

    def owed(self, declarer: int | None = None) -> dict[int, int]:
        """The doubles each player still owes ``declarer`` (default: the next declarer), if any."""
        if declarer is None:
            declarer = self.declarer
        if declarer is None:
            return {}
        owed = {by: self.rules.doubles_owed - self.doubles(by, declarer) for by in range(SEATS) if by != declarer}
        return {by: count for by, count in owed.items() if count > 0}

    def must_double(self) -> tuple[int, ...]:
        """The players who must double the next declarer in the coming hand, or be unable to pay what
        they owe."""
        declarer = self.declarer
        if declarer is None:
            return ()
        left = self.hands_left(declarer)
        return tuple(by for by, count in self.owed().items() if count >= left)

    def reminder(self) -> str | None:
        """Before a declarer's last hands (as many as the doubles owed), who still owes them doubles.

        >>> from scoring.barbu import Hand
        >>> game = Game()
        >>> for contract in list(Contract)[:5]:
        ...     game = game.record(Hand(contract, 0, (contract.total, 0, 0, 0)))
        >>> print(game.reminder())
        seat 0 has 2 hands left to declare; doubles owed them: seat 1 owes 2, seat 2 owes 2, seat 3 owes 2; must double in this hand: seat 1, seat 2, seat 3
        """
        declarer = self.declarer
        if declarer is None:
            return None
        left = self.hands_left(declarer)
        owed = self.owed()
        if not owed or left > self.rules.doubles_owed:
            return None
        debts = ", ".join(f"seat {by} owes {count}" for by, count in owed.items())
        text = f"seat {declarer} has {_hands(left)} left to declare; doubles owed them: {debts}"
        must = self.must_double()
        if must:
            text += f"; must double in this hand: {', '.join(f'seat {by}' for by in must)}"
        return text

    def record(self, hand: Hand) -> Game:
        """The game with ``hand`` played: it must be the right declarer's, a contract they have left,
        and carry the doubles that can no longer wait."""
        declarer = self.declarer
        if declarer is None:
            raise BarbuError(f"the game is over: all {HANDS} hands are played")
        number = len(self.hands) + 1
        if hand.declarer != declarer:
            raise BarbuError(f"hand {number} is declared by seat {declarer}, not seat {hand.declarer}")
        if len(hand.scores) != SEATS or sum(hand.scores) != hand.contract.total:
            raise BarbuError(f"hand {number}'s raw scores {list(hand.scores)} do not sum to {hand.contract.title}'s "
                             f"{hand.contract.total}")
        check_doubles(declarer, hand.doubles, self.rules)
        left = self.contracts_left(declarer)
        if hand.contract not in left:
            codes = ", ".join(contract.value for contract in left)
            raise BarbuError(f"seat {declarer} has already declared {hand.contract.title} (left: {codes})")
        for by in self.must_double():
            if not any(double.by == by and double.on == declarer for double in hand.doubles):
                raise BarbuError(f"seat {by} must double seat {declarer} in hand {number}: they owe "
                                 f"{self.owed()[by]} and seat {declarer} has {_hands(len(left))} left to declare")
        return Game(self.first_dealer, self.rules, self.hands + (hand,))

    def __post_init__(self) -> None:
        if self.first_dealer not in range(SEATS):
            raise BarbuError(f"the first dealer must be a seat 0-3, not {self.first_dealer!r}")


def _hands(count: int) -> str:
    return "1 hand" if count == 1 else f"{count} hands"
