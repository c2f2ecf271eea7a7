"""Real die faces for the throw simulator, cut from rune55's labelled photos."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


def load_rune55_crops(root: Path, rng: np.random.Generator, per_value: int = 40,
                      images: list[Path] | None = None,
                      min_side: float = 24,
                      labels: dict[Path, np.ndarray] | None = None) -> dict[int, list[np.ndarray]]:
    """Square crops of labelled dice from rune55, a few dozen per face value: from `images`
    (each with its YOLO label file in the `labels` folder beside `images`), default all of
    `train/`; only faces at least `min_side` px across.

    `labels` gives an image's rows (value 1..6, cx, cy, w, h normalised) in place of its label
    file: corrected labels, such as the audited held-out photos' legible dice.

    A simulation passes 1.5 times its die size (`FACE_OVERSIZE`): each face is then shrunk to
    the die, as a camera's lens shows a die that size, never blown up from a blurred few pixels.
    """
    if images is None:
        images = [p.parent.parent / "images" / (p.stem + ".jpg")
                  for p in sorted((root / "train" / "labels").glob("*.txt"))]
    if not images:
        raise FileNotFoundError(f"no images to cut die faces from (rune55 at {root})")
    crops: dict[int, list[np.ndarray]] = {v: [] for v in range(1, 7)}
    for i in rng.permutation(len(images)):
        if all(len(c) >= per_value for c in crops.values()):
            break
        path = images[int(i)].parent.parent / "labels" / (images[int(i)].stem + ".txt")
        if labels is not None:
            rows = [(int(r[0]), *r[1:]) for r in labels.get(images[int(i)], [])]
        elif path.exists():  # YOLO rows: class 0..5, then the box
            rows = [(int(parts[0]) + 1, *(float(v) for v in parts[1:]))
                    for line in path.read_text().split("\n") if len(parts := line.split()) == 5]
        else:
            continue
        image = cv2.imread(str(images[int(i)]))
        if image is None:
            continue
        h, w = image.shape[:2]
        for value, *box in rows:
            cx, cy, bw, bh = (float(v) for v in box)
            side = max(bw * w, bh * h) * 0.8  # the label box holds the die; its face is smaller
            x1, y1 = round(cx * w - side / 2), round(cy * h - side / 2)
            x2, y2 = x1 + round(side), y1 + round(side)
            if value in crops and len(crops[value]) < per_value and side >= min_side and \
                    x1 >= 0 and y1 >= 0 and x2 <= w and y2 <= h and 0.8 < bw * w / (bh * h) < 1.25:
                crops[value].append(image[y1:y2, x1:x2].copy())
    if any(not c for c in crops.values()):
        raise FileNotFoundError(f"{root} has too few labelled dice to cut crops from")
    return crops
