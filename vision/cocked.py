"""Cocked dice in an overhead picture: a top face that is not square.

A camera looking straight down sees the top face of a die lying flat as a square, wherever the
die lies: the face is parallel to the picture, so perspective only scales it (a die far off the
lens axis also shows a side, beside a square top). A die leaning on another or on the wall shows
its top face shortened along the lean (cos of the lean: 0.77 at 40°) and a side face below it,
darker since it faces away from the light. So a die is cocked when its silhouette is long, and
the bright part of it, the top face, is shorter along the long axis than it is wide.

This holds for overhead cameras only (the live stream); a photo taken at a slant foreshortens
every face, so `Reader` does not apply it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import PATCH
from zonkcam.vision.silhouette import silhouette

LONG_ASPECT = 1.15  # a silhouette at least this long for its width may be a cocked die...
TWO_DICE_ASPECT = 1.75  # ...and at most this (two touching dice measure about 2)
SHORT_TOP = 0.82  # ...and cocked when its top face is at most this long for its width...
LEAST_TOP = 0.4  # ...and at least this (cos 66°: leaning farther, it lies on its side)
MIN_STEP = 12.0  # grey levels between top face and side for a side to be seen at all


def top_face_ratio(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                   others: Sequence[tuple[float, float]] = ()) -> float | None:
    """Length of the die's top face along its silhouette's long axis ÷ its width, when the
    silhouette is long and a darker side shows; 1.0 for a square silhouette; None when it
    cannot tell (the die merges with the wall or the table, or no side shows). `others`: the
    centres of the other dice; a touching die is cut off where it is nearer its centre."""
    found = silhouette(image_bgr, center, side, others)
    if found is None:
        return None
    (bx, by), (bw, bh), angle = cv2.minAreaRect(found.contour)
    width, length = sorted((bw, bh))
    if width < 0.6 * found.side or length > TWO_DICE_ASPECT * width:
        return None  # a piece of a die, or two dice
    if length < LONG_ASPECT * width:
        return 1.0
    # Turn the silhouette so its long axis runs down the rows, then follow the grey level
    # along it: the median of each row ignores the pips.
    turn = angle + (90 if bw > bh else 0)
    r = cv2.getRotationMatrix2D((bx, by), turn, 1.0)
    r[:, 2] += (PATCH / 2 - bx, PATCH / 2 - by)
    grey = cv2.warpAffine(cv2.cvtColor(found.patch, cv2.COLOR_BGR2GRAY), r, (PATCH, PATCH),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    half_w, half_l = round(0.35 * width), round(0.5 * length)
    c = PATCH // 2
    rows = grey[c - half_l:c + half_l, c - half_w:c + half_w]
    if rows.size == 0:
        return None
    level = np.median(rows, axis=1)
    level = np.convolve(level, np.ones(3) / 3, mode="same")[1:-1]
    lo, hi = float(level.min()), float(level.max())
    if hi - lo < MIN_STEP:
        return None
    top = int((level > (lo + hi) / 2).sum())
    return top / width


def mark_cocked(image_bgr: np.ndarray, dice: list[Die], side: float) -> list[Die]:
    """`dice` with those whose top face is short (`top_face_ratio` in `LEAST_TOP..SHORT_TOP`) marked
    `cocked` (no value: the rules decide what a cocked die means). `side`: the face side of a
    die lying flat, in pixels."""
    out = []
    for d in dice:
        if d.status in ("ok", "unreadable"):
            others = [o.center for o in dice if o is not d]
            ratio = top_face_ratio(image_bgr, d.center, side, others)
            if ratio is not None and LEAST_TOP <= ratio <= SHORT_TOP:
                d = replace(d, value=None, status="cocked")
        out.append(d)
    return out

