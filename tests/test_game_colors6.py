"""colors6 bong hits (Z4): which are kept and which are lost when the turn zonks."""
import pytest
from game_helpers import hits, play, sources
from zonkcam.rules.script import ScriptError

ZONK = "{p} throw 2 2 3 3 4 6\n"


def test_z4_opening_straight_and_a_thousand_in_the_turn():
    game = play("A throw 1 2 3 4 5 6\nA keep 1 2 3 4 5 6\nA bank\n", "colors6", "A,B")
    assert sorted(sources(game, "A")) == ["opening", "straight", "turn_thousand"]


def test_z4_straight_and_colors_are_lost_on_a_zonk_but_the_thousand_is_kept():
    game = play("A throw 1 2 3 4 5 6\nA keep 1 2 3 4 5 6\nA throw 2 2 3 3 4 6\n", "colors6", "A,B")
    assert sorted(sources(game, "A")) == ["train_wreck", "turn_thousand"]  # hot dice, six thrown
    colors = "A throw red:2 green:2 white:2 red:3 green:4 white:6\nA keep 2 2 2\n"
    game = play(colors + "A throw 3 4 6\n", "colors6", "A,B")
    assert sources(game, "A") == []
    game = play(colors + "A throw 5 5 5\nA keep 5 5 5\nA bank\n", "colors6", "A,B")
    assert sorted(sources(game, "A")) == ["colors", "opening"]


def test_z4_train_wreck_is_a_zonk_with_all_six_dice():
    game = play(ZONK.format(p="A"), "colors6", "A,B")
    assert sources(game, "A") == ["train_wreck"]


def test_z4_three_zonks_in_a_row_without_hits_on_the_first_two():
    bloades = "A throw 1 2 3 4 6 6\nA keep 1\nA throw 2 3 4 6 6\n" + ZONK.format(p="B")
    assert sources(play(bloades * 3, "colors6", "A,B"), "A") == ["zonk_streak"]
    wreck_first = ZONK.format(p="A") + ZONK.format(p="B") + bloades * 2  # hit on the first zonk
    assert sources(play(wreck_first, "colors6", "A,B"), "A") == ["train_wreck"]


def test_z4_slim_pickins_six_single_ones_and_fives_not_zonked():
    one_at_a_time = "".join(f"A throw {' '.join(d)}\nA keep {d[0]}\n" for d in (
        "123466", "52346", "1234", "523", "14", "5"))
    game = play("set turn.open_minimum = 0\n" + one_at_a_time + "A bank\n", "colors6", "A,B")
    assert "slim_pickins" in sources(game, "A")


def test_z4_first_over_5000_and_the_winner():
    big = "{p} throw 1 1 1 1 1 1\n{p} keep 1 1 1 1 1 1\n{p} throw 1 1 1 2 3 4\n{p} keep 1 1 1\n{p} bank\n"
    game = play("set target = 6000\n" + big.format(p="A") + ZONK.format(p="B") + big.format(p="A"),
                "colors6", "A,B")
    assert hits(game, "A", "first_to") == 1 and game.winners == ["A"] and hits(game, "A", "winner") == 1
    fewest = play("set target = 6000\nset hits.fewest_hits = true\n" + big.format(p="A") + ZONK.format(p="B")
                  + big.format(p="A"), "colors6", "A,B")
    assert [h.optional for h in fewest.hits if h.source == "fewest_hits"] == [True]


def test_z1_open_with_500_then_stop_with_300_or_four_dice():
    with pytest.raises(ScriptError, match="OPEN needs at least 500"):
        play("A throw 4 4 4 2 3 6\nA keep 4 4 4\nA bank\n", "colors6", "A,B")
    opened = "A throw 1 1 1 2 3 4\nA keep 1 1 1\nA bank\n" + ZONK.format(p="B")
    with pytest.raises(ScriptError, match="300 points or 4 dice"):
        play(opened + "A throw 1 2 3 4 6 6\nA keep 1\nA bank\n", "colors6", "A,B")
    game = play(opened + "A throw 5 5 5 2 3 4\nA keep 5 5 5\nA bank\n", "colors6", "A,B")
    assert game.players["A"].score == 1500
