"""The league's tests: a throw-away PostgreSQL per test module, a league server on 127.0.0.1 in a
thread (stopped and started again on the same port), a league night set up, simulated kiosks."""
from __future__ import annotations

import json
import random
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

psycopg = pytest.importorskip("psycopg", reason="the league extra (psycopg) is not installed")
uvicorn = pytest.importorskip("uvicorn")

from zonkcam.hardware.league import matches, migrate  # noqa: E402
from zonkcam.hardware.league.bot import next_action  # noqa: E402
from zonkcam.hardware.league.db import League  # noqa: E402
from zonkcam.hardware.league.kiosk import Client, Links, links_path  # noqa: E402
from zonkcam.hardware.league.outbox import Sender, setup_of  # noqa: E402
from zonkcam.hardware.league.server import create_app  # noqa: E402
from zonkcam.hardware.league.throwaway import NoPostgres, Throwaway, free_port  # noqa: E402
from zonkcam.hardware.store import Store  # noqa: E402

PASSWORD = "correct horse battery"
TEAMS = {"Reds": ["Ann", "Bob", "Cat", "Dan"], "Blues": ["Eve", "Fay", "Gus", "Hal"],
         "Greens": ["Ida", "Jo", "Kim", "Lou"]}
PRESENT = {"Reds": ["Ann", "Bob"], "Blues": ["Eve", "Fay"], "Greens": ["Ida", "Jo"]}
TARGET = 1500  # short games: the rules are albany's, league play on; only the target is the season's


def start_postgres() -> Throwaway:
    try:
        return Throwaway().start()
    except NoPostgres as exc:
        pytest.skip(f"PostgreSQL cannot be started here: {exc}")


def new_league(pg: Throwaway, name: str) -> str:
    url = pg.url(name)
    migrate.create_database(url)
    migrate.upgrade(url)
    return url


class LeagueServer:
    """`zonkcam league serve`'s app under uvicorn in a thread; `stop` and `start` keep the port."""

    def __init__(self, url: str) -> None:
        self.url, self.port = url, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.server: Any = None

    def start(self) -> LeagueServer:
        config = uvicorn.Config(create_app(League(self.url)), host="127.0.0.1", port=self.port,
                                log_level="warning", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the league server did not start"
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def call(base: str, path: str, body: Any = None, headers: dict | None = None,
         cookie: str | None = None) -> tuple[int, Any, dict]:
    """(status, JSON answer, headers) of one request."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            raw, status, hdrs = r.read(), r.status, dict(r.headers)
    except urllib.error.HTTPError as exc:
        raw, status, hdrs = exc.read(), exc.code, dict(exc.headers)
    try:
        return status, json.loads(raw), hdrs
    except ValueError:
        return status, raw.decode(), hdrs


def login(base: str) -> str:
    status, _, headers = call(base, "/api/login", {"password": PASSWORD})
    assert status == 200
    return headers["set-cookie"].split(";")[0]


def league_night(league: League, tables: int = 3) -> dict[str, Any]:
    """Teams, a season of short albany league games, a night, tables and their tokens."""
    league.set_admin_password(PASSWORD)
    for team, players in TEAMS.items():
        league.save_team(team, players)
    season = league.add_season("2026", options={"target": TARGET})
    night = league.add_night(season, "night 1")
    tokens = {f"T{i}": league.add_table(f"T{i}") for i in range(1, tables + 1)}
    return {"season": season, "night": night, "tokens": tokens}


def draw_match(league: League, night: dict, tables: list[str]) -> dict[str, Any]:
    return matches.new_match(league, night["night"], PRESENT, tables)


class SimKiosk:
    """A kiosk in this process: its own game log, the league's sender, the bot as the table."""

    def __init__(self, folder: Path, base: str, table: str, token: str, seed: int = 0) -> None:
        self.db = folder / f"{table}.db"
        self.store = Store(self.db)
        self.client = Client(base, table, token, timeout=5)
        self.links = Links(links_path(self.db))
        assigned = self.client.assignment()
        assert assigned is not None, f"no game for {table}"
        self.league_game = assigned["game"]
        self.game_id = self.store.new_game(setup_of(assigned))
        self.links.add(self.game_id, self.client.url, table, self.league_game)
        self.sender = Sender(self.db, self.links, self.client, on_status=lambda m: None)
        self.rng = random.Random(seed)

    def play(self, actions: int | None = None) -> int:
        """Record up to `actions` actions (None: to the end); returns how many."""
        n = 0
        while actions is None or n < actions:
            action = next_action(self.store.game(self.game_id), self.rng)
            if action is None:
                break
            self.store.record(self.game_id, action)
            n += 1
        return n

    def log(self) -> list[tuple[int, str, str]]:
        with self.store.db as db:
            return [tuple(r) for r in db.execute(
                "SELECT seq, at, line FROM actions WHERE game_id = ? ORDER BY seq", (self.game_id,))]

    def drain(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while self.sender.waiting():
            assert time.monotonic() < deadline, f"events still waiting: {self.sender.waiting()}"
            time.sleep(0.05)


def league_log(league: League, game: int) -> list[tuple[int, str, str]]:
    return [(r["seq"], r["at"], r["line"]) for r in league.all(
        "SELECT seq, at, line FROM events WHERE game_id = %s ORDER BY seq", (game,))]
