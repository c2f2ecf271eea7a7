"""The recognizer on dice seen at a slant (issue 36, item 3: "read the top face; a visible side face is
never a die of its own").

    python benchmarks/oblique_eval.py [--count 100] [--seed 1] [--faces drawn|rune55] [--misses N]

A proxy for the issue's oblique 640x480 webcam over a cluttered desk: each die is a cube with six
faces (opposite faces sum to 7, one handedness, so the sides seen agree with the top), lying flat
at a random yaw, seen by a pinhole camera (~60 degrees across) tilted 25-55 degrees from vertical;
each visible face is warped into the picture (`cv2.warpPerspective`), the sides shaded darker. The
desk is `scale_eval.surface` with clutter (printed text, a pen, a sheet of paper), 1-8 dice, about
one in three pushed against a die already placed (touching). Labels: the top face's value and the
box of the die's whole silhouette (top face and visible sides): `Tally` matches a reported die
when its centre lies in that box. `--faces rune55`: the top face's texture is a die cut from a
rune55 `fit` photo (its label box, square), the sides drawn in its body colour.

Printed: precision / recall / value accuracy / exact-image rate, and two counts of side faces:
extra dice (matched to no label) whose centre lies on a visible side face, and matched dice
whose wrong value is one of that die's visible side faces' values.
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.evaluate import Tally, match
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.drawn import BODY_BGR, PIPS, DrawnDie, draw_die

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale_eval import surface
from zonkcam.hardware.options import seed as seed_number

W, H = 640, 480
TEX = 96  # face texture side, px
# a die's faces: outward normal (die frame) -> value, for one handed die (1 up, 2 front, 3 right)
CANON = {(0, 0, 1): 1, (0, 0, -1): 6, (0, -1, 0): 2, (0, 1, 0): 5, (1, 0, 0): 3, (-1, 0, 0): 4}


def _rotations() -> list[np.ndarray]:
    """The 24 turns of a cube (signed permutation matrices of determinant 1)."""
    out = []
    for perm in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        for signs in np.ndindex(2, 2, 2):
            m = np.zeros((3, 3))
            for r, (c, s) in enumerate(zip(perm, signs, strict=True)):
                m[r, c] = -1 if s else 1
            if np.linalg.det(m) > 0:
                out.append(m)
    return out


ROTATIONS = _rotations()


@dataclass
class Camera:
    f: float
    tilt: float  # radians from vertical
    dist: float  # from the camera to the desk point at the picture's centre, in die sides
    roll: float
    w: int = W  # the picture's size, px
    h: int = H

    def __post_init__(self) -> None:
        t = self.tilt
        self.centre = np.array([0.0, -self.dist * math.sin(t), self.dist * math.cos(t)])
        fwd = np.array([0.0, math.sin(t), -math.cos(t)])
        right = np.array([1.0, 0.0, 0.0])
        down = np.cross(fwd, right)
        c, s = math.cos(self.roll), math.sin(self.roll)
        right, down = c * right + s * down, -s * right + c * down
        self.rot = np.stack([right, down, fwd])

    def project(self, pts: np.ndarray) -> np.ndarray:
        cam = (pts - self.centre) @ self.rot.T
        return np.stack([self.f * cam[:, 0] / cam[:, 2] + self.w / 2,
                         self.f * cam[:, 1] / cam[:, 2] + self.h / 2], 1)

    def on_desk(self, u: float, v: float) -> np.ndarray:
        """The desk point (z = 0) seen at pixel (u, v)."""
        ray = self.rot.T @ np.array([(u - self.w / 2) / self.f, (v - self.h / 2) / self.f, 1.0])
        k = -self.centre[2] / ray[2]
        return self.centre + k * ray


@dataclass
class Cube:
    x: float
    y: float
    yaw: float
    turn: np.ndarray  # one of ROTATIONS: which value faces where
    color: str
    spins: tuple[int, ...]  # each face's texture turned by 90-degree steps

    def faces(self) -> list[tuple[int, np.ndarray, np.ndarray]]:
        """(value, outward normal, 4 corners tl tr br bl) in desk coordinates, die side 1."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        yaw = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
        out = []
        for k, (n, value) in enumerate(CANON.items()):
            normal = self.turn @ np.array(n, float)
            # two in-face axes, any: the texture's spin makes the pips' turn random anyway
            a = np.roll(np.abs(normal), 1)
            b = np.cross(normal, a)
            centre = normal / 2
            corners = [centre + (sx * a + sy * b) / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            corners = corners[self.spins[k]:] + corners[:self.spins[k]]
            pts = np.array(corners) @ yaw.T + [self.x, self.y, 0.5]
            out.append((value, yaw @ normal, pts))
        return out

    @property
    def top(self) -> int:
        return next(v for v, n, _ in self.faces() if n[2] > 0.5)


@dataclass
class Seen:
    """A die drawn: its top value, the top face's and each visible side's polygon (px)."""
    value: int
    top: np.ndarray
    sides: list[tuple[int, np.ndarray]]

    @property
    def box(self) -> tuple[float, float, float, float]:
        pts = np.vstack([self.top, *[p for _, p in self.sides]])
        return float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max())


