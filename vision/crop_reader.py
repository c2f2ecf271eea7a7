"""The classifier's half of the reader: a proposal cut into a face crop, read, and judged.

Every stage of `vision.read.Reader` that reads a die again (the second look, the squares, the
dice parted from a blob) cuts crops and judges reads the same way, through this class.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.faces import face_angle, patch_at, upright
from zonkcam.vision.model import DiceModel
from zonkcam.vision.proposals import Proposal

REJECT_THRESHOLD = 0.5  # a crop at least this likely "not a pip die" is dropped
VALUE_THRESHOLD = 0.5  # a value read less surely than this is reported `unreadable`
# A die read less surely than this gets a second look (`vision.second_look`). Chosen on rune55's
# `tune` groups.
SECOND_LOOK_BELOW = 0.9

Look = tuple[np.ndarray, np.ndarray, float]  # the classifier's crop (float, 0..1), colour patch, angle


class CropReader:
    """The model, the thresholds it is read with (the model's own, where it carries them), and
    reading a die at a proposal."""

    def __init__(self, model_path: str | Path | None = None, threads: int = 1) -> None:
        self.model = DiceModel(model_path, threads=threads)
        self.reject_threshold = self.model.reject_threshold or REJECT_THRESHOLD
        self.value_threshold = self.model.value_threshold or VALUE_THRESHOLD

    def look(self, image: np.ndarray, p: Proposal) -> Look:
        """The classifier's crop (float, 0..1) of a proposal, its colour patch and the angle."""
        patch = patch_at(image, p.cx, p.cy, p.size)
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        angle = face_angle(grey)
        return self._crop(grey, angle), patch, angle

    def _read_patches(self, patches: Sequence[np.ndarray]) -> list[tuple[np.ndarray, float, np.ndarray]]:
        """Each colour patch (framed as `patch_at` frames a die) read: its class probabilities,
        face angle and classifier crop, in one batch."""
        greys = [cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) for p in patches]
        angles = [face_angle(g) for g in greys]
        crops = [self._crop(g, a) for g, a in zip(greys, angles, strict=True)]
        return list(zip(self.model.classify(np.stack(crops)), angles, crops, strict=True))

    def _crop(self, grey_patch: np.ndarray, angle: float) -> np.ndarray:
        """A grey patch turned upright into the classifier's float crop (0..1)."""
        crop = upright(grey_patch, angle, self.model.crop, self.model.crop_margin)
        return crop.astype(np.float32) / 255.0

    def unsure(self, c: Candidate) -> bool:
        """A die (not rejected) read less surely than `SECOND_LOOK_BELOW`."""
        return not self.rejects(c) and c.probs[1:].max() < SECOND_LOOK_BELOW

    def rejects(self, c: Candidate) -> bool:
        """The classifier took this candidate for "not a pip die"."""
        return bool(c.probs[0] >= self.reject_threshold)
