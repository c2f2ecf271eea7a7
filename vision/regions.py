"""The regions of a picture round the dice read, and a zoomed view of them alone (issue 36: read
÷ decode ≤ 1.0 on an 8 MP still).

Proposing a whole 8 MP still at 1280 px costs about two JPEG decodes in the proposer and one more
to shrink it, though its dice usually lie in a small part of it. Where a view already read dice
surely at a size the proposer finds, the zoom past it looks only round them: the still is shrunk
in the vertical strips that hold those regions (`strips`: each cut where area-averaging the
strip gives exactly the columns of the whole view), and the proposer sees each region, with
`CONTEXT` px more round it, cut from them on its 32-px grid, so that a die inside is proposed as
in the whole view. Only dice that the view before did not read and that lie beyond a die and a
half from those it read are not looked for.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import two_steps

Box = tuple[int, int, int, int]  # x0, y0, x1, y1
GRID = 32  # the proposer's input sides are multiples of this, and its cells align on it
# Each cut reaches this many px of the view beyond its region: the proposer's heat and sizes at
# a die depend on what lies a few hundred px round it (with 64, peaks moved a sub-pixel step on
# 3 of 10 drawn and touching stills; with 128 one size of a drawn heap's die, 69 -> 73 px; with
# 192 all are the whole view's, `tests/test_vision_cost.py`).
CONTEXT = 192


def regions(found: Sequence[Candidate], width: int, height: int,
            rejects: Callable[[Candidate], bool], margin: float) -> list[Box]:
    """The regions of a `width`x`height` picture round the dice read: each die's box grown by
    `margin` times their median size on every side (within the picture), grown boxes that
    overlap joined into one, until none overlap."""
    dice = [c.proposal for c in found if not rejects(c)]
    if not dice:
        return []
    reach = margin * float(np.median([p.size for p in dice]))
    return joined([(max(0.0, p.cx - p.w / 2 - reach), max(0.0, p.cy - p.h / 2 - reach),
                    min(float(width), p.cx + p.w / 2 + reach),
                    min(float(height), p.cy + p.h / 2 + reach)) for p in dice])


def joined(boxes: Sequence[tuple[float, float, float, float]]) -> list[Box]:
    """Boxes that overlap joined into one, until none do; rounded to px, left to right."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return sorted((round(x0), round(y0), round(x1), round(y1)) for x0, y0, x1, y1 in out)


def strips(boxes: Sequence[Box], width: int, view_width: int) -> list[tuple[int, int]]:
    """The columns [x0, x1) of the view `view_width` px wide of a picture `width` px wide that
    hold the boxes (the view's px), joined where they overlap: each starts where a picture
    column and a view column meet on the proposer's grid, so that area-averaging the strip of the
    picture gives exactly those columns of the whole view."""
    g = math.gcd(width, view_width)
    step = math.lcm(view_width // g, GRID)  # view px between such meeting points
    spans = sorted((step * (x0 // step), min(view_width, step * -(-x1 // step)))
                   for x0, _, x1, _ in boxes)
    out: list[tuple[int, int]] = []
    for x0, x1 in spans:
        if out and x0 <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], x1))
        else:
            out.append((x0, x1))
    return out


def view_cells(image_bgr: np.ndarray, boxes: Sequence[Box], side: int
               ) -> list[tuple[np.ndarray, int, int]] | None:
    """The proposer's grey input (float 0..1) of the regions `boxes` (picture px) of a view with
    long side `side`, each with its offset (x, y) in that view: exactly those cells of the
    whole view's `proposals.proposer_input`, but shrinking only the strips that hold them (a
    view shrunk in two steps, `proposals.two_steps`, as well). None for a view over the
    picture's own size."""
    h, w = image_bgr.shape[:2]
    scale = side / max(h, w)
    if scale > 1:
        return None
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    height = nh + -nh % GRID
    width = nw + -nw % GRID
    cells = joined([(max(0, GRID * math.floor(x0 * nw / w / GRID) - CONTEXT),
                     max(0, GRID * math.floor(y0 * nh / h / GRID) - CONTEXT),
                     min(width, GRID * math.ceil(x1 * nw / w / GRID) + CONTEXT),
                     min(height, GRID * math.ceil(y1 * nh / h / GRID) + CONTEXT))
                    for x0, y0, x1, y1 in boxes if x0 < w and y0 < h and x1 > 0 and y1 > 0])
    out = []
    for v0, v1 in strips(cells, w, nw):
        small = cv2.resize(_strip(image_bgr, v0, v1, nw, nh, two_steps(w, h, scale)),
                           (v1 - v0, nh), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        grey = cv2.copyMakeBorder(grey, 0, -nh % GRID, 0, -nw % GRID if v1 == nw else 0,
                                  cv2.BORDER_REPLICATE)
        grey01 = grey.astype(np.float32) / 255.0
        out += [(grey01[cy0:cy1, cx0 - v0:cx1 - v0], cx0, cy0)
                for cx0, cy0, cx1, cy1 in cells if v0 <= cx0 < v1]
    return out


def _strip(image_bgr: np.ndarray, v0: int, v1: int, nw: int, nh: int, two: bool) -> np.ndarray:
    """The picture's columns under view columns [v0, v1) of a view `nw`x`nh`, ready to be
    area-averaged to them: as they are, or (`two`: a view shrunk in two steps) the bilinear
    first step's columns of the whole picture, cut from a resize of the strip with a meeting
    point of picture and view columns more on each side (the samples at its edges differ)."""
    w = image_bgr.shape[1]
    if not two:
        return image_bgr[:, v0 * w // nw:min(w, -(-v1 * w // nw))]
    step = nw // math.gcd(w, nw)  # view px between columns where picture and view meet
    u0, u1 = max(0, v0 - step), min(nw, v1 + step)
    wide = cv2.resize(image_bgr[:, u0 * w // nw:u1 * w // nw], (2 * (u1 - u0), 2 * nh),
                      interpolation=cv2.INTER_LINEAR)
    return wide[:, 2 * (v0 - u0):2 * (v1 - u0)]
