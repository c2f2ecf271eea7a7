"""The recognizer among clutter (issue 36, item 5: "logos, writing, pens, wood grain and
embroidery are not dice").

    python benchmarks/clutter_eval.py [--count 6] [--seed 1] [--dice rune55|drawn]
                                      [--kinds text,logo,...] [--scales webcam,phone] [--phantoms N]

Each picture is a table (`scale_eval.surface`) with one kind of clutter, several of it, beside
0-6 real dice: `plain` (none: the control), `text` (printed words and numbers), `logo` (a box
logo: a rounded, filled badge with letters and stars), `pen` (a pencil or pen: a barrel, a
ridged metal ferrule, an eraser or a tip), `wood` (grain streaks and knots: dark ringed ovals),
`embroidery` (a cloth's weave with stitched motifs: owls with round eyes, flowers, cross
stitch), `coin`, `button` (two or four holes) and `picture` (a die whose faces bear a symbol,
not pips: a star, a moon, a cross, a rune). The dice are cut from rune55 `fit` photos (their
label box and a fading tenth more, as `scale_eval.pasted`) where the data set is there, else
drawn (`vision.synthetic.draw_die`). Scales: `webcam` (640x480, dice 36-70 px) and `phone`
(4032x3024, dice 60-120 px: issue 36's 12 MP photos). Clutter is drawn at the dice's scale.

Printed per clutter kind (and all): pictures, dice, phantoms (dice reported where there is
none) per 100 pictures, precision / recall / value accuracy / exact-image rate. `--phantoms N`
lists up to N phantoms: kind, value read, how sure, its size against the picture's dice, and
the reader's pass that found it (`first`: read at the first look; `second`: a rejected
candidate taken back by the second look; `better`: an unsure die made surer there).
"""
from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.evaluate import Tally, match
from zonkcam.vision.read import Reader
from zonkcam.vision.synthetic import BODY_BGR, DrawnDie, draw_die

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_eval import surface

KINDS = ("plain", "text", "logo", "pen", "wood", "embroidery", "coin", "button", "picture")
# picture (w, h) and the dice's size range on it, px
SCALES = {"webcam": ((640, 480), (36, 70)), "phone": ((4032, 3024), (60, 120))}
Box = tuple[float, float, float, float]  # x0, y0, x1, y1


def _colour(rng: np.random.Generator, lo: int = 0, hi: int = 255) -> tuple[int, int, int]:
    return tuple(int(v) for v in rng.integers(lo, hi, 3))


