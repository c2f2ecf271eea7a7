"""A big still's die boxed far larger than its dice are seen is proposed again at their size
(`vision.big_boxes`, issue 36 round 9: the Pi-camera tray's pairs boxed as one, read as a one)."""
from __future__ import annotations

import numpy as np
from zonkcam.vision.big_boxes import BIG, region, reproposed
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.scales import FOCUS_DIE


def die(x: float, y: float, side: float, value: int = 1, sure: float = 0.98) -> Candidate:
    probs = np.full(7, (1 - sure) / 6, np.float32)
    probs[value] = sure
    return Candidate(Proposal(x, y, side, side, 0.5), 0.0, probs, np.zeros((4, 4, 3)),
                     np.ones(3), np.zeros((4, 4)))


def rejects(c: Candidate) -> bool:
    return bool(c.probs[0] >= 0.5)


def unsure(c: Candidate) -> bool:
    return not rejects(c) and c.probs[1:].max() < 0.9


IMAGE = np.zeros((2000, 3000, 3), np.uint8)
# a pair boxed as one 250 px across (2.5 dice of 100 px) read surely as a one, two dice apart
FOUND = [die(1000, 1000, 250), die(2000, 1000, 100, 3), die(2500, 1000, 100, 4)]


def test_a_pair_boxed_as_one_is_its_two_dice_where_its_region_reads_them():
    asked = []

    def read_regions(image, where):
        asked.extend(where)
        return [die(950, 1000, 95, 2), die(1050, 1010, 98, 3, 0.8)]

    out = reproposed(IMAGE, FOUND, 100.0, rejects, unsure, read_regions)
    assert sorted((round(c.proposal.cx), int(c.probs[1:].argmax()) + 1) for c in out) == [
        (950, 2), (1050, 3), (2000, 3), (2500, 4)]
    # only the big box's region, proposed where a die of the still's size shows FOCUS_DIE px
    (box, side), = asked
    assert box == (825, 825, 1175, 1175) and side == round(350 * FOCUS_DIE / 100)


def test_a_die_alone_or_a_second_read_unsure_or_small_stays_as_read():
    for reads in ([die(1000, 1000, 110)],  # one die, read once again
                  [die(950, 1000, 95, 2), die(1050, 1000, 95, 3, 0.5)],  # the other not fair
                  [die(950, 1000, 95, 2), die(1050, 1000, 30, 3)],  # a speck
                  [die(950, 1000, 95, 2, 0.8), die(1050, 1000, 95, 3, 0.8)],  # neither sure
                  [die(960, 1000, 95, 2), die(1010, 1000, 95, 3)],  # one die read twice
                  [die(950, 1000, 60, 2), die(1030, 1000, 60, 3)]):  # a die's pips: no pair's length
        out = reproposed(IMAGE, FOUND, 100.0, rejects, unsure, lambda image, where, r=reads: r)
        assert out == FOUND


def test_only_boxes_of_big_dice_are_looked_at():
    def read_regions(image, where):
        raise AssertionError("no box is big")

    found = [die(1000, 1000, BIG * 100 - 1), die(2000, 1000, 100)]
    assert reproposed(IMAGE, found, 100.0, rejects, unsure, read_regions) == found
    assert reproposed(IMAGE, FOUND, None, rejects, unsure, read_regions) == FOUND
    assert region(FOUND[0].proposal, 100.0, 1100, 1100)[0] == (825, 825, 1100, 1100)
