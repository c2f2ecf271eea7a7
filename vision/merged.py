"""A big still's views merged die by die (issue 36: the phone's heaped bowl).

A phone's 12 MP still is proposed at 320, 640 and 1280 px, and the regions round its dice once
more where they show ~64 px (`scales.focus`). Keeping the one view that reads the most dice
surely made a near tie swing every die at once: in a heap of marbled dice few are read surely,
so one sure die more or less in one view (a photo saved again as JPEG) turned 23 dice into 34.
Here each die is decided on its own: the reads of every view are matched by where they lie, and
a die is kept where two views read it (or the one view that looked there), or where one reads it
surely at the size of the still's dice. So a near tie moves a die, not the still.

A view that sees dice too small to tell touching ones apart has not looked at a die touching one
it read; a coarse view's die holding two finer views' dice is those dice; and the dice kept are
kept apart by their own boxes, not by the median box of all views' (issue 36, round 4: the
guard rails' touching dice on 8 MP trays, which round 3's merge lost).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal, apart

Judge = Callable[[Candidate], bool]  # the reader's `rejects` or `unsure`
Box = tuple[int, int, int, int]  # x0, y0, x1, y1

# Reads of two views this share of the dice's size apart, or closer, are one die (dice in a
# heap lie a die apart; a die's side face lies half a die off its top's middle).
SAME_DIE = 0.5
# A die only one view reads, surely, is a die when its box is of this share of that view's dice
# (the median box of its dice read surely): the focused regions read pips and side faces seen
# ~60 px surely, at a third to a half of it (phone_heap seed 1).
LEAST = 0.7
MOST = 1.45
# A view that does not read a die has looked at it only where it shows this many px there: the
# proposer finds dice from ~16 px (`scales.ZOOM_BELOW`; at 10, an 8 MP tray's 320-px view, its
# dice 14 px there, was a view against a die the 1280-px view read unsurely: pi-tray)
SEEN_FROM = 16
# Touching dice under this many px in a view make one ridge of heat there (`scales.FOCUS_DIE`'s
# ~50 px: two peaks): a view that read a die touching another, seen this small, says nothing of it
APART_FROM = 48
# ... and a box it read as no die this many times the die's size or more, holding it, is no
# sight of it (touching dice on an 8 MP tray, boxed as one at 640 px and read as no die)
LONG = 1.45
ROW = 3.0  # ... up to three dice long (a bigger box read as no die is the table's grain)
# A die kept, this share of another's box or less, inside it, is a piece of it (a pip read as a
# one ~a third of the die: `_one_per_die`), however far from its middle
PIECE = 0.5


@dataclass(frozen=True)
class View:
    """One view's candidates, the regions it looked at (None: the whole still) and its scale
    (its px per px of the still)."""

    found: Sequence[Candidate]
    boxes: Sequence[Box] | None = None
    scale: float = 1.0

    def looked_at(self, c: Candidate) -> bool:
        """Whether this view looked where `c` lies, at a size it would see it."""
        x, y = c.proposal.cx, c.proposal.cy
        return c.proposal.size * self.scale >= SEEN_FROM and (
            self.boxes is None or any(b[0] <= x < b[2] and b[1] <= y < b[3] for b in self.boxes))


def merged(views: Sequence[View], rejects: Judge, unsure: Judge) -> list[Candidate]:
    """The dice of `views` (finest first) matched by where they lie: each die read by two views,
    or by the only view that looked there, or surely by one at its dice's size (`LEAST` to
    `MOST` of that view's median die read surely), read as `_voted` says."""
    reads = [(c, v) for v, view in enumerate(views) for c in view.found if not rejects(c)]
    if not reads:
        return []
    # each view boxes dice at its own scale (the 320-px view up to twice the focus's boxes)
    sizes = [_typical(view.found, rejects, unsure) for view in views]

    def fits(c: Candidate, v: int) -> bool:
        return LEAST * sizes[v] <= c.proposal.size <= MOST * sizes[v]

    # the surest reads of a plausible size seed the dice; the others join the nearest die
    order = sorted(reads, key=lambda r: (not fits(*r), unsure(r[0]), r[1], -float(r[0].probs[1:].max())))
    dice: list[list[tuple[Candidate, int]]] = []
    for c, v in order:
        near = [d for d in dice if all(u != v for _, u in d) and _distance(d[0][0], c)
                <= SAME_DIE * min(sizes[v], sizes[d[0][1]])]
        if near:
            min(near, key=lambda d: _distance(d[0][0], c)).append((c, v))
        else:
            dice.append([(c, v)])
    kept = []
    for die in dice:
        looked = len(die) + sum(_against(view, die[0][0], rejects) for v, view in enumerate(views)
                                if all(u != v for _, u in die))
        if len(die) >= min(2, max(1, looked)) or any(not unsure(c) and fits(c, v) for c, v in die):
            kept.append((die, _voted(die, lambda c, v: not unsure(c) and fits(c, v))))
    kept = [(die, c) for die, c in kept if not _boxed_as_one(c, die, kept, fits)]
    return _one_per_die(kept)  # two views' reads of one die over half a die apart


