"""Cutting die crops from labelled pictures, exactly as the reader cuts them (`vision.faces`).

A patch is a PATCH-sized square around a die (or around a spot that is no die: the reject
class); a crop is what the face classifier reads, CROP pixels with the face upright. Training
augments crops from patches (`augment_crop`); fine-tuning scores crops the reader would cut
(`reader_crops`). No torch here.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
from zonkcam.models.augment import hard_face, photometric, random_affine
from zonkcam.models.train_extra import TrainError
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, face_angle, patch_at, upright
from zonkcam.vision.sim.drawn import BODY_BGR, RED_PIP, DrawnDie, Pips, background, draw_die

if TYPE_CHECKING:
    from zonkcam.models.frames import CapturedFrame, LabelledDie
    from zonkcam.models.yolo import Labelled

# proposals a proposer made where no die is: frame index -> (cx, cy, size) in pixels
Mined = dict[int, list[tuple[float, float, float]]]

CROP = 40  # the face spans CROP / CROP_MARGIN px: room for a proposal that misses the centre
CROP_MARGIN = 1.5  # must match vision.faces: the die spans CROP / CROP_MARGIN of a crop
FREE_TURNS = 0.15  # share of training crops turned at any angle rather than upright
SCALES = (0.8, 1.25)  # a training crop shows its face at this range of the reader's usual size


def grey(path: Path) -> np.ndarray:
    """A picture in grey, as the crops are cut from it; a clear error when it is gone."""
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise TrainError(f"{path}: image missing or unreadable")
    return image


def die_patches(frames: list[CapturedFrame], which: Callable[[LabelledDie], bool]
                ) -> tuple[np.ndarray, list[LabelledDie], list[str]]:
    """PATCH-sized patches of the dice `which(die)` accepts, with the dice and their frame keys."""
    patches, dice, keys = [], [], []
    for f in frames:
        chosen = [d for d in f.dice if which(d)]
        if not chosen:
            continue
        image = grey(f.image)
        for d in chosen:
            patches.append(patch_at(image, d.cx, d.cy, d.size))
            dice.append(d)
            keys.append(f.key)
    return stack_patches(patches), dice, keys


def reject_patches(frames: list[CapturedFrame], rng: np.random.Generator, per_frame: int = 2
                   ) -> np.ndarray:
    """Table and off-centre views from captured frames: what the reject class must keep saying."""
    out = []
    for f in frames:
        image = grey(f.image)
        h, w = image.shape
        size = float(np.median([d.size for d in f.dice])) if f.dice else min(w, h) / 12
        for d in f.dice:  # half a die: a proposal between two dice sees this
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.7, 1.1) * d.size
            x, y = d.cx + r * math.cos(a), d.cy + r * math.sin(a)
            if not _near_any(x, y, f.dice, 0.5):
                out.append(patch_at(image, x, y, d.size))
        for _ in range(per_frame):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if not _near_any(x, y, f.dice, 0.8):
                out.append(patch_at(image, x, y, size * rng.uniform(0.7, 1.4)))
    return stack_patches(out)


def reader_crops(patches: np.ndarray, crop: int, margin: float) -> np.ndarray:
    """Float crops (n, crop, crop) in 0..1, turned upright exactly as `vision.read` does."""
    if not len(patches):
        return np.zeros((0, crop, crop), np.float32)
    return np.stack([upright(p, face_angle(p), crop, margin) for p in patches]).astype(np.float32) / 255


# ---------------------------------------------------------------- the training recipe's crops
def augment_crop(patch: np.ndarray, rng: np.random.Generator, hard_share: float = 0.0,
                 scales: tuple[float, float] = SCALES) -> np.ndarray:
    """A training crop of `patch`, its face shown at `scales` of the reader's usual size;
    `hard_share` of them made a hard face (`augment.hard_face`: washed by a lamp, faint, marbled,
    light pips on a dark body, alone on a dark floor)."""
    hard = hard_share > 0 and rng.random() < hard_share  # no draw when off: crops as before
    die = PATCH / PATCH_MARGIN
    k = (CROP / CROP_MARGIN) / die * rng.uniform(*scales)
    # proposals miss the centre by ~0.1 die (up to 0.3): the whole face must stay in the crop
    jitter = np.clip(rng.normal(0, 0.12, 2), -0.3, 0.3) * die
    center = (PATCH / 2 + jitter[0], PATCH / 2 + jitter[1])
    # The reader turns each face upright by its measured angle (`faces.face_angle`), so the
    # classifier learns upright faces, as the reader shows them, and now and then a face at
    # any angle, for faces whose angle was measured wrong.
    free = rng.random() < FREE_TURNS
    m = random_affine(rng, center, CROP, k, free_rotation=free,
                      angle=0.0 if free else face_angle(patch))
    crop = cv2.warpAffine(patch, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.2:  # a die only a few pixels across, upsampled as the reader does
        small = int(rng.integers(11, 30))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA),
                          (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    if hard:
        mid = m @ np.array([PATCH / 2, PATCH / 2, 1.0])
        side = die * math.hypot(float(m[0, 0]), float(m[1, 0]))  # the die's side in the crop
        crop = hard_face(crop, rng, (float(mid[0]), float(mid[1])), side)
        return photometric(crop, rng, relight=False)
    return photometric(crop, rng)


def inside_any(x: float, y: float, boxes: np.ndarray) -> bool:
    return bool(np.any((abs(x - boxes[:, 0]) < boxes[:, 2] / 2) &
                       (abs(y - boxes[:, 1]) < boxes[:, 3] / 2)))


def classifier_patches(images: list[np.ndarray], items: list[Labelled], rng: np.random.Generator,
                       mined: Mined | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Positive patches for every labelled die and reject patches, with labels 0..6."""
    patches, labels = [], []
    for idx, (img, it) in enumerate(zip(images, items, strict=True)):
        h, w = img.shape
        boxes = it.dice[:, 1:] * np.array([w, h, w, h], np.float32)
        sizes = np.maximum(boxes[:, 2], boxes[:, 3]) if len(boxes) else np.array([60.0])
        for (v, *_), (cx, cy, bw, bh) in zip(it.dice, boxes, strict=True):
            patches.append(patch_at(img, cx, cy, max(bw, bh)))
            labels.append(int(v))
            # an off-centre view of the same die (what a proposal between two dice sees)
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.7, 1.1) * max(bw, bh)
            sx, sy = cx + r * math.cos(a), cy + r * math.sin(a)
            if not inside_any(sx, sy, boxes):
                patches.append(patch_at(img, sx, sy, max(bw, bh)))
                labels.append(0)
        for _ in range(3):  # table, vignette, picture dice: anything that is not a pip die
            sx, sy = rng.uniform(0, w), rng.uniform(0, h)
            if not inside_any(sx, sy, boxes):
                size = float(rng.choice(sizes)) * rng.uniform(0.6, 1.6)
                patches.append(patch_at(img, sx, sy, size))
                labels.append(0)
        for sx, sy, size in (mined or {}).get(idx, []):
            patches.append(patch_at(img, sx, sy, size))
            labels.append(0)
    return np.stack(patches), np.array(labels, np.int64)


