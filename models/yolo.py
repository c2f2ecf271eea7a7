"""Reading YOLO-format dice folders (rune55, byler, a capture's export): images beside label
files of (class cx cy w h) rows, checked line by line. No torch here: the evaluator uses it too.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


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
