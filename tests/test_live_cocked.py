"""Cocked dice seen from above: the top face is shortened and a darker side shows."""
import cv2
import numpy as np
import pytest
from zonkcam.vision.cocked import mark_cocked, top_face_ratio
from zonkcam.vision.dice import Die

SIDE = 36


def table(w: int = 240, h: int = 200) -> np.ndarray:
    rng = np.random.default_rng(0)
    felt = np.full((h, w, 3), (40, 110, 40), np.float32) + rng.normal(0, 4, (h, w, 1))
    return np.clip(felt, 0, 255).astype(np.uint8)


def put(image: np.ndarray, cx: float, cy: float, angle: float, lean: float = 0.0) -> None:
    """A white die at (cx, cy) turned by `angle`; leaning by `lean` degrees, its top face is
    shortened by cos(lean) and a grey side of sin(lean) shows below it."""
    top = round(SIDE * np.cos(np.radians(lean)))
    side = round(SIDE * np.sin(np.radians(lean)))
    sprite = np.full((top + side, SIDE, 3), 235, np.uint8)
    sprite[top:] = 140
    cv2.circle(sprite, (SIDE // 2, top // 2), 4, (20, 20, 20), -1)
    h = sprite.shape[0]
    m = cv2.getRotationMatrix2D((SIDE / 2, h / 2), angle, 1.0)
    m[:, 2] += (cx - SIDE / 2, cy - h / 2)
    size = image.shape[1::-1]
    warped = cv2.warpAffine(sprite, m, size)
    mask = cv2.warpAffine(np.full(sprite.shape[:2], 255, np.uint8), m, size)
    image[mask > 127] = warped[mask > 127]


def die(cx: float, cy: float, value: int = 1) -> Die:
    half = SIDE * 0.7
    return Die(value, "white", 0.9, 0.9, (round(cx - half), round(cy - half),
               round(cx + half), round(cy + half)), (cx, cy), 0.0, "ok")


@pytest.mark.parametrize("angle", [0, 25, 70])
def test_a_die_lying_flat_has_a_square_top(angle):
    image = table()
    put(image, 120, 100, angle)
    assert top_face_ratio(image, (120, 100), SIDE) == 1.0
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


@pytest.mark.parametrize("angle", [0, 25, 70, 160])
@pytest.mark.parametrize("lean", [35, 50])
def test_a_leaning_die_is_marked_cocked_without_a_value(angle, lean):
    image = table()
    put(image, 120, 100, angle, lean)
    ratio = top_face_ratio(image, (120, 100), SIDE)
    assert ratio == pytest.approx(np.cos(np.radians(lean)), abs=0.12)
    [marked] = mark_cocked(image, [die(120, 100)], SIDE)
    assert marked.status == "cocked" and marked.value is None


def test_a_big_die_in_a_camera_still_is_judged_alike():
    # a die 108 px across: the window is area-averaged down (`faces.patch_at`), not sampled
    image = table()
    put(image, 80, 100, 20)
    put(image, 170, 100, 20, lean=45)
    big = cv2.resize(image, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
    marked = mark_cocked(big, [die(240, 300), die(510, 300)], 3 * SIDE)
    assert [d.status for d in marked] == ["ok", "cocked"]


def test_a_flat_die_beside_its_own_shadow_is_not_cocked():
    image = table()
    shadow = image[100 - SIDE // 2 + 4:100 + SIDE // 2 + 16, 120 - SIDE // 2 + 4:120 + SIDE // 2 + 4]
    shadow[:] = shadow // 2  # a lamp low on one side: the felt, darker
    put(image, 120, 100, 0)
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


def test_two_touching_flat_dice_are_not_one_cocked_die():
    image = table()
    put(image, 100, 100, 0)
    put(image, 100 + SIDE, 100, 0)
    marked = mark_cocked(image, [die(100, 100), die(100 + SIDE, 100, 2)], SIDE)
    assert [d.status for d in marked] == ["ok", "ok"]


def test_a_cocked_die_touching_a_flat_one_is_told_apart():
    image = table()
    put(image, 100, 100, 0, lean=45)
    put(image, 100 + SIDE, 100, 0)
    marked = mark_cocked(image, [die(100, 100), die(100 + SIDE, 100, 2)], SIDE)
    assert [d.status for d in marked] == ["cocked", "ok"]


def test_a_die_the_table_hides_is_left_alone():
    image = np.full((200, 240, 3), 235, np.uint8)  # a white die on white paper: nothing shows
    put(image, 120, 100, 0, lean=45)
    assert mark_cocked(image, [die(120, 100)], SIDE)[0].status == "ok"


def test_the_stream_reports_cocked_dice_the_recognizer_reads_as_values():
    """Simulated throws each resting one die against the wall, read by the shipped model
    (which has no cocked class): the stream's look at the top face flags them."""
    from zonkcam.vision.read import Reader
    from zonkcam.vision.simulate import SimConfig, Simulation
    from zonkcam.vision.simulate_eval import score
    from zonkcam.vision.stream import ThrowStream
    from zonkcam.vision.table import TableConfig

    config = SimConfig(seed=101, throws=3, p_off_table=0, p_cocked=1.0, p_stacked=0,
                       p_disturbance=0, p_nudge=0)
    sim = Simulation(config)
    region = sim.truth["table"]
    table = TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])
    stream = ThrowStream(Reader(), table, dice_count=config.dice)
    events = [e for t, f in sim.frames() if (e := stream.feed(f, t))]
    result = score(events, sim.truth)
    assert result.exact == result.throws == 3, result.misses
    assert [e.flags for e in events] == [["cocked"]] * 3
