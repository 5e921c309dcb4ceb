"""Make the demo recordings: ``python -m tools.demo.make [--deck] [GAME ...]``.

Each game is first played by the engines (``tools.demo.deals``, seeded, so it comes out the same every
time). A director then plays it at a rendered table through the device's whole pipeline (the card reader,
zones, tracker, flow, journal, screens; the dice reader for Pinzique), as a person would: it lays each card
where the game's table layout puts it, waits until the screen offers what it expects, steps to the option
with NEXT and presses OK, or presses a seat panel's Action; after each confirmation it checks the device's
score against the engine's. When the reader does not read a card it has just laid, the director moves the
card a little, as a player straightens a card the device asks about (the first time in a recording it
leaves it long enough for the screen to say so). Everything it does, frame by frame, is the recording.

The recordings depend on the card reader: after the reader's model changes, run this again (and look at
the demo's test, which names the recording, frame and card it went wrong on). ``--deck`` draws the deck
picture anew (it needs the training fonts; see ``tools.cards.render``), choosing among a few designs drawn from
the training fonts the one the reader reads best.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from device.demo.recording import ORDER, Recording, deck, misreads
from device.demo.stage import BACK, CARD_HEIGHT, FACE, RECORDINGS, SIZE, Deck, Pose, Stage, Tray
from device.flows.barbu import label
from device.flows.loop import Loop
from device.flows.play import Play
from device.games import flow_for, spec
from device.inputs import Button, Press
from device.journal import Journal
from device.panel import PanelEvent
from device.screens import Screen
from scoring.cards import DECK, Card
from scoring.cribbage_game import Deal, Discard, Event, Go, Lay, Phase, ShowCrib, ShowHand, Starter
from scoring.cribbage_game import Game as CribGame
from scoring.cribbage_game import Settings as CribSettings
from tools.demo import deals
from vision.observations import CardSighting
from vision.zones import Calibration

NAMES = {2: ["Ann", "Bob"], 4: ["Ann", "Bob", "Cy", "Di"]}
WAIT = 12
"""The most frames the director waits for the screen to offer what it expects."""
DEAL = 11
"""Frames taken by gathering, shuffling and dealing: the tracker forgets a card missing for 10 frames, so a
card of the last hand laid again where it lay is seen as laid anew."""
TRIES = 20
"""The most times the director moves a card the reader does not read before giving up."""


class Failed(RuntimeError):
    """The director could not get the device to do what the game did."""


@dataclass
class Director:
    """A table and its device, run frame by frame, recording what is done at each frame."""

    game: str
    players: list[str]
    settings: dict[str, Any]
    seed: int
    journal: Path
    rng: random.Random = field(init=False)
    acts: list[list[Any]] = field(default_factory=list)
    dice: list[list[Any]] = field(default_factory=list)
    frame: int = -1
    shown_correction: bool = False

    def __post_init__(self) -> None:
        from vision.cards import read_cards

        self.rng = random.Random(self.seed)
        self.stage = Stage(deck(), self.seed)
        self.play: Play[Any] = Play(Journal(self.journal), flow_for(self.game, self.players, self.settings))
        self._presses: list[Press] = []
        self._events: list[PanelEvent] = []
        self.seen: list[CardSighting] = []
        self.page = Screen("")
        dice = None
        if spec(self.game).dice:
            from vision.dice_tracker import SettledDice

            dice = SettledDice(calibration=self.calibration)
            self.tray = Tray(self.stage)

        def read(frame: NDArray[Any]) -> list[CardSighting]:
            self.seen = read_cards(frame)
            return self.seen

        self.loop = Loop(self.play, read, self.calibration, self, buttons=self, panel=self, dice=dice)

    @property
    def calibration(self) -> Calibration:
        return Calibration.default(len(self.players), size=SIZE)

    # the Loop's display, buttons and seat panel

    def show(self, screen: Screen) -> None:
        self.page = screen

    def take(self) -> list[Press]:
        taken, self._presses = self._presses, []
        return taken

    def get(self, timeout: float | None = None) -> PanelEvent | None:
        return self._events.pop(0) if self._events else None

    # acts, each at the next frame

    def act(self, kind: str, *args: Any) -> None:
        self.acts.append([self.frame + 1, kind, *args])

    def step(self, frames: int = 1) -> Screen:
        for _ in range(frames):
            self.frame += 1
            self.loop.step(self.stage.image())
        return self.page

    def put(self, *poses: Pose) -> Sequence[Pose]:
        """Put cards down as the recording keeps them (to a tenth of a pixel, a thousandth of a radian)."""
        kept = [Pose(p.code, round(p.x, 1), round(p.y, 1), round(p.turn, 3), p.down) for p in poses]
        for pose in kept:
            self.stage.put(pose)
            self.act("put", pose.code, pose.x, pose.y, pose.turn, int(pose.down))
        return kept

    def take_all(self, deal: bool = False) -> None:
        """Pick every card up; with ``deal``, then shuffle and deal (the tracker forgets the cards)."""
        if self.stage.cards():
            self.stage.take()
            self.act("take")
            if deal:
                self.step(DEAL)

    def take_up(self, *codes: str) -> None:
        self.stage.take(*codes)
        self.act("take", *codes)

    def press(self, button: str, held: bool = False) -> None:
        self._presses.append(Press(Button(button), held))
        self.act("press", button, int(held))

    def panel(self, seat: int, kind: str = "press", button: str = "action") -> None:
        """A seat panel button; ``seat`` counted from 1 as on the panel."""
        self._events.append(PanelEvent(seat, button, kind, self.frame + 1))
        self.act("panel", seat, button, kind)
        self.step()
        self.no_error()

    def roll(self, roll: list[list[Any]]) -> None:
        self.dice.append(roll)
        self.act("dice", len(self.dice) - 1)
        self.stage.show_dice(*self.tray.image(roll, (self.seed, len(self.dice) - 1)))

    def no_tray(self) -> None:
        self.act("dice", -1)
        self.stage.show_dice(None)

    # what a person does

    def lay(self, *poses: Pose, settle: bool = True) -> None:
        """Lay cards and see that the reader reads them (moving any it does not); with ``settle``, wait
        until they have lain still long enough for the tracker to announce them."""
        poses = tuple(self.put(*poses))
        moved = list(poses)
        for attempt in range(TRIES):
            self.step()
            wrong = misreads(self.stage, self.seen)
            if not wrong:
                break
            failing = [w.pose for w in wrong if w.pose is not None]
            blame = failing + [p for p in moved if p not in failing and any(
                w.pose is None or (w.pose not in moved and math.dist(w.at, (p.x, p.y)) < CARD_HEIGHT) for w in wrong)]
            if attempt == 0 and not self.shown_correction and any(w.unread and w.pose in poses for w in wrong):
                self.shown_correction = True  # let the screen ask for it: "1 card not read: straighten it"
                self.step(4)
            fixed = self.put(*(_nudge(self.rng, p, attempt) for p in blame))
            moved = [next((f for f in fixed if f.code == p.code), p) for p in moved]
            moved += [f for f in fixed if f.code not in {p.code for p in moved}]
        else:
            raise Failed(f"frame {self.frame}: the reader does not read {', '.join(p.code for p in moved)}: "
                         f"{[s.code for s in self.seen]}")
        if settle:
            self.step(2)  # the tracker wants a card still in three frames running

    def plan(self, layouts: Callable[[int], list[Pose]], tries: int = 16) -> list[Pose]:
        """Of a few ways to lay some cards out (``layouts(k)``), the first the reader reads whole, laid
        on the table as it is now (else the one it reads best): players may order a row as they like."""
        from vision.cards import read_cards

        best: tuple[int, list[Pose]] | None = None
        for k in range(tries):
            poses = layouts(k)
            trial = Stage(deck(), self.seed)
            for pose in [*self.stage.cards(), *poses]:
                trial.put(pose)
            wrong = len(misreads(trial, read_cards(trial.image())))
            if best is None or wrong < best[0]:
                best = wrong, poses
            if not wrong:
                break
        assert best is not None
        return best[1]

    def wait_for(self, wanted: str) -> None:
        """Step until the first line of the screen starts with ``wanted``."""
        for _ in range(WAIT):
            if self.first_line().startswith(wanted):
                return
            self.step()
        raise Failed(f"frame {self.frame}: the screen does not offer {wanted!r}: {self.page}")

    def first_line(self) -> str:
        """The screen's first line (the OLED may wrap it)."""
        lines = self.play.screen().lines
        return lines[0] if lines else ""

    def confirm(self, label: str = "") -> None:
        """Step through the options to the one starting ``label`` and press OK."""
        self.wait_for("OK: ")
        for _ in range(40):
            if self.first_line().startswith(f"OK: {label}"):
                self.press("ok")
                self.step()
                self.no_error()
                return
            self.press("next")
            self.step()
        raise Failed(f"frame {self.frame}: no option {label!r}: {self.play.screen()}")

    def totals(self) -> tuple[int, ...]:
        """The device's running totals, as the journal's history reads them (``device.history``)."""
        return spec(self.game).new_ledger().totals(self.play.state)

    def no_error(self) -> None:
        error = self.play.flow.error
        if error:
            raise Failed(f"frame {self.frame}: the device refused it: {error}")

    def recording(self, name: str, title: str, script: dict[str, Any], expect: Sequence[int], hold: int = 3) -> Recording:
        if self.totals() != tuple(expect):
            raise Failed(f"{name}: the device ends at {list(self.totals())}, the engines at {list(expect)}")
        self.step(hold)
        return Recording(name, self.game, title, tuple(self.players), self.settings, self.seed, self.frame + 1,
                         tuple(map(tuple, self.acts)), script, tuple(expect), tuple(tuple(map(tuple, r)) for r in self.dice))


