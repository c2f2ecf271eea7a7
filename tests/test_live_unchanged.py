"""Picture checks between settles (`vision.unchanged`): is a die still where it lay, and is it the
die that lay there?"""
import numpy as np
from overhead_helpers import SIDE, put, table
from test_live_stream import frame
from zonkcam.vision.dice import Die
from zonkcam.vision.unchanged import Look, unchanged


def test_unchanged_tells_a_die_from_bare_table_under_changing_light():
    box = (142, 82, 178, 118)
    assert unchanged(frame(0), frame(1, gain=1.2), box)
    assert not unchanged(frame(0), frame(1, dice=((60, 60),)), box)
    assert not unchanged(frame(0), frame(1), (238, 0, 240, 2))  # too small to tell


def test_unchanged_holds_for_a_table_nudged_a_few_pixels_not_for_a_die_pushed():
    box = (142, 82, 178, 118)
    nudged = np.roll(frame(1), (-3, 4), axis=(0, 1))  # the whole table, 3 px up and 4 right
    assert unchanged(frame(0), nudged, box)
    pushed = frame(1, dice=((60, 60), (160 + 14, 100)))  # the die pushed 0.4 of its size
    assert not unchanged(frame(0), pushed, box)


def one_die(seed: int, x: float = 100, y: float = 100, angle: float = 20.0,
            gain: float = 1.0) -> np.ndarray:
    image = table(200, 200)
    put(image, x, y, angle)
    noise = np.random.default_rng(seed).normal(0, 3, image.shape)
    return np.clip(image * gain + noise, 0, 255).astype(np.uint8)


def lying(x: float = 100, y: float = 100, angle: float = 20.0) -> Die:
    # the reader's turn is the drawing's, the other way round (y points down)
    return Die(1, "white", 0.9, 0.9, (0, 0, 0, 0), (x, y), -angle)


def test_a_die_is_seen_again_where_it_lay_under_other_light_and_noise():
    look = Look.of(one_die(0), lying(), SIDE)
    assert look is not None
    assert look.seen_at(one_die(1), (100, 100))
    assert look.seen_at(one_die(1, gain=1.2), (100, 100))
    # where the die is now read, a table nudged 5 px with it
    assert look.seen_at(one_die(1, x=105), (105, 100))


def test_a_one_thrown_back_by_its_place_turned_a_little_is_another_die():
    # seed 13009: a red one picked up, thrown, landed 3 px from where it lay, turned 12°; its
    # face alone (one pip in the middle) looks the same, its edges do not
    look = Look.of(one_die(0), lying(), SIDE)
    assert look is not None
    assert not look.seen_at(one_die(1, x=102, y=101, angle=32.0), (102, 101))
    assert not look.seen_at(one_die(1, angle=25.0), (100, 100))


def test_a_die_is_seen_again_when_a_die_lands_touching_it():
    # its look is its own square: the table round it is not compared
    look = Look.of(one_die(0), lying(), SIDE)
    image = one_die(1)
    put(image, 100 + 40, 100 + 6, -10)
    assert look is not None and look.seen_at(image, (100, 100))


def test_a_die_at_the_frames_edge_has_no_look():
    assert Look.of(one_die(0, x=10), lying(x=10), SIDE) is None


def test_the_stream_asks_a_picked_up_die_as_it_looked_when_last_read():
    # seed 13009: every die picked up at one settle, one thrown back by its place at the next
    from test_live_stream import Unused
    from zonkcam.vision.stream import ThrowStream

    stream = ThrowStream(Unused(), dice_count=1)
    stream._side = SIDE  # as a settle of three or more dice measured it
    one = lying()
    stream._settled = (one_die(0), [one])
    stream.tracker.settle([one], rolled=True)
    stream._remember([one])
    stream._settled = (table(200, 200), [])  # picked up: the table bare
    assert stream.tracker.settle([], rolled=False).kind == "pickup"
    stream._remember([])
    landed = lying(102, 101, angle=32.0)
    stream._settled = (one_die(1, x=102, y=101, angle=32.0), [landed])
    assert not stream._alike(one, landed)
    stream._settled = (one_die(1), [one])  # a hand had hidden it: uncovered, as it was
    assert stream._alike(one, one)
