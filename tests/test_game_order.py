"""The order of play in a game (W3, C9): the roll-off's refusals say why."""
import pytest
from game_helpers import play
from zonkcam.rules.script import ScriptError


@pytest.mark.parametrize(("lines", "variant", "reason"), [
    ("A roll 2\nA roll 5\n", "wheaton", "throwing for order now: B, C"),  # W3: one die each
    ("A roll 2\nB roll 5\nC roll 5\nA roll 6\n", "wheaton", "throwing for order now: B, C"),  # ties only
    ("A roll 2\nB roll 5\nC roll 1\nC roll 6\n", "wheaton", "decided already"),
    ("A roll 2\n", "albany", "seating order"),
    ("A roll 7\n", "wheaton", "not a die"),
])
def test_a_throw_for_order_out_of_place_says_why(lines, variant, reason):
    with pytest.raises(ScriptError, match=reason):
        play(lines, variant, "A,B,C")


def test_the_roll_off_starts_play_with_the_winner_and_keeps_the_seating():
    game = play("C roll 1\nA roll 4\nB roll 6\nB throw 5 2 3 4 6\n", "wheaton", "A,B,C")
    assert game.order == ["B", "C", "A"] and game.current == "B"
