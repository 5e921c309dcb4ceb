"""The club's read-only web pages: the live standings (``/``, and full-screen for a TV at ``/tv``), a night's
exports (``/nights/<night>.json``, ``.csv``) and its printable standings sheet (``/nights/<night>/sheet``).

The live page draws whatever ``/live`` sends: Server-Sent Events, one whole snapshot as it opens and again
each time the club's games change, so a TV shows a confirmed hand within a second without reloading
(``/standings.json`` is the same snapshot once). The page writes every name as text (never as markup), and
the sheet escapes them.

>>> Changes().version
0
"""

from __future__ import annotations

import csv
import html
import io
import json
import logging
import re
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from club.standings import Club
from device.history import CSV_FIELDS

log = logging.getLogger(__name__)

KEEPALIVE = 15.0
"""Seconds between the comments that keep an idle event stream open."""
NIGHT = re.compile(r"\d{4}-\d{2}-\d{2}")


class Changes:
    """A counter of the club's changes that the event streams wait on."""

    def __init__(self) -> None:
        self.version = 0
        self._condition = threading.Condition()

    def bump(self) -> None:
        """Something changed: wake every stream."""
        with self._condition:
            self.version += 1
            self._condition.notify_all()

    def wait(self, seen: int, timeout: float) -> int:
        """The version once it is past ``seen`` (or ``timeout`` seconds have passed)."""
        with self._condition:
            self._condition.wait_for(lambda: self.version != seen, timeout)
            return self.version


class Pages:
    """What the web server serves: the club's games and their changes."""

    def __init__(self, club: Club, changes: Changes, name: str) -> None:
        self.club, self.changes, self.name = club, changes, name
        self._lock = threading.Lock()
        self._cached: dict[tuple[int, str | None], bytes] = {}

    def snapshot(self, night: str | None) -> bytes:
        """The page's data for ``night`` as JSON, made once for each version of the club."""
        with self._lock:
            version = self.changes.version
            key = (version, night)
            if key not in self._cached:
                self._cached = {k: v for k, v in self._cached.items() if k[0] == version}
                self._cached[key] = json.dumps({"club": self.name, "version": version,
                                                **self.club.snapshot(night)}).encode()
            return self._cached[key]


def server(pages: Pages, host: str, port: int) -> ThreadingHTTPServer:
    """The web server on ``host``:``port`` (0: any free port); ``serve_forever`` runs it."""

    class Handler(Request):
        served = pages

    made = ThreadingHTTPServer((host, port), Handler)
    made.daemon_threads = True
    return made


