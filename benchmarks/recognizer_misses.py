"""Contact sheets of the recognizer's misses on rune55, for a person to look at.

    python benchmarks/recognizer_misses.py [--split heldout] [--count 48] [--out /tmp/misses]

Reads the split as `zonkcam eval ../shared/datasets/rune55 --split SPLIT` does and matches the
same way (`vision.evaluate.match`), then draws a seeded random sample of each kind of miss from
the photo's own pixels (`faces.patch_at`: 1.6 dice across, scaled to 144 px): `misread.png` (a die found,
its value wrong or missing), `missed.png` (a labelled die nothing was reported for) and
`extra.png` (a die reported where no label is). Each tile is captioned with its index, the
label (L), what was read (R) and the die's size; beside each sheet, `KIND.csv` names each tile's
photo and place (to find it again for the audit). Counts go to stdout, progress to stderr.

This is how the model card's audit of the held-out misses was made: whether a person can read
the top face in the photo, and whether the label agrees with it, cannot be measured by the code.
"""
from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import cv2
import numpy as np
from zonkcam.hardware.options import seed as seed_number
from zonkcam.models.rune55 import GROUP_SPLITS, datasets_root, group_split
from zonkcam.models.rune55_audit import audited_heldout
from zonkcam.vision.evaluate import match, on_ignored
from zonkcam.vision.faces import patch_at
from zonkcam.vision.progress import Progress
from zonkcam.vision.read import Reader

TILE = 144


def tile(image: np.ndarray, cx: float, cy: float, size: float, caption: str) -> np.ndarray:
    out = cv2.resize(patch_at(image, cx, cy, size), (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    cv2.putText(out, caption, (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
    return out


def sheet(tiles: list[np.ndarray], per_row: int = 8) -> np.ndarray:
    tiles = tiles + [np.zeros((TILE, TILE, 3), np.uint8)] * (-len(tiles) % per_row)
    return np.vstack([np.hstack(tiles[i:i + per_row]) for i in range(0, len(tiles), per_row)])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", default="heldout", choices=(*GROUP_SPLITS, "audited"),
                    help="audited: the held-out photos audited by eye (illegible dice ignored)")
    ap.add_argument("--count", type=int, default=48, help="tiles per sheet")
    ap.add_argument("--seed", type=seed_number, default=1)
    ap.add_argument("--out", type=Path, default=Path("/tmp/misses"))
    args = ap.parse_args()
    root = datasets_root() / "rune55"
    if not (root / "groups.csv").exists():
        print(f"rune55 not found at {root} (set ZONKCAM_DATASETS)", file=sys.stderr)
        return 2
    items = audited_heldout(root) if args.split == "audited" else group_split(root, args.split)
    reader = Reader()
    found: dict[str, list[tuple]] = {"misread": [], "missed": [], "extra": []}
    progress = Progress(len(items), "pictures", unit="photo")
    for item in items:
        progress.step()
        image = cv2.imread(str(item.image))
        h, w = image.shape[:2]
        boxes = item.dice[:, 1:] * np.array([w, h, w, h], np.float32)
        dice = reader.read(image).dice
        pairs, free = match(dice, boxes)
        ignore = getattr(item, "ignore", np.zeros((0, 4), np.float32)) * np.array([w, h, w, h])
        dice = [d for d in dice if any(d is e for e, _ in pairs) or not on_ignored(d, ignore)]
        paired = {id(d) for d, _ in pairs}
        for d, j in pairs:
            if d.value != int(item.dice[j, 0]):
                found["misread"].append((item.image, *boxes[j, :2], max(boxes[j, 2:]),
                                         int(item.dice[j, 0]), d.value))
        for j in np.flatnonzero(free):
            found["missed"].append((item.image, *boxes[j, :2], max(boxes[j, 2:]),
                                    int(item.dice[j, 0]), None))
        for d in dice:
            if id(d) not in paired:
                x1, y1, x2, y2 = d.box
                found["extra"].append((item.image, *d.center, max(x2 - x1, y2 - y1), None, d.value))
    progress.close()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    for kind, rows in found.items():
        tiles, index = [], []
        for k, i in enumerate(rng.permutation(len(rows))[:args.count]):
            path, cx, cy, size, label, read = rows[i]
            tiles.append(tile(cv2.imread(str(path)), cx, cy, size,
                              f"{k} L{label or '-'} R{read or '-'} {size:.0f}px"))
            index.append((k, f"{path.parent.parent.name}/{path.name}", round(float(cx)),
                          round(float(cy)), round(float(size)), label or "", read or ""))
        if tiles:
            cv2.imwrite(str(args.out / f"{kind}.png"), sheet(tiles))
            with open(args.out / f"{kind}.csv", "w", newline="") as f:
                csv.writer(f).writerows([("tile", "photo", "x", "y", "size", "label", "read"), *index])
        print(f"{kind}: {len(rows)} ({len(tiles)} drawn in {args.out / (kind + '.png')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
