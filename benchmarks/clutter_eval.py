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
drawn (`vision.sim.drawn.draw_die`). Scales: `webcam` (640x480, dice 36-70 px) and `phone`
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
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.evaluate import Tally, match
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.drawn import BODY_BGR, DrawnDie, draw_die

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clutter_draw import DRAW, KINDS, Box, free_box
from scale_eval import surface
from zonkcam.hardware.options import seed as seed_number

# picture (w, h) and the dice's size range on it, px
SCALES = {"webcam": ((640, 480), (36, 70)), "phone": ((4032, 3024), (60, 120))}


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
        box = free_box(rng, taken, w, h, 1.5 * size, 1.5 * size, 0.1 * size)
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
        import zonkcam.vision.second_look as looks  # every read goes through its `read_looked`
        self.module = looks
        self.inner = looks.second_look
        self.seen: list[tuple[float, float, str]] = []
        looks.second_look = self

    def __call__(self, reader, image, found, size, *options):
        out = self.inner(reader, image, found, size, *options)  # capped, light: as given
        for before, after in zip(found, out, strict=True):
            if reader.rejects(after):
                continue
            how = "second" if reader.rejects(before) else "better" if after is not before else "first"
            self.seen.append((after.proposal.cx, after.proposal.cy, how))
        return out

    def close(self) -> None:
        self.module.second_look = self.inner

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
    ap.add_argument("--seed", type=seed_number, default=1)
    ap.add_argument("--dice", choices=("rune55", "drawn"), default="rune55",
                    help="real dice cut from rune55 `fit` photos (drawn where it is missing)")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--scales", default="webcam,phone")
    ap.add_argument("--compare", action="store_true",
                    help="also read each picture without the every-side check (vision.turned): before/after")
    ap.add_argument("--phantoms", type=int, default=0, help="list up to N phantoms (of the last reader)")
    ap.add_argument("--save", help="a folder to write the pictures with phantoms to (last reader)")
    ap.add_argument("--model", help="an .onnx model file (default: the shipped model)")
    args = ap.parse_args()
    kinds, scales = args.kinds.split(","), args.scales.split(",")
    if bad := [k for k in kinds if k not in KINDS] + [s for s in scales if s not in SCALES]:
        print(f"clutter_eval: unknown {', '.join(bad)} (kinds: {', '.join(KINDS)}; scales: "
              f"{', '.join(SCALES)})", file=sys.stderr)
        return 2
    pool = rune55_dice(np.random.default_rng(args.seed + 1000)) if args.dice == "rune55" else []
    rng = np.random.default_rng(args.seed)
    readers = {"reader": Reader(args.model)}
    if args.compare:
        readers = {"without the every-side check": Reader(args.model), "with it": Reader(args.model)}
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
    if log is not None:
        log.close()
    print(f"clutter proxy, seed {args.seed}, {'rune55' if pool else 'drawn'} dice, "
          f"{args.count} pictures per kind and scale")
    for name in readers:
        _table(name, kinds, scales, tallies[name], phantoms[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
