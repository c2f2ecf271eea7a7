"""Naming a die's colour from the set in play (issue 36): the body, not the pips or the table;
ivory, white and yellow apart; translucent dice; never a colour outside the set."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from zonkcam.vision.colors import (
    DEFAULT_RGB,
    SIX,
    WB_SIDE,
    DiceSet,
    DiceSetError,
    _column_medians,
    _quantile,
    body_lab,
    rgb_to_lab,
    thumbnail,
    white_balance_gains,
)
from zonkcam.vision.faces import patch_at
from zonkcam.vision.sim.colour_dice import DieLook, draw_look
from zonkcam.vision.sim.drawn import background

DARK = (25, 25, 25)


def named(look: DieLook, dice_set: DiceSet, seed: int = 0, table: str = "felt",
          size: float = 56, white_card: bool = False) -> list[str | None]:
    """The names of one die of `look` thrown 6 times (every face) on `table`; `white_card`: a
    white thing in view (a white die's pips, a card) for the white balance to go by."""
    rng = np.random.default_rng(seed)
    out = []
    for value in range(1, 7):
        img = background(rng, 200, 200, table)
        if white_card:
            img[:30, :30] = 245
        draw_look(img, look, value, 100, 100, size, rng.uniform(0, 90), rng)
        out.append(dice_set.name_of(body_lab(patch_at(img, 100, 100, size),
                                             white_balance_gains(img)))[0])
    return out


def test_the_palette_goes_beyond_six_colours_and_keeps_them():
    assert set(SIX) < set(DEFAULT_RGB)
    assert {"purple", "orange", "pink", "ivory", "grey", "brown", "teal"} <= set(DEFAULT_RGB)
    palette = DiceSet.default()
    for name, rgb in DEFAULT_RGB.items():  # each reference is named as itself
        assert palette.name_of(rgb_to_lab(rgb))[0] == name


@pytest.mark.parametrize(("name", "rgb"), [
    ("white", (236, 236, 232)), ("ivory", (236, 224, 196)), ("yellow", (235, 205, 40))])
def test_ivory_white_and_yellow_are_told_apart(name, rgb):
    # something white in view: an ivory die alone is the picture's white, balanced to white
    assert named(DieLook(name, rgb, pip_rgb=DARK), DiceSet.default(), table="paper",
                 white_card=True) == [name] * 6


@pytest.mark.parametrize(("name", "rgb"), [("red", (200, 20, 30)), ("blue", (20, 60, 200))])
def test_translucent_dice_are_named_by_their_body_not_black_or_white(name, rgb):
    """A translucent die: the table's light through the dye, darker in the middle, glare and
    the other faces' pips seen through (issue 36: named black or white before)."""
    for table in ("felt", "paper"):
        assert named(DieLook(name, rgb, "translucent"), DiceSet.default(), table=table) == [name] * 6


def test_the_body_is_measured_not_the_pips():
    # a six on a small die: the pips are a quarter of the inner face; the body is still black
    look = DieLook("black", (35, 35, 38), pip_rgb=(240, 240, 240))
    assert named(look, DiceSet.default(), table="paper", size=30) == ["black"] * 6


def test_a_colour_outside_the_set_is_unreadable_never_another_name():
    set_rgw = DiceSet.default().restricted(["red", "red", "green", "green", "white", "white"])
    assert list(set_rgw.colors) == ["red", "green", "white"]
    assert named(DieLook("red", (190, 30, 40)), set_rgw) == ["red"] * 6
    assert named(DieLook("blue", (35, 70, 170)), set_rgw) == [None] * 6  # not green, not white
    assert set_rgw.name_of(rgb_to_lab((35, 70, 170))) == (None, 0.0)


def test_a_calibrated_set_keeps_its_own_references_and_borrows_the_palette(tmp_path):
    mine = DiceSet("mine", {"red": (90.0, 176.0, 161.0), "ivory": (230.0, 128.0, 145.0)})
    both = mine.restricted(["ivory", "blue"])
    assert both.colors["ivory"] == (230.0, 128.0, 145.0)
    assert both.colors["blue"] == DiceSet.default().colors["blue"]
    with pytest.raises(DiceSetError, match="no reference colour for 'gold'"):
        mine.restricted(["red", "gold"])
    assert mine.restricted([]) is mine


def test_reader_names_only_the_set_in_play():
    from zonkcam.vision.read import Reader
    from zonkcam.vision.sim.drawn import render_scene

    reader = Reader(dice_colors=("red", "white"))
    assert list(reader.dice_set.colors) == ["red", "white"]
    image, _ = render_scene(np.random.default_rng(3), 480, 360, n=6,
                            colors=("red", "white", "blue", "yellow"))
    assert {d.color for d in reader.read(image).dice} <= {"red", "white", None}
    assert reader.use_colors(("green", "gold")) == ["gold"]  # no reference: left out, said so
    assert list(reader.dice_set.colors) == ["green"]
    reader.use_colors(())
    assert list(reader.dice_set.colors) == list(DEFAULT_RGB)


def test_eval_breaks_down_by_colour_where_labels_have_colours(tmp_path):
    from zonkcam.vision import evaluate
    from zonkcam.vision.dice import Die

    path = tmp_path / "colors.csv"
    path.write_text("# a comment\nimage,line,color\na,0,red\na,1,Blue\na,2,red\n")
    colors = evaluate.load_colors(path)
    assert colors == {("a", 0): "red", ("a", 1): "blue", ("a", 2): "red"}
    labels = np.array([[1, 0.1, 0.1, 0.1, 0.1], [2, 0.5, 0.5, 0.1, 0.1], [3, 0.9, 0.9, 0.1, 0.1]],
                      np.float32)
    dice = [Die(1, "red", 0.9, 0.9, (5, 5, 15, 15), (10, 10), 0.0),  # found, named right
            Die(2, None, 0.9, 0.0, (45, 45, 55, 55), (50, 50), 0.0)]  # found, colour unreadable
    tally = evaluate.Tally()
    tally.add(dice, labels, 100, 100, [colors.get(("a", i)) for i in range(3)])
    s = tally.summary()
    assert s["by_color"] == {"blue": {"labels": 1, "recall": 1.0, "color_accuracy": 0.0},
                             "red": {"labels": 2, "recall": 0.5, "color_accuracy": 1.0}}
    assert "by colour" in evaluate.format_summary(s)
    (tmp_path / "bad.csv").write_text("image,line,color\na,x,red\n")
    with pytest.raises(ValueError, match="not a colour-labels file"):
        evaluate.load_colors(tmp_path / "bad.csv")
    (tmp_path / "headless.csv").write_text("a,0,red\n")
    with pytest.raises(ValueError, match="no header line"):
        evaluate.load_colors(tmp_path / "headless.csv")
    with pytest.raises(ValueError, match="cannot read colour labels"):
        evaluate.load_colors(tmp_path / "missing.csv")


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 700), st.floats(0, 1), st.integers(0, 2**32 - 1))
def test_the_fast_medians_and_quantile_are_numpys(n, q, seed):
    """The body's medians and its share's cut-off, by partitions, are numpy's to the bit."""
    rng = np.random.default_rng(seed)
    labs = rng.uniform(0, 255, (n, 3)).astype(np.float32)
    labs[rng.random(n) < 0.3] = labs[0]  # ties, as flat faces have
    assert np.array_equal(_column_medians(labs), np.median(labs, axis=0))
    assert _quantile(labs[:, 0], q) == np.quantile(labs[:, 0], q)


@pytest.mark.parametrize("seed", range(8))
def test_white_balance_takes_the_brightest_hundredth_as_before(seed):
    """The gains found by counting the channels' sums are those of a partition of them."""
    rng = np.random.default_rng(seed)
    h, w = rng.integers(3, 500, 2)
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    img[: h // 3] = rng.integers(180, 256, 3, dtype=np.uint8)  # a lit patch: many equal sums
    px = thumbnail(img, WB_SIDE).reshape(-1, 3).astype(np.float32)
    lum = px[:, 0] + px[:, 1] + px[:, 2]
    k = int(0.99 * (len(lum) - 1))
    top = px[lum >= np.partition(lum, k)[k]].mean(0) + 1.0
    assert np.array_equal(white_balance_gains(img), np.clip(top.max() / top, 0.8, 1.25))
