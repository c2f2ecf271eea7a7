"""The action log (X3, X4): scripts with undo and correct, and `zonkcam game play`."""
import json

import pytest
from game_helpers import GAMES, play, script, texts
from zonkcam.hardware.cli import main
from zonkcam.rules import sheet
from zonkcam.rules.actions import ActionError, effective, parse_action
from zonkcam.rules.game import Game
from zonkcam.rules.script import ScriptError, parse_script


def test_x3_correct_a_throw_in_a_script_recomputes_the_rest():
    text = "A throw 4 4 4 2 6\nA bank\nB throw 1 5 2 3 6\nB keep 1 5\nB throw 5 5 4\nB bank\n"
    assert texts(play(text, "wheaton", "A,B"))[0] == ["400", "250"]
    fixed = play(text + "correct 7 B throw 1 5 4\n", "wheaton", "A,B")  # line 7: after 2 header lines
    assert texts(fixed)[0] == ["400", "300"] and fixed.players["B"].score == 300


def test_x3_undo_takes_back_the_last_action():
    # the bank is gone, so the turn is still going: throwing again before keeping is illegal
    with pytest.raises(ScriptError, match=r"line 6: keep dice from the last throw or bank first"):
        play("A throw 4 4 4 2 6\nA bank\nundo\nA throw 1 2 3 4 6\n", "wheaton", "A,B")
    game = play("A throw 4 4 4 2 6\nA bank\nundo\nA keep 4 4 4\nA throw 1 5\nA bank\n", "wheaton", "A,B")
    assert game.players["A"].score == 500  # banking keeps the 1 alone: all five scored must go again


def test_x3_effective_log_after_undo_and_correct():
    players = ["A", "B"]
    log = [parse_action(x, players) for x in ("A throw 1 2 3 4 6", "A keep 1", "undo",
                                               "correct 1 A throw 1 1 3 4 6", "A keep 1 1")]
    assert [(seq, str(a)) for seq, a in effective(log, players)] == [
        (1, "A throw 1 1 3 4 6"), (5, "A keep 1 1")]
    with pytest.raises(ActionError, match="no action 2"):
        effective([*log, parse_action("correct 2 A keep 1", players)], players)


def test_x4_the_game_is_a_pure_function_of_its_log():
    game = play(script("wheaton_w20"))
    again = Game.replay(parse_script(script("wheaton_w20")).setup, game.log)
    assert texts(again) == texts(game) and [h.source for h in again.hits] == [h.source for h in game.hits]


def test_game_play_prints_the_sheet_and_json(capsys):
    assert main(["game", "play", str(GAMES / "classic_c10.zonk")]) == 0
    assert "Round Three Total | (+1100) 2150* | (+450) 2050*    | (Zonk) 2300" in capsys.readouterr().out
    assert main(["game", "play", str(GAMES / "wheaton_w20.zonk"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    whoremaster = data["rows"][0]["cells"][3]
    assert whoremaster["text"] == "» 500 ¶¶¶" and whoremaster["marks"] == ["straight"]
    assert [h["source"] for h in whoremaster["hits"]] == ["straight", "five_hundred", "integrity"]
    assert {p["name"]: p["hits"] for p in data["players"]} == {
        "Baldrick": 1, "Biggles": 1, "Quean": 0, "Whoremaster": 7}
    assert data["current"]["player"] == "Quean" and data["current"]["ask"] == {"times": 1, "whom": "Biggles"}


def test_game_play_stops_at_an_illegal_line_with_status_2(capsys, tmp_path):
    bad = tmp_path / "bad.zonk"
    bad.write_text("players A,B\nA throw 1 2 3 4 6\n# a comment\nA keep 1 2\n")
    assert main(["game", "play", str(bad)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"zonkcam game: error: {bad}: line 4: 1 2 cannot be set aside: only scoring dice may be kept")
    assert main(["game", "play", str(bad), "--variant", "nope"]) == 2


def test_x2_display_state_asks_odds_for_the_live_turn():
    from zonkcam.rules.odds import turn_odds, zonk_chance

    game = play("A throw 1 5 2 3 6\nA keep 1 5\n", "wheaton", "A,B")
    turn = sheet.to_json(game, turn_odds)["current"]["turn"]
    assert turn["total"] == 150 and turn["dice_left"] == 3
    assert turn["odds"]["zonk_chance"] == pytest.approx(zonk_chance(game.ruleset, 3), abs=1e-6)
    assert sheet.to_json(game)["current"]["turn"]["odds"] is None  # no odds asked for


def test_w1_zonk_names_may_be_phrases_but_not_action_words():
    game = play('"Big Daddy" throw 4 4 4 2 6\nbank\n', "wheaton", "Big Daddy,Quean")
    assert game.players["Big Daddy"].score == 400 and str(game.log[1]) == "'Big Daddy' bank"
    with pytest.raises(ScriptError, match="'bank' cannot be a Zonk name"):
        play("", "wheaton", "bank,Quean")
