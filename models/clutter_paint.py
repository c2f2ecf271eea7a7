"""Drawing primitives for the training clutter (`models/clutter_negatives.py`): colours, printed
words, outlines, dots. The training side's own code, apart from the clutter proxy's."""

from __future__ import annotations

import math
import string

import cv2
import numpy as np

Colour = tuple[int, int, int]
Point = tuple[float, float]


def colour(rng: np.random.Generator, lo: int = 0, hi: int = 256) -> Colour:
    r, g, b = (int(v) for v in rng.integers(lo, hi, 3))
    return r, g, b


def scaled(colour: Colour | np.ndarray, k: float) -> Colour:
    r, g, b = (int(np.clip(v * k, 0, 255)) for v in colour)
    return r, g, b


def ink(rng: np.random.Generator, under: np.ndarray) -> Colour:
    """A print colour that stands out from the colour `under` it: dark on light, light on dark,
    now and then any colour."""
    if rng.random() < 0.25:
        return colour(rng)
    return colour(rng, 0, 90) if float(np.mean(under)) > 110 else colour(rng, 170, 256)


FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_PLAIN,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_COMPLEX_SMALL,
    cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
)
CHARS = string.ascii_letters + string.digits + "&%$#@+-:./!?"


def word(rng: np.random.Generator, lo: int, hi: int) -> str:
    pool = string.digits if rng.random() < 0.25 else CHARS
    return "".join(pool[int(i)] for i in rng.integers(0, len(pool), int(rng.integers(lo, hi + 1))))


def put(
    img: np.ndarray,
    word: str,
    at: Point,
    height: float,
    colour: Colour,
    rng: np.random.Generator,
    font: int | None = None,
    bold: float = 1.0,
) -> None:
    """`word` with its middle at `at`, letters `height` px high."""
    font = int(rng.choice(FONTS)) if font is None else font
    if rng.random() < 0.2:
        font |= cv2.FONT_ITALIC
    unit = cv2.getTextSize("H", font, 1.0, 1)[0][1]
    scale = height / max(unit, 1)
    thick = max(1, round(scale * bold * rng.uniform(0.8, 2.6)))
    (tw, th), _ = cv2.getTextSize(word, font, scale, thick)
    org = (round(at[0] - tw / 2), round(at[1] + th / 2))
    cv2.putText(img, word, org, font, scale, colour, thick, cv2.LINE_AA)


def polygon(img: np.ndarray, pts: np.ndarray, colour: Colour, filled: bool = True, width: int = 1) -> None:
    p = np.round(np.asarray(pts) * 16).astype(np.int32)
    if filled:
        cv2.fillPoly(img, [p], colour, cv2.LINE_AA, shift=4)
    else:
        cv2.polylines(img, [p], True, colour, width, cv2.LINE_AA, shift=4)


def outline(shape: str, c: Point, rx: float, ry: float, turn: float) -> np.ndarray:
    """A closed outline round `c`: circle, rounded square, hexagon, shield, star, triangle, heart."""
    t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    if shape == "circle":
        x, y = np.cos(t), np.sin(t)
    elif shape == "rounded":
        x, y = np.sign(np.cos(t)) * np.abs(np.cos(t)) ** 0.35, np.sign(np.sin(t)) * np.abs(np.sin(t)) ** 0.35
    elif shape in ("hexagon", "triangle"):
        corners = 6 if shape == "hexagon" else 3
        a = np.linspace(0, 2 * math.pi, corners, endpoint=False) - math.pi / 2
        x, y = np.cos(a), np.sin(a)
    elif shape == "star":
        k = np.arange(10)
        r = np.where(k % 2 == 0, 1.0, 0.45)
        x, y = r * np.sin(math.pi * k / 5), -r * np.cos(math.pi * k / 5)
    elif shape == "shield":
        x = np.concatenate([np.linspace(-1, 1, 8), np.cos(np.linspace(0, math.pi, 16))])
        y = np.concatenate([np.full(8, -0.9), 0.2 + 0.8 * np.sin(np.linspace(0, math.pi, 16)) ** 1.5])
    else:  # heart
        x = 16 * np.sin(t) ** 3 / 16
        y = -(13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)) / 16
    ca, sa = math.cos(turn), math.sin(turn)
    return np.stack([c[0] + rx * (ca * x - sa * y), c[1] + ry * (sa * x + ca * y)], 1)


def ring_of_dots(
    img: np.ndarray,
    centre: tuple[float, float],
    radii: tuple[float, float],
    count: int,
    start: float,
    dot: float,
    colour: tuple[float, ...],
) -> None:
    """`count` dots of radius `dot` round an ellipse of `radii`, the first at angle `start`."""
    for k in range(count):
        a = start + 2 * math.pi * k / count
        at = (round(centre[0] + radii[0] * math.cos(a)), round(centre[1] + radii[1] * math.sin(a)))
        cv2.circle(img, at, max(1, round(dot)), colour, -1, cv2.LINE_AA)
