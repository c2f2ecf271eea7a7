"""Stacked dice in an overhead picture: a die resting on another hides most of it.

From above, the die below shows only as a sliver beside the one on top (rarely would it sit
exactly beneath), so the top die's silhouette covers more of the table than a die lying alone:
about 1.2 to 1.6 faces' worth against 1.0 on simulated throws. Dice of one set are one size, so
the measure is against the other dice in the same picture (on a dark table with no die seen
leaving, by lightness too: `_by_area`), and it is asked only when a die is missing from the
count: a big silhouette alone (a shadow, a die the same colour as a neighbour it touches) is
not evidence enough. A die the cocked test called `cocked` is asked too: the sliver of the die
below, in the top die's shadow, is what a cocked die's darker side looks like, and one die
short, a die hidden under it is likelier than a die gone (the stream gives it back the value
read before the cocked test took it: the die on top lies flat). The stream reads a stack's top
die again at its face (`top_face_centre`), away from the sliver below.
"""
from __future__ import annotations

import math
import statistics
from collections.abc import Collection, Sequence
from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import PATCH
from zonkcam.vision.geometry import count_dice
from zonkcam.vision.silhouette import COLOUR_APART, on_dark_table, silhouette

STACK_AREA = 1.2  # a silhouette this many times the others' median area hides a die below
STACK_MOST_DARK = 2.0  # ...and at most this, measured by lightness too (`_by_area`; stacks
# measured up to 1.86 at 53 throws of unkind games)
STACK_NEAR = 1.1  # the largest die measuring this many times the others' median, by lightness,
# is measured again against the floor's median (`_by_the_median`)
# die sides looked at around each die: the recognizer can centre a stack's top die at a pip,
# and the stack then reaches past the window a die lying flat is measured in (2.4)
WINDOW = 3.0
SLIVER = 0.15  # of a stack's silhouette: the die below shows at least this much
# faces a die and its pieces cover at most, measured by lightness: a stack's sliver, lit, shows
# in pieces apart from its top die, and a stack covers up to 1.9 faces (the cocked test's 1.5,
# `silhouette.PIECES_MOST`, left out 77008 t2's sliver at some sides: 1.5 faces)
PIECES_MOST = 2.0


def mark_stacked(image_bgr: np.ndarray, dice: list[Die], side: float, missing: int,
                 none_left: bool = False, called: Collection[int] = ()) -> list[Die]:
    """`dice` with up to `missing` of them marked `stacked` (largest silhouettes first), those
    whose silhouette is at least `STACK_AREA` times the median of the other dice's. `side`: the
    face side of a die lying flat, in pixels; `missing`: dice short of the count in play.
    `none_left`: no die was seen rolling where it could leave the picture; then one die short
    and one die called `cocked` is a stack, however its silhouette measures (grey dice on a
    black floor: the die below, in shadow, hardly stands out). `called`: the indices of dice
    called cocked in most of the quorum's pictures though decided flat on their mean
    (`quorum.cocked_or_flat`), which count as called `cocked` here: the sliver below, in the
    top die's shadow, made the stack look cocked (79018 t2, 1.19 times the others' median)."""
    if missing <= 0:
        return dice
    on_top = _by_area(image_bgr, dice, side, missing, lighter=none_left)
    cocked = [i for i, d in enumerate(dice)
              if (d.status == "cocked" or i in called) and i not in on_top]
    if none_left and missing - len(on_top) == 1 and len(cocked) == 1:
        on_top.add(cocked[0])
    elif none_left and missing == 1 and not on_top and not cocked:
        on_top = _by_the_median(image_bgr, dice, side)
    return [replace(d, status="stacked") if i in on_top else d for i, d in enumerate(dice)]


