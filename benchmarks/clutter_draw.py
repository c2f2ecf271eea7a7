"""Clutter drawn on a table for `clutter_eval.py`: printed text, a box logo, a pen or pencil, wood
grain with knots, embroidery, coins, buttons and picture dice, each at the dice's scale `d`
(px), kept off the boxes already `taken`."""
from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

import cv2
import numpy as np
from zonkcam.vision.sim.drawn import BODY_BGR, DrawnDie, draw_die

KINDS = ("plain", "text", "logo", "pen", "wood", "embroidery", "coin", "button", "picture")
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _colour(rng: np.random.Generator, lo: int = 0, hi: int = 255) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(lo, hi, 3))


def free_box(rng: np.random.Generator, taken: list[Box], w: int, h: int, bw: float, bh: float,
          margin: float) -> Box | None:
    """A box of `bw`x`bh` inside the picture, `margin` px clear of every box taken."""
    for _ in range(60):
        x0, y0 = rng.uniform(0.03 * w, 0.97 * w - bw), rng.uniform(0.03 * h, 0.97 * h - bh)
        box = (x0, y0, x0 + bw, y0 + bh)
        if all(box[0] > b[2] + margin or box[2] < b[0] - margin or box[1] > b[3] + margin
               or box[3] < b[1] - margin for b in taken):
            taken.append(box)
            return box
    return None


def draw_text(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """Printed words and numbers, letters a third to a whole die high."""
    words = ("DICE", "ZONK", "Invoice", "total 42.50", "No. 2", "HB", "p. 17", "Made in China",
             "1 2 3", "GAME", "6 + 5", "todo: milk", "ACME Co.", "ooo", "8:30")
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(2, 6))):
        word = str(rng.choice(words))
        scale = rng.uniform(0.3, 1.0) * d / 22
        thick = max(1, round(scale * rng.uniform(1, 3)))
        font = int(rng.choice([cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX]))
        (tw, th), _ = cv2.getTextSize(word, font, scale, thick)
        box = free_box(rng, taken, w, h, tw, th * 1.4, 0.3 * d)
        if box is not None:
            cv2.putText(img, word, (round(box[0]), round(box[3] - 0.3 * th)), font, scale,
                        _colour(rng, 0, 90), thick, cv2.LINE_AA)


