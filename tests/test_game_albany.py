"""Albany game rules (A1, A4, A7-A12, A14) played through scripts."""
import pytest
from game_helpers import hits, play, sources, texts
from zonkcam.rules import sheet
from zonkcam.rules.script import ScriptError

ZONK = "{p} throw 2 2 3 3 6\n"
NINE_THOUSAND = ("{p} throw 5 5 5 5 5\n{p} keep 5 5 5 5 5\n{p} throw 4 4 4 4 4\n{p} keep 4 4 4 4 4\n"
                 "{p} throw 3 3 3 2 4\n{p} bank\n")  # 9300 in one turn
TEN_THOUSAND = "{p} throw 1 1 1 1 1\n{p} keep 1 1 1 1 1\n{p} throw 3 3 3 2 4\n{p} bank\n"  # 10300
NO_BONUS = "set game.bonus_rounds = []\n"


def test_a1_social_every_player_gets_a_hit():
    game = play("A throw 4 4 4 4 1\nA keep 4 4 4 4 1\nA throw 2 2 3 6 6\n" + ZONK.format(p="B"),
                "albany", "A,B")
    assert hits(game, "A", "social") == 1 and hits(game, "B", "social") == 1
    assert texts(game)[0] == ["ZONK*", "ZONK*"]  # nothing after a vanna is a zonk; the hit stays


def test_a4_courtesy_hit_is_given_to_another_player():
    thrown = play("A throw green:3 red:3 red:3 white:2 white:4\nA keep 3 3 3\nA throw 2 4\n", "albany", "A,B")
    assert sheet.to_json(thrown)["pending"]["courtesy"] == ["A"]  # the display asks A: to whom?
    game = play("A throw green:3 red:3 red:3 white:2 white:4\nA keep 3 3 3\nA throw 2 4\nA give B\n",
                "albany", "A,B")
    assert hits(game, "B", "courtesy") == 1 and hits(game, "A") == 0
    assert [h.given_by for h in game.hits] == ["A"]
    with pytest.raises(ScriptError, match="A has no courtesy hit to give"):
        play("A throw 2 2 3 3 6\nA give B\n", "albany", "A,B")


def test_a7_flair_number_first_to_5000_and_thousands():
    game = play("A throw 5 5 5 5 5\nA keep 5 5 5 5 5\nA throw 2 3 4 6 1\nA keep 1\nA bank\n",
                "albany", "A,B")
    assert game.players["A"].score == 5100
    # five of a kind is no social (A1 is four of a kind): the hits are A7's and A8's
    assert sorted(sources(game, "A")) == ["first_to"] + ["thousand"] * 5 + ["three_in_three"]
    game = play("set hits.specials = [500]\nA throw 5 5 5 2 3\nA bank\n", "albany", "A,B")
    assert sources(game, "A") == ["special"]


def test_a7_winner_and_most_zonks_at_the_end():
    game = play(NO_BONUS + NINE_THOUSAND.format(p="A") + ZONK.format(p="B") + TEN_THOUSAND.format(p="A")
                + ZONK.format(p="B"), "albany", "A,B")
    assert game.over and game.winners == ["A"]
    assert hits(game, "A", "winner") == 1 and hits(game, "B", "most_zonks") == 1


def test_a8_three_in_three_counts_as_the_first_of_the_next():
    one_hit = "A throw 1 1 1 2 3\nA bank\n" + ZONK.format(p="B")  # a thousand mark each turn
    game = play("set hits.first_to = []\n" + one_hit * 5, "albany", "A,B")
    per_turn = [[h.source for h in c.hits] for c in (r.cells[0] for r in sheet.rows(game)[:5])]
    assert per_turn[2] == ["thousand", "three_in_three"]  # turns 1-3: three hits
    assert per_turn[4] == ["thousand", "three_in_three"]  # its hit + turns 4-5: three again
    assert "three_in_three" not in per_turn[3]


