"""Drawn dice in the looks that make colour hard: opaque, translucent and marbled bodies, for
the colour tests and `benchmarks/color_eval.py`. No data set needed.

A translucent die lets the table's light through (its body is the dye times the table, darker
where the die is thickest), shows the pips of its other faces faintly through the body, and
catches a glare spot; a marbled die swirls its colour with a second one.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from zonkcam.vision.sim.drawn import PIPS

LOOKS = ("opaque", "translucent", "marbled")


@dataclass(frozen=True, slots=True)
class DieLook:
    """How a die of one colour looks: body sRGB, `look`, pip sRGB, the marble's second sRGB."""

    name: str
    rgb: tuple[int, int, int]
    look: str = "opaque"
    pip_rgb: tuple[int, int, int] = (240, 240, 240)
    swirl_rgb: tuple[int, int, int] = (20, 20, 20)


def _bgr(rgb: tuple[int, int, int]) -> np.ndarray:
    return np.array(rgb[::-1], np.float32)


def face_mask(shape: tuple[int, int], cx: float, cy: float, s: float, angle: float) -> np.ndarray:
    """A rounded square of side `s` turned by `angle` degrees, as a float mask 0..1."""
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corner, pts = 0.18 * s, []
    for qx, qy, start in ((1, 1, 0), (-1, 1, math.pi / 2), (-1, -1, math.pi), (1, -1, 1.5 * math.pi)):
        c = np.array([qx * (s / 2 - corner), qy * (s / 2 - corner)])
        pts += [c + corner * np.array([math.cos(start + u), math.sin(start + u)])
                for u in np.linspace(0, math.pi / 2, 6)]
    outline = np.array(pts) @ rot.T + [cx, cy]
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.round(outline * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    return mask.astype(np.float32) / 255.0


def _pip_mask(shape: tuple[int, int], value: int, cx: float, cy: float, s: float, angle: float,
              radius: float = 0.09) -> np.ndarray:
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    mask = np.zeros(shape, np.uint8)
    for px, py in PIPS[value]:
        x, y = rot @ np.array([px * 0.27 * s, py * 0.27 * s]) + [cx, cy]
        cv2.circle(mask, (round(x * 16), round(y * 16)), round(radius * s * 16), 255, -1,
                   cv2.LINE_AA, shift=4)
    return mask.astype(np.float32) / 255.0


def draw_look(image: np.ndarray, die: DieLook, value: int, cx: float, cy: float, s: float,
              angle: float, rng: np.random.Generator) -> None:
    """Draw one die of `die`'s look on a BGR uint8 picture, in place."""
    h, w = image.shape[:2]
    table = image.astype(np.float32)
    face = face_mask((h, w), cx, cy, s, angle)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.hypot(xx - cx, yy - cy) / (s / 2)  # 0 at the centre, ~1 at the edges
    body = np.broadcast_to(_bgr(die.rgb), (h, w, 3)).copy()
    light = 1.0 + 0.12 * ((xx - cx) * math.cos(rng.uniform(0, 6.3))) / s  # a lamp to one side
    if die.look == "translucent":
        # dye times the light through it: the table's light where thin (the rim), less in the
        # thick middle; the other faces' pips show through, darker and blurred
        through = cv2.GaussianBlur(table, (0, 0), s / 6) / 255.0
        thick = np.clip(0.55 + 0.35 * r, 0.4, 1.0)[..., None]
        body = body * (0.35 + 0.9 * through) * thick
        ghost = _pip_mask((h, w), int(rng.integers(1, 7)), cx + s * 0.08, cy - s * 0.06, s * 0.9,
                          angle + rng.uniform(-20, 20))
        body *= (1 - 0.35 * cv2.GaussianBlur(ghost, (0, 0), s / 25))[..., None]
    elif die.look == "marbled":
        f = rng.uniform(3, 6) / s
        phase = rng.uniform(0, 6.3, 3)
        swirl = np.sin(xx * f + 2.5 * np.sin(yy * f * 0.8 + phase[0]) + phase[1]) \
            + 0.6 * np.sin(yy * f * 1.3 + 1.8 * np.cos(xx * f * 0.7 + phase[2]))
        share = (swirl > 0.7).astype(np.float32)
        share = cv2.GaussianBlur(share, (0, 0), s / 30)[..., None]
        body = body * (1 - share) + _bgr(die.swirl_rgb) * share
    body *= light[..., None]
    if die.look != "opaque" or rng.random() < 0.5:  # glare: glossy and translucent faces
        gx, gy = cx + rng.uniform(-0.3, 0.3) * s, cy + rng.uniform(-0.3, 0.3) * s
        glare = np.exp(-(((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.07 * s) ** 2)))
        body = body * (1 - 0.8 * glare[..., None]) + 250 * 0.8 * glare[..., None]
    pips = _pip_mask((h, w), value, cx, cy, s, angle)[..., None]
    body = body * (1 - pips) + _bgr(die.pip_rgb) * pips
    edge = np.clip((face - 0.5) * 2, 0, 1)[..., None]  # a darker rim where the face turns down
    body *= 1 - 0.25 * (face[..., None] - edge)
    out = table * (1 - face[..., None]) + body * face[..., None]
    image[:] = np.clip(out, 0, 255).astype(np.uint8)


def lit(image: np.ndarray, gains_bgr: tuple[float, float, float], exposure: float,
        rng: np.random.Generator, noise: float = 3.0) -> np.ndarray:
    """The picture under another light: a colour cast (per-channel gains), an exposure, a
    little blur and sensor noise."""
    out: np.ndarray = image.astype(np.float32) * np.array(gains_bgr, np.float32) * exposure
    out = cv2.GaussianBlur(out, (0, 0), 0.6) + rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)
