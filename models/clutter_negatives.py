"""Clutter drawn for the face classifier's reject class: things on a table that are not dice.

Printed words and digits, logos and badges, pens and pencils, wood grain and
knots, stitched motifs, coins, buttons and other shapes, each drawn at a die's scale `d` on a
varied table and cut as the reader cuts a crop round a proposal: a PATCH-sized patch
(`vision.faces.patch_at`) at about the dice's size, centred on the thing or off it (a part
view). Issue 36, item 5: the classifier learnt "not a pip die" only from rune55's picture dice
and table marks, and read logos, pencil ferrules, knots, coins and buttons as dice.

This is the training side's own drawing with its own random streams: the clutter proxy
(benchmarks/clutter_eval.py, benchmarks/clutter_draw.py) draws with other code, and none of
its seeds is used here. No torch here.

    patches = clutter_patches(1000, np.random.default_rng(...))  # (1000, PATCH, PATCH) uint8
"""

from __future__ import annotations

import math
from collections.abc import Callable

import cv2
import numpy as np
import zonkcam.models.clutter_paint as paint
from zonkcam.models.clutter_paint import Colour, Point
from zonkcam.models.clutter_things import draw_button, draw_coin, draw_shape, draw_stitch
from zonkcam.vision.faces import PATCH, patch_at

KINDS = ("text", "badge", "pen", "wood", "stitch", "coin", "button", "shape")
CANVAS = 4.6  # the canvas's side in dice: room for a patch of up to 1.45 dice, moved 0.9 die off
DIE_PX = (22.0, 90.0)  # the dice's size on the canvas, px
# streams of their own: training's seed and this entropy, never a clutter_eval seed
STREAM = 0xC1077E2
# Letter tiles (a die-sized rounded square with a letter) among the badges: 0.25 in the first
# candidate, which then rejected dark dice with faint pips (issue 36 round 3); none since.
TILE_SHARE = 0.0


def clutter_rng(seed: int) -> np.random.Generator:
    """The clutter's own random stream for a training seed."""
    return np.random.default_rng([seed, STREAM])


def clutter_patches(n: int, rng: np.random.Generator, kinds: tuple[str, ...] = KINDS) -> np.ndarray:
    """`n` grey PATCH×PATCH patches of clutter, kinds in turn, cut as the reader cuts a crop."""
    out = np.zeros((n, PATCH, PATCH), np.uint8)
    for i in range(n):
        out[i] = clutter_patch(rng, kinds[i % len(kinds)])
    return out


def clutter_patch(rng: np.random.Generator, kind: str) -> np.ndarray:
    """One grey patch of `kind` clutter: drawn round the canvas's centre at a die's scale, then cut
    at about that scale, centred on it (jittered) or off it, a part of it in view."""
    if kind not in DRAW:
        raise ValueError(f"unknown clutter kind {kind!r} (known: {', '.join(KINDS)})")
    d = float(np.exp(rng.uniform(*np.log(DIE_PX))))
    side = round(CANVAS * d)
    img = table(rng, side, d)
    c = side / 2
    DRAW[kind](img, rng, d, (c, c))
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 0.45 + d / 60))
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    if rng.random() < 0.65:  # a proposal on the thing, missing its middle a little
        dx, dy = np.clip(rng.normal(0, 0.15, 2), -0.35, 0.35) * d
    else:  # a part view: the proposal beside it, or on one end of it
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.35, 0.9) * d
        dx, dy = r * math.cos(a), r * math.sin(a)
    size = d * float(np.exp(rng.uniform(math.log(0.7), math.log(1.45))))
    return patch_at(grey, c + dx, c + dy, size)


# ---------------------------------------------------------------- tables
def table(rng: np.random.Generator, side: int, d: float) -> np.ndarray:
    """A table `side` px square (BGR): one colour, unevenly lit, mottled, now and then a weave or
    fine grain, sensor noise."""
    base = np.array(paint.colour(rng, 15, 245), np.float32)
    if rng.random() < 0.5:  # felt, cloth, wood and paper are mostly low in saturation
        base = base.mean() + (base - base.mean()) * rng.uniform(0.1, 0.6)
    img = np.empty((side, side, 3), np.float32)
    img[:] = base
    cells = int(rng.integers(2, 7))
    mottle = cv2.resize(
        rng.normal(0, rng.uniform(2, 12), (cells, cells)).astype(np.float32),
        (side, side),
        interpolation=cv2.INTER_CUBIC,
    )
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) / side - 0.5
    gx, gy = rng.uniform(-0.4, 0.4, 2)
    img = img * (1 + gx * xx + gy * yy)[..., None] + mottle[..., None]
    texture = rng.random()
    if texture < 0.15:  # a weave
        step = max(2, round(d / rng.uniform(8, 16)))
        weave = np.zeros((side, side), np.float32)
        weave[::step] += 1
        weave[:, ::step] += 1
        img *= (1 - rng.uniform(0.03, 0.1) * weave)[..., None]
    elif texture < 0.3:  # fine streaks
        streaks = cv2.resize(rng.normal(0, 1, (side, 3)).astype(np.float32), (side, side))
        img += rng.uniform(3, 10) * streaks[..., None]
    img += rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- printing
