"""Whole games played at a scripted table (``tests.device.flows.script.Table``) onto a journal, each with
its engine's reference: the journals the history tests list, export and draw, and the finished games whose
winner's page the flow screens show."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from device.journal import Journal
from scoring.barbu_game import Game as BarbuGame
from scoring.cards import DECK
from scoring.cribbage_game import Game as CribbageGame
from scoring.cribbage_game import Settings
from scoring.gin import GameRules, Rules, score_game, settle
from scoring.ofc import ROWS
from scoring.ofc import Rules as OfcRules
from scoring.ofc import settle as settle_boards
from scoring.pinzique_game import Game as PinziqueGame
from tests.device.flows import test_barbu, test_cribbage, test_gin, test_ofc, test_pinzique
from tests.device.flows.script import Table

START = 1_717_000_000.0  # 2024-05-29 16:26:40 UTC


def table(path: Path, game: str, players: list[str], settings: dict[str, Any] | None = None,
          clock: Callable[[], float] | None = None) -> Table:
    """A scripted table on the journal at ``path`` whose clock ticks a minute an event, from ``START``: the
    game is begun on that clock, and the table's device resumes it."""
    clock = clock or itertools.count(START, 60).__next__
    with Journal(path, clock=clock) as journal:
        if journal.current_game() is None or journal.current_game().game != game:
            journal.start_game(game, players, settings or {})
    scripted = Table(path, game, players, settings)
    scripted.journal.clock = clock
    return scripted


# Each game returns its engine's reference: (final totals, winner or None).

def cribbage(path: Path, seed: int = 1, players: int = 2) -> tuple[list[int], str]:
    scripted = table(path, "cribbage", test_cribbage.NAMES[:players])
    reference = test_cribbage.play_out(scripted, CribbageGame(Settings(players)), random.Random(seed))
    assert reference.outcome is not None
    names = test_cribbage.NAMES
    winner = reference.outcome.winner
    return list(reference.scores), names[winner] + (f" & {names[winner + 2]}" if players == 4 else "")


def gin(path: Path) -> tuple[list[int], str]:
    """A game to 100 of legal and illegal (accepted, refused) knocks and a dead hand."""
    rng = random.Random(3)
    scripted = table(path, "gin", test_gin.NAMES, {"limit": 100})
    hands: list[tuple[int | None, int]] = []
    rules = GameRules(limit=100)
    for number in itertools.count():
        if score_game(hands, rules).over:
            break
        scripted.take()
        kind = ["refuse", "dead", "accept"][number] if number < 3 else "legal"
        if kind == "dead":
            scripted.choose("dead hand")
            hands.append((None, 0))
            continue
        seat = number % 2
        scripted.choose(f"{test_gin.NAMES[seat]} knocks")
        knocker = test_gin.knocking_hand(rng, list(DECK), kind == "legal")
        defender = rng.sample([card for card in DECK if card not in knocker], 10)
        scripted.put(f"seat{seat + 1}", *(card.code for card in knocker))
        scripted.put(f"seat{2 - seat}", *(card.code for card in defender))
        settled = settle(knocker, defender, Rules(), None if kind == "legal" else kind == "accept")
        if kind == "legal":
            scripted.ok()
        else:
            scripted.choose(f"{test_gin.NAMES[1 - seat]} {kind}s")
        if settled.result != "refused":
            hands.append((seat if settled.winner == "knocker" else 1 - seat, settled.points))
    score = score_game(hands, rules)
    assert score.winner is not None
    return list(score.totals), test_gin.NAMES[score.winner]


def barbu(path: Path) -> tuple[list[int], str]:
    scripted = table(path, "barbu", test_barbu.NAMES)
    scripted.choose("E deals")
    game, rng = BarbuGame(first_dealer=1), random.Random(28)
    while not game.over:
        game = game.record(test_barbu.play_hand(scripted, game, rng))
    return list(game.totals), test_barbu.NAMES[max(range(4), key=game.totals.__getitem__)]


def ofc(path: Path) -> tuple[list[int], None]:
    """Five hands of three players (OFC has no end: the game stays in progress)."""
    rng, names = random.Random(5), test_ofc.NAMES[:3]
    scripted = table(path, "ofc", names)
    totals, fantasy = [0, 0, 0], [0, 0, 0]
    for _ in range(5):
        dealt = test_ofc.boards(rng, 3)
        scripted.take()
        for seat, board in enumerate(dealt):
            for row, cards in zip(ROWS, board.rows, strict=True):
                scripted.put(f"seat{seat + 1}.{row}", *(card.code for card in cards))
        scripted.ok()
        settled = settle_boards(dealt, OfcRules(), [cards > 0 for cards in fantasy])
        totals = [a + b for a, b in zip(totals, settled.net, strict=True)]
        fantasy = list(settled.fantasyland_cards)
    return totals, None


def pinzique(path: Path) -> tuple[list[int], str]:
    """Three rounds, partners (seats 1 and 3 against 2 and 4)."""
    names = test_pinzique.NAMES
    scripted = table(path, "pinzique", names, {"partners": True, "rounds": 3})
    sides = [(names[0], names[2]), (names[1], names[3])]
    game = test_pinzique.play_out(scripted, PinziqueGame.new(sides, rounds=3), random.Random(4))
    assert game.winner is not None
    return list(game.totals), " & ".join(game.sides[game.winner])


GAMES = {"cribbage": cribbage, "cribbage-4": lambda path: cribbage(path, 4, 4), "gin": gin, "barbu": barbu,
         "ofc": ofc, "pinzique": pinzique}
