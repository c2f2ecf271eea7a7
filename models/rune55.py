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


class LabelError(ValueError):
    """A YOLO label file that is not one; the message names the file and line."""


def read_labels(path: Path) -> np.ndarray:
    """Rows of (value 1..6, cx, cy, w, h) from a YOLO label file; none if it is missing."""
    if not path.exists():
        return np.zeros((0, 5), np.float32)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LabelError(f"{path}: not a YOLO label file ({exc})") from None
    rows = [_label_row(path, n, line) for n, line in enumerate(text.splitlines(), 1)
            if line.strip()]
    return np.array(rows, np.float32).reshape(-1, 5)


def _label_row(path: Path, number: int, line: str) -> tuple[float, ...]:
    parts = line.split()
    try:
        if len(parts) != 5:
            raise ValueError(f"{len(parts)} fields, not 5 (class cx cy w h)")
        cls, coords = int(parts[0]), [float(v) for v in parts[1:]]
        if not 0 <= cls <= 5:
            raise ValueError(f"class {cls} is not a die face 0..5")
        if not all(-0.01 <= v <= 1.01 for v in coords):  # NaN fails too
            raise ValueError("coordinates must be 0..1 of the picture")
    except ValueError as exc:
        raise LabelError(f"{path}:{number}: {exc}") from None
    return (cls + 1, *coords)


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
    rows = _group_rows(root / "groups.csv")
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


GROUP_COLUMNS = ("split", "file", "group")


def _group_rows(path: Path) -> list[dict[str, str]]:
    """groups.csv's rows, checked: split, file and a whole-number group on every one."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in GROUP_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise LabelError(f"{path}: no {', '.join(missing)} column (needs split,file,group)")
            rows = list(reader)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise LabelError(f"{path}: not a groups file ({exc})") from None
    for n, row in enumerate(rows, 2):
        if not (row["group"] or "").strip().isdigit() or not row["file"] or not row["split"]:
            raise LabelError(f"{path}:{n}: needs a split, a file and a whole-number group")
        if Path(row["file"]).name != row["file"] or row["split"] in ("", ".", ".."):
            raise LabelError(f"{path}:{n}: a file name or split that leaves the dataset")
    return rows
