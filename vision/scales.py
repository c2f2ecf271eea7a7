"""Dice at scales the proposer's 320-px view does not show well (issue 36).

The proposer finds dice about 16-100 px across in its view. A phone's 12 MP still of dice
~100 px across shows them 8 px wide at 320 px, so such a picture is also proposed at 640 px,
and at 1280 and 2560 px while that finds more dice (`zoom_again`); the proposal that reads the
most dice surely is kept (`how_well`), and where its dice are still small there, the region
round them is proposed once more at the scale where they are ~64 px (`focus`). A die filling a
crop is ~250 px wide at 320 px and its pips pass for dice, so a picture whose dice are large in
it is also proposed shrunk onto a plain canvas (`on_canvas`), and a die read whole there takes
the place of its pips (`whole_dice`); in a crop smaller than the proposer's view, specks, a
neighbour's corner at its edge and pips read unsurely round a die read whole or unsurely give
way to it (`in_a_crop`).

`benchmarks/scale_eval.py` measures these on rune55 photos made small and heaped on a 12 MP
table, pushed together on an 8 MP tray, and cut to one die.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal, apart
from zonkcam.vision.regions import regions

Judge = Callable[[Candidate], bool]  # the reader's `rejects` or `unsure`

# Dice under this many px at the proposer's scale are near the least it finds: a picture whose
# dice read are all about that small, or none, is proposed again at twice the resolution. Chosen
# on fit photos holding dice under 30 px (193 pictures: 6 more exact) and the `tune` groups.
ZOOM_BELOW = 16
# ... and the first view of a big still (over twice the proposer's side) whose dice's size the
# caller does not know, while they are boxed under this many times that: the proposer boxes a die
# of 8-14 px (an 8 MP Pi still's 80-140-px dice at 320 px) 1.5-4 times its size, two touching
# dice as one (scale_eval's pi-tray `tune` stills: 320-px boxes 1-4.8 of the dice's size; the
# 640-px view finds them at 16-28 px: recall .814 -> .853, pi-drawn .906 -> .947).
FIRST_VIEW_BOXED = 2
# A big still is zoomed while its last proposal reads under `FEW_SURE` dice surely or more than
# the one before, up to `ZOOM_GROWS_TO` px; it is zoomed beyond only while its dice are small, up
# to `ZOOM_SIDE_MAX` (the proposer on 1280x960 takes ~50 ms on one core, on 2560x1920 ~0.3 s).
FEW_SURE = 3
ZOOM_GROWS_TO = 1280
ZOOM_SIDE_MAX = 2560
# A picture whose dice read are this share of its long side or more is proposed again, shrunk to
# `CLOSE_UP_SIDE` px in the middle of a canvas `CLOSE_UP_CANVAS` times that: a die filling a crop
# then shows 30-45 px wide (issue 36: precision .36 on single-die crops, .97 on a canvas).
CLOSE_UP_FROM = 0.1
CLOSE_UP_SIDE = 48
CLOSE_UP_CANVAS = 4
# Where the close-up's die holds what look like dice side by side, a proposal at this side decides
# (a die filling a crop shows ~130 px there, read whole; two dice side by side are two).
MIDDLE_SIDE = 160
# A die the close-up reads is of this share of the picture's long side or more (smaller, it is
# under 20 px there, and a heap of dice can pass for one).
CLOSE_UP_LEAST = 0.4
SAME_DIE = 0.75  # a die read at both scales: the first pass's is at least this of the close-up's
# The middle view's one die of the close-up's value, this share of it or more, is that die: what
# the first look read inside it surely is its halves or pips (scale_eval's close-ups: 0.68-0.72)
ONE_DIE = 0.6
# The first pass's "dice" inside a close-up's die are its pips where they lie closer than this ×
# their size, or are under this share of its size (dice side by side in one box are half of it),
# unless two or more are read surely at that share, or at `SURE_DICE` of the picture (dice side
# by side, or in a round photo's vignette, which the close-up reads as one die).
PIPS_APART = 0.9
PIP_SHARE = 0.4
SURE_DICE = 0.25
PIP_REACH = 0.35  # a die's pips lie within this × its side of its middle (a six's corners: 0.35)
# ... and, of a die the close-up reads whole, read unsurely within this × its side: its box can
# lie a third of a die off its middle, or leave out its side's pips (scale_eval's close-ups)
SPECK_REACH = 1.0
# A big still's dice read at under `FOCUS_FROM` × `FOCUS_DIE` px at the proposer's scale are
# proposed once more in the region round them (`FOCUS_MARGIN` dice beyond), scaled so they are
# `FOCUS_DIE` px there (up to `FOCUS_MOST` times the picture's pixels, and `ZOOM_SIDE_MAX` px):
# touching dice ~30 px across at the proposer's scale make one ridge of heat, at ~50 px two peaks.
FOCUS_DIE = 64
FOCUS_FROM = 0.75
FOCUS_MARGIN = 1.5
FOCUS_MOST = 2.0
# A still's zoom looks only round the dice of the view before where that read this many surely:
# with one, a die or a coin read surely among clutter kept the zoom off three phone pictures'
# other dice (benchmarks/clutter_eval.py seed 1: 5 of 144 dice lost; with two, none) ...
NEAR_SURE = 2
# ... or one, where that view proposed nothing of up to this multiple of its size beyond the
# region round it (a die proposed at over 1.45 times the others' size is out of line:
# `second_look.OUT_OF_LINE`): touching dice on a tray, the others merged with the one read.
ALONE_MOST = 1.45
# In a crop of one die, beside the die read whole, a die under this share of it is none where it
# is read unsurely (a pip, a speck: scale_eval's crops 0.39-0.49 of it) or cut by the crop's edge
# (within `EDGE_REACH` of its size; a neighbour's corner, read as a one: 0.26-0.38)
CROP_SHARE = 0.5
EDGE_REACH = 0.2
# ... and a die read within this share of a larger die's side of its middle, of its value, is
# that die read twice (dice side by side lie a die apart; scale_eval's crops: 0.31-0.78)
SAME_PLACE = 0.8
MOST_PIPS = 6  # more "dice" than this inside a close-up's die are dice (a heap the close-up read as one)
# A die's pips read as dice read as ones, or as the die's own value (a crop of part of its face):
# this many read surely as neither inside a close-up's die are dice side by side (a heap of ~40-px
# drawn dice on a 480x360 table read as one two 200-320 px across; never so on scale_eval's 220
# single-die crops the close-up mended)
OTHER_VALUES = 2


def zoom_again(passes: Mapping[int, Sequence[Candidate]], long_side: int, proposer_side: int,
               size_known: bool, rejects: Judge, unsure: Judge) -> bool:
    """Whether to propose the picture at twice the resolution of its last proposal, given the
    proposals made so far (side: candidates), up to the picture's resolution (to
    `ZOOM_SIDE_MAX`), or twice the proposer's side for a small picture: where the last
    proposal's dice are none or small (`small`); and, in a picture over 640 px whose dice's
    size the caller does not know, where the last proposal read under `FEW_SURE` dice surely,
    or more than the one before, up to `ZOOM_GROWS_TO` (a phone's 12 MP still of dice ~100 px
    across shows them 8 px wide at 320, where the grain of its table can pass for a die).
    Each proposal costs about as much as decoding an 8 MP still, mostly in cutting its crops
    from the whole picture, so a still whose dice are read surely is not zoomed further."""
    side = max(passes)
    if 2 * side > max(2 * proposer_side, min(long_side, ZOOM_SIDE_MAX)):
        return False
    if small(passes[side], side, long_side, rejects):
        return True
    if size_known or long_side <= 2 * proposer_side:
        return False
    if len(passes) == 1 and small(passes[side], side, long_side, rejects, FIRST_VIEW_BOXED):
        return True  # dice boxed near the least the proposer finds are boxed too big
    sure = [how_well(passes[k], k, rejects, unsure)[0] for k in sorted(passes)]
    if len(sure) == 1:
        return sure[0] < FEW_SURE
    return (sure[-1] < FEW_SURE or sure[-1] > sure[-2]) and 2 * side <= ZOOM_GROWS_TO


def seen_enough(found: Sequence[Candidate], side: int, width: int, height: int, rejects: Judge,
                unsure: Judge) -> bool:
    """Whether a proposal at `side` px of a picture `width`x`height` read `NEAR_SURE` dice
    surely, at a size the proposer finds (`ZOOM_BELOW` px or more there): a zoom past it need
    look only round its dice (`vision.regions`), as the focus does. One die read surely is
    enough where the proposal holds nothing else of a die's size (`alone`)."""
    sure = how_well(found, side, rejects, unsure)[0]
    if sure == 0 or small(found, side, max(width, height), rejects):
        return False
    return sure >= NEAR_SURE or alone(found, width, height, rejects)


