"""A die's silhouette against the table, seen from above: what stands out at its centre.

The overhead checks on live throws start from it: a cocked die's silhouette is long and its
top face short (`vision.cocked`); a die resting on another covers more table than a die alone
(`vision.stacked`).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, patch_at
from zonkcam.vision.throws import STACKED

WINDOW = 2.4  # die sides spanned by the square looked at (`faces.PATCH` px)
L_WEIGHT = 0.5  # a shadow is the table darker: lightness counts half, colour in full
OPEN = 9  # px: about a third of a die side in the patch
_YS, _XS = np.mgrid[:PATCH, :PATCH].astype(np.float32) - PATCH / 2


@dataclass(frozen=True, slots=True)
class Silhouette:
    patch: np.ndarray  # BGR, PATCH×PATCH, centred on the die, WINDOW die sides across
    contour: np.ndarray  # the silhouette's outline, in patch pixels
    side: float  # a die side, in patch pixels
    center: tuple[float, float]  # the patch's centre in the picture
    scale: float  # patch pixels per picture pixel

    @property
    def area(self) -> float:
        """The silhouette's area in die faces (1.0: one face's worth of table covered)."""
        return cv2.contourArea(self.contour) / self.side**2

    def in_picture(self, x: float, y: float) -> tuple[float, float]:
        """A point of the patch in picture pixels."""
        return (self.center[0] + (x - PATCH / 2) / self.scale,
                self.center[1] + (y - PATCH / 2) / self.scale)


def silhouette(image_bgr: np.ndarray, center: tuple[float, float], side: float,
               others: Sequence[tuple[float, float]] = (), window: float = WINDOW
               ) -> Silhouette | None:
    """What stands out from the table at `center` (a die of `side` px), cut off where it is
    nearer one of the `others` (centres of the other dice) than this one; None when it merges
    with the wall or the table (it reaches the edge of the square `window` die sides across)."""
    k = PATCH / (window * side)
    cx, cy = center
    # the reader's face patch, wider: a die of `side` spans PATCH / window of it
    patch = patch_at(image_bgr, cx, cy, side * window / PATCH_MARGIN)
    # a die on top of this one, or this one read twice, is not a neighbour to cut off
    near = [((ox - cx) * k, (oy - cy) * k) for ox, oy in others
            if STACKED * side < math.hypot(ox - cx, oy - cy) < window * side]
    contour = _outline(patch, near)
    return None if contour is None else Silhouette(patch, contour, k * side, center, k)


def _outline(patch_bgr: np.ndarray, others: list[tuple[float, float]]) -> np.ndarray | None:
    """Contour of what stands out from the table at the centre of the patch, nearer its centre
    than the `others` (offsets from it, patch pixels), or None when it reaches the patch's
    border (it is not one die alone)."""
    lab = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    ring = np.concatenate([lab[:2].reshape(-1, 3), lab[-2:].reshape(-1, 3),
                           lab[:, :2].reshape(-1, 3), lab[:, -2:].reshape(-1, 3)])
    diff = lab - np.median(ring, axis=0)
    diff[..., 0] *= L_WEIGHT
    dist = np.linalg.norm(diff, axis=2)
    mask = dist > max(20.0, 0.4 * float(np.percentile(dist, 95)))
    for ox, oy in others:  # nearer its centre than theirs: |p|² ≤ |p - o|²
        mask &= _XS * ox + _YS * oy <= (ox * ox + oy * oy) / 2
    mask = mask.astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # cut a neighbour touching at a corner or along a short stretch
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OPEN, OPEN)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    c = PATCH // 2
    centre = np.bincount(labels[c - 4:c + 4, c - 4:c + 4].ravel(), minlength=n)
    centre[0] = 0
    if n < 2 or centre.max() == 0:
        return None
    k = int(centre.argmax())
    x, y, w, h, _ = stats[k]
    if x == 0 or y == 0 or x + w == PATCH or y + h == PATCH:
        return None
    contours, _ = cv2.findContours((labels == k).astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=cv2.contourArea)