def face_texture(value: int, color: str, top_crop: np.ndarray | None = None) -> np.ndarray:
    if top_crop is not None:
        return cv2.resize(top_crop, (TEX, TEX), interpolation=cv2.INTER_AREA)
    tex = np.empty((TEX, TEX, 3), np.uint8)
    tex[:] = BODY_BGR[color]
    draw_die(tex, DrawnDie(value, color, TEX / 2, TEX / 2, TEX - 1, 0.0), shadow=False)
    return tex


def side_texture(value: int, top_crop: np.ndarray) -> np.ndarray:
    """A side face for a real die's top: its body colour (the median of the crop's middle, pips
    the minority) with pips of the crop's darkest or lightest tenth, whichever stands out."""
    n = top_crop.shape[0]
    middle = top_crop[n // 4:3 * n // 4, n // 4:3 * n // 4].reshape(-1, 3).astype(np.float32)
    body = np.median(middle, axis=0)
    grey = middle.mean(1)
    dark = middle[grey <= np.quantile(grey, 0.1)].mean(0)
    light = middle[grey >= np.quantile(grey, 0.9)].mean(0)
    pip = dark if abs(dark.mean() - body.mean()) > abs(light.mean() - body.mean()) else light
    tex = np.empty((TEX, TEX, 3), np.uint8)
    tex[:] = body.astype(np.uint8)
    for px, py in PIPS[value]:
        at = (round(TEX / 2 + px * 0.27 * TEX), round(TEX / 2 + py * 0.27 * TEX))
        cv2.circle(tex, at, round(0.09 * TEX), tuple(int(v) for v in pip), -1, cv2.LINE_AA)
    return tex


def _paste(image: np.ndarray, tex: np.ndarray, quad: np.ndarray, shade: float) -> None:
    src = np.float32([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]])
    m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (W, H), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((TEX, TEX), 255, np.uint8), m, (W, H))
    a = (mask.astype(np.float32) / 255)[..., None]
    image[:] = (a * warped * shade + (1 - a) * image).astype(np.uint8)


def _clutter(image: np.ndarray, rng: np.random.Generator) -> None:
    """A sheet of paper, printed text, a pen: the things on a desk."""
    if rng.random() < 0.5:
        x, y = rng.uniform(0, W * 0.7), rng.uniform(0, H * 0.7)
        box = cv2.boxPoints(((x, y), (rng.uniform(120, 260), rng.uniform(150, 300)), rng.uniform(-30, 30)))
        cv2.fillPoly(image, [box.astype(np.int32)], tuple(int(v) for v in rng.uniform(200, 245, 3)))
    words = ("Invoice", "total 42.50", "Meeting 3pm", "ZONK", "todo: milk", "p. 17", "ACME Co.")
    for _ in range(rng.integers(1, 5)):
        cv2.putText(image, str(rng.choice(words)), (int(rng.uniform(0, W - 150)), int(rng.uniform(20, H))),
                    cv2.FONT_HERSHEY_SIMPLEX, rng.uniform(0.4, 1.1),
                    tuple(int(v) for v in rng.uniform(0, 90, 3)), int(rng.integers(1, 3)), cv2.LINE_AA)
    for _ in range(rng.integers(0, 3)):  # a pen: a barrel and a metal tip
        x, y, a, n = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(0, math.pi), rng.uniform(90, 180)
        dx, dy = math.cos(a) * n, math.sin(a) * n
        colour = tuple(int(v) for v in rng.uniform(0, 220, 3))
        cv2.line(image, (int(x), int(y)), (int(x + dx), int(y + dy)), colour, int(rng.integers(7, 12)),
                 cv2.LINE_AA)
        cv2.line(image, (int(x + dx), int(y + dy)), (int(x + 1.12 * dx), int(y + 1.12 * dy)), (190, 190, 190),
                 4, cv2.LINE_AA)