@contextmanager
def directing(game: str, players: list[str], settings: dict[str, Any], seed: int) -> Iterator[Director]:
    """A ``Director`` for one recorded game of ``game``, its journal kept in a scratch folder removed afterwards."""
    with tempfile.TemporaryDirectory() as scratch:
        yield Director(game, players, settings, seed, Path(scratch) / "j.db")


def _nudge(rng: random.Random, pose: Pose, attempt: int) -> Pose:
    """The card moved a little, as a player straightens it: more as attempts go on."""
    reach = 3 + attempt
    return replace(pose, x=pose.x + rng.uniform(-reach, reach), y=pose.y + rng.uniform(-3, 3),
                   turn=pose.turn + rng.uniform(-0.03, 0.03) * (1 + attempt))


def _pose(rng: random.Random, code: str, x: float, y: float, turn: float = 0.0, down: bool = False) -> Pose:
    """A card put down by hand near ``(x, y)``: a little off, a little turned."""
    return Pose(code, x + rng.uniform(-4, 4), y + rng.uniform(-4, 4), turn + rng.uniform(-0.05, 0.05), down)


# --- the games at the table ---------------------------------------------------------------------------

SEAT_Y = {0: 612.0, 1: 108.0}
"""The middle of the two seats' areas of a two-player table (seat 1 at the bottom)."""
UPRIGHT = {0: 0.0, 1: math.pi}
"""How each seat's cards lie, facing their player."""


