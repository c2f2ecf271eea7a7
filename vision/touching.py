"""Touching dice in a still are separate dice (issue 36, item 2: an 8 MP Pi still over a dark
tray, "two touching dice get one box: one value, one die missed").

Seen small (an 8 MP still's 100-px dice are 10-40 px in the proposer's 320- to 1280-px views),
two touching dice make one ridge of heat, and the proposer boxes them as one die up to two dice
long, centred on one of them or between them; its crop reads one value. Dice at one distance
from the camera are alike in size, and the proposer boxes a die alone one to one and a half
times its size there: so the still's die is taken as the least of the shorter sides of the
boxes of the dice read surely (a pair side by side is one die wide), though not under 0.6 of
their median (a pip read as a die; `die_sizes.die_size`). A die whose box is `LONG` times that
or more along an axis is read again at that size on a grid of places in its box where its dice
can lie, in one batch; the reads at least `SURE` sure, greedily the surest first, each at least
`APART` of a die from those taken and from the other dice read, are its dice where two or more
are (else it stays as read). On stills of pairs 1-3 px apart the second die's best place is
often a fifth of a die off the box's halves: hence the grid, not the halves alone.

The proposer's boxes are no measure of a die: at these scales it boxes a die alone 1-2 times
its size, as long as a pair's (on read_cost's drawn stills of dice lying apart, 21 single dice
were boxed 1.45-2.3 typical dice long, each read at 16-25 places for nothing). So a long box is
measured first (`outline_length`): what stands out from the table at its middle, in a square
`WINDOW` dice across, cut off halfway to the other dice read, is one die where its least
rectangle is `SHORTEST` to `EXTENT` dice long, and the box is left as read. Where nothing clear stands
out (the thing reaches the square's border, or nothing stands out at the middle) it is searched.
The same measure tells the focus (`scales.lone`) a pair boxed at one die's size and read surely
as one die from a die alone (`two_long`).

Only boxes that long are looked at (none on most stills), only in stills over twice the
proposer's side (on rune55's 640-px audited photos of heaps, where near dice are larger than
far ones, it made 3 false dice: precision .9837 -> .9807), and only where the caller does
not know the dice's size (the live stream's reader has its own, `vision.missed`).
"""
from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.crop_reader import CropReader
from zonkcam.vision.die_sizes import die_size
from zonkcam.vision.faces import PATCH
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.silhouette import standing_out

Judge = Callable[[Candidate], bool]

LONG = 1.45  # a box this many typical dice long (or more) along an axis may hold two or three
SURE = 0.9  # a die read at a place in such a box is one of its dice when read this surely
APART = 0.8  # typical dice between the centres of two dice taken (touching dice lie one apart)
STEP = 0.35  # of a die: the spacing of the places in a long box where its dice are looked for
STEPS = 5  # places along a side at most
MARGIN = 0.35  # of a die: how far beyond the box less half a die a die's centre may lie
# A long box whose outline's least rectangle is under this many dice long holds one die. On
# tuning stills (drawn pairs seeds 100-139, 30 `pi-drawn` from seed 38, read_cost's 9 drawn) the
# 187 long boxes measured: the 15 the grid parted 1.60-2.63 dice; of the 172 others 141 under
# 1.3 (0.1-1.27, most 0.8-1.2), 24 over, 7 unmeasured. (`silhouette`'s outline, which cuts a
# neighbour touching at a corner off, measured two of the 15 pairs one die long.)
EXTENT = 1.2
# ... and at least this many: a shorter piece at the middle is a pip or a sliver of a die (or the
# gap between two), no measure (`scale_eval --proxies pi-tray,pi-drawn --seed 37`: the five pairs
# that measured 1.3 lost there measured 0.12-0.71, and one 1.23).
SHORTEST = 0.8
WINDOW = 4.0  # dice across the square a long box's outline is looked for in (a pair: 2 long)
# A die read surely and boxed as one whose outline measures this many dice long or more is two
# (`two_long`): pairs measure 1.6-2.6 (the 15 above; drawn pairs 80-100 px 1.7-1.9), a die
# alone up to ~1.4 (from `EXTENT`, clutter_eval's seed 1 phone pictures read one phantom more).
TWO_LONG = 1.5


def places(p: Proposal, size: float) -> list[tuple[float, float]]:
    """Where in the box `p` the centres of dice `size` px across can lie: along each axis on
    which the box is `LONG` dice long, `STEP` of a die apart (at most `STEPS`) over the box
    shrunk by half a die less `MARGIN` of one at each end; along a short axis, its middle (a
    pair side by side: a row of places; a pair at a slant: a grid)."""
    axes = []
    for centre, length in ((p.cx, p.w), (p.cy, p.h)):
        reach = max(0.0, length - size) / 2 + MARGIN * size
        n = min(STEPS, 1 + int(2 * reach / (STEP * size))) if length >= LONG * size else 1
        axes.append([centre] if n == 1 else list(np.linspace(centre - reach, centre + reach, n)))
    return [(float(x), float(y)) for y in axes[1] for x in axes[0]]


