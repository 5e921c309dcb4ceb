"""The club's web server on its own (no broker): read-only, and a request it cannot answer gets one clear
line and the right status."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from club.standings import Club
from club.store import Store
from club.web import Changes, Pages, server


def test_what_it_cannot_answer(tmp_path: Path) -> None:
    with Store(tmp_path / "club.db") as store:
        web = server(Pages(Club(store), Changes(), "riverside"), "127.0.0.1", 0)
        threading.Thread(target=web.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{web.server_address[1]}"
        try:
            for path, status, body in [("/standings.json?night=tonight", 400, "night must be a date: YYYY-MM-DD"),
                                       ("/nights/2026-11-27.xml", 404, "no such page"),
                                       ("/admin", 404, "no such page")]:
                with pytest.raises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(base + path)
                assert (refused.value.code, refused.value.read().decode().strip()) == (status, body)
            with pytest.raises(urllib.error.HTTPError) as refused:  # read-only: nothing may be posted
                urllib.request.urlopen(base + "/standings.json", data=b"{}")
            assert refused.value.code == 501
            sheet = urllib.request.urlopen(base + "/nights/2026-11-27/sheet").read().decode()
            assert "No games that night." in sheet
        finally:
            web.shutdown()
            web.server_close()
