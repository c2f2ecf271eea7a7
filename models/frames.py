"""Captured frames with their labelled dice, and the fixed split that holds some back.

A frame comes from a capture folder as `models.captures.CaptureSet` writes it (labels from
`meta/`) or from a plain YOLO folder (`images/` + `labels/`, taken as verified). A die is
verified when a person set its value; the recognizer's other reads only say whether it was sure.
"""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path

import cv2
from zonkcam.models.captures import set_by_person
from zonkcam.models.train_extra import TrainError

SPLIT_SEED = 11  # the held-back/validation split of captured frames, fixed across runs
HELD_FRACTION = 0.25
VAL_FRACTION = 0.15


@dataclass(frozen=True, slots=True)
class LabelledDie:
    value: int | None  # 1..6; 0: not a pip die (a person said so); None: unknown
    cx: float
    cy: float
    size: float
    verified: bool  # a person looked at it (a reviewed frame, or a plain YOLO label)
    confident: bool  # the recognizer was sure (not flagged)
    bad_crop: bool = False  # a person said the box is no single die: never trained on, nor relabelled


@dataclass(frozen=True, slots=True)
class CapturedFrame:
    key: str  # "folder-name/frame-name", unique across datasets
    image: Path
    dice: tuple[LabelledDie, ...]

    @property
    def verified(self) -> bool:
        return any(d.verified for d in self.dice)


def load_frames(folder: Path) -> list[CapturedFrame]:
    """Every frame of a capture folder (meta/ present) or a plain YOLO folder."""
    if not folder.is_dir():
        raise TrainError(f"{folder}: no such folder")
    if not (folder / "images").is_dir():
        raise TrainError(f"{folder}: not a dataset (no images/ folder; expected a capture or YOLO folder)")
    frames = _captured_frames(folder) if (folder / "meta").is_dir() else _yolo_frames(folder)
    if not frames:
        raise TrainError(f"{folder}: no images with labels in it")
    return frames


def _captured_frames(folder: Path) -> list[CapturedFrame]:
    """The frames of a capture folder that still have their picture, labelled from meta/."""
    frames = []
    for meta_path in sorted((folder / "meta").glob("*.json")):
        image = folder / "images" / f"{meta_path.stem}.jpg"
        try:
            meta = json.loads(meta_path.read_text())
            reviewed = bool(meta.get("reviewed"))
            dice = [_captured_die(d, reviewed) for d in meta["dice"]]
        except (ValueError, KeyError, TypeError) as exc:
            raise TrainError(f"{meta_path}: unreadable capture metadata ({exc})") from None
        if image.is_file():
            frames.append(CapturedFrame(f"{folder.name}/{meta_path.stem}", image, tuple(dice)))
    return frames


def _captured_die(d: dict, reviewed: bool) -> LabelledDie:
    """A die of a capture's metadata: its value when read or set (0 when a person said it is no
    die), verified when a person set it in a reviewed frame."""
    x1, y1, x2, y2 = d["box"]
    cx, cy = d.get("center") or ((x1 + x2) / 2, (y1 + y2) / 2)
    status = d.get("status", "ok")
    ok = d.get("value") is not None and status == "ok"
    if status == "not_a_die" and set_by_person(d):  # a person said so: a reject
        ok, d = True, d | {"value": 0}
    flagged = bool(d.get("flagged", False))
    size = float(max(x2 - x1, y2 - y1))
    return LabelledDie(d["value"] if ok else None, float(cx), float(cy), size,
                       reviewed and ok and set_by_person(d), ok and not flagged, status == "bad_crop")


def _yolo_frames(folder: Path) -> list[CapturedFrame]:
    """The readable pictures of a YOLO folder; its labels count as verified."""
    from zonkcam.models.yolo import yolo_folder

    frames = []
    for item in yolo_folder(folder):
        size = cv2.imread(str(item.image), cv2.IMREAD_GRAYSCALE)
        if size is None:
            continue
        h, w = size.shape
        dice = tuple(LabelledDie(int(v), cx * w, cy * h, max(bw * w, bh * h), True, True)
                     for v, cx, cy, bw, bh in item.dice)
        frames.append(CapturedFrame(f"{folder.name}/{item.image.stem}", item.image, dice))
    return frames


def shuffled(frames: list[CapturedFrame], seed: int) -> list[CapturedFrame]:
    """`frames` in an order fixed by their pictures. Not by their names: a capture's names carry
    its clock, so the same photos captured twice were split apart differently (a teaching test
    read 76 % or 96 % of the new faces from one run to the next)."""
    def order(f: CapturedFrame) -> str:
        picture = f.image.read_bytes() if f.image is not None and f.image.is_file() else f.key.encode()
        return hashlib.sha1(f"{seed}:".encode() + picture).hexdigest()
    return sorted(frames, key=order)


def split_frames(frames: list[CapturedFrame], seed: int = SPLIT_SEED
                 ) -> tuple[list[CapturedFrame], list[CapturedFrame], list[CapturedFrame]]:
    """(held back, validation, training) by frame. Verified and unverified frames are split apart
    so the held-back part gets its share of verified labels; the order depends only on the pictures."""
    held, val, fit = [], [], []
    for part in ([f for f in frames if f.verified], [f for f in frames if not f.verified]):
        part = shuffled(part, seed)
        n_held = math.ceil(len(part) * HELD_FRACTION) if len(part) >= 2 else 0
        n_val = math.ceil(len(part) * VAL_FRACTION) if len(part) - n_held >= 3 else 0
        held += part[:n_held]
        val += part[n_held:n_held + n_val]
        fit += part[n_held + n_val:]
    return held, val, fit