def unread_stacks(image_bgr: np.ndarray, dice: list[Die], spots: Sequence[tuple[float, float]],
                  read: Sequence[Die], side: float, count: int | None) -> list[Die]:
    """Stacks, value unread, at changed `spots` where the reader (`read`: what it read at
    them) found no die, with `count` the dice in play and `dice` two or more short of it
    (falsy: not short after a roll, or a die seen leaving): a spot that measures a stack
    against `dice` (`_by_area`, by lightness). The reader takes a face it cannot read for no
    die at all: a washed-out white face on top of a stack, nearer the light, showed no pip
    (86000 t8: the stack not seen, two dice short, a false SPAZ)."""
    missing = count - count_dice(dice) if count else 0
    unread = [s for s in spots if all(math.dist(s, d.center) >= side for d in read)]
    if missing < 2 or not unread:
        return []
    half = side / 2
    maybe = [Die(None, None, 0.0, 0.0, (round(x - half), round(y - half), round(x + half),
                                        round(y + half)), (x, y), 0.0, "unreadable")
             for x, y in unread]
    on_top = _by_area(image_bgr, dice + maybe, side, missing // 2, lighter=True)
    return [replace(maybe[i - len(dice)], status="stacked") for i in sorted(on_top)
            if i >= len(dice)]


def _by_the_median(image_bgr: np.ndarray, dice: list[Die], side: float) -> set[int]:
    """The die that measures largest against the floor's lit part, `STACK_NEAR` times the
    others' median or more, if it measures a stack against the floor's median: by a tray's
    shaded wall the die below, in the top die's shadow, is darker than the floor's lit part
    there and lighter than its median (79018 t2: 1.19 times the others' median, 1.62 against
    the median). A die lying flat by the wall, ringed by the lit floor, measures large against
    the median alone (75004 t6: 1.37 there, 0.99 against the lit part, a stack 1.03)."""
    lit = _ratios(_measured(image_bgr, dice, side, True)[0])
    largest = max(lit, key=lambda i: lit[i], default=None)
    if largest is None or lit[largest] < STACK_NEAR:
        return set()
    return {largest} & _by_area(image_bgr, dice, side, 1, lighter=True, lit_floor=False)


def _by_area(image_bgr: np.ndarray, dice: list[Die], side: float, missing: int,
             lighter: bool = False, lit_floor: bool = True) -> set[int]:
    """Up to `missing` of the dice whose silhouettes are `STACK_AREA` times the others'.
    `lighter` (no die seen leaving): on a dark table measured by lightness too, and at most
    `STACK_MOST_DARK` times. A grey or black die on a black floor stands out by lightness
    more than by colour (by colour alone such stacks measured about a die's size). With a
    die seen leaving, a die gone is likelier than one hidden, and the colour test asks
    (a black die lying alone can measure large by lightness); on a dark table a die it
    measures large must measure so by lightness too: grey dice there stand out by colour
    in scraps, a fifth of a face each, and one joined to a scrap of the floor measured 3.6
    times their median (73012 t2: a die gone taken for a stack). Lighter is lighter than the
    floor's lit part: by a tray's wall the floor round a die stood out against the shaded
    strip and ringed it (`silhouette`'s `lit_floor`). By lightness a die measuring over
    `STACK_MOST_DARK` has merged with the floor's lighter grain, not stacked. `lit_floor`
    False: lighter than the floor's median (`silhouette`). The figures:
    docs/live.md ("How it decides", stacks) and benchmarks/README.md (issue 34, rounds 3-5)."""
    areas, dark = _measured(image_bgr, dice, side, lighter, lit_floor)
    ratios = _ratios(areas)
    big = [i for i, r in ratios.items()
           if STACK_AREA <= r <= (STACK_MOST_DARK if lighter and dark[i] else math.inf)]
    if not lighter and any(dark[i] for i in big):
        by_lightness = _ratios(_measured(image_bgr, dice, side, True)[0])
        big = [i for i in big
               if not dark[i] or STACK_AREA <= by_lightness.get(i, 0.0) <= STACK_MOST_DARK]
    return set(sorted(big, key=lambda i: -ratios[i])[:missing])


def _measured(image_bgr: np.ndarray, dice: list[Die], side: float, lighter: bool,
              lit_floor: bool = True) -> tuple[dict[int, float], dict[int, bool]]:
    """The silhouette's area (faces) of each die lying flat, unread or cocked, by colour (and
    with `lighter` by lightness), and whether it lies on a dark table."""
    centres = [d.center for d in dice]
    areas: dict[int, float] = {}
    dark: dict[int, bool] = {}
    for i, d in enumerate(dice):
        if d.status in ("ok", "unreadable", "cocked"):
            found = silhouette(image_bgr, d.center, side, centres[:i] + centres[i + 1:], WINDOW,
                               lighter=lighter, lit_floor=lit_floor, most=PIECES_MOST)
            if found is not None:
                areas[i] = found.area
                dark[i] = on_dark_table(found.patch)
    return areas, dark


def _ratios(areas: dict[int, float]) -> dict[int, float]:
    """Each area over the median of the others' (none with fewer than two)."""
    if len(areas) < 2:
        return {}
    return {i: a / statistics.median(b for j, b in areas.items() if j != i)
            for i, a in areas.items()}


def top_face_centre(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                    others: Sequence[tuple[float, float]] = ()) -> tuple[float, float] | None:
    """The centre of the top die of the stack at `center` (dice of `side` px; `others`: the
    other dice's centres): of the stack's silhouette split by colour, or else by lightness,
    the part that holds the larger piece, pips filled in: the top die shows a whole face, the
    die below a sliver. Lightness alone does not tell: the die below lies in the top one's
    shadow, but a dark die on a light one is the darker (a black two on a grey three, whose
    sliver was read as a one). None when the stack does not stand out from the table."""
    found = silhouette(image_bgr, center, side, others, WINDOW)
    if found is None:
        return None
    mask = np.zeros((PATCH, PATCH), np.uint8)
    cv2.drawContours(mask, [found.contour], -1, 1, -1)
    top = _of_two_colours(found.patch, mask)
    if top is None:
        grey = cv2.cvtColor(found.patch, cv2.COLOR_BGR2GRAY)
        cut, _ = cv2.threshold(grey[mask > 0], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        parts = [(grey > cut) & (mask > 0), (grey <= cut) & (mask > 0)]
    else:
        parts = [top]
    pieces = [_largest_piece(part) for part in parts]
    best = max((p for p in pieces if p is not None), key=lambda p: p[0], default=None)
    return None if best is None else found.in_picture(*best[1])


def _largest_piece(part: np.ndarray) -> tuple[int, tuple[float, float]] | None:
    """The area and centre (patch pixels) of the largest piece of `part` (a bool mask),
    closed over a pip's width first, or None when it is empty."""
    closed = cv2.morphologyEx(part.astype(np.uint8), cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    n, _, stats, centres = cv2.connectedComponentsWithStats(closed)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return int(stats[k, cv2.CC_STAT_AREA]), (float(centres[k][0]), float(centres[k][1]))


def _of_two_colours(patch_bgr: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """Where the silhouette (`mask`) of two dice of unlike colours shows the top die: the
    larger of its two colours, the die below showing a sliver (a red die on a white one,
    whose sliver is the brighter part). None when the colours are alike (a
    die's top face and its side in shadow tell them apart by lightness)."""
    ab = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)[..., 1:][mask > 0]
    if len(ab) < 2:
        return None
    # split along the colours' main axis where Otsu's threshold falls
    mean, axes = cv2.PCACompute(ab, mean=np.empty(0, np.float32), maxComponents=1)  # empty: computed
    along = (ab - mean) @ axes[0]
    span = float(np.ptp(along))
    if span < COLOUR_APART:
        return None
    scaled = np.round(255 * (along - along.min()) / span).astype(np.uint8)
    cut, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    high = scaled.ravel() > cut
    if not SLIVER <= high.mean() <= 1 - SLIVER:
        return None  # a blend at the outline, or a pip: not a die's worth of colour
    if float(np.hypot(*(ab[high].mean(axis=0) - ab[~high].mean(axis=0)))) < COLOUR_APART:
        return None
    out = np.zeros(mask.shape, bool)
    out[mask > 0] = high if high.sum() * 2 > len(high) else ~high
    return out
