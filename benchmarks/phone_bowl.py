"""Issue 36's phone row, drawn unkindly: a phone's 12 MP photo of coloured, marbled and
translucent dice in a wooden bowl on a dark wooden table, an embroidered cloth beside it.

The hidden photos (blue dice in a wooden bowl, ~100 px of 4032) read recall .61 where
`scale_eval.py`'s `phone` proxy (rune55's grey dice pasted into a big canvas) reads .99: the
dice there are grey on a plain table, never marbled on dark wood. This draws what that proxy
lacks, and needs no data set:

- a 4032x3024 picture (`--size`), a dark wooden table with knots, a bowl (a lighter rim, its
  floor shaded to the wall), a warm lamp's cast and a phone's JPEG;
- 10-20 dice of 80-130 px in the bowl, one set a photo (mostly blue: opaque, marbled, or
  translucent with the other faces' pips showing through; sometimes another colour), some
  touching in twos and threes;
- in half the photos an embroidered cloth (owls, flowers, cross stitch) beside the bowl.

    .venv/bin/python benchmarks/phone_bowl.py /tmp/bowl --count 20 --seed 1
    .venv/bin/zonkcam eval /tmp/bowl [--model FILE]

Seed 1 is for tuning; keep others fresh and report them once.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.dice import box_growth
from zonkcam.vision.sim.colour_dice import DieLook, draw_look, lit
from zonkcam.vision.sim.drawn import background

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clutter_draw import draw_embroidery, draw_wood
from zonkcam.hardware.options import seed as seed_number

# Sets seen on phones: a set is one look, mostly blue as in the photos
SETS = (
    DieLook("blue", (35, 70, 170), "marbled", swirl_rgb=(225, 230, 240)),
    DieLook("blue", (30, 60, 150), "translucent"),
    DieLook("blue", (40, 80, 180)),
    DieLook("blue", (25, 45, 110), "marbled", swirl_rgb=(15, 15, 25)),
    DieLook("teal", (20, 130, 125), "marbled", swirl_rgb=(200, 230, 220)),
    DieLook("red", (170, 30, 35), "translucent"),
    DieLook("purple", (95, 45, 130), "marbled", swirl_rgb=(230, 230, 230)),
    DieLook("black", (30, 30, 32), pip_rgb=(235, 235, 235)),
)
BLUE_SHARE = 0.6  # photos whose set is one of the four blue looks


def _table(rng: np.random.Generator, w: int, h: int, die: float) -> np.ndarray:
    """A dark wooden table: grain, knots, a little darker than `drawn`'s wood."""
    image = (background(rng, w, h, "wood").astype(np.float32) * rng.uniform(0.35, 0.6)).astype(np.uint8)
    draw_wood(image, rng, die, [])
    return image


