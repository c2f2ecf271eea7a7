"""The roll-off for the order of play: highest first, ties throw again, seating kept."""
import pytest
from zonkcam.hardware.kiosk.rolloff import RollOff, RollOffError, game_start


def test_highest_goes_first_and_play_goes_round_the_table():
    r = RollOff(("Ann", "Bob", "Cy", "Di"))
    assert [r.throw(v) for v in (2, 4, 6, 1)] == ["Ann", "Bob", "Cy", "Di"]
    assert r.done and r.winner == "Cy" and r.up is None
    assert r.order == ("Cy", "Di", "Ann", "Bob")


def test_ties_for_highest_throw_again_only_the_tied():
    r = RollOff(("Ann", "Bob", "Cy"))
    r.throw(5)
    r.throw(2)
    r.throw(5)  # Ann and Cy tie
    assert not r.done and r.rolling == ["Ann", "Cy"] and r.up == "Ann"
    r.throw(3)
    assert r.up == "Cy"
    r.throw(3)  # tie again
    assert r.rounds == [{"Ann": 5, "Bob": 2, "Cy": 5}, {"Ann": 3, "Cy": 3}, {}]
    r.throw(1)
    r.throw(4)
    assert r.winner == "Cy" and r.order == ("Cy", "Ann", "Bob")


def test_a_tie_below_the_top_does_not_matter():
    r = RollOff(("Ann", "Bob", "Cy"))
    for v in (2, 2, 6):
        r.throw(v)
    assert r.order == ("Cy", "Ann", "Bob") and len(r.rounds) == 1


def test_bad_throws_and_set_ups_say_why():
    with pytest.raises(RollOffError, match="two or more"):
        RollOff(("Ann",))
    with pytest.raises(RollOffError, match="distinct"):
        RollOff(("Ann", "Ann"))
    r = RollOff(("Ann", "Bob"))
    for bad in (0, 7, "3", True):
        with pytest.raises(RollOffError, match="face value"):
            r.throw(bad)
    r.throw(6)
    r.throw(1)
    with pytest.raises(RollOffError, match="decided"):
        r.throw(4)


def test_json_shows_progress():
    r = RollOff(("Ann", "Bob"))
    r.throw(4)
    assert r.to_json() == {"players": ["Ann", "Bob"], "rounds": [{"Ann": 4}], "rolling": ["Ann", "Bob"],
                           "up": "Bob", "winner": None, "order": None}


def test_the_kiosk_roll_off_is_the_game_s_roll_off():
    """One roll-off (W3): its throws, logged as the game's roll actions, give the same order."""
    from zonkcam.rules import load_variant
    from zonkcam.rules.game import Game, GameSetup
    from zonkcam.rules.order import RollOff as RulesRollOff

    assert RollOff is RulesRollOff and issubclass(RollOffError, ValueError)
    r = RollOff(("Ann", "Bob", "Cy"))
    for v in (5, 2, 5, 3, 4):  # Ann and Cy tie, Cy wins the throw-again
        r.throw(v)
    game = Game.replay(GameSetup(load_variant("wheaton"), r.players), r.actions())
    assert [str(a) for a in r.actions()] == ["Ann roll 5", "Bob roll 2", "Cy roll 5", "Ann roll 3",
                                            "Cy roll 4"]
    assert game.current == "Cy" and tuple(game.order_of_play.decided(game.order)) == r.order


def test_a_finished_rolloff_starts_the_game_with_its_dice_in_the_log_where_the_rules_throw():
    r = RollOff(("Ann", "Bob", "Cy"))
    for v in (2, 6, 4):
        r.throw(v)
    assert game_start(r, "highest") == (("Ann", "Bob", "Cy"), r.actions())
    seats, lines = game_start(r, "choose")  # C9: the highest throw goes first
    assert seats == ("Ann", "Bob", "Cy") and [str(a) for a in lines[-2:]] == ["Cy roll 4", "Bob goes first"]
    assert game_start(r, "seating") == (("Bob", "Cy", "Ann"), [])  # no roll lines in a seating game
    with pytest.raises(RollOffError, match="Ann, Bob must throw"):
        game_start(RollOff(("Ann", "Bob")), "highest")
