"""The keyboard stands in for the buttons and the seat panel: docs/DEVICE.md's run without hardware can be
played, with `tablescore run --keys` itself."""

from __future__ import annotations

from pathlib import Path

from device.journal import Journal
from tests.reliability.test_crash_loops import device, table, until_shown


def test_a_game_is_played_from_the_keyboard(tmp_path: Path) -> None:
    with device(table(tmp_path), "--keys") as child:
        assert child.stdin is not None
        until_shown(child, tmp_path / "oled", "OK: Ann deals")
        child.stdin.write("n\n")  # NEXT: the second option, Bob deals
        child.stdin.write("o\n")
        child.stdin.flush()
        until_shown(child, tmp_path / "oled", "turn the starter")
        child.stdin.write("O\n")  # OK held: undo
        child.stdin.flush()
        until_shown(child, tmp_path / "oled", "OK: Ann deals", latest=True)
    with Journal(tmp_path / "journal.db") as journal:
        game = journal.current_game()
        assert game is not None
        assert [(event.kind, event.data) for event in journal.events(game.id)] == [("deal", {"dealer": 1}),
                                                                                   ("undo", {})]