def alone(found: Sequence[Candidate], width: int, height: int, rejects: Judge) -> bool:
    """Whether every candidate of a proposal up to `ALONE_MOST` times the size of the dice read
    (smaller ones too), rejected or not, lies in the regions round those dice: the view saw
    nothing that could be a die beyond them. (An 8 MP still of touching dice on a grained tray,
    at 640 px: one die read surely, the dice touching it merged with it, and the grain proposed
    at two to six times a die's size.)"""
    typical = float(np.median([c.proposal.size for c in found if not rejects(c)]))
    boxes = regions(found, width, height, rejects, FOCUS_MARGIN)
    return all(any(within_box(c.proposal, b) for b in boxes) for c in found
               if c.proposal.size <= ALONE_MOST * typical)


def small(found: Sequence[Candidate], side: int, long_side: int, rejects: Judge,
          times: float = 1.0) -> bool:
    """Whether a proposal at `side` px read no die, or dice of a median under `times`
    `ZOOM_BELOW` px at that scale."""
    sizes = [c.proposal.size for c in found if not rejects(c)]
    return not sizes or float(np.median(sizes)) * side / long_side < times * ZOOM_BELOW


def how_well(found: Sequence[Candidate], side: int, rejects: Judge, unsure: Judge,
             larger_first: bool = False) -> tuple[int, int, int]:
    """How well a proposal at `side` px reads: dice read surely (the grain of a table seen
    small can pass for a die or two, seldom surely), dice read, then the smaller side first,
    or the larger where `larger_first` (a still's dice seen bigger are read better; a live
    table's reader keeps its first view unless a zoom reads more)."""
    dice = [c for c in found if not rejects(c)]
    return sum(not unsure(c) for c in dice), len(dice), side if larger_first else -side


