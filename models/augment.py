"""Photometric and geometric augmentation shared by detector and classifier training.

What real tables do to a die: other scales, blur, sensor noise, JPEG, perspective, lighting,
contrast, dark dice on dark trays (inversion), rotation. Pure numpy/OpenCV, no torch, so the
same code can render test pictures.
"""
from __future__ import annotations

import cv2
import numpy as np


def photometric(img: np.ndarray, rng: np.random.Generator, relight: bool = True) -> np.ndarray:
    """Randomly relight, blur, add noise and JPEG-compress a grey uint8 image (without
    `relight`: only blur, noise and JPEG)."""
    out: np.ndarray = img.astype(np.float32)
    if relight:
        out = relit(out, rng)
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


def relit(out: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Inversion now and then, gain, offset, a linear gradient across the frame, gamma."""
    if rng.random() < 0.1:
        out = 255.0 - out
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
    lit: np.ndarray = 255.0 * (out / 255.0) ** gamma
    return lit


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


# ---------------------------------------------------------------- hard faces (issues 34, 36)
# What the live table does to faces that the photos rarely show: a lamp's gain clipping a white
# face's highlights (pips left faint), low-contrast faces, marbled bodies, light pips on a dark
# body, a glossy face's light spot, swirls as light as the pips (issue 36's phone proxy,
# `benchmarks/phone_bowl.py`), and a face seen alone on a dark floor (the simulator pastes a
# face cut at 0.8 of its label box onto the tray). `hard_face` makes one of these of a crop; the
# caller then adds only blur, noise and JPEG (`photometric(..., relight=False)`): relighting
# would undo the clipping.
HARD_KINDS = ("washed", "faint", "marbled", "dark_body", "on_floor", "glare", "blotched")


def washed(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Highlights clipped by a gain of 1.1-1.45, chosen so the body clips but the pips keep
    at least a few levels below white (a blank face is no longer a face of its value)."""
    c = crop.astype(np.float32)
    inner = c[c.shape[0] // 4:-(c.shape[0] // 4), c.shape[1] // 4:-(c.shape[1] // 4)]
    body, pips = float(np.percentile(inner, 90)), float(np.percentile(inner, 5))
    lo = max(1.1, 245.0 / max(body, 1.0))
    hi = min(1.45, 240.0 / max(pips, 1.0))
    gain = rng.uniform(lo, hi) if lo < hi else min(lo, 1.45)
    return np.clip(c * gain + rng.uniform(0, 15), 0, 255).astype(np.uint8)


def faint(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Contrast squeezed to 0.25-0.55 about the median, at a random level."""
    c = crop.astype(np.float32)
    mid = float(np.median(c))
    level = mid + rng.uniform(-40, 40)
    return np.clip(level + rng.uniform(0.25, 0.55) * (c - mid), 0, 255).astype(np.uint8)


def swirl(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A marbled field in -1..1: a sine over coordinates warped by smooth noise."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / max(h, w)
    warp = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h),
                      interpolation=cv2.INTER_CUBIC)
    a = rng.uniform(0, np.pi)
    phase = (xx * np.cos(a) + yy * np.sin(a)) * rng.uniform(3, 10) + rng.uniform(1.0, 2.5) * warp
    return np.sin(phase + rng.uniform(0, 2 * np.pi)).astype(np.float32)


def marbled(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A marbled body: light and dark streaks of 10-40 levels across the face."""
    field = swirl(crop.shape[:2], rng)
    return np.clip(crop.astype(np.float32) + rng.uniform(10, 40) * field, 0, 255).astype(np.uint8)


def dark_body(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light pips on a dark body: the face inverted and darkened, sometimes marbled too."""
    out = (255.0 - crop.astype(np.float32)) * rng.uniform(0.35, 0.8)
    if rng.random() < 0.4:
        out = out + rng.uniform(10, 35) * swirl(crop.shape[:2], rng)
    return np.clip(out, 0, 255).astype(np.uint8)


def glare(crop: np.ndarray, rng: np.random.Generator, centre: tuple[float, float],
          side: float) -> np.ndarray:
    """A glossy face under a lamp: a soft light spot about a pip's size somewhere on the face,
    on light pips on a dark body half the time (where a spot looks most like a pip)."""
    out = dark_body(crop, rng).astype(np.float32) if rng.random() < 0.5 else crop.astype(np.float32)
    h, w = crop.shape[:2]
    gx, gy = (np.asarray(centre) + rng.uniform(-0.35, 0.35, 2) * side).tolist()
    sigma = side * rng.uniform(0.05, 0.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma ** 2)) * rng.uniform(0.5, 0.85)
    return np.clip(out * (1 - spot) + rng.uniform(225, 255) * spot, 0, 255).astype(np.uint8)


def blotched(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A marbled die whose swirls are as light as its pips: blobs and streaks 80-150 levels
    lighter than a dark body (a blue die with white swirls, seen grey)."""
    body = dark_body(crop, rng).astype(np.float32)
    field = swirl(crop.shape[:2], rng)
    share = cv2.GaussianBlur((field > rng.uniform(0.5, 0.8)).astype(np.float32), (0, 0), 1.0)
    return np.clip(body + rng.uniform(80, 150) * share, 0, 255).astype(np.uint8)


def on_floor(crop: np.ndarray, rng: np.random.Generator, centre: tuple[float, float],
             side: float) -> np.ndarray:
    """The face alone on a floor of grey 10-90: outside a rounded square of `side` px at
    `centre` (the simulator's face, cut at 0.8 of the die, with no sides around it)."""
    h, w = crop.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    half = side / 2
    x1, y1 = round(centre[0] - half), round(centre[1] - half)
    x2, y2 = round(centre[0] + half), round(centre[1] + half)
    r = max(1, round(side / 7))
    cv2.rectangle(mask, (x1 + r, y1), (x2 - r, y2), 255, -1)
    cv2.rectangle(mask, (x1, y1 + r), (x2, y2 - r), 255, -1)
    for cx, cy in ((x1 + r, y1 + r), (x2 - r, y1 + r), (x1 + r, y2 - r), (x2 - r, y2 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    alpha = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 0.6)
    floor = rng.uniform(10, 90) + 6 * rng.normal(0, 1, (h, w)).astype(np.float32)
    out = crop.astype(np.float32) * alpha + floor * (1 - alpha)
    return np.clip(out, 0, 255).astype(np.uint8)


def hard_face(crop: np.ndarray, rng: np.random.Generator, centre: tuple[float, float],
              side: float) -> np.ndarray:
    """One of `HARD_KINDS` made of `crop` (grey uint8), the face at `centre`, `side` px across."""
    kind = str(rng.choice(HARD_KINDS))
    if kind == "on_floor":  # and often lit too brightly as well, as on the live tray
        out = on_floor(crop, rng, centre, side * rng.uniform(0.75, 0.9))
        return washed(out, rng) if rng.random() < 0.5 else out
    if kind == "glare":
        return glare(crop, rng, centre, side)
    return {"washed": washed, "faint": faint, "marbled": marbled,
            "dark_body": dark_body, "blotched": blotched}[kind](crop, rng)
