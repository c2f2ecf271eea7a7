"""What a read of a camera still costs, counted, not timed (issue 36: read ÷ decode ≤ 1.0 on an
8 MP still; the timings are benchmarks/read_cost.py's): a zoom past a view that read dice surely
looks only round them, and sees there what the whole view shows; the focus leaves a die read
surely alone in its region as read; a big still's views read few rejected candidates again, its
first view none, and its unsure dice none in the colour greys."""
from __future__ import annotations

import cv2
import numpy as np
import pytest
from zonkcam.vision import read as read_module
from zonkcam.vision import scales
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.faces import COLOUR_VIEWS
from zonkcam.vision.proposals import Proposal, proposer_input
from zonkcam.vision.read import Reader
from zonkcam.vision.regions import joined, regions, strips, view_cells
from zonkcam.vision.second_look import SECOND_LOOK_REJECTED_MOST, second_look
from zonkcam.vision.sim.drawn import DrawnDie, background, draw_die
from zonkcam.vision.touching import EXTENT, outline_length, parted


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


def read_counting_views(reader: Reader, image: np.ndarray) -> tuple[list, list[tuple[int, int]]]:
    """The dice `reader` reads in `image`, and the shape of each view its proposer was given."""
    seen: list[tuple[int, int]] = []
    propose = reader.model.propose

    def counted(grey01: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        seen.append(grey01.shape)
        return propose(grey01)

    reader.model.propose = counted  # type: ignore[method-assign]
    try:
        return reader.read(image).dice, seen
    finally:
        del reader.model.propose


def candidate(cx: float, cy: float, size: float, sure: float = 0.95, reject: float = 0.0,
              score: float = 0.9) -> Candidate:
    """A candidate read `sure` as a one (`reject`: as "not a pip die")."""
    probs = np.array([reject, sure, 1 - sure - reject, 0, 0, 0, 0], np.float32)
    empty = np.zeros((1, 1), np.float32)
    return Candidate(Proposal(cx, cy, size, size, score), 0.0, probs, empty, np.ones(3), empty)


def rejected(c: Candidate) -> bool:
    return bool(c.probs[0] >= 0.5)


def unsure(c: Candidate) -> bool:
    return not rejected(c) and c.probs[1:].max() < 0.9


def test_the_zoom_of_a_still_whose_dice_were_read_proposes_only_round_them(reader):
    """The 640-px view reads the heap's dice surely at ~12 px, so the 1280-px zoom looks only
    round them: the proposer sees less than a whole 1280-px view in all (0.87 MP; 1.93 before,
    the whole still at 1280 px among them), and all five dice are read."""
    image, drawn = heap(3)
    dice, seen = read_counting_views(reader, image)
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


# 8 and 12 MP at 1280 px, and 6000 px at 1280 and 8 MP at 640 (under a quarter), are shrunk in
# two steps (bilinear, then area-averaged: `proposals.two_steps`); 1640x1232 in one
@pytest.mark.parametrize("size,side", [((3280, 2464), 1280), ((4032, 3024), 1280),
                                       ((2464, 3280), 1280), ((1640, 1232), 1280),
                                       ((6000, 3024), 1280), ((3280, 2464), 640)])
def test_the_cut_view_is_exactly_the_whole_views_cells(size, side):
    width, height = size
    image = background(np.random.default_rng(1), width, height, "wood")
    whole, _, _ = proposer_input(image, side)
    # one region near the top left, one at the bottom right corner (the view's padded edge)
    boxes = [(width // 10, height // 10, width * 3 // 20, height * 3 // 20),
             (width * 17 // 20, height * 17 // 20, width, height)]
    cells = view_cells(image, boxes, side)
    assert cells is not None and len(cells) == 2
    for grey01, x0, y0 in cells:
        assert x0 % 32 == 0 and y0 % 32 == 0
        h, w = grey01.shape
        assert np.array_equal(grey01, whole[y0:y0 + h, x0:x0 + w])


def test_a_view_over_the_pictures_size_is_not_cut():
    image = np.zeros((480, 640, 3), np.uint8)
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


def test_dice_lying_apart_read_surely_are_not_proposed_again(reader):
    """Six dice ~100 px across lying apart on an 8 MP still, read surely at 320 and 640 px: the
    focus (dice ~20 px at 640, under its 48) proposes none of their regions again: two
    proposals in all, not eight, and all six read."""
    rng = np.random.default_rng(5)
    image = background(rng, 3280, 2464, "felt")
    drawn = [DrawnDie(int(rng.integers(1, 7)), "white", 500 + 1100 * (i % 3), 600 + 1200 * (i // 3),
                      100, float(rng.uniform(0, 90))) for i in range(6)]
    for d in drawn:
        draw_die(image, d)
    dice, seen = read_counting_views(reader, image)
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)
    assert seen == [(256, 320), (512, 640)]


def test_the_focus_leaves_out_a_region_holding_one_die_read_surely():
    """Of four dice 100 px across read at 640 px (~20 px there, under the focus's 48), the two
    far apart and read surely keep their reads; the pair, and the die read unsurely, are
    proposed again (on read_cost's drawn stills no lone die read surely read otherwise there)."""
    found = [candidate(500, 500, 100), candidate(2500, 500, 100),
             candidate(1500, 1500, 100), candidate(1600, 1500, 100),
             candidate(500, 2000, 100, sure=0.6)]
    where = scales.focus(found, 3280, 2464, 640, rejected, unsure)
    assert [box for box, _ in where] == [(300, 1800, 700, 2200), (1300, 1300, 1800, 1700)]
    assert len(scales.focus(found, 3280, 2464, 640, rejected)) == 4  # without `unsure`: every region


def test_one_die_read_surely_is_seen_enough_where_nothing_else_die_sized_was_proposed():
    """The zoom past a view that read one die surely looks only round it where the view proposed
    nothing of up to 1.45 times its size beyond it (a grained tray's blobs, 4 times a die's
    size, do not count); a candidate of a die's size elsewhere, even rejected, may be a die."""
    die = candidate(1600, 1200, 150)
    grain = candidate(400, 300, 600, sure=0.1, reject=0.8)
    assert scales.seen_enough([die, grain], 640, 3280, 2464, rejected, unsure)
    elsewhere = candidate(3000, 2200, 150, sure=0.1, reject=0.8)
    assert not scales.seen_enough([die, grain, elsewhere], 640, 3280, 2464, rejected, unsure)
    near = candidate(1750, 1200, 150, sure=0.1, reject=0.8)  # beside it: in its region
    assert scales.seen_enough([die, near], 640, 3280, 2464, rejected, unsure)
    assert not scales.seen_enough([candidate(1600, 1200, 150, sure=0.6)], 640, 3280, 2464,
                                  rejected, unsure)  # read, but not surely


def test_a_capped_second_look_reads_only_the_surest_rejected_candidates_again(reader):
    """Eight rejected candidates the proposer is fairly sure of: each cut again at three sizes
    (and read in six colour views) uncapped; capped, only the three of the highest heat."""
    image = background(np.random.default_rng(2), 1200, 800, "wood")
    found = [candidate(100 + 120 * i, 400, 60, sure=0.1, reject=0.8, score=0.3 + 0.05 * i)
             for i in range(8)]
    cut: list[float] = []
    look = reader.look

    def counted(image: np.ndarray, p: Proposal):
        cut.append(p.score)
        return look(image, p)

    reader.look = counted  # type: ignore[method-assign]
    try:
        second_look(reader, image, found, None)
        uncapped, cut[:] = len(cut), []
        second_look(reader, image, found, None, capped=True)
    finally:
        del reader.look
    assert uncapped == 3 * 8
    assert len(cut) == 3 * SECOND_LOOK_REJECTED_MOST
    assert min(cut) == pytest.approx(0.3 + 0.05 * (8 - SECOND_LOOK_REJECTED_MOST))


def dark_tray(dice: list[DrawnDie]) -> np.ndarray:
    image = background(np.random.default_rng(6), 1600, 1200, "dark")
    for d in dice:
        draw_die(image, d)
    return image


def test_a_die_alone_measures_one_die_long_and_a_touching_pair_two():
    """What stands out from the tray at a die turned 40 degrees is under `EXTENT` dice long (its
    least rectangle, not its upright box: 1.4 dice wide); at a pair touching at a corner, as
    long as both."""
    alone = dark_tray([DrawnDie(3, "white", 500, 600, 100, 40.0)])
    assert outline_length(alone, (500, 600), 100, []) < EXTENT
    # the pair's second die 1.04 dice to the right and a little down: their corners meet
    pair = dark_tray([DrawnDie(4, "green", 500, 600, 100, 10.0),
                      DrawnDie(1, "green", 604, 630, 100, 35.0)])
    assert outline_length(pair, (552, 615), 100, []) > 1.6
    # cut off halfway to a die read beside it, a die alone is one die again
    assert outline_length(pair, (500, 600), 100, [(604, 630)]) < EXTENT


def test_a_die_alone_boxed_long_is_not_searched_on_a_grid(reader):
    """Four dice 100 px across read surely, one of them boxed 1.7 dice wide (as the proposer
    boxes a die alone at ~10 px in its 320-px view): measured one die long, it is left as read
    and no place in its box is cut (before: a 5x5 grid of crops); a touching pair boxed as one
    is still searched, and read as two."""
    drawn = [DrawnDie(2, "white", 300 + 350 * i, 400, 100, 30.0 * i) for i in range(4)]
    image = dark_tray(drawn)
    found = [candidate(d.cx, d.cy, 170 if i == 0 else 100, sure=0.98) for i, d in enumerate(drawn)]
    cut: list[Proposal] = []
    look = reader.look

    def counted(image: np.ndarray, p: Proposal):
        cut.append(p)
        return look(image, p)

    reader.look = counted  # type: ignore[method-assign]
    try:
        assert parted(reader, image, found) == found
        assert cut == []
        pair = dark_tray([*drawn[1:], DrawnDie(5, "white", 300, 900, 100, 0.0),
                          DrawnDie(6, "white", 404, 900, 100, 0.0)])
        boxed = [candidate(352, 900, 200, sure=0.98), *found[1:]]
        parts = parted(reader, pair, boxed)
    finally:
        del reader.look
    assert len(cut) > 0
    apart = sorted(c.proposal.cx for c in parts if abs(c.proposal.cy - 900) < 50)
    assert len(parts) == 5 and len(apart) == 2
    assert abs(apart[0] - 300) < 40 and abs(apart[1] - 404) < 40, apart  # a grid 35 px apart


def test_a_light_second_look_cuts_no_rejected_candidate_again(reader):
    """The eight rejected candidates above, their second look asked `light` (a big still's
    first view): none is cut again."""
    image = background(np.random.default_rng(2), 1200, 800, "wood")
    found = [candidate(100 + 120 * i, 400, 60, sure=0.1, reject=0.8, score=0.3 + 0.05 * i)
             for i in range(8)]
    cut: list[Proposal] = []
    look = reader.look
    reader.look = lambda image, p: cut.append(p) or look(image, p)  # type: ignore[method-assign]
    try:
        again = second_look(reader, image, found, None, capped=True, light=True)
    finally:
        del reader.look
    assert cut == []
    assert again == found


def test_a_big_stills_first_view_gives_its_rejected_candidates_no_second_look(reader, monkeypatch):
    """An 8 MP still's 320-px view (its dice ~6 px there) is read `light`: its rejected proposals
    once; the views after it, and a 640-px picture's first view, read them again (issue 36
    round 12: taken back there, they made that view count dice it did not see)."""
    calls: list[tuple[int, bool]] = []
    real = read_module.read_looked

    def recorded(reader_, image, at, gains, size, capped=False, light=False):
        calls.append((max(image.shape[:2]), light))
        return real(reader_, image, at, gains, size, capped, light=light)

    monkeypatch.setattr(read_module, "read_looked", recorded)
    image, drawn = heap(3)
    dice = reader.read(image).dice
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)
    assert calls[0] == (3280, True)
    assert not any(light for _, light in calls[1:])
    calls.clear()
    reader.read(cv2.resize(image[900:1540, 1300:1940], (640, 640)))
    assert calls[0] == (640, False)


def test_a_light_second_look_reads_no_unsure_die_in_the_colour_greys(reader):
    """An unsure die with a red patch is read again at three sizes, turned half round and in six
    colour greys (ten crops); `light` (a big still's first view), not in the colour greys: the
    first view's colour greys changed no reading of 360 cached 8 MP stills (issue 36 round 12)."""
    image = background(np.random.default_rng(2), 1200, 800, "wood")
    patch = np.zeros((64, 64, 3), np.uint8)
    patch[..., 2] = 200
    probs = np.array([0.0, 0.6, 0.4, 0, 0, 0, 0], np.float32)
    crop = np.zeros((reader.model.crop, reader.model.crop), np.float32)
    unsure_die = Candidate(Proposal(600, 400, 60, 60, 0.9), 0.0, probs, patch, np.ones(3), crop)
    batches: list[int] = []
    classify = reader.model.classify
    reader.model.classify = lambda crops: batches.append(len(crops)) or classify(crops)  # type: ignore[method-assign]
    try:
        second_look(reader, image, [unsure_die], None)
        second_look(reader, image, [unsure_die], None, light=True)
    finally:
        del reader.model.classify
    assert batches[0] == batches[1] + len(COLOUR_VIEWS)
    assert batches[1] >= 4
