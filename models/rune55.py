"""Where the shared datasets are, and rune55 split by photo group.

rune55's own train/valid splits leak near-duplicates, so generalisation is measured on photo
groups held out whole (`groups.csv`): a fixed, seeded 15% of groups is `heldout`, a further 5%
is `tune` (thresholds are chosen there), and the rest is `fit` (training). No torch here: the
evaluator uses this module too.
"""
from __future__ import annotations

import csv
import random
from pathlib import Path

from zonkcam.models.yolo import LabelError, Labelled, read_labels

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
