"""Overhead cameras: dice the proposer missed, or merged with a neighbour, found where the
table shows them (what stands out from the table around each die read). Why, and what it was
measured to gain: docs/live.md, "Dice the proposer missed or merged"."""
from __future__ import annotations

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.crop_reader import CropReader
from zonkcam.vision.dice import box_growth
from zonkcam.vision.die_sizes import typical_size
from zonkcam.vision.proposals import Proposal, apart
from zonkcam.vision.silhouette import Silhouette, blobs
from zonkcam.vision.squares import square

# What stands out from the table around each die, in a square this many dice across, is matched
# with the dice read. A thing with no die read in it that covers at least `LEAST_DIE` of a die's
# table (the median of things holding one die) and less than `TWO_DICE`, or one die read in a
# thing covering `TWO_DICE` dice's worth or more, is a die the proposer missed or merged with its
# neighbour (a cocked die leaning on a die), and is read at its centre. From the shapes: a cocked
# die covers about 1.4 dice's worth of table, one leaning on a die 2.4, a stack 1.2-1.6.
BLOB_WINDOW = 3.0
LEAST_DIE = 0.5
TWO_DICE = 1.9


def with_missed(reader: CropReader, image: np.ndarray, found: list[Candidate], size: float | None
                ) -> list[Candidate]:
    """`found` with dice the proposer missed or merged read where the table shows them. Near
    each die read, a thing standing out from the table with no die read in it is read at its
    centre; a die read in a thing two dice big is read again at each half of it; a die read
    between things (the proposer's centre for two dice) is read at them instead. A new read is
    kept unless it reads "not a die" or lies on a die already read; a die read again keeps its
    first read when none of its new ones is kept."""
    dice = [i for i, c in enumerate(found) if not reader.rejects(c)]
    typical = typical_size(found, size, reader.rejects)
    if typical is None:
        return found
    centres = {i: (found[i].proposal.cx, found[i].proposal.cy) for i in dice}
    near: dict[int, list[tuple[Silhouette, list[int]]]] = {}  # die: (thing, dice in it)
    for i in dice:
        near[i] = [(b, [j for j in dice if cv2.pointPolygonTest(
            b.contour, b.in_patch(*centres[j]), False) >= 0])
            for b in blobs(image, centres[i], typical, BLOB_WINDOW)]
    ones = [b.area for things in near.values() for b, inside in things if len(inside) == 1]
    if len(ones) < 2:
        return found
    unit = float(np.median(ones))
    new: list[tuple[int | None, Proposal]] = []  # (the die read again, or None; where)
    for i, things in near.items():
        score = found[i].proposal.score
        own = next(((b, inside) for b, inside in things if i in inside), None)
        loose = [b.centroid() for b, inside in things  # bigger than two dice: no die
                 if not inside and LEAST_DIE * unit <= b.area < TWO_DICE * unit]
        # things beside a die read in none are what it stands for; else they are new dice
        new += [(i if own is None else None, Proposal(x, y, typical, typical, score))
                for x, y in loose]
        if own is not None and own[1] == [i] and own[0].area >= TWO_DICE * unit:
            new += [(i, Proposal(x, y, typical, typical, score))
                    for x, y in own[0].halves()]
    if not new:
        return found
    looks = [reader.look(image, q) for _, q in new]
    probs = reader.model.classify(np.stack([crop for crop, _, _ in looks]))
    again = {i for i, _ in new if i is not None}
    kept = [found[i].proposal for i in dice if i not in again]
    out = [c for i, c in enumerate(found) if i not in again]
    taken: set[int | None] = set()
    gains = found[dice[0]].gains  # the picture's white balance: one for all its candidates
    for (was, q), (crop, patch, angle), pr in zip(new, looks, probs, strict=True):
        if pr[0] < reader.reject_threshold and all(apart(q, k, typical) for k in kept):
            kept.append(q)
            out.append(Candidate(q, angle, pr, patch, gains, crop))
            taken.add(was)
    out += [found[i] for i in again - taken]
    return out


# A die a live table's reader boxes over this many times the dice's known size, after the
# squares (a die turned 45 degrees is boxed 1.41 times), is sought again as a square at that size.
# At 60-px dice the proposer boxes some 1.6-1.9 times (a two 110 px) and the median proposal is
# ~1.5 times, so the squares tried at the median and at its own box reach the wall or see only
# its pips, and the stream's side, the median box, drifts (issue 36 round 14, 91002 f1199).
BOXED_OVER = 1.5


def at_known_size(reader: CropReader, image: np.ndarray, found: list[Candidate],
                  size: float | None) -> list[Candidate]:
    """`found`, with each die boxed over `BOXED_OVER` times the caller's known `size` read again
    at the square its silhouette makes at that size, where it makes one and it reads as a die:
    box, read and patch become the square's, as `squares.squared` takes a square's read over a
    box over `squares.BOX_OF_A_DIE` times it. Pictures whose dice's size no caller knows (stills)
    are returned as they are."""
    if size is None:
        return found
    dice = [i for i, c in enumerate(found) if not reader.rejects(c)]
    out = list(found)
    for i in (i for i in dice if found[i].proposal.size > BOXED_OVER * size):
        c = found[i]
        others = [(found[j].proposal.cx, found[j].proposal.cy) for j in dice if j != i]
        q = square(image, c.proposal, others, size)
        if q is None:
            continue
        crop, patch, angle = reader.look(image, q)
        probs = reader.model.classify(crop[None])[0]
        if probs[0] < reader.reject_threshold:
            grown = q.w * box_growth(angle)
            box = Proposal(q.cx, q.cy, grown, grown, c.proposal.score)
            out[i] = Candidate(box, angle, probs, patch, c.gains, c.crop)
    return out
