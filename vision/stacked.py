"""Stacked dice in an overhead picture: a die resting on another hides most of it.

From above, the die below shows only as a sliver beside the one on top (rarely would it sit
exactly beneath), so the top die's silhouette covers more of the table than a die lying alone:
about 1.2 to 1.6 faces' worth against 1.0 on simulated throws. Dice of one set are one size, so
the measure is against the other dice in the same picture, and it is asked only when a die is
missing from the count: a big silhouette alone (a shadow, a die the same colour as a neighbour
it touches) is not evidence enough. A die the cocked test called `cocked` is asked too: the
sliver of the die below, in the top die's shadow, is what a cocked die's darker side looks like,
and one die short, a die hidden under it is likelier than a die gone (the stream gives it back
the value read before the cocked test took it: the die on top lies flat). The stream reads a
stack's top die again at its face (`top_face_centre`), away from the sliver below.
"""
from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import PATCH
from zonkcam.vision.silhouette import silhouette

STACK_AREA = 1.2  # a silhouette this many times the others' median area hides a die below
# die sides looked at around each die: the recognizer can centre a stack's top die at a pip,
# and the stack then reaches past the window a die lying flat is measured in (2.4)
WINDOW = 3.0


def mark_stacked(image_bgr: np.ndarray, dice: list[Die], side: float, missing: int) -> list[Die]:
    """`dice` with up to `missing` of them marked `stacked` (largest silhouettes first), those
    whose silhouette is at least `STACK_AREA` times the median of the other dice's. `side`: the
    face side of a die lying flat, in pixels; `missing`: dice short of the count in play."""
    if missing <= 0:
        return dice
    centres = [d.center for d in dice]
    areas: dict[int, float] = {}
    for i, d in enumerate(dice):
        if d.status in ("ok", "unreadable", "cocked"):
            found = silhouette(image_bgr, d.center, side, centres[:i] + centres[i + 1:], WINDOW)
            if found is not None:
                areas[i] = found.area
    if len(areas) < 2:
        return dice
    ratios = {i: a / statistics.median(b for j, b in areas.items() if j != i)
              for i, a in areas.items()}
    big = sorted((i for i, r in ratios.items() if r >= STACK_AREA), key=lambda i: -ratios[i])
    on_top = set(big[:missing])
    return [replace(d, status="stacked") if i in on_top else d for i, d in enumerate(dice)]


def top_face_centre(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                    others: Sequence[tuple[float, float]] = ()) -> tuple[float, float] | None:
    """The centre of the top die of the stack at `center` (dice of `side` px; `others`: the
    other dice's centres): the brighter part of the stack's silhouette, the die below lying in
    the top one's shadow. None when the stack does not stand out from the table."""
    found = silhouette(image_bgr, center, side, others, WINDOW)
    if found is None:
        return None
    mask = np.zeros((PATCH, PATCH), np.uint8)
    cv2.drawContours(mask, [found.contour], -1, 1, -1)
    grey = cv2.cvtColor(found.patch, cv2.COLOR_BGR2GRAY)
    cut, _ = cv2.threshold(grey[mask > 0], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = ((grey > cut) & (mask > 0)).astype(np.uint8)  # the top face, but for its pips
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    n, _, stats, centres = cv2.connectedComponentsWithStats(bright)
    if n < 2:
        return None
    return found.in_picture(*centres[1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))])
