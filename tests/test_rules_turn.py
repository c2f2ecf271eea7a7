"""The turn state machine, rule by rule (IDs from shared/spec/rules-checklist.md)."""
import pytest
from rules_helpers import dice, turn, types
from zonkcam.rules import IllegalAction


def test_s1_only_dice_thrown_together_combine_colors6_example():
    t = turn("colors6")
    t.throw(dice(1, 2, 3, 4, 6, 6))
    t.keep([0])
    t.throw(dice(1, 1, 2, 3, 4))
    t.keep([0, 1])
    assert t.total == 300  # "1 then two 1s = 300", not 1000


def test_s4_keep_must_be_scoring_and_not_empty():
    t = turn("wheaton")
    t.throw(dice(1, 5, 2, 3, 6))
    with pytest.raises(IllegalAction, match="only scoring dice"):
        t.keep([0, 2])
    with pytest.raises(IllegalAction, match="at least one"):
        t.keep([])
    with pytest.raises(IllegalAction, match="distinct"):
        t.keep([0, 0])
    t.keep([0])  # the turn is unchanged by the rejected keeps
    assert t.total == 100 and t.dice_left == 4


def test_s4_throwing_again_before_keeping_is_rejected():
    t = turn("wheaton")
    t.throw(dice(1, 5, 2, 3, 6))
    with pytest.raises(IllegalAction, match="keep"):
        t.throw(dice(1, 2, 3))


def test_s4_wrong_number_of_dice_is_rejected():
    t = turn("wheaton")
    with pytest.raises(IllegalAction, match="expected 5 dice"):
        t.throw(dice(1, 2, 3))


@pytest.mark.parametrize(("variant", "first", "later", "after_hot"), [
    ("wheaton", "ZONK", "BLOADES", "VANNA"),
    ("albany", "ZONK", "BLOADS", "ZONK"),
    ("classic", "STRAW DICK", "ZONK", "ZONK"),
])
def test_s5_w9_a6_c3_zonk_bloades_vanna_names(variant, first, later, after_hot):
    t = turn(variant)
    t.throw(dice(2, 3, 4, 6, 6))
    assert t.outcome == "zonk" and t.events[-1].mark == first

    t = turn(variant)
    t.throw(dice(1, 2, 3, 4, 6))
    t.keep([0])
    t.throw(dice(2, 3, 4, 6))
    assert t.outcome == "bloades" and t.events[-1].mark == later
    assert t.events[-1].lost_points == 100 and t.banked_points == 0

    t = turn(variant)
    t.throw(dice(1, 1, 1, 5, 5))
    t.keep([0, 1, 2, 3, 4])
    t.throw(dice(2, 3, 4, 6, 6))
    assert t.outcome == "vanna" and t.events[-1].mark == after_hot


@pytest.mark.parametrize("variant", ["wheaton", "albany", "classic"])
def test_s6_c5_hot_dice_mandatory_in_five_dice_variants(variant):
    t = turn(variant)
    t.throw(dice(1, 1, 1, 5, 5))
    t.keep([0, 1, 2, 3, 4])
    assert t.dice_left == 5 and "hot_dice" in types(t.events)
    with pytest.raises(IllegalAction, match="thrown again"):
        t.bank()
    t.throw(dice(5, 2, 3, 6, 6))
    assert t.bank().points == 1150


@pytest.mark.parametrize("variant", ["detroit", "colors6"])
def test_s6_z3_d2_hot_dice_optional_in_six_dice_variants(variant):
    t = turn(variant)
    t.throw(dice(1, 2, 3, 4, 5, 6))
    assert t.bank().points == {"detroit": 1000, "colors6": 1500}[variant]


def test_s7_bank_after_throw_keeps_the_best_first():
    t = turn("wheaton")
    t.throw(dice(4, 4, 4, 2, 6))
    assert t.bank().points == 400