def _place(rng: np.random.Generator, cam: Camera, n: int) -> list[tuple[float, float, float]]:
    """(x, y, yaw) of up to `n` dice in view, apart, about a third pushed against one already placed."""
    spots: list[tuple[float, float, float]] = []
    for _ in range(60 * n):
        if len(spots) == n:
            break
        if spots and rng.random() < 0.35:  # touching: face to face with a die, gap 0-4% of a side
            x0, y0, yaw = spots[int(rng.integers(len(spots)))]
            a = yaw + rng.integers(4) * math.pi / 2
            d = 1.0 + rng.uniform(0.005, 0.04)
            slide = rng.uniform(-0.3, 0.3)
            x = x0 + d * math.cos(a) - slide * math.sin(a)
            y = y0 + d * math.sin(a) + slide * math.cos(a)
            near = 1.0
        else:
            p = cam.on_desk(rng.uniform(0.12, 0.88) * W, rng.uniform(0.15, 0.88) * H)
            x, y, yaw = float(p[0]), float(p[1]), rng.uniform(0, math.pi / 2)
            near = 1.5
        u, v = cam.project(np.array([[x, y, 0.5]]))[0]
        if not (0.06 * W < u < 0.94 * W and 0.08 * H < v < 0.94 * H):
            continue
        if all(math.hypot(x - a, y - b) >= near - 0.01 for a, b, _ in spots):
            spots.append((x, y, yaw))
    return spots


def render(rng: np.random.Generator, tops: list[np.ndarray] | None = None,
           n: int | None = None, tilt: float | None = None) -> tuple[np.ndarray, list[Seen]]:
    """One 640x480 picture of 1-8 dice on a desk at a slant, and the dice as seen.
    `tops`: face crops (BGR) to use as top faces, value by index into `top_values`."""
    cam = Camera(f=rng.uniform(520, 600),
                 tilt=math.radians(tilt if tilt is not None else rng.uniform(25, 55)),
                 dist=rng.uniform(10, 18), roll=math.radians(rng.uniform(-8, 8)))
    image = surface(rng, W, H)
    _clutter(image, rng)
    spots = _place(rng, cam, n or int(rng.integers(1, 9)))
    colors = tuple(BODY_BGR)
    color = str(rng.choice(colors))
    cubes = [Cube(x, y, yaw, ROTATIONS[int(rng.integers(24))],
                  color if rng.random() < 0.7 else str(rng.choice(colors)),
                  tuple(int(s) for s in rng.integers(0, 4, 6))) for x, y, yaw in spots]
    light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.8, -0.2), 1.0])
    light /= np.linalg.norm(light)
    # soft shadows first, then the dice far to near
    shade = image.copy()
    for c in cubes:
        foot = np.array([[c.x + dx, c.y + dy, 0] for dx, dy in ((-0.55, -0.55), (0.55, -0.55), (0.6, 0.65),
                                                                 (-0.55, 0.6))])
        cast = cam.project(foot + np.array([0.12, 0.1, 0])).astype(np.int32)
        cv2.fillPoly(shade, [cast], (0, 0, 0), cv2.LINE_AA)
    image[:] = cv2.addWeighted(shade, 0.3, image, 0.7, 0)
    seen: list[Seen] = []
    depth = [float((np.array([c.x, c.y, 0.5]) - cam.centre) @ cam.rot[2]) for c in cubes]
    for i in np.argsort(depth)[::-1]:
        c = cubes[i]
        top_poly, sides = None, []
        for value, normal, pts in c.faces():
            if normal @ (cam.centre - pts.mean(0)) <= 0:
                continue
            quad = cam.project(pts)
            if normal[2] > 0.5:
                crop = tops[value - 1] if tops is not None else None
                _paste(image, face_texture(value, c.color, crop), quad, 1.0)
                top_poly = quad
            else:
                lit = 0.45 + 0.4 * max(0.0, float(normal @ light))
                tex = face_texture(value, c.color) if tops is None else side_texture(value, tops[c.top - 1])
                _paste(image, tex, quad, lit)
                sides.append((value, quad))
        seen.append(Seen(c.top, top_poly, sides))
    image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.5, 1.0))
    noisy = image.astype(np.float32) + rng.normal(0, 3, image.shape)
    _, jpg = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 85])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR), seen


def labels_of(seen: list[Seen]) -> np.ndarray:
    """Rows (value, cx, cy, w, h) normalised, the box of each die's whole silhouette."""
    rows = [[s.value, (x0 + x1) / 2 / W, (y0 + y1) / 2 / H, (x1 - x0) / W, (y1 - y0) / H]
            for s in seen for x0, y0, x1, y1 in [s.box]]
    return np.array(rows, np.float32).reshape(-1, 5)


def _on(poly: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), point, False) >= 0


def side_counts(dice: list, seen: list[Seen]) -> tuple[int, int, int]:
    """(extra dice centred on a visible side face, matched dice read as one of their sides'
    values, extra dice centred on no die: clutter)."""
    rows = labels_of(seen)
    boxes = rows[:, 1:] * np.array([W, H, W, H], np.float32)
    pairs, _ = match(dice, boxes)
    matched = {id(d) for d, _ in pairs}
    extra = [d for d in dice if id(d) not in matched]
    as_die = sum(1 for d in extra if any(
        _on(p, d.center) and not _on(s.top, d.center) for s in seen for _, p in s.sides))
    as_value = sum(1 for d, j in pairs if d.value is not None and d.value != seen[j].value
                   and d.value in {v for v, _ in seen[j].sides})
    off = sum(1 for d in extra if not any(
        _on(s.top, d.center) or any(_on(p, d.center) for _, p in s.sides) for s in seen))
    return as_die, as_value, off


