"""Dice seen at a slant (issue 36, item 3): read the top face; a side face is never a die.

A camera tilted from vertical sees each die's top face and one or two of its sides below it in
the picture (the sides that face the camera). The proposer, trained mostly on dice seen from
above, often centres such a die on its side face, or on the edge between top and side, and the
classifier then reads the side's value (2 -> 4, 3 -> 6). A side face is lit less than the top
(the light comes from above) and is the same colour: so where a die is darker just below its
centre than just above it, a face read above it, foreshortened as a top face seen at a slant,
more surely than the die was read, is its top, and the die is read there.

Not done: a side face proposed and read as a die of its own beside its top. A die read just
below another die of its colour, and darker, is as often a die lying in front of it in rune55's
heaps (dropping it lost 44 of 981 dice of the audited held-out photos; 13 where it is also
darker below than above).

`benchmarks/oblique_eval.py` measures this on dice drawn as cubes seen at 25-55 degrees.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import product

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.faces import PATCH, PATCH_MARGIN
from zonkcam.vision.proposals import Proposal

Judge = Callable[[Candidate], bool]
# colour patches (framed as `faces.patch_at` frames a die) -> each one's class probabilities, face
# angle and classifier crop, in one batch: the reader's classifier
ReadPatches = Callable[[Sequence[np.ndarray]], list[tuple[np.ndarray, float, np.ndarray]]]

# Where a die's top face lies when the die was read at its side (or at the edge between top and
# side): this many of its proposed sizes up the picture, read at `TOP_SIZE` of its size.
UP = (0.25, 0.4, 0.55)
TOP_SIZE = (0.75,)
# A top face seen at a slant is foreshortened up and down: it is read stretched by these.
STRETCH = (1.0, 1.35, 1.7)
# Below a die read at its top face lies more of that face; below one read at its side, the side:
# the body is measured at this many sizes below its centre, in a patch of `PROBE` of its size.
BELOW = 0.3
PROBE = 0.5
# A side under a top: below is at most `SHADE` as light as above, and of its hue (or both near
# grey).
SHADE = 0.88
GREY_CHROMA = 12.0
SAME_HUE_DEG = 35.0
# A face read above is taken for the top when read at least this surely, and more surely than
# the die was (on rune55's audited held-out photos, taking any sure read cost 2 of 981 values).
SURE = 0.9
# A die read this surely is left alone: a die read at its side reads less surely (oblique_eval
# seed 1: the 25 dice the looks read right were read 0.61-0.969 at first); from 0.99, the looks
# cost ~3.8 ms of a rune55 photo's read (276 of its 1286 dice looked at, 9 crops each; none read
# at another value), from 0.97 about a third of that.
MOST_SURE = 0.97


def shade_of(below: np.ndarray, above: np.ndarray) -> bool:
    """Whether the colour `below` is a darker shade of the colour `above` (each: lightness,
    red - green, yellow - blue, 0..255 scale): one die's side under its top."""
    if below[0] > SHADE * above[0]:
        return False
    ca, cb = (math.hypot(float(x[1]), float(x[2])) for x in (above, below))
    if ca < GREY_CHROMA and cb < GREY_CHROMA * 1.5:
        return True  # white, grey, black dice: a side is a darker grey
    if ca < GREY_CHROMA or cb < GREY_CHROMA / 2:
        return False
    ha, hb = (math.degrees(math.atan2(float(x[2]), float(x[1]))) for x in (above, below))
    return abs((ha - hb + 180) % 360 - 180) <= SAME_HUE_DEG