def test_w8_dial_in_needs_250():
    t = turn("wheaton", opened=False)
    t.throw(dice(1, 5, 2, 3, 6))
    with pytest.raises(IllegalAction, match="DIAL IN needs at least 250"):
        t.bank()
    t.keep([0, 1])
    t.throw(dice(1, 4, 4))
    banked = t.bank()
    assert banked.points == 250 and banked.opening


def test_w8_dial_in_threshold_ignored_once_dialled_in():
    t = turn("wheaton", opened=True)
    t.throw(dice(5, 2, 3, 6, 6))
    assert t.bank().points == 50


def test_w6_straight_scores_all_five_and_all_are_thrown_again():
    t = turn("wheaton", opened=False)
    t.throw(dice(1, 2, 3, 4, 5))  # Whoremaster's straight in the sample game
    t.keep([0, 1, 2, 3, 4])
    assert t.total == 150 and t.dice_left == 5
    t.throw(dice(5, 5, 5, 2, 3))  # "another 350" — three 5s is 500; the seed's dice are lost
    t.keep([0, 1, 2])
    assert t.total == 650


def test_w7_devil_event_kept_even_if_the_turn_bloades():
    t = turn("wheaton")
    t.throw(dice(6, 6, 6, 2, 3))
    t.keep([0, 1, 2])
    t.throw(dice(2, 3))
    assert t.outcome == "bloades" and "devil" in types(t.events)


def test_s9_w10_spaz_ends_the_turn_with_no_points():
    t = turn("wheaton")
    t.throw(dice(1, 1, 1, 2, 3))
    t.keep([0, 1, 2])
    event = t.spaz("off_table")
    assert t.outcome == "spaz" and t.banked_points == 0
    assert event.mark == "SPAZ" and event.lost_points == 1000 and not event.counts_as_zonk
    with pytest.raises(IllegalAction, match="turn is over"):
        t.throw(dice(1, 2))


def test_a5_open_needs_350():
    t = turn("albany", opened=False)
    t.throw(dice(1, 5, 5, 2, 3))
    with pytest.raises(IllegalAction, match="OPEN needs at least 350"):
        t.bank()


def test_a13_league_spaz_consequences():
    t = turn("albany")
    t.throw(dice(1, 2, 3, 4, 6))
    assert t.spaz("stacked").skip_turns == 2
    t = turn("albany")
    t.throw(dice(1, 2, 3, 4, 6))
    assert t.spaz("lost").skip_turns == 1
    t = turn("albany")
    t.throw(dice(1, 2, 3, 4, 6))
    t.keep([0])
    assert t.spaz("knocked").type == "knocked" and not t.over  # knocked dice take their new face
    t = turn("albany")
    t.throw(dice(1, 2, 3, 4, 6))
    assert t.spaz("off_table").skip_turns == 0 and t.outcome == "spaz"


def test_a1_social_fourth_die_counts_for_vanna():
    t = turn("albany")
    t.throw(dice(4, 4, 4, 4, 1))
    t.keep([0, 1, 2, 3, 4])
    assert t.total == 500 and t.dice_left == 5 and "hot_dice" in types(t.events)


def test_c2_breaking_a_straw_hat_is_rejected():
    t = turn("classic")
    t.throw(dice(1, 2, 3, 4, 5))
    with pytest.raises(IllegalAction, match="straw hat cannot be broken"):
        t.keep([0, 4])
    t.keep([0, 1, 2, 3, 4])
    assert t.total == 1000 and t.dice_left == 5


def test_c4_c10_classic_sample_hand_rethrowing_a_scoring_five():
    t = turn("classic")
    t.throw(dice(1, 5, 2, 3, 6))
    t.keep([0])  # keep only the 1; the 5 goes back in, hoping for two more 1s
    t.throw(dice(5, 2, 4, 6))
    t.keep([0])
    assert t.total == 150  # "a 5 for 150 total points"
    t.throw(dice(1, 1, 4))
    t.keep([0, 1])  # the kept 1 and two thrown 1s: three 1s (classic's combine_kept)
    assert t.total == 1050 and t.dice_left == 1
    assert t.bank().points == 1050