def _bowl(image: np.ndarray, rng: np.random.Generator, die: float) -> tuple[float, float, float, float]:
    """A wooden bowl seen from above, drawn in place: (cx, cy, floor's rx, floor's ry)."""
    h, w = image.shape[:2]
    cx, cy = w * rng.uniform(0.42, 0.58), h * rng.uniform(0.42, 0.58)
    ry = h * rng.uniform(0.34, 0.42)
    rx = ry * rng.uniform(1.0, 1.3)
    rim = die * rng.uniform(0.6, 1.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.hypot((xx - cx) / rx, (yy - cy) / ry)  # 1 at the floor's edge
    tone = np.array(rng.uniform([35, 70, 120], [60, 105, 175]), np.float32)  # a BGR wood
    grain = np.sin((xx + yy * 0.3 + 6 * np.sin(yy / 70)) / (die * 0.12)) * 10
    floor = tone * (1.05 - 0.45 * np.clip(r, 0, 1) ** 3)[..., None] * rng.uniform(0.55, 0.8)
    wall = tone * 1.15  # the rim catches the light
    inside = (r <= 1)[..., None]
    on_rim = ((r > 1) & (r <= 1 + rim / ry))[..., None]
    out = np.where(inside, floor + grain[..., None] * 0.6,
                   np.where(on_rim, wall + grain[..., None], image.astype(np.float32)))
    image[:] = np.clip(out, 0, 255).astype(np.uint8)
    return cx, cy, rx * 0.93, ry * 0.93


def _square(cx: float, cy: float, s: float, angle: float) -> np.ndarray:
    """The corners of a square of side `s` turned by `angle` degrees."""
    return cv2.boxPoints(((cx, cy), (s, s), angle)).astype(np.float32)


def _place(rng: np.random.Generator, n: int, bowl: tuple[float, float, float, float],
           sizes: list[float]) -> list[tuple[float, float, float, float]]:
    """(cx, cy, side, angle) of each die on the bowl's floor, apart or touching in small heaps."""
    bx, by, rx, ry = bowl
    placed: list[tuple[float, float, float, float]] = []
    for _ in range(400 * n):
        if len(placed) == n:
            break
        s = sizes[len(placed)]
        if placed and rng.random() < 0.35:  # touch a die already there, side to side
            ox, oy, os_, oa = placed[int(rng.integers(len(placed)))]
            angle = oa + rng.uniform(-8, 8)
            a = math.radians(oa + 90 * int(rng.integers(4)) + rng.uniform(-25, 25))
            gap = (s + os_) / 2 * rng.uniform(1.04, 1.12) / max(abs(math.cos(a - math.radians(oa))),
                                                                abs(math.sin(a - math.radians(oa))))
            cx, cy = ox + gap * math.cos(a), oy + gap * math.sin(a)
        else:
            a, t = rng.uniform(0, 2 * math.pi), math.sqrt(rng.uniform(0, 1))
            cx, cy = bx + t * (rx - s) * math.cos(a), by + t * (ry - s) * math.sin(a)
            angle = rng.uniform(0, 90)
        if math.hypot((cx - bx) / (rx - s / 2), (cy - by) / (ry - s / 2)) > 1:
            continue
        # touching is 1-3 % of a side apart; the turned squares never overlap
        square = _square(cx, cy, s * 1.03, angle)
        if all(cv2.intersectConvexConvex(square, _square(x, y, o * 1.03, oa))[0] <= 0
               for x, y, o, oa in placed):
            placed.append((cx, cy, s, angle))
    return placed


def _die(image: np.ndarray, look: DieLook, value: int, cx: float, cy: float, s: float, angle: float,
         rng: np.random.Generator) -> None:
    """`draw_look` on a patch round the die (it works on the whole picture it is given)."""
    h, w = image.shape[:2]
    m = int(s)
    x0, y0 = max(0, int(cx) - m), max(0, int(cy) - m)
    x1, y1 = min(w, int(cx) + m + 1), min(h, int(cy) + m + 1)
    patch = np.ascontiguousarray(image[y0:y1, x0:x1])
    # a soft shadow to one side first, as a lamp throws it
    shadow = np.zeros(patch.shape[:2], np.float32)
    cv2.circle(shadow, (round(cx - x0 + 0.08 * s), round(cy - y0 + 0.1 * s)), round(0.55 * s), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.12 * s)
    patch[:] = (patch * (1 - 0.45 * shadow[..., None])).astype(np.uint8)
    draw_look(patch, look, value, cx - x0, cy - y0, s, angle, rng)
    image[y0:y1, x0:x1] = patch


Dice = list[tuple[int, float, float, float]]  # (value, cx, cy, label box side) of each die


def photo(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, Dice, str]:
    """One photo, its dice as (value, cx, cy, box side), and its set's look."""
    die = rng.uniform(80, 130) * w / 4032
    image = _table(rng, w, h, die)
    if rng.random() < 0.5:  # a cloth beside the bowl
        side = int(rng.integers(2))
        cw = int(w * rng.uniform(0.18, 0.28))
        x0 = 0 if side == 0 else w - cw
        cloth = image[:, x0:x0 + cw]
        cloth[:] = rng.uniform(60, 200, 3).astype(np.uint8)  # a plain cloth, then its stitches
        draw_embroidery(cloth, rng, die, [])
    bowl = _bowl(image, rng, die)
    look = SETS[int(rng.integers(4))] if rng.random() < BLUE_SHARE else SETS[int(rng.integers(4, len(SETS)))]
    n = int(rng.integers(10, 21))
    sizes = [die * rng.uniform(0.95, 1.05) for _ in range(n)]
    dice = []
    for cx, cy, s, angle in _place(rng, n, bowl, sizes):
        value = int(rng.integers(1, 7))
        _die(image, look, value, cx, cy, s, angle, rng)
        dice.append((value, cx, cy, s * box_growth(angle)))
    gains = (rng.uniform(0.75, 0.9), rng.uniform(0.9, 1.0), 1.0)  # a warm lamp (BGR)
    return lit(image, gains, rng.uniform(0.75, 1.15), rng, noise=4.0), dice, f"{look.name} {look.look}"


def write(out: Path, count: int, seed: int, size: tuple[int, int] = (4032, 3024)) -> None:
    """`count` photos as a YOLO folder (images/*.jpg, labels/*.txt; class = value - 1), and
    looks.csv: each photo's set (for `zonkcam eval --files`, one look at a time)."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    w, h = size
    looks = ["image,look"]
    for i in range(count):
        image, dice, look = photo(rng, w, h)
        looks.append(f"bowl{i:03d}.jpg,{look}")
        cv2.imwrite(str(out / "images" / f"bowl{i:03d}.jpg"), image,
                    [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(82, 93))])
        rows = [f"{v - 1} {cx / w:.6f} {cy / h:.6f} {side / w:.6f} {side / h:.6f}"
                for v, cx, cy, side in dice]
        (out / "labels" / f"bowl{i:03d}.txt").write_text("\n".join(rows) + "\n")
        print(f"{i + 1}/{count}: {len(dice)} dice, {look}", file=sys.stderr)
    (out / "looks.csv").write_text("\n".join(looks) + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--seed", type=seed_number, default=1)
    ap.add_argument("--size", default="4032x3024", metavar="WxH")
    a = ap.parse_args()
    try:
        w, h = (int(v) for v in a.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size {a.size}: not WxH")
    write(a.out, a.count, a.seed, (w, h))
    return 0


if __name__ == "__main__":
    sys.exit(main())