def rune55_tops(rng: np.random.Generator) -> list[list[np.ndarray]]:
    """Top-face textures per value (index value-1): square crops of dice in rune55 `fit` photos."""
    from zonkcam.models.rune55 import datasets_root, group_split
    root = datasets_root() / "rune55"
    if not (root / "groups.csv").is_file():
        raise SystemExit(f"oblique_eval: --faces rune55 needs {root}")
    items = group_split(root, "fit")
    order = rng.permutation(len(items))[:400]
    out: list[list[np.ndarray]] = [[] for _ in range(6)]
    for i in order:
        image = cv2.imread(str(items[i].image))
        if image is None:
            continue
        h, w = image.shape[:2]
        for value, cx, cy, bw, bh in items[i].dice:
            side = max(bw * w, bh * h)
            x0, y0 = round(cx * w - side / 2), round(cy * h - side / 2)
            if side >= 40 and 0.8 < bw * w / (bh * h) < 1.25 and x0 >= 0 and y0 >= 0 \
                    and x0 + side <= w and y0 + side <= h:
                out[int(value) - 1].append(image[y0:y0 + round(side), x0:x0 + round(side)].copy())
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100, help="pictures (default: 100)")
    ap.add_argument("--seed", type=seed_number, default=1)
    ap.add_argument("--faces", choices=("drawn", "rune55"), default="drawn")
    ap.add_argument("--compare", action="store_true",
                    help="also read each picture without the top-face pass (vision.sides): before/after")
    ap.add_argument("--misses", type=int, default=0, help="print up to N pictures' misses")
    ap.add_argument("--save", help="a folder to write the pictures to (PNG, dice read boxed)")
    ap.add_argument("--model", help="an .onnx model file (default: the shipped model)")
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    pool = rune55_tops(np.random.default_rng(args.seed + 1000)) if args.faces == "rune55" else None
    readers = {"reader": Reader(args.model)}
    if args.compare:
        readers = {"without top faces": Reader(args.model), "with top faces": Reader(args.model)}
        readers["without top faces"].top_faces = False
    tallies = {name: Tally() for name in readers}
    sides = {name: np.zeros(3, int) for name in readers}
    shown = 0
    for k in range(args.count):
        tops = None if pool is None else [p[int(rng.integers(len(p)))] for p in pool]
        image, seen = render(rng, tops)
        rows = labels_of(seen)
        for name, reader in readers.items():
            reading = reader.read(image)
            tally = tallies[name]
            before = (tally.matched, tally.correct)
            tally.add(reading.dice, rows, W, H)
            tally.read_ms.append(reading.elapsed_ms)
            counts = side_counts(reading.dice, seen)
            sides[name] += counts
        # the last reader's misses and pictures
        wrong = tally.matched - before[0] != len(rows) or tally.correct - before[1] != len(rows) \
            or len(reading.dice) != len(rows)
        if wrong and shown < args.misses:
            shown += 1
            print(f"#{k}: labels {sorted(int(v) for v in rows[:, 0])} read "
                  f"{sorted(d.value or 0 for d in reading.dice)}; side faces as dice {counts[0]}, "
                  f"side values {counts[1]}, clutter {counts[2]}")
        if args.save:
            out = image.copy()
            for d in reading.dice:
                x0, y0, x1, y1 = (round(v) for v in d.box)
                cv2.rectangle(out, (x0, y0), (x1, y1), (255, 0, 255), 1)
                cv2.putText(out, str(d.value), (x0, y0 - 2), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 0, 255), 1)
            Path(args.save).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(Path(args.save) / f"{k:03d}{'x' if wrong else ''}.png"), out)
    first = next(iter(tallies.values())).summary()
    print(f"oblique proxy, {args.faces} faces, seed {args.seed}: {first['images']} pictures, "
          f"{first['labels']} dice")
    print("| reader | reported | precision | recall | value acc. | exact | side faces as dice "
          "| side values read | extras on no die | read ms median |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, tally in tallies.items():
        s = tally.summary()
        a, b, c = sides[name]
        print(f"| {name} | {s['predictions']} | {s['precision']} | {s['recall']} | {s['value_accuracy']} | "
              f"{s['exact_image_rate']} | {a} | {b} | {c} | {s['read_ms_median']} |")
    print("confusion (rows: top value 1..6, columns: read 1..6), last reader:")
    print("\n".join("  " + " ".join(f"{v:4d}" for v in row) for row in s["confusion"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
