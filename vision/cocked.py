"""Cocked dice in an overhead picture: a top face that is not square.

A camera looking straight down sees the top face of a die lying flat as a square, wherever the
die lies: the face is parallel to the picture, so perspective only scales it (a die far off the
lens axis also shows a side, beside a square top). A die leaning on another or on the wall shows
its top face shortened along the lean (cos of the lean: 0.77 at 40°) and a side face below it,
darker since it faces away from the light. So a die is cocked when its silhouette is long, and
the bright part of it, the top face, is shorter along the long axis than it is wide. A side as
dark as the table (a green die on green felt) leaves the top face alone: a silhouette one die
long and narrower than any die lying flat (and a top face as light as the table, the side alone).

This holds for overhead cameras only (the live stream); a photo taken at a slant foreshortens
every face, so `Reader` does not apply it.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import PATCH
from zonkcam.vision.geometry import STACKED, TWICE
from zonkcam.vision.silhouette import on_dark_table, silhouette

LONG_ASPECT = 1.15  # a silhouette at least this long for its width may be a cocked die...
TWO_DICE_ASPECT = 1.75  # ...and at most this (two touching dice measure about 2)
SHORT_TOP = 0.86  # ...and cocked when its top face is at most this long for its width...
LEAST_TOP = 0.35  # ...and at least this (cos 70°: leaning farther, it lies on its side)
FIND_WINDOW = 3.0  # die sides looked at for it: read at its top face, it reaches 1.2 off
MIN_STEP = 8.0  # grey levels between top face and side for a side to be seen at all
PIP = 0.2  # a pip's width for a face's (kept odd, at least 3 px)
FACE_LONG = 1.15  # die sides: a top face showing alone is at most this long
ALL_FACE = 0.9  # of the silhouette's length: a bright run this long is a face with no side
MORE_COLOUR = 15.0  # Lab chroma: a side this much more colourful than its face is not its side
HUE_TURN = 45.0  # degrees of hue between a coloured face and a side of another colour
# of the top face's Lab lightness (its lower quartile): a side is at least this lit (the
# face's colour in shadow: rune55 faces drawn leaning 0.61 at least; drawn grey dice 0.57-0.62,
# a black die's side of the floor's grey 0.5, a dark die whose white pips fill its face, on
# felt, 0.40); the floor a lamp lights past a white die lying flat, joined to its shaded
# edge, is 0.29-0.31 of its face (78015 t4)
SIDE_DARKEST = 0.4
# a top face with its side beside it is at least this many die sides long (cos + sin of a
# lean of 10° is 1.16), or this much longer than wide (1.37 at 30°, the least lean told:
# `SHORT_TOP`); a die lying flat, its shadow with it, is neither, however its face is shaded
# and its edges rounded off (the die's side as the stream sizes dice can be too large)
SIDE_SEEN = 1.1
SIDE_ASPECT = 1.3
SHARP = 0.2  # of the step: a top face and its side are two flat greys (a shaded face a slope)
ROW_PCT = 35  # a row's grey: this percentile from the face's side (the median let side pips in)
SLANT = 0.25  # rows per column (14°): a side meeting the top face more askew is another die's
# die sides between a die leaning with its side over a flat die's near edge, read at its top
# face, and that flat die: up to 0.38 + 0.64 + 0.5 at a 40° lean, less what the side covers
# (81011 t6: a flat four and a die leaning on its corner, read 1.21-1.23 apart)
OVER_REACH = 1.5


def top_face_ratio(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                   others: Sequence[tuple[float, float]] = (), sides: bool = True,
                   long_aspect: float = LONG_ASPECT) -> float | None:
    """Length of the die's top face along its silhouette's long axis ÷ its width, when the
    silhouette is long and a darker side of the face's colour shows; its width ÷ `side` when
    no side shows (or the bright part is nearly all of it) and it is about one die long (the
    side merges with the table: the silhouette is the top face, a side long across the lean);
    1.0 for a square silhouette; None when it cannot tell (the die merges with the wall or the
    table, or the darker part is another die's). `others`: the centres of the other dice; a
    touching die is cut off where it is nearer its centre, but for what looks like this die's
    side (`silhouette`'s `sides`; False: cut off at halfway all the same)."""
    long = _long_silhouette(image_bgr, center, side, others, sides, long_aspect)
    if not isinstance(long, tuple):
        return long
    turned, width, length, die, dark = long
    # The pips' colour is judged first by what takes out more (`_levels`); on a light die
    # with large pips an opening takes as much of the face between them, and the face's grey
    # shows no short top face where the other judgement shows one: a top face short as a
    # cocked die's either way is one.
    grey = cv2.cvtColor(turned, cv2.COLOR_BGR2GRAY)
    first = _ratio(turned, _levels(grey, width), width, length, die, dark)
    if _short(first):
        return first
    # ...but only a silhouette longer than a die (a top face and its side) with its face
    # stepping sharply to its side (`_sharp_step`): a flat die's lit end is no top face
    if length < SIDE_SEEN * die:
        return first
    level = _levels(grey, width, judged=False)
    second = _ratio(turned, level, width, length, die, dark)
    return second if _short(second) and _sharp_step(level) else first


def _long_silhouette(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                     others: Sequence[tuple[float, float]], sides: bool,
                     long_aspect: float = LONG_ASPECT
                     ) -> tuple[np.ndarray, float, float, float, bool] | float | None:
    """The die's silhouette turned so its long axis runs down the rows (BGR, `0.7` of its
    width across), its width and length and the die's side (patch pixels) and whether the
    table round it is dark (`on_dark_table`), when it is long; else what `top_face_ratio`
    says: 1.0 (square) or None (a piece of a die, two dice)."""
    # A die read at its top face can reach past the reader's window: find it in a wider one,
    # then measure it centred in the narrower one, at a finer scale.
    found = silhouette(image_bgr, center, side, others, FIND_WINDOW, sides, lighter=True,
                       grain=False)
    if found is None:
        return None
    found = silhouette(image_bgr, found.in_picture(*cv2.minAreaRect(found.contour)[0]), side,
                       others, sides=sides, lighter=True, grain=False)
    if found is None:
        return None
    (bx, by), (bw, bh), angle = cv2.minAreaRect(found.contour)
    width, length = sorted((bw, bh))
    if width < 0.6 * found.side or length > TWO_DICE_ASPECT * width:
        return None  # a piece of a die, or two dice
    if length < long_aspect * width:
        return 1.0
    # Turn the silhouette so its long axis runs down the rows (the face's grey is followed
    # along it: `_levels`).
    turn = angle + (90 if bw > bh else 0)
    r = np.asarray(cv2.getRotationMatrix2D((bx, by), turn, 1.0), np.float64)
    r[:, 2] += (PATCH / 2 - bx, PATCH / 2 - by)
    turned = cv2.warpAffine(found.patch, r, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    half_w, half_l = round(0.35 * width), round(0.5 * length)
    c = PATCH // 2
    turned = turned[c - half_l:c + half_l, c - half_w:c + half_w]
    if turned.size == 0:
        return None
    return turned, width, length, found.side, on_dark_table(found.patch)


def side_slant(image_bgr: np.ndarray, center: tuple[float, float], side: float,
               others: Sequence[tuple[float, float]] = ()) -> float | None:
    """How far the step from the die's bright part to its darker part slants across its
    long silhouette: rows of difference between its two halves' steps per column between
    them; None when the silhouette is not long or shows no step. A leaning die's side
    meets its top face along the face's edge, square across the silhouette (about 0); the
    side of another die leaning over a die lying flat crosses its face askew."""
    long = _long_silhouette(image_bgr, center, side, others, True)
    if not isinstance(long, tuple):
        return None
    turned, width, _, _, _ = long
    grey = cv2.cvtColor(turned, cv2.COLOR_BGR2GRAY)
    half = grey.shape[1] // 2
    steps = [_bright_run(_levels(grey, width, cols=cols))
             for cols in (slice(None, half), slice(half, None))]
    a, b = steps
    if a is None or b is None or half == 0:
        return None
    return abs(a - b) / half


def _sharp_step(level: np.ndarray) -> bool:
    """Whether `level` (the face's grey along the die, pips left out) steps from a top face
    to a side: two flat parts, off their medians by `SHARP` of the step on average at most.
    A real die's photo shaded across its face is a slope, and a closing of a dark die's
    light pips along a row joins them into a light band, whose edges the shading blurs."""
    top = _bright_run(level)
    if top is None:
        return False
    n = len(level)
    rows = np.zeros(n, bool)
    if level[:top].mean() >= level[n - top:].mean():
        rows[:top] = True
    else:
        rows[n - top:] = True
    face, side = float(np.median(level[rows])), float(np.median(level[~rows]))
    off = float(np.abs(level[rows] - face).sum() + np.abs(level[~rows] - side).sum()) / n
    return off <= SHARP * (face - side)


def _short(ratio: float | None) -> bool:
    return ratio is not None and LEAST_TOP <= ratio <= SHORT_TOP


def _ratio(rows_bgr: np.ndarray, level: np.ndarray, width: float, length: float, side: float,
           dark: bool) -> float | None:
    """`top_face_ratio` from the face's grey along a long silhouette (`level`); `dark`: on a
    dark table (`on_dark_table`)."""
    top = _bright_run(level)
    if top is not None and top < ALL_FACE * len(level):
        if length < SIDE_SEEN * side and length < SIDE_ASPECT * width:
            return None  # a shaded face (a real die's photo darkens to its edge), no side
        # a black die's rim, as dark as the floor, is left out of its silhouette: one
        # narrower than a die and longer (a top face and its side) has its top face measured
        # against the die's side (77019 t7: 0.90 of its width, 0.75 of the side, as a 40° lean
        # makes it); a flat die one long, its face darkening to one edge, against its width
        across = max(width, side) if length >= SIDE_SEEN * side else width
        return None if _another_colour(rows_bgr, level, top) else top / across
    # No side seen: where it merges with the table, the top face shows alone, one die side
    # long and narrower than a die lying flat (a stack is wider, its top die nearer the lens).
    # Not on a dark table: a die lighter than a dark floor has its face's shaded part merge
    # with it, so the lit part of a flat die is as narrow (81018 t2, 82018 t7: dark twos 0.76
    # and 0.85 of a side wide, a die long), and a leaning die there shows its side: lighter
    # than the floor (a step), or its pips as pieces on a side as dark as the floor.
    if length <= FACE_LONG * side and not dark:
        return width / side
    return None


def _another_colour(rows_bgr: np.ndarray, level: np.ndarray, top: int) -> bool:
    """Whether the darker part of a long silhouette (`rows_bgr`, long axis down the rows;
    `level`: its grey along them; `top`: the brighter part's rows, at either end) is of
    another colour than the brighter part, so not its side: a side is the top face's colour
    in shadow, lit `SIDE_DARKEST` of it at least, no more colourful, not grey when the face
    is coloured, and of about its hue (a black die touching a red die's side is not leaning)."""
    n = len(level)
    first = level[:top].mean() >= level[n - top:].mean()
    lab = cv2.cvtColor(rows_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    lab[..., 1:] -= 128
    face, rest = (lab[:top], lab[top:]) if first else (lab[n - top:], lab[:n - top])
    # the face's lower quartile: a dark die's white pips can fill most of its rows
    lit, shade = float(np.percentile(face[..., 0], 25)), float(np.median(rest[..., 0]))
    if shade < SIDE_DARKEST * lit:
        return True
    f, s = (np.median(part[..., 1:].reshape(-1, 2), axis=0) for part in (face, rest))
    fc, sc = float(np.hypot(*f)), float(np.hypot(*s))
    if sc > fc + MORE_COLOUR or (fc > 2 * MORE_COLOUR and sc < fc / 3):
        return True
    if min(fc, sc) < MORE_COLOUR:
        return False  # a grey die, or a grey part: no hue to compare
    turn = abs(np.degrees(np.arctan2(f[1], f[0]) - np.arctan2(s[1], s[0]))) % 360
    return min(turn, 360 - turn) > HUE_TURN


def _levels(grey: np.ndarray, width: float, judged: bool = True, cols: slice = slice(None)
            ) -> np.ndarray:
    """The face's grey in each row of `grey` (a die, `width` px across, long axis down the
    rows), pips left out: a side's row of pips can fill most of a row, and a dark die's pips
    are as bright as a light die's side. Pips are light on a dark die and dark on a light
    one: the pips are what a pip-sized opening or closing takes out more of, and it takes
    them out (the grey round the middle does not tell: on a light die leaning, it can be its
    side's). Each row's grey is then its `ROW_PCT` percentile from the face's side: a side's
    pips, foreshortened, can outlast that and fill half a row. `judged` False: the pips
    taken for the other colour than judged (`top_face_ratio` tries both). `cols`: the
    columns followed (the pips judged on the whole)."""
    pip = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, round(PIP * width)) | 1,) * 2)
    opened = cv2.morphologyEx(grey, cv2.MORPH_OPEN, pip)
    closed = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, pip)
    lighter = (int(cv2.absdiff(grey, opened).sum()) > int(cv2.absdiff(closed, grey).sum())) == judged
    face = opened if lighter else closed
    return np.percentile(face[:, cols], ROW_PCT if lighter else 100 - ROW_PCT, axis=1)


