"""Scoring one throw, rule by rule (IDs from shared/spec/rules-checklist.md)."""
import pytest
from rules_helpers import best, score, types

VARIANTS = ["wheaton", "albany", "classic", "detroit", "colors6"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_s2_single_ones_and_fives(variant):
    assert best(variant, 1, 2, 3, 4, 6) == 100
    assert best(variant, 5, 2, 3, 6, 6) == 50
    assert best(variant, 2, 3, 4, 6, 6) == 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("face", "points"), [(1, 1000), (2, 200), (3, 300), (4, 400), (5, 500), (6, 600)])
def test_s3_three_of_a_kind(variant, face, points):
    others = [f for f in (2, 3, 4, 6) if f != face][:2]
    assert best(variant, face, face, face, *others) == points


@pytest.mark.parametrize("variant", VARIANTS)
def test_s10_every_legal_keep_is_offered_best_first(variant):
    s = score(variant, 1, 1, 5, 3, 4)
    kept = {tuple(s.dice[i].value for i in o.keep): o.points for o in s.options}
    assert kept == {(1, 1, 5): 250, (1, 1): 200, (1, 5): 150, (1,): 100, (5,): 50}
    assert s.best.points == 250


def test_w4_fourth_die_adds_only_its_single_value():
    assert best("wheaton", 4, 4, 4, 4, 2) == 400
    assert best("wheaton", 5, 5, 5, 5, 2) == 550
    options = score("wheaton", 4, 4, 4, 4, 2).options
    assert all(len(o.keep) == 3 for o in options)  # the fourth 4 cannot be set aside


def test_w5_five_of_a_kind_thousands_and_five_ones_win():
    assert best("wheaton", 4, 4, 4, 4, 4) == 4000
    s = score("wheaton", 1, 1, 1, 1, 1)
    assert s.best.points == 10_000
    assert "five_ones" in types(s.events)


def test_w6_straights_150_and_50_score_all_five():
    low = score("wheaton", 3, 1, 5, 2, 4)
    assert low.best.points == 150 and low.best.all_scored
    high = score("wheaton", 6, 2, 5, 3, 4)
    assert high.best.points == 50 and high.best.all_scored
    assert types(low.events) == ["straight"] and types(high.events) == ["straight"]


def test_w7_devil_three_sixes_600_and_an_event():
    s = score("wheaton", 6, 6, 6, 2, 3)
    assert s.best.points == 600
    assert "devil" in types(s.events)
    assert "devil" not in types(score("wheaton", 6, 6, 2, 2, 3).events)


def test_a1_four_of_a_kind_is_a_social_with_no_extra_points():
    assert best("albany", 4, 4, 4, 4, 2) == 400
    assert best("albany", 5, 5, 5, 5, 2) == 550
    s = score("albany", 4, 4, 4, 4, 2)
    assert "social" in types(s.events)
    assert any(len(o.keep) == 4 and o.points == 400 for o in s.options)
    vanna = score("albany", 4, 4, 4, 4, 1).best  # the fourth die has scored: all five did
    assert vanna.points == 500 and vanna.all_scored


def test_a2_five_of_a_kind():
    assert best("albany", 3, 3, 3, 3, 3) == 3000
    assert best("albany", 1, 1, 1, 1, 1) == 10_000
    # Its own line of the seed (001:19): no social (four of a kind, 001:18), no courtesy hit.
    five = score("albany", 3, 3, 3, 3, 3, colors="green,red,red,white,white")
    assert not {"social", "courtesy_hit"} & set(types(five.events))


def test_a3_straights_1500():
    assert best("albany", 1, 2, 3, 4, 5) == 1500
    assert best("albany", 2, 3, 4, 5, 6) == 1500


def test_a4_courtesy_hit_lynch_pin_with_a_colour_pair():
    # albany's set: red, red, white, white and the green lynch pin
    s = score("albany", 3, 3, 3, 2, 4, colors="green,red,red,white,white")
    assert [e.to_json() for e in s.events if e.type == "courtesy_hit"] == [
        {"type": "courtesy_hit", "face": 3, "pair_color": "red"}
    ]
    mixed = score("albany", 3, 3, 3, 2, 4, colors="green,red,white,red,white")
    assert "courtesy_hit" not in types(mixed.events)


def test_c1_four_of_a_kind_only_three_count():
    assert best("classic", 4, 4, 4, 4, 2) == 400
    assert best("classic", 1, 1, 1, 1, 2) == 1100  # the extra 1 is still a single


def test_c2_straw_hat_1000_and_it_cannot_be_broken():
    for dice in [(1, 2, 3, 4, 5), (2, 3, 4, 5, 6)]:
        s = score("classic", *dice)
        assert [(o.points, len(o.keep)) for o in s.options] == [(1000, 5)]


def test_d1_extra_matching_dice_add_500_each():
    assert best("detroit", 1, 1, 1, 1, 1, 3) == 2000  # the seed's example
    assert best("detroit", 4, 4, 4, 4, 2, 3) == 900
    assert best("detroit", 2, 2, 2, 2, 2, 2) == 1700


def test_d2_full_straight_1000_all_six_score():
    s = score("detroit", 6, 5, 4, 3, 2, 1)
    assert s.best.points == 1000 and s.best.all_scored


def test_d3_colored_pairs_bonus_on_top_of_normal_scoring():
    s = score("detroit", 2, 2, 3, 3, 1, 1, colors="green,green,red,red,white,white")
    assert s.best.points == 1200 and s.best.all_scored  # the seed's example
    assert "colored_pairs" in types(s.events)
    bare = score("detroit", 2, 2, 3, 3, 4, 4, colors="red,red,white,white,green,green")
    assert not bare.zonk and bare.best.points == 1000  # not a six-die zonk
    unmatched = score("detroit", 2, 3, 2, 3, 4, 4, colors="red,red,white,white,green,green")
    assert unmatched.zonk


def test_d8_six_of_a_kind_is_reported():
    assert "six_of_a_kind" in types(score("detroit", 3, 3, 3, 3, 3, 3).events)


def test_z2_straight_1500_and_four_five_six_of_a_kind():
    assert best("colors6", 1, 2, 3, 4, 5, 6) == 1500
    assert best("colors6", 4, 4, 4, 4, 2, 3) == 400
    assert best("colors6", 5, 5, 5, 5, 5, 3) == 600  # three 5s and two single 5s
    assert best("colors6", 4, 4, 4, 4, 4, 4) == 800  # twice three of a kind
    assert best("colors6", 1, 1, 1, 1, 1, 1) == 2000


def test_z4_colors_three_of_a_kind_in_three_colours():
    s = score("colors6", 2, 2, 2, 3, 4, 6, colors="red,green,white,red,green,white")
    assert [e.face for e in s.events if e.type == "colors"] == [2]
    same = score("colors6", 2, 2, 2, 3, 4, 6, colors="red,red,white,green,green,white")
    assert "colors" not in types(same.events)


def test_s1_dice_without_colours_never_fire_colour_rules():
    s = score("detroit", 2, 2, 3, 3, 1, 1)
    assert "colored_pairs" not in types(s.events) and s.best.points == 200
