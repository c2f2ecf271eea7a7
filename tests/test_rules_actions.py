"""Typed actions: what programs hand the game; their text is only how a log stores them (X3)."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from zonkcam.rules import load_variant
from zonkcam.rules.actions import (
    PENALTIES,
    Action,
    ActionError,
    Bank,
    Correct,
    Keep,
    Penalty,
    Spaz,
    Throw,
    Undo,
    describe,
    effective,
    parse_action,
)
from zonkcam.rules.dice import DieFace, make_dice
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.turn import IllegalAction

PLAYERS = ("Ann", "Bob")
dice = st.lists(st.builds(DieFace, st.integers(1, 6), st.sampled_from([None, "red", "white", "green"])),
                min_size=1, max_size=6).map(tuple)
players = st.sampled_from([None, *PLAYERS])
actions = st.one_of(
    st.builds(Throw, players, dice),
    st.builds(Keep, players, dice),
    st.builds(lambda p, i: Keep(p, positions=tuple(i)), players, st.lists(st.integers(0, 5), min_size=1)),
    st.builds(Bank, players),
    st.builds(Spaz, players, st.sampled_from(["", "off_table", "lost", "knocked"])),
    st.builds(Penalty, players, st.sampled_from(PENALTIES), st.integers(0, 20)),
    st.just(Undo()),
    st.builds(lambda t, i, d: Correct(t, i, d[0]), st.integers(1, 500), st.integers(0, 5), dice),
)


@given(actions)
def test_every_action_reads_back_from_its_line(action):
    assert parse_action(str(action), PLAYERS) == action


@given(st.text(max_size=60))
def test_any_line_is_an_action_or_says_why(line):
    try:
        action = parse_action(line, PLAYERS)
    except ActionError as exc:
        assert str(exc)
    else:  # a penalty called by name ("space") is a penalty action
        assert action.verb in line.lower() or (isinstance(action, Penalty) and action.kind in line.lower())


def test_the_game_applies_typed_actions_and_the_log_stores_their_lines():
    game = Game(GameSetup(load_variant("wheaton"), PLAYERS))
    for action in (Throw("Ann", make_dice([1, 5, 2, 3, 6])), Keep("Ann", make_dice([1, 5])),
                   Throw("Ann", make_dice([1, 1, 4]))):
        game.apply(action)
    game.apply(Bank("Ann"))
    assert game.players["Ann"].score == 350
    assert str(Keep("Ann", positions=(0, 1))) == "Ann keep @0 @1"
    assert str(Penalty("Bob", "foul", 2)) == "Bob penalty foul 2"


def test_a_correction_changes_one_die_of_the_throw_it_names():
    log = [parse_action(line, PLAYERS) for line in
           ("Ann throw 1 5 2 3 6", "Ann keep 1 5", "Ann throw 2 2 4", "correct 1 die 2 red:3")]
    standing = effective(log, PLAYERS)
    assert [str(a) for _, a in standing] == ["Ann throw 1 5 red:3 3 6", "Ann keep 1 5", "Ann throw 2 2 4"]
    assert [s for s, _ in standing] == [1, 2, 3]  # an action keeps its number
    # The older whole-line form is still read: logs written before stay playable.
    legacy = parse_action("correct 3 Ann throw 2 2 5", PLAYERS)
    assert isinstance(legacy, Correct) and legacy.replacement == Throw("Ann", make_dice([2, 2, 5]))


@pytest.mark.parametrize(("log", "error"), [
    (["Ann throw 1 5 2 3 6", "Ann keep 1 5", "correct 2 die 0 4"], "action 2 is a keep, not a throw"),
    (["Ann throw 1 5 2 3 6", "correct 1 die 5 4"], "throw 1 has no die 5"),
    (["Ann throw 1 5 2 3 6", "undo", "correct 1 die 0 4"], "no action 1 to correct"),
])
def test_a_correction_that_does_not_fit_its_throw_is_refused(log, error):
    setup = GameSetup(load_variant("wheaton"), PLAYERS)
    with pytest.raises(IllegalAction, match=error):
        Game.replay(setup, [parse_action(line, PLAYERS) for line in log])


@pytest.mark.parametrize(("line", "error"), [
    ("Ann throw 7", "'7' is not a die"),
    ("Ann throw", "expected some dice"),
    ("Ann penalty", "penalty is one of"),
    ("Ann penalty dance", "penalty is one of"),
    ("Ann penalty foul x", "at most a number"),
    ("Ann keep @a", "not die positions"),
    ("Ann bank now", "nothing more"),
    ("correct 0 die 1 2", "number of the action"),
    ("correct 4 undo", "another action"),
    ("correct x", "number of the action"),
])
def test_a_malformed_action_says_what_is_wrong(line, error):
    with pytest.raises(ActionError, match=error):
        parse_action(line, PLAYERS)


def test_a_penalty_is_called_by_its_name_as_a_spaz_is():
    assert parse_action("Ann space", PLAYERS) == Penalty("Ann", "space")
    assert parse_action("Bob foul 2", PLAYERS) == Penalty("Bob", "foul", 2)


@pytest.mark.parametrize(("lines", "error"), [
    (["Ann throw 1 5 2 3 6", "Ann keep 1", "Ann keep 5"], "already set aside: throw the dice left, or bank"),
    (["Ann throw 2 2 3 3 6", "Ann bank"], "Ann's turn is over (ZONK): Bob is up"),
])
def test_a_refused_action_says_what_is_going_on(lines, error):
    game = Game(GameSetup(load_variant("wheaton"), PLAYERS))
    for line in lines[:-1]:
        game.apply(parse_action(line, PLAYERS))
    with pytest.raises(IllegalAction, match=re.escape(error)):
        game.apply(parse_action(lines[-1], PLAYERS))


def test_breaking_a_straw_hat_says_so():
    game = Game(GameSetup(load_variant("classic"), PLAYERS))
    game.apply(parse_action("Ann throw 1 2 3 4 5", PLAYERS))
    with pytest.raises(IllegalAction, match=r"^1 cannot be set aside: a straw hat cannot be broken up"):
        game.apply(parse_action("Ann keep 1", PLAYERS))


def test_other_verbs_stay_plain_actions():
    assert parse_action("magic 2 3 3 5 5", PLAYERS) == Action("magic", None, ("2", "3", "3", "5", "5"))


def test_an_action_in_plain_words_for_the_kiosk():
    """The kiosk's undo and redo say what they take back in words, not in the log's form
    ("Ann spaz off_table")."""
    ann = ["Ann", "Bob"]
    said = {line: describe(parse_action(line, ann)) for line in (
        "Ann throw 6 1", "Ann keep 1 5", "Ann keep @0 @2", "Ann bank", "Ann spaz off_table",
        "Ann spaz", "Ann foul 2", "Ann penalty dealer-spaz", "correct 7 die 2 5", "undo", "magic 2 3 3 5 5")}
    assert said == {
        "Ann throw 6 1": "Ann's throw 6 1",
        "Ann keep 1 5": "Ann's keep 1 5",
        "Ann keep @0 @2": "Ann's keep (dice #1, #3 of the throw)",
        "Ann bank": "Ann's bank",
        "Ann spaz off_table": "Ann's SPAZ (a die off the table)",
        "Ann spaz": "Ann's SPAZ",
        "Ann foul 2": "Ann's penalty (foul, 2 more turns lost)",
        "Ann penalty dealer-spaz": "Ann's penalty (dealer spaz)",
        "correct 7 die 2 5": "the correction of action 7",
        "undo": "undo",
        "magic 2 3 3 5 5": "magic 2 3 3 5 5",
    }
    assert all("_" not in text for text in said.values())
