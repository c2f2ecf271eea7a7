"""`find_table` at every frame size: a thin rim or a slanted mat edge, shrunk to the search's
240 px, once let the fill run into the table round the tray with no warning (a region over the
tray and the table: dice off the tray not SPAZ). Cases are simulated frames where it did."""
import cv2
import numpy as np
import pytest
from zonkcam.vision.sim.simulator import SimConfig, Simulation, unkind
from zonkcam.vision.table import find_table, found_margin, region_warnings, widened

SIZES = {"1280x720": (1280, 720, 56), "1920x1080": (1920, 1080, 80)}


def iou(a, b, w, h):
    ma, mb = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    cv2.fillPoly(ma, [np.int32(a)], 1)
    cv2.fillPoly(mb, [np.int32(b)], 1)
    return (ma & mb).sum() / (ma | mb).sum()


def first_frame(seed, surface, w=640, h=480, die=34, noise=0.0):
    config = SimConfig(seed=seed, throws=1, width=w, height=h, die_px=die, surface=surface)
    sim = Simulation(unkind(config) if surface == "dark" else config)
    frame = next(iter(sim.frames()))[1]
    if noise:  # a camera's noise at a high gain
        frame = np.clip(frame + np.random.default_rng(seed).normal(0, noise, frame.shape), 0, 255)
    return frame.astype(np.uint8), sim.truth["table"]["polygon"]


@pytest.mark.parametrize(("seed", "surface", "size"), [
    (82001, "dark", "1280x720"),  # a thin black rim between a dark floor and a dark table
    (82007, "dark", "1280x720"),
    (82003, "tray", "1920x1080"),
    (82009, "mat", "1280x720"),  # a mat's slanted edge: a ramp of blended pixels
    (82000, "mat", "1920x1080"),
])
def test_the_floor_is_found_in_a_big_frame_not_the_table_round_it(seed, surface, size):
    w, h, die = SIZES[size]
    frame, truth = first_frame(seed, surface, w, h, die)
    found = find_table(frame)
    assert iou(found, truth, w, h) > 0.95
    assert region_warnings(found, (w, h), frame) == []


@pytest.mark.parametrize("seed", [82002, 82006])
def test_a_noisy_dark_tray_at_640x480_is_found_whole(seed):
    frame, truth = first_frame(seed, "dark", noise=10)
    found = find_table(frame)
    assert iou(found, truth, 640, 480) > 0.95
    assert region_warnings(found, (640, 480), frame) == []


def test_a_found_region_widened_moves_each_edge_outward_and_stays_in_the_frame():
    # the stream widens the region it finds by one search cell (640 / FILL_WIDTH px)
    cell = found_margin((640, 480))
    square = [(100, 100), (300, 100), (300, 300), (100, 300)]
    for polygon in (square, square[::-1]):
        got = widened(polygon, (640, 480))
        assert sorted(got) == sorted((x + round(cell) * (1 if x > 200 else -1),
                                      y + round(cell) * (1 if y > 200 else -1))
                                     for x, y in polygon)
    frame = [(0, 0), (639, 0), (639, 479), (0, 479)]
    assert widened(frame, (640, 480)) == frame
