"""The reader's drift on drawn tables since the model card (issue 36): the close-up pass
(`scales.whole_dice`, 40f1f42) took a heap of dice ~40 px across on a 480x360 table for one die
200-320 px across, read as a two, and dropped the dice as its pips. Drawn tables, no data set."""
from __future__ import annotations

import numpy as np
import pytest
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.read import Reader
from zonkcam.vision.scales import whole_dice
from zonkcam.vision.sim.drawn import render_scene

KINDS = ("felt", "wood", "paper", "dark")


def model_card_tables(upto: int) -> list[tuple[np.ndarray, list]]:
    """The first `upto` tables of `python -m zonkcam.vision.sim.drawn OUT --count 100 --size
    480x360 --seed 3` (the model card's set), drawn as it draws them (not written to JPEG)."""
    rng = np.random.default_rng(3)
    out = []
    for i in range(upto):
        size = 360 * rng.uniform(0.05, 0.12)
        out.append(render_scene(rng, 480, 360, n=int(rng.integers(1, 7)), size=size,
                                kind=KINDS[i % len(KINDS)]))
    return out


def candidate(cx: float, cy: float, size: float, value: int) -> Candidate:
    """A die read surely (0.95) as `value`."""
    probs = np.full(7, 0.01, np.float32)
    probs[value] = 0.95
    empty = np.zeros((1, 1), np.float32)
    return Candidate(Proposal(cx, cy, size, size, 0.9), 0.0, probs, empty, empty, empty)


@pytest.mark.parametrize("table", [23, 40, 99])
def test_a_heap_of_dice_on_a_drawn_table_is_not_one_die_close_up(table):
    """Tables 23 (five dice 37-45 px, read as one two 318 px across), 40 and 99 (two dice each):
    every die is read, none as a die hundreds of px across."""
    image, drawn = model_card_tables(table + 1)[table]
    dice = Reader().read(image).dice
    assert sorted(d.value for d in dice) == sorted(d.value for d in drawn)
    assert max(d.box[2] - d.box[0] for d in dice) < 2 * max(d.size for d in drawn)


def test_dice_read_surely_as_other_values_inside_a_close_up_die_are_dice():
    """Table 23's reads: the close-up's two, 318 px across, over five dice ~70 px apart read
    surely as 4, 2, 1, 6 and 2 (two of them neither one nor two) keeps the five; a die's own
    pips, read as ones or as its value, still go."""
    reader = Reader.__new__(Reader)
    reader.reject_threshold = 0.5
    heap = [candidate(x, y, 70, v) for x, y, v in
            ((100, 120, 4), (180, 110, 2), (140, 190, 1), (220, 190, 6), (260, 120, 2))]
    two = [candidate(180, 170, 318, 2)]
    assert whole_dice(heap, two, 480, reader.unsure, reader.rejects) == heap
    pips = [candidate(x, y, 40, v) for x, y, v in ((120, 140, 1), (240, 200, 2))]
    assert whole_dice(pips, two, 480, reader.unsure, reader.rejects) == two
