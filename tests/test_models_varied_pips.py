"""`train --varied-pips SHARE`: drawn dice with other sets' pips (`crops.other_pips`)."""
from __future__ import annotations

import numpy as np
import pytest
from zonkcam.models.crops import drawn_patches, other_pips
from zonkcam.vision.sim.drawn import RED_PIP


def test_other_pips_cover_the_styles_real_sets_have_and_keep_red_ones_on_light_bodies():
    rng = np.random.default_rng(0)
    drawn = [(color, other_pips(rng, color)) for color in ("white", "black", "yellow", "blue") * 150]
    assert all(0.05 <= p.radius <= 0.13 and 0.2 <= p.spread <= 0.33 for _, p in drawn)
    big = [p for _, p in drawn if p.one_radius is not None]
    assert 0.4 < len(big) / len(drawn) < 0.6
    assert all(p.one_radius >= p.radius for p in big)
    red = [c for c, p in drawn if p.one_bgr == RED_PIP]
    assert red and set(red) <= {"white", "yellow"}
    assert 0.05 < sum(p.ring > 0 for _, p in drawn) / len(drawn) < 0.2
    # a ring round the one only where the one is not big: both at once is no set we have seen
    ringed = [p for _, p in drawn if p.one_ring > 0]
    assert ringed and all(p.one_radius is None for p in ringed)


def test_varied_drawn_dice_differ_from_the_plain_ones_and_none_varied_draws_plain_pips():
    plain, plain_labels = drawn_patches(30, np.random.default_rng(3))
    again, again_labels = drawn_patches(30, np.random.default_rng(3), 0.0)
    assert np.array_equal(plain, again) and np.array_equal(plain_labels, again_labels)
    varied, labels = drawn_patches(30, np.random.default_rng(3), 1.0)
    assert varied.shape == plain.shape and set(labels.tolist()) <= set(range(1, 7))
    assert not np.array_equal(varied, plain)


def test_a_varied_pips_share_out_of_range_is_a_usage_error(capsys):
    pytest.importorskip("torch")
    from zonkcam.models.train import main

    for share in ("-0.1", "1.5"):
        with pytest.raises(SystemExit) as exit_:
            main(["--varied-pips", share])
        assert exit_.value.code == 2
        assert "--varied-pips" in capsys.readouterr().err