def play_cribbage(seed: int) -> Recording:
    script = deals.cribbage(random.Random(seed), target=61)
    players = NAMES[2]
    with directing("cribbage", players, {"target": 61}, seed) as d:
        game = CribGame(CribSettings(2, 61))
        laid = [0, 0]
        crib: list[str] = []
        goes: list[int] = []
        for kind, *args in script["events"]:
            event = _crib_event(kind, args)
            game = game.apply(event)
            if kind == "deal":
                if d.frame < 0:
                    d.step()
                    d.confirm(f"{players[args[0]]} deals")
                d.take_all(deal=True)
                laid, crib = [0, 0], []
            elif kind == "discard":
                for code in args[1]:
                    crib.append(code)
                    d.put(_pose(d.rng, code, 950 + 45 * len(crib), 105, 0.15, down=True))
                d.step()
            elif kind == "starter":
                d.lay(_pose(d.rng, args[0], 1010, 612, 0.1))
                d.confirm("starter")
            elif kind == "lay":
                seat, code = args
                d.lay(_pose(d.rng, code, 450 + 110 * laid[seat], SEAT_Y[seat], UPRIGHT[seat]))
                laid[seat] += 1
                goes = []
                d.confirm(f"{players[seat]} lays")
            elif kind == "go":
                goes.append(args[0])  # shown by the next card laid; a go no card follows ends the game
                if game.phase is Phase.OVER:  # each seat's go, confirmed in turn
                    for seat in goes:
                        d.confirm(f"{players[seat]} says go")
            elif kind == "show":
                d.confirm(f"{players[args[0]]}'s hand")
            elif kind == "crib":
                d.take_up(*crib)
                dealer = game.dealer if game.dealer is not None else 0
                d.lay(*(_pose(d.rng, code, 950 + 88 * k, 105, UPRIGHT[dealer]) for k, code in enumerate(crib)))
                d.confirm("")
            if kind in ("starter", "lay", "show", "crib") or game.phase is Phase.OVER:
                _same(d, game.scores)
            if game.phase is Phase.OVER:
                break
        return d.recording("cribbage", "Cribbage to 61", script, game.scores)


