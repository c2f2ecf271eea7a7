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
import string
from collections.abc import Callable

import cv2
import numpy as np
from zonkcam.vision.faces import PATCH, patch_at

KINDS = ("text", "badge", "pen", "wood", "stitch", "coin", "button", "shape")
CANVAS = 4.6  # the canvas's side in dice: room for a patch of up to 1.45 dice, moved 0.9 die off
DIE_PX = (22.0, 90.0)  # the dice's size on the canvas, px
# streams of their own: training's seed and this entropy, never a clutter_eval seed
STREAM = 0xC1077E2
# Letter tiles (a die-sized rounded square with a letter) among the badges: 0.25 in the first
# candidate, which then rejected dark dice with faint pips (issue 36 round 3); none since.
TILE_SHARE = 0.0

Colour = tuple[int, int, int]
Point = tuple[float, float]


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
def _colour(rng: np.random.Generator, lo: int = 0, hi: int = 256) -> Colour:
    r, g, b = (int(v) for v in rng.integers(lo, hi, 3))
    return r, g, b


def _scaled(colour: Colour | np.ndarray, k: float) -> Colour:
    r, g, b = (int(np.clip(v * k, 0, 255)) for v in colour)
    return r, g, b


def _ink(rng: np.random.Generator, under: np.ndarray) -> Colour:
    """A print colour that stands out from the colour `under` it: dark on light, light on dark,
    now and then any colour."""
    if rng.random() < 0.25:
        return _colour(rng)
    return _colour(rng, 0, 90) if float(np.mean(under)) > 110 else _colour(rng, 170, 256)


def table(rng: np.random.Generator, side: int, d: float) -> np.ndarray:
    """A table `side` px square (BGR): one colour, unevenly lit, mottled, now and then a weave or
    fine grain, sensor noise."""
    base = np.array(_colour(rng, 15, 245), np.float32)
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
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
)
CHARS = string.ascii_letters + string.digits + "&%$#@+-:./!?"


def _word(rng: np.random.Generator, lo: int, hi: int) -> str:
    pool = string.digits if rng.random() < 0.25 else CHARS
    return "".join(pool[int(i)] for i in rng.integers(0, len(pool), int(rng.integers(lo, hi + 1))))


def _put(
    img: np.ndarray,
    word: str,
    at: Point,
    height: float,
    colour: Colour,
    rng: np.random.Generator,
    font: int | None = None,
    bold: float = 1.0,
) -> None:
    """`word` with its middle at `at`, letters `height` px high."""
    font = int(rng.choice(FONTS)) if font is None else font
    if rng.random() < 0.2:
        font |= cv2.FONT_ITALIC
    unit = cv2.getTextSize("H", font, 1.0, 1)[0][1]
    scale = height / max(unit, 1)
    thick = max(1, round(scale * bold * rng.uniform(0.8, 2.6)))
    (tw, th), _ = cv2.getTextSize(word, font, scale, thick)
    org = (round(at[0] - tw / 2), round(at[1] + th / 2))
    cv2.putText(img, word, org, font, scale, colour, thick, cv2.LINE_AA)


