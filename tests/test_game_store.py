"""Persistence (X3, X4, W1, W19): the log in SQLite, resuming, a real power cut (SIGKILL)."""
import json
import signal
import subprocess
import sys

import pytest
from game_helpers import play, script
from zonkcam.hardware.cli import main
from zonkcam.hardware.store import Store
from zonkcam.rules import sheet
from zonkcam.rules.game import GameSetup, IllegalAction
from zonkcam.rules.ruleset import load_variant


def setup(*players, variant="wheaton"):
    return GameSetup(load_variant(variant), players, "2002-03-13T12:44", "EST")


def test_x4_every_action_is_stored_and_a_new_store_resumes_the_game(tmp_path):
    store = Store(tmp_path / "z.db")
    gid = store.new_game(setup("A", "B"))
    for line in ("throw 4 4 4 2 6", "bank", "B throw 1 5 2 3 6", "keep 1 5"):
        store.record(gid, line)
    store.close()
    again = Store(tmp_path / "z.db")
    assert again.unfinished() == gid
    game = again.game(gid)
    assert [str(a) for a in game.log] == ["A throw 4 4 4 2 6", "A bank", "B throw 1 5 2 3 6", "B keep 1 5"]
    assert game.live.turn.total == 150 and game.players["A"].score == 400


def test_x3_an_illegal_action_is_not_stored(tmp_path):
    store = Store(tmp_path / "z.db")
    gid = store.new_game(setup("A", "B"))
    store.record(gid, "A throw 1 2 2 3 6")
    with pytest.raises(IllegalAction, match="DIAL IN"):
        store.record(gid, "bank")
    assert [str(a) for a in store.log(gid)] == ["A throw 1 2 2 3 6"]


def test_x3_correcting_a_misread_die_recomputes_everything_after_it(tmp_path):
    store = Store(tmp_path / "z.db")
    gid = store.new_game(setup("A", "B"))
    for line in ("throw 4 4 4 2 6", "bank", "throw 2 2 3 3 6", "throw 5 5 5 2 3", "bank"):
        store.record(gid, line)
    assert store.game(gid).players["A"].score == 900
    game = store.record(gid, "correct 1 A throw 4 4 4 4 6")  # the camera misread a 4 as a 2
    assert game.players["A"].score == 900  # four 4s score 400 in wheaton: the same, checked again
    game = store.record(gid, "correct 1 A throw 1 1 1 2 6")
    assert game.players["A"].score == 1500 and sheet.rows(game)[1].texts[0] == "1500 ¶¶¶"  # W16
    assert len(store.log(gid)) == 7  # the log only grows: corrections are actions too
    game = store.record(gid, "undo")
    assert game.players["A"].score == 1000 and game.current == "A"
    with pytest.raises(IllegalAction, match=r"action 2 .*A bank.*DIAL IN"):
        store.record(gid, "correct 1 A throw 1 2 2 3 6")  # would make the bank after it illegal


def test_w1_w19_players_outlive_games_and_the_zonk_file_keeps_results(tmp_path):
    store = Store(tmp_path / "z.db")
    gid = store.new_game(setup("A", "B"))
    for line in ("throw 5 5 5 5 5", "keep 5 5 5 5 5", "throw 4 4 4 4 4", "keep 4 4 4 4 4",
                 "throw 1 1 1 2 3", "bank"):
        store.record(gid, line)
    assert store.unfinished() is None
    [done] = store.archive()
    assert done.result["scores"] == {"A": 10000, "B": 0} and done.result["winners"] == ["A"]
    assert done.result["hits"]["A"] == 10 and done.result["gha"] == 5 and done.started == "2002-03-13T12:44"
    assert done.ended
    store.new_game(setup("C", "A"))
    assert store.players() == ["A", "B", "C"]


def test_cli_new_act_sheet_undo_against_the_database(tmp_path, capsys):
    db = str(tmp_path / "z.db")
    assert main(["game", "new", "--variant", "wheaton", "--players", "A,B", "--db", db]) == 0
    assert main(["game", "throw", "4", "4", "4", "2", "6", "--db", db]) == 0
    assert main(["game", "bank", "--db", db, "--json"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["players"][0]["score"] == 400 and data["current"]["player"] == "B"
    assert data["rows"][0]["cells"][0] == {"text": "400", "kind": "score", "score": 400, "points": 400,
                                           "marks": [], "hits": [], "turn": 0}
    assert main(["game", "keep", "1", "--db", db]) == 2
    assert "B has no turn going" in capsys.readouterr().err
    assert main(["game", "undo", "--db", db]) == 0
    assert main(["game", "log", "--db", db]) == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith("undo")


def test_x4_killed_mid_game_resumes_to_the_same_game(tmp_path):
    text = script("wheaton_w20", "wheaton_halftime")
    path = tmp_path / "game.zonk"
    path.write_text(text)
    db = tmp_path / "z.db"
    command = [sys.executable, "-m", "zonkcam.hardware.cli", "game", "play", str(path), "--db", str(db)]
    proc = subprocess.Popen([*command, "--echo"], stdout=subprocess.PIPE, text=True)
    for _ in range(25):  # let it store 25 actions, then pull the plug
        assert proc.stdout.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    stored = len(Store(db).log(Store(db).unfinished()))
    assert 25 <= stored < len(play(text).log)
    resumed = subprocess.run([*command, "--resume", "--json"], capture_output=True, text=True, check=True)
    assert json.loads(resumed.stdout) == sheet.to_json(play(text))
