"""Games played by the scoring engines for the demo recordings: real deals from a seeded shuffle, legal
play, and a club player's plain rules of thumb for every decision.

Each function returns the game's *script*: what happened, in the engine's own terms and JSON-shaped (card
codes), so a recording can carry it and a test can score it again with the engines. The recordings are
short games (a low target, a few hands or rounds) so that the demo loop stays short.

>>> import random
>>> script = cribbage(random.Random(1))
>>> script["events"][0], script["scores"][0] >= 61 or script["scores"][1] >= 61
(['deal', 0], True)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from statistics import mean
from typing import Any

from scoring import cribbage as crib_score
from scoring.barbu import Contract, Double, Trick, high, trick_hand, tricks_from_cards
from scoring.barbu_game import Game as BarbuGame
from scoring.cards import DECK, Card, Rank, Suit
from scoring.cribbage_game import (
    Deal,
    Discard,
    Event,
    Game,
    Go,
    Lay,
    Phase,
    Settings,
    ShowCrib,
    ShowHand,
    Starter,
)
from scoring.gin import GameRules, score_game, settle
from scoring.gin_melds import best_discard, deadwood, meld
from scoring.ofc import Board, assess
from scoring.ofc import settle as settle_ofc
from scoring.pinzique_game import Game as PinziqueGame
from scoring.pinzique_roll import best_score, default_guide
from scoring.poker import value3, value5

Script = dict[str, Any]


def _codes(cards: Sequence[Card]) -> list[str]:
    return [card.code for card in cards]


# --- Cribbage ----------------------------------------------------------------------------------------

def cribbage(rng: random.Random, target: int = 61) -> Script:
    """Two players to ``target``: each keeps the four cards that count best on average over the starters
    left, and pegs the card scoring most now (not leaving a count of 5 or 21 when it can help it)."""
    game = Game(Settings(2, target))
    dealer = rng.randrange(2)
    events: list[list[Any]] = []

    def apply(event: Event, record: list[Any]) -> None:
        nonlocal game
        game = game.apply(event)
        events.append(record)

    while game.phase is not Phase.OVER:
        apply(Deal(dealer), ["deal", dealer])
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[0:12:2], deck[1:12:2]]
        for seat in ((dealer + 1) % 2, dealer):
            keep = _keep(hands[seat], deck[12:])
            thrown = tuple(card for card in hands[seat] if card not in keep)
            hands[seat] = keep
            apply(Discard(seat, thrown), ["discard", seat, _codes(thrown)])
        starter = deck[12 + rng.randrange(40)]
        apply(Starter(starter), ["starter", starter.code])
        while game.phase is Phase.PLAY:
            seat = game.turn
            card = _peg_choice(hands[seat], game.run, game.count)
            if card is None:
                apply(Go(seat), ["go", seat])
            else:
                hands[seat].remove(card)
                apply(Lay(seat, card), ["lay", seat, card.code])
        for n in range(2):
            if game.phase is Phase.SHOW:
                seat = (dealer + 1 + n) % 2
                apply(ShowHand(seat), ["show", seat])
        if game.phase is Phase.SHOW:
            apply(ShowCrib(), ["crib"])
        dealer = 1 - dealer
    return {"events": events, "scores": list(game.scores)}


def _keep(six: list[Card], rest: list[Card]) -> list[Card]:
    """The four of six cards that count best on average with a starter from the cards not seen."""
    unseen = [card for card in DECK if card not in six]
    best = max(itertools.combinations(six, 4),
               key=lambda four: (mean(crib_score.show_total(four, s) for s in unseen), [c.index for c in four]))
    return list(best)


def _peg_choice(hand: list[Card], run: tuple[Card, ...], count: int) -> Card | None:
    """The card to lay: the most points now, then not leaving 5 or 21 for the other to make 15 or 31,
    then the highest. None: the player must say go."""
    legal = [card for card in hand if count + crib_score.value(card) <= 31]
    if not legal:
        return None

    def worth(card: Card) -> tuple[int, int, int, int]:
        after = count + crib_score.value(card)
        return crib_score.peg([*run, card]).total, after not in (5, 21), crib_score.value(card), card.index

    return max(legal, key=worth)


# --- Gin Rummy ---------------------------------------------------------------------------------------

def gin(rng: random.Random, limit: int = 100, knock_at: int = 10) -> Script:
    """Two players to ``limit``: take the discard when it lowers the deadwood, else draw; throw the card
    that leaves the least deadwood; knock as soon as the deadwood is ``knock_at`` or less. A hand whose
    stock is down to two cards is dead."""
    hands_played: list[dict[str, Any]] = []
    scored: list[tuple[int | None, int]] = []
    dealer = rng.randrange(2)
    while not score_game(scored, GameRules(limit=limit)).over:
        deck = list(DECK)
        rng.shuffle(deck)
        hands = [deck[0:20:2], deck[1:20:2]]
        if dealer == 0:
            hands.reverse()
        pile, stock = [deck[20]], deck[21:]
        turn, knocker = 1 - dealer, None
        while len(stock) > 2:
            hand = hands[turn]
            take = pile[-1]
            if deadwood(hand) > best_discard([*hand, take]).deadwood and best_discard([*hand, take]).discard != take:
                pile.pop()
            else:
                take = stock.pop(0)
            eleven = [*hand, take]
            if deadwood(eleven) == 0 and len(meld(eleven).melds) > 0:  # big gin: all eleven cards meld
                hands[turn], knocker = eleven, turn
                break
            arranged = best_discard(eleven)
            assert arranged.discard is not None
            hands[turn] = [card for card in eleven if card != arranged.discard]
            pile.append(arranged.discard)
            if arranged.deadwood <= knock_at:
                knocker = turn
                break
            turn = 1 - turn
        if knocker is None:
            hands_played.append({"dealer": dealer, "knocker": None})
            scored.append((None, 0))
        else:
            settled = settle(hands[knocker], hands[1 - knocker])
            hands_played.append({"dealer": dealer, "knocker": knocker, "knocker_cards": _codes(hands[knocker]),
                                 "defender_cards": _codes(hands[1 - knocker])})
            winner = knocker if settled.winner == "knocker" else 1 - knocker
            scored.append((winner, settled.points))
        dealer = 1 - dealer
    score = score_game(scored, GameRules(limit=limit))
    return {"limit": limit, "hands": hands_played, "scores": list(score.totals)}


# --- Barbu -------------------------------------------------------------------------------------------

NEGATIVE = (Contract.NO_TRICKS, Contract.NO_QUEENS, Contract.NO_LAST_TRICK, Contract.NO_HEARTS, Contract.NO_KING)


def barbu(rng: random.Random, hands: int = 2) -> Script:
    """The first ``hands`` hands of a game (a whole one is 28): the declarer names the trick contract
    their hand suits best (Trumps in a long strong suit, else the negative contract their hand risks least
    in); a defender whose hand the contract threatens little (or who holds many trumps) doubles the
    declarer and the defenders after them in turn, a defender so doubled redoubles on the same rule, and
    the declarer redoubles a double when they hold strength. In the play everyone follows suit, ducks
    under the winning card in the negative contracts and wins cheaply in Trumps."""
    first = rng.randrange(4)
    game = BarbuGame(first_dealer=first)
    played_hands = []
    for _ in range(hands):
        declarer = game.declarer
        assert declarer is not None
        deck = list(DECK)
        rng.shuffle(deck)
        cards = [sorted(deck[13 * seat:13 * seat + 13], key=lambda c: c.index) for seat in range(4)]
        contract, trump = _contract(cards[declarer], game.contracts_left(declarer))
        defenders = [(declarer + step) % 4 for step in (1, 2, 3)]  # in turn from the declarer's left
        safe = {by: _doubles(cards[by], contract, trump) for by in defenders}
        redoubles = _strength(cards[declarer]) >= 14
        doubles = [Double(by, declarer, redoubles) for by in defenders if by in game.must_double() or safe[by]]
        doubles += [Double(by, on, safe[on]) for n, by in enumerate(defenders) if safe[by] for on in defenders[n + 1:]]
        played = _trick_play(cards, declarer, contract, trump)
        hand = trick_hand(contract, declarer, tricks_from_cards(declarer, played, trump), doubles, trump)
        game = game.record(hand)
        played_hands.append({"declarer": declarer, "contract": contract.value, "trump": trump.value if trump else None,
                             "doubles": [[d.by, d.on, d.redoubled] for d in doubles], "played": _codes(played)})
    return {"first_dealer": first, "hands": played_hands, "scores": list(game.totals)}


def _strength(cards: Sequence[Card]) -> int:
    """High-card points: ace 4, king 3, queen 2, jack 1."""
    return sum(max(0, card.rank - 10) if card.rank != Rank.ACE else 4 for card in cards)


def _contract(cards: Sequence[Card], left: Sequence[Contract]) -> tuple[Contract, Suit | None]:
    suits = {suit: [card for card in cards if card.suit is suit] for suit in Suit}
    long_suit = max(Suit, key=lambda suit: (len(suits[suit]), _strength(suits[suit])))
    if Contract.TRUMPS in left and len(suits[long_suit]) >= 5 and _strength(suits[long_suit]) >= 4:
        return Contract.TRUMPS, long_suit
    choices = [contract for contract in NEGATIVE if contract in left]
    if not choices:
        return Contract.TRUMPS, long_suit
    return min(choices, key=lambda contract: (_risk(cards, contract), NEGATIVE.index(contract))), None


def _risk(cards: Sequence[Card], contract: Contract) -> int:
    """How much a negative contract threatens a hand: its high cards (No Tricks), three a queen, its
    jacks and above (No Last Trick), its hearts and their strength, six for the king of hearts and one
    for each two hearts."""
    hearts = [card for card in cards if card.suit is Suit.HEARTS]
    return {
        Contract.NO_TRICKS: _strength(cards),
        Contract.NO_QUEENS: 3 * sum(card.rank == Rank.QUEEN for card in cards),
        Contract.NO_LAST_TRICK: sum(card.rank >= Rank.JACK or card.rank == Rank.ACE for card in cards),
        Contract.NO_HEARTS: len(hearts) + _strength(hearts),
        Contract.NO_KING: 6 * (Card(Rank.KING, Suit.HEARTS) in cards) + len(hearts) // 2,
    }[contract]


SAFE = {Contract.NO_TRICKS: 7, Contract.NO_QUEENS: 0, Contract.NO_LAST_TRICK: 3, Contract.NO_HEARTS: 3,
        Contract.NO_KING: 2}
"""The most risk (``_risk``) a defender's hand may run in each negative contract and still double: few
high cards, no queen, no king of hearts, and so on."""


def _doubles(cards: Sequence[Card], contract: Contract, trump: Suit | None) -> bool:
    """Whether a player doubles (or, doubled, redoubles): four trumps or more, or little risk."""
    if trump is not None:
        return sum(card.suit is trump for card in cards) >= 4
    return _risk(cards, contract) <= SAFE[contract]


def _trick_play(hands: list[list[Card]], declarer: int, contract: Contract, trump: Suit | None) -> list[Card]:
    hands = [list(hand) for hand in hands]
    played: list[Card] = []
    leader = declarer
    for _ in range(13):
        trick: list[Card] = []
        for position in range(4):
            seat = (leader + position) % 4
            card = _card_to_play(hands[seat], trick, contract, trump)
            hands[seat].remove(card)
            trick.append(card)
        played += trick
        leader = Trick(leader, tuple(trick)).winner(trump)
    return played


def _highest(card: Card) -> tuple[int, int, int]:
    """What makes a card worth throwing where no contract says otherwise: its rank (as the contracts' keys)."""
    return high(card.rank), 0, 0


def _card_to_play(hand: list[Card], trick: list[Card], contract: Contract, trump: Suit | None) -> Card:
    if not trick:
        leads = hand
        if contract in (Contract.NO_HEARTS, Contract.NO_KING):
            leads = [card for card in hand if card.suit is not Suit.HEARTS] or hand
        if trump is not None:
            return max(leads, key=lambda c: (c.suit is trump, high(c.rank), -c.index))
        return min(leads, key=lambda c: (high(c.rank), c.index))
    led = trick[0].suit
    follow = [card for card in hand if card.suit is led]
    winning = trick[_taking(trick, trump)]
    if trump is not None:
        options = follow or hand
        beating = [c for c in options if _taking([*trick, c], trump) == len(trick)]
        if beating:
            return min(beating, key=lambda c: (c.suit is trump, high(c.rank), c.index))
        return min(options, key=lambda c: (c.suit is trump, high(c.rank), c.index))
    if follow:
        under = [c for c in follow if high(c.rank) < high(winning.rank)] if winning.suit is led else []
        return max(under, key=lambda c: (high(c.rank), -c.index)) if under else max(follow, key=lambda c: (high(c.rank), -c.index))
    danger: dict[Contract, Callable[[Card], tuple[int, int, int]]] = {
        Contract.NO_KING: lambda c: (c == Card(Rank.KING, Suit.HEARTS), c.suit is Suit.HEARTS, high(c.rank)),
        Contract.NO_HEARTS: lambda c: (c.suit is Suit.HEARTS, high(c.rank), 0),
        Contract.NO_QUEENS: lambda c: (c.rank == Rank.QUEEN, high(c.rank), 0)}
    key = danger.get(contract, _highest)
    return max(hand, key=lambda c: (*key(c), -c.index))


def _taking(trick: Sequence[Card], trump: Suit | None) -> int:
    """The position of the card that takes the trick so far: ``scoring.barbu.Trick``'s rule.

    >>> trick = [Card.parse(code) for code in ("5C", "AC", "2H")]
    >>> _taking(trick, None), _taking(trick, Suit.HEARTS)
    (1, 2)
    """
    return Trick(0, tuple(trick)).winner(trump)


# --- Open-Face Chinese Poker -------------------------------------------------------------------------

def ofc(rng: random.Random, hands: int = 3) -> Script:
    """Two players, ``hands`` hands: each sets their thirteen cards (fourteen in Fantasyland, one thrown
    away) in the arrangement that does not foul and pays the most royalties, the strongest rows first."""
    boards_played: list[list[str]] = []
    fantasy = [False, False]
    for _ in range(hands):
        deck = list(DECK)
        rng.shuffle(deck)
        boards = []
        for seat in range(2):
            dealt, deck = deck[:14 if fantasy[seat] else 13], deck[14 if fantasy[seat] else 13:]
            boards.append(_set_board(dealt))
        settled = settle_ofc(boards, in_fantasyland=fantasy)
        fantasy = [cards > 0 for cards in settled.fantasyland_cards]
        boards_played.append([str(board) for board in boards])
    return {"hands": boards_played}


def _set_board(cards: list[Card]) -> Board:
    best: tuple[tuple[int, int, int, int], Board] | None = None
    for thrown in ([None] if len(cards) == 13 else cards):
        kept = [card for card in cards if card != thrown]
        index = {card.index: card for card in kept}
        backs = sorted(((value5(back), back) for back in itertools.combinations(sorted(index), 5)), reverse=True)
        for back_value, back in backs[:40]:  # the strongest backs: a weak back would foul or pay nothing
            rest = [i for i in index if i not in back]
            for middle in itertools.combinations(rest, 5):
                middle_value = value5(middle)
                if middle_value > back_value:
                    continue
                front = tuple(i for i in rest if i not in middle)
                if value3(front) > middle_value:
                    continue
                board = Board(*(tuple(index[i] for i in row) for row in (front, middle, back)))
                hand = assess(board)
                key = (hand.royalty + 10 * hand.fantasyland, value3(front), middle_value, back_value)
                if best is None or key > best[0]:
                    best = key, board
    assert best is not None
    return best[1]


# --- Pinzique ----------------------------------------------------------------------------------------

def pinzique(rng: random.Random, players: int = 2, rounds: int = 1) -> Script:
    """``players`` sides, ``rounds`` rounds: roll all eight dice, keep the dice of the best melds and roll
    the rest, and stand once the roll scores 150 or more (or the rolls run out)."""
    guide = default_guide()
    game = PinziqueGame.new([f"P{n}" for n in range(players)], rounds=rounds)
    turns: list[list[Any]] = []
    while not game.over:
        faces: list[Card] = [Card.parse("9S")] * 8
        keep: set[int] = set()
        side = game.up
        while game.up == side and not game.over:
            faces = [faces[die] if die in keep else rng.choice(guide.dice[die]) for die in range(8)]
            game = game.roll(faces)
            turns.append(["roll", _codes(faces), sorted(keep)])
            if game.up != side or game.last is None:
                break
            scored = best_score(faces)
            if scored.total >= 150:
                game = game.stand()
                turns.append(["stand"])
                break
            keep = {die for m in scored.melds for die in m.dice}
    return {"rounds": rounds, "turns": turns, "scores": list(game.totals)}
