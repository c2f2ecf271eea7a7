"""The recognizer at scales rune55 never shows (issue 36): tiny dice in a big photo, and one
die filling the picture.

    python benchmarks/scale_eval.py [--split tune|heldout|audited] [--limit N] [--seed S]
                                    [--proxies as-is,phone,tiny,touching,close-up]
                                    [--proxies pi-tray,pi-drawn] [--compare] [--merged]

Proxies made from rune55's photo groups (tune on `tune`, report `heldout`, or `audited`: the
held-out photos whose labels were audited by eye, where illegible dice are pasted with the others
and not counted either way, so that the figures measure the reader rather than rune55's labels):
- `as-is`: the 640x640 photo.
- `phone`: the photo's dice cut out (with a fading margin), shrunk to 40-110 px across and
  heaped at a random place on a 4032x3024 "phone photo" (a grained, unevenly lit surface), as
  issue 36's 12 MP stills of small dice in a bowl.
- `tiny`: the same with dice of 12-30 px on a 1280x960 webcam picture.
- `touching`: the dice cut out along their silhouettes (GrabCut in their label boxes; where that
  fails, the box), 60-120 px across on an 8 MP dark tray, each pushed against one already placed
  until 1-3 px apart, as issue 36's Pi-camera stills where two touching dice got one box.
- `close-up`: each die with no other die's centre near it, cut out with a margin of 0.1-0.3
  of its side, as the single-die crops of issue 36 (their own size, ~40-200 px). The margins
  come from the generator `phone` and `tiny` draw from first: `--proxies close-up` alone cuts
  other crops than the default set (seed 37 at 3da8245: precision .9777 alone, .9464 in the
  default set; issue 36 round 10).
- `pi-tray` (not in the default set): one still a photo of 5-8 dice of one size, 80-140 px, on an
  8 MP dark tray, two or three pairs of them touching (a third of the stills a row or an L of
  three), the rest alone; the dice drawn at random from all the photos' legible dice, cut along
  their silhouettes (`benchmarks/pi_tray.py`), as issue 36's hidden Pi-camera tray stills.
- `pi-drawn` (not in the default set): the same stills with dice drawn by `vision.sim.drawn`.

Prints precision / recall / value accuracy / exact-image rate, the read time and the median of
read ÷ decode (each picture's JPEG decoded in the same run) per proxy (`--merged`: with a big
still's views merged die by die, `Reader.merged_views`); `--compare`: also for the
reader without touching dice parted (`vision.touching`), on the same pictures.
Needs ../shared/datasets/rune55 (or ZONKCAM_DATASETS).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import cv2
import numpy as np
from zonkcam.models.rune55 import datasets_root, group_split
from zonkcam.models.rune55_audit import audited_heldout
from zonkcam.vision.evaluate import Tally
from zonkcam.vision.progress import Progress
from zonkcam.vision.read import Reader

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pi_tray  # a benchmark beside this one
from zonkcam.hardware.options import seed as seed_number

# canvas (w, h) and the range of die sizes on it, px
PASTED = {"phone": ((4032, 3024), (40, 110)), "tiny": ((1280, 960), (12, 30))}
TOUCHING = ((3280, 2464), (60, 120))  # an 8 MP Pi still and its dice


def surface(rng: np.random.Generator, w: int, h: int, dark: bool = False) -> np.ndarray:
    """A grained, unevenly lit table (wood, cloth) of `w`x`h`, BGR; `dark`: a dark tray's floor."""
    small = rng.normal(0, 1, (h // 64 + 2, w // 64 + 2)).astype(np.float32)
    grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    streaks = cv2.resize(rng.normal(0, 1, (h // 8, 4)).astype(np.float32), (w, h))
    base = rng.uniform(15, 50) if dark else rng.uniform(60, 190)
    tint = rng.uniform(0.7, 1.15, 3).astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 + 0.25 * np.cos(xx / w * rng.uniform(1, 4) + yy / h * rng.uniform(1, 4))
    grey = (base + 12 * grain + 8 * streaks) * light
    return np.clip(grey[..., None] * tint, 0, 255).astype(np.uint8)


def pasted(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator, proxy: str
           ) -> tuple[np.ndarray, np.ndarray]:
    """The photo's dice, each cut out in its box with a fading margin, shrunk to the proxy's die size
    and scattered without overlap over a patch of a surface of the proxy's size."""
    (cw, ch), px = PASTED[proxy]
    h, w = image.shape[:2]
    boxes = dice[:, 1:] * np.array([w, h, w, h], np.float32)
    k = rng.uniform(*px) / float(np.median(boxes[:, 2:].max(axis=1)))
    canvas = surface(rng, cw, ch).astype(np.float32)
    # a heap, not a scatter (a die that finds no free place in it is left out, label and all)
    spread = min(4 * k * float(boxes[:, 2:].max()) * np.sqrt(len(boxes)), 0.9 * min(cw, ch))
    x_lo, y_lo = rng.uniform(0, cw - spread), rng.uniform(0, ch - spread)
    placed: list[tuple[float, float, float]] = []
    out = []
    pad = int(boxes[:, 2:].max()) + 2
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    for (value, *_), (cx, cy, bw, bh) in zip(dice, boxes, strict=True):
        half = round(0.8 * max(bw, bh))
        x0, y0 = round(cx) - half + pad, round(cy) - half + pad
        side = max(4, round(2 * half * k))
        scale = side / (2 * half)
        patch = cv2.resize(padded[y0:y0 + 2 * half, x0:x0 + 2 * half], (side, side),
                           interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
        for _ in range(50):
            px0, py0 = rng.uniform(x_lo, x_lo + spread), rng.uniform(y_lo, y_lo + spread)
            if px0 + side < cw and py0 + side < ch and all(
                    (abs(px0 - qx) > (side + qs) / 2 or abs(py0 - qy) > (side + qs) / 2)
                    for qx, qy, qs in placed):
                break
        else:
            continue
        placed.append((px0, py0, side))
        # the die's box and a tenth more, its edge fading over a twentieth of the die
        yy, xx = np.mgrid[0:side, 0:side].astype(np.float32) - side / 2
        reach = np.maximum(np.abs(xx) / (bw * scale), np.abs(yy) / (bh * scale))
        alpha = np.clip((0.6 - reach) / 0.05, 0, 1)[..., None]
        ix, iy = round(px0), round(py0)
        region = canvas[iy:iy + side, ix:ix + side]
        region[:] = alpha * patch + (1 - alpha) * region
        # the die's centre: where it lay in its patch (rounding moved it), scaled
        dx, dy = (cx - round(cx) + half) * scale, (cy - round(cy) + half) * scale
        out.append([value, (ix + dx) / cw, (iy + dy) / ch, bw * scale / cw, bh * scale / ch])
    noisy = canvas + rng.normal(0, 3, canvas.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), np.array(out, np.float32).reshape(-1, 5)


def silhouette(patch: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The die's own pixels in a patch (float 0..1, feathered by a pixel): GrabCut seeded with
    its label box, so a die turned in its box leaves the photo's table behind."""
    mask = np.zeros(patch.shape[:2], np.uint8)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    try:
        cv2.grabCut(patch, mask, box, bgd, fgd, 3, cv2.GC_INIT_WITH_RECT)
        die = ((mask == cv2.GC_FGD) | (mask == cv2.GC_PR_FGD)).astype(np.uint8)
    except cv2.error:
        die = np.zeros(patch.shape[:2], np.uint8)
    if die.sum() < 0.4 * box[2] * box[3]:  # GrabCut lost it: the box, as it is
        die[:] = 0
        die[box[1]:box[1] + box[3], box[0]:box[0] + box[2]] = 1
    count, labels, stats, _ = cv2.connectedComponentsWithStats(die)
    if count > 2:  # the largest piece: a speck of the table beside it is not the die
        die = (labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))).astype(np.uint8)
    return cv2.GaussianBlur(die.astype(np.float32), (3, 3), 0)


def touching(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator
             ) -> tuple[np.ndarray, np.ndarray]:
    """The photo's dice cut out along their silhouettes, 60-120 px across, on an 8 MP dark
    tray, each after the first pushed against one already placed until their silhouettes are
    1-3 px apart (issue 36's Pi-camera stills, where two touching dice got one box)."""
    (cw, ch), px = TOUCHING
    h, w = image.shape[:2]
    boxes = dice[:, 1:] * np.array([w, h, w, h], np.float32)
    k = rng.uniform(*px) / float(np.median(boxes[:, 2:].max(axis=1)))
    canvas = surface(rng, cw, ch, dark=True).astype(np.float32)
    taken = np.zeros((ch, cw), bool)
    pad = int(boxes[:, 2:].max()) + 2
    padded = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_REFLECT)
    centres: list[tuple[float, float]] = []
    out = []
    for (value, *_), (cx, cy, bw, bh) in zip(dice, boxes, strict=True):
        half = round(0.7 * max(bw, bh))
        x0, y0 = round(cx) - half + pad, round(cy) - half + pad
        cut = padded[y0:y0 + 2 * half, x0:x0 + 2 * half]
        box = (round(half - bw / 2), round(half - bh / 2), max(2, round(bw)), max(2, round(bh)))
        side = max(8, round(2 * half * k))
        patch = cv2.resize(cut, (side, side), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_CUBIC)
        alpha = cv2.resize(silhouette(cut, box), (side, side))
        solid = alpha > 0.5
        # where the die's centre lies in its patch
        dx, dy = (cx - round(cx) + half) * side / (2 * half), (cy - round(cy) + half) * side / (2 * half)
        spot = _pushed(taken, solid, centres, dx, dy, side, rng)
        if spot is None:
            continue
        ix, iy = spot
        taken[iy:iy + side, ix:ix + side] |= cv2.dilate(solid.astype(np.uint8), np.ones((3, 3))) > 0
        region = canvas[iy:iy + side, ix:ix + side]
        region[:] = alpha[..., None] * patch + (1 - alpha[..., None]) * region
        centres.append((ix + dx, iy + dy))
        out.append([value, (ix + dx) / cw, (iy + dy) / ch, bw * k / cw, bh * k / ch])
    noisy = canvas + rng.normal(0, 3, canvas.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), np.array(out, np.float32).reshape(-1, 5)


def _pushed(taken: np.ndarray, solid: np.ndarray, centres: list[tuple[float, float]], dx: float,
            dy: float, side: int, rng: np.random.Generator) -> tuple[int, int] | None:
    """The patch's top-left corner for a die (`solid`: its pixels) as close to a die already
    placed as it goes without overlap, coming from a random direction; the first die anywhere."""
    ch, cw = taken.shape
    if not centres:
        return int(rng.uniform(0.2, 0.7) * cw), int(rng.uniform(0.2, 0.7) * ch)
    for _ in range(20):
        ax, ay = centres[rng.integers(len(centres))]
        turn = rng.uniform(0, 2 * np.pi)
        ux, uy = np.cos(turn), np.sin(turn)
        best = None
        for r in np.arange(1.2 * side, 0, -1.0):  # walk in until the dice would overlap
            ix, iy = round(ax + r * ux - dx), round(ay + r * uy - dy)
            if ix < 0 or iy < 0 or ix + side > cw or iy + side > ch:
                break
            if (taken[iy:iy + side, ix:ix + side] & solid).any():
                break
            best = (ix, iy)
        if best is not None:
            return best
    return None


def close_ups(image: np.ndarray, dice: np.ndarray, rng: np.random.Generator
              ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each die alone in a crop a little larger than it (none whose crop holds another die's
    centre)."""
    h, w = image.shape[:2]
    boxes = dice[:, 1:] * np.array([w, h, w, h], np.float32)
    out = []
    for i, (cx, cy, bw, bh) in enumerate(boxes):
        side = max(bw, bh) * (1 + 2 * rng.uniform(0.1, 0.3))
        if dice[i, 0] == 0:
            continue  # an illegible die (audited): no crop of its own
        x0, y0 = round(cx - side / 2), round(cy - side / 2)
        x1, y1 = round(cx + side / 2), round(cy + side / 2)
        if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
            continue
        others = np.delete(boxes, i, axis=0)
        if ((others[:, 0] > x0) & (others[:, 0] < x1) & (others[:, 1] > y0)
                & (others[:, 1] < y1)).any():
            continue
        cw, ch = x1 - x0, y1 - y0
        label = np.array([[dice[i, 0], (cx - x0) / cw, (cy - y0) / ch, bw / cw, bh / ch]],
                         np.float32)
        out.append((image[y0:y1, x0:x1].copy(), label))
    return out


def cut_pool(items: list) -> list:
    """Every legible die of the photos, cut along its silhouette (`pi_tray.cutouts`)."""
    pool = []
    for item in items:
        image = cv2.imread(str(item.image))
        if image is not None:
            pool += pi_tray.cutouts(image, item.dice)
    return pool


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="tune", choices=("tune", "heldout", "audited"),
                    help="audited: the held-out photos with labels audited by eye (illegible "
                         "dice pasted too, and not counted)")
    ap.add_argument("--limit", type=int, default=120, help="photos (default: 120)")
    ap.add_argument("--seed", type=seed_number, default=36)
    ap.add_argument("--proxies", default="as-is,phone,tiny,touching,close-up")
    ap.add_argument("--model", help="an .onnx model file (default: the shipped model)")
    ap.add_argument("--compare", action="store_true",
                    help="also read each picture without touching dice parted (`vision.touching`, "
                         "issue 36 round 3): rows 'PROXY, unparted'")
    ap.add_argument("--merged", action="store_true", help="a big still's views merged die by die "
                    "(`Reader.merged_views`, `vision.merged`; off by default)")
    args = ap.parse_args()
    root = datasets_root() / "rune55"
    if not (root / "groups.csv").is_file():
        print(f"scale_eval: needs {root} (rune55); skipped", file=sys.stderr)
        return 0
    items = audited_heldout(root) if args.split == "audited" else group_split(root, args.split)
    random.Random(args.seed).shuffle(items)
    items = [it for it in items if len(it.dice)][:args.limit]
    rng = np.random.default_rng(args.seed)
    touching_rng = np.random.default_rng(args.seed + 1)  # the other proxies' pictures as before
    pi_rng = np.random.default_rng(args.seed + 2)
    reader = Reader(args.model)
    reader.merged_views = args.merged
    proxies = args.proxies.split(",")
    unknown = set(proxies) - {"as-is", *PASTED, "touching", "close-up", "pi-tray", "pi-drawn"}
    if unknown:
        print(f"scale_eval: no proxy {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    pool = cut_pool(items) if "pi-tray" in proxies else []
    tallies = {p: Tally() for p in proxies}
    readers = [("", reader)]
    if args.compare:
        unparted = Reader(args.model)
        unparted.part_touching = False
        unparted.merged_views = args.merged
        readers.append((", unparted", unparted))
        tallies.update({p + ", unparted": Tally() for p in proxies})
    progress = Progress(len(items), "scale_eval", unit="photo")
    for item in items:
        progress.step()
        image = cv2.imread(str(item.image))
        if image is None:
            continue
        # an illegible die (audited) travels with the others as value 0, and is not counted
        ignore = getattr(item, "ignore", np.zeros((0, 4), np.float32))
        dice = np.vstack([item.dice, np.hstack([np.zeros((len(ignore), 1), np.float32), ignore])])
        cases: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {
            "as-is": [(image, dice)],
            **{p: [pasted(image, dice, rng, p)] for p in PASTED if p in proxies},
            "touching": [touching(image, dice, touching_rng)] if "touching" in proxies else [],
            "close-up": close_ups(image, dice, rng) if "close-up" in proxies else [],
            "pi-tray": [pi_tray.rune55_still(pool, pi_rng)] if pool else [],
            "pi-drawn": [pi_tray.drawn_still(pi_rng)] if "pi-drawn" in proxies else [],
        }
        for proxy in proxies:
            for picture, rows in cases[proxy]:
                labels, ignored = rows[rows[:, 0] > 0], rows[rows[:, 0] == 0, 1:]
                # the decode of the picture as a camera would hand it over (JPEG), this run
                encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
                t0 = time.perf_counter()
                cv2.imdecode(encoded, cv2.IMREAD_COLOR)
                decode_ms = (time.perf_counter() - t0) * 1000
                for suffix, one in readers:
                    tally = tallies[proxy + suffix]
                    tally.decode_ms.append(decode_ms)
                    reading = one.read(picture)
                    tally.read_ms.append(reading.elapsed_ms)
                    tally.add(reading.dice, labels, reading.width, reading.height, ignore=ignored)
    progress.close()
    print(f"rune55 {args.split} groups, {len(items)} photos, seed {args.seed}")
    print("| proxy | pictures | dice | precision | recall | value acc. | exact | read ms median "
          "| read ÷ decode |")
    print("|---|---|---|---|---|---|---|---|---|")
    for proxy, t in tallies.items():
        s = t.summary()
        print(f"| {proxy} | {s['images']} | {s['labels']} | {s['precision']} | {s['recall']} | "
              f"{s['value_accuracy']} | {s['exact_image_rate']} | {s['read_ms_median']} | "
              f"{s['read_decode_ratio_median']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
