"""Invariants of throw scoring for every variant, checked on random throws (S4, S10)."""
from hypothesis import given
from hypothesis import strategies as st
from zonkcam.rules import DieFace, Scorer, load_variant
from zonkcam.rules.dice import counts
from zonkcam.rules.ruleset import variant_names

SCORERS = {name: Scorer(load_variant(name)) for name in variant_names()}
COLORS = ["red", "white", "green", None]


@st.composite
def throws(draw):
    name = draw(st.sampled_from(sorted(SCORERS)))
    n = draw(st.integers(1, SCORERS[name].ruleset.dice))
    values = draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))
    colors = draw(st.lists(st.sampled_from(COLORS), min_size=n, max_size=n))
    return name, [DieFace(v, c) for v, c in zip(values, colors, strict=True)]


@given(throws())
def test_s10_invariants_of_every_option(throw):
    name, dice = throw
    score = SCORERS[name].score(dice)
    assert score.zonk == (score.best is None)
    seen = set()
    for option in score.options:
        assert option.points > 0
        assert len(set(option.keep)) == len(option.keep)
        assert all(0 <= i < len(dice) for i in option.keep)
        assert option.all_scored == (len(option.keep) == len(dice))
        assert option.points <= score.best.points
        kept = counts([dice[i] for i in option.keep])
        assert kept not in seen  # each distinct keep listed once
        seen.add(kept)


@given(throws())
def test_s4_keeping_more_of_the_same_dice_never_loses_points(throw):
    name, dice = throw
    score = SCORERS[name].score(dice)
    by_counts = {counts([dice[i] for i in o.keep]): o.points for o in score.options}
    for kept, points in by_counts.items():
        for other, other_points in by_counts.items():
            if other != kept and all(a <= b for a, b in zip(other, kept, strict=True)):
                assert points >= other_points
