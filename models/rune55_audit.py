"""rune55's held-out photos with their labels audited by eye (issue 36): `--split audited`.

The corrections live in `rune55_audit.csv` beside this module (no images; rune55 is "Rune55
dataset, Roboflow Universe, CC BY 4.0"). Its columns: `file` (split/name in rune55), `group`
(its photo group), `action`, `label` (a line of the photo's YOLO label file, from 0), `value`
(1..6) and `cx,cy,w,h` (a box normalised to the photo). Actions:

- `ok`: the photo was audited; every label no other row names is right as it is.
- `value`: label `label` holds the wrong face; `value` is the right one.
- `add`: a die the labels miss: `value` and its box.
- `drop`: label `label` is not a pip die (a picture die, a shadow).
- `ignore`: label `label`, or a box, is a die no one can read (dark, blurred, oblique, piled):
  it counts neither as found nor as missed, and a die reported inside it is not counted.

Only photos with an `ok` row are in the subset, so a half-audited photo is never scored.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from zonkcam.models.rune55 import group_split
from zonkcam.models.yolo import LabelError, Labelled

AUDIT_CSV = Path(__file__).resolve().parent / "rune55_audit.csv"
COLUMNS = ("file", "group", "action", "label", "value", "cx", "cy", "w", "h")
ACTIONS = ("ok", "value", "add", "drop", "ignore")


@dataclass(frozen=True, slots=True)
class Audited(Labelled):
    """A photo with audited dice, and the boxes (cx, cy, w, h normalised) not to be counted."""

    ignore: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))


@dataclass
class Audit:
    """One photo's rows: what to change in its labels."""

    group: str
    done: bool = False
    values: dict[int, int] = field(default_factory=dict)
    drops: set[int] = field(default_factory=set)
    ignored: set[int] = field(default_factory=set)
    added: list[tuple[int, float, float, float, float]] = field(default_factory=list)
    ignore_boxes: list[tuple[float, float, float, float]] = field(default_factory=list)

    def apply(self, labels: np.ndarray, where: str) -> tuple[np.ndarray, np.ndarray]:
        """(labels, ignore boxes) after the corrections; LabelError names a label that is not there."""
        named = set(self.values) | self.drops | self.ignored
        if named and max(named) >= len(labels):
            raise LabelError(f"{where}: label {max(named)} of {len(labels)}")
        rows, ignore = [], list(self.ignore_boxes)
        for i, row in enumerate(labels):
            if i in self.ignored:
                ignore.append(tuple(row[1:]))
            elif i not in self.drops:
                rows.append((self.values.get(i, row[0]), *row[1:]))
        rows += self.added
        return (np.array(rows, np.float32).reshape(-1, 5), np.array(ignore, np.float32).reshape(-1, 4))


def load_audit(path: Path = AUDIT_CSV) -> dict[str, Audit]:
    """The audit file: split/name -> its corrections. LabelError names the bad line."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(line for line in f if not line.startswith("#"))
            rows = list(reader)
            if tuple(reader.fieldnames or ()) != COLUMNS:
                raise LabelError(f"{path}: header must be {','.join(COLUMNS)}")
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise LabelError(f"{path}: not an audit file ({exc})") from None
    audits: dict[str, Audit] = {}
    for n, row in enumerate(rows, 1):
        try:
            _add_row(audits.setdefault(row["file"], Audit(row["group"])), row)
        except (ValueError, TypeError) as exc:
            raise LabelError(f"{path}: row {n} ({row.get('file')}): {exc}") from None
    return audits


def _add_row(audit: Audit, row: dict[str, str]) -> None:
    action = row["action"]
    if action not in ACTIONS:
        raise ValueError(f"action {action!r} is not one of {', '.join(ACTIONS)}")
    if action == "ok":
        audit.done = True
        return
    label = int(row["label"]) if row["label"] else None
    value = int(row["value"]) if row["value"] else None
    box = (float(row["cx"]), float(row["cy"]), float(row["w"]), float(row["h"])) if row["cx"] else None
    if value is not None and not 1 <= value <= 6:
        raise ValueError(f"value {value} is not a face 1..6")
    if box is not None and not all(0 <= v <= 1 for v in box):
        raise ValueError("a box must be 0..1 of the photo")
    if action == "value" and label is not None and value is not None:
        audit.values[label] = value
    elif action == "drop" and label is not None:
        audit.drops.add(label)
    elif action == "add" and value is not None and box is not None:
        audit.added.append((value, *box))
    elif action == "ignore" and label is not None and box is None:
        audit.ignored.add(label)
    elif action == "ignore" and label is None and box is not None:
        audit.ignore_boxes.append(box)
    else:
        raise ValueError(f"{action} needs " + {"value": "a label and a value", "drop": "a label",
                                                "add": "a value and a box",
                                                "ignore": "a label or a box"}[action])


def audited_heldout(root: Path, path: Path = AUDIT_CSV) -> list[Audited]:
    """rune55's audited held-out photos (those with an `ok` row), labels corrected, by name."""
    audits = {f: a for f, a in load_audit(path).items() if a.done}
    out = []
    for item in group_split(root, "heldout"):
        key = f"{item.image.parent.parent.name}/{item.image.name}"
        if key in audits:
            labels, ignore = audits.pop(key).apply(item.dice, f"{path}: {key}")
            out.append(Audited(item.image, labels, ignore))
    if audits:
        raise LabelError(f"{path}: {len(audits)} audited photos are not held-out rune55 photos "
                         f"(first: {next(iter(audits))})")
    return out