def _free(rng: np.random.Generator, taken: list[Box], w: int, h: int, bw: float, bh: float,
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
        box = _free(rng, taken, w, h, tw, th * 1.4, 0.3 * d)
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
        box = _free(rng, taken, w, h, bw, bh, 0.3 * d)
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
        box = _free(rng, taken, w, h, bw, bh, 0.3 * d)
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
        box = _free(rng, taken, w, h, 3 * rx, 3 * ry, 0.2 * d)
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
        box = _free(rng, taken, w, h, size, size, 0.3 * d)
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
    box = _free(rng, taken, w, h, size, size, 0.2 * d)
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
        box = _free(rng, taken, w, h, size * 1.45, size * 1.45, 0.2 * d)
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


def rune55_dice(rng: np.random.Generator, split: str = "fit", photos: int = 300
                ) -> list[tuple[int, np.ndarray, float, float]]:
    """Dice cut from rune55 photos: (value, patch 1.6 times the label box's longer side, the
    box's w and h as shares of the patch); none where the data set is not there."""
    from zonkcam.models.rune55 import datasets_root, group_split
    root = datasets_root() / "rune55"
    if not (root / "groups.csv").is_file():
        return []
    items = group_split(root, split)
    out = []
    for i in rng.permutation(len(items))[:photos]:
        image = cv2.imread(str(items[i].image))
        if image is None:
            continue
        h, w = image.shape[:2]
        for value, cx, cy, bw, bh in items[i].dice:
            side = 1.6 * max(bw * w, bh * h)
            x0, y0 = round(cx * w - side / 2), round(cy * h - side / 2)
            if max(bw * w, bh * h) >= 36 and 0.75 < bw * w / (bh * h) < 1.33 and x0 >= 0 and y0 >= 0 \
                    and x0 + side <= w and y0 + side <= h:
                patch = image[y0:y0 + round(side), x0:x0 + round(side)].copy()
                out.append((int(value), patch, bw * w / side, bh * h / side))
    return out


def place_dice(img: np.ndarray, rng: np.random.Generator, n: int, sizes: tuple[float, float],
               taken: list[Box], pool: list[tuple[int, np.ndarray, float, float]]) -> np.ndarray:
    """`n` dice of one size (the picture's) at free places: rune55 dice from `pool`, drawn dice
    where it is empty. Labels (value, cx, cy, w, h) normalised."""
    h, w = img.shape[:2]
    d = rng.uniform(*sizes)
    rows = []
    for _ in range(n):
        size = d * rng.uniform(0.92, 1.08)
        box = _free(rng, taken, w, h, 1.5 * size, 1.5 * size, 0.1 * size)
        if box is None:
            continue
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if pool:
            value, patch, fw, fh = pool[int(rng.integers(len(pool)))]
            side = round(size / max(fw, fh))
            x0, y0 = round(cx - side / 2), round(cy - side / 2)
            if x0 < 0 or y0 < 0 or x0 + side > w or y0 + side > h:
                continue
            small = cv2.resize(patch, (side, side), interpolation=cv2.INTER_AREA)
            yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) - side / 2 + 0.5
            reach = np.maximum(np.abs(xx) / (fw * side), np.abs(yy) / (fh * side))
            alpha = np.clip((0.6 - reach) / 0.05, 0, 1)[..., None]
            region = img[y0:y0 + side, x0:x0 + side]
            region[:] = (alpha * small + (1 - alpha) * region).astype(np.uint8)
            bw, bh = fw * side, fh * side
        else:
            value = int(rng.integers(1, 7))
            die = DrawnDie(value, str(rng.choice(list(BODY_BGR))), cx, cy, size, float(rng.uniform(0, 90)))
            draw_die(img, die)
            x0, y0, x1, y1 = die.box
            bw, bh = x1 - x0, y1 - y0
        rows.append([value, cx / w, cy / h, bw / w, bh / h])
    return np.array(rows, np.float32).reshape(-1, 5)


def render(rng: np.random.Generator, kind: str, scale: str,
           pool: list[tuple[int, np.ndarray, float, float]] | None = None, n: int | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """One picture of `kind` clutter at `scale` with `n` (default 0-6) dice; and its labels."""
    (w, h), sizes = SCALES[scale]
    img = surface(rng, w, h)
    taken: list[Box] = []
    d = float(np.mean(sizes))
    DRAW[kind](img, rng, d, taken)
    labels = place_dice(img, rng, int(rng.integers(0, 7)) if n is None else n, sizes, taken, pool or [])
    noisy = img.astype(np.float32) + rng.normal(0, 3, img.shape)
    _, jpg = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 88])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR), labels


class PassLog:
    """Which of the reader's passes made each die: the second look's candidates in and out."""

    def __init__(self) -> None:
        import zonkcam.vision.read as read_module
        self.module = read_module
        self.inner = read_module.second_look
        self.seen: list[tuple[float, float, str]] = []
        read_module.second_look = self

    def __call__(self, reader, image, found, size):
        out = self.inner(reader, image, found, size)
        for before, after in zip(found, out, strict=True):
            if reader._rejects(after):
                continue
            how = "second" if reader._rejects(before) else "better" if after is not before else "first"
            self.seen.append((after.proposal.cx, after.proposal.cy, how))
        return out

    def of(self, center: tuple[float, float], size: float) -> str:
        near = [how for x, y, how in self.seen if math.hypot(x - center[0], y - center[1]) < 0.1 * size]
        return near[-1] if near else "other"


def _table(name: str, kinds: list[str], scales: list[str], tallies: dict, phantoms: Counter) -> None:
    print(f"{name}:")
    print("| clutter | scale | pictures | dice | phantoms /100 pictures | precision | recall | value acc. "
          "| exact |")
    print("|---|---|---|---|---|---|---|---|---|")
    rows = [(k, s, [tallies[k, s]], phantoms[k, s]) for k in kinds for s in scales]
    rows += [("all", s, [tallies[k, s] for k in kinds], sum(phantoms[k, s] for k in kinds)) for s in scales]
    for kind, scale, group, extra in rows:
        total = Tally()
        for t in group:
            for field in ("images", "labels", "predictions", "matched", "correct", "exact_images"):
                setattr(total, field, getattr(total, field) + getattr(t, field))
        s = total.summary()
        print(f"| {kind} | {scale} | {s['images']} | {s['labels']} | "
              f"{100 * extra / max(s['images'], 1):.0f} | {s['precision']} | {s['recall']} | "
              f"{s['value_accuracy']} | {s['exact_image_rate']} |")


