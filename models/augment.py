"""Photometric and geometric augmentation shared by detector and classifier training.

What real tables do to a die: other scales, blur, sensor noise, JPEG, perspective, lighting,
contrast, dark dice on dark trays (inversion), rotation. Pure numpy/OpenCV, no torch, so the
same code can render test pictures.
"""
from __future__ import annotations

import cv2
import numpy as np


def photometric(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Randomly relight, blur, add noise and JPEG-compress a grey uint8 image."""
    out: np.ndarray = img.astype(np.float32)
    if rng.random() < 0.1:
        out = 255.0 - out
    # lighting: gain, offset, gamma and a linear gradient across the frame
    gain = rng.uniform(0.55, 1.4)
    offset = rng.uniform(-40, 40)
    out = out * gain + offset
    if rng.random() < 0.4:
        h, w = out.shape
        gx, gy = rng.uniform(-0.5, 0.5, size=2)
        ramp = 1 + gx * np.linspace(-1, 1, w)[None, :] + gy * np.linspace(-1, 1, h)[:, None]
        out = out * ramp
    out = np.clip(out, 0, 255)
    gamma = float(np.exp(rng.uniform(-0.5, 0.5)))
    out = 255.0 * (out / 255.0) ** gamma
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.6))
    if rng.random() < 0.35:
        out = out + rng.normal(0, rng.uniform(2, 12), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        quality = int(rng.integers(25, 90))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
        decoded = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE) if ok else None
        if decoded is not None:
            out = decoded
    return out


def random_affine(
    rng: np.random.Generator, center: tuple[float, float], out_size: int, scale: float,
    free_rotation: bool, angle: float = 0.0,
) -> np.ndarray:
    """2×3 matrix mapping source pixels to an `out_size` square view centred on `center`.

    Rotation is any angle when `free_rotation`, else `angle` plus a quarter turn plus up to
    ±10° (boxes are axis-aligned labels, which only survive small turns; a face turned upright
    by its measured angle stays upright). A mirror is applied half the time, and a mild
    perspective-like shear stands in for a tilted camera.
    """
    quarter = angle + 90.0 * int(rng.integers(4)) + rng.uniform(-10, 10)
    turn = rng.uniform(0, 360) if free_rotation else quarter
    m = cv2.getRotationMatrix2D(center, turn, scale)
    if rng.random() < 0.5:  # mirror about the view's vertical axis
        m[0] = -m[0]  # translation is recomputed below
    shear = np.eye(3)
    shear[0, 1], shear[1, 0] = rng.uniform(-0.08, 0.08, size=2)
    m = (shear @ np.vstack([m, [0, 0, 1]]))[:2]
    # put `center` at the middle of the output view
    mapped = m @ np.array([center[0], center[1], 1.0])
    m[:, 2] += out_size / 2 - mapped
    return m
