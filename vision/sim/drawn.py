"""Pictures of dice drawn with OpenCV: for tests, for timing on camera-sized stills, and for
checking colour naming by eye. No data set needed.

    image, dice = render_scene(np.random.default_rng(0), 640, 480, n=5)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from zonkcam.vision.dice import box_growth

# pip positions on a face of side 1 centred at 0, per value
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
# Face marks: "pips" (the usual die) or "star-logo" (an "official Zonk" die: a star for the one and
# a logo, a Z in a disc, for the six; 2-5 keep their pips). The simulator draws with the same code.
DICE_STYLES = ("pips", "star-logo")
BODY_BGR = {
    "white": (225, 230, 232), "red": (40, 30, 185), "green": (70, 140, 40),
    "blue": (170, 70, 35), "black": (38, 35, 35), "yellow": (40, 200, 235),
}
RED_PIP = (40, 30, 200)  # the big red one of many sets with light bodies


@dataclass(frozen=True, slots=True)
class DrawnDie:
    value: int
    color: str
    cx: float
    cy: float
    size: float
    angle: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        half = self.size / 2 * box_growth(self.angle)
        return self.cx - half, self.cy - half, self.cx + half, self.cy + half


@dataclass(frozen=True, slots=True)
class Pips:
    """How a die's pips are drawn, in fractions of its side. Real sets differ: small or big pips
    set wide or tight, a big (often red) one, pips as rings, a ring round the one."""

    radius: float = 0.09
    spread: float = 0.27  # a corner pip's offset from the middle, along each axis
    one_radius: float | None = None  # the one's pip (None: `radius`)
    one_bgr: tuple[int, int, int] | None = None  # the one's colour (None: the pips')
    ring: float = 0.0  # > 0: pips are rings this thick (a fraction of the side), not discs
    one_ring: float = 0.0  # > 0: a ring this far out round the one's pip


def draw_die(image: np.ndarray, die: DrawnDie, pip_bgr: tuple[int, int, int] | None = None,
             shadow: bool = True, style: str = "pips", pips: Pips = Pips()) -> None:
    """Draw one die seen from above (rounded square, pips, a soft shadow) in place.

    `style`: one of `DICE_STYLES`; "star-logo" draws a star for the one and a logo for the six.
    `pips`: the pips' size, spacing and look."""
    s = die.size
    body = BODY_BGR[die.color]
    if pip_bgr is None:
        pip_bgr = (20, 20, 20) if die.color in ("white", "yellow") else (235, 235, 235)
    a = math.radians(die.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corner = 0.18 * s
    t = np.linspace(0, math.pi / 2, 6)
    pts = []
    for qx, qy, start in ((1, 1, 0), (-1, 1, math.pi / 2), (-1, -1, math.pi),
                          (1, -1, 1.5 * math.pi)):
        c = np.array([qx * (s / 2 - corner), qy * (s / 2 - corner)])
        pts += [c + corner * np.array([math.cos(start + u), math.sin(start + u)]) for u in t]
    outline = (np.array(pts) @ rot.T + [die.cx, die.cy])
    if shadow:
        ov = image.copy()
        cv2.fillPoly(ov, [np.round((outline + 0.06 * s) * 16).astype(np.int32)], (0, 0, 0),
                     cv2.LINE_AA, shift=4)
        cv2.addWeighted(ov, 0.35, image, 0.65, 0, dst=image)
    cv2.fillPoly(image, [np.round(outline * 16).astype(np.int32)], body, cv2.LINE_AA, shift=4)
    edge = tuple(int(c * 0.75) for c in body)
    cv2.polylines(image, [np.round(outline * 16).astype(np.int32)], True, edge,
                  max(1, round(s / 40)), cv2.LINE_AA, shift=4)
    if style != "pips" and die.value in (1, 6):
        draw_symbol(image, die.value, die.cx, die.cy, s, die.angle, pip_bgr, body, style)
        return
    r = s * (pips.one_radius if die.value == 1 and pips.one_radius else pips.radius)
    colour = pips.one_bgr if die.value == 1 and pips.one_bgr else pip_bgr
    thickness = -1 if pips.ring <= 0 else max(1, round(pips.ring * s))
    for px, py in PIPS[die.value]:
        x, y = rot @ np.array([px * pips.spread * s, py * pips.spread * s]) + [die.cx, die.cy]
        cv2.circle(image, (round(x * 16), round(y * 16)), round(r * 16), colour, thickness,
                   cv2.LINE_AA, shift=4)
    if die.value == 1 and pips.one_ring > 0:
        cv2.circle(image, (round(die.cx * 16), round(die.cy * 16)), round((r + pips.one_ring * s) * 16),
                   colour, max(1, round(0.035 * s)), cv2.LINE_AA, shift=4)


def draw_symbol(image: np.ndarray, value: int, cx: float, cy: float, s: float, angle: float,
                mark_bgr: tuple[int, int, int], body_bgr: tuple[int, int, int],
                style: str = "star-logo") -> None:
    """The custom marks of a `style` die in place: a filled star (1) or a Z-in-a-disc logo (6).

    `s` is the face's side in pixels, centred on (cx, cy) and turned by `angle` degrees."""
    if style not in DICE_STYLES:
        raise ValueError(f"unknown dice style {style!r} (known: {', '.join(DICE_STYLES)})")
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

    def fill(points: np.ndarray, color: tuple[int, int, int]) -> None:
        pts = (np.asarray(points, np.float64) * s) @ rot.T + [cx, cy]
        cv2.fillPoly(image, [np.round(pts * 16).astype(np.int32)], color, cv2.LINE_AA, shift=4)

    if value == 1:  # a five-pointed star, point up, 0.36 of the face in radius
        k = np.arange(10)
        r = np.where(k % 2 == 0, 0.36, 0.36 * 0.42)
        t = -math.pi / 2 + k * math.pi / 5
        fill(np.stack([r * np.cos(t), r * np.sin(t)], 1), mark_bgr)
    elif value == 6:  # a disc with a Z cut out of it
        t = np.linspace(0, 2 * math.pi, 40, endpoint=False)
        fill(np.stack([0.34 * np.cos(t), 0.34 * np.sin(t)], 1), mark_bgr)
        w = 0.06
        for stroke in (((-0.16, -0.15), (0.16, -0.15)), ((0.16, -0.15), (-0.16, 0.15)),
                       ((-0.16, 0.15), (0.16, 0.15))):
            (x1, y1), (x2, y2) = stroke
            n = np.array([y1 - y2, x2 - x1]) / math.hypot(x2 - x1, y2 - y1) * w
            p, q = np.array([x1, y1]), np.array([x2, y2])
            fill(np.array([p + n, q + n, q - n, p - n]), body_bgr)


def background(rng: np.random.Generator, width: int, height: int,
               kind: str = "felt") -> np.ndarray:
    """A table: `felt` (smooth, one colour), `wood` (grain stripes) or `paper` (light)."""
    base = {"felt": (40, 90, 30), "wood": (60, 110, 160), "paper": (215, 215, 210),
            "dark": (30, 28, 26)}[kind]
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    if kind == "wood":
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        grain = np.sin((y + 8 * np.sin(x / 90)) / max(3.0, height / 120)) * 18
        img += grain[..., None]
    small = rng.normal(0, 6, (max(2, height // 40), max(2, width // 40), 1)).astype(np.float32)
    img += cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)[..., None]
    img += rng.normal(0, 3, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def render_scene(rng: np.random.Generator, width: int, height: int, n: int = 5,
                 size: float | None = None, kind: str = "felt",
                 colors: tuple[str, ...] = tuple(BODY_BGR),
                 style: str = "pips") -> tuple[np.ndarray, list[DrawnDie]]:
    """A table with `n` dice placed apart from each other, and the dice drawn."""
    image = background(rng, width, height, kind)
    size = size or min(width, height) / 9
    dice: list[DrawnDie] = []
    for _ in range(200 * n):
        if len(dice) == n:
            break
        cx = rng.uniform(size, width - size)
        cy = rng.uniform(size, height - size)
        if all(math.hypot(cx - d.cx, cy - d.cy) > 1.6 * size for d in dice):
            dice.append(DrawnDie(int(rng.integers(1, 7)), str(rng.choice(colors)), cx, cy,
                                 size * rng.uniform(0.9, 1.1), rng.uniform(0, 90)))
    for d in dice:
        draw_die(image, d, style=style)
    image = cv2.GaussianBlur(image, (0, 0), max(0.5, size / 120))
    return image, dice


def write_yolo_folder(out: str, count: int, width: int, height: int, seed: int = 0,
                      quality: int = 92, style: str = "pips") -> None:
    """`count` drawn tables as a YOLO folder (images/*.jpg, labels/*.txt) for `zonkcam eval`."""
    from pathlib import Path

    root = Path(out)
    (root / "images").mkdir(parents=True, exist_ok=True)
    (root / "labels").mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    kinds = ("felt", "wood", "paper", "dark")
    for i in range(count):
        size = min(width, height) * rng.uniform(0.05, 0.12)
        image, dice = render_scene(rng, width, height, n=int(rng.integers(1, 7)), size=size,
                                   kind=kinds[i % len(kinds)], style=style)
        cv2.imwrite(str(root / "images" / f"{i:04d}.jpg"), image,
                    [cv2.IMWRITE_JPEG_QUALITY, quality])
        rows = []
        for d in dice:
            x1, y1, x2, y2 = d.box
            rows.append(f"{d.value - 1} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
                        f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")
        (root / "labels" / f"{i:04d}.txt").write_text("\n".join(rows) + "\n")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="Write drawn dice tables as a YOLO folder, e.g. "
                                 "8-megapixel stills for timing: --size 3280x2464")
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--size", default="3280x2464", metavar="WxH")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--style", choices=DICE_STYLES, default="pips",
                    help="star-logo: a star for the one, a logo for the six")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.lower().split("x"))
    write_yolo_folder(a.out, a.count, w, h, a.seed, style=a.style)
