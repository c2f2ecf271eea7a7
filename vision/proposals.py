"""Turning the proposer's heatmap into candidate dice: centre, size, score (original pixels)."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

PROPOSER_SIDE = 320  # long side of the picture the proposer sees; a multiple of 32
HEAT_THRESHOLD = 0.3
# A local maximum of the heat this share of the threshold or more is a peak of its own for
# `Proposal.peaks`: seen ~30 px across, a pair of touching dice makes one ridge of heat, boxed as
# one die, often with a weaker second peak on it (`big_boxes.few_dice`)
WEAK = 0.5
NMS_FRACTION = 0.6  # touching dice have centres about one die apart
# Peaks of the heatmap are kept apart by less in photos: a die proposed beside its neighbour at
# up to 1.6 times its size (the neighbour's sides and shadow taken in) would hide it at 0.6. The
# dice kept apart after reading (`die_sizes.one_per_die`) still are at 0.6, and so are peaks seen
# from overhead, where a die leaning on another makes two and the overhead reader finds dice
# merged with a neighbour (docs/recognizer.md, "How it works", has the figures).
PEAKS_APART = 0.45
# A camera still of this many pixels or more is shrunk to a view under half its size in two
# steps, bilinear to twice the view, then area-averaged (`two_steps`): area-averaging an 8 MP
# still to 1280 px in one step costs about a JPEG decode of it, the two steps under half that
# (issue 36). Smaller pictures, and every picture shrunk under a quarter, are shrunk as before.
TWO_STEPS_FROM = 4_000_000


@dataclass(frozen=True, slots=True)
class Proposal:
    cx: float
    cy: float
    w: float
    h: float
    score: float
    peaks: int = 1  # the heat's local maxima in its box, weak ones too (`decode`)

    @property
    def size(self) -> float:
        return max(self.w, self.h)


def apart(p: Proposal, q: Proposal, size: float | None = None,
          fraction: float = NMS_FRACTION) -> bool:
    """Whether two proposals are far enough apart to be two dice: more than `fraction` of
    `size` (default: the larger of theirs)."""
    return math.hypot(p.cx - q.cx, p.cy - q.cy) > fraction * (size or max(p.size, q.size))


def proposer_input(
    image_bgr: np.ndarray, side: int = PROPOSER_SIDE
) -> tuple[np.ndarray, float, np.ndarray]:
    """Grey picture scaled so its long side is `side`, padded to a multiple of 32; the scale;
    and the small colour picture (reused for white balance).

    Scaling the colour picture first and converting the small one keeps this cheap on an
    8-megapixel still.
    """
    h, w = image_bgr.shape[:2]
    scale = side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    if two_steps(w, h, scale):  # area-averaging a whole camera still costs about its decode:
        # decimate to twice the target with bilinear sampling first, then area-average
        image_bgr = cv2.resize(image_bgr, (2 * nw, 2 * nh), interpolation=cv2.INTER_LINEAR)
    small = cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    ph, pw = -nh % 32, -nw % 32
    if ph or pw:
        grey = cv2.copyMakeBorder(grey, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return grey.astype(np.float32) / 255.0, scale, small


def two_steps(width: int, height: int, scale: float) -> bool:
    """Whether a picture is shrunk by `scale` in two steps (`proposer_input`): under a quarter,
    or under half where it holds `TWO_STEPS_FROM` pixels or more."""
    return scale < 0.25 or (scale < 0.5 and width * height >= TWO_STEPS_FROM)


def decode(
    heat: np.ndarray, geometry: np.ndarray, scale: float, stride: int,
    threshold: float = HEAT_THRESHOLD, peaks_apart: float = PEAKS_APART,
) -> list[Proposal]:
    """Local maxima of the heatmap above `threshold`, mapped back to original pixels, each with
    the count of maxima `WEAK` of the threshold or more in its box (`Proposal.peaks`).

    Dice seen from above do not overlap, so of two peaks closer than `peaks_apart` of the
    larger one's size only the stronger is kept (this also drops a pip that looks like a tiny
    die).
    """
    top = heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(top & (heat >= threshold))
    weak_y, weak_x = np.nonzero(top & (heat >= WEAK * threshold))
    k = stride / scale
    found: list[Proposal] = []
    for y, x in sorted(zip(ys, xs, strict=True), key=lambda p: -heat[p[0], p[1]]):
        lw, lh, dx, dy = geometry[:, y, x]
        p = Proposal((x + dx) * k, (y + dy) * k, float(np.exp(lw)) / scale,
                     float(np.exp(lh)) / scale, float(heat[y, x]))
        if all(apart(p, q, fraction=peaks_apart) for q in found):
            inside = ((np.abs((weak_x + 0.5) * k - p.cx) < p.w / 2)
                      & (np.abs((weak_y + 0.5) * k - p.cy) < p.h / 2))
            found.append(replace(p, peaks=max(1, int(inside.sum()))))
    return found