def draw_logo(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """Box logos: a rounded badge (square, round or oblong) in a print colour, with letters, a
    ring of small stars or dots, a border."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        bw = d * rng.uniform(0.8, 2.2)
        bh = bw * rng.choice([1.0, rng.uniform(0.5, 0.8)])
        box = free_box(rng, taken, w, h, bw, bh, 0.3 * d)
        if box is None:
            continue
        x0, y0, x1, y1 = (round(v) for v in box)
        fill, ink = _colour(rng, 0, 255), _colour(rng, 0, 255)
        if rng.random() < 0.4:
            cv2.ellipse(img, ((x0 + x1) // 2, (y0 + y1) // 2), ((x1 - x0) // 2, (y1 - y0) // 2), 0, 0, 360,
                        fill, -1, cv2.LINE_AA)
        else:
            r = round(0.15 * (x1 - x0))
            cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), fill, -1)
            cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), fill, -1)
            for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
                cv2.circle(img, (cx, cy), r, fill, -1, cv2.LINE_AA)
            cv2.rectangle(img, (x0 + r // 2, y0 + r // 2), (x1 - r // 2, y1 - r // 2), ink,
                          max(1, round(d / 30)), cv2.LINE_AA)
        word = str(rng.choice(["Z", "HB", "ACME", "G", "Q", "ok", "TOY", "5"]))
        scale = (y1 - y0) / 50 * rng.uniform(0.6, 1.0)
        thick = max(1, round(scale * 2))
        (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
        if tw < x1 - x0:
            cv2.putText(img, word, ((x0 + x1 - tw) // 2, (y0 + y1 + th) // 2), cv2.FONT_HERSHEY_DUPLEX,
                        scale, ink, thick, cv2.LINE_AA)
        for k in range(int(rng.integers(0, 6))):  # small stars or dots round the letters
            a = 2 * math.pi * k / 5 + rng.uniform(0, 1)
            px = (x0 + x1) / 2 + 0.38 * (x1 - x0) * math.cos(a)
            py = (y0 + y1) / 2 + 0.38 * (y1 - y0) * math.sin(a)
            cv2.circle(img, (round(px), round(py)), max(1, round(0.05 * d)), ink, -1, cv2.LINE_AA)


def draw_pen(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """A pencil (a hexagonal barrel, a ridged metal ferrule, a pink eraser) or a pen (a barrel,
    a clip, a metal tip) lying at any angle."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 3))):
        length, thick = d * rng.uniform(2.5, 5), d * rng.uniform(0.25, 0.45)
        a = rng.uniform(0, math.pi)
        c, s = math.cos(a), math.sin(a)
        bw, bh = abs(c) * length + thick, abs(s) * length + thick
        box = free_box(rng, taken, w, h, bw, bh, 0.3 * d)
        if box is None:
            continue
        origin = ((box[0] + box[2]) / 2 - c * length / 2, (box[1] + box[3]) / 2 - s * length / 2)
        band = partial(_band, img, origin, (c, s), thick)

        pencil = rng.random() < 0.6
        barrel = (40, 200, 230) if pencil and rng.random() < 0.7 else _colour(rng, 20, 230)
        band(0.0, 0.8 * length, barrel)
        band(0.0, 0.8 * length, tuple(int(v * 0.8) for v in barrel), 0.3)  # a facet's shade
        if pencil:
            ferrule = (0.8 * length, 0.8 * length + 1.2 * thick)
            band(*ferrule, (185, 185, 190))
            for k in range(4):  # its ridges
                t = ferrule[0] + (0.15 + 0.22 * k) * (ferrule[1] - ferrule[0])
                band(t, t + 0.06 * thick, (110, 110, 115))
            band(ferrule[1], ferrule[1] + 0.9 * thick, (150, 140, 230), 0.95)  # eraser
            band(-0.6 * thick, 0.0, (150, 190, 220), 0.6)  # the sharpened wood
            band(-0.9 * thick, -0.6 * thick, (40, 40, 40), 0.25)  # the lead
        else:
            band(0.8 * length, length, (200, 200, 205), 0.7)  # a metal tip
            band(-0.1 * length, 0.0, tuple(int(v * 0.7) for v in barrel))  # the cap's end
            band(0.05 * length, 0.35 * length, (190, 190, 195), 0.25)  # a clip


def _band(img: np.ndarray, origin: tuple[float, float], direction: tuple[float, float], thick: float,
          t0: float, t1: float, colour: tuple[int, int, int], k: float = 1.0) -> None:
    """A band across a pen from `t0` to `t1` px along it, `k` of its thickness wide."""
    (ox, oy), (c, s) = origin, direction

    def at(t: float, off: float) -> tuple[float, float]:
        return ox + c * t - s * off, oy + s * t + c * off

    poly = np.array([at(t0, -k * thick / 2), at(t1, -k * thick / 2), at(t1, k * thick / 2),
                     at(t0, k * thick / 2)])
    cv2.fillPoly(img, [np.round(poly * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def draw_wood(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """Wood: grain streaks over the whole table and knots (dark ovals with rings round them)."""
    h, w = img.shape[:2]
    yy = np.arange(h, dtype=np.float32)[:, None]
    xx = np.arange(w, dtype=np.float32)[None, :]
    period = d * rng.uniform(0.3, 0.8)
    wave = np.sin((yy + 0.4 * d * np.sin(xx / (d * rng.uniform(2, 6)))) / period * 2 * np.pi)
    img[:] = np.clip(img.astype(np.float32) * (1 - 0.12 * (wave[..., None] > 0.6)), 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(2, 6))):
        rx = d * rng.uniform(0.2, 0.7)
        ry = rx * rng.uniform(0.4, 1.0)
        box = free_box(rng, taken, w, h, 3 * rx, 3 * ry, 0.2 * d)
        if box is None:
            continue
        centre = (round((box[0] + box[2]) / 2), round((box[1] + box[3]) / 2))
        tone = img[centre[1], centre[0]].astype(np.float32)
        for k in range(4, 0, -1):  # rings, darker inwards
            cv2.ellipse(img, centre, (round(rx * k / 2.2), round(ry * k / 2.2)), 0, 0, 360,
                        tuple(int(v) for v in tone * (1 - 0.12 * (5 - k))), max(1, round(d / 25)),
                        cv2.LINE_AA)
        cv2.ellipse(img, centre, (round(rx / 2.5), round(ry / 2.5)), 0, 0, 360,
                    tuple(int(v) for v in tone * 0.35), -1, cv2.LINE_AA)


def _stitches(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], width: int, run: bool
              ) -> None:
    """Stitches along a path: short lines with gaps (a running stitch) or touching (a satin)."""
    for k in range(len(pts) - 1):
        if run and k % 2:
            continue
        a, b = pts[k], pts[k + 1]
        cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), colour, width, cv2.LINE_AA)


def draw_embroidery(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """A cloth (a fine weave) with stitched motifs: an owl (body, two round eyes with dark
    centres, a beak), a flower (petals round a knot), cross stitches."""
    h, w = img.shape[:2]
    step = max(2, round(d / 12))
    weave = np.zeros((h, w), np.float32)
    weave[::step] += 1
    weave[:, ::step] += 1
    img[:] = np.clip(img.astype(np.float32) * (1 - 0.06 * weave[..., None]), 0, 255).astype(np.uint8)
    width = max(1, round(d / 12))
    for _ in range(int(rng.integers(1, 4))):
        motif = rng.choice(["owl", "flower", "cross"])
        size = d * rng.uniform(1.5, 3.0)
        box = free_box(rng, taken, w, h, size, size, 0.3 * d)
        if box is None:
            continue
        cx, cy, r = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, size / 2
        ink = _colour(rng, 0, 255)
        t = np.linspace(0, 2 * math.pi, 41)
        if motif == "owl":
            body = np.stack([cx + 0.8 * r * np.cos(t), cy + 0.1 * r + 0.9 * r * np.sin(t)], 1)
            _stitches(img, body, ink, width, True)
            for ex in (-0.32, 0.32):  # eyes: a satin ring and a dark centre
                ring = np.stack([cx + ex * r + 0.25 * r * np.cos(t), cy - 0.3 * r + 0.25 * r * np.sin(t)], 1)
                _stitches(img, ring, _colour(rng, 150, 255), width, False)
                cv2.circle(img, (round(cx + ex * r), round(cy - 0.3 * r)), max(1, round(0.1 * r)),
                           (20, 20, 20), -1, cv2.LINE_AA)
            beak = np.array([[cx - 0.08 * r, cy - 0.05 * r], [cx, cy + 0.15 * r],
                             [cx + 0.08 * r, cy - 0.05 * r]])
            _stitches(img, beak, (40, 140, 220), width, False)
        elif motif == "flower":
            for k in range(int(rng.integers(5, 9))):
                a = 2 * math.pi * k / 8
                px, py = cx + 0.5 * r * math.cos(a), cy + 0.5 * r * math.sin(a)
                petal = np.stack([px + 0.25 * r * np.cos(t), py + 0.15 * r * np.sin(t)], 1)
                _stitches(img, petal, ink, width, True)
            cv2.circle(img, (round(cx), round(cy)), max(1, round(0.15 * r)), _colour(rng, 0, 120), -1,
                       cv2.LINE_AA)
        else:
            n = int(rng.integers(3, 6))
            for i in range(n):
                for j in range(n):
                    if rng.random() < 0.6:
                        x0, y0 = cx - r + 2 * r * i / n, cy - r + 2 * r * j / n
                        s = 2 * r / n * 0.8
                        for a, b in (((x0, y0), (x0 + s, y0 + s)), ((x0 + s, y0), (x0, y0 + s))):
                            cv2.line(img, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), ink, width,
                                     cv2.LINE_AA)


def _disc(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box], lo: float, hi: float
          ) -> tuple[float, float, float] | None:
    size = d * rng.uniform(lo, hi)
    h, w = img.shape[:2]
    box = free_box(rng, taken, w, h, size, size, 0.2 * d)
    if box is None:
        return None
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, size / 2


