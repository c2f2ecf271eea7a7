"""A phone still's die read twice, or boxed at a pip, is one die of the dice's size (issue 36's
phone bowl, `benchmarks/phone_bowl.py`: ~100-px dice of a 12 MP still are seen ~32 px at 1280
px, and the proposer can box one at two of its pips, or at one): `touching.read_twice` and
`touching.read_whole`. Drawn dice on a dark wooden table."""
from __future__ import annotations

import math

import benchmark_scripts
import numpy as np
import pytest
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.colour_dice import DieLook, draw_look
from zonkcam.vision.sim.drawn import background
from zonkcam.vision.touching import pair_halves, read_at_top, read_twice, read_whole

BLUE = DieLook("blue", (40, 80, 180))
SIDE = 100
APART = ((250, 250), (950, 250), (250, 700))  # three dice lying apart, read surely


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def table(dice: list[tuple[int, float, float]]) -> np.ndarray:
    """A dark wooden table 1200x900 with blue dice (value, cx, cy) of `SIDE` px, square to it."""
    rng = np.random.default_rng(3)
    image = (background(rng, 1200, 900, "wood").astype(np.float32) * 0.5).astype(np.uint8)
    for value, cx, cy in dice:
        draw_look(image, BLUE, value, cx, cy, SIDE, 0.0, rng)
    return image


def read(cx: float, cy: float, size: float, value: int = 1, sure: float = 0.95) -> Candidate:
    """A candidate read `sure` as `value`."""
    probs = np.full(7, (1 - sure) / 6, np.float32)
    probs[value] = sure
    empty = np.zeros((1, 1), np.float32)
    return Candidate(Proposal(cx, cy, size, size, 0.9), 0.0, probs, empty, np.ones(3), empty)


def near(found: list[Candidate], x: float, y: float) -> list[Candidate]:
    return [c for c in found if math.hypot(c.proposal.cx - x, c.proposal.cy - y) < SIDE / 2]


def six_read_once(reader, sure: float, reads: list[Candidate]) -> Candidate:
    """A six at (600, 450) beside three dice read surely (boxed `sure` px), read twice as
    `reads`: `read_twice` leaves one die there, at the six's middle."""
    image = table([(3, x, y) for x, y in APART] + [(6, 600, 450)])
    out = read_twice(reader, image, [read(x, y, sure) for x, y in APART] + reads)
    assert len(out) == 4
    (die,) = near(out, 600, 450)
    assert math.hypot(die.proposal.cx - 600, die.proposal.cy - 450) < 0.15 * SIDE
    return die


def test_a_die_read_at_two_of_its_pips_is_one_die_read_at_its_middle(reader):
    """A six at (600, 450) read at its top and bottom pip rows, each boxed half a die, 54 px
    apart (0.54 of the dice's size): what stands out there is one die, so it is read once, at
    its middle, at the dice's size (before: two dice)."""
    die = six_read_once(reader, SIDE, [read(600, 423, 50, 2), read(600, 477, 50, 2)])
    assert die.proposal.size == pytest.approx(SIDE) and not reader.rejects(die)


def test_a_die_read_at_a_pip_and_at_its_edge_is_one_die(reader):
    """A six at (600, 450) read at a top pip and at its bottom edge, 55 px below its middle (a
    phone still's die read twice, phone_bowl seed 3: 0.51 and 0.63 of a die off): what stands
    out there is one die holding both reads (`touching.HOLDS`), so it is read once, at its
    middle (before: two dice, the edge's read over half the die's length off its middle)."""
    six_read_once(reader, SIDE, [read(590, 420, 50, 2), read(605, 505, 50, 3)])


def test_a_die_read_twice_is_one_die_where_the_dice_are_boxed_large(reader):
    """As above, but the dice read surely are boxed 140 px, 1.4 times their side, as the
    proposer boxes a phone still's marbled dice (phone_bowl seed 3: their outlines measured a
    median 0.54-1.06 of the boxes by still): the six's outline, 0.71 of that box, is one die as
    the still's dice measure (`touching.outline_scale`), so it is read once (before: two
    dice, the outline under `SHORTEST` of a box)."""
    six_read_once(reader, 1.4 * SIDE, [read(600, 423, 50, 2), read(600, 477, 50, 2)])


def test_touching_dice_read_close_are_two(reader):
    """Two dice side by side (104 px apart) read 70 px apart (0.7 of the dice's size), each a
    little off towards the other: what stands out there is two dice long, and both stay."""
    image = table([(3, x, y) for x, y in APART] + [(4, 548, 450), (5, 652, 450)])
    found = [read(x, y, SIDE) for x, y in APART] + [read(565, 450, SIDE, 4), read(635, 450, SIDE, 5)]
    assert read_twice(reader, image, found) == found


