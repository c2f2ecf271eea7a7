"""Pi-camera stills of a dark tray with touching dice (issue 36: the Pi-camera tray's hidden set,
20 stills of six dice each, read P 1.00 / R .98 / exact .90, "two touching dice get one box").

A still is 3280x2464 (the Pi camera's 8 MP) of a dark, grained, unevenly lit tray
(`scale_eval.surface`) with 5-8 dice of one size, 80-140 px across (each within 5 % of it), in
groups: two or three pairs of dice touching (their silhouettes 1-2 px apart, one pushed against
the other from a random direction), a third of the stills with one of those pairs a row or an L
of three, and the other dice lying alone at least 0.4 of a die from any other. The dice are either
cut from rune55 photos along their silhouettes (`scale_eval.silhouette`: `rune55_still`), or
drawn (`vision.sim.drawn`: `drawn_still`, one colour for the set in half of them, else mixed).
Used by `scale_eval.py --proxies pi-tray,pi-drawn`.
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from zonkcam.vision.dice import box_growth
from zonkcam.vision.sim.drawn import BODY_BGR, DrawnDie, draw_die

STILL = (3280, 2464)
SIZES = (80, 140)  # the dice's side on the still, px
APART = 0.4  # of a die: the least gap between dice that do not touch
# A die cut from a photo: its patch (BGR), its silhouette (float 0..1, the patch's size), its value,
# and its label box's width and height in the patch
Cut = tuple[np.ndarray, np.ndarray, int, float, float]


def cutouts(image: np.ndarray, dice: np.ndarray) -> list[Cut]:
    """The photo's legible dice (value > 0), each cut out along its silhouette with a margin of
    0.2 of its box round it."""
    from scale_eval import silhouette  # a benchmark beside this one

    h, w = image.shape[:2]
    boxes = dice[:, 1:] * np.array([w, h, w, h], np.float32)
    pad = int(boxes[:, 2:].max()) + 2 if len(boxes) else 2
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    out = []
    for (value, *_), (cx, cy, bw, bh) in zip(dice, boxes, strict=True):
        if value <= 0:
            continue
        half = round(0.7 * max(bw, bh))
        x0, y0 = round(cx) - half + pad, round(cy) - half + pad
        cut = padded[y0:y0 + 2 * half, x0:x0 + 2 * half].copy()
        box = (round(half - bw / 2), round(half - bh / 2), max(2, round(bw)), max(2, round(bh)))
        out.append((cut, silhouette(cut, box), int(value), float(bw), float(bh)))
    return out


def groups(rng: np.random.Generator) -> list[int]:
    """The sizes of a still's groups of dice: two or three touching pairs (a third of the stills
    one of them three dice), the rest alone, 5-8 dice in all."""
    n = int(rng.integers(5, 9))
    pairs = int(rng.integers(2, 4)) if n >= 6 else 2
    out = [2] * pairs
    if rng.random() < 1 / 3 and sum(out) < n:
        out[0] = 3
    return out + [1] * (n - sum(out))


class Tray:
    """Where dice lie on a still: the silhouettes placed so far, by group."""

    def __init__(self, rng: np.random.Generator, size: float) -> None:
        self.rng = rng
        self.size = size
        w, h = STILL
        self.taken = np.zeros((h, w), bool)  # every die placed, grown by a pixel
        self.kept_off = np.zeros((h, w), bool)  # the other groups' dice, grown by `APART`
        self.group = np.zeros((h, w), bool)  # this group's dice, grown by a pixel
        self.centres: list[tuple[float, float]] = []  # this group's

    def new_group(self) -> None:
        grow = max(3, round(2 * APART * self.size)) | 1
        self.kept_off |= cv2.dilate(self.group.astype(np.uint8), np.ones((grow, grow))) > 0
        self.group[:] = False
        self.centres = []

    def place(self, solid: np.ndarray, dx: float, dy: float) -> tuple[int, int] | None:
        """The top-left corner of a patch whose die (`solid`, centred at dx, dy in it) lies free
        of other groups: the group's first die anywhere in the middle of the still, the next ones
        pushed against one of the group's dice until their silhouettes nearly touch."""
        side = solid.shape[0]
        w, h = STILL
        spot = None
        for _ in range(60):
            if not self.centres:
                ix = int(self.rng.uniform(0.15, 0.85) * w - dx)
                iy = int(self.rng.uniform(0.15, 0.85) * h - dy)
                if self._free(ix, iy, solid):
                    spot = (ix, iy)
            else:
                spot = self._pushed(solid, dx, dy, side)
            if spot is not None:
                break
        if spot is None:
            return None
        ix, iy = spot
        grown = cv2.dilate(solid.astype(np.uint8), np.ones((3, 3))) > 0
        self.taken[iy:iy + side, ix:ix + side] |= grown
        self.group[iy:iy + side, ix:ix + side] |= grown
        self.centres.append((ix + dx, iy + dy))
        return spot

    def _free(self, ix: int, iy: int, solid: np.ndarray) -> bool:
        side = solid.shape[0]
        w, h = STILL
        if ix < 0 or iy < 0 or ix + side > w or iy + side > h:
            return False
        return not ((self.kept_off[iy:iy + side, ix:ix + side] | self.taken[iy:iy + side, ix:ix + side])
                    & solid).any()

    def _pushed(self, solid: np.ndarray, dx: float, dy: float, side: int) -> tuple[int, int] | None:
        ax, ay = self.centres[int(self.rng.integers(len(self.centres)))]
        turn = self.rng.uniform(0, 2 * np.pi)
        ux, uy = np.cos(turn), np.sin(turn)
        best = None
        for r in np.arange(1.6 * self.size, 0, -1.0):  # walk in until the dice would overlap
            ix, iy = round(ax + r * ux - dx), round(ay + r * uy - dy)
            if not self._free(ix, iy, solid):
                break
            best = (ix, iy)
        if best is None or r > 1.6 * self.size - 1:
            return None  # blocked from the start: another group lies that way
        return best