def draw_coin(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """Coins: a metal disc, lit from one side, a rim, an embossed head or number."""
    for _ in range(int(rng.integers(1, 5))):
        if (disc := _disc(img, rng, d, taken, 0.6, 1.2)) is None:
            continue
        cx, cy, r = disc
        metal = np.array([(140, 160, 180), (60, 120, 190), (170, 170, 175)][int(rng.integers(3))], np.float32)
        yy, xx = np.mgrid[-1:1:complex(0, round(2 * r)), -1:1:complex(0, round(2 * r))]
        light = 1.15 - 0.35 * (xx + yy) / 2
        inside = (xx ** 2 + yy ** 2) <= 1
        x0, y0 = round(cx - r), round(cy - r)
        region = img[y0:y0 + inside.shape[0], x0:x0 + inside.shape[1]]
        inside = inside[:region.shape[0], :region.shape[1]]
        tone = np.clip(metal[None, None] * light[:region.shape[0], :region.shape[1], None], 0, 255)
        region[inside] = tone[inside].astype(np.uint8)
        centre = (round(cx), round(cy))
        cv2.circle(img, centre, round(0.88 * r), tuple(int(v * 0.7) for v in metal), max(1, round(r / 15)),
                   cv2.LINE_AA)
        if rng.random() < 0.5:
            cv2.ellipse(img, (round(cx), round(cy - 0.1 * r)), (round(0.3 * r), round(0.4 * r)), 0, 0, 360,
                        tuple(int(v * 0.75) for v in metal), max(1, round(r / 10)), cv2.LINE_AA)
        else:
            word = str(rng.choice(["1", "5", "10", "25", "2"]))
            scale = r / 22
            (tw, th), _ = cv2.getTextSize(word, cv2.FONT_HERSHEY_DUPLEX, scale, max(1, round(scale)))
            cv2.putText(img, word, (round(cx - tw / 2), round(cy + th / 2)), cv2.FONT_HERSHEY_DUPLEX, scale,
                        tuple(int(v * 0.7) for v in metal), max(1, round(scale)), cv2.LINE_AA)


def draw_button(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """Buttons: a disc with a raised rim and two or four holes."""
    for _ in range(int(rng.integers(1, 5))):
        if (disc := _disc(img, rng, d, taken, 0.4, 1.0)) is None:
            continue
        cx, cy, r = disc
        body = _colour(rng, 30, 250)
        cv2.circle(img, (round(cx), round(cy)), round(r), body, -1, cv2.LINE_AA)
        cv2.circle(img, (round(cx), round(cy)), round(0.8 * r), tuple(int(v * 0.8) for v in body),
                   max(1, round(r / 10)), cv2.LINE_AA)
        holes = 2 if rng.random() < 0.4 else 4
        a0 = rng.uniform(0, math.pi)
        for k in range(holes):
            a = a0 + 2 * math.pi * k / holes
            cv2.circle(img, (round(cx + 0.3 * r * math.cos(a)), round(cy + 0.3 * r * math.sin(a))),
                       max(1, round(0.1 * r)), tuple(int(v * 0.3) for v in body), -1, cv2.LINE_AA)


def draw_picture_die(img: np.ndarray, rng: np.random.Generator, d: float, taken: list[Box]) -> None:
    """Dice whose faces bear a picture, not pips: a star, a moon, a cross, a rune, a letter."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        size = d * rng.uniform(0.9, 1.1)
        box = free_box(rng, taken, w, h, size * 1.45, size * 1.45, 0.2 * d)
        if box is None:
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        colour = str(rng.choice(list(BODY_BGR)))
        die = DrawnDie(1, colour, cx, cy, size, float(rng.uniform(0, 90)))
        draw_die(img, die)
        # cover the one's pip with the body, then draw the symbol
        cv2.circle(img, (round(cx), round(cy)), round(0.13 * size), BODY_BGR[colour], -1, cv2.LINE_AA)
        ink = (20, 20, 20) if colour in ("white", "yellow") else (235, 235, 235)
        r, width = 0.3 * size, max(1, round(size / 14))
        symbol = rng.choice(["star", "moon", "cross", "rune", "letter"])
        if symbol == "star":
            pts = [(cx + (r if k % 2 == 0 else 0.45 * r) * math.sin(math.pi * k / 5),
                    cy - (r if k % 2 == 0 else 0.45 * r) * math.cos(math.pi * k / 5)) for k in range(10)]
            cv2.fillPoly(img, [np.round(np.array(pts) * 16).astype(np.int32)], ink, cv2.LINE_AA, shift=4)
        elif symbol == "moon":
            cv2.circle(img, (round(cx), round(cy)), round(r), ink, -1, cv2.LINE_AA)
            cv2.circle(img, (round(cx + 0.4 * r), round(cy - 0.2 * r)), round(0.85 * r), BODY_BGR[colour], -1,
                       cv2.LINE_AA)
        elif symbol == "cross":
            cv2.line(img, (round(cx - r), round(cy)), (round(cx + r), round(cy)), ink, 2 * width, cv2.LINE_AA)
            cv2.line(img, (round(cx), round(cy - r)), (round(cx), round(cy + r)), ink, 2 * width, cv2.LINE_AA)
        elif symbol == "rune":
            for (ax, ay), (bx, by) in (((0, -1), (0, 1)), ((0, -0.4), (0.7, -1)), ((0, 0), (0.7, -0.5))):
                cv2.line(img, (round(cx + ax * r), round(cy + ay * r)),
                         (round(cx + bx * r), round(cy + by * r)), ink, width, cv2.LINE_AA)
        else:
            letter = str(rng.choice(["A", "K", "Q", "J", "Z"]))
            scale = size / 45
            (tw, th), _ = cv2.getTextSize(letter, cv2.FONT_HERSHEY_DUPLEX, scale, width)
            cv2.putText(img, letter, (round(cx - tw / 2), round(cy + th / 2)), cv2.FONT_HERSHEY_DUPLEX,
                        scale, ink, width, cv2.LINE_AA)


DRAW: dict[str, Callable[[np.ndarray, np.random.Generator, float, list[Box]], None]] = {
    "plain": lambda img, rng, d, taken: None, "text": draw_text, "logo": draw_logo, "pen": draw_pen,
    "wood": draw_wood, "embroidery": draw_embroidery, "coin": draw_coin, "button": draw_button,
    "picture": draw_picture_die,
}
