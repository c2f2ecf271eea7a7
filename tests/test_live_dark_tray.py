"""Dice on a dark tray (issue 34): a grey die differs from a black floor in lightness alone,
and a real die's face darkens toward its edges. The cocked test must see a leaning die's top
face and side whole, and a flat die whose face is shaded is no leaning die."""
import cv2
import numpy as np
import pytest
from overhead_helpers import SIDE, die, paste_turned, put
from zonkcam.vision.cocked import LEAST_TOP, SHORT_TOP, mark_cocked, top_face_ratio
from zonkcam.vision.silhouette import silhouette

FLOOR = (40, 38, 36)  # BGR: a black tray's floor under a lamp


def dark_tray(w: int = 240, h: int = 200) -> np.ndarray:
    rng = np.random.default_rng(0)
    floor = np.full((h, w, 3), FLOOR, np.float32) + rng.normal(0, 2, (h, w, 1))
    return np.clip(floor, 0, 255).astype(np.uint8)


def shaded_die(image: np.ndarray, cx: float, cy: float, angle: float, body: int = 110,
               lit: int = 25) -> None:
    """A flat grey die with three white pips, its face `lit` greys lighter over a third of
    it at one end, and its rounded edges along the two sides beside that dark (of the
    floor's grey), as a photo of a real die lit from one side shows it."""
    sprite = np.full((SIDE, SIDE, 3), body, np.float32)
    sprite[:SIDE // 3] += lit
    rim = round(0.12 * SIDE)
    sprite[:, :rim] = sprite[:, -rim:] = FLOOR
    for k in (0.25, 0.5, 0.75):
        cv2.circle(sprite, (round(k * SIDE), round(k * SIDE)), SIDE // 8, (230, 230, 230), -1)
    paste_turned(image, sprite.astype(np.uint8), cx, cy, angle)


@pytest.mark.parametrize("angle", [0, 25, 70])
@pytest.mark.parametrize("body", [90, 130])
def test_a_grey_die_leaning_on_a_dark_floor_is_cocked(angle, body):
    # its top face stands out from the floor less than the colour test asked, and its side,
    # 0.6 of the face's grey, hardly at all: both are lighter than the floor
    image = dark_tray()
    put(image, 120, 100, angle, lean=40, body=body)
    ratio = top_face_ratio(image, (120, 100), SIDE)
    assert ratio is not None and LEAST_TOP <= ratio <= SHORT_TOP, ratio
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "cocked"


@pytest.mark.parametrize("angle", [0, 25, 70])
@pytest.mark.parametrize("body", [90, 130])
def test_a_grey_die_lying_flat_on_a_dark_floor_is_found_whole_and_not_cocked(angle, body):
    image = dark_tray()
    put(image, 120, 100, angle, body=body)
    found = silhouette(image, (120, 100), SIDE, lighter=True)
    assert found is not None and found.area == pytest.approx(1.0, abs=0.2)
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


@pytest.mark.parametrize("angle", [0, 20, 45])
def test_a_flat_die_whose_face_darkens_to_one_edge_is_not_cocked(angle):
    # the step from the lit third to the rest is no side: a top face with its side beside it
    # is longer than a die
    image = dark_tray()
    shaded_die(image, 120, 100, angle)
    ratio = top_face_ratio(image, (120, 100), SIDE)
    assert ratio is None or not LEAST_TOP <= ratio <= SHORT_TOP, ratio
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


@pytest.mark.parametrize("body", [90, 130])
def test_a_grey_die_against_a_lit_wall_is_found_apart_from_it(body):
    # the wall's top catches the lamp: lighter than the floor, as the die is; the die is what
    # stands out inside the patch, the wall reaches its border
    image = dark_tray()
    image[:, :100] = (70, 70, 76)
    put(image, 100 + SIDE / 2 + 2, 100, 0, body=body)
    found = silhouette(image, (100 + SIDE / 2 + 2, 100), SIDE, lighter=True)
    assert found is not None and found.area == pytest.approx(1.0, abs=0.2)
    x, _ = found.centroid()
    assert abs(x - (100 + SIDE / 2 + 2)) < 0.15 * SIDE


def dark_face_in_light_corners(image: np.ndarray, cx: float, cy: float, angle: float) -> None:
    """A black die lying flat as a real one's photo shows it: its face round, darkening from
    the floor's grey plus 30 at one edge to the floor's own at the other, a white pip at its
    middle, and the lighter rounded corners of its body round the face."""
    sprite = np.full((SIDE, SIDE, 3), 140, np.float32)
    face = np.zeros((SIDE, SIDE), np.uint8)
    cv2.circle(face, (SIDE // 2, SIDE // 2), round(0.56 * SIDE), 1, -1)
    grey = np.linspace(FLOOR[0] + 30, FLOOR[0], SIDE, dtype=np.float32)[:, None]
    sprite[face > 0] = np.repeat(np.broadcast_to(grey, (SIDE, SIDE))[..., None], 3, 2)[face > 0]
    cv2.circle(sprite, (SIDE // 2, SIDE // 2), SIDE // 9, (230, 230, 230), -1)
    paste_turned(image, sprite.astype(np.uint8), cx, cy, angle)


@pytest.mark.parametrize("angle", [0, 20, 63])
def test_a_black_die_in_pieces_on_a_black_floor_lying_flat_is_not_cocked(angle):
    # the face's lit part alone stands out as one piece, narrower than a die: it passed for
    # a leaning die's top face whose side the floor swallows (seeds 63022, 63037, a black
    # one); the corners round it are the rest of the same die, a square
    image = dark_tray()
    dark_face_in_light_corners(image, 120, 100, angle)
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


@pytest.mark.parametrize("angle", [0, 25, 70])
def test_a_black_die_leaning_whose_side_shows_its_pips_alone_is_cocked(angle):
    # the side, as dark as the floor, shows only its pips: joined to the die as pieces of it
    # (as a flat die's corners are, above), the die is still long, its top face short
    image = dark_tray()
    sprite_top, lean = round(SIDE * np.cos(np.radians(40))), round(SIDE * np.sin(np.radians(40)))
    sprite = np.full((sprite_top + lean, SIDE, 3), FLOOR[0] + 25, np.uint8)
    sprite[sprite_top:] = FLOOR
    for x in (0.3, 0.7):
        cv2.circle(sprite, (round(x * SIDE), sprite_top + lean // 2), 3, (150, 150, 150), -1)
    cv2.circle(sprite, (SIDE // 2, sprite_top // 2), 4, (230, 230, 230), -1)
    paste_turned(image, sprite, 120, 100, angle)
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "cocked"



def test_the_floors_lighter_grain_beside_a_die_is_no_piece_of_it():
    # seed 63012, throw 5: a white one by a tray's wall, where the floor beyond the wall's
    # shaded strip is some greys lighter than the strip the patch's border runs along: specks
    # of its grain stood out by lightness beside the die, and with them the die was long,
    # its top face short: cocked. Pieces of a die (a pip, a lit corner) are far lighter.
    from zonkcam.vision.faces import PATCH
    from zonkcam.vision.silhouette import _table_lightness, _with_pieces

    def pieces(patch):
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)[..., 0]
        return _with_pieces(die_mask, raw, side, grey, _table_lightness(grey))

    patch = np.full((PATCH, PATCH, 3), 40, np.uint8)
    side = 26.0
    die_mask = np.zeros((PATCH, PATCH), np.uint8)
    die_mask[19:45, 19:45] = 1
    patch[die_mask > 0] = 220
    raw = die_mask.copy()
    for y, x in ((10, 20), (10, 30), (12, 40), (50, 22), (50, 34)):  # specks 3 by 3
        raw[y:y + 3, x:x + 3] = 1
        patch[y:y + 3, x:x + 3] = 56  # 16 lighter than the floor
    hull = pieces(patch)
    assert cv2.contourArea(hull) == pytest.approx(25 * 25, rel=0.05)
    patch[10:13, 20:23] = 150  # a pip of a leaning die's side: a piece of the die
    assert cv2.contourArea(pieces(patch)) > 27 * 25


def test_a_flat_die_by_floor_a_lamp_lights_more_than_round_it_is_not_cocked():
    # where a lamp lights the black floor by a die a few greys lighter than at the border of
    # the square looked at, the grain's lighter specks were joined to the die lying flat: its
    # silhouette long, its face short, called cocked (found 67004, 67018: a white five)
    calls = []
    for seed in range(8):
        noise = np.random.default_rng(seed).normal(0, 4, (200, 240))
        grey = np.full((200, 240), 20.0) + noise
        grey[55:88, 90:150] += 8  # lit above the die
        image = np.clip(np.repeat(grey[..., None], 3, axis=2), 0, 255).astype(np.uint8)
        put(image, 120, 100, 0, body=200)
        calls += [top_face_ratio(image, (120 + dx, 100), side)
                  for dx in (-1, 0, 1) for side in (SIDE - 1, SIDE, SIDE + 1)]
    cocked = [r for r in calls if r is not None and LEAST_TOP <= r <= SHORT_TOP]
    assert cocked == [], cocked


def leaning_black_die(image: np.ndarray, cx: float, cy: float, angle: float) -> None:
    """A black die leaning 40° as a real one's photo shows it: its top face lighter than the
    floor within a rim of the floor's grey, three white pips, over a side of the floor's
    grey that shows only the lone pip of a one at its middle."""
    top, lean = round(SIDE * np.cos(np.radians(40))), round(SIDE * np.sin(np.radians(40)))
    sprite = np.full((top + lean, SIDE, 3), FLOOR, np.uint8)
    rim = round(0.12 * SIDE)
    sprite[rim:top - rim, rim:-rim] = FLOOR[0] + 30
    for k in (0.3, 0.5, 0.7):
        cv2.circle(sprite, (round(k * SIDE), round(k * top)), 2, (200, 200, 200), -1)
    cv2.circle(sprite, (SIDE // 2, top + lean // 2), 2, (120, 120, 120), -1)
    paste_turned(image, sprite, cx, cy, angle)


@pytest.mark.parametrize("angle", [0, 30, 75])
def test_a_black_die_leaning_whose_side_shows_a_lone_pip_is_cocked(angle):
    # issue 34, 71011 t6: the top face alone stood out, a step of its shading taken for its
    # side, and it read flat; the side's pip, past `PIECE_REACH` of the face, was left out
    image = dark_tray()
    leaning_black_die(image, 120, 100, angle)
    at = (120 - np.sin(np.radians(angle)) * SIDE * 0.32, 100 - np.cos(np.radians(angle)) * SIDE * 0.32)
    assert mark_cocked(image, [die(*at)], SIDE)[0].status == "cocked"


def white_die_by_lit_floor(seed: int, angle: float) -> np.ndarray:
    """A white three lying flat on a black floor, its face's edge away from the lamp a grey
    band (a real die's rounded edge), and past that edge the floor lit some greys lighter
    than at the border of the square looked at, over a die's length."""
    rng = np.random.default_rng(seed)
    grey = np.full((200, 240), 36.0) + rng.normal(0, 3, (200, 240))
    t = np.radians(angle)
    ys, xs = np.mgrid[:200, :240] - np.array([100, 120])[:, None, None]
    along, across = xs * np.sin(t) + ys * np.cos(t), xs * np.cos(t) - ys * np.sin(t)
    grey[(along > 0) & (along < 0.95 * SIDE) & (np.abs(across) < SIDE / 2)] += 13
    image = np.clip(np.repeat(grey[..., None], 3, axis=2), 0, 255).astype(np.uint8)
    sprite = np.full((SIDE, SIDE, 3), 200, np.uint8)
    sprite[-round(0.22 * SIDE):] = 85
    for k in (0.3, 0.5, 0.7):
        cv2.circle(sprite, (round(k * SIDE), round(0.75 * k * SIDE)), 3, (30, 30, 30), -1)
    paste_turned(image, sprite, 120, 100, angle)
    return image


@pytest.mark.parametrize("angle", [0, 20, 45, 70])
def test_a_white_die_lying_flat_by_floor_lit_past_its_shaded_edge_is_not_cocked(angle):
    # issue 34, 78015 t4: the lit floor's grain joined the die's grey edge, the silhouette
    # was long and the face above the edge short: called cocked. A side is the face's colour
    # in shadow; that floor is under a third of the face's lightness.
    for seed in range(3):
        image = white_die_by_lit_floor(seed, angle)
        ratio = top_face_ratio(image, (120, 100), SIDE)
        assert ratio is None or not LEAST_TOP <= ratio <= SHORT_TOP, (seed, ratio)
        assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


def fading_two(image: np.ndarray, cx: float, cy: float, angle: float, face: int,
               fade: float = 0.35) -> None:
    """A dark grey two lying flat as a real die's photo under a lamp to one side shows it:
    its face lit along one edge and darkening over `fade` of it to the floor's grey at the
    other, so that only its lit part stands out from the floor."""
    x = (np.arange(SIDE) + 0.5) / SIDE
    grey = np.where(x > 1 - fade, face - (face - FLOOR[0]) * (x - (1 - fade)) / fade, face)
    grey = np.where(x < 0.12, face + 14, grey)
    sprite = np.repeat(np.repeat(grey[None, :, None], SIDE, 0), 3, 2).astype(np.float32)
    for k in (0.3, 0.7):
        cv2.circle(sprite, (round(k * SIDE), round(k * SIDE)), 3, (150, 150, 150), -1)
    paste_turned(image, np.clip(sprite, 0, 255).astype(np.uint8), cx, cy, angle)


@pytest.mark.parametrize("angle", [10, 20, 45, 70])
@pytest.mark.parametrize("face", [50, 56])
def test_a_dark_die_lying_flat_whose_shaded_part_merges_with_the_floor_is_not_cocked(angle, face):
    # issue 34, 81018 t2 and 82018 t7: a dark two's lit part alone stood out, a die long and
    # 0.76-0.85 of one wide with no side seen, and passed for a leaning die's top face whose
    # side the floor swallows
    image = dark_tray()
    fading_two(image, 120, 100, angle, face)
    ratio = top_face_ratio(image, (120, 100), SIDE)
    assert ratio is None or not LEAST_TOP <= ratio <= SHORT_TOP, ratio
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


def lit_dark_tray(gain: float) -> np.ndarray:
    """`dark_tray`'s floor lit `gain` times (a lamp's end of it, the room's light turned up)."""
    rng = np.random.default_rng(0)
    floor = np.full((200, 240, 3), FLOOR, np.float32) * gain + rng.normal(0, 2, (200, 240, 1))
    return np.clip(floor, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("angle", [0, 25, 70, 78])
def test_a_grey_die_shaded_at_one_edge_on_a_dark_floor_lit_past_48_is_not_cocked(angle):
    # issue 34 round 32 (84009 t5): a grey two lying flat, its face darker at one edge, on
    # the tray's floor lit to Lab 48 where the lamp and the room's light met: the colour test
    # left the shaded part out (38 greys over the floor, under its bar of 40), and the lit
    # part alone, a die long and 0.81 wide, passed for a leaning die's top face
    image = lit_dark_tray(1.3)  # Lab lightness 52
    sprite = np.full((SIDE, SIDE, 3), 130, np.float32)
    sprite[SIDE - round(0.35 * SIDE):] *= 0.65
    for k in (0.3, 0.7):
        cv2.circle(sprite, (round(k * SIDE), round(k * SIDE)), SIDE // 8, (235, 235, 235), -1)
    paste_turned(image, sprite.astype(np.uint8), 120, 100, angle)
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"
    leaning = lit_dark_tray(1.3)
    put(leaning, 120, 100, angle, lean=40, body=130)
    assert mark_cocked(leaning, [die(120, 100)], SIDE)[0].status == "cocked"
