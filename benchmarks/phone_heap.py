"""Issue 36's phone row, heaped: a phone's 12 MP photo of dice piled in a wooden bowl, as dice
lie in a real bowl and never in `phone_bowl.py`'s drawing.

`phone_bowl.py` draws every die flat, face up, seen straight from above. In a bowl dice lean on
its wall and on each other, one rests on two, a neighbour hides part of a face, and the phone
is held a little askew, so side faces show (the hidden photos: "side faces count as dice",
recall .61). This draws the same table, bowl, cloth and dice looks, but each die is a cube
(six faces, opposite faces summing to 7) seen through a pinhole camera tilted 0-20 degrees:

- about half the dice lie flat; a third lean 8-40 degrees on an edge (on the wall, on a
  neighbour); some rest on two touching dice, tilted 5-25 degrees;
- drawn far to near, so a die on top hides part of those below;
- labels: the face most nearly up, boxed round the die's whole silhouette (top and sides);
  a die leaning over 30 degrees, or with under half its top face in sight, is marked
  illegible: read or not, it counts neither way (as the audited rune55 labels do).

Prints precision / recall / value accuracy / exact-image rate, recall by how the die lies,
side faces read as dice or as the value (`--sides`: split by whether the die is legible, and
against chance), and the read time.

    .venv/bin/python benchmarks/phone_heap.py [--count 20] [--seed 1] [--model FILE] [--save DIR]
                                              [--merged] [--sides]

Seed 1 is for tuning; keep others fresh and report them once.
"""
from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.evaluate import Tally, match
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.colour_dice import DieLook, draw_look, lit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clutter_draw import draw_embroidery
from oblique_eval import CANON, ROTATIONS, Camera
from phone_bowl import BLUE_SHARE, SETS, _bowl, _table
from zonkcam.hardware.options import seed as seed_number

TEX = 128  # a face's texture side, px
LEAN_READABLE = 30.0  # degrees: a die leaning more has no face a person calls its top
SEEN_READABLE = 0.5  # share of the top face in sight for a die to count
POSES = ("flat", "leaning", "on two")


