"""A folder of stills (a phone's photos) as a capture source: each photo is one scene.

Unlike a folder of video frames, the photos are not a stream: there is no baseline scene to
skip, no settling to wait for, and they may differ in size and orientation. EXIF orientation is
honoured (OpenCV's decoder applies it); photos larger than `MAX_SIDE` px are scaled down so a
capture folder of phone photos stays small and the review page quick.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.imageio import ImageError, decode, pictures_in, read_bytes

MAX_SIDE = 2560


class StillsError(ValueError):
    """A folder that holds no photos zonkcam can read."""


def still_files(folder: Path) -> list[Path]:
    """The photos of `folder`, by name; a StillsError says why there are none."""
    try:
        return pictures_in(folder)
    except ImageError as exc:
        raise StillsError(str(exc)) from None


def load_still(path: Path) -> np.ndarray:
    """A photo, turned upright by its EXIF orientation, at most `MAX_SIDE` px on its long side."""
    image = decode(path, read_bytes(path))
    h, w = image.shape[:2]
    if max(h, w) > MAX_SIDE:
        k = MAX_SIDE / max(h, w)
        image = cv2.resize(image, (round(w * k), round(h * k)), interpolation=cv2.INTER_AREA)
    return image


def stills(folder: Path) -> Iterator[tuple[Path, np.ndarray | ImageError]]:
    """Each photo of `folder` with its picture, or the error that it could not be read."""
    for path in still_files(folder):
        try:
            yield path, load_still(path)
        except ImageError as exc:
            yield path, exc