def _against(view: View, c: Candidate, rejects: Judge) -> bool:
    """Whether a view that did not read `c` looked there and saw no die: it looked at it
    (`View.looked_at`), and nothing it read holds it as a die or bigger than one (a die it read
    twice or three dice long, touching dice it took for one, or read as no die, that a finer
    view reads apart, says nothing of them)."""
    x, y = c.proposal.cx, c.proposal.cy
    if any(not rejects(d) and d.proposal.size * view.scale < APART_FROM and math.hypot(
            d.proposal.cx - x, d.proposal.cy - y) < max(d.proposal.size, c.proposal.size)
           for d in view.found):
        return False  # a die it read touching this one, at a size it sees touching dice as one
    return view.looked_at(c) and not any(
        abs(d.proposal.cx - x) < d.proposal.w / 2 and abs(d.proposal.cy - y) < d.proposal.h / 2
        and (not rejects(d) or LONG <= d.proposal.size / c.proposal.size <= ROW) for d in view.found)


def _boxed_as_one(c: Candidate, die: Sequence[tuple[Candidate, int]],
                  kept: Sequence[tuple[Sequence[tuple[Candidate, int]], Candidate]],
                  fits: Callable[[Candidate, int], bool]) -> bool:
    """Whether the die read as `c` holds two or more other dice kept, each read in a finer view
    at its dice's size: touching dice (or a heap) that a coarse view boxed and read as one (an
    8 MP tray's 320-px view read five ~110-px dice as one "2" 700 px across, surely, and the
    close-up then took them for its pips). A die's pips read as dice are not at its dice's size."""
    coarsest = max(v for _, v in die)
    p = c.proposal
    held = [o for other, o in kept if other is not die
            and abs(o.proposal.cx - p.cx) < p.w / 2 and abs(o.proposal.cy - p.cy) < p.h / 2
            and any(u < coarsest and fits(r, u) for r, u in other)]
    return len(held) >= 2


def _one_per_die(kept: Sequence[tuple[Sequence[tuple[Candidate, int]], Candidate]]
                 ) -> list[Candidate]:
    """Of two dice kept closer than `NMS_FRACTION` of the smaller's box, the one more views read
    (then the surer proposal): views box a die at their own scales (the 320-px view up to twice
    the focus's), so the median box of the dice kept is no measure of a die; touching dice whose
    reads lie a die apart are two."""
    order = sorted(kept, key=lambda k: (-len(k[0]), -k[1].proposal.score))
    out: list[Candidate] = []
    for _, c in order:
        p = c.proposal
        if all(apart(p, o.proposal, min(p.size, o.proposal.size)) and not _within(p, o.proposal)
               and not _within(o.proposal, p) for o in out):
            out.append(c)
    return out


def _within(p: Proposal, box: Proposal) -> bool:
    """Whether `p`, `PIECE` of `box`'s size or less, lies in it: a piece of that die (a pip)."""
    return p.size <= PIECE * box.size and abs(p.cx - box.cx) < box.w / 2 and abs(
        p.cy - box.cy) < box.h / 2


def _typical(found: Sequence[Candidate], rejects: Judge, unsure: Judge) -> float:
    """The median box of a view's dice read surely (of all its dice where none is sure)."""
    dice = [c for c in found if not rejects(c)]
    sure = [c.proposal.size for c in dice if not unsure(c)]
    return float(np.median(sure or [c.proposal.size for c in dice] or [0.0]))


def _voted(die: Sequence[tuple[Candidate, int]], sure: Callable[[Candidate, int], bool]
           ) -> Candidate:
    """A die's read: that of the finest view (the first) that reads it surely at its dice's size;
    else the value its views' probabilities summed favour, read most surely (views read a marbled
    die's value 2 or 3 at .7-.9 by turns: the surest read alone flips with them)."""
    fine = [(c, v) for c, v in die if sure(c, v)]
    if fine:
        return min(fine, key=lambda r: r[1])[0]
    value = int(np.argmax(sum(c.probs[1:] for c, _ in die))) + 1
    return min((r for r in die if r[0].value == value), key=lambda r: r[1], default=die[0])[0]


def _distance(a: Candidate, b: Candidate) -> float:
    return math.hypot(a.proposal.cx - b.proposal.cx, a.proposal.cy - b.proposal.cy)
