"""A die's colour is one of the set's (the ruleset's `dice_colors`), or none (issue 36).

IDs from shared/spec/rules-checklist.md: Z4 (colors6's COLORS), A4 (albany's courtesy hit).
"""
import pytest
from game_helpers import play, sources
from rules_helpers import score, types
from zonkcam.rules import load_variant
from zonkcam.rules.dice import DieFace, check_colors, set_color
from zonkcam.rules.script import ScriptError

COLORS6 = load_variant("colors6").dice_colors


def test_a_colour_of_the_set_or_none_passes_and_is_lower_cased():
    assert set_color("Red", COLORS6, "colors6") == "red"
    assert set_color(None, COLORS6) is None and set_color("", COLORS6) is None
    check_colors([DieFace(2, "red"), DieFace(2, "green"), DieFace(2, None)], COLORS6)


def test_a_colour_outside_the_set_is_refused_naming_the_die_and_the_set():
    with pytest.raises(ValueError, match=r"die 3: 'gren' is not a colour of colors6's dice "
                                         r"\(red, green, white\)"):
        check_colors([DieFace(2, "red"), DieFace(2, "green"), DieFace(2, "gren")], COLORS6, "colors6")
    with pytest.raises(ValueError, match="not a colour name"):
        set_color("<b>red", COLORS6)


def test_a_ruleset_without_colours_takes_any_name():
    assert set_color("purple", load_variant("wheaton").dice_colors) == "purple"


def test_z4_a_misspelt_colour_earns_no_colors_hit_it_is_refused():
    # red, green and "gren" 2s used to be three colours: a false COLORS
    with pytest.raises(ScriptError, match="'gren' is not a colour of colors6's dice"):
        play("A throw red:2 green:2 gren:2 red:3 green:4 white:6\n", "colors6", "A,B")
    game = play("A throw red:2 green:2 white:2 red:3 green:4 white:6\nA keep 2 2 2\n"
                "A throw 5 5 5\nA keep 5 5 5\nA bank\n", "colors6", "A,B")
    assert "colors" in sources(game, "A")


def test_a_correction_to_a_colour_outside_the_set_is_refused():
    throw = "A throw red:2 green:2 white:2 red:3 green:4 white:6\n"
    with pytest.raises(ScriptError, match="'blue' is not a colour of colors6's dice"):
        play(throw + "correct 3 die 0 blue:2\n", "colors6", "A,B")


def test_a4_the_lynch_pin_is_the_single_die_whatever_its_colour():
    # 001:24: two pairs and a single die, the lynch pin; albany's set makes it green, a
    # table's own set may make it any colour (here blue, with green as a pair)
    blue_pin = ('set dice_colors = ["red", "red", "green", "green", "blue"]\n'
                "A throw blue:3 green:3 green:3 red:2 red:4\n")
    game = play(blue_pin, "albany", "A,B")
    assert [e.type for e in game.live.turn.last.events] == ["courtesy_hit"]
    assert game.live.turn.last.events[0].to_json()["pair_color"] == "green"
    # green is a pair in this set: a green die with the red pair is no courtesy
    no_pin = ('set dice_colors = ["red", "red", "green", "green", "blue"]\n'
              "A throw green:3 red:3 red:3 blue:2 green:4\n")
    assert "courtesy_hit" not in [e.type for e in play(no_pin, "albany", "A,B").live.turn.last.events]
    assert "courtesy_hit" in types(score("albany", 3, 3, 3, 2, 4, colors="green,red,red,white,white").events)


# A log an older zonkcam stored: its recognizer could name any of six colours, so a colors6
# game (red, green, white) may hold a blue die. It replays as recorded; new actions are checked.
OLD_LOG = ("A throw red:2 green:2 blue:2 red:3 green:4 white:6", "A keep 2 2 2")


def test_a_stored_log_with_a_colour_outside_the_set_still_replays_a_new_action_is_refused():
    from zonkcam.rules.actions import parse_action
    from zonkcam.rules.game import Game, GameSetup, ReplayError

    setup = GameSetup(load_variant("colors6"), ("A", "B"))
    log = [parse_action(line, setup.players) for line in OLD_LOG]
    assert Game.replay(setup, log).live.turn.total == 200  # three 2s
    with pytest.raises(ReplayError, match=r"action 1 .*'blue' is not a colour of colors6's dice"):
        Game.replay(setup, log[:1], new=1)  # the same throw, taken now


def test_the_kiosk_resumes_an_older_zonkcams_game_with_an_off_set_colour(tmp_path):
    from zonkcam.hardware.store import Store
    from zonkcam.rules.game import GameSetup, IllegalAction

    store = Store(tmp_path / "z.db")
    gid = store.new_game(GameSetup(load_variant("colors6"), ("A", "B")))
    for seq, line in enumerate(OLD_LOG, start=1):  # written as the older zonkcam wrote them
        store.db.execute("INSERT INTO actions (game_id, seq, at, line) VALUES (?, ?, ?, ?)",
                         (gid, seq, "2026-11-01T20:00:00", line))
    store.close()
    again = Store(tmp_path / "z.db")
    assert again.unfinished() == gid
    game = again.game(gid)  # resumed, not "its log no longer plays"
    assert [str(a) for a in game.log] == list(OLD_LOG) and game.live.turn.total == 200
    with pytest.raises(IllegalAction, match="'blue' is not a colour of colors6's dice"):
        again.record(gid, "A throw blue:5 red:1 white:3")
    with pytest.raises(IllegalAction, match="'blue' is not a colour of colors6's dice"):
        again.record(gid, "correct 1 die 4 blue:4")
    assert len(again.log(gid)) == 2  # nothing refused was stored
    game = again.record(gid, "correct 1 die 5 white:1")  # another die of the stored throw: fine
    assert game.live.turn.total == 200
    game = again.record(gid, "A throw red:1 green:5 white:3")
    assert [str(d) for d in game.live.turn.last.dice] == ["red:1", "green:5", "white:3"]
