"""The club's live page in a real headless browser (Debian's Chromium, driven by selenium): the standings
appear and follow each confirmed hand without a reload, and a name with HTML in it shows as text. The
exports and the printable sheet over HTTP."""

from __future__ import annotations

import csv
import io
import json
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from club.config import parse as parse_server
from club.serve import ClubServer
from device.journal import Journal
from tests.club.broker import Mosquitto, server_config
from tests.club.table import play
from tests.club.test_link import link_for, wait_for

ANN = '<b>Ann</b><img src=x onerror="document.title=1">'
"""A player's name as typed at the table, markup and all."""


@pytest.fixture(name="browser", scope="module")
def browser_fixture() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    yield driver
    driver.quit()


def cells(browser: webdriver.Chrome) -> list[list[str]]:
    """The Gin Rummy standings as the page shows them, row by row: place, player, games, won, points, hands
    won, best hand, shutouts."""
    return browser.execute_script(  # type: ignore[no-any-return]
        "return [...document.querySelectorAll('#standings [data-game=gin] tr')].slice(1)"
        ".map(row => [...row.querySelectorAll('td')].map(cell => cell.textContent))")


def test_the_standings_appear_and_follow_each_hand_and_names_stay_text(
        broker: Mosquitto, browser: webdriver.Chrome, tmp_path: Path) -> None:
    path = tmp_path / "north.db"
    with ClubServer(parse_server(server_config(broker, tmp_path / "club.db"))) as server, \
            Journal(path) as journal, link_for(broker, "north", path):
        host, port = server.web.server_address[:2]
        play(journal, [ANN, "Bob"], 1)
        wait_for(lambda: server.store.counts().get(("north", 1)) == 2)
        browser.get(f"http://{host}:{port}/tv")
        browser.execute_script("window.loaded = true")  # gone if the page reloads
        wait_for(lambda: cells(browser) == [["1", ANN, "1", "0", "5", "1", "5", "0"],
                                              ["2", "Bob", "1", "0", "0", "0", "0", "0"]])
        assert not browser.find_elements(By.CSS_SELECTOR, "#standings b, #standings img, #tables b, #tables img")
        table = browser.execute_script("return document.querySelector('[data-table=north]').textContent")
        assert f"{ANN}: 5" in table and "online" in table
        play(journal, [ANN, "Bob"], 3)  # Bob knocks for 5, then Ann goes gin: 59
        wait_for(lambda: cells(browser)[0] == ["1", ANN, "1", "0", "64", "2", "59", "0"], seconds=5)
        assert browser.execute_script("return window.loaded") is True
        assert browser.title != "1"  # the name's script never ran
        night = json.loads(urllib.request.urlopen(f"http://{host}:{port}/standings.json").read())["night"]
        sheet = urllib.request.urlopen(f"http://{host}:{port}/nights/{night}/sheet").read().decode()
        assert "<td>&lt;b&gt;Ann&lt;/b&gt;&lt;img src=x onerror=&quot;document.title=1&quot;&gt;</td>" in sheet
        assert ANN not in sheet
        rows = list(csv.DictReader(io.StringIO(
            urllib.request.urlopen(f"http://{host}:{port}/nights/{night}.csv").read().decode())))
        assert [(row["table"], row["player"], row["points"], row["total"]) for row in rows] == [
            ("north", ANN, "5", "5"), ("north", "Bob", "5", "5"), ("north", ANN, "59", "64")]
        export = json.loads(urllib.request.urlopen(f"http://{host}:{port}/nights/{night}.json").read())
        assert [game["players"] for game in export["games"]] == [[ANN, "Bob"]]
        assert export["standings"][0]["rows"][0]["side"] == ANN
        play(journal, [ANN, "Bob"], 4)
        wait_for(lambda: cells(browser)[1][4] == "10", seconds=5)