def _bright_run(level: np.ndarray) -> int | None:
    """Rows of the brighter part of `level` (grey along the long axis), split in two where a
    step fits best (least absolute deviation: a row of pips is an outlier, not a step), or
    None when the step is under `MIN_STEP`. A dark die's pips are brighter than its top
    face, so a split at the middle grey finds the pips, not the face."""
    best: tuple[float, int, float] | None = None
    for k in range(2, len(level) - 1):
        a, b = np.median(level[:k]), np.median(level[k:])
        cost = float(np.abs(level[:k] - a).sum() + np.abs(level[k:] - b).sum())
        if best is None or cost < best[0]:
            best = (cost, k, float(a - b))
    if best is None or abs(best[2]) < MIN_STEP:
        return None
    _, k, step = best
    return k if step > 0 else len(level) - k


def mark_cocked(image_bgr: np.ndarray, dice: list[Die], side: float) -> list[Die]:
    """`dice` with those whose top face is short (`top_face_ratio` in `LEAST_TOP..SHORT_TOP`) marked
    `cocked` (no value: the rules decide what a cocked die means). `side`: the face side of a
    die lying flat, in pixels.

    Dice read flat `STACKED..TWICE` sides apart, which `mark_geometry` takes for one die read
    twice, are looked at again as one, from the surer read, when neither is cocked alone: a
    leaning die's side read as a die of its own cuts the silhouette halfway and leaves the
    top face square (a white die's darkened side is read as a die under a side from its top
    face). If together they look
    cocked, both reads are marked cocked: `mark_geometry` then keeps the surer as the die.
    Of two dice read cocked within `OVER_REACH`, one may lie flat (`_one_leaning`)."""
    flat = [d.status in ("ok", "unreadable") for d in dice]
    cocked = [f and looks_cocked(image_bgr, d.center, side, _centres(dice, {i}))
              for i, (d, f) in enumerate(zip(dice, flat, strict=True))]
    _one_leaning(image_bgr, dice, side, cocked)
    sides: set[int] = set()
    for i, d in enumerate(dice):
        if not flat[i] or cocked[i]:
            continue
        twins = {j for j, o in enumerate(dice) if j != i and flat[j] and not cocked[j]
                 and STACKED * side <= math.dist(o.center, d.center) < TWICE * side}
        if twins and all(dice[j].confidence <= d.confidence for j in twins) and \
                looks_cocked(image_bgr, d.center, side, _centres(dice, twins | {i})):
            cocked[i] = True
            sides |= twins
    return [replace(d, value=None, status="cocked") if cocked[i] or i in sides else d
            for i, d in enumerate(dice)]