class Request(BaseHTTPRequestHandler):
    """One request to the club's pages."""

    served: Pages
    server_version = "tablescore-club"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        night = parse_qs(url.query).get("night", [None])[0]
        if night is not None and not NIGHT.fullmatch(night):
            return self._send(HTTPStatus.BAD_REQUEST, "text/plain", b"night must be a date: YYYY-MM-DD\n")
        path = url.path
        if path in ("/", "/tv"):
            return self._send(HTTPStatus.OK, "text/html; charset=utf-8", PAGE.encode())
        if path == "/standings.json":
            return self._send(HTTPStatus.OK, "application/json", self.served.snapshot(night))
        if path == "/live":
            return self._stream(night)
        if path == "/favicon.ico":
            return self._send(HTTPStatus.NO_CONTENT, "image/x-icon", b"")
        match = re.fullmatch(r"/nights/(\d{4}-\d{2}-\d{2})(\.json|\.csv|/sheet)", path)
        if match is None:
            return self._send(HTTPStatus.NOT_FOUND, "text/plain", b"no such page\n")
        night, what = match.groups()
        club = self.served.club
        if what == ".json":
            return self._send(HTTPStatus.OK, "application/json", json.dumps(club.export(night), indent=1).encode(),
                              attachment=f"{self.served.name}-{night}.json")
        if what == ".csv":
            text = io.StringIO()
            writer = csv.DictWriter(text, ("table", *CSV_FIELDS))
            writer.writeheader()
            writer.writerows(club.csv(night))
            return self._send(HTTPStatus.OK, "text/csv; charset=utf-8", text.getvalue().encode(),
                              attachment=f"{self.served.name}-{night}.csv")
        return self._send(HTTPStatus.OK, "text/html; charset=utf-8",
                          sheet(self.served.name, night, club.export(night)["standings"]).encode())

    def _send(self, status: HTTPStatus, kind: str, body: bytes, attachment: str | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        if attachment:
            self.send_header("Content-Disposition", f'attachment; filename="{attachment}"')
        self.end_headers()
        self.wfile.write(body)

    def _stream(self, night: str | None) -> None:
        """Server-Sent Events: the snapshot now, then again at each change, until the browser goes."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        changes, seen = self.served.changes, -1
        try:
            while True:
                if seen != changes.version:
                    seen = changes.version
                    self.wfile.write(b"data: " + self.served.snapshot(night) + b"\n\n")
                else:
                    self.wfile.write(b": still here\n\n")
                self.wfile.flush()
                changes.wait(seen, KEEPALIVE)
        except (BrokenPipeError, ConnectionResetError):
            return


def sheet(club: str, night: str, standings: list[dict[str, Any]]) -> str:
    """The night's standings as a page to print, every name escaped.

    >>> "<td>&lt;b&gt;Ann&lt;/b&gt;</td>" in sheet("riverside", "2026-11-27", [{"title": "Gin Rummy",
    ...     "feats": [], "rows": [{"side": "<b>Ann</b>", "games": 1, "won": 1, "points": 120, "hands": 3,
    ...                            "best": 45}]}])
    True
    """
    parts = [f"<!doctype html><meta charset=utf-8><title>{html.escape(club)} {night}</title>",
             "<style>body{font-family:sans-serif}table{border-collapse:collapse;margin-bottom:2em}"
             "td,th{border:1px solid #000;padding:.2em .6em;text-align:right}td:nth-child(2){text-align:left}"
             "@media print{a{display:none}}</style>",
             f"<h1>{html.escape(club)}: standings of the night of {night}</h1>"]
    for game in standings:
        feats = game["feats"]
        head = ["#", "Player", "Games", "Won", "Points", "Hands won", "Best hand", *(f.capitalize() for f in feats)]
        parts.append(f"<h2>{html.escape(game['title'])}</h2><table><tr>"
                     + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>")
        for place, row in enumerate(game["rows"], 1):
            cells = [place, row["side"], row["games"], row["won"], row["points"], row["hands"],
                     "" if row["best"] is None else row["best"], *(row[f] for f in feats)]
            parts.append("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in cells) + "</tr>")
        parts.append("</table>")
    if not standings:
        parts.append("<p>No games that night.</p>")
    return "\n".join(parts)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Club standings</title>
<style>
body{font-family:sans-serif;margin:1em;background:#fff;color:#111}
body.tv{background:#111;color:#eee;font-size:1.6em;margin:.5em}
h1{margin:.2em 0}
section{margin-bottom:1em}
table{border-collapse:collapse;margin:.3em 0}
td,th{padding:.15em .6em;text-align:right;border-bottom:1px solid #8884}
td.name,th.name{text-align:left}
.tables{display:flex;flex-wrap:wrap;gap:.6em}
.table{border:1px solid #8888;border-radius:.4em;padding:.4em .7em;min-width:12em}
.offline{opacity:.5}
.status{font-size:.8em}
.last{font-size:.8em;color:#888}
body.tv nav{display:none}
</style></head>
<body>
<h1 id="title">Club standings</h1>
<nav><span id="night"></span> &middot; <a id="json">JSON</a> &middot; <a id="csv">CSV</a> &middot;
<a id="sheet">printable sheet</a> &middot; <a href="/tv">TV</a> &middot; other nights: <span id="nights"></span></nav>
<section><h2>Tables</h2><div class="tables" id="tables"></div></section>
<section id="standings"></section>
<script>
"use strict";
const tv = location.pathname === "/tv";
if (tv) document.body.classList.add("tv");
const query = location.search;
function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}
function row(cells, tag, classes) {
  const tr = el("tr");
  cells.forEach((cell, i) => tr.appendChild(el(tag, cell, classes && classes[i])));
  return tr;
}
function render(data) {
  document.getElementById("title").textContent = data.club + ": the night of " + data.night;
  document.getElementById("night").textContent = data.night;
  for (const [id, href] of [["json", ".json"], ["csv", ".csv"], ["sheet", "/sheet"]])
    document.getElementById(id).href = "/nights/" + data.night + href;
  document.getElementById("nights").replaceChildren(...data.nights.filter(n => n !== data.night).map(n => {
    const link = el("a", n + " ");
    link.href = location.pathname + "?night=" + n;
    return link;
  }));
  const tables = document.getElementById("tables");
  tables.replaceChildren(...data.tables.map(t => {
    const box = el("div", null, "table" + (t.online ? "" : " offline"));
    box.dataset.table = t.table;
    box.appendChild(el("strong", t.table));
    box.appendChild(el("span", t.online ? " online" : " offline", "status"));
    if (t.title) box.appendChild(el("div", t.title + (t.state ? " (" + t.state + ")" : "")));
    (t.sides || []).forEach((side, i) => box.appendChild(el("div", side + ": " + t.totals[i], "side")));
    (t.last || []).forEach(line => box.appendChild(el("div", line, "last")));
    return box;
  }));
  const standings = document.getElementById("standings");
  standings.replaceChildren(...data.standings.map(game => {
    const part = el("div");
    part.dataset.game = game.game;
    part.appendChild(el("h2", game.title));
    const table = el("table");
    const feats = game.feats.map(f => f[0].toUpperCase() + f.slice(1));
    table.appendChild(row(["#", "Player", "Games", "Won", "Points", "Hands won", "Best hand", ...feats], "th",
                          [null, "name"]));
    game.rows.forEach((r, i) => {
      const tr = row([i + 1, r.side, r.games, r.won, r.points, r.hands, r.best ?? "", ...game.feats.map(f => r[f])],
                     "td", [null, "name"]);
      tr.dataset.side = r.side;
      table.appendChild(tr);
    });
    part.appendChild(table);
    return part;
  }));
  document.body.dataset.version = data.version;
}
new EventSource("/live" + query).onmessage = event => render(JSON.parse(event.data));
</script>
</body></html>
"""
