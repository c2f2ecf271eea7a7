"""A big still's die boxed far larger than its dice are seen, proposed again at their size
(issue 36 round 9: the Pi-camera tray's boxes over two or three dice read as one).

The proposer's coarse views box two or three touching dice of an 8 MP still as one die up to
three dice across, and its crop, which shows the dice small, is often read surely as one value
(a pair's dice taken for a one's pip). `touching.parted` reads such a box again on a grid at the
dice's size where what stands out there does not measure one die long, but parts it only where
two places read `touching.SURE`: a pair's second die read off its middle, or 0.7-0.9 sure, stays
hidden. Such a box (not measured one die long either: most big boxes hold one die, and are not
proposed for nothing) has its region proposed again at the scale where a die of the still's size
by all its views (`die_sizes.seen_size`) shows `scales.FOCUS_DIE` px, as the focus does: the heat
there has a peak for each die. Two or more dice read in the box, the surest surely, each of at
least half that size, apart, and apart from the other dice read, replace it (else it stays as
read: a die alone, re-proposed, is read once again).

A still of few dice (two to four touching on a tray: under three read surely in every view) has
no size by its views at all, and the view kept boxes a pair or a cluster of three or four as one
die 1.5-4 times a die's size (scale_eval's `touching` stills, seed 37: 12 of its 33 missed dice).
There each die read `FAIR` whose box holds two peaks of heat (a pair's ridge has a weak second
peak) has its region proposed again where half its box shows `scales.FOCUS_DIE` px
(`few_dice`): a pair boxed as one shows its dice at that size, a die alone boxed its size at
twice it, still a size the proposer finds."""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.die_sizes import LEAST_OF_TYPICAL
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.scales import centre_in, focus_side
from zonkcam.vision.touching import one_die

Judge = Callable[[Candidate], bool]
Region = tuple[tuple[int, int, int, int], int]
ReadRegions = Callable[[np.ndarray, Sequence[Region]], list[Candidate]]

# A die boxed this many seen dice long or more may hold two or three. On scale_eval's pi-tray
# stills (seed 4343, proxies pi-tray alone) the pairs read as one were boxed 1.64-2.44 seen dice;
# 87 boxes of one die 1.5-2.6, and their regions proposed again read one die each (or specks).
BIG = 1.6
MARGIN = 0.5  # seen dice beyond the box: a die's half lying outside it is proposed whole
# A box's dice taken are read this surely or more, the surest of them surely (not `unsure`):
# of the pairs above, the second die was read 0.71-0.87 in three of seven (values right in two)
FAIR = 0.7
# ... and their sizes add up to this share of the box's length or more: two or three dice boxed
# as one fill it (the pairs above 0.64-1.8); a die alone boxed big, where the still's size is
# under its dice's, shows its pips at a size read as dice (a block of six 63-px dice, seen 44:
# a six boxed 119 px read as two dice of 31 and 26 px, 0.48)
FILL = 0.6
APART = 0.8  # seen dice between the centres of two dice taken (touching dice lie one apart)
# In a still of few dice, a box holding this many peaks of heat or more (`Proposal.peaks`) may
# hold a pair or more: proposing every die's region again cost read_cost's touching stills a
# fifth more proposer calls (4.1 -> 4.9 a still), those with two peaks 4.2
RIDGE = 2


def region(p: Proposal, size: float, width: int, height: int) -> Region:
    """The region round the box `p`, `MARGIN` dice `size` px beyond it, with the side to propose
    it at so that such a die shows `scales.FOCUS_DIE` px (`scales.focus_side`, as the focus)."""
    m = MARGIN * size
    box = (max(0, int(p.cx - p.w / 2 - m)), max(0, int(p.cy - p.h / 2 - m)),
           min(width, int(p.cx + p.w / 2 + m)), min(height, int(p.cy + p.h / 2 + m)))
    return box, focus_side(box, size)


def _apart(q: Proposal, n: Proposal, seen: float) -> bool:
    """`APART` of a die between the centres, a die of the two's mean size where that is under
    `seen` (the still's size is the least of its views' and can be a die and a third)."""
    return math.hypot(q.cx - n.cx, q.cy - n.cy) >= APART * min(seen, (q.size + n.size) / 2)


