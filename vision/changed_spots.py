"""Where the picture changed between two settles: each die-sized spot that came or went.

Nothing lands on the table without changing the picture where it lies, so a spot that changed
beside the dice read, now and at the last settle, holds a die the recognizer did not find (a
cocked die's shortened face is one it often misses, even leaning on a die it read). The
pictures are gain-matched first, so a change of light is no change; a hand still over the
table, a shadow across it, or a nudged table's edge change far more than a die's worth, or a
long strip of it, and are no spot.
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

THRESHOLD = 24  # grey levels a pixel must change by (sensor noise: a few)
# With a die known to lie unread (`split`): a dark grey die on the dark tray changes the floor
# by 15-25 levels, and one a leaning die's top face lies over is read 0.66 sides from that
# face's read (75011 t0, a false SPAZ). At 12 levels two dice touching and their shadows
# joined in a spot too large to part (69005 t3); at 0.65 sides the dark die's spot was gone
FAINT = 16
NEAR = 0.6
LEAST_AREA = 0.4  # die faces: a spot smaller than this is a pip's or an edge's change
MOST_AREA = 3.0  # ...and larger is no one die (a die and its shadow: about 1.5)
MOST_LONG = 2.2  # die sides a spot spans, at most
AWAY = 0.8  # die sides round a die read that are its own change (its corners reach 0.71)
SPLIT = 0.6  # die sides a spot too large or long is worn down by to part dice touching (`split`)


def changed_spots(before: np.ndarray, now: np.ndarray, side: float,
                  away_from: Sequence[tuple[float, float]] = (),
                  split: bool = False) -> list[tuple[float, float]]:
    """Centres of the die-sized spots (`side` px dice) where `now` differs from `before`
    (BGR pictures of one size), leaving out the change within `AWAY` die sides of each point
    of `away_from` (the dice read in either picture). With `split`, a spot too large or long
    for one die is worn down by `SPLIT` die sides, and each part it falls into, grown back
    within it, that is die-sized is a spot: two dice touching, both missed (a leaning die
    and one lying flat against it), join in one spot; a hand or a strip does not fall into
    die-sized parts. With `split` (a die is known to lie unread) a fainter change counts
    (`FAINT`), nearer the dice read (`NEAR`)."""
    threshold, away = (FAINT, NEAR) if split else (THRESHOLD, AWAY)
    a, b = (cv2.GaussianBlur(p, (5, 5), 0) for p in (before, now))
    mean_a, mean_b = cv2.mean(a), cv2.mean(b)
    gains = tuple(x / max(y, 1.0) for x, y in zip(mean_a, mean_b, strict=True))
    b = cv2.multiply(b, gains, dtype=cv2.CV_8U)  # type: ignore[call-overload]  # a Scalar: per channel
    # in any channel: a red die on brown wood is about the wood's grey
    diff = cv2.split(cv2.absdiff(a, b))
    mask: np.ndarray = (cv2.max(cv2.max(diff[0], diff[1]), diff[2]) > threshold).astype(np.uint8)
    for x, y in away_from:  # a die read, and its shadow's inner part: a die beside it is left
        cv2.circle(mask, (round(x), round(y)), round(away * side), 0, -1)
    pip = max(3, round(side / 5)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip, pip)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((pip, pip), np.uint8))
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask)
    spots = []
    for i in range(1, n):
        if _die_sized(stats[i], side):
            spots.append((float(centroids[i][0]), float(centroids[i][1])))
        elif split and stats[i, 4] <= 2 * MOST_AREA * side**2:
            spots += _parts((labels == i).astype(np.uint8), side)
    return spots


def _die_sized(stats: np.ndarray, side: float) -> bool:
    return bool(LEAST_AREA <= stats[4] / side**2 <= MOST_AREA
                and max(stats[2], stats[3]) <= MOST_LONG * side)


def _parts(spot: np.ndarray, side: float) -> list[tuple[float, float]]:
    """The die-sized parts of a `spot` (a 0/1 mask) worn down by `SPLIT` die sides and grown
    back within it, if it falls into two or more."""
    k = max(3, round(SPLIT * side)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    n, labels = cv2.connectedComponents(cv2.erode(spot, disc))
    if n < 3:
        return []
    parts = []
    for j in range(1, n):
        part = cv2.dilate((labels == j).astype(np.uint8), disc) & spot
        m, _, stats, centroids = cv2.connectedComponentsWithStats(part)
        if m == 2 and _die_sized(stats[1], side):
            parts.append((float(centroids[1][0]), float(centroids[1][1])))
    return parts