def draw_text(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """Lines of print (letters, digits, signs) a fifth of a die to a die and a quarter high, one
    of them through the centre, the middle of the crop anywhere along it."""
    height = d * rng.uniform(0.2, 1.25)
    ink = paint.ink(rng, img[round(c[1]), round(c[0])])
    font = int(rng.choice(paint.FONTS))
    gap = height * rng.uniform(1.4, 2.2)
    for k in range(-2, 3):
        if k and rng.random() < 0.4:
            continue
        along = rng.uniform(-1.5, 1.5) * height
        paint.put(img, paint.word(rng, 1, 9), (c[0] + along, c[1] + k * gap), height, ink, rng, font)


def draw_badge(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A logo or badge (round, rounded, hexagon, shield, star; filled; a border), or a letter tile,
    with letters or a digit in it and now and then a ring of small stars or dots."""
    tile = rng.random() < TILE_SHARE  # a letter tile: a rounded square about a die's size, like a die
    rx = d * (rng.uniform(0.4, 0.55) if tile else rng.uniform(0.35, 1.2))
    ry = rx if tile or rng.random() < 0.6 else rx * rng.uniform(0.5, 0.85)
    shape = "rounded" if tile else str(rng.choice(["circle", "rounded", "hexagon", "shield", "star"]))
    turn = rng.uniform(-0.4, 0.4) if tile else rng.uniform(0, 2 * math.pi) * (rng.random() < 0.4)
    fill = np.array(paint.colour(rng), np.float32)
    paint.polygon(img, paint.outline(shape, c, rx, ry, turn), paint.scaled(fill, 1.0))
    ink = paint.ink(rng, fill)
    if rng.random() < 0.6:
        paint.polygon(
            img, paint.outline(shape, c, 0.85 * rx, 0.85 * ry, turn), ink, False, max(1, round(d / 30))
        )
    inner = min(rx, ry)
    word = str(rng.choice([paint.word(rng, 1, 1), paint.word(rng, 2, 4), str(int(rng.integers(0, 100)))]))
    paint.put(img, word, c, inner * rng.uniform(0.5, 1.0) / max(1.0, 0.5 * len(word)), ink, rng)
    if tile and rng.random() < 0.7:  # the tile's score in a corner
        paint.put(img, str(int(rng.integers(1, 11))), (c[0] + 0.6 * rx, c[1] + 0.6 * ry), 0.22 * rx, ink, rng)
    if not tile and rng.random() < 0.4:
        k0, a0 = int(rng.integers(3, 13)), rng.uniform(0, 2 * math.pi)
        paint.ring_of_dots(img, c, (0.7 * rx, 0.7 * ry), k0, a0, 0.05 * d, ink)


# ---------------------------------------------------------------- pens, wood
def _strip(
    img: np.ndarray, origin: Point, axis: Point, t0: float, t1: float, w0: float, w1: float, colour: Colour
) -> None:
    """A quadrilateral from `t0` to `t1` px along `axis` and `w0` to `w1` px across it."""
    (ox, oy), (c, s) = origin, axis
    pts = [(ox + c * t - s * w, oy + s * t + c * w) for t, w in ((t0, w0), (t1, w0), (t1, w1), (t0, w1))]
    paint.polygon(img, np.array(pts), colour)


def _rod(
    img: np.ndarray, origin: Point, axis: Point, t0: float, t1: float, thick: float, colour: Colour
) -> None:
    """A round or faceted rod's stretch, shaded across as lit from one side."""
    shade = (0.65, 0.85, 1.05, 1.15, 1.0, 0.8)
    step = thick / len(shade)
    for k, f in enumerate(shade):
        _strip(
            img,
            origin,
            axis,
            t0,
            t1,
            -thick / 2 + k * step,
            -thick / 2 + (k + 1.05) * step,
            paint.scaled(colour, f),
        )


def draw_pen(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A pencil (barrel, ridged metal ferrule, eraser, sharpened point) or a pen (barrel, clip,
    cap rings, metal tip) at any angle, the crop's middle on any part of it."""
    length, thick = d * rng.uniform(2.5, 6.0), d * rng.uniform(0.18, 0.5)
    a = rng.uniform(0, 2 * math.pi)
    axis = (math.cos(a), math.sin(a))
    parts: list[float] = [rng.uniform(0, length)]  # along it: where the crop's middle may fall
    pencil = rng.random() < 0.55
    barrel = paint.colour(rng, 20, 240)
    ferrule_end = length + 1.2 * thick
    parts += (
        [length + 0.6 * thick, ferrule_end + 0.4 * thick, -0.5 * thick]
        if pencil
        else [0.0, length, 0.2 * length]
    )
    t = float(rng.choice(parts))
    origin = (c[0] - axis[0] * t, c[1] - axis[1] * t)
    _rod(img, origin, axis, 0, length, thick, barrel)
    if pencil:
        metal = paint.colour(rng, 140, 230)
        _rod(img, origin, axis, length, ferrule_end, 1.05 * thick, metal)
        for k in range(int(rng.integers(2, 6))):  # its ridges
            r = length + (0.12 + 0.2 * k) * 1.2 * thick
            _strip(
                img, origin, axis, r, r + 0.07 * thick, -0.53 * thick, 0.53 * thick, paint.scaled(metal, 0.55)
            )
        _rod(img, origin, axis, ferrule_end, ferrule_end + 0.8 * thick, thick, paint.colour(rng, 120, 240))
        wood = paint.colour(rng, 140, 230)
        for k in range(6):  # the sharpened wood, narrowing, then the lead
            w = thick * (1 - k / 6)
            _strip(
                img,
                origin,
                axis,
                -(k + 1) * 0.15 * thick,
                -k * 0.15 * thick,
                -w / 2,
                w / 2,
                wood if k < 4 else paint.colour(rng, 20, 70),
            )
    else:
        for r in rng.uniform(0.05, 0.95, int(rng.integers(1, 4))) * length:  # cap rings
            _strip(img, origin, axis, r, r + 0.08 * thick, -thick / 2, thick / 2, paint.scaled(barrel, 0.6))
        _strip(
            img,
            origin,
            axis,
            0.05 * length,
            0.35 * length,
            -0.12 * thick,
            0.12 * thick,
            paint.colour(rng, 150, 240),
        )  # a clip
        for k in range(5):  # a metal tip, narrowing
            w = 0.6 * thick * (1 - k / 5)
            _strip(
                img,
                origin,
                axis,
                length + k * 0.12 * thick,
                length + (k + 1) * 0.12 * thick,
                -w / 2,
                w / 2,
                paint.colour(rng, 150, 230),
            )


def draw_wood(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """Wood: fine grain lines bending round knots (a dark core, rings), the crop on a knot or on
    the grain."""
    side = img.shape[0]
    yy, xx = np.mgrid[0:side, 0:side].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = -math.sin(a) * (xx - c[0]) + math.cos(a) * (yy - c[1])  # across the grain
    v = math.cos(a) * (xx - c[0]) + math.sin(a) * (yy - c[1])
    field = u + 0.3 * d * np.sin(v / (d * rng.uniform(1.5, 5)))
    knots: list[tuple[float, float, float, float]] = []
    for _ in range(int(rng.integers(1, 3))):
        kx, ky = (
            c
            if not knots and rng.random() < 0.75
            else (c[0] + rng.uniform(-1.5, 1.5) * d, c[1] + rng.uniform(-1.5, 1.5) * d)
        )
        r = d * rng.uniform(0.15, 0.45)
        stretch = rng.uniform(1.0, 2.2)
        du = -math.sin(a) * (xx - kx) + math.cos(a) * (yy - ky)
        dv = (math.cos(a) * (xx - kx) + math.sin(a) * (yy - ky)) / stretch
        rr = np.sqrt(du**2 + dv**2)
        field = field + np.sign(du) * 1.5 * r * np.exp(-((rr / (1.6 * r)) ** 2))  # lines bend round it
        knots.append((kx, ky, r, stretch))
    period = d * rng.uniform(0.12, 0.4)
    lines = 0.5 + 0.5 * np.cos(2 * math.pi * field / period)
    depth = rng.uniform(0.08, 0.3)
    img[:] = np.clip(img.astype(np.float32) * (1 - depth * lines**3)[..., None], 0, 255).astype(np.uint8)
    for kx, ky, r, stretch in knots:
        tone = img[int(np.clip(ky, 0, side - 1)), int(np.clip(kx, 0, side - 1))].astype(np.float32)
        axes = (max(1, round(r * stretch)), max(1, round(r)))
        angle = math.degrees(a)
        core = (max(1, round(0.5 * axes[0])), max(1, round(0.5 * axes[1])))
        for ring, (lo, hi) in ((axes, (0.55, 0.85)), (core, (0.2, 0.5))):  # the knot, its darker core
            cv2.ellipse(
                img,
                (round(kx), round(ky)),
                ring,
                angle,
                0,
                360,
                paint.scaled(tone, rng.uniform(lo, hi)),
                -1,
                cv2.LINE_AA,
            )


DRAW: dict[str, Callable[[np.ndarray, np.random.Generator, float, Point], None]] = {
    "text": draw_text,
    "badge": draw_badge,
    "pen": draw_pen,
    "wood": draw_wood,
    "stitch": draw_stitch,
    "coin": draw_coin,
    "button": draw_button,
    "shape": draw_shape,
}
