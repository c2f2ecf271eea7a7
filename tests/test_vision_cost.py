"""What a read of a camera still costs, counted, not timed (issue 36: read ÷ decode ≤ 1.0 on an
8 MP still; the timings are benchmarks/read_cost.py's): a zoom past a view that read dice surely
looks only round them, and sees there what the whole view shows."""
from __future__ import annotations

import numpy as np
import pytest
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal, proposer_input
from zonkcam.vision.read import Reader
from zonkcam.vision.regions import joined, regions, strips, view_cells
from zonkcam.vision.sim.drawn import DrawnDie, background, draw_die


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def heap(seed: int, width: int = 3280, height: int = 2464) -> tuple[np.ndarray, list[DrawnDie]]:
    """Five dice ~60 px across in a loose heap on a wooden table (an 8 MP Pi still)."""
    rng = np.random.default_rng(seed)
    image = background(rng, width, height, "wood")
    drawn = [DrawnDie(int(rng.integers(1, 7)), "white", 1500 + 95 * (i % 3) + rng.uniform(-8, 8),
                      1100 + 95 * (i // 3) + rng.uniform(-8, 8), 60, float(rng.uniform(0, 90)))
             for i in range(5)]
    for d in drawn:
        draw_die(image, d)
    return image, drawn


def candidate(cx: float, cy: float, size: float) -> Candidate:
    probs = np.array([0.0, 0.95, 0.05, 0, 0, 0, 0], np.float32)
    empty = np.zeros((1, 1), np.float32)
    return Candidate(Proposal(cx, cy, size, size, 0.9), 0.0, probs, empty, np.ones(3), empty)


def test_the_zoom_of_a_still_whose_dice_were_read_proposes_only_round_them(reader):
    """The 640-px view reads the heap's dice surely at ~12 px, so the 1280-px zoom looks only
    round them: the proposer sees less than a whole 1280-px view in all (0.87 MP; 1.93 before,
    the whole still at 1280 px among them), and all five dice are read."""
    image, drawn = heap(3)
    seen: list[tuple[int, int]] = []
    propose = reader.model.propose

    def counted(grey01: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(grey01.shape)
        return propose(grey01)

    reader.model.propose = counted  # type: ignore[method-assign]
    try:
        dice = reader.read(image).dice
    finally:
        del reader.model.propose
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)
    assert (992, 1280) not in seen  # never the whole still at 1280 px (its padded view)
    assert sum(h * w for h, w in seen) < 992 * 1280, seen


def test_a_region_is_proposed_as_in_the_whole_view(reader):
    """The dice read in the zoom round the 640-px view's dice are the whole 1280-px view's, to
    the sub-pixel, and read alike."""
    image, _ = heap(4)
    first = reader._candidates_at(image, 640, None)
    whole = reader._candidates_at(image, 1280, None)
    near = reader._candidates_at(image, 1280, None, near=first)

    def dice(found: list[Candidate]) -> set[tuple[float, float, int]]:
        return {(round(c.proposal.cx, 2), round(c.proposal.cy, 2), c.value)
                for c in found if not reader.rejects(c)}

    assert dice(near) == dice(whole) and len(dice(near)) >= 5


@pytest.mark.parametrize("size", [(3280, 2464), (4032, 3024), (2464, 3280), (1640, 1232)])
def test_the_cut_view_is_exactly_the_whole_views_cells(size):
    width, height = size
    image = background(np.random.default_rng(1), width, height, "wood")
    whole, _, _ = proposer_input(image, 1280)
    # one region near the top left, one at the bottom right corner (the view's padded edge)
    boxes = [(width // 10, height // 10, width * 3 // 20, height * 3 // 20),
             (width * 17 // 20, height * 17 // 20, width, height)]
    cells = view_cells(image, boxes, 1280)
    assert cells is not None and len(cells) == 2
    for grey01, x0, y0 in cells:
        assert x0 % 32 == 0 and y0 % 32 == 0
        h, w = grey01.shape
        assert np.array_equal(grey01, whole[y0:y0 + h, x0:x0 + w])


def test_a_view_shrunk_in_two_steps_is_not_cut():
    image = np.zeros((3024, 6000, 3), np.uint8)  # 1280 px is under a quarter of it
    assert view_cells(image, [(0, 0, 100, 100)], 1280) is None


def test_regions_join_dice_near_each_other_and_keep_far_ones_apart():
    found = [candidate(1000, 800, 60), candidate(1090, 800, 60), candidate(2500, 2000, 60)]
    boxes = regions(found, 3280, 2464, lambda c: False, 1.5)
    assert boxes == [(880, 680, 1210, 920), (2380, 1880, 2620, 2120)]
    assert joined([(0, 0, 10, 10), (20, 0, 30, 10), (5, 5, 25, 8)]) == [(0, 0, 30, 10)]


def test_strips_start_where_picture_and_view_columns_meet():
    assert strips([(100, 0, 200, 50), (150, 0, 260, 50)], 3280, 1280) == [(96, 288)]
    # 4032 px -> 1280: 63 picture px are 20 view px, and 160 view px a grid step of both
    assert strips([(100, 0, 200, 50)], 4032, 1280) == [(0, 320)]
