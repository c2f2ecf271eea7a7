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
LEAST_AREA = 0.4  # die faces: a spot smaller than this is a pip's or an edge's change
MOST_AREA = 3.0  # ...and larger is no one die (a die and its shadow: about 1.5)
MOST_LONG = 2.2  # die sides a spot spans, at most
AWAY = 0.8  # die sides round a die read that are its own change (its corners reach 0.71)


def changed_spots(before: np.ndarray, now: np.ndarray, side: float,
                  away_from: Sequence[tuple[float, float]] = ()) -> list[tuple[float, float]]:
    """Centres of the die-sized spots (`side` px dice) where `now` differs from `before`
    (BGR pictures of one size), leaving out the change within `AWAY` die sides of each point
    of `away_from` (the dice read in either picture)."""
    a, b = (cv2.GaussianBlur(p, (5, 5), 0) for p in (before, now))
    mean_a, mean_b = cv2.mean(a), cv2.mean(b)
    gains = tuple(x / max(y, 1.0) for x, y in zip(mean_a, mean_b, strict=True))
    b = cv2.multiply(b, gains, dtype=cv2.CV_8U)  # type: ignore[call-overload]  # a Scalar: per channel
    # in any channel: a red die on brown wood is about the wood's grey
    diff = cv2.split(cv2.absdiff(a, b))
    mask: np.ndarray = (cv2.max(cv2.max(diff[0], diff[1]), diff[2]) > THRESHOLD).astype(np.uint8)
    for x, y in away_from:  # a die read, and its shadow's inner part: a die beside it is left
        cv2.circle(mask, (round(x), round(y)), round(AWAY * side), 0, -1)
    pip = max(3, round(side / 5)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip, pip)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((pip, pip), np.uint8))
    n, _, stats, centroids = cv2.connectedComponentsWithStats(mask)
    return [(float(centroids[i][0]), float(centroids[i][1])) for i in range(1, n)
            if LEAST_AREA <= stats[i, 4] / side**2 <= MOST_AREA
            and max(stats[i, 2], stats[i, 3]) <= MOST_LONG * side]