def test_a_die_boxed_at_a_pip_is_read_whole_at_the_dice_size(reader):
    """A five at (600, 450) read at its corner pip, boxed 40 px (under half the dice's 100):
    `alike_in_size` would drop it as a speck; what stands out there is one die, so it is read
    again at its middle, at the dice's size (before: boxed 40 px)."""
    image = table([(3, x, y) for x, y in APART] + [(5, 600, 450)])
    found = [read(x, y, SIDE) for x, y in APART] + [read(627, 423, 40, 1)]
    out = read_whole(reader, image, found)
    (die,) = near(out, 600, 450)
    assert die.proposal.size == pytest.approx(SIDE)
    assert math.hypot(die.proposal.cx - 600, die.proposal.cy - 450) < 0.15 * SIDE


def test_a_speck_boxed_small_stays_small(reader):
    """A pale speck 12 px across on the table, read as a one boxed 30 px: what stands out there
    is under a die long, so it is not read again at the dice's size (`alike_in_size` drops it)."""
    image = table([(3, x, y) for x, y in APART])
    image[444:456, 594:606] = 230
    found = [read(x, y, SIDE) for x, y in APART] + [read(600, 450, 30, 1)]
    assert read_whole(reader, image, found) == found


def test_a_phone_bowl_photo_reads_each_die_once(reader):
    """`phone_bowl.py`'s photo of seed 110 (19 blue marbled dice ~120 px of a 12 MP still): the
    1280-px view boxes a two at its two pips, each read surely as a two; read once, at the
    die's middle, it is one two (before: two dice on it, the only die read that was none)."""
    bowl = benchmark_scripts.load("phone_bowl")
    image, drawn, _ = bowl.photo(np.random.default_rng(110), 4032, 3024)
    dice = reader.read(image).dice
    on = [[d for d in dice if math.hypot(d.center[0] - cx, d.center[1] - cy) < side / 2]
          for _, cx, cy, side in drawn]
    assert max(len(o) for o in on) == 1
    assert sum(len(o) for o in on) == len(dice) >= len(drawn) - 1


def test_a_pairs_outline_tells_where_its_dice_lie():
    """Two blue dice side by side (104 px apart, turned 30 degrees), boxed as one at their
    middle: what stands out there is two dice by one, and the middles of its halves are the
    dice's (`touching.pair_halves`); a die alone there gives none."""
    turn = math.radians(30)
    a = (600 - 52 * math.cos(turn), 450 - 52 * math.sin(turn))
    b = (600 + 52 * math.cos(turn), 450 + 52 * math.sin(turn))
    rng = np.random.default_rng(3)
    image = (background(rng, 1200, 900, "wood").astype(np.float32) * 0.5).astype(np.uint8)
    for value, (x, y) in ((4, a), (5, b)):
        draw_look(image, BLUE, value, x, y, SIDE, 30.0, rng)
    halves = pair_halves(image, Proposal(600, 450, 200, 150, 0.9), SIDE, [(600, 450)])
    assert len(halves) == 2
    for x, y in (a, b):
        assert min(math.hypot(q.cx - x, q.cy - y) for q in halves) < 0.15 * SIDE
    assert all(q.size == SIDE for q in halves)
    alone = table([(5, 600, 450)])
    assert pair_halves(alone, Proposal(600, 450, 200, 150, 0.9), SIDE, [(600, 450)]) == []


def test_a_die_read_at_its_top_is_told_from_one_read_at_its_side():
    """A blue die seen at a slant: its top face (100 px) and, below it, its side (50 px, darker).
    Read at the side, its outline's middle lies above the read (`touching.read_at_top`: no, so
    `sides.top_faces` may read it higher up); read at the top, or a die seen from above read at
    its middle, it does not (a phone still's glossy die, darker below its light spot, was read
    higher up, between two dice, before)."""
    image = table([(3, x, y) for x, y in APART] + [(5, 600, 420)])
    image[471:520, 551:650] = (90, 40, 20)  # the side, lit less than the top (BGR)
    assert not read_at_top(image, Proposal(600, 495, SIDE, SIDE, 0.9), SIDE, [(600, 495)])
    assert read_at_top(image, Proposal(600, 420, SIDE, SIDE, 0.9), SIDE, [(600, 420)])
    flat = table([(5, 600, 450)])
    assert read_at_top(flat, Proposal(600, 450, SIDE, SIDE, 0.9), SIDE, [(600, 450)])
