"""Bad input to the commands is one clear line on stderr and a non-zero status, never a traceback."""
import sqlite3

import pytest
from zonkcam.hardware.cli import main
from zonkcam.hardware.store import Store, StoreError
from zonkcam.rules import load_variant
from zonkcam.rules.game import GameSetup


def run(capsys, *argv):
    status = main(list(argv))
    err = capsys.readouterr().err
    assert status != 0 and "Traceback" not in err
    [line] = err.strip().splitlines()
    return line


def test_a_game_database_that_is_not_one(tmp_path, capsys):
    assert "is a folder" in run(capsys, "game", "new", "--db", str(tmp_path), "--players", "A,B")
    junk = tmp_path / "junk.db"
    junk.write_text("hello")
    assert "not a game database" in run(capsys, "game", "new", "--db", str(junk), "--players", "A,B")


def test_a_game_that_is_not_there_or_no_longer_reads(tmp_path, capsys):
    db = tmp_path / "z.db"
    assert main(["game", "new", "--db", str(db), "--variant", "wheaton", "--players", "A,B"]) == 0
    capsys.readouterr()
    assert "no game 999" in run(capsys, "game", "log", "--db", str(db), "--game", "999")
    with sqlite3.connect(db) as c:  # written by an older or newer zonkcam, or by hand
        c.execute("INSERT INTO actions VALUES (1, 1, '2026-01-01T00:00', 'A frobnicate')")
    assert "a stored action cannot be read" in run(capsys, "game", "sheet", "--db", str(db))
    with pytest.raises(StoreError, match="frobnicate"):
        Store(db).game(1)


def test_a_binary_game_script(tmp_path, capsys):
    script = tmp_path / "game.txt"
    script.write_bytes(bytes(range(256)))
    assert "not a text file" in run(capsys, "game", "play", str(script), "--variant", "wheaton")


@pytest.mark.parametrize("state", ["[]", '{"active": 5}', '{"active": "../../etc"}', '{"history": 3}',
                                   "\xff"])
def test_a_model_registry_state_that_is_not_one(tmp_path, monkeypatch, capsys, state):
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "state.json").write_text(state, encoding="latin-1")
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path))
    assert "delete it to start over" in run(capsys, "model", "list")


def test_a_stored_game_with_broken_rules_is_a_clear_error(tmp_path):
    store = Store(tmp_path / "z.db")
    game_id = store.new_game(GameSetup(load_variant("wheaton"), ("A", "B")))
    store.db.execute("UPDATE games SET ruleset = '{\"dice\": \"many\"}' WHERE id = ?", (game_id,))
    with pytest.raises(StoreError, match="stored rules cannot be read"):
        Store(tmp_path / "z.db").game(game_id)