def _one_leaning(image_bgr: np.ndarray, dice: list[Die], side: float, cocked: list[bool]) -> None:
    """Un-mark in `cocked` a die lying flat that another die leans over: the two are read
    `OVER_REACH` apart at most, both look cocked (the leaning die's side covers the flat
    die's near edge, so each shows a short bright part and the same darker part), and the
    side meets the leaning die's top face square (`side_slant` at most `SLANT`) and crosses
    the flat die's face askew (or not across it all)."""
    slants: dict[int, float | None] = {}

    def square(i: int) -> bool:
        if i not in slants:
            slants[i] = side_slant(image_bgr, dice[i].center, side, _centres(dice, {i}))
        s = slants[i]
        return s is not None and s <= SLANT

    near = [(i, j) for i in range(len(dice)) for j in range(len(dice))
            if i != j and math.dist(dice[i].center, dice[j].center) < OVER_REACH * side]
    for i, j in near:  # `cocked` as it stands: a die put back flat leans on no other
        if cocked[i] and cocked[j] and square(j) and not square(i):
            cocked[i] = False


def under_a_leaning_die(image_bgr: np.ndarray, dice: list[Die], i: int, side: float) -> bool:
    """Whether `dice[i]`, looking cocked, lies flat with the side of a die of `dice` read
    cocked over its near edge (`_one_leaning`'s test, for a die decided on the quorum's
    mean picture rather than read)."""
    cocked = [k == i or d.status == "cocked" for k, d in enumerate(dice)]
    _one_leaning(image_bgr, dice, side, cocked)
    return not cocked[i]


def _centres(dice: list[Die], leave_out: set[int]) -> list[tuple[float, float]]:
    return [d.center for i, d in enumerate(dice) if i not in leave_out]


def looks_cocked(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                 others: Sequence[tuple[float, float]] = (),
                 long_aspect: float = LONG_ASPECT) -> bool:
    """Whether the die at `center` has a short top face (`top_face_ratio` in
    `LEAST_TOP..SHORT_TOP`)."""
    ratio = top_face_ratio(image_bgr, center, side, others, long_aspect=long_aspect)
    return ratio is not None and LEAST_TOP <= ratio <= SHORT_TOP

