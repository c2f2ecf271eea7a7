"""A big still's die boxed far larger than its dice are seen is proposed again at their size
(`vision.big_boxes`, issue 36 round 9: the Pi-camera tray's pairs boxed as one, read as a one)."""
from __future__ import annotations

import numpy as np
from zonkcam.vision.big_boxes import BIG, RIDGE, few_dice, region, reproposed
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal, decode
from zonkcam.vision.scales import FOCUS_DIE


def die(x: float, y: float, side: float, value: int = 1, sure: float = 0.98, peaks: int = 1
        ) -> Candidate:
    probs = np.full(7, (1 - sure) / 6, np.float32)
    probs[value] = sure
    return Candidate(Proposal(x, y, side, side, 0.5, peaks), 0.0, probs, np.zeros((4, 4, 3)),
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
    assert region(FOUND[0].proposal, 100.0, 1100, 1100)[0] == (825, 825, 1100, 1100)


# a still of few dice (none sized by its views): a cluster of three ~80-px dice boxed as one five
# 150 px across (scale_eval's touching stills, seed 37: 069, 074), and a die alone beside it
FEW = [die(1000, 1000, 150, 5, peaks=RIDGE), die(2000, 1000, 90, 2, 0.95, RIDGE + 1)]


def test_a_cluster_boxed_as_one_in_a_still_of_few_dice_is_its_dice():
    asked = []

    def read_regions(image, where):
        asked.extend(where)
        return [die(960, 990, 75, 6), die(1040, 1000, 70, 1), die(1000, 1100, 80, 4, 0.8),
                die(1000, 1000, 20, 1),  # a pip
                die(2000, 1000, 95, 2)]  # the die alone, read once again

    out = reproposed(IMAGE, FEW, None, rejects, unsure, read_regions)
    # the one at the cluster's edge (its centre 100 px off, the box's half 75) is its third die
    assert sorted((round(c.proposal.cx), round(c.proposal.cy), int(c.probs[1:].argmax()) + 1)
                  for c in out) == [(960, 990, 6), (1000, 1100, 4), (1040, 1000, 1), (2000, 1000, 2)]
    # each die read fair proposed where half its box shows FOCUS_DIE px
    assert asked == [((887, 887, 1112, 1112), round(225 * FOCUS_DIE / 75)),
                     ((1932, 932, 2067, 1067), round(135 * FOCUS_DIE / 45))]


def test_a_die_alone_in_a_still_of_few_dice_stays_as_read():
    for reads in ([die(1000, 1000, 140)],  # read once again
                  [die(1000, 1000, 140), die(1000, 1000, 30, 1)],  # and at its pip
                  [die(980, 1000, 75, 2), die(1020, 1000, 70, 3)],  # twice, at its halves' middles
                  [die(960, 1000, 75, 2, 0.8), die(1040, 1000, 75, 3, 0.85)],  # neither sure
                  [die(960, 1000, 75, 2), die(1040, 1000, 75, 3, 0.5)],  # the other not fair
                  [die(960, 1000, 75, 2), die(1200, 1000, 75, 3)]):  # the other beyond the box
        assert few_dice(IMAGE, FEW, rejects, unsure, lambda image, where, r=reads: r) == FEW


def test_a_die_read_under_fair_or_of_one_peak_in_a_still_of_few_dice_is_not_proposed_again():
    def read_regions(image, where):
        raise AssertionError("nothing read fair on a ridge")

    found = [die(1000, 1000, 150, 5, 0.5, RIDGE), die(2000, 1000, 90, 2, 0.6, RIDGE),
             die(2500, 1000, 150, 3)]  # one peak in its box: a die alone
    assert few_dice(IMAGE, found, rejects, unsure, read_regions) is found


def test_a_ridge_of_heat_over_a_pair_counts_its_weak_second_peak():
    heat = np.zeros((20, 30), np.float32)
    heat[10, 10], heat[10, 13] = 0.8, 0.15  # a pair's ridge: the second peak under the threshold
    heat[10, 25] = 0.6  # a die alone
    heat[3, 25] = 0.05  # a speck of heat, under WEAK of the threshold
    geometry = np.zeros((4, 20, 30), np.float32)
    geometry[:2] = np.log(40)  # boxes 40 px across (stride 4, scale 1)
    found = decode(heat, geometry, scale=1.0, stride=4, threshold=0.2)
    assert [(round(p.cx), p.peaks) for p in found] == [(40, 2), (100, 1)]