def drawn_patches(n: int, rng: np.random.Generator, varied_pips: float = 0.0
                  ) -> tuple[np.ndarray, np.ndarray]:
    """`n` drawn dice centred in patches (coloured, then grey), with a neighbour now and then;
    `varied_pips` of them with another set's pips (`varied_pips`). With none varied the random
    stream is the one recipes before the option drew."""
    die = PATCH / PATCH_MARGIN
    out, labels = [], []
    for _ in range(n):
        img = background(rng, PATCH, PATCH, str(rng.choice(["felt", "wood", "paper", "dark"])))
        if rng.random() < 0.3:  # a touching neighbour at the edge of the patch
            a = rng.uniform(0, 2 * np.pi)
            draw_die(img, DrawnDie(int(rng.integers(1, 7)), str(rng.choice(list(BODY_BGR))),
                                   PATCH / 2 + 1.05 * die * np.cos(a),
                                   PATCH / 2 + 1.05 * die * np.sin(a), die, rng.uniform(0, 90)))
        value = int(rng.integers(1, 7))
        color = str(rng.choice(list(BODY_BGR)))
        pips = other_pips(rng, color) if varied_pips and rng.random() < varied_pips else Pips()
        draw_die(img, DrawnDie(value, color, PATCH / 2, PATCH / 2,
                               die * rng.uniform(0.92, 1.05), rng.uniform(0, 90)), pips=pips)
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
        out.append(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        labels.append(value)
    return np.stack(out), np.array(labels, np.int64)


def other_pips(rng: np.random.Generator, color: str) -> Pips:
    """Another set's pips, at random: small to big, set wide to tight, now and then rings; half
    the time a big one, red on half of the light bodies that have one; now and then a ring round
    the one. rune55's dice all have one pip style, and a big one read as a four or no die costs
    a player a scoring die (`benchmarks/pip_styles.py`)."""
    radius = rng.uniform(0.055, 0.125)
    one_radius = one_bgr = None
    if rng.random() < 0.5:
        one_radius = rng.uniform(max(radius, 0.12), 0.19)
        if color in ("white", "yellow") and rng.random() < 0.5:
            one_bgr = RED_PIP
    return Pips(radius=radius, spread=rng.uniform(0.21, 0.32), one_radius=one_radius,
                one_bgr=one_bgr,
                ring=rng.uniform(0.025, 0.045) if rng.random() < 0.12 else 0.0,
                one_ring=rng.uniform(0.08, 0.12) if one_radius is None and rng.random() < 0.15 else 0.0)


def _near_any(x: float, y: float, dice: Sequence[LabelledDie], fraction: float) -> bool:
    return any(math.hypot(x - d.cx, y - d.cy) < fraction * d.size for d in dice)


def stack_patches(patches: list[np.ndarray]) -> np.ndarray:
    """`patches` as one array; none as an empty one of the right shape."""
    return np.stack(patches) if patches else np.zeros((0, PATCH, PATCH), np.uint8)