def _crib_event(kind: str, args: list[Any]) -> Event:

    cards: dict[str, Callable[[], Event]] = {"discard": lambda: Discard(args[0], tuple(map(Card.parse, args[1]))),
             "deal": lambda: Deal(args[0]), "starter": lambda: Starter(Card.parse(args[0])),
             "lay": lambda: Lay(args[0], Card.parse(args[1])), "go": lambda: Go(args[0]),
             "show": lambda: ShowHand(args[0]), "crib": lambda: ShowCrib()}
    return cards[kind]()


def _same(d: Director, engine: Sequence[int]) -> None:
    """Fail unless the device's totals are the engine's."""
    if d.totals() != tuple(engine):
        raise Failed(f"frame {d.frame}: the device scores {list(d.totals())}, the engine {list(engine)}: {d.play.screen()}")


def _rows(d: Director, seat: int, codes: Sequence[str]) -> list[Pose]:
    """A hand laid out in a seat's area in rows of up to six, the row nearer the middle first."""
    per = 5 if len(codes) <= 10 else 6
    step = 100 if per == 5 else 84
    poses = []
    for k, code in enumerate(codes):
        row, col = divmod(k, per)
        y = SEAT_Y[seat] + (-45 + 80 * row) * (1 if seat == 0 else -1)
        poses.append(_pose(d.rng, code, 640 + step * (col - (per - 1) / 2), y, UPRIGHT[seat]))
    return poses


def play_gin(seed: int) -> Recording:
    from scoring.gin import GameRules, score_game, settle
    from scoring.gin_melds import meld

    script = deals.gin(random.Random(seed))
    players = NAMES[2]
    with directing("gin", players, {}, seed) as d:
        d.step()
        scored: list[tuple[int | None, int]] = []
        for number, hand in enumerate(script["hands"]):
            d.take_all(deal=True)
            knocker = hand["knocker"]
            if knocker is None:
                d.confirm("dead hand")
                scored.append((None, 0))
            else:
                if number % 2:
                    d.panel(knocker + 1)
                else:
                    d.confirm(f"{players[knocker]} knocks")
                for seat, cards in ((knocker, hand["knocker_cards"]), (1 - knocker, hand["defender_cards"])):
                    melded = meld(map(Card.parse, cards)) if len(cards) == 10 else None
                    ordered = [c.code for m in melded.melds for c in m] + [c.code for c in melded.unmatched] if melded else cards
                    def layouts(k: int, seat: int = seat, ordered: list[str] = ordered) -> list[Pose]:
                        return _rows(d, seat, ordered if not k else d.rng.sample(ordered, len(ordered)))

                    poses = d.plan(layouts)
                    per = 6 if len(poses) > 10 else 5
                    for row in range(0, len(poses), per):
                        d.lay(*poses[row:row + per], settle=seat != knocker and row + per >= len(poses))
                d.confirm("")
                settled = settle([Card.parse(c) for c in hand["knocker_cards"]], [Card.parse(c) for c in hand["defender_cards"]])
                scored.append((knocker if settled.winner == "knocker" else 1 - knocker, settled.points))
            _same(d, score_game(scored, GameRules()).totals)
        return d.recording("gin", "Gin Rummy to 100", script, score_game(scored, GameRules()).totals)