def draw_text(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """Lines of print (letters, digits, signs) a fifth of a die to a die and a quarter high, one
    of them through the centre, the middle of the crop anywhere along it."""
    height = d * rng.uniform(0.2, 1.25)
    ink = _ink(rng, img[round(c[1]), round(c[0])])
    font = int(rng.choice(FONTS))
    gap = height * rng.uniform(1.4, 2.2)
    for k in range(-2, 3):
        if k and rng.random() < 0.4:
            continue
        along = rng.uniform(-1.5, 1.5) * height
        _put(img, _word(rng, 1, 9), (c[0] + along, c[1] + k * gap), height, ink, rng, font)


def _polygon(img: np.ndarray, pts: np.ndarray, colour: Colour, filled: bool = True, width: int = 1) -> None:
    p = np.round(np.asarray(pts) * 16).astype(np.int32)
    if filled:
        cv2.fillPoly(img, [p], colour, cv2.LINE_AA, shift=4)
    else:
        cv2.polylines(img, [p], True, colour, width, cv2.LINE_AA, shift=4)


def _outline(shape: str, c: Point, rx: float, ry: float, turn: float) -> np.ndarray:
    """A closed outline round `c`: circle, rounded square, hexagon, shield, star, triangle, heart."""
    t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    if shape == "circle":
        x, y = np.cos(t), np.sin(t)
    elif shape == "rounded":
        x, y = np.sign(np.cos(t)) * np.abs(np.cos(t)) ** 0.35, np.sign(np.sin(t)) * np.abs(np.sin(t)) ** 0.35
    elif shape in ("hexagon", "triangle"):
        corners = 6 if shape == "hexagon" else 3
        a = np.linspace(0, 2 * math.pi, corners, endpoint=False) - math.pi / 2
        x, y = np.cos(a), np.sin(a)
    elif shape == "star":
        k = np.arange(10)
        r = np.where(k % 2 == 0, 1.0, 0.45)
        x, y = r * np.sin(math.pi * k / 5), -r * np.cos(math.pi * k / 5)
    elif shape == "shield":
        x = np.concatenate([np.linspace(-1, 1, 8), np.cos(np.linspace(0, math.pi, 16))])
        y = np.concatenate([np.full(8, -0.9), 0.2 + 0.8 * np.sin(np.linspace(0, math.pi, 16)) ** 1.5])
    else:  # heart
        x = 16 * np.sin(t) ** 3 / 16
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16
    ca, sa = math.cos(turn), math.sin(turn)
    return np.stack([c[0] + rx * (ca * x - sa * y), c[1] + ry * (sa * x + ca * y)], 1)


def _ring_of_dots(img: np.ndarray, centre: tuple[float, float], radii: tuple[float, float], count: int,
                  start: float, dot: float, colour: tuple[float, ...]) -> None:
    """`count` dots of radius `dot` round an ellipse of `radii`, the first at angle `start`."""
    for k in range(count):
        a = start + 2 * math.pi * k / count
        at = (round(centre[0] + radii[0] * math.cos(a)), round(centre[1] + radii[1] * math.sin(a)))
        cv2.circle(img, at, max(1, round(dot)), colour, -1, cv2.LINE_AA)


def draw_badge(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A logo or badge (round, rounded, hexagon, shield, star; filled; a border), or a letter tile,
    with letters or a digit in it and now and then a ring of small stars or dots."""
    tile = rng.random() < TILE_SHARE  # a letter tile: a rounded square about a die's size, like a die
    rx = d * (rng.uniform(0.4, 0.55) if tile else rng.uniform(0.35, 1.2))
    ry = rx if tile or rng.random() < 0.6 else rx * rng.uniform(0.5, 0.85)
    shape = "rounded" if tile else str(rng.choice(["circle", "rounded", "hexagon", "shield", "star"]))
    turn = rng.uniform(-0.4, 0.4) if tile else rng.uniform(0, 2 * math.pi) * (rng.random() < 0.4)
    fill = np.array(_colour(rng), np.float32)
    _polygon(img, _outline(shape, c, rx, ry, turn), _scaled(fill, 1.0))
    ink = _ink(rng, fill)
    if rng.random() < 0.6:
        _polygon(img, _outline(shape, c, 0.85 * rx, 0.85 * ry, turn), ink, False, max(1, round(d / 30)))
    inner = min(rx, ry)
    word = str(rng.choice([_word(rng, 1, 1), _word(rng, 2, 4), str(int(rng.integers(0, 100)))]))
    _put(img, word, c, inner * rng.uniform(0.5, 1.0) / max(1.0, 0.5 * len(word)), ink, rng)
    if tile and rng.random() < 0.7:  # the tile's score in a corner
        _put(img, str(int(rng.integers(1, 11))), (c[0] + 0.6 * rx, c[1] + 0.6 * ry), 0.22 * rx, ink, rng)
    if not tile and rng.random() < 0.4:
        k0, a0 = int(rng.integers(3, 13)), rng.uniform(0, 2 * math.pi)
        _ring_of_dots(img, c, (0.7 * rx, 0.7 * ry), k0, a0, 0.05 * d, ink)


# ---------------------------------------------------------------- pens, wood
def _strip(
    img: np.ndarray, origin: Point, axis: Point, t0: float, t1: float, w0: float, w1: float, colour: Colour
) -> None:
    """A quadrilateral from `t0` to `t1` px along `axis` and `w0` to `w1` px across it."""
    (ox, oy), (c, s) = origin, axis
    pts = [(ox + c * t - s * w, oy + s * t + c * w) for t, w in ((t0, w0), (t1, w0), (t1, w1), (t0, w1))]
    _polygon(img, np.array(pts), colour)


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
            _scaled(colour, f),
        )


def draw_pen(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A pencil (barrel, ridged metal ferrule, eraser, sharpened point) or a pen (barrel, clip,
    cap rings, metal tip) at any angle, the crop's middle on any part of it."""
    length, thick = d * rng.uniform(2.5, 6.0), d * rng.uniform(0.18, 0.5)
    a = rng.uniform(0, 2 * math.pi)
    axis = (math.cos(a), math.sin(a))
    parts: list[float] = [rng.uniform(0, length)]  # along it: where the crop's middle may fall
    pencil = rng.random() < 0.55
    barrel = _colour(rng, 20, 240)
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
        metal = _colour(rng, 140, 230)
        _rod(img, origin, axis, length, ferrule_end, 1.05 * thick, metal)
        for k in range(int(rng.integers(2, 6))):  # its ridges
            r = length + (0.12 + 0.2 * k) * 1.2 * thick
            _strip(img, origin, axis, r, r + 0.07 * thick, -0.53 * thick, 0.53 * thick, _scaled(metal, 0.55))
        _rod(img, origin, axis, ferrule_end, ferrule_end + 0.8 * thick, thick, _colour(rng, 120, 240))
        wood = _colour(rng, 140, 230)
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
                wood if k < 4 else _colour(rng, 20, 70),
            )
    else:
        for r in rng.uniform(0.05, 0.95, int(rng.integers(1, 4))) * length:  # cap rings
            _strip(img, origin, axis, r, r + 0.08 * thick, -thick / 2, thick / 2, _scaled(barrel, 0.6))
        _strip(
            img,
            origin,
            axis,
            0.05 * length,
            0.35 * length,
            -0.12 * thick,
            0.12 * thick,
            _colour(rng, 150, 240),
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
                _colour(rng, 150, 230),
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
            cv2.ellipse(img, (round(kx), round(ky)), ring, angle, 0, 360, _scaled(tone, rng.uniform(lo, hi)),
                        -1, cv2.LINE_AA)


# ---------------------------------------------------------------- stitches, coins, buttons, shapes
def _stitched(img: np.ndarray, pts: np.ndarray, colour: Colour, width: int, running: bool) -> None:
    """Stitches along a path: short lines with gaps (running) or touching (satin)."""
    for k in range(len(pts) - 1):
        if running and k % 2:
            continue
        (ax, ay), (bx, by) = pts[k], pts[k + 1]
        cv2.line(img, (round(ax), round(ay)), (round(bx), round(by)), colour, width, cv2.LINE_AA)


def draw_stitch(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """Embroidery on a weave: a face with two ringed eyes (an owl, a cat), a flower, a heart or a
    star outline, a cross-stitch block, a stitched letter."""
    side = img.shape[0]
    step = max(2, round(d / rng.uniform(8, 14)))
    weave = np.zeros((side, side), np.float32)
    weave[::step] += 1
    weave[:, ::step] += 1
    img[:] = np.clip(img.astype(np.float32) * (1 - 0.07 * weave[..., None]), 0, 255).astype(np.uint8)
    width = max(1, round(d / rng.uniform(8, 16)))
    ink = _ink(rng, img[round(c[1]), round(c[0])])
    r = d * rng.uniform(0.5, 1.5)
    t = np.linspace(0, 2 * math.pi, int(rng.integers(24, 48)))
    motif = str(rng.choice(["eyes", "flower", "outline", "cross", "letter"]))
    running = bool(rng.random() < 0.6)
    if motif == "eyes":
        _stitched(
            img,
            np.stack([c[0] + 0.85 * r * np.cos(t), c[1] + 0.25 * r + r * np.sin(t)], 1),
            ink,
            width,
            running,
        )
        for ex in (-0.35, 0.35):
            e = (c[0] + ex * r, c[1] - 0.2 * r)
            _stitched(
                img,
                np.stack([e[0] + 0.25 * r * np.cos(t), e[1] + 0.25 * r * np.sin(t)], 1),
                _colour(rng, 120, 256),
                width,
                False,
            )
            cv2.circle(
                img, (round(e[0]), round(e[1])), max(1, round(0.1 * r)), _colour(rng, 0, 60), -1, cv2.LINE_AA
            )
    elif motif == "flower":
        petals = int(rng.integers(4, 9))
        for k in range(petals):
            a = 2 * math.pi * k / petals
            p = (c[0] + 0.45 * r * math.cos(a), c[1] + 0.45 * r * math.sin(a))
            _stitched(
                img,
                np.stack([p[0] + 0.3 * r * np.cos(t), p[1] + 0.18 * r * np.sin(t)], 1),
                ink,
                width,
                running,
            )
        cv2.circle(img, (round(c[0]), round(c[1])), max(1, round(0.15 * r)), _colour(rng), -1, cv2.LINE_AA)
    elif motif == "outline":
        shape = str(rng.choice(["heart", "star", "circle", "triangle"]))
        _stitched(
            img,
            np.vstack([(o := _outline(shape, c, 0.6 * r, 0.6 * r, rng.uniform(0, 0.5))), o[:1]]),
            ink,
            width,
            running,
        )
    elif motif == "cross":
        n = int(rng.integers(3, 7))
        s = 2 * r / n
        for i in range(n):
            for j in range(n):
                if rng.random() < 0.55:
                    x0, y0 = c[0] - r + i * s, c[1] - r + j * s
                    for (ax, ay), (bx, by) in (
                        ((x0, y0), (x0 + 0.8 * s, y0 + 0.8 * s)),
                        ((x0 + 0.8 * s, y0), (x0, y0 + 0.8 * s)),
                    ):
                        cv2.line(img, (round(ax), round(ay)), (round(bx), round(by)), ink, width, cv2.LINE_AA)
    else:
        _put(img, _word(rng, 1, 2), c, r, ink, rng, bold=0.6)


def _disc_light(img: np.ndarray, c: Point, r: float, colour: Colour, rng: np.random.Generator) -> None:
    """A disc shaded as lit from one side (a coin's metal, a domed button)."""
    x0, y0 = round(c[0] - r), round(c[1] - r)
    n = round(2 * r)
    if n < 2 or x0 < 0 or y0 < 0 or x0 + n > img.shape[1] or y0 + n > img.shape[0]:
        cv2.circle(img, (round(c[0]), round(c[1])), max(1, round(r)), colour, -1, cv2.LINE_AA)
        return
    yy, xx = np.mgrid[-1 : 1 : complex(0, n), -1 : 1 : complex(0, n)]
    a = rng.uniform(0, 2 * math.pi)
    light = 1.0 + rng.uniform(0.1, 0.4) * (math.cos(a) * xx + math.sin(a) * yy)
    inside = xx**2 + yy**2 <= 1
    region = img[y0 : y0 + n, x0 : x0 + n]
    tone = np.clip(np.array(colour, np.float32)[None, None] * light[..., None], 0, 255)
    region[inside] = tone[inside].astype(np.uint8)


def draw_coin(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A coin (or two, one over the other): shaded metal, a rim, an embossed number, head, star
    or ring of dots."""
    for k in range(2 if rng.random() < 0.25 else 1):
        r = d * rng.uniform(0.28, 0.62)
        at = c if k == 0 else (c[0] + rng.uniform(-1, 1) * r, c[1] + rng.uniform(-1, 1) * r)
        metal = (
            _colour(rng, 90, 230) if rng.random() < 0.3 else _scaled((150, 165, 185), rng.uniform(0.6, 1.3))
        )
        _disc_light(img, at, r, metal, rng)
        emboss = _scaled(metal, rng.uniform(0.55, 0.8))
        cv2.circle(
            img,
            (round(at[0]), round(at[1])),
            max(1, round(0.87 * r)),
            emboss,
            max(1, round(r / 14)),
            cv2.LINE_AA,
        )
        face = rng.random()
        if face < 0.35:
            _put(
                img,
                str(int(rng.choice([1, 2, 5, 10, 20, 25, 50, 100]))),
                at,
                r * rng.uniform(0.4, 0.8),
                emboss,
                rng,
            )
        elif face < 0.6:  # a head in profile
            cv2.ellipse(
                img,
                (round(at[0]), round(at[1] - 0.1 * r)),
                (max(1, round(0.28 * r)), max(1, round(0.38 * r))),
                rng.uniform(-20, 20),
                0,
                360,
                emboss,
                max(1, round(r / 9)),
                cv2.LINE_AA,
            )
            cv2.ellipse(
                img,
                (round(at[0]), round(at[1] + 0.4 * r)),
                (max(1, round(0.4 * r)), max(1, round(0.2 * r))),
                0,
                180,
                360,
                emboss,
                max(1, round(r / 9)),
                cv2.LINE_AA,
            )
        elif face < 0.8:
            _polygon(img, _outline("star", at, 0.45 * r, 0.45 * r, rng.uniform(0, 1)), emboss)
        else:
            _ring_of_dots(img, at, (0.7 * r, 0.7 * r), int(rng.integers(8, 16)), 0.0, 0.06 * r, emboss)


def draw_button(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A sewing button: a disc with a raised rim and two or four holes (threaded now and then),
    or a domed shank button with none."""
    r = d * rng.uniform(0.25, 0.55)
    body = _colour(rng, 20, 250)
    _disc_light(img, c, r, body, rng)
    cv2.circle(
        img,
        (round(c[0]), round(c[1])),
        max(1, round(0.78 * r)),
        _scaled(body, rng.uniform(0.6, 1.3)),
        max(1, round(r / 8)),
        cv2.LINE_AA,
    )
    if rng.random() < 0.15:
        return  # a shank button
    holes = 2 if rng.random() < 0.4 else 4
    a0, spread = rng.uniform(0, math.pi), r * rng.uniform(0.22, 0.36)
    pts = [
        (
            c[0] + spread * math.cos(a0 + 2 * math.pi * k / holes),
            c[1] + spread * math.sin(a0 + 2 * math.pi * k / holes),
        )
        for k in range(holes)
    ]
    hole = _scaled(body, rng.uniform(0.1, 0.4))
    for x, y in pts:
        cv2.circle(
            img, (round(x), round(y)), max(1, round(r * rng.uniform(0.08, 0.14))), hole, -1, cv2.LINE_AA
        )
    if rng.random() < 0.35:  # thread through the holes
        thread = _colour(rng)
        for p, q in ((pts[0], pts[holes // 2]),) + (((pts[1], pts[3]),) if holes == 4 else ()):
            cv2.line(
                img,
                (round(p[0]), round(p[1])),
                (round(q[0]), round(q[1])),
                thread,
                max(1, round(r / 10)),
                cv2.LINE_AA,
            )


def draw_shape(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """Other things: a printed or cut-out shape (triangle, heart, star, ring, cross, arrow,
    crescent), a checkerboard or stripes, a bar code, a key ring's loop, a scribble."""
    kind = str(
        rng.choice(["solid", "ring", "cross", "arrow", "moon", "checks", "stripes", "barcode", "scribble"])
    )
    r = d * rng.uniform(0.3, 1.0)
    ink = _ink(rng, img[round(c[1]), round(c[0])])
    width = max(1, round(d * rng.uniform(0.04, 0.15)))
    cx, cy = round(c[0]), round(c[1])
    if kind == "solid":
        shape = str(rng.choice(["triangle", "heart", "star", "hexagon", "shield"]))
        _polygon(img, _outline(shape, c, r, r * rng.uniform(0.6, 1.0), rng.uniform(0, 2 * math.pi)), ink)
    elif kind == "ring":
        cv2.ellipse(
            img,
            (cx, cy),
            (max(1, round(r)), max(1, round(r * rng.uniform(0.5, 1)))),
            rng.uniform(0, 180),
            0,
            360,
            ink,
            width,
            cv2.LINE_AA,
        )
    elif kind in ("cross", "arrow"):
        a = rng.uniform(0, math.pi)
        ends = (
            [(math.cos(a), math.sin(a)), (-math.sin(a), math.cos(a))]
            if kind == "cross"
            else [(math.cos(a), math.sin(a))]
        )
        for ux, uy in ends:
            cv2.line(
                img,
                (round(cx - r * ux), round(cy - r * uy)),
                (round(cx + r * ux), round(cy + r * uy)),
                ink,
                width,
                cv2.LINE_AA,
            )
        if kind == "arrow":
            ux, uy = ends[0]
            for turn in (2.5, -2.5):
                bx = cx + r * ux + 0.5 * r * (ux * math.cos(turn) - uy * math.sin(turn))
                by = cy + r * uy + 0.5 * r * (ux * math.sin(turn) + uy * math.cos(turn))
                cv2.line(
                    img,
                    (round(cx + r * ux), round(cy + r * uy)),
                    (round(bx), round(by)),
                    ink,
                    width,
                    cv2.LINE_AA,
                )
    elif kind == "moon":
        cv2.circle(img, (cx, cy), max(1, round(r)), ink, -1, cv2.LINE_AA)
        under = _scaled(img[max(0, cy - round(1.5 * r)), cx], 1.0) if cy - 1.5 * r >= 0 else _colour(rng)
        cv2.circle(
            img, (round(cx + 0.45 * r), round(cy - 0.2 * r)), max(1, round(0.85 * r)), under, -1, cv2.LINE_AA
        )
    elif kind in ("checks", "stripes", "barcode"):
        _bars(img, rng, kind, c, r, ink)
    else:
        pts = np.cumsum(rng.normal(0, 0.35 * r, (int(rng.integers(5, 14)), 2)), 0) + c
        _stitched(img, pts, ink, width, False)


def _bars(img: np.ndarray, rng: np.random.Generator, kind: str, c: Point, r: float, ink: Colour) -> None:
    """A checkerboard, stripes or a bar code filling a square of side 2r round `c`."""
    n = int(rng.integers(3, 8)) if kind != "barcode" else int(rng.integers(12, 30))
    s = 2 * r / n
    x0, y0 = c[0] - r, c[1] - r
    for i in range(n):
        if kind == "barcode":
            if rng.random() < 0.5:
                w = s * rng.uniform(0.3, 1.0)
                cv2.rectangle(
                    img, (round(x0 + i * s), round(y0)), (round(x0 + i * s + w), round(y0 + 1.3 * r)), ink, -1
                )
            continue
        for j in range(n):
            if (i + j) % 2 == 0 if kind == "checks" else i % 2 == 0:
                cv2.rectangle(
                    img,
                    (round(x0 + i * s), round(y0 + j * s)),
                    (round(x0 + (i + 1) * s), round(y0 + (j + 1) * s)),
                    ink,
                    -1,
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
