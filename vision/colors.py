"""Naming a die's colour from the set in play: a calibrated dice set or the default palette.

No photo set has colour labels, so colour is measured rather than learned: the die's body colour
(`body_lab`: what most of the face agrees on, so pips, glare and a translucent body's light and
shade are left out), white-balanced on the picture's highlights, in CIE Lab. It is named by the
nearest reference colour of the set, with lightness weighted down because light levels vary
more than hues; a body further than the set's `max_distance` from every reference is not named
(None: the die's colour is unreadable), never given a colour the set does not have.
`zonkcam calibrate-dice` measures the set's own colours under the table's light, saved as a
dice-set file:

    {"name": "my set", "colors": {"red": [L, a, b], "white": [L, a, b], ...}}

`DiceSet.restricted(names)` keeps the colours a game's rules name (a variant's `dice_colors`).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

# sRGB of dice bodies as `body_lab` measures them in byler's photos (white-balanced; ivory,
# orange, pink and grey, which byler lacks, from the usual dice of those names), as Lab via
# OpenCV's 8-bit convention (L, a, b in 0..255). White, ivory and yellow differ in b*
# (yellowness) and lightness: white ~131, ivory ~145, yellow 190 and up.
DEFAULT_RGB = {
    "white": (225, 225, 220),
    "ivory": (222, 212, 185),
    "yellow": (210, 190, 40),
    "orange": (225, 110, 30),
    "red": (165, 35, 38),
    "maroon": (100, 40, 50),
    "pink": (230, 120, 160),
    "purple": (80, 35, 100),
    "blue": (32, 62, 140),
    "teal": (35, 100, 95),
    "green": (30, 125, 60),
    "brown": (110, 75, 40),
    "grey": (128, 128, 128),
    "black": (35, 35, 36),
}
SIX = ("white", "red", "green", "blue", "black", "yellow")  # the palette before issue 36
L_WEIGHT = 0.5
DARK_L, DARK_BOOST = 60.0, 2.0  # chroma of colours darker than DARK_L scaled up, at most ×2
BODY_SHARE = 0.5  # the share of the face's inner half nearest the median taken as the body
# Pixels further than TABLE_FAR from the table's colour (the patch's rim) are the die's, when
# they are at least DIE_SHARE of the inner half: a box too big or off the die's centre lets
# the table in (the reader's boxes on byler's photos: 0.844 of dice named right with a set
# calibrated through them -> 0.956). Fewer: the die is of the table's colour (green on green
# felt, black on a dark tray) and those pixels are its pips, or the table is not in view.
TABLE_FAR = 24.0
DIE_SHARE = 0.45
TEMPERATURE = 12.0  # Lab distance that makes a name e times less likely than a closer one
# A body further than this (in `_naming_space`) from every colour of the set is not named:
# another colour than the set's (a blue die in a red, white and green set), not a die's own
# colour in another light. Marbled dice vary most, from die to die of one set.
MAX_DISTANCE = 40.0
CALIBRATED_MAX_DISTANCE = 40.0


# The names the game log accepts (zonkcam.rules.dice.COLOR_NAME): a lower-case word.
COLOR_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")


class DiceSetError(ValueError):
    """A dice-set file that cannot be used."""


def rgb_to_lab(rgb: tuple[int, int, int]) -> np.ndarray:
    px = np.array([[rgb[::-1]]], np.uint8)  # OpenCV wants BGR
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


@dataclass(frozen=True, slots=True)
class DiceSet:
    """Reference colours by name, in OpenCV 8-bit Lab; a body further than `max_distance`
    from all of them is not named."""

    name: str
    colors: dict[str, tuple[float, float, float]]
    max_distance: float = MAX_DISTANCE

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
        lab = {k: (v[0], v[1], v[2]) for k, v in colors.items()}  # three each, checked above
        return cls(str(data.get("name", Path(path).stem)), lab, CALIBRATED_MAX_DISTANCE)

    def save(self, path: str | Path) -> None:
        data = {"name": self.name,
                "colors": {k: [round(x, 1) for x in v] for k, v in self.colors.items()}}
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    def restricted(self, names: Iterable[str]) -> DiceSet:
        """Only the colours `names` (a game's set: its rules' `dice_colors`), each from this
        set, else from the default palette; DiceSetError for a name neither has. No names:
        this set as it is."""
        wanted = list(dict.fromkeys(n.lower() for n in names))
        if not wanted:
            return self
        default = DiceSet.default().colors
        if missing := [n for n in wanted if n not in self.colors and n not in default]:
            known = ", ".join(sorted({*self.colors, *default}))
            raise DiceSetError(
                f"no reference colour for {missing[0]!r} (known: {known}): measure the set "
                "with zonkcam calibrate-dice and pass the file as --dice-set")
        colors = {n: self.colors.get(n, default.get(n)) for n in wanted}
        return DiceSet(self.name, colors, self.max_distance)  # type: ignore[arg-type]

    def name_of(self, lab: np.ndarray) -> tuple[str | None, float]:
        """The nearest reference colour and a softmax confidence over all of them; (None, 0.0)
        when even the nearest is over `max_distance`: the die's colour is unreadable."""
        names = list(self.colors)
        refs = _naming_space(np.array([self.colors[n] for n in names], np.float32))
        dist = np.linalg.norm(refs - _naming_space(np.asarray(lab, np.float32)[None]), axis=1)
        p = np.exp(-(dist - dist.min()) / TEMPERATURE)
        p /= p.sum()
        i = int(np.argmax(p))
        return (names[i], float(p[i])) if dist[i] <= self.max_distance else (None, 0.0)


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

    The body is what most of the face's inner half agrees on: the median colour, then the
    median of the `BODY_SHARE` of pixels nearest it, twice. Pips (a quarter of the inner half at
    most, a six's), glare on a glossy face and pips seen through a translucent body are the
    far minority; a translucent body's light and shade lie on both sides of its median. A
    proposal too big or off the die's centre lets the table in: where enough of the inner half
    is unlike the table's colour (the patch's rim), only that part is measured (`DIE_SHARE`).
    """
    n = patch_bgr.shape[0]
    m = int(n * 0.25)  # the inner half of the patch: well inside the face
    core = _labs(patch_bgr[m:n - m, m:n - m].reshape(-1, 3).astype(np.float32) * gains)
    ring = np.concatenate([patch_bgr[:2].reshape(-1, 3), patch_bgr[-2:].reshape(-1, 3),
                           patch_bgr[:, :2].reshape(-1, 3), patch_bgr[:, -2:].reshape(-1, 3)])
    table = np.median(_labs(ring.astype(np.float32) * gains), axis=0)
    unlike = core[_distance(core, table) > TABLE_FAR]
    return _trimmed_median(unlike if len(unlike) >= DIE_SHARE * len(core) else core)


def _trimmed_median(labs: np.ndarray) -> np.ndarray:
    """The median of the `BODY_SHARE` of `labs` nearest their median, found twice."""
    mid = np.median(labs, axis=0)
    for _ in range(2):
        d = _distance(labs, mid)
        mid = np.median(labs[d <= np.quantile(d, BODY_SHARE)], axis=0)
    return mid.astype(np.float32)


def _distance(labs: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Lab distances with lightness weighted down (`L_WEIGHT`): light varies more than hue."""
    d = labs - ref
    return np.sqrt((L_WEIGHT * d[:, 0]) ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)


def _naming_space(labs: np.ndarray) -> np.ndarray:
    """Lab (N×3, 8-bit convention) where colours are named: lightness weighted down, and the
    chroma of dark colours scaled up to what it would be in better light (a translucent blue or
    a purple die is dark, and its a*, b* shrink with its lightness; it is not black)."""
    boost = np.clip(DARK_L / np.maximum(labs[:, 0], 1.0), 1.0, DARK_BOOST)
    return np.stack([L_WEIGHT * labs[:, 0], (labs[:, 1] - 128) * boost,
                     (labs[:, 2] - 128) * boost], axis=1)


def _labs(bgr: np.ndarray) -> np.ndarray:
    """BGR pixels (N×3, 0..255 float) to Lab in OpenCV's 8-bit convention, unrounded."""
    px = np.clip(bgr, 0, 255).astype(np.float32).reshape(-1, 1, 3) / 255.0
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return lab * np.array([2.55, 1.0, 1.0], np.float32) + np.array([0.0, 128.0, 128.0], np.float32)