TRICK = {0: (640.0, 440.0, 0.0), 1: (505.0, 360.0, math.pi / 2), 2: (640.0, 280.0, math.pi), 3: (775.0, 360.0, -math.pi / 2)}
"""Where each seat of four lays its card to a trick in the centre, and how it lies."""


def play_barbu(seed: int) -> Recording:
    from scoring.barbu import Contract, Double, trick_hand, tricks_from_cards
    from scoring.barbu_game import Game
    from scoring.cards import Suit

    script = deals.barbu(random.Random(seed))
    players = NAMES[4]
    with directing("barbu", players, {}, seed) as d:
        d.step()
        d.confirm(f"{players[script['first_dealer']]} deals")
        game = Game(first_dealer=script["first_dealer"])
        for hand in script["hands"]:
            d.take_all(deal=True)
            contract = Contract.parse(hand["contract"])
            trump = Suit.parse(hand["trump"]) if hand["trump"] else None
            d.confirm(label(contract, trump))
            declarer = hand["declarer"]
            for number, (by, on, redoubled) in enumerate(hand["doubles"]):  # those on the declarer first
                if number % 2 or on != declarer:
                    d.confirm(f"{players[by]} doubles {players[on]}")
                else:
                    d.panel(by + 1)
                if redoubled and on == declarer:
                    d.panel(declarer + 1)
                elif redoubled:  # a defender redoubles another: on the buttons, to show it on the screen
                    d.confirm(f"{players[on]} redoubles {players[by]}")
            played = hand["played"]
            leader = declarer
            tricks = tricks_from_cards(declarer, [Card.parse(c) for c in played], trump)
            for trick in tricks:
                d.take_all()
                for position, card in enumerate(trick.cards):
                    x, y, turn = TRICK[(leader + position) % 4]
                    d.lay(_pose(d.rng, card.code, x, y, turn), settle=position == 3)
                d.confirm("trick")
                leader = trick.winner(trump)
            doubles = [Double(by, on, redoubled) for by, on, redoubled in hand["doubles"]]
            game = game.record(trick_hand(contract, declarer, tricks, doubles, trump))
            _same(d, game.totals)
        return d.recording("barbu", "Barbu: the first two hands", script, game.totals)


OFC_ROWS = {0: (520.0, 612.0, 704.0), 1: (200.0, 108.0, 16.0)}
"""The middle of each row (front, middle, back) of the two seats of Open-Face Chinese Poker."""


def play_ofc(seed: int) -> Recording:
    from scoring.ofc import Board, settle

    script = deals.ofc(random.Random(seed))
    players = NAMES[2]
    with directing("ofc", players, {}, seed) as d:
        d.step()
        totals, fantasy = [0, 0], [False, False]
        for boards in script["hands"]:
            d.take_all(deal=True)
            parsed = [Board.parse(board) for board in boards]

            def layout(k: int, parsed: list[Board] = parsed) -> list[Pose]:
                rows = [(seat, row, list(board.rows[row])) for row in range(3) for seat, board in enumerate(parsed)]
                for _, _, cards in rows if k else ():
                    d.rng.shuffle(cards)  # a row's cards in another order
                return [_pose(d.rng, card.code, 640 + 100 * (n - (len(cards) - 1) / 2), OFC_ROWS[seat][row], UPRIGHT[seat])
                        for seat, row, cards in rows for n, card in enumerate(cards)]

            planned = d.plan(layout)
            at = 0
            for row in range(3):
                for seat, board in enumerate(parsed):
                    count = len(board.rows[row])
                    d.lay(*planned[at:at + count], settle=row == 2 and seat == 1)
                    at += count
            d.confirm("settle")
            settled = settle(parsed, in_fantasyland=fantasy)
            totals = [a + b for a, b in zip(totals, settled.net, strict=True)]
            fantasy = [cards > 0 for cards in settled.fantasyland_cards]
            _same(d, totals)
        return d.recording("ofc", "Open-Face Chinese Poker: three hands", script, totals)


