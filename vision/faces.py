"""Rotation-normalised crops of die top faces, and the face's angle.

A crop is made in two steps, exactly as in training: a `PATCH`-pixel square around the die
(area-averaged when shrinking, so big dice do not alias), then a turn by the face's angle and a
scale so the face spans `crop / crop_margin` pixels of a `crop`-pixel square.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

PATCH = 64
PATCH_MARGIN = 1.6  # the die spans PATCH / PATCH_MARGIN pixels of a patch


def patch_at(image: np.ndarray, cx: float, cy: float, size: float) -> np.ndarray:
    """A PATCH×PATCH square centred on (cx, cy) in which a die of `size` px spans PATCH/1.6."""
    k = PATCH / (size * PATCH_MARGIN)
    m = np.array([[k, 0, PATCH / 2 - k * cx], [0, k, PATCH / 2 - k * cy]], np.float32)
    if k < 0.5:  # warpAffine does not area-average: cut the region out and resize it instead
        half = PATCH / (2 * k)
        x0, y0 = round(cx - half), round(cy - half)
        x1, y1 = round(cx + half), round(cy + half)
        h, w = image.shape[:2]
        region = image[max(y0, 0):max(min(y1, h), 0), max(x0, 0):max(min(x1, w), 0)]
        if region.size == 0:
            return np.zeros((PATCH, PATCH, *image.shape[2:]), image.dtype)
        # Area-averaging a big region costs milliseconds (a big die, or a camera still); a
        # bilinear step to twice the patch, then averaging pixel pairs, costs a fraction of that
        # and reads the same (rune55 held-out figures unchanged). Where the square leaves the
        # picture, the border is replicated after the first step, at its size, not before.
        side = 2 * PATCH
        sy, sx = side / (y1 - y0), side / (x1 - x0)  # rounding can make them differ by a pixel
        top, left = min(side - 1, round(max(-y0, 0) * sy)), min(side - 1, round(max(-x0, 0) * sx))
        rh = max(1, min(side - top, round(region.shape[0] * sy)))
        rw = max(1, min(side - left, round(region.shape[1] * sx)))
        bottom, right = side - top - rh, side - left - rw
        region = cv2.resize(region, (rw, rh), interpolation=cv2.INTER_LINEAR)
        if top or bottom or left or right:
            region = cv2.copyMakeBorder(region, top, bottom, left, right, cv2.BORDER_REPLICATE)
        return cv2.resize(region, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    return cv2.warpAffine(image, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


# Other greys of a colour face than luminance, as BGR weights and an offset: each colour
# channel, and the half-differences of two. Red pips on a blue body, or yellow on green, have
# about the same luminance and vanish in a plain grey crop; one of these shows them (byler
# dice cut at their labelled boxes: 0.905 read right in grey, 0.978 by the surest view).
COLOUR_VIEWS: tuple[tuple[tuple[float, float, float], float], ...] = (
    ((1, 0, 0), 0), ((0, 1, 0), 0), ((0, 0, 1), 0),
    ((-0.5, 0, 0.5), 128), ((0, -0.5, 0.5), 128), ((-0.5, 0.5, 0), 128),
)
GREY_TOLERANCE = 12  # channels closer than this everywhere: a grey picture, no colour views


def colour_views(patch_bgr: np.ndarray) -> list[np.ndarray]:
    """The patch in each of `COLOUR_VIEWS` (uint8), or none for a grey patch."""
    if patch_bgr.ndim != 3:
        return []
    b, g, r = cv2.split(patch_bgr)
    if max(int(cv2.absdiff(b, g).max()), int(cv2.absdiff(g, r).max())) < GREY_TOLERANCE:
        return []
    return [cv2.transform(patch_bgr, np.array([[*w, offset]], np.float32))
            for w, offset in COLOUR_VIEWS]


def face_angle(patch_grey: np.ndarray) -> float:
    """Rotation of the face in a patch, in degrees in [-45, 45).

    A square's edges give gradients at θ and θ + 90°, so the magnitude-weighted mean of 4θ over
    the patch points along the edges; round pips add to all directions about equally.
    """
    p = cv2.resize(patch_grey, (PATCH // 2, PATCH // 2), interpolation=cv2.INTER_AREA)
    p = p.astype(np.float32)
    gx = cv2.Sobel(p, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(p, cv2.CV_32F, 0, 1, ksize=3)
    mag = gx * gx + gy * gy
    theta4 = 4 * np.arctan2(gy, gx)
    angle = 0.25 * math.degrees(math.atan2(float((mag * np.sin(theta4)).sum()),
                                           float((mag * np.cos(theta4)).sum())))
    return (angle + 45) % 90 - 45


def upright(patch: np.ndarray, angle: float, crop: int, margin: float) -> np.ndarray:
    """Turn a patch by `angle` so the face is square to the crop, and scale it to `crop` px."""
    k = (crop / margin) / (PATCH / PATCH_MARGIN)
    m = np.asarray(cv2.getRotationMatrix2D((PATCH / 2, PATCH / 2), angle, k), np.float64)
    m[:, 2] += (crop - PATCH) / 2
    return cv2.warpAffine(patch, m, (crop, crop), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


# A faint face: the grey inside a die's face (its inner `FACE_INNER` of a side, which holds a
# pip of every face) spans at most `FAINT_SPAN` levels between its 1st and 99th percentiles: a
# white face a lamp washes out, light grey pips on white. Of 1,521 dice settled on issue 34's
# unkind tray (round 14's traces of 68000-70019), the median spans 130 levels, the 5th
# percentile 71, the white faces read `unreadable` or unsure 13-30; drawn white faces with pips
# of grey 205-225 on 240 span 13-34. Under `FAINT_NONE` the face is clipped: nothing to stretch.
FACE_INNER = 0.7
FAINT_SPAN = 48
FAINT_NONE = 6
STRETCHED = (30, 235)  # the greys a faint face's span is stretched to: a die's body and pips


def face_span(image: np.ndarray, center: tuple[float, float], side: float) -> tuple[float, float]:
    """The 1st and 99th percentiles of the grey inside a die's face at `center` (px)."""
    h, w = image.shape[:2]
    r = max(1, round(side * FACE_INNER / 2))
    x, y = round(center[0]), round(center[1])
    inner = image[max(y - r, 0):min(y + r, h), max(x - r, 0):min(x + r, w)]
    if inner.size == 0:
        return 0.0, 255.0
    grey = cv2.cvtColor(inner, cv2.COLOR_BGR2GRAY) if inner.ndim == 3 else inner
    lo, hi = np.percentile(grey, (1, 99))
    return float(lo), float(hi)