def test_c5_c10_classic_sample_limbo_hand():
    t = turn("classic")
    t.throw(dice(1, 5, 2, 3, 6))
    t.keep([0])
    t.throw(dice(5, 2, 4, 6))
    t.keep([0])
    t.throw(dice(5, 5, 1))  # "the three 5's equal 500 ... the two 1's 200 ... 700"
    t.keep([0, 1, 2])
    assert t.total == 700 and t.events[-1].mark == "LIMBO"
    with pytest.raises(IllegalAction, match="LIMBO"):
        t.bank()


def test_c8_d6_spaz_counts_as_a_zonk():
    for variant in ("classic", "detroit"):
        t = turn(variant)
        n = 5 if variant == "classic" else 6
        t.throw(dice(*[1, 2, 3, 4, 6, 6][:n]))
        assert t.spaz("off_table").counts_as_zonk


def test_d4_thousand_in_one_throw_reported():
    t = turn("detroit")
    t.throw(dice(1, 1, 1, 1, 1, 3))
    t.keep([0, 1, 2, 3, 4])
    [event] = [e for e in t.events if e.type == "thousand_in_throw"]
    assert event.count == 2 and event.points == 2000


def test_d5_z4_six_die_zonk_train_wreck_is_a_full_throw():
    t = turn("detroit")
    t.throw(dice(2, 2, 3, 3, 4, 6))
    assert t.events[-1].type == "zonk" and t.events[-1].full_throw
    t = turn("colors6")
    t.throw(dice(1, 2, 3, 4, 6, 6))
    t.keep([0])
    t.throw(dice(2, 2, 3, 4, 6))
    assert not t.events[-1].full_throw


def test_z1_open_500_then_stop_only_with_300_or_four_dice():
    t = turn("colors6", opened=False)
    t.throw(dice(1, 1, 1, 2, 3, 4))
    t.keep([0, 1, 2])
    assert t.bank_blocker() is None  # 1000 opens
    t = turn("colors6", opened=False)
    t.throw(dice(1, 5, 2, 3, 6, 6))
    with pytest.raises(IllegalAction, match="OPEN needs at least 500"):
        t.bank()

    t = turn("colors6", opened=True)
    t.throw(dice(1, 2, 3, 4, 6, 6))
    t.keep([0])
    with pytest.raises(IllegalAction, match="300 points or 4 dice"):
        t.bank()
    t.throw(dice(5, 5, 5, 2, 3))
    t.keep([0, 1, 2])  # 600 this turn
    assert t.bank().points == 600

    t = turn("colors6", opened=True)
    t.throw(dice(5, 2, 3, 4, 6, 6))
    t.keep([0])
    t.throw(dice(5, 2, 3, 4, 6))
    t.keep([0])
    t.throw(dice(5, 2, 3, 6))
    t.keep([0])
    t.throw(dice(5, 2, 3))
    t.keep([0])  # 200 points but four dice scored
    assert t.bank().points == 200


def test_z4_slim_pickins_six_single_ones_or_fives():
    t = turn("colors6")
    for n in range(6, 0, -1):
        t.throw(dice(*([1, 2, 2, 3, 3, 4][:n] if n > 2 else [5, 2][:n])))
        t.keep([0])
    slim = [e for e in t.events if e.type == "slim_pickins"]
    assert [e.count for e in slim] == [1, 2, 3, 4, 5, 6] and slim[-1].complete


def test_z4_slim_pickins_broken_by_a_bigger_keep():
    t = turn("colors6")
    t.throw(dice(1, 1, 2, 3, 4, 6))
    t.keep([0, 1])
    assert "slim_pickins" not in types(t.events)
