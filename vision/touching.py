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

A phone's 12 MP still of marbled or translucent dice (issue 36's bowl, `benchmarks/phone_bowl.py`)
adds three faults the outline mends: a pair boxed as one whose grid reads no two dice surely is
parted at the halves of its outline where that is two dice by one (`pair_halves`); a die boxed at
two of its pips and read twice is read once, at its outline's middle (`read_twice`); and a die
boxed at a pip, under half the dice's size, is read again at their size where its outline is one
die (`read_whole`), where `die_sizes.alike_in_size` would drop it as a speck.

Only boxes that long are looked at (none on most stills), only in stills over twice the
proposer's side (on rune55's 640-px audited photos of heaps, where near dice are larger than
far ones, it made 3 false dice: precision .9837 -> .9807), and only where the caller does
not know the dice's size (the live stream's reader has its own, `vision.missed`).
"""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.crop_reader import CropReader
from zonkcam.vision.die_sizes import LEAST_OF_TYPICAL, die_size, typical_size
from zonkcam.vision.faces import PATCH
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.second_look import read_looked
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
TYPICAL_FROM = 3  # dice read surely needed for a typical size to go by
WINDOW = 4.0  # dice across the square a long box's outline is looked for in (a pair: 2 long)
# A die read surely and boxed as one whose outline measures this many dice long or more is two
# (`two_long`): pairs measure 1.6-2.6 (the 15 above; drawn pairs 80-100 px 1.7-1.9), a die
# alone up to ~1.4 (from `EXTENT`, clutter_eval's seed 1 phone pictures read one phantom more).
TWO_LONG = 1.5
# Two dice read closer than this many typical dice (the median size of the dice read surely) may
# be one die read twice: a 12 MP phone still's ~100-px dice seen ~32 px at 1280 px are often
# proposed at two of their pips, each boxed half a die and read surely (phone_bowl seed 1: 16
# such pairs 0.52-0.97 apart; touching dice, centres a side or more apart, 0.66 and up: the
# proposer's boxes are no measure). Where what stands out at their midpoint measures one die
# long (`SHORTEST` to `EXTENT`), it is one: of its 16 pairs 12 measured 0.81-1.19, of 42 touching
# pairs one (0.87; the others 1.37-2.0, or a piece under `SHORTEST`).
TWICE = 1.0
# A long box the grid did not part (no two reads `SURE`) whose outline is under this many dice
# long (and twice `APART` or more) and whose short side is this share of its long is a pair side
# by side (`pair_halves`; phone_bowl seed 1: marbled pairs boxed as one measured 1.7-2.7 long,
# 0.42-0.5; on scale_eval's phone proxy, seed 37, a rune55 die seen at a slant, 1.7 by 0.67, and
# an illegible one were read as pairs at 0.7: two false dice)
PAIR_MOST = 3.0
PAIR_SQUARE = (0.4, 0.6)
# A die read at a side face below its top lies low in its outline, top and side: its middle lies
# this many dice above the die or more (`read_at_top`; the top shows 0.25-0.55 of a die above)
SIDE_ABOVE = 0.1
# ... and the piece is as square as a die: its least rectangle's shorter side this share of its
# longer or more (one die read twice 0.72-1.0, 0.86 and up for 10 of 12; touching rune55 dice on
# scale_eval's `touching` tray whose outline measured one die long, 0.53-0.78, and one 0.87)
SQUARE = 0.8
# ... and holds both reads: each within this × its length of its middle. A die read at two pips
# can be read at its edge, half a die from its middle or more (phone_bowl seed 3: 0.51, 0.63);
# a touching partner that does not stand out is read a die off it.
HOLDS = 0.65


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
    found = outline(image, center, size, others)
    return None if found is None else found.length


class Piece(NamedTuple):
    """What stands out from the table at a point (`outline`), its least rectangle measured."""

    length: float  # its long side, in dice
    middle: tuple[float, float]  # px
    square: float  # its short side over its long
    halves: tuple[tuple[float, float], tuple[float, float]]  # the middles of its halves along it (px)


def outline(image: np.ndarray, center: tuple[float, float], size: float,
            others: list[tuple[float, float]]) -> Piece | None:
    """`outline_length`'s piece, measured."""
    mask, k = standing_out(image, center, size, others, WINDOW)
    _, labels = cv2.connectedComponents(mask)
    middle = labels[PATCH // 2 - 2:PATCH // 2 + 3, PATCH // 2 - 2:PATCH // 2 + 3]
    if not middle.any():
        return None
    piece = (labels == np.bincount(middle[middle > 0]).argmax()).astype(np.uint8)
    if piece[0].any() or piece[-1].any() or piece[:, 0].any() or piece[:, -1].any():
        return None
    points = cv2.findNonZero(piece)
    (x, y), (w, h), turn = cv2.minAreaRect(points)
    a = math.radians(turn if w >= h else turn + 90)
    mx, my = center[0] + (x - PATCH / 2) / k, center[1] + (y - PATCH / 2) / k
    dx, dy = max(w, h) / 4 / k * math.cos(a), max(w, h) / 4 / k * math.sin(a)
    return Piece(max(w, h) / (k * size), (mx, my), min(w, h) / max(w, h, 1e-6),
                 ((mx - dx, my - dy), (mx + dx, my + dy)))


def sure_size(found: list[Candidate], rejects: Judge, unsure: Judge) -> float | None:
    """The median size of the dice read surely, from `TYPICAL_FROM` of them: on a phone still
    about a die's box (`die_size`, the least of them, is half a die where pips are boxed)."""
    sure = [c.proposal.size for c in found if not rejects(c) and not unsure(c)]
    return float(np.median(sure)) if len(sure) >= TYPICAL_FROM else None


def outline_scale(image: np.ndarray, found: list[Candidate], size: float, rejects: Judge,
                  unsure: Judge) -> float:
    """How many dice `size` px across a die alone measures by its outline on this still: the
    median of the outlines (`outline`) of the dice read surely, from `TYPICAL_FROM` measured,
    else 1. The proposer boxes a phone still's dice 0.9 to 1.4 times their side, so a die's
    outline is measured against those of the still's own dice, not against their boxes
    (phone_bowl seed 3: a median 0.54-1.06 of the boxes' median by still, within a still
    mostly within 0.1 of it: a die read twice there measured 0.69, one die all the same)."""
    dice = [c for c in found if not rejects(c)]
    centres = [(c.proposal.cx, c.proposal.cy) for c in dice]
    lengths = [piece.length for c, centre in zip(dice, centres, strict=True) if not unsure(c)
               and (piece := outline(image, centre, size, [o for o in centres if o != centre]))
               is not None]
    return float(np.median(lengths)) if len(lengths) >= TYPICAL_FROM else 1.0


def read_at_top(image: np.ndarray, p: Proposal, size: float, dice: list[tuple[float, float]]
                ) -> bool:
    """Whether the die `p` is read at its top face, not at a side below it: what stands out
    from the table there (cut off halfway to the other `dice`) has its middle less than
    `SIDE_ABOVE` of a die above `p`'s. A die read at the side face below its top is the low end
    of its outline (top and side); one read at its top, or seen from above (a phone's still
    over a bowl), lies at its middle or above."""
    piece = outline(image, (p.cx, p.cy), size, [d for d in dice if d != (p.cx, p.cy)])
    return piece is not None and piece.middle[1] > p.cy - SIDE_ABOVE * size


def read_whole(reader: CropReader, image: np.ndarray, found: list[Candidate]) -> list[Candidate]:
    """`found` with each die boxed under `die_sizes.LEAST_OF_TYPICAL` of the median die read (a
    phone still's die proposed at a pip or two: `alike_in_size` would drop it as a speck) read
    again at the typical size (the median of the dice read surely) at the middle of what stands
    out from the table there, where that is one die long (`SHORTEST` to `EXTENT`; a speck is
    shorter) and reads as a die not `APART` of a die from another die read."""
    dice = [i for i, c in enumerate(found) if not reader.rejects(c)]
    size = sure_size(found, reader.rejects, reader.unsure)
    median = typical_size(found, None, reader.rejects)
    if size is None or median is None:
        return found
    centres = [(found[i].proposal.cx, found[i].proposal.cy) for i in dice]
    at: list[tuple[int, Proposal]] = []
    for i in dice:
        p = found[i].proposal
        if p.size >= LEAST_OF_TYPICAL * median:
            continue
        piece = outline(image, (p.cx, p.cy), size, [c for c in centres if c != (p.cx, p.cy)])
        if piece is not None and SHORTEST <= piece.length < EXTENT:
            at.append((i, Proposal(*piece.middle, size, size, p.score)))
    if not at:
        return found
    wholes = read_looked(reader, image, [q for _, q in at], [found[i].gains for i, _ in at], size)
    out = list(found)
    for (i, q), whole in zip(at, wholes, strict=True):
        if not reader.rejects(whole) and all(
                math.dist((q.cx, q.cy), c) >= APART * size for k, c in zip(dice, centres, strict=True)
                if k != i):
            out[i] = whole
    return out


def one_piece(piece: Piece, size: float, reads: tuple[tuple[float, float], ...],
              scale: float = 1.0) -> bool:
    """Whether an `outline` (dice `size` px across) is one die holding all the `reads`: `SHORTEST`
    to `EXTENT` times `scale` dice long (a die's outline on this still: `outline_scale`),
    `SQUARE` or squarer, each read within `HOLDS` of its length of its middle (two touching
    dice, one dark on a dark tray, outline as one die: the other read lies off it)."""
    length, middle, square, _ = piece
    return SHORTEST * scale <= length < EXTENT * scale and square >= SQUARE and all(
        math.dist(r, middle) <= HOLDS * length * size for r in reads)


def read_twice(reader: CropReader, image: np.ndarray, found: list[Candidate]) -> list[Candidate]:
    """`found` with a die read twice read once: of two dice read closer than `TWICE` typical
    dice (the median size of those read surely, from `TYPICAL_FROM`), where what stands out
    from the table at their midpoint (cut off halfway to the other dice read) is one die long
    (`SHORTEST` to `EXTENT`), one die, read at that piece's middle at the typical size (each
    read was at a pip or two), or where that reads "not a pip die", the surer of the two."""
    rejects, unsure = reader.rejects, reader.unsure
    dice = [i for i, c in enumerate(found) if not rejects(c)]
    size = sure_size(found, rejects, unsure)
    if size is None:
        return found
    centres = {i: (found[i].proposal.cx, found[i].proposal.cy) for i in dice}
    close = sorted((math.dist(centres[i], centres[j]), i, j)
                   for n, i in enumerate(dice) for j in dice[n + 1:]
                   if math.dist(centres[i], centres[j]) < TWICE * size)
    dropped: set[int] = set()
    merged: list[tuple[int, int, Proposal]] = []
    scale = outline_scale(image, found, size, rejects, unsure) if close else 1.0
    for _, i, j in close:
        if i in dropped or j in dropped:
            continue
        (ax, ay), (bx, by) = centres[i], centres[j]
        others = [centres[k] for k in dice if k not in (i, j, *dropped)]
        piece = outline(image, ((ax + bx) / 2, (ay + by) / 2), size, others)
        if piece is not None and one_piece(piece, size, (centres[i], centres[j]), scale):
            dropped |= {i, j}
            merged.append((i, j, Proposal(*piece.middle, size, size,
                                          max(found[i].proposal.score, found[j].proposal.score))))
    if not merged:
        return found
    wholes = read_looked(reader, image, [q for _, _, q in merged],
                         [found[i].gains for i, _, _ in merged], size)
    out = [c for k, c in enumerate(found) if k not in dropped]
    for (i, j, _), whole in zip(merged, wholes, strict=True):
        out.append(whole if not rejects(whole) else
                   max(found[i], found[j], key=lambda c: float(c.probs[1:].max())))
    return out


def parted(reader: CropReader, image: np.ndarray, found: list[Candidate], quantile: float = 0.0,
           seen: float | None = None) -> list[Candidate]:
    """`found` with each die boxed `LONG` typical dice long or more, and not measured one die
    long (`one_die`), that reads as two or three dice at the typical size (each at least `SURE`
    sure, `APART` apart) replaced by them; the dice's size as `die_sizes.die_size` takes it at
    `quantile`, or the still's size by all its views (`seen`: `die_sizes.seen_size`) where
    that is less (a view that boxed every die big hides its pairs from its own measure)."""
    size = die_size(found, reader.rejects, reader.unsure, quantile)
    if seen is not None:
        size = seen if size is None else min(size, seen)
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
    left = [i for i in long if out[i] is not None]
    for i, pair in pairs_read(reader, image, found, left, size, dice):
        out[i] = None
        added += pair
    return [c for c in out if c is not None] + added


def pair_halves(image: np.ndarray, p: Proposal, size: float, dice: list[tuple[float, float]]
                ) -> list[Proposal]:
    """Where the two dice of a pair boxed as one at `p` lie: the middles of the halves of what
    stands out there (`outline`), where that is as a pair: its halves' middles `APART` of a die
    or more (twice that long) and under `PAIR_MOST` dice long, its short side `PAIR_SQUARE` of
    its long (two dice by one: 0.5); else none."""
    piece = outline(image, (p.cx, p.cy), size, [d for d in dice if d != (p.cx, p.cy)])
    if piece is None or not (2 * APART <= piece.length < PAIR_MOST
                             and PAIR_SQUARE[0] <= piece.square <= PAIR_SQUARE[1]):
        return []
    return [Proposal(x, y, size, size, p.score) for x, y in piece.halves]


def pairs_read(reader: CropReader, image: np.ndarray, found: list[Candidate], long: list[int],
               size: float | None, dice: list[tuple[float, float]]
               ) -> list[tuple[int, list[Candidate]]]:
    """The long boxes (indices `long`) the grid did not part whose outline is a pair's
    (`pair_halves`), each with its two dice: read at the halves' middles at the typical size
    (with a second look), where both read as dice and each lies `APART` of a die from the
    other dice read. Marbled and translucent dice in a phone still are seldom read `SURE` at
    a place of the grid: the outline, not the reads, tells where the pair's dice lie."""
    if size is None or not long:
        return []
    at = [(i, q) for i in long for q in pair_halves(image, found[i].proposal, size, dice)]
    if not at:
        return []
    read = read_looked(reader, image, [q for _, q in at], [found[i].gains for i, _ in at], size)
    out = []
    for n in range(0, len(at), 2):
        i, pair = at[n][0], read[n:n + 2]
        others = [d for d in dice if d != (found[i].proposal.cx, found[i].proposal.cy)]
        if not any(reader.rejects(c) for c in pair) and all(
                math.dist((c.proposal.cx, c.proposal.cy), d) >= APART * size
                for c in pair for d in others):
            out.append((i, pair))
    return out

