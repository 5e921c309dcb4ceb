"""A tiny game for testing the score command's plumbing apart from any real engine:
the request names two cards; the result is the higher rank (ace low)."""

from collections.abc import Mapping
from typing import Any

from scoring.requests import Option, card_list, check_distinct, check_fields

SAMPLES = ({"cards": ["5H", "KS"]},)


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    check_fields(request, required={"cards"})
    cards = card_list(request, "cards", count=2)
    check_distinct({"cards": cards})
    return {"high": max(cards, key=lambda c: c.rank).code}


def request_from_args(cards: list[str], options: Mapping[str, Option]) -> dict[str, Any]:
    return {"cards": cards, **options}


def render(result: Mapping[str, Any]) -> str:
    return f"high card: {result['high']}"
