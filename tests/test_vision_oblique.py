"""Dice seen at a slant (issue 36, item 3): the top face is read, not a side (`vision.sides`).
Drawn by benchmarks/oblique_eval.py (a cube per die, seen by a camera tilted 45 degrees)."""
from __future__ import annotations

import benchmark_scripts
import numpy as np
import pytest
from zonkcam.vision import sides


@pytest.fixture(scope="module")
def oblique():
    return benchmark_scripts.load("oblique_eval")


# one die at 45 degrees whose side the shipped reader read before: (seed, top, the side read)
SLANTED = [(66, 2, 6), (130, 2, 4), (145, 6, 2), (107, 5, 1)]


@pytest.mark.parametrize(("seed", "top", "side"), SLANTED)
def test_a_die_at_a_slant_is_read_at_its_top_face(oblique, reader, seed, top, side):
    image, seen = oblique.render(np.random.default_rng(seed), n=1, tilt=45)
    assert [s.value for s in seen] == [top] and side in [v for v, _ in seen[0].sides]
    dice = reader.read(image).dice
    assert [d.value for d in dice] == [top]
    x0, y0, x1, y1 = seen[0].box
    assert x0 <= dice[0].center[0] <= x1 and y0 <= dice[0].center[1] <= y1


def test_a_side_is_a_darker_shade_of_its_top():
    white, grey, red, dark_red = ([230, 0, 0], [150, 2, -1], [110, 120, 40], [70, 75, 30])
    assert sides.shade_of(np.array(grey), np.array(white))
    assert sides.shade_of(np.array(dark_red), np.array(red))
    assert not sides.shade_of(np.array(white), np.array(grey))  # lighter below: no side
    assert not sides.shade_of(np.array(grey), np.array(red))  # another colour: another die
    assert not sides.shade_of(np.array([60, -40, 60]), np.array(red))  # green under red
