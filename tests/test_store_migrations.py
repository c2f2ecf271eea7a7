"""The game database's schema versions: an old database is upgraded at open, in one
transaction; one from a newer zonkcam is refused with a clear message."""
from __future__ import annotations

import sqlite3

import pytest
from zonkcam.hardware.store import MIGRATIONS, SCHEMA, SCHEMA_VERSION, Store, StoreError


def _old_database(path) -> None:
    """A database as zonkcam wrote it before schema versions (user_version 0), with a game
    under way: made by hand from the version-0 schema, not by today's Store."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO players VALUES ('A', '2026-01-01T10:00:00'), ('B', '2026-01-01T10:00:00')")
    store_ruleset = Store(path.parent / "scratch.db")  # only to get a valid ruleset's JSON
    from zonkcam.rules.game import GameSetup
    from zonkcam.rules.ruleset import load_variant

    game = store_ruleset.new_game(GameSetup(load_variant("wheaton"), ("A", "B")))
    ruleset_json = store_ruleset.db.execute("SELECT ruleset FROM games WHERE id = ?", (game,)).fetchone()[0]
    store_ruleset.close()
    db.execute("INSERT INTO games (variant, ruleset, players, started) VALUES (?, ?, ?, ?)",
               ("wheaton", ruleset_json, '["A", "B"]', "2026-01-01T10:00:00"))
    db.execute("INSERT INTO actions VALUES (1, 1, '2026-01-01T10:00:05', 'A throw 1 5 2 3 4')")
    db.commit()
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in db.execute(f"PRAGMA table_info({table})")}


def test_an_old_database_is_upgraded_and_its_game_plays_on(tmp_path):
    path = tmp_path / "old.db"
    _old_database(path)
    store = Store(path)
    assert store.version == SCHEMA_VERSION == len(MIGRATIONS) >= 1
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert "zonkcam_version" in _columns(store.db, "games")
    assert store.unfinished() == 1
    assert len(store.game(1).log) == 1  # the old game's log is read as before
    store.record(1, "A keep 1")
    old_game = store.db.execute("SELECT zonkcam_version FROM games WHERE id = 1").fetchone()[0]
    assert old_game == ""  # a game from before: its version unknown
    store.close()
    again = Store(path)  # opening an upgraded database changes nothing
    assert again.version == SCHEMA_VERSION and len(again.game(1).log) == 2
    again.close()


def test_a_new_database_starts_at_the_latest_version_and_names_its_zonkcam(tmp_path):
    from zonkcam.rules.game import GameSetup
    from zonkcam.rules.ruleset import load_variant

    store = Store(tmp_path / "new.db")
    game = store.new_game(GameSetup(load_variant("wheaton"), ("A", "B")))
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    stamped = store.db.execute("SELECT zonkcam_version FROM games WHERE id = ?", (game,)).fetchone()[0]
    assert stamped.startswith("0.")


def test_a_database_from_a_newer_zonkcam_is_refused_untouched(tmp_path):
    path = tmp_path / "future.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, shiny TEXT)")
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 3}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=r"newer zonkcam .*update zonkcam"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 3
    assert _columns(db, "games") == {"id", "shiny"}  # nothing added, nothing created
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'actions'").fetchone() is None


def test_a_failed_step_leaves_the_old_version_whole(tmp_path, monkeypatch):
    from zonkcam.hardware import store as store_module

    path = tmp_path / "old.db"
    _old_database(path)
    broken = (*MIGRATIONS, ("CREATE TABLE extra (x)", "NOT SQL AT ALL"))
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    monkeypatch.setattr(store_module, "SCHEMA_VERSION", len(broken))
    with pytest.raises(StoreError, match="not a game database"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0  # every step rolled back, the first too
    assert "zonkcam_version" not in _columns(db, "games")
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None


def test_the_cli_says_so_in_one_line(tmp_path, capsys):
    from zonkcam.hardware.cli import main

    path = tmp_path / "future.db"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    assert main(["game", "sheet", "--db", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "newer zonkcam" in err
