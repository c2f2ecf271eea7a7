"""Classic game rules (S8, C6, C7, C9, C10) played through scripts."""
import pytest
from game_helpers import hits, play, script, sources, texts
from zonkcam.rules import sheet
from zonkcam.rules.script import ScriptError


def test_c10_sample_score_sheet_replays_with_asterisks():
    game = play(script("classic_c10"))
    assert texts(game)[:3] == [
        ["(Zonk) 0", "Straw Hat 1000*", "(+800) 800"],
        ["(+1050) 1050*", "(+600) 1600", "(+1500) 2300**"],
        ["(+1100) 2150*", "(+450) 2050*", "(Zonk) 2300"],
    ]
    assert [r.label for r in sheet.rows(game)[:3]] == ["Round One Total", "Round Two Total",
                                                        "Round Three Total"]


def test_s8_the_first_to_reach_the_target_wins_and_the_target_is_a_setting():
    thousand = "A throw 1 1 1 2 3\nA keep 1 1 1\nA bank\n"
    game = play(thousand, "classic", "A,B")
    assert game.players["A"].score == 1000 and not game.over  # the default target is 10,000
    game = play("set target = 1000\n" + thousand, "classic", "A,B")
    assert game.over and game.winners == ["A"]
    with pytest.raises(ScriptError, match="the game is over"):
        play("set target = 1000\n" + thousand + "B throw 1 2 3 4 6\n", "classic", "A,B")


def test_c6_special_numbers_are_hits():
    game = play("A throw 4 4 4 2 3\nA bank\n" * 1 + "B throw 2 2 3 3 6\n", "classic", "A,B")
    assert hits(game, "A") == 0
    game = play("set hits.specials = [400]\nA throw 4 4 4 2 3\nA bank\n", "classic", "A,B")
    assert sources(game, "A") == ["special"]


def test_c7_sympathy_after_n_zonks_in_a_row_is_a_hit():
    """The rule is optional for the table (announced at the start); once on, a sympathy hit is a
    bong hit like any other (002:32, 002:43), unlike albany's offered ones (A10)."""
    zonk = "A throw 2 2 3 3 6\nB throw 2 2 3 3 6\n"
    game = play("set hits.sympathy = [2]\n" + zonk * 2, "classic", "A,B")
    assert sources(game, "A") == ["sympathy"] and hits(game, "A") == 1
    assert texts(game)[1][0] == "(Straw Dick) 0*"


def test_c9_two_or_three_players_highest_chooses_first_or_last():
    game = play("A roll 3\nB roll 6\nC roll 1\nB goes last\n", "classic", "A,B,C")
    assert game.order == ["C", "A", "B"]
    with pytest.raises(ScriptError, match="B chooses to go first or last"):
        play("A roll 3\nB roll 6\nC roll 1\nA throw 2 2 3 3 6\n", "classic", "A,B,C")
    with pytest.raises(ScriptError, match="seating order"):
        play("A roll 3\n", "classic", "A,B,C,D")