def play_pinzique(seed: int) -> Recording:
    from scoring.pinzique_game import Game

    script = deals.pinzique(random.Random(seed))
    players = NAMES[2]
    with directing("pinzique", players, {"rounds": script["rounds"]}, seed) as d:
        d.step()
        game = Game.new(players, rounds=script["rounds"])
        rng = np.random.default_rng(seed)
        lying: dict[int, Any] = {}
        for kind, *args in script["turns"]:
            if kind == "stand":
                d.confirm(f"{players[game.up or 0]} stands")
                game = game.stand()
            else:
                faces, keep = args
                if not keep:
                    lying = {}
                    d.no_tray()
                    d.step()
                kept = {n: lying[n] for n in keep}
                moving = _lay_dice(rng, d.tray, kept, faces, rolling=1.0)
                d.roll(moving)
                d.step(2)
                lying_poses = _lay_dice(rng, d.tray, kept, faces, rolling=0.0)
                d.roll(lying_poses)
                lying = {pose[0]: pose for pose in lying_poses}
                d.confirm("roll")
                game = game.roll([Card.parse(face) for face in faces])
            _same(d, game.totals)
            if _turn(d.play.state.game) != _turn(game):
                raise Failed(f"frame {d.frame}: the device's game is {_turn(d.play.state.game)}, the engine's {_turn(game)}")
        return d.recording("pinzique", "Pinzique: one round", script, game.totals)


def _turn(game: Any) -> tuple[Any, ...]:
    """Where a Pinzique game stands: the round, the side up, its rolls, the faces of its last roll."""
    return game.label, game.up, game.rolls_made, game.totals, sorted(c.code for c in game.last.faces) if game.last else None


def _lay_dice(rng: np.random.Generator, tray: Tray, kept: dict[int, Any], faces: Sequence[str],
              rolling: float) -> list[list[Any]]:
    """The eight dice: the kept ones where they lie, the others landed anywhere showing ``faces``."""
    from tools.dice.rolls import lay_out

    guide = tray.tray.guide
    keep = dict(zip(kept, tray.poses(list(kept.values())), strict=True))
    poses = lay_out(rng, tray.tray, keep, rolling=rolling)
    out = []
    for pose in poses:
        if pose.number in keep:
            out.append(list(kept[pose.number]))
            continue
        face = Card.parse(faces[pose.number])
        sides = [side for side in guide.dice[pose.number] if side != face][:4]
        mx, my = pose.motion
        out.append([pose.number, face.code, [s.code for s in sides], round(pose.x, 2), round(pose.y, 2),
                    round(pose.yaw, 3), round(pose.tilt, 3), round(pose.tilt_axis, 3), round(mx, 2), round(my, 2)])
    return out


GAMES: dict[str, Callable[[int], Recording]] = {"cribbage": play_cribbage, "gin": play_gin, "barbu": play_barbu,
                                                "ofc": play_ofc, "pinzique": play_pinzique}
SEEDS = {"cribbage": 1, "gin": 1, "barbu": 1, "ofc": 1, "pinzique": 1}
"""The seed of each recording's game (the first of the seeds tried): another seed is another, equally
real, game. A game the director cannot get the reader to read whole is passed over for the next seed."""
DESIGNS = range(10)
"""The deck designs ``--deck`` chooses among (seeds of ``tools.cards.render.Design.random``)."""
TURNS = (0.0, math.pi, 0.3, -0.3, 1.4, -1.4, math.pi - 0.3, math.pi + 0.3, 0.1, -0.1, math.pi / 2, -math.pi / 2)
"""How the cards lie when ``--deck`` tries how well the reader reads them."""


