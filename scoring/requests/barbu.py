"""The ``tablescore score barbu`` request: one hand as JSON in, its scores as JSON out; the readable command
line (the cards in play order and ``--contract``, ``--declarer``...), and the result as text.

The rules are ``scoring.barbu``'s; this module reads a request into them and writes the result out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scoring.barbu import (
    PASS,
    REDOUBLES,
    SEATS,
    TRICKS,
    BarbuError,
    Contract,
    Dominoes,
    Double,
    Hand,
    Rules,
    check_doubles,
    check_order,
    check_trick_contract,
    dominoes_hand,
    hand_of,
    play_indices,
    tricks_from_cards,
)
from scoring.cards import DECK, Card, CardError, Rank, Suit
from scoring.requests import Option, RequestError, check_fields, int_field, kind_of

_TRICK_FIELDS = {"tricks", "trump", "must_trump"}
_DOMINOES_FIELDS = {"order", "start", "plays"}
_OPTIONAL = _TRICK_FIELDS | _DOMINOES_FIELDS | {"doubles", "redoubles", "redoubles_by"}
_REQUEST_RULES = {(must_trump, redoubles): Rules(must_trump=must_trump, redoubles=redoubles)
                  for must_trump in (False, True) for redoubles in REDOUBLES}
"""The rules a request may choose, by its ``must_trump`` and ``redoubles_by``."""
_INDEX = {card.code: card.index for card in DECK}
"""Canonical card codes, the fast way in; other spellings go through ``Card.parse``."""


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score one hand given as a batch request (see ``docs/SCORING.md``, "Barbu").

    >>> result = score_request(SAMPLES[0])
    >>> result["scores"], result["net"], sum(result["scores"]) == sum(result["net"]) == -30
    ([0, -12, -2, -16], [40, -36, 12, -46], True)
    >>> score_request({"contract": "Q", "declarer": 0, "order": [0, 1, 2, 3]})
    Traceback (most recent call last):
    ...
    scoring.barbu.BarbuError: 'order' is only for D (Dominoes)
    """
    check_fields(request, required={"contract", "declarer"}, optional=_OPTIONAL)
    contract = Contract.parse(request["contract"])
    declarer = int_field(request, "declarer", 0, SEATS - 1)
    wrong = (_TRICK_FIELDS if contract is Contract.DOMINOES else _DOMINOES_FIELDS) & set(request)
    if contract is not Contract.TRUMPS:
        wrong |= {"trump", "must_trump"} & set(request)
    if wrong:
        name = min(wrong)
        owner = "D (Dominoes)" if name in _DOMINOES_FIELDS else "T (Trumps)" if name != "tricks" else "trick contracts"
        raise BarbuError(f"{name!r} is only for {owner}")
    redoubles_by = request.get("redoubles_by", "any")
    rules = _REQUEST_RULES.get((False, redoubles_by)) if isinstance(redoubles_by, str) else None
    if rules is None:
        raise BarbuError(f"'redoubles_by' is \"any\" or \"declarer\", not {redoubles_by!r}")
    doubles = _doubles(request, declarer, rules)
    if contract is Contract.DOMINOES:
        return _result(_dominoes_request(request, declarer, doubles, rules))
    if "tricks" not in request:
        raise BarbuError(f"missing field 'tricks' ({contract.title} is played in 13 tricks)")
    trump = None
    if contract is Contract.TRUMPS:
        if "trump" not in request:
            raise BarbuError("missing field 'trump' (Trumps needs the suit the declarer named)")
        trump = _suit(request["trump"])
    must_trump = request.get("must_trump", False)
    if not isinstance(must_trump, bool):
        raise BarbuError(f"'must_trump' is true or false, not {must_trump!r}")
    leaders, cards = _tricks(request["tricks"])
    check_trick_contract(contract, declarer, trump)
    play = play_indices(contract, declarer, leaders, cards, trump, _REQUEST_RULES[must_trump, redoubles_by])
    return _result(hand_of(contract, declarer, doubles, trump, play))


def _suit(value: object) -> Suit:
    try:
        if isinstance(value, str):
            return Suit.parse(value)
    except ValueError:
        pass
    raise BarbuError(f"'trump' must be a suit (S, H, D or C), not {value!r}")


def _card(code: object, where: str) -> Card:
    return DECK[_card_index(code, where)]


def _card_index(code: object, where: str) -> int:
    index = _INDEX.get(code) if isinstance(code, str) else None
    if index is not None:
        return index
    try:
        return Card.parse(code).index  # type: ignore[arg-type]  # Card.parse reports a non-string as a bad code
    except CardError as error:
        raise BarbuError(f"{where}: {error}") from None


