"""The kiosk's side of a league (`zonkcam play --league URL --table-name T`).

The kiosk takes the game the league gave its table (players, ruleset: albany, league rules
on), plays it from its own SQLite log exactly as without a league, and a sender thread copies
that log to the league.

The outbox is the game log itself: an action is in the `actions` table, committed with full
sync, before it takes effect (`store`), so every event to send survives a power cut in the
very transaction that records it. Beside the game database, a small SQLite file (`links`)
holds which local game is which league game and the last sequence number the league
acknowledged; the sender sends every action past it, in order, in batches, and retries with a
growing backoff while the network is down. If the acknowledgement is lost (a kill between the
league's commit and ours), the resend is harmless: the league stores each (game, sequence)
once and answers with the last it holds. Nothing lost, nothing doubled.

Only the standard library: a kiosk needs no PostgreSQL driver.
"""
from __future__ import annotations

import http.client
import json
import logging
import os
import sqlite3
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from zonkcam.hardware.options import CliError

log = logging.getLogger("zonkcam.league")

TOKEN_ENV = "ZONKCAM_LEAGUE_TOKEN"
BATCH = 100  # events per request (the league takes up to 100)
IDLE_S = 0.25  # how often an idle sender looks for new actions
BACKOFF_S = (0.25, 8.0)  # first and longest wait between tries while the league is unreachable
TIMEOUT_S = 10.0


class Offline(Exception):
    """The league cannot be reached just now (network, a 5xx): try again later."""


class Refused(Exception):
    """The league refused the request (4xx); `status` and the league's reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class Client:
    """The league's kiosk API over HTTP; the token goes in a header, never in a URL or a log."""

    def __init__(self, url: str, table: str, token: str, timeout: float = TIMEOUT_S) -> None:
        self.url, self.table, self.timeout = url.rstrip("/"), table, timeout
        self._token = token

    def __repr__(self) -> str:  # never the token
        return f"Client({self.url!r}, table={self.table!r})"

    def _request(self, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method="GET" if body is None else "POST")
        req.add_header("Authorization", f"Bearer {self._token}")
        req.add_header("X-Zonkcam-Table", self.table)
        if data is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as exc:
            try:
                message = json.loads(exc.read()).get("error", exc.reason)
            except (ValueError, AttributeError, OSError):
                message = str(exc.reason)
            if exc.code >= 500 or exc.code == 429:
                raise Offline(f"the league answered {exc.code}: {message}") from None
            raise Refused(exc.code, message) from None
        except (OSError, ValueError, http.client.HTTPException) as exc:  # refused, reset,
            # timed out, a broken answer, an answer cut short (IncompleteRead)
            raise Offline(f"cannot reach the league ({type(exc).__name__})") from None

    def assignment(self) -> dict[str, Any] | None:
        try:
            return self._request("/api/kiosk/assignment")
        except Refused as exc:
            if exc.status == 404:
                return None
            raise

    def send(self, league_game: int, events: list[dict[str, Any]]) -> int:
        """Send events; returns the last sequence number the league holds for the game."""
        return int(self._request(f"/api/kiosk/games/{league_game}/events", {"events": events})["acked"])


LINKS = """
CREATE TABLE IF NOT EXISTS links (
    local_game INTEGER PRIMARY KEY,
    url TEXT NOT NULL,
    table_name TEXT NOT NULL,
    league_game INTEGER NOT NULL,
    acked INTEGER NOT NULL DEFAULT 0,   -- the last sequence number the league acknowledged
    UNIQUE (url, league_game)
);
"""


def links_path(game_db: Path) -> Path:
    return game_db.with_name(game_db.name + ".league")


@dataclass
class Link:
    local_game: int
    league_game: int
    acked: int


class Links:
    """Local game <-> league game, and what the league acknowledged (a SQLite file of its own)."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        # An acknowledgement lost to a power cut costs one resend, stored once by the league: acks
        # need not wait for the disk (an fsync per request on an SD card). A new link does.
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(LINKS)
        self.lock = threading.Lock()

    def find(self, url: str, league_game: int) -> Link | None:
        with self.lock:
            row = self.db.execute("SELECT local_game, league_game, acked FROM links WHERE url = ? AND"
                                  " league_game = ?", (url, league_game)).fetchone()
        return Link(*row) if row else None

    def latest(self, url: str, table: str) -> Link | None:
        with self.lock:
            row = self.db.execute("SELECT local_game, league_game, acked FROM links WHERE url = ? AND"
                                  " table_name = ? ORDER BY local_game DESC LIMIT 1", (url, table)).fetchone()
        return Link(*row) if row else None

    def add(self, local_game: int, url: str, table: str, league_game: int) -> None:
        with self.lock:
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("INSERT INTO links (local_game, url, table_name, league_game)"
                            " VALUES (?, ?, ?, ?)", (local_game, url, table, league_game))
            self.db.execute("PRAGMA synchronous=NORMAL")

    def all(self, url: str) -> list[Link]:
        with self.lock:
            rows = self.db.execute("SELECT local_game, league_game, acked FROM links WHERE url = ?"
                                   " ORDER BY local_game", (url,)).fetchall()
        return [Link(*r) for r in rows]

    def ack(self, local_game: int, acked: int) -> None:
        with self.lock:
            self.db.execute("UPDATE links SET acked = ? WHERE local_game = ?", (acked, local_game))

    def close(self) -> None:
        self.db.close()


def read_token(game_db: Path, table: str) -> str:
    """The table's token: $ZONKCAM_LEAGUE_TOKEN, else the file `league-token` beside the game db."""
    token = os.environ.get(TOKEN_ENV, "").strip()
    path = game_db.parent / "league-token"
    if not token and path.is_file():
        token = path.read_text("utf-8").strip()
    if not token:
        raise CliError(f"--league: no token for table {table}: set ${TOKEN_ENV} or write it to {path} "
                       "(from `zonkcam league add-table`)")
    return token


def check_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise CliError(f"--league {url}: expected the league's address, http://HOST:PORT")
    return url.rstrip("/")