@dataclass(eq=False)
class Cube:
    """A die in the bowl: where its centre is (die sides), how it is turned, how it lies."""

    centre: np.ndarray
    turn: np.ndarray  # world from die
    pose: str
    lean: float  # degrees from lying flat

    def faces(self) -> list[tuple[int, np.ndarray, np.ndarray]]:
        """(value, outward normal, corners) of each face, in world coordinates."""
        out = []
        for n, value in CANON.items():
            normal = np.array(n, float)
            a = np.roll(np.abs(normal), 1)
            b = np.cross(normal, a)
            corners = [normal / 2 + (sx * a + sy * b) / 2 for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            out.append((value, self.turn @ normal, np.array(corners) @ self.turn.T + self.centre))
        return out

    @property
    def top(self) -> int:
        return max(self.faces(), key=lambda f: f[1][2])[0]


def _turn(rng: np.random.Generator, lean: float) -> np.ndarray:
    """A die's turn: any of the 24 face-up turns, leaned `lean` degrees on an edge, any yaw."""
    t = math.radians(lean)
    about_edge = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    y = rng.uniform(0, 2 * math.pi)
    yaw = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    return yaw @ about_edge @ ROTATIONS[int(rng.integers(24))]


def _height(lean: float) -> float:
    """The centre's height over what a die leaning `lean` degrees on an edge rests on."""
    t = math.radians(lean)
    return 0.5 * (math.cos(t) + math.sin(t))


def _foot(c: Cube, grow: float = 1.02) -> np.ndarray:
    """The die's outline on the floor seen from above (its corners' hull), grown a little."""
    pts = np.vstack([p for _, _, p in c.faces()])[:, :2]
    mid = c.centre[:2]
    return cv2.convexHull(((pts - mid) * grow + mid).astype(np.float32))


def _apart(c: Cube, others: list[Cube]) -> bool:
    return all(cv2.intersectConvexConvex(_foot(c), _foot(o))[0] <= 0 for o in others)


def _place(rng: np.random.Generator, cam: Camera, n: int, bowl: tuple[float, float, float, float]
           ) -> list[Cube]:
    """Up to `n` dice on the bowl's floor: flat or leaning, some touching, some resting on two."""
    bx, by, rx, ry = bowl
    cubes: list[Cube] = []
    for _ in range(100 * n):
        if len(cubes) == n:
            break
        floor = [c for c in cubes if c.pose != "on two"]
        flat = [c for c in floor if c.pose == "flat"]
        pairs = [(a, b) for i, a in enumerate(flat) for b in flat[i + 1:]
                 if np.hypot(*(a.centre - b.centre)[:2]) < 1.3]
        r = rng.random()
        if pairs and r < 0.15:  # on two touching dice, across their seam
            a, b = pairs[int(rng.integers(len(pairs)))]
            lean = rng.uniform(5, 25)
            xy = (a.centre[:2] + b.centre[:2]) / 2 + rng.normal(0, 0.08, 2)
            cube = Cube(np.array([*xy, 1.0 + _height(lean)]), _turn(rng, lean), "on two", lean)
            if _apart(cube, [c for c in cubes if c.pose == "on two"]):
                cubes.append(cube)
            continue
        lean = rng.uniform(8, 40) if r < 0.5 else 0.0
        cube = Cube(np.zeros(3), _turn(rng, lean), "leaning" if lean else "flat", lean)
        if floor and rng.random() < 0.45:  # against a die on the floor: the nearest free place
            o = floor[int(rng.integers(len(floor)))]
            a = rng.uniform(0, 2 * math.pi)
            way = np.array([math.cos(a), math.sin(a)])
            for d in np.arange(0.8, 2.0, 0.03):
                cube.centre = np.array([*(o.centre[:2] + d * way), _height(lean)])
                if _apart(cube, floor):
                    break
        else:
            t, a = 0.8 * rng.uniform(0, 1) ** 0.7, rng.uniform(0, 2 * math.pi)  # the bowl's low middle
            p = cam.on_desk(bx + t * rx * math.cos(a), by + t * ry * math.sin(a))
            cube.centre = np.array([p[0], p[1], _height(lean)])
        u, v = cam.project(cube.centre[None])[0]
        if math.hypot((u - bx) / rx, (v - by) / ry) <= 0.92 and _apart(cube, floor):
            cubes.append(cube)
    return cubes


def _texture(look: DieLook, value: int, under: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A face of `look` showing `value`, its rounded corners the colour of what lies under."""
    tex = np.empty((TEX, TEX, 3), np.uint8)
    tex[:] = under
    draw_look(tex, look, value, TEX / 2, TEX / 2, TEX * 0.99, 0.0, rng)
    return tex


def _paste(image: np.ndarray, ids: np.ndarray, tex: np.ndarray, quad: np.ndarray, shade: float,
           die: int) -> np.ndarray:
    """Warp a face onto `quad` (px) in place, in its box only; the mask of where it landed."""
    h, w = image.shape[:2]
    x0, y0 = (max(0, int(v) - 1) for v in quad.min(0))
    x1, y1 = (min(s, int(v) + 2) for v, s in zip(quad.max(0), (w, h), strict=True))
    full = np.zeros((h, w), bool)
    if x1 <= x0 or y1 <= y0:
        return full
    src = np.float32([[0, 0], [TEX, 0], [TEX, TEX], [0, TEX]])
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tex, m, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(np.full((TEX, TEX), 255, np.uint8), m, size).astype(np.float32)[..., None] / 255
    roi = image[y0:y1, x0:x1]
    roi[:] = (a * warped * shade + (1 - a) * roi).astype(np.uint8)
    ids[y0:y1, x0:x1][a[..., 0] > 0.5] = die
    full[y0:y1, x0:x1] = a[..., 0] > 0.5
    return full


@dataclass
class Seen:
    """A die drawn: its top value, how it lies, its box (px), its visible faces' polygons, and
    whether a person would call its top readable."""

    value: int
    pose: str
    box: tuple[float, float, float, float]
    top: np.ndarray
    sides: list[tuple[int, np.ndarray]]
    readable: bool


def photo(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, list[Seen], str]:
    """One photo, its dice as seen, and its set's look."""
    die_px = rng.uniform(80, 130) * w / 4032
    f = w * rng.uniform(0.68, 0.8)  # a phone's main camera, ~65-75 degrees across
    cam = Camera(f=f, tilt=math.radians(rng.uniform(0, 20)), dist=f / die_px,
                 roll=math.radians(rng.uniform(-180, 180)), w=w, h=h)
    image = _table(rng, w, h, die_px)
    if rng.random() < 0.5:  # a cloth beside the bowl
        cw = int(w * rng.uniform(0.18, 0.28))
        x0 = 0 if rng.random() < 0.5 else w - cw
        cloth = image[:, x0:x0 + cw]
        cloth[:] = rng.uniform(60, 200, 3).astype(np.uint8)
        draw_embroidery(cloth, rng, die_px, [])
    bowl = _bowl(image, rng, die_px)
    look = SETS[int(rng.integers(4))] if rng.random() < BLUE_SHARE else SETS[int(rng.integers(4, len(SETS)))]
    cubes = _place(rng, cam, int(rng.integers(10, 21)), bowl)
    light = np.array([rng.uniform(-0.5, 0.5), rng.uniform(-0.8, -0.2), 1.0])
    light /= np.linalg.norm(light)
    shade = image.copy()  # soft shadows on the floor first
    for c in cubes:
        u, v = cam.project(np.array([[c.centre[0] + 0.12, c.centre[1] + 0.1, 0.0]]))[0]
        cv2.circle(shade, (round(u), round(v)), round(0.62 * die_px), (0, 0, 0), -1, cv2.LINE_AA)
    shade = cv2.GaussianBlur(shade, (0, 0), 0.15 * die_px)
    image[:] = cv2.addWeighted(shade, 0.35, image, 0.65, 0)
    ids = np.full((h, w), -1, np.int32)
    drawn: list[tuple[int, np.ndarray | None, list[tuple[int, np.ndarray]], np.ndarray | None]] = []
    depth = [float((c.centre - cam.centre) @ cam.rot[2]) for c in cubes]
    for i in np.argsort(depth)[::-1]:
        c = cubes[int(i)]
        u, v = cam.project(c.centre[None])[0]
        under = image[min(h - 1, max(0, round(v))), min(w - 1, max(0, round(u)))]
        up = max(n[2] for _, n, _ in c.faces())
        top_poly, top_mask, sides = None, None, []
        for value, normal, pts in c.faces():
            if normal @ (cam.centre - pts.mean(0)) <= 0:
                continue
            quad = cam.project(pts)
            lit_by = 0.5 + 0.45 * max(0.0, float(normal @ light)) if normal[2] < up else 1.0
            mask = _paste(image, ids, _texture(look, value, under, rng), quad, lit_by, int(i))
            if normal[2] == up:
                top_poly, top_mask = quad, mask
            else:
                sides.append((value, quad))
        drawn.append((int(i), top_poly, sides, top_mask))
    seen = []
    for i, top_poly, sides, top_mask in sorted(drawn, key=lambda d: d[0]):
        c = cubes[i]
        polys = [p for p in [top_poly, *[q for _, q in sides]] if p is not None]
        pts = np.vstack(polys)
        shown = 0.0 if top_mask is None or not top_mask.any() else float((ids[top_mask] == i).mean())
        readable = c.lean <= LEAN_READABLE and shown >= SEEN_READABLE
        seen.append(Seen(c.top, c.pose, (float(pts[:, 0].min()), float(pts[:, 1].min()),
                                         float(pts[:, 0].max()), float(pts[:, 1].max())),
                         top_poly if top_poly is not None else polys[0], sides, readable))
    gains = (rng.uniform(0.75, 0.9), rng.uniform(0.9, 1.0), 1.0)  # a warm lamp (BGR)
    image = lit(image, gains, rng.uniform(0.75, 1.15), rng, noise=4.0)
    _, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(82, 93))])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR), seen, f"{look.name} {look.look}"


