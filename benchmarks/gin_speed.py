"""Gin Rummy speed: exact minimum deadwood per second, ours beside RLCard's melding, in the same run.

    .venv/bin/python -m benchmarks.gin_speed [--hands 100000] [--seed 1]

For 11 cards RLCard is given its fastest exact route: one ``get_meld_clusters`` over the 11 cards (every
collection of up to 3 disjoint melds), then for each collection, and for no melds, the unmatched total less
the highest unmatched card (the discard); a fully melded 11 is 0. That is exactly what its
``judge._get_going_out_cards`` does to find knock cards, and it is exact (11 cards hold at most 3 melds).
For 10 cards it is ``get_best_meld_clusters``. Both sides start from their own card objects; ours is also
timed from a ready 52-bit mask. Every hand's answer is compared between the two.

Each figure is the best of three passes in CPU time (the process's own, so one core's work even when
the shared machine is busy); the wall-clock rate of the random 11-card hands is printed beside it.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.gin_hands import knock_deal, meld_rich_hand, random_hand
from scoring.cards import Card
from scoring.gin import settle
from scoring.gin_melds import (
    Aces,
    deadwood,
    deadwood_after_discard,
    mask_deadwood,
    mask_deadwood_after_discard,
    mask_of,
)
from scoring.gin_melds import _set_choices as _set_choices  # to start each timed pass with it empty
from scoring.requests.gin import score_request


def rlcard_min_deadwood(hand: list[Any], discard: bool) -> int:
    """RLCard's exact minimum deadwood of 11 cards after the best discard, or of 10 cards."""
    from rlcard.games.gin_rummy.utils import melding, utils

    if not discard:
        best = melding.get_best_meld_clusters(hand)
        return utils.get_deadwood_count(hand, best[0]) if best else sum(map(utils.get_deadwood_value, hand))
    best = 1000
    for cluster in [*melding.get_meld_clusters(hand), []]:
        melded = {card for pile in cluster for card in pile}
        values = [utils.get_deadwood_value(card) for card in hand if card not in melded]
        best = min(best, sum(values) - max(values, default=0))
    return best


def rates(function: Callable[[Any], object], items: Sequence[Any]) -> tuple[float, float]:
    """Items per second of CPU time and of wall-clock time: the best of three passes each, each pass
    starting with our cache of set choices empty (a fair start; a real evening's hands fill it once)."""
    cpu = wall = float("inf")
    for _ in range(3):
        _set_choices.cache_clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        for item in items:
            function(item)
        cpu, wall = min(cpu, time.process_time() - start_cpu), min(wall, time.perf_counter() - start)
    return len(items) / cpu, len(items) / wall


def rate(function: Callable[[Any], object], items: Sequence[Any]) -> float:
    """Items per second of CPU time."""
    return rates(function, items)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="random hands timed (meld-rich: a fifth)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    rng = random.Random(args.seed)

    def rl(cards: list[Card]) -> list[Any]:
        return [rl_utils.card_from_text(card.code) for card in cards]

    print(f"Gin Rummy minimum deadwood, hands per CPU second (one core; load average {os.getloadavg()[0]:.2f})")
    print(f"{'hands':<24}{'ours (cards)':>14}{'ours (mask)':>14}{'RLCard':>12}{'ours/RLCard':>13}")
    for label, maker, count in (("random 11-card", random_hand, args.hands),
                                ("meld-rich 11-card", meld_rich_hand, args.hands // 5),
                                ("random 10-card", random_hand, args.hands),
                                ("meld-rich 10-card", meld_rich_hand, args.hands // 5)):
        size = 11 if "11" in label else 10
        hands = [maker(rng, size) for _ in range(count)]
        masks = [mask_of(hand) for hand in hands]
        theirs = [rl(hand) for hand in hands]
        ours_cards: Callable[[list[Card]], int] = deadwood_after_discard if size == 11 else deadwood
        ours_mask: Callable[[int], int] = mask_deadwood_after_discard if size == 11 else mask_deadwood
        disagree = sum(ours_cards(h) != rlcard_min_deadwood(t, size == 11) for h, t in zip(hands, theirs, strict=True))
        (ours, ours_wall), bare = rates(ours_cards, hands), rate(ours_mask, masks)
        other, other_wall = rates(lambda hand: rlcard_min_deadwood(hand, size == 11), theirs)  # noqa: B023
        print(f"{label:<24}{ours:>14,.0f}{bare:>14,.0f}{other:>12,.0f}{ours / other:>12.1f}x"
              + (f"  ({disagree} answers differ!)" if disagree else "  (all answers agree)")
              + (f"  wall clock: ours {ours_wall:,.0f}, RLCard {other_wall:,.0f}" if label.startswith("random 11") else ""))
    deals = [knock_deal(rng, Aces.LOW) for _ in range(max(args.hands // 50, 100))]
    settled = rate(lambda deal: settle(*deal), deals)
    print(f"full settlements (knocker's best arrangement, lay-offs, score) of {len(deals):,} knocks "
          f"with lay-off chances: {settled:,.0f} per CPU second")
    requests = [{"hand": [card.code for card in random_hand(rng, 11)]} for _ in range(max(args.hands // 10, 100))]
    print(f"hand requests (11 cards: discard, melds, unmatched, as JSON-shaped dicts): "
          f"{rate(score_request, requests):,.0f} per CPU second")


if __name__ == "__main__":
    main()
