"""The drawn 480x360 tables of the model card, die by die (issue 36, "drift on drawn tables").

    python benchmarks/drift_eval.py [--count 100] [--size 480x360] [--seed 3] [--model PATH]

Draws the tables exactly as `python -m zonkcam.vision.sim.drawn OUT --count 100 --size 480x360
--seed 3` writes them (same random stream, the same JPEG quality 92, decoded again), reads each
with the reader and matches as `zonkcam eval` does. Prints the figures, then every die missed
(table, surface, colour, value, size, angle, and what the reader made of its place: a die read
there that lost the match, a rejected candidate, or nothing) and every die read where none lies.
Runs with any commit's code: put a folder holding a `zonkcam` link to that commit's worktree
(vision/, models/, ... as pyproject's package-dir maps them) first on PYTHONPATH.
"""
from __future__ import annotations

import argparse

import cv2
import numpy as np
from zonkcam.hardware.options import seed as seed_number
from zonkcam.vision.read import Reader

try:
    from zonkcam.vision.sim.drawn import render_scene
except ImportError:  # a commit before 0e8420b (vision/synthetic.py, the same code)
    from zonkcam.vision.synthetic import render_scene  # type: ignore[no-redef]

try:
    from zonkcam.vision.evaluate import match
except ImportError:  # a commit before evaluate.match: `zonkcam eval`'s matching then, the same rule
    def match(dice, boxes):  # type: ignore[misc]
        free = np.ones(len(boxes), bool)
        pairs = []
        for d in sorted(dice, key=lambda d: -d.confidence):
            x, y = d.center
            inside = free & (np.abs(x - boxes[:, 0]) <= boxes[:, 2] / 2) \
                & (np.abs(y - boxes[:, 1]) <= boxes[:, 3] / 2)
            if inside.any():
                cand = np.nonzero(inside)[0]
                j = int(cand[np.argmin(np.hypot(x - boxes[cand, 0], y - boxes[cand, 1]))])
                free[j] = False
                pairs.append((d, j))
        return pairs, free

KINDS = ("felt", "wood", "paper", "dark")


def tables(count: int, width: int, height: int, seed: int):
    """(index, surface, decoded picture, drawn dice) as `drawn.write_yolo_folder` makes them."""
    rng = np.random.default_rng(seed)
    for i in range(count):
        size = min(width, height) * rng.uniform(0.05, 0.12)
        kind = KINDS[i % len(KINDS)]
        image, dice = render_scene(rng, width, height, n=int(rng.integers(1, 7)), size=size, kind=kind)
        ok, jpg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        assert ok
        yield i, kind, cv2.imdecode(jpg, cv2.IMREAD_COLOR), dice


def _said(dice) -> str:
    """Values and sureness of reads (None: rejected)."""
    return ", ".join(f"{d.value}@{d.confidence:.2f}" for d in dice) or "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--size", default="480x360", metavar="WxH")
    ap.add_argument("--seed", type=seed_number, default=3)
    ap.add_argument("--model", default=None, help="an .onnx file (default: the shipped model)")
    a = ap.parse_args()
    w, h = (int(v) for v in a.size.lower().split("x"))
    reader = Reader(a.model)
    tp = fp = labelled = right = exact = 0
    lines = []
    for i, kind, image, drawn in tables(a.count, w, h, a.seed):
        reading = reader.read(image)
        boxes = np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2, b[2] - b[0], b[3] - b[1]]
                          for b in (d.box for d in drawn)], float).reshape(-1, 4)
        pairs, free = match(reading.dice, boxes)
        good = sum(d.value == drawn[j].value for d, j in pairs)
        tp, fp, labelled, right = tp + len(pairs), fp + len(reading.dice) - len(pairs), \
            labelled + len(drawn), right + good
        exact += int(len(pairs) == len(drawn) == len(reading.dice) and good == len(pairs))
        matched = {id(d) for d, _ in pairs}
        for j in np.nonzero(free)[0]:
            d = drawn[j]
            around = [r for r in reading.dice + reading.rejected
                      if abs(r.center[0] - d.cx) < 0.7 * d.size and abs(r.center[1] - d.cy) < 0.7 * d.size]
            read = [r for r in around if r in reading.dice]
            lines.append(f"miss  t{i:02d} {kind:5s} {d.color:6s} {d.value} {d.size:5.1f} px "
                         f"{d.angle:4.0f} deg"
                         f"  read there: {_said(read)}"
                         f"  rejected there: {_said([r for r in around if r not in read])}")
        for d, j in pairs:
            if d.value != drawn[j].value:
                lines.append(f"value t{i:02d} {kind:5s} {drawn[j].color:6s} {drawn[j].value} -> {d.value}"
                             f" ({d.confidence:.2f}) {drawn[j].size:5.1f} px")
        for d in reading.dice:
            if id(d) not in matched:
                lines.append(f"extra t{i:02d} {kind:5s} {d.value} ({d.confidence:.2f}) at "
                             f"{d.center[0]:.0f},{d.center[1]:.0f} "
                             f"{d.box[2] - d.box[0]}x{d.box[3] - d.box[1]} px")
    print(f"tables {a.count}, dice {labelled}: precision {tp / max(1, tp + fp):.4f} recall "
          f"{tp / max(1, labelled):.4f} value {right / max(1, tp):.4f} exact {exact}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