def faint(image: np.ndarray, center: tuple[float, float], side: float) -> bool:
    """Whether the die's face at `center` is faint (`FAINT_SPAN`) but not blank (`FAINT_NONE`)."""
    lo, hi = face_span(image, center, side)
    return FAINT_NONE <= hi - lo <= FAINT_SPAN


def stretched(image: np.ndarray, centers: list[tuple[float, float]], side: float) -> np.ndarray:
    """A copy of `image` in which each die at `centers` (px), and a side and a half round it, has
    its face's span of grey (`face_span`) stretched linearly to `STRETCHED`, every channel alike:
    its faint pips as dark on its body as a crisp die's, the floor round it darker still."""
    out = image.copy()
    h, w = image.shape[:2]
    reach = round(1.5 * side)
    for cx, cy in centers:
        lo, hi = face_span(image, (cx, cy), side)
        gain = (STRETCHED[1] - STRETCHED[0]) / max(hi - lo, 1.0)
        x, y = round(cx), round(cy)
        y0, y1, x0, x1 = max(y - reach, 0), min(y + reach, h), max(x - reach, 0), min(x + reach, w)
        window = image[y0:y1, x0:x1].astype(np.float32)
        out[y0:y1, x0:x1] = np.clip((window - lo) * gain + STRETCHED[0], 0, 255).astype(np.uint8)
    return out