def _tricks(value: object) -> tuple[list[int], list[int]]:
    """The leaders and the card indices in play order of a request's 13 tricks."""
    if not isinstance(value, list):
        raise BarbuError(f"'tricks' is a list of {TRICKS} tricks, not {kind_of(value)}")
    if len(value) != TRICKS:
        raise BarbuError(f"'tricks' needs {TRICKS} tricks, got {len(value)}")
    index_of = _INDEX.__getitem__
    try:  # the fast way, for well-formed tricks with canonical codes
        leaders = [item["leader"] for item in value]
        cards = [index_of(code) for item in value for code in item["cards"]]
    except (KeyError, TypeError):
        return _checked_tricks(value)
    if ([len(item) for item in value] != _TWOS or [len(item["cards"]) for item in value] != _FOURS
            or {type(item["cards"]) for item in value} != {list}
            or set(map(type, leaders)) != {int} or min(leaders) < 0 or max(leaders) >= SEATS):
        return _checked_tricks(value)
    return leaders, cards


_TWOS = [2] * TRICKS
_FOURS = [SEATS] * TRICKS
"""A well-formed trick has two fields, and four cards."""


def _checked_tricks(value: list[Any]) -> tuple[list[int], list[int]]:
    """``_tricks`` trick by trick: reads other spellings of cards, and names what is wrong."""
    leaders = []
    cards = []
    for number, item in enumerate(value):
        where = f"tricks[{number}]"
        try:
            check_fields(item, required={"leader", "cards"})
            leaders.append(int_field(item, "leader", 0, SEATS - 1))
        except RequestError as error:
            raise BarbuError(f"{where}: {error}") from None
        played = item["cards"]
        if not isinstance(played, list) or len(played) != SEATS:
            got = f"{len(played)} cards" if isinstance(played, list) else kind_of(played)
            raise BarbuError(f"{where}: 'cards' needs {SEATS} card codes in play order, got {got}")
        cards += [_card_index(code, where) for code in played]
    return leaders, cards


def _seat_pairs(request: Mapping[str, Any], name: str) -> list[tuple[int, int]]:
    value = request.get(name, [])
    if not isinstance(value, list):
        raise BarbuError(f"{name!r} is a list of [from, to] seat pairs, not {kind_of(value)}")
    pairs = []
    for item in value:
        if type(item) is not list or len(item) != 2 or not _is_seat(item[0]) or not _is_seat(item[1]):
            raise BarbuError(f"{name!r}: each entry is a [from, to] pair of seats 0-3, not {item!r}")
        pairs.append((item[0], item[1]))
    return pairs


def _is_seat(value: object) -> bool:
    return type(value) is int and 0 <= value < SEATS


def _doubles(request: Mapping[str, Any], declarer: int, rules: Rules) -> tuple[Double, ...]:
    """The request's doubles and redoubles as ``Double``s, checked."""
    doubles = _seat_pairs(request, "doubles")
    redoubled = set()
    for by, on in _seat_pairs(request, "redoubles"):
        if (on, by) not in doubles:
            raise BarbuError(f"seat {by} cannot redouble seat {on}, who did not double them")
        if (on, by) in redoubled:
            raise BarbuError(f"seat {by} redoubles seat {on} twice")
        redoubled.add((on, by))
    return check_doubles(declarer, [Double(by, on, (by, on) in redoubled) for by, on in doubles], rules)


def _dominoes_request(request: Mapping[str, Any], declarer: int, doubles: tuple[Double, ...], rules: Rules) -> Hand:
    if "plays" not in request:
        if "start" in request:
            raise BarbuError("'start' goes with 'plays' (the cards laid); without them give only 'order'")
        if "order" not in request:
            raise BarbuError("missing field 'order' (Dominoes is scored by the finishing order)")
        return dominoes_hand(declarer, _order(request["order"]), doubles, rules=rules)
    if "start" not in request:
        raise BarbuError("missing field 'start' (the rank the declarer named to start the layout)")
    start = request["start"]
    try:
        rank = Rank.parse(start) if isinstance(start, str) else None
    except ValueError:
        rank = None
    if rank is None:
        raise BarbuError(f"'start' must be a rank (A, 2-9, T or 10, J, Q, K), not {start!r}")
    hand = _lay_out(declarer, rank, request["plays"]).hand(doubles, rules)
    if "order" in request and list(hand.order) != _order(request["order"]):
        raise BarbuError(f"'order' {request['order']} does not match the plays, where seats went out in the "
                         f"order {list(hand.order)}")
    return hand