def _save(folder: str, name: str, image: np.ndarray, dice: list, matched: set[int]) -> None:
    """The picture with the dice read boxed: green matched, magenta phantoms."""
    out = image.copy()
    w = image.shape[1]
    for d in dice:
        x0, y0, x1, y1 = d.box
        colour = (0, 255, 0) if id(d) in matched else (255, 0, 255)
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, max(1, w // 640))
        cv2.putText(out, f"{d.value} {d.confidence:.2f}", (x0, y0 - 3), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * w / 640, colour, max(1, w // 640))
    Path(folder).mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(Path(folder) / f"{name}.jpg"), out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=6, help="pictures per kind and scale (default: 6)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dice", choices=("rune55", "drawn"), default="rune55",
                    help="real dice cut from rune55 `fit` photos (drawn where it is missing)")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--scales", default="webcam,phone")
    ap.add_argument("--compare", action="store_true",
                    help="also read each picture without the every-side check (vision.turned): before/after")
    ap.add_argument("--phantoms", type=int, default=0, help="list up to N phantoms (of the last reader)")
    ap.add_argument("--save", help="a folder to write the pictures with phantoms to (last reader)")
    args = ap.parse_args()
    kinds, scales = args.kinds.split(","), args.scales.split(",")
    if bad := [k for k in kinds if k not in KINDS] + [s for s in scales if s not in SCALES]:
        print(f"clutter_eval: unknown {', '.join(bad)} (kinds: {', '.join(KINDS)}; scales: "
              f"{', '.join(SCALES)})", file=sys.stderr)
        return 2
    pool = rune55_dice(np.random.default_rng(args.seed + 1000)) if args.dice == "rune55" else []
    rng = np.random.default_rng(args.seed)
    readers = {"reader": Reader()}
    if args.compare:
        readers = {"without the every-side check": Reader(), "with it": Reader()}
        readers["without the every-side check"].every_side = False
    log = PassLog() if args.phantoms else None
    tallies = {name: {(k, s): Tally() for k in kinds for s in scales} for name in readers}
    phantoms: dict[str, Counter] = {name: Counter() for name in readers}
    listed = 0
    for i in range(args.count):
        for kind in kinds:
            for scale in scales:
                image, labels = render(rng, kind, scale, pool)
                h, w = image.shape[:2]
                for name, reader in readers.items():
                    if log is not None:
                        log.seen.clear()
                    reading = reader.read(image)
                    tallies[name][kind, scale].add(reading.dice, labels, w, h)
                    pairs, _ = match(reading.dice, labels[:, 1:] * np.array([w, h, w, h], np.float32))
                    matched = {id(d) for d, _ in pairs}
                    extra = [d for d in reading.dice if id(d) not in matched]
                    phantoms[name][kind, scale] += len(extra)
                sizes = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d, _ in pairs]
                typical = float(np.median(sizes)) if sizes else float("nan")
                for d in extra[:max(0, args.phantoms - listed)] if log is not None else []:
                    listed += 1
                    size = max(d.box[2] - d.box[0], d.box[3] - d.box[1])
                    print(f"phantom {kind}/{scale} #{i}: value {d.value} sure {d.confidence:.2f} size "
                          f"{size} px ({size / typical:.2f} of the dice's) pass {log.of(d.center, size)} "
                          f"at {d.center[0]:.0f},{d.center[1]:.0f}; dice {len(labels)}")
                if args.save and extra:
                    _save(args.save, f"{kind}_{scale}_{i}", image, reading.dice, matched)
    print(f"clutter proxy, seed {args.seed}, {'rune55' if pool else 'drawn'} dice, "
          f"{args.count} pictures per kind and scale")
    for name in readers:
        _table(name, kinds, scales, tallies[name], phantoms[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