def wants_close_up(found: Sequence[Candidate], long_side: int, proposer_side: int,
                   rejects: Judge, unsure: Judge) -> bool:
    """Whether the dice read are large in the picture (or none were read in a small one), or
    the picture is smaller than the proposer's view: blown up to it, a die filling the picture
    is beyond the sizes the proposer finds, and a speck of a pip can be the only "die" read
    (rune55's ~40-px dice cut ~60 px: a pip 2-4 px across read as a one, under
    `CLOSE_UP_FROM` of the picture, and the close-up never looked). In a picture the
    proposer's size or larger, only where what was read could be a big die's pips (`pips_may_be`)."""
    sizes = [c.proposal.size for c in found if not rejects(c)]
    if long_side < proposer_side:
        return True
    if not sizes:
        return long_side <= 2 * proposer_side
    return max(sizes) >= CLOSE_UP_FROM * long_side and pips_may_be(found, rejects, unsure)


def pips_may_be(found: Sequence[Candidate], rejects: Judge, unsure: Judge) -> bool:
    """Whether the dice read in a picture the proposer's size or larger could be the pips or
    part of one die filling much of it: one die read, or any read unsurely. The proposer, seeing
    a die 0.3-0.8 of a 640-px picture, proposes its pips, read unsurely or as no die, or the
    die alone; two or more dice read surely are dice (rune55's 640-px photos: 321 of 399, where
    the close-up read their dice again at ~6 ms a picture, changed boxes, and once took three
    dice for one)."""
    dice = [c for c in found if not rejects(c)]
    return len(dice) < 2 or any(unsure(c) for c in dice)


def focus(found: Sequence[Candidate], width: int, height: int, side: int, rejects: Judge,
          unsure: Judge | None = None, two: Callable[[Proposal], bool] | None = None
          ) -> list[tuple[tuple[int, int, int, int], int]]:
    """The regions (x0, y0, x1, y1) round the dice read in a proposal at `side` px of a picture
    `width`x`height`, each with the side to propose it at so they show `FOCUS_DIE` px across;
    none where they already show about that size there, or none were read. Dice further apart
    than their margins get regions of their own (`regions`): six dice scattered over an 8 MP
    still are six small regions, not the whole still seen at three times the pixels. With
    `unsure`, a region holding one die read surely and nothing else read is left out (`lone`;
    not where `two` says that die is two)."""
    dice = [c.proposal for c in found if not rejects(c)]
    if not dice:
        return []
    long_side = max(width, height)
    typical = float(np.median([p.size for p in dice]))
    if typical * side / long_side >= FOCUS_FROM * FOCUS_DIE:
        return []
    out = []
    for x0, y0, x1, y1 in regions(found, width, height, rejects, FOCUS_MARGIN):
        if unsure is not None and lone(found, (x0, y0, x1, y1), rejects, unsure, two):
            continue
        out.append(((x0, y0, x1, y1), focus_side((x0, y0, x1, y1), typical)))
    return out


