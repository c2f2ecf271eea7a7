"""The league's database: a pool of psycopg connections and the statements of the league's
people and places (settings, teams and rosters, seasons, match nights, tables). Matches and
their games are in `matches`, the kiosks' events in `sync`.

A statement that cannot reach PostgreSQL raises `Unavailable` (the server answers 503 and the
kiosks retry later); a request the league refuses raises `LeagueError` with the reason."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import ConnectionPool, PoolTimeout
from zonkcam.hardware.league.auth import new_token, password_hash, token_hash, token_matches
from zonkcam.hardware.league.draw import DrawError, check_roster
from zonkcam.rules.actions import VERBS
from zonkcam.rules.ruleset import RulesetError, load_variant, with_option

ADMIN_KEY = "admin_password"
DB = psycopg.Connection[DictRow]  # a pooled connection: its rows are dicts by column name


def returned(cursor: psycopg.Cursor[DictRow]) -> DictRow:
    """The one row a statement always gives (INSERT ... RETURNING, an aggregate)."""
    row = cursor.fetchone()
    assert row is not None, "the statement gave no row"
    return row


class LeagueError(ValueError):
    """A request the league refuses (HTTP 400/404/409); the message says why."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Unavailable(RuntimeError):
    """PostgreSQL cannot be reached just now."""


