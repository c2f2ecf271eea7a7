"""The default palette, for sets without a dice-set file (issue 36 item 4, colour round 2): dark
dice that keep their hue are named by it (navy and slate blue, plum, a translucent green on a
dark tray), and a clearly coloured body is never black. A calibrated set names as before."""
import numpy as np
import pytest
from zonkcam.vision.colors import (
    BLACK_MAX_CHROMA,
    DiceSet,
    _naming_space,
    body_lab,
    rgb_to_lab,
    white_balance_gains,
)
from zonkcam.vision.faces import patch_at
from zonkcam.vision.sim.colour_dice import DieLook, draw_look
from zonkcam.vision.sim.drawn import background

RED_PIPS = (200, 40, 40)


def named(look: DieLook, table: str, seed: int = 0, size: float = 56) -> list[str | None]:
    """The default palette's names of one die of `look` thrown 6 times (every face) on `table`."""
    rng, palette, out = np.random.default_rng(seed), DiceSet.default(), []
    for value in range(1, 7):
        img = background(rng, 200, 200, table)
        draw_look(img, look, value, 100, 100, size, rng.uniform(0, 90), rng)
        out.append(palette.name_of(body_lab(patch_at(img, 100, 100, size), white_balance_gains(img)))[0])
    return out


@pytest.mark.parametrize("table", ["felt", "paper", "wood", "dark"])
def test_a_navy_die_is_blue_not_unreadable(table):
    # byler's navy dice measure L 31, chroma 50: the dark boost doubled it past every colour
    # (31 of 36 unnamed); its hue is blue's
    assert named(DieLook("blue", (15, 21, 93)), table) == ["blue"] * 6


@pytest.mark.parametrize("table", ["paper", "wood"])
def test_a_dark_slate_blue_die_is_blue_not_black(table):
    # byler's blue dice (cyan swirled with black, red pips) measure as this body: chroma ~19
    assert named(DieLook("blue", (39, 58, 84), pip_rgb=RED_PIPS), table) == ["blue"] * 6


@pytest.mark.parametrize("table", ["felt", "paper", "wood"])
def test_a_dark_plum_die_is_purple_not_black(table):
    look = DieLook("purple", (34, 22, 38), "marbled", swirl_rgb=(120, 100, 130))
    assert named(look, table) == ["purple"] * 6


def test_a_translucent_green_die_on_a_dark_tray_is_green_not_teal():
    # dark and less saturated than the palette's green, but of its hue, not teal's
    assert named(DieLook("green", (30, 170, 70), "translucent"), "dark") == ["green"] * 6


@pytest.mark.parametrize("table", ["felt", "paper", "dark"])
def test_black_dice_stay_black(table):
    for look in (DieLook("black", (35, 35, 38)), DieLook("black", (30, 30, 32), pip_rgb=RED_PIPS)):
        assert named(look, table) == ["black"] * 6


@pytest.mark.parametrize(("lab", "name"), [
    ((61, 129, 110), "blue"),  # byler's blue dice (black-swirled), their median body: chroma 19
    ((31, 154, 85), "blue"),  # byler's navy: chroma 50 at L 31
    ((24, 138, 119), "purple"),  # byler's plum: chroma 14 at L 24
])
def test_a_coloured_body_is_never_black_and_unreadable_where_black_is_all_the_set_has(lab, name):
    body = np.array(lab, np.float32)
    assert np.hypot(body[1] - 128, body[2] - 128) >= BLACK_MAX_CHROMA
    assert DiceSet.default().name_of(body)[0] == name
    assert DiceSet.default().restricted(["black"]).name_of(body) == (None, 0.0)
    assert DiceSet.default().restricted(["black"]).name_of(rgb_to_lab((35, 35, 36)))[0] == "black"


def test_a_calibrated_set_names_in_its_own_space_as_before():
    """Only the default palette (and a game's share of it) names in the palette's space: a
    calibrated set, and its borrowed colours, name by the nearest in `_naming_space`."""
    mine = DiceSet("mine", {"black": (30.0, 128.0, 128.0), "navy": (31.0, 154.0, 85.0),
                            "white": (230.0, 128.0, 128.0)})
    assert not mine.palette and not mine.restricted(["black", "red"]).palette
    assert DiceSet.default().palette and DiceSet.default().restricted(["red"]).palette
    rng = np.random.default_rng(0)
    for lab in rng.uniform([0, 90, 90], [255, 170, 170], (200, 3)).astype(np.float32):
        refs = _naming_space(np.array(list(mine.colors.values()), np.float32))
        dist = np.linalg.norm(refs - _naming_space(lab[None]), axis=1)
        want = list(mine.colors)[int(np.argmin(dist))] if dist.min() <= mine.max_distance else None
        assert mine.name_of(lab)[0] == want


@pytest.mark.parametrize(("name", "rgb", "game"), [
    ("blue", (35, 70, 170), ["red", "green", "purple"]),
    ("purple", (95, 45, 130), ["red", "blue", "white"]),
    ("maroon", (110, 35, 50), ["red", "green", "white"]),
])
@pytest.mark.parametrize("table", ["felt", "dark"])
def test_a_die_of_a_colour_the_game_left_out_is_unreadable_not_its_neighbour(name, rgb, game, table):
    """Issue 36: where no colour of the set fits, the die is unreadable. A blue die in a red,
    green and purple game is within reach of purple, but the palette's blue, left out of the
    game, is far nearer (`OUTSIDE_MARGIN`): it was named purple."""
    game_set = DiceSet.default().restricted(game)
    rng, out = np.random.default_rng(0), []
    for value in range(1, 7):
        img = background(rng, 200, 200, table)
        draw_look(img, DieLook(name, rgb), value, 100, 100, 56, rng.uniform(0, 90), rng)
        out.append(game_set.name_of(body_lab(patch_at(img, 100, 100, 56), white_balance_gains(img)))[0])
    assert out == [None] * 6


def test_a_cream_die_in_a_white_game_is_white_but_an_ivory_one_is_not():
    # byler's cream "white" dice measure b* 133-140; the palette names them ivory, yet within
    # OUTSIDE_MARGIN of white: a red, green and white game takes them as its white
    rgw = DiceSet.default().restricted(["red", "green", "white"])
    assert set(rgw.outside) == set(DiceSet.default().colors) - {"red", "green", "white"}
    for cream in ((194, 126, 136), (180, 127, 139), (231, 125, 137)):
        assert DiceSet.default().name_of(np.array(cream, np.float32))[0] == "ivory"
        assert rgw.name_of(np.array(cream, np.float32))[0] == "white"
    assert rgw.name_of(np.array(DiceSet.default().colors["ivory"], np.float32)) == (None, 0.0)
    assert rgw.name_of(rgb_to_lab((190, 30, 40)))[0] == "red"