def focus_side(box: tuple[int, int, int, int], die: float) -> int:
    """The side to propose the region `box` at so that a die `die` px across shows `FOCUS_DIE`
    px (up to `FOCUS_MOST` times the region's pixels, and `ZOOM_SIDE_MAX` px)."""
    long = max(box[2] - box[0], box[3] - box[1])
    return max(64, round(long * min(FOCUS_DIE / die, FOCUS_MOST, ZOOM_SIDE_MAX / long)))


def lone(found: Sequence[Candidate], box: tuple[int, int, int, int], rejects: Judge,
         unsure: Judge, two: Callable[[Proposal], bool] | None = None) -> bool:
    """Whether the region `box` holds one die read, and read surely (and not measured two dice
    long by `two`): the focus finds no more there (it reads touching dice apart, which make one
    ridge of heat, or a die boxed at a pair; on read_cost's 8 MP stills every such region read
    the same die again, and nothing else). A pair seen ~36 px across can be boxed at the other
    dice's size and read surely as one die: only its outline tells (`touching.two_long`)."""
    inside = [c for c in found if not rejects(c) and within_box(c.proposal, box)]
    return len(inside) == 1 and not unsure(inside[0]) and (
        two is None or not two(inside[0].proposal))


def within_box(p: Proposal, box: tuple[int, int, int, int]) -> bool:
    """Whether `p`'s centre lies in the region `box` (x0, y0, x1, y1)."""
    return box[0] <= p.cx < box[2] and box[1] <= p.cy < box[3]


