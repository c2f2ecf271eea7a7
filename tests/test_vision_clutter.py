"""Clutter is not a die (issue 36, item 5): a doubtful die that a turn of its crop shows is "not a
pip die" joins the rejected candidates (`vision.turned`). Pictures drawn by
benchmarks/clutter_eval.py: two drawn dice on a 640x480 table beside a badge, a pencil or
printed words that the shipped reader took for dice before."""
from __future__ import annotations

import benchmark_scripts
import numpy as np
import pytest
from zonkcam.vision import turned
from zonkcam.vision.evaluate import match
from zonkcam.vision.read import Reader


@pytest.fixture(scope="module")
def clutter():
    return benchmark_scripts.load("clutter_eval")


# (seed, clutter kind): pictures where the reader without the check reported a phantom die
PHANTOMS = [(21, "logo"), (39, "pen"), (43, "text"), (62, "pen")]


@pytest.mark.parametrize(("seed", "kind"), PHANTOMS)
def test_clutter_read_doubtfully_is_rejected_not_a_die(clutter, reader, seed, kind):
    image, labels = clutter.render(np.random.default_rng(seed), kind, "webcam", None, n=2)
    h, w = image.shape[:2]
    boxes = labels[:, 1:] * np.array([w, h, w, h], np.float32)
    reading = reader.read(image)
    pairs, _ = match(reading.dice, boxes)
    assert len(reading.dice) == len(pairs) == 2  # the two dice, nothing else
    assert sorted(d.value for d, _ in pairs) == sorted(int(v) for v in labels[:, 0])

    reader.every_side = False  # as before: the clutter is reported as a die
    try:
        before = reader.read(image)
    finally:
        reader.every_side = True
    assert len(before.dice) > 2
    # what was a phantom die is a rejected candidate now (kept for the teaching review)
    gone = [d for d in before.dice if all(d.center != e.center for e in reading.dice)]
    assert gone and all(any(d.center == r.center and r.value is None for r in reading.rejected)
                        for d in gone)


def test_views_are_the_eight_turns_and_mirrors():
    crop = np.arange(16, dtype=np.float32).reshape(4, 4)
    views = turned.views(crop)
    assert views.shape == (8, 4, 4)
    assert len({v.tobytes() for v in views}) == 8
    assert (views[0] == crop).all() and (views[1] == crop.T).all()


def test_the_overhead_reader_leaves_it_to_its_own_checks():
    assert not Reader(overhead=True).every_side and Reader().every_side


def test_the_pass_log_sees_each_die_through_the_second_look(clutter, reader):
    image, _ = clutter.render(np.random.default_rng(21), "logo", "webcam", None, n=2)
    log = clutter.PassLog()
    try:
        reading = reader.read(image)
    finally:
        log.close()
    from zonkcam.vision import second_look

    assert second_look.second_look is log.inner  # put back
    assert reading.dice and all(log.of(d.center, 40.0) in ("first", "better", "second") for d in reading.dice)
