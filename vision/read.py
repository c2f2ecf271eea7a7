"""Reading dice from one picture: the recognizer's public API.

    from zonkcam.vision.read import Reader
    reader = Reader()                      # the shipped model, default colours
    reading = reader.read(image_bgr)       # or read(image_bgr, table=[(x, y), ...])
    for die in reading.dice: print(die.value, die.color, die.status)

Pipeline: the proposer finds die centres and sizes on a ~320-px grey copy of the picture; each
candidate is cut from the full-resolution picture as a rotation-normalised crop of its top face;
the classifier reads value 1..6 or "not a pip die" (dropped); the colour is named from the
face's body pixels (`vision.colors`).
"""
from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.colors import DiceSet, body_lab, grey_world_gains, thumbnail
from zonkcam.vision.dice import Die, Reading, Status
from zonkcam.vision.faces import face_angle, patch_at, upright
from zonkcam.vision.model import DiceModel, ModelError
from zonkcam.vision.proposals import PROPOSER_SIDE, Proposal, decode, proposer_input

__all__ = ["ModelError", "Reader", "TableError"]

MIN_VALUE_CONFIDENCE = 0.5  # below this the die is reported `unreadable`
EDGE_FRACTION = 0.35  # a centre closer than this × die size to the table edge crosses it


class TableError(ValueError):
    """A table polygon that cannot be used (fewer than 3 points, or no area)."""


class Reader:
    """Finds every pip die in a picture and reads its value and colour.

    `model_path`: an .onnx file made by `python -m zonkcam.models.train` (default: the shipped
    `models/dice.onnx`); `dice_set`: a file from `zonkcam calibrate-dice` (default colours:
    white, red, green, blue, black, yellow). Raises `ModelError` for a missing or bad model and
    `colors.DiceSetError` for a bad dice-set file.
    """

    def __init__(self, model_path: str | Path | None = None,
                 dice_set: str | Path | None = None, threads: int = 1) -> None:
        self.model = DiceModel(model_path, threads=threads)
        self.dice_set = DiceSet.load(dice_set) if dice_set is not None else DiceSet.default()
        self.proposer_side = PROPOSER_SIDE

    def read(self, image_bgr: np.ndarray,
             table: list[tuple[int, int]] | None = None) -> Reading:
        """Every die in a BGR (or grey) uint8 picture. `table`: polygon in pixels, None = frame."""
        start = time.perf_counter()
        image = _as_bgr(image_bgr)
        h, w = image.shape[:2]
        polygon = _table_polygon(table, w, h)
        grey01, scale = proposer_input(image, self.proposer_side)
        heat, geometry = self.model.propose(grey01)
        proposals = decode(heat, geometry, scale, self.model.stride)
        dice = self._classify(image, proposals, grey_world_gains(thumbnail(image)))
        if table is not None:
            dice = [_place(d, polygon) for d in dice]
        elapsed = (time.perf_counter() - start) * 1000
        return Reading(w, h, dice, polygon, elapsed)

    def _classify(self, image: np.ndarray, proposals: list[Proposal],
                  gains: np.ndarray) -> list[Die]:
        if not proposals:
            return []
        crops, patches, angles = [], [], []
        for p in proposals:
            patch = patch_at(image, p.cx, p.cy, p.size)
            grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
            angle = face_angle(grey)
            crops.append(upright(grey, angle, self.model.crop, self.model.crop_margin))
            patches.append(patch)
            angles.append(angle)
        probs = self.model.classify(np.stack(crops).astype(np.float32) / 255.0)
        dice = []
        for p, patch, angle, prob in zip(proposals, patches, angles, probs, strict=True):
            if prob[0] >= 0.5:  # not a pip die: a picture die, a mark on the table, a hand
                continue
            value = int(np.argmax(prob[1:])) + 1
            confidence = float(prob[value])
            status: Status = "ok" if confidence >= MIN_VALUE_CONFIDENCE else "unreadable"
            color, color_conf = self.dice_set.name_of(body_lab(patch, gains))
            half_w, half_h = p.w / 2, p.h / 2
            box = (round(p.cx - half_w), round(p.cy - half_h),
                   round(p.cx + half_w), round(p.cy + half_h))
            dice.append(Die(value if status == "ok" else None, color, confidence, color_conf,
                            box, (p.cx, p.cy), angle, status))
        return dice


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise TypeError("image must be a uint8 numpy array (H, W) or (H, W, 3)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise TypeError(f"image must have 1, 3 or 4 channels, not {image.shape[2]}")
    return image


def _table_polygon(table: list[tuple[int, int]] | None, w: int, h: int) -> list[tuple[int, int]]:
    if table is None:
        return [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
    polygon = [(round(x), round(y)) for x, y in table]
    if len(polygon) < 3 or cv2.contourArea(np.array(polygon, np.float32)) < 1.0:
        raise TableError(f"the table polygon {polygon} is empty (needs 3+ points and an area)")
    return polygon


def _place(die: Die, polygon: list[tuple[int, int]]) -> Die:
    """Mark a die `off_table` when its centre is outside the polygon or its face crosses the edge."""
    contour = np.array(polygon, np.float32).reshape(-1, 1, 2)
    dist = cv2.pointPolygonTest(contour, (float(die.center[0]), float(die.center[1])), True)
    size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
    if dist < EDGE_FRACTION * size:
        return Die(die.value, die.color, die.confidence, die.color_confidence, die.box,
                   die.center, die.angle, "off_table")
    return die