def rows_of(seen: list[Seen], w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """The readable dice's label rows (value, cx, cy, bw, bh normalised) and the illegible ones'
    boxes (cx, cy, bw, bh normalised)."""
    def box(s: Seen) -> list[float]:
        x0, y0, x1, y1 = s.box
        return [(x0 + x1) / 2 / w, (y0 + y1) / 2 / h, (x1 - x0) / w, (y1 - y0) / h]
    rows = np.array([[s.value, *box(s)] for s in seen if s.readable], np.float32).reshape(-1, 5)
    ignore = np.array([box(s) for s in seen if not s.readable], np.float32).reshape(-1, 4)
    return rows, ignore


def _figures(s: dict) -> str:
    return (f"precision {s['precision']}  recall {s['recall']}  value accuracy {s['value_accuracy']}  "
            f"exact {s['exact_image_rate']}")


def side_reads(extra: list[Die], pairs: list[tuple[Die, Seen]], seen: list[Seen]) -> np.ndarray:
    """Of one photo's reading: the dice matched to no label (`extra`) lying on a die's side
    face, not its top; of those, the ones on a legible die's (a phantom; on an illegible die's
    side it counts neither way); the dice matched (`pairs`: die, the `Seen` it matched) read
    at a value of one of its sides, not its own; all read at a wrong value; and how many of
    those would be a side's by chance (a wrong value is one of five others)."""
    def on_side(d: Die, s: Seen) -> bool:
        return any(_on(p, d.center) for _, p in s.sides) and not _on(s.top, d.center)
    misread = [s for d, s in pairs if d.value not in (None, s.value)]
    return np.array([
        sum(1 for d in extra if any(on_side(d, s) for s in seen)),
        sum(1 for d in extra if any(s.readable and on_side(d, s) for s in seen)),
        sum(1 for d, s in pairs if d.value not in (None, s.value) and d.value in {v for v, _ in s.sides}),
        len(misread),
        sum(len({v for v, _ in s.sides}) / 5 for s in misread)])


def _on(poly: np.ndarray, point: tuple[float, float]) -> bool:
    return cv2.pointPolygonTest(poly.astype(np.float32).reshape(-1, 1, 2), point, False) >= 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=20, help="photos (default: 20)")
    ap.add_argument("--seed", type=seed_number, default=1)
    ap.add_argument("--size", default="4032x3024", metavar="WxH")
    ap.add_argument("--model", help="an .onnx model file (default: the active model)")
    ap.add_argument("--save", type=Path, help="a folder for the photos as a YOLO folder (readable "
                    "dice labelled) and misses.txt")
    ap.add_argument("--again", type=int, metavar="QUALITY", help="read each photo again, saved once "
                    "more as JPEG at QUALITY: how stable the reads are")
    ap.add_argument("--sides", action="store_true", help="the side faces read as dice split into "
                    "those of legible dice (phantoms) and of illegible ones (counted neither way), and "
                    "the sides' values read for the top against what wrong values would give by chance")
    ap.add_argument("--merged", action="store_true", help="a big still's views merged die by die "
                    "(`Reader.merged_views`, vision/merged.py), not the one view reading most dice surely")
    a = ap.parse_args()
    try:
        w, h = (int(v) for v in a.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size {a.size}: not WxH")
    reader = Reader(a.model)
    reader.merged_views = a.merged
    rng = np.random.default_rng(a.seed)
    tally, again, changed = Tally(), Tally(), 0
    by_pose = {p: [0, 0] for p in POSES}  # readable dice, found
    illegible = 0
    sides = np.zeros(5)  # `side_reads`, summed
    notes = []
    if a.save:
        (a.save / "images").mkdir(parents=True, exist_ok=True)
        (a.save / "labels").mkdir(parents=True, exist_ok=True)
    for k in range(a.count):
        image, seen, look = photo(rng, w, h)
        rows, ignore = rows_of(seen, w, h)
        reading = reader.read(image)
        tally.add(reading.dice, rows, w, h, ignore=ignore)
        tally.read_ms.append(reading.elapsed_ms)
        if a.again:
            _, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, a.again])
            second = reader.read(cv2.imdecode(jpg, cv2.IMREAD_COLOR))
            again.add(second.dice, rows, w, h, ignore=ignore)
            changed += sorted(d.value or 0 for d in second.dice) != sorted(d.value or 0 for d in reading.dice)
        legible = [s for s in seen if s.readable]
        illegible += len(seen) - len(legible)
        pairs, free = match(reading.dice, rows[:, 1:] * np.array([w, h, w, h], np.float32))
        for j, s in enumerate(legible):
            by_pose[s.pose][0] += 1
            by_pose[s.pose][1] += not free[j]
        matched = {id(d) for d, _ in pairs}
        extra = [d for d in reading.dice if id(d) not in matched]
        sides += side_reads(extra, [(d, legible[j]) for d, j in pairs], seen)
        missed = [f"{s.pose} {s.value} at {tuple(round(v) for v in s.box[:2])}"
                  for j, s in enumerate(legible) if free[j]]
        notes.append(f"heap{k:03d}.jpg ({look}): {len(legible)} readable, {len(seen) - len(legible)} "
                     f"illegible, {len(reading.dice)} read; missed: {', '.join(missed) or 'none'}")
        print(f"{k + 1}/{a.count}: {notes[-1]}", file=sys.stderr)
        if a.save:
            cv2.imwrite(str(a.save / "images" / f"heap{k:03d}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (a.save / "labels" / f"heap{k:03d}.txt").write_text(
                "".join(f"{int(r[0]) - 1} {r[1]:.6f} {r[2]:.6f} {r[3]:.6f} {r[4]:.6f}\n" for r in rows))
    if a.save:
        (a.save / "misses.txt").write_text("\n".join(notes) + "\n")
    s = tally.summary()
    print(f"phone heap, seed {a.seed}: {s['images']} photos, {s['labels']} readable dice "
          f"({illegible} illegible, counted neither way), {s['predictions']} reported")
    print(f"{_figures(s)}  read ms median {s['read_ms_median']}")
    print("recall by pose: " + ", ".join(f"{p} {f}/{n}" for p, (n, f) in by_pose.items()))
    side_dice, of_legible, side_values, wrong, by_chance = sides
    print(f"side faces read as dice {side_dice:.0f}, a side's value read for the top {side_values:.0f}")
    if a.sides:
        print(f"side faces read as dice: of legible dice {of_legible:.0f}, of illegible ones (counted "
              f"neither way) {side_dice - of_legible:.0f}; values read wrong {wrong:.0f}, a side's "
              f"{side_values:.0f} (by chance {by_chance:.1f})")
    if a.again:
        print(f"saved again at quality {a.again}: {changed} of {a.count} photos read other dice; "
              f"{_figures(again.summary())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
