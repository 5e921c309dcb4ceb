"""A scripted club table for the tests and the benchmark: Gin Rummy played through the device's own
session (``device.session.Session`` on the journal, the flow checking every event) with the club link
publishing, one confirmed hand each ``interval`` seconds until the journal holds ``hands`` of them.

Run as a process (``python -m tests.club.table JOURNAL CLUB_TOML HANDS INTERVAL``) it can be killed and
started again: it resumes the game in the journal as the device does and carries on. Once the journal is
whole it waits until the broker has acknowledged everything, then exits.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from device.club_link import ClubLink, Outbox
from device.config import ClubSection, load
from device.games import flow_for
from device.journal import Journal
from device.session import Session
from scoring.cards import parse_cards
from scoring.gin_hand import Knocked, Shown

KNOCK = (["5H", "6H", "7H", "8H", "9H", "KS", "KH", "KD", "2C", "3D"], ["TH", "JH", "4H", "2S", "2D", "2H", "9C", "9D", "9S", "QC"])
"""A knock for 5 (deadwood 5 against 10 after the layoff)."""
GIN = (["2C", "3C", "4C", "5H", "6H", "7H", "8H", "KS", "KH", "KD"], ["TH", "JH", "4H", "2S", "2D", "2H", "9C", "9D", "9S", "QC"])
"""Gin: 25 and the defender's 34."""


def hands_in(journal: Journal) -> int:
    """How many hands the journal holds (each game's standing ``hand`` events)."""
    return int(journal.db.execute("SELECT COUNT(*) FROM events WHERE kind = 'hand'").fetchone()[0])


def play(journal: Journal, players: list[str], hands: int, interval: float = 0.0) -> None:
    """Confirm hands (a knock, then both hands laid out) until the journal holds ``hands``; a game over is
    recorded and the next begun, as OK does at the table."""
    flow = flow_for("gin", players, {})
    session = Session.resume_or_start(journal, flow, "gin", players, {})
    while (done := hands_in(journal)) < hands:
        result = flow.result(session.state)
        if result is not None:
            session.finish(result)
            session = Session(journal, flow, journal.start_game("gin", players, {}))
            continue
        seat = done % 2
        if session.state.knocker is None:
            session.confirm(Knocked(seat))
        knocker, defender = GIN if done % 3 == 2 else KNOCK
        session.confirm(Shown(tuple(parse_cards(knocker)), tuple(parse_cards(defender))))
        time.sleep(interval)


def main(journal_path: str, config_path: str, hands: int, interval: float) -> int:
    config = load(config_path)
    club = config.club
    assert isinstance(club, ClubSection)
    with Journal(journal_path) as journal, ClubLink(club, Path(journal_path)):
        play(journal, list(config.table.players), hands, interval)
        with Outbox(journal_path, club.table) as outbox:
            while outbox.pending():
                time.sleep(0.05)
        time.sleep(0.2)  # the table's retained state follows its last entry
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])))
