"""Detroit game rules (D4-D8): B's, finishing order, game rules, permanent rules."""
import pytest
from game_helpers import hits, play, sources, texts
from zonkcam.hardware.store import Store
from zonkcam.rules.game import GameSetup
from zonkcam.rules.ruleset import load_variant, with_option
from zonkcam.rules.script import ScriptError

SIX_DIE_ZONK = "{p} throw 2 2 3 3 4 6\n"
FINISH = "{p} throw 1 1 1 1 1 1\n{p} keep 1 1 1 1 1 1\n{p} bank\n"  # 2500, six of a kind


def test_d4_b_per_thousand_mark_and_per_thousand_in_one_throw():
    game = play("A throw 1 1 1 1 1 3\nA keep 1 1 1 1 1\nA bank\n", "detroit", "A,B")
    assert game.players["A"].score == 2000
    assert sorted(sources(game, "A")) == ["thousand"] * 2 + ["throw_thousand"] * 2
    assert texts(game)[0][0] == "2000 BBBB"


def test_d5_six_die_zonk_and_every_third_zonk_earn_a_b():
    game = play(SIX_DIE_ZONK.format(p="A") + "B throw 4 4 4 2 3 6\nB bank\n", "detroit", "A,B")
    assert sources(game, "A") == ["full_zonk"]
    bloades = "A throw 1 2 3 4 6 6\nA keep 1\nA throw 2 3 4 6 6\nB throw 4 4 4 2 3 6\nB bank\n"
    game = play(bloades * 3, "detroit", "A,B")
    assert sources(game, "A") == ["zonk_count"] and game.players["A"].zonks == 3


def test_d7_players_finish_one_by_one_and_everyone_must_finish():
    game = play("set target = 2000\n" + FINISH.format(p="A") + SIX_DIE_ZONK.format(p="B")
                + SIX_DIE_ZONK.format(p="B") + FINISH.format(p="B"), "detroit", "A,B")
    assert "finish" in sources(game, "A") and game.players["A"].finished == 1
    assert texts(game)[1] == ["", "ZONK! B"]  # A has finished: B plays on alone
    assert game.over and game.finish_order == ["A", "B"] and game.winners == []


def test_d8_game_rule_after_a_six_die_zonk_changes_point_values():
    with pytest.raises(ScriptError, match="six-die zonk"):
        play(SIX_DIE_ZONK.format(p="A") + "A rule 5s score 100\n", "detroit", "A,B")
    game = play(SIX_DIE_ZONK.format(p="A") + SIX_DIE_ZONK.format(p="B") + "B rule scoring.singles.5 = 100\n"
                + "A throw 5 2 3 4 6 6\nA keep 5\nA throw 5 2 3 4 6\nA keep 5\nA bank\n", "detroit", "A,B")
    assert game.players["A"].score == 200 and game.game_rules == [("B", "scoring.singles.5 = 100")]


def test_d8_permanent_rule_outlives_the_game_and_is_voted_on(tmp_path):
    store = Store(tmp_path / "z.db")
    gid = store.new_game(GameSetup(with_option(load_variant("detroit"), "target", 2000), ("A", "B", "C")))
    for line in ("A throw 1 1 1 1 1 1", "A keep 1 1 1 1 1 1", "A bank",
                 "A permanent scoring.singles.5 = 75"):
        store.record(gid, line)
    for p in "BC":
        store.record(gid, f"{p} throw 1 1 1 1 1 1")
        store.record(gid, f"{p} keep 1 1 1 1 1 1")
        store.record(gid, f"{p} bank")
    assert store.unfinished() is None
    [rule] = store.permanent_rules(["A"])
    gid = store.new_game(GameSetup(load_variant("detroit"), ("A", "B", "C")))
    game = store.record(gid, f"vote {rule.id} A yes")  # the owner's two votes of four: not a majority
    assert game.open_rules() == {rule.id: False}
    game = store.record(gid, f"vote {rule.id} C yes")
    assert game.open_rules() == {rule.id: True}
    game = store.record(gid, "A throw 5 2 3 4 6 6")
    game = store.record(gid, "A bank")
    assert game.players["A"].score == 75
    assert hits(game, "A") == 0