def rune55_still(pool: Sequence[Cut], rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A still of dice cut from rune55 photos (drawn from `pool`), each scaled to the still's die
    size; labels (value, cx, cy, w, h) normalised, as YOLO's."""
    from scale_eval import surface

    w, h = STILL
    size = rng.uniform(*SIZES)
    canvas = surface(rng, w, h, dark=True).astype(np.float32)
    tray = Tray(rng, size)
    out = []
    for count in groups(rng):
        tray.new_group()
        for _ in range(count):
            cut, alpha, value, bw, bh = pool[int(rng.integers(len(pool)))]
            k = size * rng.uniform(0.95, 1.05) / max(bw, bh)
            side = max(8, round(cut.shape[0] * k))
            patch = cv2.resize(cut, (side, side), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
            a = cv2.resize(alpha, (side, side))
            spot = tray.place(a > 0.5, side / 2, side / 2)
            if spot is None:
                continue
            ix, iy = spot
            region = canvas[iy:iy + side, ix:ix + side]
            region[:] = a[..., None] * patch + (1 - a[..., None]) * region
            out.append([value, (ix + side / 2) / w, (iy + side / 2) / h, bw * k / w, bh * k / h])
    return _finished(canvas, rng, size), np.array(out, np.float32).reshape(-1, 5)


def drawn_still(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A still of drawn dice (one colour for the set, or mixed); labels as `rune55_still`'s, each
    box the die's turned face's upright box."""
    from scale_eval import surface

    w, h = STILL
    size = rng.uniform(*SIZES)
    colours = list(BODY_BGR)
    one = colours[int(rng.integers(len(colours)))] if rng.random() < 0.5 else None
    image = surface(rng, w, h, dark=True)
    tray = Tray(rng, size)
    out = []
    for count in groups(rng):
        tray.new_group()
        for _ in range(count):
            s = size * rng.uniform(0.95, 1.05)
            die = DrawnDie(int(rng.integers(1, 7)), one or colours[int(rng.integers(len(colours)))],
                           0.0, 0.0, s, float(rng.uniform(0, 90)))
            side = int(np.ceil(s * box_growth(die.angle))) + 4
            mark = np.zeros((side, side, 3), np.uint8)
            draw_die(mark, DrawnDie(die.value, "white", side / 2, side / 2, s, die.angle),
                     shadow=False)
            spot = tray.place(mark.max(axis=2) > 60, side / 2, side / 2)
            if spot is None:
                continue
            cx, cy = spot[0] + side / 2, spot[1] + side / 2
            draw_die(image, DrawnDie(die.value, die.color, cx, cy, s, die.angle))
            half = s / 2 * box_growth(die.angle)
            out.append([die.value, cx / w, cy / h, 2 * half / w, 2 * half / h])
    return _finished(image.astype(np.float32), rng, size), np.array(out, np.float32).reshape(-1, 5)


def _finished(canvas: np.ndarray, rng: np.random.Generator, size: float) -> np.ndarray:
    """The camera's softness (a blur of about a hundredth of a die) and noise."""
    canvas = cv2.GaussianBlur(canvas, (0, 0), max(0.6, size / 120))
    noisy = canvas + rng.normal(0, 3, canvas.shape).astype(np.float32)
    return np.clip(noisy, 0, 255).astype(np.uint8)
