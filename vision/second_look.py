"""A second look: candidates read again at other crop sizes, where the first read is in doubt.

The proposer's size is often off for large dice, seen with their sides, and a die proposed at
half or twice its size reads as "not a die".
"""
from __future__ import annotations

import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.crop_reader import CropReader
from zonkcam.vision.die_sizes import typical_size
from zonkcam.vision.faces import colour_views
from zonkcam.vision.proposals import Proposal, apart

# Scales and thresholds chosen on rune55's `tune` groups; what each gained is in
# docs/recognizer.md, "How it works" 4.
# A die read less surely than `crop_reader.SECOND_LOOK_BELOW` is read again at these multiples
# of the proposed size, and the surest read is kept.
SECOND_LOOK_SCALES = (0.65, 1.2, 2.0)
# A die proposed at a size out of line with the picture's other dice (the proposer sized it by a
# neighbour, or by a pip) is read again at their median size.
OUT_OF_LINE = (0.7, 1.45)
# A rejected candidate the proposer is fairly sure of gets a second look too (its size is the
# usual culprit); it is taken back only on a sure read, and not beside a die already read.
SECOND_LOOK_REJECTED_SCORE = 0.3
SECOND_LOOK_REJECTED_SURE = 0.9
# 1.3: a taught picture face the proposer boxes at 0.7-0.9 of its size reads "not a die" there
SECOND_LOOK_REJECTED_SCALES = (0.5, 1.3, 2.0)
# Where the caller caps them (a big still's views, `Reader._zoomed`), only this many rejected
# candidates, or as many as the dice read at the first look, get a second look: the surest by
# heat. Each costs nine crops in colour; the 320-px view of an 8 MP still of dice on a grained
# tray proposes 7-15 of them, and of read_cost's touching stills none the cap left out changed
# a reading (issue 36). 4 -> 3 (issue 36, pi-tray round): the same reads of the `tune` pi-tray,
# pi-drawn and touching stills, 108 -> 102 crops a touching still (what the focus's regions of
# pairs read as one die cost more: `scales.lone`).
SECOND_LOOK_REJECTED_MOST = 3

# (candidate, the proposal looked at, crop, patch, angle)
Again = tuple[int, Proposal, np.ndarray, np.ndarray, float]


def read_looked(reader: CropReader, image: np.ndarray, at: list[Proposal],
                gains: list[np.ndarray], size: float | None, capped: bool = False,
                light: bool = False) -> list[Candidate]:
    """The proposals `at` cut from the picture and read in one batch (each with the white
    balance `gains` of the view it came from), each given its `second_look`: one candidate per
    proposal, in their order."""
    if not at:
        return []
    looks = [reader.look(image, q) for q in at]
    probs = reader.model.classify(np.stack([crop for crop, _, _ in looks]))
    return second_look(reader, image, [
        Candidate(q, angle, pr, patch, g, crop)
        for q, (crop, patch, angle), pr, g in zip(at, looks, probs, gains, strict=True)],
        size, capped, light)


def second_look(reader: CropReader, image: np.ndarray, found: list[Candidate], size: float | None,
                capped: bool = False, light: bool = False) -> list[Candidate]:
    """Unsure dice, dice proposed at a size out of line with the picture's others, and rejected
    candidates the proposer is fairly sure of, read again at other crop sizes, in one batch. A
    die keeps its surest read that is not a reject; a rejected one comes back only on a sure
    read. Each keeps the proposer's box: a crop that reads better is not a better box (a small
    die in twice its size of crop can pass for a one), and captured labels keep the size the
    reader's first look will cut again. `capped`: of the rejected candidates, only the
    `SECOND_LOOK_REJECTED_MOST` surest by heat (or as many as the dice read) are looked at;
    `light` (a big still's first view: `Reader._zoomed`): none, and no die read in the colour
    greys (`faces.colour_views`)."""
    typical = typical_size(found, size, reader.rejects)
    rejected = sorted((i for i, c in enumerate(found) if not light and reader.rejects(c)
                       and c.proposal.score >= SECOND_LOOK_REJECTED_SCORE),
                      key=lambda i: -found[i].proposal.score)
    if capped:
        dice_read = sum(not reader.rejects(c) for c in found)
        rejected = rejected[:max(SECOND_LOOK_REJECTED_MOST, dice_read)]
    again_rejected = set(rejected)

    def multiples(i: int, c: Candidate) -> tuple[float, ...]:
        """Multiples of the proposed size to read the candidate at again."""
        if reader.rejects(c):
            return SECOND_LOOK_REJECTED_SCALES if i in again_rejected else ()
        out: tuple[float, ...] = SECOND_LOOK_SCALES if reader.unsure(c) else ()
        if typical is not None and not (
                OUT_OF_LINE[0] <= c.proposal.size / typical <= OUT_OF_LINE[1]):
            out += (typical / c.proposal.size,)
        return out

    again = [(i, ks) for i, c in enumerate(found) if (ks := multiples(i, c))]
    if not again:
        return found
    looks: list[Again] = []
    for i, ks in again:
        c, p = found[i], found[i].proposal
        for k in ks:
            q = Proposal(p.cx, p.cy, p.w * k, p.h * k, p.score)
            looks.append((i, q, *reader.look(image, q)))
        if reader.unsure(c):
            # the face turned half round: the same value, and a second opinion
            looks.append((i, p, np.ascontiguousarray(c.crop[::-1, ::-1]), c.patch, c.angle))
        if (reader.unsure(c) or reader.rejects(c)) and not light:
            looks += [(i, p, reader._crop(view, c.angle), c.patch, c.angle)
                      for view in colour_views(c.patch)]
    probs = reader.model.classify(np.stack([crop for _, _, crop, _, _ in looks]))
    dice = [c.proposal for c in found if not reader.rejects(c)]
    out = list(found)
    for (i, q, _, patch, angle), pr in zip(looks, probs, strict=True):
        if pr[0] >= reader.reject_threshold:
            continue
        surer = pr[1:].max() > out[i].probs[1:].max()
        if reader.rejects(found[i]):
            # a proposal beside a die, seen at twice its size, can show that die: take it
            # back only if no die read at the first look lies within `apart`'s 0.6 of a die
            surer = surer and pr[1:].max() >= SECOND_LOOK_REJECTED_SURE and all(
                apart(q, p) for p in dice)
        if surer:
            out[i] = Candidate(found[i].proposal, angle, pr, patch, found[i].gains,
                               found[i].crop)
    return out