def reproposed(image: np.ndarray, found: list[Candidate], seen: float | None, rejects: Judge,
               unsure: Judge, read_regions: ReadRegions) -> list[Candidate]:
    """`found` with each die boxed `BIG` times the still's die size `seen` or more replaced by
    the dice a proposal of its region at that size reads surely in its box, where those are
    two or more (each `LEAST_OF_TYPICAL` of `seen` and of the dice's median or larger, `APART`
    apart and from the other dice read, `FAIR` and the surest sure, their sizes `FILL` of the
    box's length together).
    `read_regions`: the reader's proposal of regions, read in one batch. Without `seen`, the
    dice of a still of few dice (`few_dice`)."""
    if seen is None:
        return few_dice(image, found, rejects, unsure, read_regions)
    h, w = image.shape[:2]
    dice = [(c.proposal.cx, c.proposal.cy) for c in found if not rejects(c)]
    # a box whose outline measures one die holds one (most big boxes: no proposal for nothing)
    big = [i for i, c in enumerate(found) if not rejects(c) and max(
        c.proposal.w, c.proposal.h) >= BIG * seen and not one_die(image, c.proposal, seen, dice)]
    if not big:
        return found
    read = read_regions(image, [region(found[i].proposal, seen, w, h) for i in big])
    # a die of a pair is half the still's size or more, and half the dice read (v2: a drawn
    # five's two pip groups, each 0.5 of a size seen far under its dice, read as two fives)
    least = LEAST_OF_TYPICAL * max(seen, float(np.median(
        [c.proposal.size for c in found if not rejects(c)])))
    out: list[Candidate | None] = list(found)
    added: list[Candidate] = []
    for i in big:
        p = found[i].proposal
        others = [o.proposal for k, o in enumerate(found) if k != i and not rejects(o)]
        inside = sorted((c for c in read if not rejects(c) and centre_in(c.proposal, p)
                         and c.probs[1:].max() >= FAIR and c.proposal.size >= least),
                        key=lambda c: -float(c.probs[1:].max()))
        taken: list[Candidate] = []
        for c in inside:
            near = [t.proposal for t in taken + added] + others
            if all(_apart(c.proposal, n, seen) for n in near):
                taken.append(c)
        if len(taken) >= 2 and not unsure(taken[0]) and sum(
                t.proposal.size for t in taken) >= FILL * max(p.w, p.h):
            out[i] = None
            added += taken
    return [c for c in out if c is not None] + added


def few_dice(image: np.ndarray, found: list[Candidate], rejects: Judge, unsure: Judge,
             read_regions: ReadRegions) -> list[Candidate]:
    """`found` (a still of too few dice read surely for a size by its views) with each die read
    `FAIR` or more whose box holds `RIDGE` peaks of heat or more replaced by the dice a proposal
    of its region, where half its box shows `scales.FOCUS_DIE` px, reads at it, where those are
    two or more: each `FAIR`, half the largest such read or more (a die's pips are a quarter of
    it), its centre within half its side of the box (a cluster's die the view kept missed lies
    at its edge), greedily the surest first, the surest surely; `APART` of the smaller die from
    the others taken and the other dice read (a pair's dice lie a die apart, its box can be 1.3
    dice across)."""
    h, w = image.shape[:2]
    fair = [i for i, c in enumerate(found) if not rejects(c) and c.probs[1:].max() >= FAIR
            and c.proposal.peaks >= RIDGE]
    if not fair:
        return found
    read = read_regions(image, [region(found[i].proposal, found[i].proposal.size / 2, w, h)
                                for i in fair])
    out: list[Candidate | None] = list(found)
    added: list[Candidate] = []
    for i in fair:
        p = found[i].proposal
        at = [c for c in read if not rejects(c) and c.probs[1:].max() >= FAIR and _reaches(c.proposal, p)]
        if not at:
            continue
        least = LEAST_OF_TYPICAL * max(c.proposal.size for c in at)
        others = [o.proposal for k, o in enumerate(out) if o is not None and k != i and not rejects(o)]
        taken: list[Candidate] = []
        for c in sorted(at, key=lambda c: -float(c.probs[1:].max())):
            if c.proposal.size >= least and all(
                    _clear(c.proposal, n) for n in [t.proposal for t in taken + added] + others):
                taken.append(c)
        if len(taken) >= 2 and not unsure(taken[0]):
            out[i] = None
            added += taken
    return [c for c in out if c is not None] + added


def _reaches(q: Proposal, box: Proposal) -> bool:
    """Whether `q`'s centre lies within half its side of `box`."""
    return abs(q.cx - box.cx) < (box.w + q.size) / 2 and abs(q.cy - box.cy) < (box.h + q.size) / 2


def _clear(q: Proposal, n: Proposal) -> bool:
    """`APART` of the smaller of the two dice between their centres."""
    return math.hypot(q.cx - n.cx, q.cy - n.cy) >= APART * min(q.size, n.size)