def _reads(face: NDArray[Any], code: str) -> int:
    """In how many of ``TURNS`` the reader reads the card ``code`` drawn with ``face`` (six copies of it
    a frame)."""
    from vision.cards import read_cards

    copies = {f"{code}{k}": face for k in range(6)}
    read = 0
    for first in range(0, len(TURNS), 6):
        stage = Stage(Deck({**copies, BACK: face}), 1)
        poses = [Pose(f"{code}{k}", 200 + 180 * k, 360, turn) for k, turn in enumerate(TURNS[first:first + 6])]
        for pose in poses:
            stage.put(pose)
        seen = read_cards(stage.image())
        read += sum(any(s.code == code and math.dist(s.center, (p.x, p.y)) < CARD_HEIGHT / 2 for s in seen)
                    for p in poses)
    return read


def make_deck() -> Deck:
    """A deck the card reader reads well: the design (of ``DESIGNS``) whose cards it reads most often,
    then for each card it reads less than always, the best of a few drawings of that face (the court
    pictures and the ace's pip differ from one drawing to the next)."""
    from tools.cards import render

    def faces(seed: int) -> tuple[render.Design, dict[str, NDArray[Any]]]:
        rng = np.random.default_rng(seed)
        design = render.Design.random(rng, render.available(render.RANK_FONTS))
        drawn = {card.code: cv2.resize(render.card_face(card, design, rng)[0], FACE, interpolation=cv2.INTER_AREA)
                 for card in DECK}
        drawn[BACK] = cv2.resize(render.card_back(rng), FACE, interpolation=cv2.INTER_AREA)
        return design, drawn

    scored = []
    for seed in DESIGNS:
        design, drawn = faces(seed)
        reads = {card.code: _reads(drawn[card.code], card.code) for card in DECK}
        print(f"deck design {seed}: {sum(reads.values())} of {len(TURNS) * 52} read", file=sys.stderr)
        scored.append((sum(reads.values()), seed, design, drawn, reads))
    _, seed, design, drawn, reads = max(scored, key=lambda entry: entry[:2])
    rng = np.random.default_rng(seed + 1000)
    for card in DECK:
        for _ in range(8):
            if reads[card.code] == len(TURNS):
                break
            face = cv2.resize(render.card_face(card, design, rng)[0], FACE, interpolation=cv2.INTER_AREA)
            if (read := _reads(face, card.code)) > reads[card.code]:
                drawn[card.code], reads[card.code] = face, read
    print(f"deck: design {seed}, {sum(reads.values())} of {len(TURNS) * 52} read; least read: "
          f"{sorted(reads, key=reads.__getitem__)[:5]}", file=sys.stderr)
    return Deck(drawn)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.demo.make", description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", choices=[*ORDER, []], help="the recordings to make (default: all)")
    parser.add_argument("--deck", action="store_true", help="draw the deck picture anew first")
    args = parser.parse_args(argv)
    if args.deck:
        cv2.imwrite(str(RECORDINGS / "deck.png"), make_deck().sheet(), [cv2.IMWRITE_PNG_COMPRESSION, 9])
        deck.cache_clear()
    for name in args.games or ORDER:
        for seed in range(SEEDS[name], SEEDS[name] + 8):
            try:
                recording = GAMES[name](seed)
                break
            except Failed as failed:  # another game then: one the reader reads whole
                print(f"{name}, game {seed}: {failed}", file=sys.stderr)
        else:
            raise Failed(f"{name}: no game of seeds {SEEDS[name]} to {seed} could be recorded")
        path = recording.save()
        print(f"{name}: {recording.frames} frames, {len(recording.acts)} acts, scores {list(recording.expect)} "
              f"-> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