def test_a9_bonus_round_reverse_order_off_the_score():
    game = play("A throw 5 5 5 5 5\nA keep 5 5 5 5 5\nA throw 2 3 4 6 1\nA keep 1\nA bank\n"
                + ZONK.format(p="B") + "A throw 3 3 3 2 4\nA bank\n" + "B throw 4 4 4 2 3\nB bank\n",
                "albany", "A,B")
    rows = sheet.rows(game)
    assert [r.kind for r in rows] == ["round", "bonus", "round"]
    assert rows[1].texts == ["300", "400*"]  # the turn's points, off the game score
    assert game.players["B"].score == 0 and hits(game, "B", "bonus") == 1


def test_a10_sympathy_after_seven_scoreless_rounds_then_five():
    game = play((ZONK.format(p="A") + ZONK.format(p="B")) * 12, "albany", "A,B")
    offered = [i for i, r in enumerate(sheet.rows(game)) if r.cells[0].hits]
    assert offered == [6, 11]  # rounds 7 and 12
    assert hits(game, "A") == 0 and texts(game)[6][0] == "ZONK(*)"


def test_a11_rebuttal_for_the_player_past_8500_who_threw_before():
    game = play(NO_BONUS + NINE_THOUSAND.format(p="A") + TEN_THOUSAND.format(p="B")
                + "A throw 1 1 1 2 3\nA bank\n", "albany", "A,B")
    assert [r.kind for r in sheet.rows(game)] == ["round", "rebuttal"]
    assert game.players["A"].score == 10300 and game.phase == "shaharazad?"  # tied: both past 10,000
    league = play(NO_BONUS + "set game.league = true\n" + NINE_THOUSAND.format(p="A")
                  + TEN_THOUSAND.format(p="B"), "albany", "A,B")
    assert league.over and league.winners == ["B"]  # no rebuttal in league play


def test_a12_shaharazad_play_off_to_2500_with_rising_openings():
    past = NO_BONUS + NINE_THOUSAND.format(p="A") + TEN_THOUSAND.format(p="B") + "A throw 1 1 1 2 3\nA bank\n"
    with pytest.raises(ScriptError, match="lower player"):
        play(past + "A shaharazad\n", "albany", "A,B")
    game = play(past + "B shaharazad\nA accept\n"
                "A throw 5 2 3 4 6\nA keep 5\nA throw 5 2 3 4\nA keep 5\nA throw 5 5 2\nA keep 5 5\nA bank\n"
                "B throw 1 1 1 1 1\nB keep 1 1 1 1 1\nB throw 1 2 3 4 6\nB keep 1\nB bank\n", "albany", "A,B")
    assert game.playoff == {"A": 200, "B": 10100} and game.winners == ["B"] and game.over
    with pytest.raises(ScriptError, match="OPEN needs at least 250"):
        play(past + "B shaharazad\nA accept\nA throw 2 2 3 3 6\nB throw 1 1 2 3 6\nB bank\n", "albany", "A,B")


def test_a14_turn_clock_in_league_play():
    game = play("set game.league = true\nA throw 1 5 2 3 6\n", "albany", "A,B")
    assert sheet.to_json(game)["current"]["clock"] == {"since": None, "limit_s": 30, "countdown_s": 10}
    assert sheet.to_json(play("", "albany", "A,B"))["current"]["clock"] is None


def test_a13_a15_league_penalties_lose_this_turn_and_the_next():
    rounds = ZONK.format(p="B") * 3 + ZONK.format(p="A")
    game = play("A throw 1 5 2 3 6\nA penalty foul 2\n" + rounds, "albany", "A,B")
    assert [r[0] for r in texts(game)] == ["FOUL", "LOST TURN", "LOST TURN", "ZONK"]
    game = play("A throw 1 5 2 3 6\nA spaz stacked\n" + ZONK.format(p="B"), "albany", "A,B")
    assert texts(game)[:2] == [["SLOPPY", "ZONK"], ["LOST TURN", ""]] and len(game.players["A"].skips) == 1
    game = play("A throw 1 1 1 2 3\nA penalty miscall\nB penalty next 1\n" + ZONK.format(p="A"),
                "albany", "A,B")
    assert texts(game) == [["MISCALL", "LOST TURN"], ["ZONK", ""]] and game.players["A"].score == 0