def _order(value: object) -> list[int]:
    if not isinstance(value, list):
        raise BarbuError(f"'order' is a list of the 4 seats in finishing order, not {kind_of(value)}")
    check_order(value)
    return value


def _lay_out(declarer: int, start: Rank, plays: object) -> Dominoes:
    if not isinstance(plays, list):
        raise BarbuError(f"'plays' is a list of card codes and \"pass\" in turn order, not {kind_of(plays)}")
    index_of = _INDEX.__getitem__
    try:  # the fast way, for canonical codes and "pass"
        turns = [PASS if play == "pass" else index_of(play) for play in plays]
    except (KeyError, TypeError):
        turns = [PASS if isinstance(play, str) and play.lower() == "pass" else _card_index(play, f"plays[{number}]")
                 for number, play in enumerate(plays)]
    return Dominoes.begin(declarer, start).play_turns(turns)


def _result(hand: Hand) -> dict[str, Any]:
    result: dict[str, Any] = {
        "contract": hand.contract.value,
        "title": hand.contract.title,
        "declarer": hand.declarer,
        "scores": list(hand.scores),
        "net": list(hand.net),
        "doubling": [{"from": double.by, "to": double.on, "redoubled": double.redoubled,
                      "amount": double.amount(hand.scores)} for double in hand.doubles],
        "irregularities": [irregularity.as_dict() for irregularity in hand.irregularities],
    }
    if hand.trump is not None:
        result["trump"] = hand.trump.letter
    if hand.winners:
        result["winners"] = list(hand.winners)
        result["tricks_won"] = [hand.winners.count(seat) for seat in range(SEATS)]
    if hand.order:
        result["order"] = list(hand.order)
    if hand.start is not None:
        result["start"] = hand.start.letter
    return result


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    """The request for the readable form: the cards in play order and ``--contract``, ``--declarer``,
    ``--trump``, ``--doubles FROM:TO...``, ``--redoubles FROM:TO...``, ``--redoubles-by declarer``,
    ``--must-trump``; for Dominoes the plays (cards and ``pass``) with ``--start RANK``, or only
    ``--order SEAT...``.

    Trick leaders follow from the play: the declarer leads, each trick's winner leads the next.

    >>> cards = [code for trick in SAMPLES[0]["tricks"] for code in trick["cards"]]
    >>> request = request_from_args(cards, {"contract": "Q", "declarer": "0", "doubles": ["2:1", "3:0"]})
    >>> request["tricks"][:2], request["doubles"]
    ([{'leader': 0, 'cards': ['QD', 'AD', '9D', '6D']}, {'leader': 1, 'cards': ['QC', '7C', 'TC', '5C']}], [[2, 1], [3, 0]])
    >>> request_from_args([], {"contract": "D", "declarer": "0", "order": ["3", "1", "0", "2"]})["order"]
    [3, 1, 0, 2]
    """
    request: dict[str, Any] = {}
    for name, value in options.items():
        if name in ("doubles", "redoubles"):
            request[name] = [_pair(word) for word in _words(value)]
        elif name == "order":
            request[name] = [_number(word) for word in _words(value)]
        elif name == "declarer":
            request[name] = _number(value)
        else:
            request[name] = value
    if "contract" not in request or "declarer" not in request:
        raise BarbuError("give --contract (NT, Q, LT, H, K, T or D) and --declarer (seat 0-3)")
    contract = Contract.parse(request["contract"])
    request["contract"] = contract.value
    if contract is Contract.DOMINOES:
        if cards:
            request["plays"] = cards
        return request
    declarer = int_field(request, "declarer", 0, SEATS - 1)
    trump = _suit(request["trump"]) if "trump" in request else None
    played = [_card(code, "cards") for code in cards]
    if len(played) != SEATS * TRICKS:
        raise BarbuError(f"give the {SEATS * TRICKS} cards in play order, trick by trick (got {len(played)})")
    request["tricks"] = [{"leader": trick.leader, "cards": [card.code for card in trick.cards]}
                         for trick in tricks_from_cards(declarer, played, trump)]
    return request


def _words(value: Option) -> list[str]:
    return [value] if isinstance(value, str) else [] if value is True else list(value) if value else []


def _number(value: Option) -> Option | int:
    return int(value) if isinstance(value, str) and value.isdigit() else value


