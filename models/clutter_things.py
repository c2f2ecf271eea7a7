"""Training clutter, the round and sewn things (`models/clutter_negatives.py`): stitched motifs,
coins, buttons and other shapes, each drawn at a die's scale `d` round the point `c`."""

from __future__ import annotations

import math

import cv2
import numpy as np
import zonkcam.models.clutter_paint as paint
from zonkcam.models.clutter_paint import Colour, Point


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
    ink = paint.ink(rng, img[round(c[1]), round(c[0])])
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
                paint.colour(rng, 120, 256),
                width,
                False,
            )
            cv2.circle(
                img,
                (round(e[0]), round(e[1])),
                max(1, round(0.1 * r)),
                paint.colour(rng, 0, 60),
                -1,
                cv2.LINE_AA,
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
        cv2.circle(
            img, (round(c[0]), round(c[1])), max(1, round(0.15 * r)), paint.colour(rng), -1, cv2.LINE_AA
        )
    elif motif == "outline":
        shape = str(rng.choice(["heart", "star", "circle", "triangle"]))
        _stitched(
            img,
            np.vstack([(o := paint.outline(shape, c, 0.6 * r, 0.6 * r, rng.uniform(0, 0.5))), o[:1]]),
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
        paint.put(img, paint.word(rng, 1, 2), c, r, ink, rng, bold=0.6)


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
            paint.colour(rng, 90, 230)
            if rng.random() < 0.3
            else paint.scaled((150, 165, 185), rng.uniform(0.6, 1.3))
        )
        _disc_light(img, at, r, metal, rng)
        emboss = paint.scaled(metal, rng.uniform(0.55, 0.8))
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
            paint.put(
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
            paint.polygon(img, paint.outline("star", at, 0.45 * r, 0.45 * r, rng.uniform(0, 1)), emboss)
        else:
            paint.ring_of_dots(img, at, (0.7 * r, 0.7 * r), int(rng.integers(8, 16)), 0.0, 0.06 * r, emboss)


def draw_button(img: np.ndarray, rng: np.random.Generator, d: float, c: Point) -> None:
    """A sewing button: a disc with a raised rim and two or four holes (threaded now and then),
    or a domed shank button with none."""
    r = d * rng.uniform(0.25, 0.55)
    body = paint.colour(rng, 20, 250)
    _disc_light(img, c, r, body, rng)
    cv2.circle(
        img,
        (round(c[0]), round(c[1])),
        max(1, round(0.78 * r)),
        paint.scaled(body, rng.uniform(0.6, 1.3)),
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
    hole = paint.scaled(body, rng.uniform(0.1, 0.4))
    for x, y in pts:
        cv2.circle(
            img, (round(x), round(y)), max(1, round(r * rng.uniform(0.08, 0.14))), hole, -1, cv2.LINE_AA
        )
    if rng.random() < 0.35:  # thread through the holes
        thread = paint.colour(rng)
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
    ink = paint.ink(rng, img[round(c[1]), round(c[0])])
    width = max(1, round(d * rng.uniform(0.04, 0.15)))
    cx, cy = round(c[0]), round(c[1])
    if kind == "solid":
        shape = str(rng.choice(["triangle", "heart", "star", "hexagon", "shield"]))
        paint.polygon(
            img, paint.outline(shape, c, r, r * rng.uniform(0.6, 1.0), rng.uniform(0, 2 * math.pi)), ink
        )
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
        under = (
            paint.scaled(img[max(0, cy - round(1.5 * r)), cx], 1.0)
            if cy - 1.5 * r >= 0
            else paint.colour(rng)
        )
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