def one_die(image: np.ndarray, p: Proposal, size: float | None,
            dice: list[tuple[float, float]]) -> bool:
    """Whether what stands out from the table at the long box `p` (cut off halfway to the other
    `dice`, centres) is a die `size` px across alone: its least rectangle `SHORTEST` to `EXTENT`
    dice long. False where nothing is measured (no size, or no clear outline: `outline_length`)."""
    if size is None:
        return False
    found = outline_length(image, (p.cx, p.cy), size, [d for d in dice if d != (p.cx, p.cy)])
    return found is not None and SHORTEST <= found < EXTENT


def two_long(image: np.ndarray, p: Proposal, size: float, dice: list[tuple[float, float]]) -> bool:
    """Whether what stands out from the table at the die `p` (cut off halfway to the other
    `dice`, centres) is measured `TWO_LONG` dice `size` px across long or more: two dice boxed
    and read surely as one (a pair seen ~36 px across, boxed at the others' size). False where
    nothing clear is measured (`outline_length`)."""
    found = outline_length(image, (p.cx, p.cy), size, [d for d in dice if d != (p.cx, p.cy)])
    return found is not None and found >= TWO_LONG


def outline_length(image: np.ndarray, center: tuple[float, float], size: float,
                   others: list[tuple[float, float]]) -> float | None:
    """How many dice `size` px across long the thing standing out from the table at `center` is
    (its least rectangle's long side): in a square `WINDOW` dice across, what differs from the
    square's border in colour or lightness (`silhouette.standing_out`: dice touching at a
    corner kept together: no opening), nearer `center` than the `others`, the piece holding
    the middle. None where that piece reaches the border or the middle holds none."""
    mask, k = standing_out(image, center, size, others, WINDOW)
    _, labels = cv2.connectedComponents(mask)
    middle = labels[PATCH // 2 - 2:PATCH // 2 + 3, PATCH // 2 - 2:PATCH // 2 + 3]
    if not middle.any():
        return None
    piece = (labels == np.bincount(middle[middle > 0]).argmax()).astype(np.uint8)
    if piece[0].any() or piece[-1].any() or piece[:, 0].any() or piece[:, -1].any():
        return None
    points = cv2.findNonZero(piece)
    _, (w, h), _ = cv2.minAreaRect(points)
    return max(w, h) / (k * size)


def parted(reader: CropReader, image: np.ndarray, found: list[Candidate]) -> list[Candidate]:
    """`found` with each die boxed `LONG` typical dice long or more, and not measured one die
    long (`one_die`), that reads as two or three dice at the typical size (each at least `SURE`
    sure, `APART` apart) replaced by them."""
    size = die_size(found, reader.rejects, reader.unsure)
    long = [i for i, c in enumerate(found) if not reader.rejects(c) and max(c.proposal.w, c.proposal.h)
            >= LONG * (size or min(c.proposal.w, c.proposal.h))]
    dice = [(c.proposal.cx, c.proposal.cy) for c in found if not reader.rejects(c)]
    long = [i for i in long if not one_die(image, found[i].proposal, size, dice)]
    if not long:
        return found
    looks: list[tuple[int, Proposal]] = []
    for i in long:
        p = found[i].proposal
        t = size or min(p.w, p.h)
        looks += [(i, Proposal(x, y, t, t, p.score)) for x, y in places(p, t)]
    cut = [reader.look(image, q) for _, q in looks]
    probs = reader.model.classify(np.stack([crop for crop, _, _ in cut]))
    out: list[Candidate | None] = list(found)
    added: list[Candidate] = []
    for i in long:
        c = found[i]
        reads = sorted(((float(pr[1:].max()), q, look, pr)
                        for (j, q), look, pr in zip(looks, cut, probs, strict=True)
                        if j == i and pr[0] < reader.reject_threshold and pr[1:].max() >= SURE),
                       key=lambda r: -r[0])
        others = [o.proposal for k, o in enumerate(found) if k != i and not reader.rejects(o)]
        taken: list[Candidate] = []
        for _, q, (crop, patch, angle), pr in reads:
            near = [t.proposal for t in taken] + others
            if all(math.hypot(q.cx - n.cx, q.cy - n.cy) >= APART * q.w for n in near):
                taken.append(Candidate(q, angle, pr, patch, c.gains, crop))
        if len(taken) >= 2:
            out[i] = None
            added += taken
    return [c for c in out if c is not None] + added

