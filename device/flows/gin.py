"""Gin Rummy at the table: the knock, both hands read, the settlement with its lay-offs, to the limit.

The table (docs/DEVICE.md): the stock and the discard pile lie in the centre; when a player knocks
(their seat panel's Action, or the buttons), both players lay their hands face up in their own seat
areas, the knocker's melds and deadwood apart as they like: the device arranges them itself. The engine
is ``scoring.gin``, its game as played ``scoring.gin_hand``; this flow offers that game's events: a knock (by
either player, or a seat panel's Action), a dead hand, and once both hands are laid out, the hands settled
(for an illegal knock, accepted or refused by the defender).

>>> flow = GinFlow(["Ann", "Bob"], {})
>>> state = flow.apply(flow.start(["Ann", "Bob"], {}), Knocked(0))
>>> state = flow.apply(state, flow.decode("hand", {"knocker": "5H 6H 7H 8H 9H KS KH KD 2C 3D".split(),
...                                                "defender": "TH JH 4H 2S 2D 2H 9C 9D 9S QC".split()}))
>>> knocker, settled = state.last
>>> state.score.points, settled.result, [card.code for card in settled.layoffs]
((5, 0), 'knock', ['4H', 'TH', 'JH'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from device.flows.flow import Flow, Option, Prompt, check_settings, totals
from device.flows.table import seat_zone
from device.inputs import Press
from scoring import gin_hand
from scoring.cards import Card
from scoring.errors import RuleError
from scoring.events import Event
from scoring.gin import Rules, Settlement
from scoring.gin_hand import DeadHand, Knocked, Progress, Shown, decode
from scoring.gin_melds import Aces
from scoring.requests.gin import game_rules, knock_rules

__all__ = ["GinFlow"]

SETTINGS = {
    "limit": "100, 200, 250, 300 or 500", "game_bonus": "points", "box_bonus": "points",
    "shutout_multiplier": "a number", "shutout_doubles": "some of points, game, box",
    "aces": '"low" or "high-low"', "knock_limit": "deadwood", "gin_bonus": "points",
    "undercut_bonus": "points", "big_gin_bonus": "points (0: none)",
}
KNOCK_SETTINGS = ("aces", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus")


class GinFlow(Flow[Progress]):
    """Gin Rummy for two players, to the chosen limit (Hoyle's rules and bonuses by default)."""

    name = "gin"

    def start(self, players: list[str], settings: dict[str, Any]) -> Progress:
        check_settings("Gin Rummy", settings, SETTINGS)
        if len(players) != 2:
            raise ValueError(f"Gin Rummy is for two players, not {len(players)}")
        knock = {name: value for name, value in settings.items() if name in KNOCK_SETTINGS}
        game = {name: value for name, value in settings.items() if name not in KNOCK_SETTINGS}
        return Progress(knock_rules(knock), game_rules(game))

    def apply(self, state: Progress, event: Event) -> Progress:
        if not isinstance(event, gin_hand.Event):
            raise RuleError(f"{event} is no Gin Rummy event")
        return state.apply(event)

    def decode(self, kind: str, data: Mapping[str, Any]) -> Event:
        return decode(kind, data)

    def hand(self, state: Progress) -> int:
        return state.settled

    def panel(self, state: Progress, pressed: Press) -> Event | None:
        """A seat's Action knocks."""
        assert pressed.seat is not None
        return Knocked(pressed.seat - 1) if state.knocker is None else None

    def result(self, state: Progress) -> dict[str, Any] | None:
        score = state.score
        if not score.over or score.winner is None:
            return None
        return {"winner": self.players[score.winner], "totals": list(score.totals), "points": list(score.points),
                "game_bonus": score.game_bonus, "box_bonuses": list(score.box_bonuses), "shutout": score.shutout}

    # What the flow sees.

    def prompt(self, state: Progress) -> Prompt:
        score = state.score
        if score.over:
            return self._over(state)
        last = ["last hand:", *self._settlement_lines(*state.last, state.rules)] if state.last else []
        if state.knocker is None:
            knocks = [Option(f"{name} knocks", Knocked(seat)) for seat, name in enumerate(self.players)]
            return self._prompt(state, "Gin Rummy", last, [*knocks, Option("dead hand", DeadHand())])
        knocker, defender = state.knocker, 1 - state.knocker
        held = self.table.cards(seat_zone(knocker)), self.table.cards(seat_zone(defender))
        wanted = (11 if len(held[0]) == 11 and state.rules.big_gin_bonus else 10), 10
        if tuple(map(len, held)) != wanted:
            counts = ", ".join(f"{self.players[seat]} {len(cards)} of {n}"
                               for seat, cards, n in zip((knocker, defender), held, wanted, strict=True))
            lines = [f"lay out both hands: {counts}", *self.unread(seat_zone(0), seat_zone(1))]
            return self._prompt(state, f"{self.players[knocker]} knocks", lines)
        shown = Shown(*held)
        trial = self.trial(state, shown)
        if isinstance(trial, str) and trial.startswith("illegal knock"):
            accept, refuse = replace(shown, accept=True), replace(shown, accept=False)
            accepted, refused = self.trial(state, accept), self.trial(state, refuse)
            assert not isinstance(accepted, str) and not isinstance(refused, str)
            assert accepted.last is not None and refused.last is not None
            options = [Option(f"{self.players[defender]} accepts", accept),
                       Option(f"{self.players[defender]} refuses", refuse)]
            lines = [*self._settlement_lines(*refused.last, state.rules)[:-1], "if accepted:",
                     *self._settlement_lines(*accepted.last, state.rules)[-1:]]
            return self._prompt(state, "illegal knock", lines, options)
        if isinstance(trial, str):
            return self._prompt(state, f"{self.players[knocker]} knocks", [f"! {trial}"])
        assert trial.last is not None
        lines = self._settlement_lines(*trial.last, state.rules)
        return self._prompt(state, lines[-1], lines[:-1], [Option(lines[-1], shown)])

    def _over(self, state: Progress) -> Prompt:
        score = state.score
        assert score.winner is not None
        lines = [f"{name}: {points} + box {box}" for name, points, box in
                 zip(self.players, score.points, score.box_bonuses, strict=True)]
        lines.append(f"game bonus {score.game_bonus}" + (", shutout: doubled" if score.shutout else ""))
        return Prompt(f"{self.players[score.winner]} wins", totals(score.totals), tuple(lines))

    def _prompt(self, state: Progress, title: str, lines: Iterable[str], options: Iterable[Option] = ()) -> Prompt:
        score = state.score
        standing = "  ".join(f"{name} {points}" for name, points in zip(self.players, score.points, strict=True))
        return Prompt(title, totals(score.points),
                      (*lines, f"{standing}  (to\u00a0{state.game_rules.limit})"), tuple(options))

    def _settlement_lines(self, knocker: int, settled: Settlement, rules: Rules) -> list[str]:
        """The knock as the table settles it: the knocker's melds and deadwood, each lay-off card by card,
        the defender's melds and deadwood, and what it scores (the last line)."""
        names = self.players[knocker], self.players[1 - knocker]
        lines = [f"{names[0]}: {_meld(meld)}" for meld in settled.knocker.melds]
        lines.append(f"{names[0]} deadwood {settled.knocker.deadwood}: {_symbols(settled.knocker.unmatched)}")
        lines += [f"{names[1]} lays off {card.symbol} on {_meld(meld)}" for card, meld in _layoffs(settled, rules.aces)]
        lines += [f"{names[1]}: {_meld(meld)}" for meld in settled.defender.melds]
        lines.append(f"{names[1]} deadwood {settled.defender.deadwood}: {_symbols(settled.defender.unmatched)}")
        winner = names[0] if settled.winner == "knocker" else names[1]
        lines.append({"gin": f"gin: {winner} {settled.points}", "knock": f"{winner} scores {settled.points}",
                      "undercut": f"undercut: {winner} {settled.points}",
                      "refused": f"knock refused: {names[0]} shows, play on"}.get(settled.result, settled.result))
        return lines


def _layoffs(settled: Settlement, aces: Aces) -> list[tuple[Card, tuple[Card, ...]]]:
    """Each card the defender laid off, in an order in which it can be laid, with the meld it goes on.

    >>> from scoring.gin import settle
    >>> from scoring.requests import cards_of
    >>> hand = settle(cards_of("5H 6H 7H 8H 9H KS KH KD 2C 3D".split(), "k"), cards_of("TH JH 4H 2S 2D 2H 9C 9D 9S QC".split(), "d"))
    >>> [(card.code, len(meld)) for card, meld in _layoffs(hand, Aces.LOW)]
    [('4H', 5), ('TH', 5), ('JH', 5)]
    """
    grown = [list(meld) for meld in settled.knocker.melds]
    left = list(settled.layoffs)
    laid = []
    while left:
        fits = [(card, n) for card in left for n, meld in enumerate(grown) if _extends(meld, card, aces)]
        if not fits:
            raise ValueError(f"{_symbols(left)} cannot be laid off")
        card, n = fits[0]
        laid.append((card, settled.knocker.melds[n]))
        grown[n].append(card)
        left.remove(card)
    return laid


def _extends(meld: list[Card], card: Card, aces: Aces) -> bool:
    """Whether ``card`` adds to ``meld``: a set's fourth card, or a run's next card at either end."""
    if len({c.rank for c in meld}) == 1:
        return card.rank == meld[0].rank
    if card.suit != meld[0].suit:
        return False
    high = aces is Aces.HIGH_LOW and any(c.rank == 13 for c in meld)
    places = sorted(14 if high and c.rank == 1 else int(c.rank) for c in meld)
    spots = {int(card.rank)} | ({14} if aces is Aces.HIGH_LOW and card.rank == 1 else set())
    return bool(spots & {places[0] - 1, places[-1] + 1})


def _meld(meld: tuple[Card, ...]) -> str:
    """A meld in few characters: a run by its ends (``5♥-9♥``), a set card by card.

    >>> from scoring.cards import parse_cards
    >>> _meld(tuple(parse_cards(["5H", "6H", "7H"]))), _meld(tuple(parse_cards(["KS", "KH", "KD"])))
    ('5♥-7♥', 'K♠ K♥ K♦')
    """
    if len({card.rank for card in meld}) == 1:
        return _symbols(meld)
    return f"{meld[0].symbol}-{meld[-1].symbol}"


def _symbols(cards: Iterable[Card]) -> str:
    return " ".join(card.symbol for card in cards) or "-"

