"""Painting a set's odd faces onto real dice photos, for `teach_eval.py`: a skull on the ones and an
emblem (a shield with a star) on the sixes, pips covered by the die's own body colour, the mark in
its pip colour, turned as the face is, feathered, blurred and noised to sit in the photo."""
from __future__ import annotations

import math

import cv2
import numpy as np

CUSTOM = (1, 6)  # the faces painted over: a skull for the one, an emblem for the six
Truth = list[tuple[float, float, float, int]]  # (cx, cy, size, value) of each die in a photo


def _pattern(value: int, side: int = 128) -> np.ndarray:
    """The custom face's mark (255) on an upright face of `side` px (the face spans it)."""
    canvas = np.zeros((side, side), np.uint8)

    def pts(xy) -> np.ndarray:
        return np.round((np.asarray(xy) + 0.5) * side * 16).astype(np.int32)

    if value == 1:  # a skull: head, jaw; eyes, nose and teeth cut out
        cv2.ellipse(canvas, (side // 2 * 16, round(0.45 * side * 16)), (round(0.27 * side * 16),
                    round(0.25 * side * 16)), 0, 0, 360, 255, -1, cv2.LINE_AA, 4)
        cv2.fillPoly(canvas, [pts([(-0.15, 0.05), (0.15, 0.05), (0.13, 0.3), (-0.13, 0.3)])], 255,
                     cv2.LINE_AA, 4)
        for ex in (-0.11, 0.11):
            cv2.circle(canvas, tuple(pts((ex, -0.06))), round(0.075 * side * 16), 0, -1, cv2.LINE_AA, 4)
        cv2.fillPoly(canvas, [pts([(0, 0.04), (0.04, 0.12), (-0.04, 0.12)])], 0, cv2.LINE_AA, 4)
        for tx in (-0.07, 0.0, 0.07):
            cv2.line(canvas, tuple(pts((tx, 0.2))), tuple(pts((tx, 0.3))), 0, max(1, side // 40),
                     cv2.LINE_AA, 4)
    else:  # an emblem: a shield with a star cut out
        cv2.fillPoly(canvas, [pts([(-0.32, -0.33), (0.32, -0.33), (0.32, 0.02), (0, 0.36),
                                   (-0.32, 0.02)])], 255, cv2.LINE_AA, 4)
        k = np.arange(10)
        r = np.where(k % 2 == 0, 0.2, 0.08)
        t = -math.pi / 2 + k * math.pi / 5
        cv2.fillPoly(canvas, [pts(np.stack([r * np.cos(t), r * np.sin(t) - 0.02], 1))], 0, cv2.LINE_AA, 4)
    return canvas


MIN_CONTRAST = 32.0  # grey levels between a printed mark and its die's body


def printed(body: np.ndarray, mark: np.ndarray) -> np.ndarray:
    """The mark's colour as a real set prints it: the face's own pip colour, unless that is
    within MIN_CONTRAST of the body (a faint ring, a grey pip on a grey die), where the mark
    would be invisible; then dark on a light body, light on a dark one."""
    if np.linalg.norm(mark - body) / np.sqrt(3) >= MIN_CONTRAST:
        return mark
    return body * 0.35 if body.mean() >= 110 else body + (255 - body) * 0.65


def paint_face(image: np.ndarray, cx: float, cy: float, box_side: float, value: int,
               rng: np.random.Generator, angle: float | None = None, body: np.ndarray | None = None,
               mark: np.ndarray | None = None) -> None:
    """Paint the custom face over the die at (cx, cy) in place: pips covered in the body's colour,
    the mark in the pips' colour, turned as the face is, feathered, blurred and noised. The face's
    turn and colours are measured from the photo unless given (a drawn die's)."""
    from zonkcam.vision.dice import box_growth
    from zonkcam.vision.faces import face_angle, patch_at

    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if angle is None:
        angle = face_angle(patch_at(grey, cx, cy, box_side))
    face = box_side / box_growth(angle) * 0.92  # the top face, a little inside the box
    r = max(2, round(0.45 * face))
    x0, y0 = max(0, round(cx) - r), max(0, round(cy) - r)
    region = image[y0:round(cy) + r, x0:round(cx) + r].reshape(-1, 3).astype(np.float32)
    if len(region) < 16:
        return
    if body is None or mark is None:
        body = np.median(region, 0)
        far = np.linalg.norm(region - body, axis=1)
        mark = printed(body, region[far >= np.quantile(far, 0.92)].mean(0))
    # the upright face (side 128) -> the photo: turned by the face's angle, scaled to `face`
    side = 128
    m = cv2.getRotationMatrix2D((side / 2, side / 2), -angle, face / side)
    m[:, 2] += (cx - side / 2, cy - side / 2)
    h, w = image.shape[:2]
    cover = np.zeros((side, side), np.uint8)
    cv2.rectangle(cover, (round(0.08 * side), round(0.08 * side)), (round(0.92 * side), round(0.92 * side)),
                  255, -1)
    feather = max(0.6, face / 40)
    cover_w = cv2.GaussianBlur(cv2.warpAffine(cover, m, (w, h)).astype(np.float32) / 255, (0, 0), feather)
    mark_w = cv2.GaussianBlur(cv2.warpAffine(_pattern(value, side), m, (w, h)).astype(np.float32) / 255,
                              (0, 0), max(0.5, face / 70))
    shade = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), max(1.0, face / 3))
    shade /= max(1.0, float(np.median(shade[max(0, round(cy) - r):round(cy) + r,
                                            max(0, round(cx) - r):round(cx) + r])))
    paint = body[None, None, :] * np.clip(shade, 0.6, 1.4)[..., None]
    paint = paint * (1 - mark_w[..., None]) + mark[None, None, :] * mark_w[..., None]
    paint += rng.normal(0, 3, paint.shape)
    out = image.astype(np.float32) * (1 - cover_w[..., None]) + paint * cover_w[..., None]
    image[:] = np.clip(out, 0, 255).astype(np.uint8)


def with_new_faces(image: np.ndarray, truth: Truth, rng: np.random.Generator) -> np.ndarray:
    out = image.copy()
    for cx, cy, size, value in truth:
        if value in CUSTOM:
            paint_face(out, cx, cy, size, value, rng)
    return out
