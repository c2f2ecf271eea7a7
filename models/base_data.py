"""Base data mixed into fine-tuning against forgetting, and scored to measure it.

`--base rune55` takes rune55's photos (when present), a YOLO folder its labelled pictures, and
otherwise drawn dice (`vision.sim.drawn`); each with reject views (table, off-centre). Forgetting
is scored on data never trained on: rune55's held-out groups, else drawn dice of a fixed seed.
"""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
from zonkcam.models.crops import reject_patches, stack_patches
from zonkcam.models.frames import SPLIT_SEED, CapturedFrame, LabelledDie
from zonkcam.models.rune55 import datasets_root, group_split
from zonkcam.models.train_extra import TrainError
from zonkcam.models.yolo import Labelled, yolo_folder
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, patch_at
from zonkcam.vision.sim.drawn import BODY_BGR, DrawnDie, background, draw_die

BASE_EVAL_DICE = 600  # drawn dice scored for forgetting (a fixed seed, never trained on)

Patches = tuple[np.ndarray, np.ndarray]  # (patches, labels 0..6)


def base_data_for(base: str | None, n: int, rng: np.random.Generator) -> tuple[str, Patches, Patches]:
    """(kind, about `n` labelled patches to train on, patches to score forgetting on) for `--base`:
    "rune55", a YOLO folder, or anything else (None, a .onnx base model): drawn dice."""
    if base == "rune55" and rune55_present():
        return "rune55", rune55_base("fit", n, rng), rune55_base("heldout", BASE_EVAL_DICE,
                                                                 np.random.default_rng(SPLIT_SEED))
    if base and base != "rune55" and not base.endswith(".onnx"):
        folder = Path(base)
        if not (folder / "images").is_dir():
            raise TrainError(f"--base {base}: not rune55, a YOLO folder or a .onnx model")
        return f"YOLO folder {folder}", yolo_base(folder, n, rng), drawn_dice(
            BASE_EVAL_DICE, np.random.default_rng(SPLIT_SEED))
    kind = "drawn dice" + (" (rune55 not found)" if base == "rune55" else "")
    return kind, drawn_dice(n, rng), drawn_dice(BASE_EVAL_DICE, np.random.default_rng(SPLIT_SEED))


def drawn_dice(n: int, rng: np.random.Generator) -> Patches:
    """`n` drawn pip dice in reader-style patches (labels 1..6) plus n/2 drawn rejects (0)."""
    die = PATCH / PATCH_MARGIN
    kinds = ["felt", "wood", "paper", "dark"]
    patches, labels = [], []
    for i in range(n + n // 2):
        img = background(rng, PATCH, PATCH, kinds[i % 4])
        value = int(rng.integers(1, 7))
        # a positive is centred; a reject is a die seen off-centre or bare table
        off = 0.0 if i < n else rng.choice([0.0, 1.0]) * rng.uniform(0.75, 1.0) * die
        a = rng.uniform(0, 2 * math.pi)
        if i < n or off:
            draw_die(img, DrawnDie(value, str(rng.choice(list(BODY_BGR))),
                                   PATCH / 2 + off * math.cos(a), PATCH / 2 + off * math.sin(a),
                                   die * rng.uniform(0.92, 1.05), rng.uniform(0, 90)))
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
        patches.append(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        labels.append(value if i < n else 0)
    return np.stack(patches), np.array(labels, np.int64)


def yolo_base(folder: Path, n: int, rng: np.random.Generator) -> Patches:
    """About `n` labelled dice (and their reject views) from a YOLO folder such as rune55."""
    items = yolo_folder(folder) if (folder / "images").is_dir() else []
    return _labelled_items(items, n, rng, folder)


def rune55_base(split: str, n: int, rng: np.random.Generator) -> Patches:
    return _labelled_items(group_split(datasets_root() / "rune55", split), n, rng, "rune55")


def rune55_present() -> bool:
    return (datasets_root() / "rune55" / "groups.csv").is_file()


def _labelled_items(items: list[Labelled], n: int, rng: np.random.Generator, where: object) -> Patches:
    """Whole pictures in random order until about `n` dice: each die and its reject views."""
    if not items:
        raise TrainError(f"{where}: no labelled images for base data")
    patches: list[np.ndarray] = []
    labels: list[int | None] = []
    for i in rng.permutation(len(items)):
        if len(labels) >= n:
            break
        item = items[int(i)]
        image = cv2.imread(str(item.image), cv2.IMREAD_GRAYSCALE)
        if image is None:
            continue
        h, w = image.shape
        dice = [LabelledDie(int(v), cx * w, cy * h, max(bw * w, bh * h), True, True)
                for v, cx, cy, bw, bh in item.dice]
        for d in dice:
            patches.append(patch_at(image, d.cx, d.cy, d.size))
            labels.append(d.value)
        frame = CapturedFrame("", item.image, tuple(dice))
        rejects = reject_patches([frame], rng, per_frame=1)
        patches += list(rejects)
        labels += [0] * len(rejects)
    return stack_patches(patches), np.array(labels, np.int64)