def _pair(word: str) -> list[int | str]:
    by, colon, on = word.partition(":")
    if not colon or not by.isdigit() or not on.isdigit():
        raise BarbuError(f"a double is written FROM:TO (seats), like 1:0, not {word!r}")
    return [int(by), int(on)]


def render(result: Mapping[str, Any]) -> str:
    """A result as text for people: the scores by player, each double, and any irregularities. Players
    are numbered from 1, as in every game's readable output (seat 0 is player 1).

    >>> print(render(score_request(SAMPLES[0])))
    No Hearts, declared by player 1
    player        1    2    3    4
    tricks won    3    5    2    3
    raw           0  -12   -2  -16
    net          40  -36   12  -46
    player 2 doubled player 1, redoubled: player 2 -24
    player 4 doubled player 1: player 4 -16
    player 4 doubled player 3: player 4 -14
    >>> print(render(score_request(SAMPLES[3])).splitlines()[-1])
      trick 6, player 2: revoke, did not follow ♣ yet played 5♣ at trick 13
    """
    declared = result["title"] + (f" ({result['trump']})" if "trump" in result else "")
    lines = [f"{declared}, declared by player {result['declarer'] + 1}"]

    def row(label: str, values: Iterable[object]) -> str:
        return f"{label:<10}" + "".join(f"{value:>5}" for value in values)

    lines.append(row("player", range(1, SEATS + 1)))
    if "tricks_won" in result:
        lines.append(row("tricks won", result["tricks_won"]))
    if "order" in result:
        lines.append(row("place", [result["order"].index(seat) + 1 for seat in range(SEATS)]))
    lines += [row("raw", result["scores"]), row("net", result["net"])]
    for double in result["doubling"]:
        how = ", redoubled" if double["redoubled"] else ""
        by, on = double["from"] + 1, double["to"] + 1
        lines.append(f"player {by} doubled player {on}{how}: player {by} {double['amount']:+d}")
    if result["irregularities"]:
        lines.append("IRREGULARITIES (scored as played; the table settles them):")
        for irregularity in result["irregularities"]:
            seat = irregularity["seat"]
            lines.append(f"  {irregularity['message'].replace(f'seat {seat}:', f'player {seat + 1}:', 1)}")
    return "\n".join(lines)


def _sample(cards: str, **options: Option) -> dict[str, Any]:
    return request_from_args(cards.split(), options)


SAMPLES = (
    _sample("QD AD 9D 6D QC 7C TC 5C 7D 8D 3D TD KC AC 6C 3C 9C 4C 5S JC KD KS 2D JD 4D 3H 2S 5D 9S 6S 9H "
            "4S 7S 3S JH AS JS 8S TS 2C 6H AH TH KH 4H 7H 8H 5H 8C 2H QH QS",
            contract="H", declarer="0", doubles=["1:0", "3:0", "3:2"], redoubles="0:1"),
    _sample("9S 3S 8S QS KC 5C TC 7C 8H JH 4H JC 2D 6D JD 9D KS JS 7S 5D KH 5S 2H 6H TH 2S 5H 9H QD 3D TD "
            "QC QH 6S 3H 4S AH KD 6C TS 3C 4C 8C AD 7D 8D 4D 2C AS AC 9C 7H",
            contract="T", declarer="2", trump="D", doubles=["0:2", "1:3"]),
    _sample("QC QD KD KC pass AD JD QS pass QH KS TD JH KH JC AC pass TC AS 9D 9C AH 8D JS TS 7D pass pass "
            "8C TH 7C 6C 9H 6D pass 8H 9S 7H 8S pass 5C 5D pass 4D 7S pass 3D 4C 6H pass 3C 5H 2C 4H 6S 3H 2D "
            "pass 5S 2H 4S 3S 2S",
            contract="D", declarer="2", start="Q", doubles=["0:2", "1:2", "3:1"], redoubles="2:1"),
    _sample("6D QD 9D 2D 4D 3S KD 5D 2C AD 3C 6C JC AC 7D TC 4C 4H 9C 7C QC KH 8C QS 8D 9H JD TD 8S 2S "
            "AH KS 5S 7S AS 3D TS KC 4S 6S JH TH 7H 6H QH 2H 5H JS 3H 8H 5C 9S",
            contract="K", declarer="3", doubles=["0:3", "2:3"], redoubles="3:2"),
)
"""One hand each: No Hearts with a redouble, Trumps, Dominoes laid card by card, and No King of Hearts
where seat 1 revoked to give away the king (reported, scored as played)."""
