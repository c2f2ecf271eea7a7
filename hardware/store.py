"""The game database: every action of every game, the players, the Zonk File (archive).

One SQLite file in WAL mode with full sync. An action is checked against the game in memory,
then appended and committed, and only then does it take effect (the store's game moves on):
pulling the power at any moment loses at most the action being recorded, never a half of it.
`zonkcam` finds the unfinished game in the database and replays its log to resume (X4).

Players (their Zonk names, W1) and detroit's permanent rules (D8) outlive games; a finished
game is archived with its start and end, final scores, hit totals and G.H.A. (W19).
"""
from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from zonkcam.rules.actions import ActionError, AnyAction, Correct, Undo, parse_action
from zonkcam.rules.game import Game, GameSetup, PermanentRule, ReplayError
from zonkcam.rules.ruleset import RulesetError, ruleset_from_dict
from zonkcam.rules.stats import TableStats, add_game
from zonkcam.rules.turn import IllegalAction

ENV = "ZONKCAM_DB"

SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    variant TEXT NOT NULL,
    ruleset TEXT NOT NULL,          -- the full ruleset as JSON: house rules survive file edits
    players TEXT NOT NULL,          -- JSON list, seating order
    started TEXT NOT NULL,
    zone TEXT NOT NULL DEFAULT '',
    permanent TEXT NOT NULL DEFAULT '[]',  -- permanent rules on the table (D8)
    ended TEXT,                     -- NULL while the game is being played
    result TEXT                     -- W19: scores, hits, G.H.A., winners (JSON)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    at TEXT NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS permanent_rules (
    id INTEGER PRIMARY KEY,
    owner TEXT NOT NULL REFERENCES players(name),
    text TEXT NOT NULL,
    game_id INTEGER REFERENCES games(id),
    created TEXT NOT NULL
);
"""


# Schema versions (`PRAGMA user_version`). Version 0 is SCHEMA above, the database as it was
# before versions were kept; each later version is one step of this ordered list, applied in
# order and in one transaction when a database is opened, the version bumped with it. This is
# the usual way for an embedded SQLite app (plain sqlite3, no migration framework): a Pi that
# updates zonkcam upgrades its database on the next start, and a crash mid-upgrade leaves the
# old version whole. Steps are only ever appended, never edited once released.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: which zonkcam started a game (a bug report can name it); the game to resume is found
    # by an index instead of a scan of every game.
    ("ALTER TABLE games ADD COLUMN zonkcam_version TEXT NOT NULL DEFAULT ''",
     "CREATE INDEX IF NOT EXISTS games_by_end ON games (ended, id)"),
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """``$ZONKCAM_DB``, else ``$XDG_DATA_HOME/zonkcam/zonkcam.db`` (~/.local/share/...)."""
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "zonkcam" / "zonkcam.db"


def zonkcam_version() -> str:
    try:
        return metadata.version("zonkcam")
    except metadata.PackageNotFoundError:
        return ""


def now() -> str:
    return datetime.now().isoformat(timespec="seconds")


@dataclass(frozen=True)
class Archived:
    id: int
    variant: str
    started: str
    ended: str
    result: dict[str, Any]


class StoreError(Exception):
    """The game database cannot be used as asked: not a database, no such game, a stored action
    that no longer reads. The message says which."""


class Store:
    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path else default_path()
        if self.path.is_dir():
            raise StoreError(f"{self.path} is a folder: give the game database's file name")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Explicit transactions; one connection shared by the kiosk's camera and web threads,
            # which take turns (the table app serialises them), hence check_same_thread=False.
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.version = migrate(self.db, self.path)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.path}: not a game database zonkcam can open ({exc})") from None
        self._games: dict[int, Game] = {}

    def close(self) -> None:
        self.db.close()

    # --- players (W1, D8) ---------------------------------------------------------------

    def players(self) -> list[str]:
        return [r[0] for r in self.db.execute("SELECT name FROM players ORDER BY created, name")]

    def permanent_rules(self, players: Sequence[str]) -> tuple[PermanentRule, ...]:
        marks = ",".join("?" * len(players))
        rows = self.db.execute(
            f"SELECT id, owner, text FROM permanent_rules WHERE owner IN ({marks}) ORDER BY id", players)
        return tuple(PermanentRule(*r) for r in rows)

    # --- games --------------------------------------------------------------------------

    def new_game(self, setup: GameSetup) -> int:
        """Register the players (names are for all time) and start a game; returns its id."""
        started = setup.started or now()
        with self._transaction():
            for name in setup.players:
                self.db.execute("INSERT OR IGNORE INTO players (name, created) VALUES (?, ?)",
                                (name, started))
            permanent = self.permanent_rules(setup.players)
            cur = self.db.execute(
                "INSERT INTO games (variant, ruleset, players, started, zone, permanent, zonkcam_version)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (setup.ruleset.name, json.dumps(setup.ruleset.to_dict()), json.dumps(list(setup.players)),
                 started, setup.zone, json.dumps([[r.id, r.owner, r.text] for r in permanent]),
                 zonkcam_version()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    def unfinished(self) -> int | None:
        """The game to resume: the latest one not yet over."""
        row = self.db.execute("SELECT id FROM games WHERE ended IS NULL ORDER BY id DESC LIMIT 1").fetchone()
        return row[0] if row else None

    def setup(self, game_id: int) -> GameSetup:
        row = self.db.execute("SELECT ruleset, players, started, zone, permanent FROM games WHERE id = ?",
                              (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no game {game_id} in {self.path}")
        try:
            ruleset = ruleset_from_dict(json.loads(row[0]), f"game {game_id}")
        except (ValueError, RulesetError) as exc:
            raise StoreError(f"game {game_id}: its stored rules cannot be read ({exc})") from None
        permanent = tuple(PermanentRule(*r) for r in json.loads(row[4]))
        return GameSetup(ruleset, tuple(json.loads(row[1])), row[2], row[3], permanent)

    def log(self, game_id: int) -> list[AnyAction]:
        setup = self.setup(game_id)
        rows = self.db.execute("SELECT seq, line, at FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        try:
            return [parse_action(line, setup.players, at) for _, line, at in rows]
        except ActionError as exc:
            raise StoreError(f"game {game_id}: a stored action cannot be read ({exc})") from None

    def game(self, game_id: int) -> Game:
        """The game as its log leaves it (replayed once, then kept up to date)."""
        if game_id not in self._games:
            try:
                self._games[game_id] = Game.replay(self.setup(game_id), self.log(game_id))
            except IllegalAction as exc:
                raise StoreError(f"game {game_id}: its log no longer plays ({exc})") from None
        return self._games[game_id]

    def record(self, game_id: int, *actions: str | AnyAction) -> Game:
        """Check actions, append and commit them together, then let them take effect; returns
        the game. Each action is checked against the game the ones before it leave (a turn
        action with no player falls to whoever is up then).

        An illegal action raises `IllegalAction` (or `ActionError`) and nothing is stored."""
        game = candidate = self.game(game_id)
        log = list(game.log)
        for action in actions:
            if isinstance(action, str):
                action = parse_action(action, game.setup.players)
            if not isinstance(action, Undo | Correct):
                action = candidate.normalize(action)
            action = action.stamped(now())
            try:
                # every later action re-checked; the colours of this new one too (`check_taken`)
                candidate = Game.replay(game.setup, [*log, action], new=1)
            except ReplayError as exc:
                raise IllegalAction(exc.reason if exc.seq == len(log) + 1 else str(exc)) from None
            log.append(action)
        with self._transaction():
            for seq in range(len(game.log), len(log)):
                self.db.execute("INSERT INTO actions (game_id, seq, at, line) VALUES (?, ?, ?, ?)",
                                (game_id, seq + 1, log[seq].at, str(log[seq])))
            if candidate.over:
                self._archive(game_id, candidate)
            elif game.over:  # an undo or correction reopened a finished game
                self.db.execute("UPDATE games SET ended = NULL, result = NULL WHERE id = ?", (game_id,))
        self._games[game_id] = candidate
        return candidate

    def stats(self) -> TableStats:
        """Every game in the database, finished or not, each replayed afresh from its log; a
        game that no longer plays is named in `skipped`."""
        stats = TableStats()
        for (game_id,) in self.db.execute("SELECT id FROM games ORDER BY id").fetchall():
            try:
                game = Game.replay(self.setup(game_id), self.log(game_id))
            except (IllegalAction, StoreError) as exc:
                stats.skipped.append(f"game {game_id}: {exc}")
                continue
            add_game(stats, game)
        return stats

    def unfinished_games(self) -> list[tuple[int, str, list[str], str]]:
        """Every game not yet over, newest first: (id, variant, players, started)."""
        rows = self.db.execute(
            "SELECT id, variant, players, started FROM games WHERE ended IS NULL ORDER BY id DESC")
        return [(i, v, json.loads(p), s) for i, v, p, s in rows]

    def house_rulesets(self) -> list[tuple[str, int]]:
        """The ruleset (JSON) of every earlier game, newest first, once each: (ruleset, game id)."""
        rows = self.db.execute("SELECT ruleset, MAX(id) FROM games GROUP BY ruleset ORDER BY 2 DESC")
        return [(text, game_id) for text, game_id in rows]

    # --- the Zonk File (W19) ------------------------------------------------------------

    def _archive(self, game_id: int, game: Game) -> None:
        ended = game.last_at or now()
        result = {
            "scores": {p: game.players[p].score for p in game.order},
            "hits": {p: game.hit_total(p) for p in game.order},
            "gha": game.gha(),
            "winners": game.winners,
            "finish_order": game.finish_order,
        }
        self.db.execute("UPDATE games SET ended = ?, result = ? WHERE id = ?",
                        (ended, json.dumps(result), game_id))
        self.db.execute("DELETE FROM permanent_rules WHERE game_id = ?", (game_id,))
        for owner, text in game.new_permanent:
            self.db.execute("INSERT INTO permanent_rules (owner, text, game_id, created) VALUES (?, ?, ?, ?)",
                            (owner, text, game_id, ended))

    def archive(self) -> list[Archived]:
        rows = self.db.execute(
            "SELECT id, variant, started, ended, result FROM games WHERE ended IS NOT NULL ORDER BY id")
        return [Archived(i, v, s, e, json.loads(r)) for i, v, s, e, r in rows]

    def _transaction(self) -> _Transaction:
        return _Transaction(self.db)


@dataclass(frozen=True, slots=True)
class Inspection:
    """A game database as `zonkcam doctor` sees it, read-only."""

    integrity: str  # SQLite's integrity check: "ok", or what is wrong
    version: int  # its schema's
    games: int
    unfinished: int


def inspect(path: Path) -> Inspection:
    """The database at `path` looked at without writing to it (nor migrating it): a doctor's
    check must not change what it checks. `sqlite3.Error` when it is no game database."""
    with contextlib.closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        games, unfinished = db.execute("SELECT count(*), count(*) - count(ended) FROM games").fetchone()
    return Inspection(integrity, version, games, unfinished)


def migrate(db: sqlite3.Connection, path: Path) -> int:
    """Bring the database to `SCHEMA_VERSION`, all steps in one transaction; returns the version.
    A database from a newer zonkcam is refused as it is: this one would not know its columns."""
    with _Transaction(db):
        found = db.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise StoreError(f"{path}: written by a newer zonkcam (database schema {found}; this zonkcam "
                             f"knows up to {SCHEMA_VERSION}): update zonkcam, or give another --db")
        if found == 0:
            # one statement at a time: executescript would commit the transaction (SCHEMA's
            # comments hold no semicolon)
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
        for version in range(found + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[version - 1]:
                db.execute(statement)
        if found != SCHEMA_VERSION:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")  # no parameters in a PRAGMA
    return SCHEMA_VERSION


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind: object, *_: object) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")


__all__ = ["ENV", "SCHEMA_VERSION", "ActionError", "Archived", "IllegalAction", "Store", "StoreError",
           "default_path"]
