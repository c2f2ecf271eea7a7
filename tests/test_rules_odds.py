"""Odds (X2): exact zonk chances, and the value of throwing versus banking."""
import itertools
from fractions import Fraction

import pytest
from rules_helpers import dice, turn
from zonkcam.rules import DieFace, Scorer, load_variant
from zonkcam.rules.odds import turn_odds, zonk_chance


def brute_force_zonk_chance(variant: str, n: int) -> float:
    """Every ordered throw, coloured as the set is when all dice are thrown."""
    rs = load_variant(variant)
    scorer = Scorer(rs)
    colors = rs.dice_colors if n == rs.dice and rs.dice_colors else (None,) * n
    zonks = sum(
        scorer.score([DieFace(v, c) for v, c in zip(values, colors, strict=True)]).zonk
        for values in itertools.product(range(1, 7), repeat=n)
    )
    return zonks / 6**n


@pytest.mark.parametrize(("n", "exact"), [(1, Fraction(4, 6)), (2, Fraction(16, 36)),
                                          (3, Fraction(60, 216)), (4, Fraction(204, 1296)),
                                          (5, Fraction(600, 7776))])
def test_x2_zonk_chance_of_five_dice_variants_is_exact(n, exact):
    assert zonk_chance(load_variant("wheaton"), n) == pytest.approx(float(exact), abs=1e-12)


@pytest.mark.parametrize(("variant", "n"), [("classic", 5), ("albany", 4), ("colors6", 5), ("detroit", 6)])
def test_x2_zonk_chance_matches_enumerating_every_ordered_throw(variant, n):
    expected = brute_force_zonk_chance(variant, n)
    assert zonk_chance(load_variant(variant), n) == pytest.approx(expected, abs=1e-12)


def test_x2_colored_pairs_lower_detroits_six_die_zonk_chance():
    detroit, colors6 = load_variant("detroit"), load_variant("colors6")
    assert zonk_chance(detroit, 6) < zonk_chance(colors6, 6)  # same table but colored pairs


def test_x2_one_die_left_with_a_big_total_says_bank():
    t = turn("wheaton")
    t.throw(dice(1, 1, 1, 5, 2))
    t.keep([0, 1, 2, 3])
    odds = turn_odds(t)
    assert odds.dice == 1 and odds.zonk_chance == pytest.approx(4 / 6)
    assert odds.bank_value == 1050 and odds.advice == "bank"
    assert odds.throw_value < 1050


def test_x2_small_total_with_many_dice_says_throw():
    t = turn("detroit")
    t.throw(dice(5, 2, 3, 4, 6, 6))
    t.keep([0])
    odds = turn_odds(t)
    assert odds.bank_value == 50 and odds.advice == "throw" and odds.throw_value > 50


def test_x2_no_bank_value_before_dialling_in():
    t = turn("wheaton", opened=False)
    t.throw(dice(1, 2, 3, 4, 6))
    t.keep([0])
    odds = turn_odds(t)
    assert odds.bank_value is None and odds.advice == "throw"
    assert odds.one_step_value > 0


def test_x2_right_after_a_throw_odds_assume_the_best_keep():
    t = turn("wheaton")
    t.throw(dice(1, 1, 1, 5, 2))
    before_keep = turn_odds(t)
    t.keep([0, 1, 2, 3])
    assert before_keep == turn_odds(t)


def test_x2_no_odds_for_a_finished_turn():
    t = turn("wheaton")
    t.throw(dice(2, 3, 4, 6, 6))
    with pytest.raises(ValueError, match="in play"):
        turn_odds(t)


def test_x2_classic_straw_hat_may_be_banked_so_the_odds_offer_it():
    t = turn("classic")
    t.throw(dice(1, 2, 3, 4, 5))
    t.keep([0, 1, 2, 3, 4])
    odds = turn_odds(t)
    assert odds.dice == 5 and odds.bank_value == 1000
    limbo = turn("classic")
    limbo.throw(dice(1, 1, 1, 5, 5))
    limbo.keep([0, 1, 2, 3, 4])
    assert turn_odds(limbo).bank_value is None  # LIMBO: must throw again
