"""A session's state is always the fold of what the journal holds, across undo and restarts."""

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.journal import Journal, JournalError
from device.session import Session
from scoring.events import Event, Record


@dataclass(frozen=True)
class N:
    """The toy game's one event: a number."""

    n: int

    def record(self) -> Record:
        return "n", {"n": self.n}


class Sequence_:
    """A toy game whose state is the tuple of numbers confirmed; odd numbers are impossible."""

    def start(self, players: list[str], settings: dict[str, Any]) -> tuple[int, ...]:
        return ()

    def apply(self, state: tuple[int, ...], event: Event) -> tuple[int, ...]:
        assert isinstance(event, N)
        if event.n % 2:
            raise ValueError(f"{event.n} is odd")
        return (*state, event.n)

    def decode(self, kind: str, data: Mapping[str, Any]) -> N:
        return N(data["n"])


steps = st.lists(st.one_of(st.integers(0, 20), st.just("undo")), max_size=30)


@settings(max_examples=40, deadline=None)
@given(steps)
def test_state_equals_a_reference_and_a_fresh_replay(tmp_path_factory: pytest.TempPathFactory,
                                                     plan: list[int | str]) -> None:
    path = tmp_path_factory.mktemp("j") / "j.db"
    reference: list[int] = []
    with Journal(path) as journal:
        session = Session.resume_or_start(journal, Sequence_(), "seq", ["A", "B"], {})
        for step in plan:
            if step == "undo":
                session.undo()
                reference[-1:] = []
            elif isinstance(step, int) and step % 2:
                with pytest.raises(ValueError, match="odd"):
                    session.confirm(N(step))
            else:
                session.confirm(N(step))
                reference.append(int(step))
            assert session.state == tuple(reference)
    with Journal(path) as journal:
        assert Session.resume_or_start(journal, Sequence_(), "seq", ["A", "B"], {}).state == tuple(reference)


def test_a_failed_write_leaves_the_state_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Journal(tmp_path / "j.db") as journal:
        session = Session.resume_or_start(journal, Sequence_(), "seq", ["A", "B"], {})
        session.confirm(N(2))

        def full(*args: object) -> int:
            raise JournalError("cannot write the journal: database or disk is full")

        monkeypatch.setattr(journal, "append", full)
        with pytest.raises(JournalError, match="full"):
            session.confirm(N(4))
        assert session.state == (2,)


def test_a_finished_game_is_not_resumed_and_another_game_is_not_mixed_in(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as journal:
        first = Session.resume_or_start(journal, Sequence_(), "seq", ["A", "B"], {})
        first.confirm(N(2))
        first.finish({"winner": "A"})
        second = Session.resume_or_start(journal, Sequence_(), "seq", ["A", "B"], {})
        assert second.game_id != first.game_id and second.state == ()
        other = Session.resume_or_start(journal, Sequence_(), "other", ["A", "B"], {})
        assert other.game_id not in (first.game_id, second.game_id)
