"""Reading YOLO-format dice folders (rune55, byler) and splitting rune55 by photo group.

rune55's own train/valid splits leak near-duplicates, so generalisation is measured on photo
groups held out whole (`groups.csv`): a fixed, seeded 15% of groups is `heldout`, a further 5%
is `tune` (thresholds are chosen there), and the rest is `fit` (training). No torch here: the
evaluator uses this module too.
"""
from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATASETS = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets"
SPLIT_SEED = 7
HELDOUT_FRACTION = 0.15
TUNE_FRACTION = 0.05
GROUP_SPLITS = ("fit", "tune", "heldout")


def datasets_root() -> Path:
    """Where the shared datasets live: `$ZONKCAM_DATASETS`, else `../shared/datasets`."""
    import os

    env = os.environ.get("ZONKCAM_DATASETS")
    return Path(env) if env else DATASETS


@dataclass(frozen=True, slots=True)
class Labelled:
    """One image and its dice: rows of (value 1..6, cx, cy, w, h) normalised to the image."""

    image: Path
    dice: np.ndarray  # shape (n, 5), float32


def read_labels(path: Path) -> np.ndarray:
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 5:
                c, x, y, w, h = map(float, parts)
                rows.append((int(c) + 1, x, y, w, h))
    return np.array(rows, np.float32).reshape(-1, 5)


def yolo_folder(folder: Path) -> list[Labelled]:
    """Every image of a YOLO folder (`images/` beside `labels/`), sorted by name."""
    images = folder / "images"
    if not images.is_dir():
        raise FileNotFoundError(f"{folder} has no images/ folder (expected YOLO layout)")
    out = []
    for p in sorted(images.iterdir()):
        if p.suffix.lower() in {".jpg", ".jpeg", ".png", ".bmp"}:
            out.append(Labelled(p, read_labels(folder / "labels" / f"{p.stem}.txt")))
    return out


def group_split(root: Path, name: str) -> list[Labelled]:
    """Images of rune55 (both splits) whose photo group falls in split `name` (fit/tune/heldout)."""
    if name not in GROUP_SPLITS:
        raise ValueError(f"unknown split {name!r}; choose from {', '.join(GROUP_SPLITS)}")
    with open(root / "groups.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    groups = sorted({r["group"] for r in rows}, key=int)
    random.Random(SPLIT_SEED).shuffle(groups)
    n_held = round(len(groups) * HELDOUT_FRACTION)
    n_tune = round(len(groups) * TUNE_FRACTION)
    chosen = {
        "heldout": set(groups[:n_held]),
        "tune": set(groups[n_held:n_held + n_tune]),
        "fit": set(groups[n_held + n_tune:]),
    }[name]
    out = []
    for r in sorted(rows, key=lambda r: (r["split"], r["file"])):
        if r["group"] in chosen:
            img = root / r["split"] / "images" / r["file"]
            lab = root / r["split"] / "labels" / f"{Path(r['file']).stem}.txt"
            out.append(Labelled(img, read_labels(lab)))
    return out