class League:
    def __init__(self, url: str, size: int = 8) -> None:
        self.url = url
        self.pool: ConnectionPool[DB] = ConnectionPool(url, min_size=1, max_size=size, timeout=5.0, open=True,
                                                       check=ConnectionPool.check_connection,
                                                       kwargs={"row_factory": dict_row, "connect_timeout": 5})

    def close(self) -> None:
        self.pool.close()

    @contextmanager
    def tx(self) -> Iterator[DB]:
        """One transaction on a pooled connection."""
        try:
            with self.pool.connection() as db, db.transaction():
                yield db
        except (PoolTimeout, psycopg.OperationalError) as exc:
            raise Unavailable(f"the league's database is unavailable ({type(exc).__name__})") from None
        except psycopg.errors.UniqueViolation as exc:
            detail = exc.diag.message_detail or "already there"
            raise LeagueError(detail.replace("Key ", ""), 409) from None

    def one(self, query: str, params: Sequence[Any] = ()) -> dict[str, Any] | None:
        with self.tx() as db:
            return db.execute(query, params).fetchone()

    def all(self, query: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        with self.tx() as db:
            return db.execute(query, params).fetchall()

    # --- settings: the admin password ------------------------------------------------------

    def admin_hash(self) -> str | None:
        row = self.one("SELECT value FROM settings WHERE key = %s", (ADMIN_KEY,))
        return row["value"] if row else None

    def set_admin_password(self, password: str) -> None:
        if len(password) < 8:
            raise LeagueError("the admin password needs at least 8 characters")
        with self.tx() as db:
            db.execute("INSERT INTO settings (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE"
                       " SET value = EXCLUDED.value", (ADMIN_KEY, password_hash(password)))

    # --- teams and rosters (L1) -------------------------------------------------------------

    def save_team(self, name: object, players: Sequence[str]) -> dict[str, Any]:  # names checked here
        """Create a team or replace its roster; a player belongs to one team at a time."""
        name = _name(name, "team")
        players = [_name(p, "player") for p in players]
        try:
            check_roster(name, players)
        except DrawError as exc:
            raise LeagueError(str(exc)) from None
        with self.tx() as db:
            team = returned(db.execute("INSERT INTO teams (name) VALUES (%s) ON CONFLICT (name) DO UPDATE"
                                       " SET name = EXCLUDED.name RETURNING id", (name,)))
            db.execute("UPDATE players SET team_id = NULL WHERE team_id = %s", (team["id"],))
            for i, player in enumerate(players):
                other = db.execute("SELECT t.name FROM players p JOIN teams t ON t.id = p.team_id"
                                   " WHERE p.name = %s", (player,)).fetchone()
                if other:
                    raise LeagueError(f"{player} is on team {other['name']}", 409)
                db.execute("INSERT INTO players (name, team_id, roster_order) VALUES (%s, %s, %s)"
                           " ON CONFLICT (name) DO UPDATE SET team_id = EXCLUDED.team_id,"
                           " roster_order = EXCLUDED.roster_order", (player, team["id"], i))
        return {"team": name, "players": players}

    def teams(self) -> list[dict[str, Any]]:
        rows = self.all("SELECT t.name AS team, p.name AS player FROM teams t LEFT JOIN players p"
                        " ON p.team_id = t.id ORDER BY t.name, p.roster_order")
        teams: dict[str, list[str]] = {}
        for r in rows:
            teams.setdefault(r["team"], [])
            if r["player"]:
                teams[r["team"]].append(r["player"])
        return [{"team": t, "players": p} for t, p in teams.items()]

    # --- seasons and match nights -----------------------------------------------------------

    def add_season(self, name: object, variant: str = "albany", options: dict[str, Any] | None = None) -> int:
        ruleset_for(variant, options or {})  # checked now, not at the first draw
        with self.tx() as db:
            row = db.execute("INSERT INTO seasons (name, variant, options) VALUES (%s, %s, %s) RETURNING id",
                             (_name(name, "season"), variant, Jsonb(options or {})))
            return returned(row)["id"]

    def seasons(self) -> list[dict[str, Any]]:
        return self.all("SELECT id, name, variant, options FROM seasons ORDER BY id")

    def add_night(self, season_id: int, name: object) -> int:
        with self.tx() as db:
            if db.execute("SELECT 1 FROM seasons WHERE id = %s", (season_id,)).fetchone() is None:
                raise LeagueError(f"no season {season_id}", 404)
            row = db.execute("INSERT INTO match_nights (season_id, name) VALUES (%s, %s) RETURNING id",
                             (season_id, _name(name, "match night")))
            return returned(row)["id"]

    # --- tables and their tokens ------------------------------------------------------------

    def add_table(self, name: str) -> str:
        """A table and its token (shown once; only its hash is kept). Again: a new token."""
        token = new_token()
        with self.tx() as db:
            db.execute("INSERT INTO tables (name, token_hash) VALUES (%s, %s) ON CONFLICT (name)"
                       " DO UPDATE SET token_hash = EXCLUDED.token_hash",
                       (_name(name, "table"), token_hash(token)))
        return token

    def table_for(self, name: str, token: str) -> int | None:
        """The table's id if `token` is its token (constant-time), else None."""
        with self.tx() as db:
            row = db.execute("SELECT id, token_hash FROM tables WHERE name = %s", (name,)).fetchone()
            # an unknown table costs the same hash and compare as a known one
            stored = row["token_hash"] if row else "0" * 64
            if not token_matches(token, stored) or row is None:
                return None
            db.execute("UPDATE tables SET last_seen = now() WHERE id = %s AND (last_seen IS NULL"
                       " OR last_seen < now() - interval '5 seconds')", (row["id"],))
        return row["id"]

    def tables(self) -> list[dict[str, Any]]:
        return self.all(
            "SELECT t.name, t.last_seen, g.id AS game, g.status, g.players FROM tables t"
            " LEFT JOIN LATERAL (SELECT id, status, players FROM games WHERE table_id = t.id"
            " AND status <> 'over' ORDER BY id LIMIT 1) g ON true ORDER BY t.name")


def ruleset_for(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """A league game's ruleset (L4): the season's variant with league play on, plus its options."""
    try:
        ruleset = with_option(load_variant(variant), "game.league", True)
        for key, value in options.items():
            ruleset = with_option(ruleset, key, value)
    except RulesetError as exc:
        raise LeagueError(str(exc)) from None
    return ruleset.to_dict()


def _name(text: object, what: str) -> str:
    if not isinstance(text, str) or not text.strip() or len(text) > 64 or "," in text:
        raise LeagueError(f"a {what} name is 1-64 characters, no comma")
    if what == "player" and text.strip().lower() in VERBS:
        raise LeagueError(f"{text.strip()!r} cannot be a Zonk name (an action word)")
    return text.strip()
