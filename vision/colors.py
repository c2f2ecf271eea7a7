"""Naming a die's colour, from the default palette or a calibrated dice set.

No photo set has colour labels, so colour is measured rather than learned: the die's body colour
is the median of the face's body pixels (the pips, the minority class of an Otsu split, are left
out), white-balanced on the picture's highlights, in CIE Lab. It is named by the nearest
reference colour, with lightness weighted down because light levels vary more than hues.
`zonkcam calibrate-dice` replaces the default references with the set's own colours measured
under the table's light, saved as a dice-set file:

    {"name": "my set", "colors": {"red": [L, a, b], "white": [L, a, b], ...}}
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# sRGB of typical dice under daylight, as Lab via OpenCV's 8-bit convention (L, a, b in 0..255)
DEFAULT_RGB = {
    "white": (235, 232, 225),
    "red": (190, 30, 40),
    "green": (40, 140, 70),
    "blue": (35, 70, 170),
    "black": (35, 35, 38),
    "yellow": (235, 200, 40),
}
L_WEIGHT = 0.5
PIP_SHARE_MAX = 0.3  # pips cover at most this share of the face's inner half
TEMPERATURE = 12.0  # Lab distance that makes a name e times less likely than a closer one


# The names the game log accepts (zonkcam.rules.dice.COLOR_NAME): a lower-case word.
COLOR_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")


class DiceSetError(ValueError):
    """A dice-set file that cannot be used."""


def rgb_to_lab(rgb: tuple[int, int, int]) -> np.ndarray:
    px = np.array([[rgb[::-1]]], np.uint8)  # OpenCV wants BGR
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


@dataclass(frozen=True, slots=True)
class DiceSet:
    """Reference colours by name, in OpenCV 8-bit Lab."""

    name: str
    colors: dict[str, tuple[float, float, float]]

    @classmethod
    def default(cls) -> DiceSet:
        return cls("default", {k: tuple(rgb_to_lab(v).tolist()) for k, v in DEFAULT_RGB.items()})

    @classmethod
    def load(cls, path: str | Path) -> DiceSet:
        try:
            data = json.loads(Path(path).read_text())
            colors = {str(k): tuple(float(x) for x in v) for k, v in data["colors"].items()}
        except OSError as exc:
            raise DiceSetError(f"cannot read dice-set file {path}: {exc.strerror}") from exc
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise DiceSetError(f"{path} is not a dice-set file ({exc})") from exc
        if not colors or any(len(v) != 3 or not all(0 <= x <= 255 for x in v)
                             for v in colors.values()):
            raise DiceSetError(f"{path}: 'colors' must map names to [L, a, b], each 0-255")
        if bad := [k for k in colors if not COLOR_NAME.fullmatch(k)]:
            raise DiceSetError(f"{path}: {bad[0]!r} is not a colour name (a lower-case word)")
        return cls(str(data.get("name", Path(path).stem)), colors)

    def save(self, path: str | Path) -> None:
        data = {"name": self.name,
                "colors": {k: [round(x, 1) for x in v] for k, v in self.colors.items()}}
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    def name_of(self, lab: np.ndarray) -> tuple[str, float]:
        """The nearest reference colour and a softmax confidence over all of them."""
        names = list(self.colors)
        refs = np.array([self.colors[n] for n in names], np.float32)
        d = refs - lab
        d[:, 0] *= L_WEIGHT
        dist = np.sqrt((d * d).sum(1))
        p = np.exp(-(dist - dist.min()) / TEMPERATURE)
        p /= p.sum()
        i = int(np.argmax(p))
        return names[i], float(p[i])


def thumbnail(image: np.ndarray, side: int = 64) -> np.ndarray:
    h, w = image.shape[:2]
    k = side / max(h, w)
    return cv2.resize(image, (max(1, round(w * k)), max(1, round(h * k))),
                      interpolation=cv2.INTER_AREA)


WB_SIDE = 160  # white balance is judged on a thumbnail this size: cheap, and dice still show


def white_balance_gains(image_bgr: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the picture's highlights neutral (white patch).

    The brightest pixels (white dice, pips, glare) are the best guess at white; grey world
    would be led astray by a green felt or a red tray that fills most of the picture. The
    gains are bounded so a scene without anything white is changed little.
    """
    px = thumbnail(image_bgr, WB_SIDE).reshape(-1, 3).astype(np.float32)
    lum = px[:, 0] + px[:, 1] + px[:, 2]  # numpy's sum(axis=1) over 3 columns is ~10× slower
    k = int(0.99 * (len(lum) - 1))
    top = px[lum >= np.partition(lum, k)[k]].mean(0) + 1.0
    return np.clip(top.max() / top, 0.8, 1.25)


def body_lab(patch_bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Lab of the die's body in a face patch (the die spans the middle 1/1.6 of it).

    The inner half of the patch is split in two by Otsu: the body and the pips. The larger part
    is the body, unless it looks like the table around the die (a proposal off the die's centre
    lets the table into the inner half) and the smaller part is too big to be only pips.
    """
    n = patch_bgr.shape[0]
    m = int(n * 0.25)  # the inner half of the patch: well inside the face
    core = patch_bgr[m:n - m, m:n - m].reshape(-1, 3).astype(np.float32)
    grey = core @ np.array([0.114, 0.587, 0.299], np.float32)
    thr, _ = cv2.threshold(grey.astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = grey > thr
    major, minor = (core[bright], core[~bright]) if bright.sum() >= (~bright).sum() \
        else (core[~bright], core[bright])
    body = major
    if len(minor) >= PIP_SHARE_MAX * len(core):
        ring = np.concatenate([patch_bgr[:2].reshape(-1, 3), patch_bgr[-2:].reshape(-1, 3),
                               patch_bgr[:, :2].reshape(-1, 3), patch_bgr[:, -2:].reshape(-1, 3)])
        table = np.median(ring.astype(np.float32), axis=0)
        if np.linalg.norm(np.median(major, 0) - table) < np.linalg.norm(np.median(minor, 0) - table):
            body = minor
    return _lab(np.median(body, axis=0) * gains)


def _lab(bgr: np.ndarray) -> np.ndarray:
    px = np.clip(bgr, 0, 255).astype(np.uint8).reshape(1, 1, 3)
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