def on_canvas(grey01: np.ndarray, side: int, canvas: int) -> tuple[np.ndarray, int]:
    """The proposer's input in the middle of a plain canvas `canvas` times as large, and the
    margin added (px at the proposer's scale); its sides stay multiples of 32."""
    pad = 16 * -(-side * (canvas - 1) // 32)
    return cv2.copyMakeBorder(grey01, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                              value=float(np.median(grey01))), pad


def whole_dice(found: list[Candidate], whole: Sequence[Candidate], long_side: int,
               unsure: Judge, rejects: Judge,
               middle: Callable[[], Sequence[Candidate]] = lambda: ()) -> list[Candidate]:
    """`found` with each die the close-up read surely (`whole`) in place of the candidates
    centred inside it, where those are its pips. A proposal at `MIDDLE_SIDE` px (`middle()`,
    made once, where a close-up's die is big enough to take any place) decides first: one die
    read surely there, about the close-up's size, is one die (and boxed better: the close-up's
    box can leave a pip out), unless `found` read it whole too; two or more read surely there
    inside its box, one neither a one nor its value, are dice side by side, which stay as
    `found` read them. Without that, the close-up's die is kept where what lies inside it is
    not the same die read at both scales, nor one die read surely, nor dice side by side, nor
    a tray of dice."""
    dropped: set[int] = set()
    out = list(found)
    mid: Sequence[Candidate] | None = None
    for big in whole:
        b = big.proposal
        if not whole_die(big, long_side, unsure, rejects):
            continue  # not surely a die, or a heap of dice seen small
        mid = middle() if mid is None else mid
        seen = [c for c in mid if not rejects(c) and not unsure(c) and centre_in(c.proposal, b)]
        if len(seen) > 1 and other_values(big, seen, unsure):
            continue  # dice side by side, read apart where the close-up saw one die (its pips
            # read there are ones, or of its value: a small crop's two read as a one and a two)
        # one die of the close-up's value there, if smaller: its box is off, its read is not
        agrees = len(seen) == 1 and seen[0].value == big.value
        # ... and where that die is `ONE_DIE` of the close-up's or more, what lies inside is it
        # (a crop's five read surely at its halves, or at its middle and a pip as a one)
        one_die = agrees and seen[0].proposal.size >= ONE_DIE * b.size
        if len(seen) == 1 and seen[0].proposal.size >= SAME_DIE * b.size:
            big, b = seen[0], seen[0].proposal  # one die, seen whole at the middle scale
            inside = [i for i, c in enumerate(found) if not rejects(c) and centre_in(c.proposal, b)]
            same = len(inside) == 1 and found[inside[0]].proposal.size >= SAME_DIE * b.size
            if not (same or any(big is c for c in out[len(found):])):  # (two close-up dice)
                dropped.update(inside)
                out.append(big)
            continue
        inside = [i for i, c in enumerate(found) if not rejects(c) and centre_in(c.proposal, b)]
        if len(inside) == 1 and (found[inside[0]].proposal.size >= SAME_DIE * b.size
                                 or not (unsure(found[inside[0]]) or agrees)):
            # the same die read at both scales, or a die read surely inside (unless the middle
            # view read the close-up's value: a drawn five's middle cut at a third of it reads
            # as a four surely, a two's pip as a one)
            continue
        if sum(not unsure(found[i]) for i in inside) > MOST_PIPS:
            continue  # a tray of dice the close-up took for one (rune55 PXL_20240219_192227570;
            # a blurred crop's pips, many, are read unsurely)
        fine = [found[i].proposal for i in inside]
        dice = sum(not unsure(found[i]) and (found[i].proposal.size >= PIP_SHARE * b.size
                                             or found[i].proposal.size >= SURE_DICE * long_side)
                   for i in inside)
        side_by_side = dice > 1 or other_values(
            big, [found[i] for i in inside], unsure) >= OTHER_VALUES or (
                len(fine) > 1 and not crowded(fine) and (
                    float(np.median([p.size for p in fine])) >= PIP_SHARE * b.size))
        if side_by_side and not one_die:
            continue  # dice side by side, which the close-up took for one (or its vignette)
        dropped.update(inside)
        out.append(big)
    return without_specks([c for i, c in enumerate(out) if i not in dropped],
                          [c.proposal for c in out[len(found):]], unsure, rejects)


def without_specks(found: list[Candidate], whole: Sequence[Proposal], unsure: Judge,
                   rejects: Judge) -> list[Candidate]:
    """`found` without the dice read unsurely under `PIP_SHARE` of the size of a die the
    close-up read whole (`whole`: at least `CLOSE_UP_LEAST` of the picture) and within
    `SPECK_REACH` of its side from its middle: pips of its face that its box, drawn off the
    die's middle or smaller than it, leaves out, and the pips of a side seen at a slant."""
    return [c for c in found if rejects(c) or not unsure(c) or not any(
        c.proposal.size < PIP_SHARE * d.size
        and math.hypot(c.proposal.cx - d.cx, c.proposal.cy - d.cy) < SPECK_REACH * d.size
        for d in whole)]


def in_a_crop(found: list[Candidate], close: Sequence[Candidate], width: int, height: int,
              unsure: Judge, rejects: Judge) -> list[Candidate]:
    """`found` in a picture smaller than the proposer's view (a crop of one die), where the
    close-up (`close`) has had its say: where no die is read whole, the close-up's die in place
    of its pips or parts read round it (`close_up_die`); no die read twice
    (`read_once`); beside a die read whole, no die under `CROP_SHARE` of it read unsurely (a
    speck), nor cut by the picture's edge and lying outside its box (a neighbour's corner)."""
    found = read_once(close_up_die(found, close, max(width, height), unsure, rejects), rejects)
    whole = [c.proposal for c in found if whole_die(c, max(width, height), unsure, rejects)]

    def not_a_die(c: Candidate) -> bool:
        p = c.proposal
        return not rejects(c) and all(p is not d for d in whole) and any(
            p.size < CROP_SHARE * d.size and (
                unsure(c) or (not centre_in(p, d) and _at_edge(p, width, height))) for d in whole)

    return [c for c in found if not not_a_die(c)]


def read_once(found: list[Candidate], rejects: Judge) -> list[Candidate]:
    """`found` without a die read of the value of a larger die read within `SAME_PLACE` of its
    size of its middle: one die read twice, by two views or at a part of it (dice lie side by
    side, a die apart)."""
    dice = sorted((c for c in found if not rejects(c)), key=lambda c: -c.proposal.size)
    twice = [c for i, c in enumerate(dice) if any(
        d.value == c.value and math.hypot(c.proposal.cx - d.proposal.cx, c.proposal.cy
                                          - d.proposal.cy) < SAME_PLACE * d.proposal.size
        for d in dice[:i])]
    return [c for c in found if all(c is not t for t in twice)]


def close_up_die(found: list[Candidate], close: Sequence[Candidate], long_side: int,
                 unsure: Judge, rejects: Judge) -> list[Candidate]:
    """`found`, where no die of it is read whole, with the close-up's largest die of
    `CLOSE_UP_LEAST` of the picture or more in place of what `found` read within `SPECK_REACH`
    of its side from its middle, where all that is its pips (read unsurely, under `PIP_SHARE`
    of it) or, the close-up's die read surely, parts of its face (read as its value or as ones,
    under `SAME_DIE` of it: a five read surely at three of its corners). Seen whole at a size
    the classifier knows, a blurred crop's die read unsurely is read right more often than not;
    its pips and parts, each read as a die, never are (scale_eval's close-ups, seeds 37 and 41:
    8 of 9 such unsure dice read right)."""
    if any(whole_die(c, long_side, unsure, rejects) for c in found):
        return found
    big = max((c for c in close if not rejects(c)
               and c.proposal.size >= CLOSE_UP_LEAST * long_side),
              key=lambda c: c.proposal.size, default=None)
    if big is None:
        return found
    b = big.proposal  # its box can lie a third of a die off its middle: its reach, as a speck's
    inside = [c for c in found if not rejects(c)
              and math.hypot(c.proposal.cx - b.cx, c.proposal.cy - b.cy) < SPECK_REACH * b.size]

    def part(c: Candidate) -> bool:
        return (unsure(c) and c.proposal.size < PIP_SHARE * b.size) or (
            not unsure(big) and c.value in (1, big.value) and c.proposal.size < SAME_DIE * b.size)

    if not inside or not all(part(c) for c in inside):
        return found
    return [c for c in found if all(c is not i for i in inside)] + [big]


def _at_edge(p: Proposal, width: int, height: int) -> bool:
    """Whether `p`'s box reaches within `EDGE_REACH` of its size of the picture's edge."""
    m = EDGE_REACH * p.size
    return (p.cx - p.w / 2 < m or p.cy - p.h / 2 < m or p.cx + p.w / 2 > width - m
            or p.cy + p.h / 2 > height - m)


def whole_die(c: Candidate, long_side: int, unsure: Judge, rejects: Judge) -> bool:
    """Whether a close-up's candidate is a die read whole: surely, and at least
    `CLOSE_UP_LEAST` of the picture's long side."""
    return not rejects(c) and not unsure(c) and c.proposal.size >= CLOSE_UP_LEAST * long_side


def other_values(big: Candidate, inside: Sequence[Candidate], unsure: Judge) -> int:
    """How many of the dice `inside` a close-up's die `big` read surely as neither one nor its value."""
    return sum(not unsure(c) and c.value not in (1, big.value) for c in inside)


def centre_in(p: Proposal, box: Proposal) -> bool:
    """Whether `p`'s centre lies in `box`."""
    return abs(p.cx - box.cx) < box.w / 2 and abs(p.cy - box.cy) < box.h / 2


def without_pips(found: list[Candidate], unsure: Judge, rejects: Judge) -> list[Candidate]:
    """`found` without the dice read within `PIP_REACH` of a die's side from the middle of a
    die read surely and under `PIP_SHARE` of its size: its pips (a close-up's die is found
    whole and at its pips), as dice lie side by side, not on one another."""
    sure = [c.proposal for c in found if not rejects(c) and not unsure(c)]

    def pip(p: Proposal) -> bool:
        return any(p.size < PIP_SHARE * d.size
                   and math.hypot(p.cx - d.cx, p.cy - d.cy) < PIP_REACH * d.size for d in sure)

    return [c for c in found if rejects(c) or not pip(c.proposal)]


def crowded(proposals: Sequence[Proposal]) -> bool:
    """Whether each proposal has another closer than `PIPS_APART` of their median size: the pips
    of one die, each proposed as a die (dice side by side lie a die apart)."""
    size = float(np.median([p.size for p in proposals]))
    return all(any(not apart(p, q, size, PIPS_APART) for q in proposals if q is not p)
               for p in proposals)
