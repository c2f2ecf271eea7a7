"""Wheaton game rules (W1-W20) played through scripts (IDs from shared/spec/rules-checklist.md)."""
import pytest
from game_helpers import hits, play, script, sources, texts
from zonkcam.rules import sheet
from zonkcam.rules.actions import parse_action
from zonkcam.rules.game import IllegalAction
from zonkcam.rules.script import ScriptError

DEVIL = "😈"  # the seed's devil mark was a picture, lost with the page: its cell reads "600¶"

SEED_ROWS = [  # the seed's last sheet before "And play continues"
    ["BLOADES", "400", "SPAZ", "» 500 ¶¶¶"],
    [f"{DEVIL} 600 ¶", "ZONK", "VANNA", "1050 ¶¶¶¶"],
    ["SPACE", "1000 ¶", "", ""],
]


def test_w18_w20_sample_game_replays_to_the_seed_sheet():
    game = play(script("wheaton_w20"))
    assert game.order == ["Baldrick", "Biggles", "Quean", "Whoremaster"]
    assert texts(game) == SEED_ROWS
    assert sheet.header(game) == "12:44 p.m. 3/13/2002 EST MAGIC NO. 2-3-3-5-5"
    scores = {n: p.score for n, p in game.players.items()}
    assert scores == {"Baldrick": 600, "Biggles": 1000, "Quean": 0, "Whoremaster": 1050}


def test_w15_w20_halftime_show_as_the_seed_illustrates():
    game = play(script("wheaton_w20", "wheaton_halftime"))
    dash = "-------"
    assert texts(game)[2:] == [
        ["SPACE", "1000 ¶", "5000 ¶¶¶¶¶", dash],
        [dash] * 4,
        ["350", "ZONK", "400", "“½” 1200 ¶¶¶¶¶"],
        [dash] * 4,
        [dash, dash, dash, ""],  # play resumes here
    ]
    assert game.current == "Whoremaster"
    assert game.players["Whoremaster"].score == 1050  # halftime points stay off the game score
    halftime_cell = sheet.rows(game)[4].cells[3]
    halftime_sources = [h.source for h in halftime_cell.hits]  # 4 hits last turn, so 1 becomes 5
    assert halftime_sources.count("halftime") == 1 and halftime_sources.count("integrity") == 4


def test_w15_halftime_hit_ties_all_win():
    game = play(
        "Ann throw 4 4 4 4 4\nAnn keep 4 4 4 4 4\nAnn throw 1 1 1 2 3\nAnn keep 1 1 1\nAnn bank\n"
        "Bob throw 3 3 3 2 4\nBob bank\nAnn throw 3 3 3 2 4\nAnn bank\n",
        "wheaton", "Ann,Bob")
    assert hits(game, "Bob", "halftime") == 1 and hits(game, "Ann", "halftime") == 1


def test_w1_w3_order_roll_ties_throw_again_and_play_goes_left():
    game = play("A roll 2\nB roll 5\nC roll 5\nB roll 3\nC roll 4\nC throw 4 4 4 2 6\nC bank\n",
                "wheaton", "A,B,C")
    assert game.order == ["C", "A", "B"] and game.current == "A"
    with pytest.raises(ScriptError, match=r"line 7: .*not decided: C must throw"):
        play("A roll 2\nB roll 5\nC roll 5\nB roll 3\nB throw 1 2 3 4 6\n", "wheaton", "A,B,C")


def test_w2_magic_number_is_shown_sorted_and_only_before_play():
    game = play("magic 5 3 2 5 3\n", "wheaton", "A,B")
    assert game.magic == (2, 3, 3, 5, 5)
    with pytest.raises(ScriptError, match="line 4: the magic number is thrown before play starts"):
        play("A throw 2 2 3 3 6\nmagic 1 1 2 2 3\n", "wheaton", "A,B")


def test_w11_w12_w16_thousand_and_five_hundred_two_hits_become_three():
    game = play("A throw 1 1 1 5 5\nA keep 1 1 1 5 5\nA throw 4 4 4 2 3\nA bank\n", "wheaton", "A,B")
    assert game.players["A"].score == 1500 and texts(game)[0][0] == "1500 ¶¶¶"
    assert sorted(sources(game, "A")) == ["five_hundred", "integrity", "thousand"]


def test_w12_w13_square_hit_2500_is_square_and_five_hundred():
    game = play("A throw 1 1 1 5 5\nA keep 1 1 1 5 5\nA throw 1 1 1 5 5\nA keep 1 1 1 5 5\n"
                "A throw 3 3 3 2 4\nA bank\n", "wheaton", "A,B")
    assert game.players["A"].score == 2500
    assert texts(game)[0][0] == "¨ 2500 ¶¶¶¶"  # two thousands, -500, square: four
    assert sorted(sources(game, "A")) == ["five_hundred", "square", "thousand", "thousand"]