def top_faces(image: np.ndarray, found: list[Candidate], read: ReadPatches, rejects: Judge,
              at_top: Callable[[Proposal], bool] | None = None) -> list[Candidate]:
    """`found` with each die read at a side face read at its top instead: where it is darker
    just below its centre than just above (a side under a top), the surest read of a face above
    it (lying on no other die read) that is surer than its own read, and sure. `at_top`: whether
    a die's outline says it is read at its top (a phone's still over a bowl, where a glossy
    face's light spot made a die darker below: moved up, it was read between two dice)."""
    dice = [i for i, c in enumerate(found) if not rejects(c)]
    if not dice:
        return found
    gains = found[dice[0]].gains  # the picture's white balance
    looks: list[tuple[int, Proposal, np.ndarray]] = []
    for i in dice:
        p = found[i].proposal
        if found[i].probs[1:].max() >= MOST_SURE or not shade_of(_probe(image, p, BELOW),
                                                                  _probe(image, p, -BELOW)):
            continue
        if at_top is not None and at_top(p):
            continue
        for up, size in product(UP, TOP_SIZE):
            q = Proposal(p.cx, p.cy - up * p.size, size * p.w, size * p.h, p.score)
            if not any(_near(q, found[j].proposal) for j in dice if j != i):
                looks += [(i, q, face_patch(image, q, k)) for k in STRETCH]
    out = list(found)
    if looks:
        for (i, q, patch), (probs, angle, crop) in zip(looks, read([p for _, _, p in looks]),
                                                       strict=True):
            p = found[i].proposal  # the die keeps its size: the top face's box is its own
            c = Candidate(replace(q, w=p.w, h=p.h), angle, probs, patch, gains, crop)
            sure = probs[1:].max()
            if not rejects(c) and sure >= SURE and sure > out[i].probs[1:].max():
                out[i] = c
    return out


def face_patch(image: np.ndarray, q: Proposal, stretch: float) -> np.ndarray:
    """`faces.patch_at`'s patch of a face at `q`, stretched up and down by `stretch` (a face
    seen at a slant, made square again)."""
    size = q.size
    half = size * PATCH_MARGIN / 2
    x0, y0 = round(q.cx - half), round(q.cy - half / stretch)
    x1, y1 = round(q.cx + half), round(q.cy + half / stretch)
    h, w = image.shape[:2]
    region = image[max(y0, 0):max(min(y1, h), 1), max(x0, 0):max(min(x1, w), 1)]
    if region.size == 0:
        return np.zeros((PATCH, PATCH, 3), np.uint8)
    region = cv2.copyMakeBorder(region, max(-y0, 0), max(y1 - h, 0), max(-x0, 0), max(x1 - w, 0),
                                cv2.BORDER_REPLICATE)
    small = region.shape[0] > PATCH and region.shape[1] > PATCH
    return cv2.resize(region, (PATCH, PATCH), interpolation=cv2.INTER_AREA if small else cv2.INTER_LINEAR)


def _probe(image: np.ndarray, p: Proposal, down: float) -> np.ndarray:
    """The colour (`shade_of`'s lightness and opponent channels, of the median BGR) of a
    square `PROBE` of a die's size, `down` of its sizes
    below its centre (above, where negative): below a die read at its top, more of the top;
    below one read at its side, the side. Pips are the minority; at most ~16x16 pixels are
    taken (a probe costs ~30 us; `colors.body_lab` cost 0.7 ms a die, a Lab conversion 0.15)."""
    h, w = image.shape[:2]
    half = max(1.0, PROBE * p.size / 2)
    cy = p.cy + down * p.size
    x0, y0 = min(max(int(p.cx - half), 0), w - 1), min(max(int(cy - half), 0), h - 1)
    x1, y1 = max(min(int(p.cx + half), w), x0 + 1), max(min(int(cy + half), h), y0 + 1)
    step = max(1, round(2 * half / 16))
    b, g, r = np.median(image[y0:y1:step, x0:x1:step].reshape(-1, 3), axis=0)
    return np.array([0.299 * r + 0.587 * g + 0.114 * b, r - g, (r + g) / 2 - b])


def _near(q: Proposal, p: Proposal) -> bool:
    """Whether a die read at `p` covers the point `q` (within half its size)."""
    return math.hypot(q.cx - p.cx, q.cy - p.cy) < 0.5 * p.size