def test_w14_magic_number_gives_everyone_a_hit():
    game = play("magic 2 3 3 5 5\nA throw 5 3 2 3 5\nA keep 5 5\nA throw 1 4 6\nA keep 1\n"
                "A throw 1 6\nA bank\nB throw 2 2 3 3 6\n", "wheaton", "A,B")
    assert texts(game)[0] == ["« 300 ¶", "« ZONK ¶"]  # B's hit waits for B's cell
    assert hits(game, "A", "magic") == 1 and hits(game, "B", "magic") == 1


def test_w14_landing_on_9950_is_a_magic_hit():
    game = play("set game.halftime = 0\nA throw 5 5 5 5 5\nA keep 5 5 5 5 5\n"
                "A throw 4 4 4 4 4\nA keep 4 4 4 4 4\n"
                "A throw 3 3 3 2 4\nA bank\nB throw 2 2 3 3 6\nA throw 3 3 3 2 4\nA bank\n"
                "B throw 2 2 3 3 6\nA throw 3 3 3 5 2\nA bank\n", "wheaton", "A,B")
    assert game.players["A"].score == 9950
    assert texts(game)[2][0] == "« 9950 ¶"


def test_w7_w6_devil_and_straight_hits_survive_bloades():
    game = play("A throw 6 6 6 2 3\nA keep 6 6 6\nA throw 2 3\nB throw 1 2 3 4 5\nB keep 1 2 3 4 5\n"
                "B throw 2 2 3 4 6\n", "wheaton", "A,B")
    assert texts(game)[0] == [f"{DEVIL} BLOADES ¶", "» VANNA ¶"]
    assert game.players["A"].score == 0 and game.players["B"].score == 0


def test_w16_hit_integrity_three_then_one_becomes_four():
    game = play(script("wheaton_w20"))
    whoremaster = [sheet.rows(game)[r].cells[3] for r in (0, 1)]
    assert [len(c.hits) for c in whoremaster] == [3, 4]
    assert [h.source for h in whoremaster[1].hits].count("integrity") == 3


def test_w17_can_i_roll_once_per_hit_carried_over_a_space():
    lines = script("wheaton_w20").splitlines(keepends=True)
    upto = lambda marker: "".join(lines[: next(i for i, x in enumerate(lines) if marker in x) + 1])  # noqa: E731
    game = play(upto("Whoremaster bank"))  # the straight and the -500: three hits
    assert (game.current, game.ask.times, game.ask.whom) == ("Baldrick", 3, "Whoremaster")
    game = play(upto("forgot to ask"))  # Baldrick's SPACE: Biggles still asks four times
    assert (game.current, game.ask.times, game.ask.whom) == ("Biggles", 4, "Whoremaster")
    state = sheet.to_json(game)["current"]
    assert state["ask"] == {"times": 4, "whom": "Whoremaster"}


def test_w5_five_ones_win_at_once():
    game = play("A throw 4 4 4 2 6\nA bank\nB throw 1 1 1 1 1\n", "wheaton", "A,B")
    assert game.over and game.winners == ["B"] and game.players["B"].score == 10000


def test_w10_dealer_spaz_costs_the_scorekeeper_the_next_turn():
    game = play("B penalty dealer-spaz\nA throw 4 4 4 2 6\nA bank\nA throw 2 2 3 3 6\n", "wheaton", "A,B")
    assert texts(game) == [["400", "DEALER SPAZ"], ["ZONK", ""]]
    with pytest.raises(ScriptError, match="it is A's turn, not B's"):
        play("A throw 4 4 4 2 6\nA bank\nB throw 2 2 3 3 6\nB throw 1 1 1 2 3\n", "wheaton", "A,B")
    game = play("A throw 4 4 4 2 6\nA bank\nA penalty space\nB throw 2 2 3 3 6\n", "wheaton", "A,B")
    assert texts(game)[1] == ["SPACE", ""]  # out of turn: A loses the next turn


def test_w19_end_of_game_scores_hits_and_gha():
    game = play("A throw 5 5 5 5 5\nA keep 5 5 5 5 5\nA throw 4 4 4 4 4\nA keep 4 4 4 4 4\n"
                "A throw 1 1 1 2 3\nA bank\n", "wheaton", "A,B")
    assert game.over and game.winners == ["A"] and game.players["A"].score == 10000
    assert game.gha() == hits(game, "A") / 2 and hits(game, "A") == 10  # ten thousand marks
    text = sheet.render_text(game)
    assert "WINNER: A" in text and "A: 10000, 10 hits" in text and "G.H.A.: 5" in text


def test_w9_illegal_line_reports_its_number_and_reason():
    with pytest.raises(ScriptError, match=r"line 4: .*only scoring dice may be kept"):
        play("A throw 1 5 2 3 6\nA keep 2\n", "wheaton", "A,B")
    with pytest.raises(IllegalAction, match="B has no turn going"):
        play("A throw 1 5 2 3 6\n", "wheaton", "A,B").apply(parse_action("B bank", ["A", "B"]))
