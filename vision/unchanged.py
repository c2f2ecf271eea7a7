"""Whether a picture still shows what it showed: a die where it lay, at one settle and the next.

Pictures are compared by the correlation of their grey levels, each taken from its mean, so a
change of light does not count; each is looked for up to `SHIFT` of its size off where it
was, so neither does a table nudged a few pixels.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
from zonkcam.vision.dice import Die, box_growth
from zonkcam.vision.geometry import TWICE

SAME_PICTURE = 0.9  # correlation of the picture where a die lay, then and now: it is still there
SAME_DIE = 0.97  # correlation of a die's picture, then and now: that die, neither moved nor turned
SHIFT = 0.2  # of the picture's size: how far the table may have been nudged for those to hold
# of the picture's size: how far off a kept die is found while dice roll, before any hits it
# (noise: the table is not nudged mid-throw); a thrown die of its face landing 7 px off where
# a die picked up lay was found within `SHIFT`, that die seen still there (83017 t2)
IN_PLACE = 0.05
FACE = 0.7  # die sides: the square compared where a die lies, inside its face at any turn
UNMOVED_REACH = 0.3  # die sides round where a die lay that `where_it_lay` looks for it
UNCOVERED_LEAST = 0.5  # of a die's look left uncovered by dice lying over it, for it to be told
Box = tuple[int, int, int, int]


def _grey(p: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) if p.ndim == 3 else p


def _square(center: tuple[float, float], size: float) -> Box:
    x, y, half = center[0], center[1], size / 2
    return round(x - half), round(y - half), round(x + half), round(y + half)


def _clip(box: Box, image: np.ndarray) -> Box:
    h, w = image.shape[:2]
    return max(box[0], 0), max(box[1], 0), min(box[2], w), min(box[3], h)


def _found(was: np.ndarray, image: np.ndarray, at: tuple[int, int],
           mask: np.ndarray | None = None, shift: float = SHIFT) -> float:
    """The best correlation of grey picture `was` (where `mask` is set, if given) with
    `image` where its corner is `at` or up to `shift` of its size off it; 0 for a flat
    picture or one the image cannot hold there."""
    ph, pw = was.shape
    s = round(shift * max(ph, pw))
    x0, y0, x1, y1 = _clip((at[0] - s, at[1] - s, at[0] + pw + s, at[1] + ph + s), image)
    if x1 - x0 < pw or y1 - y0 < ph or float(was.std()) == 0.0:
        return 0.0
    now = _grey(image[y0:y1, x0:x1]).astype(np.float32)
    found = cv2.matchTemplate(now, was.astype(np.float32), cv2.TM_CCOEFF_NORMED, mask=mask)
    # a masked window of one grey has no correlation (NaN)
    return float(np.nan_to_num(found, nan=0.0, posinf=0.0, neginf=0.0).max())


def unchanged(a: np.ndarray, b: np.ndarray, box: Box) -> bool:
    """Whether two pictures show the same thing in `box`: `a` there is found in `b` there (at
    least `SAME_PICTURE`). A die taken away from plain table changes it."""
    x0, y0, x1, y1 = _clip(box, a)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    return _found(_grey(a[y0:y1, x0:x1]), b, (x0, y0)) >= SAME_PICTURE


def face_unchanged(a: np.ndarray, b: np.ndarray, center: tuple[float, float],
                   side: float) -> bool:
    """`unchanged` at the face of a die of `side` px centred at `center`: the face alone, as a
    die landing beside a kept die changes the table round it."""
    return unchanged(a, b, _square(center, FACE * side))


def face_uncovered(a: np.ndarray, b: np.ndarray, center: tuple[float, float], side: float,
                   over: Sequence[Die]) -> bool:
    """`face_unchanged`, less what the boxes of dice read in `b` (`over`) cover of the face:
    a die thrown that came to lean on a die of the last settle, which the recognizer then
    missed, covers a corner of its face (77005 t2: 0.88 with it, 0.998 without; the die was
    taken for picked up, and the stream reported `spaz, lost`). False when under
    `UNCOVERED_LEAST` of the face is left."""
    x0, y0, x1, y1 = _clip(_square(center, FACE * side), a)
    if x1 - x0 < 4 or y1 - y0 < 4:
        return False
    mask = np.ones((y1 - y0, x1 - x0), np.float32)
    for d in over:
        bx0, by0, bx1, by1 = (round(v) for v in d.box)
        cv2.rectangle(mask, (bx0 - x0, by0 - y0), (bx1 - x0, by1 - y0), 0.0, -1)
    if mask.all():
        return unchanged(a, b, (x0, y0, x1, y1))
    if mask.sum() < UNCOVERED_LEAST * mask.size:
        return False
    return _found(_grey(a[y0:y1, x0:x1]), b, (x0, y0), mask) >= SAME_PICTURE


@dataclass(frozen=True, slots=True)
class Look:
    """A die's picture at a settle: the grey square it covers, turned as it is, so that dice
    landing beside it later do not change it."""

    picture: np.ndarray  # its upright box
    mask: np.ndarray  # the die's square in it
    corner: tuple[int, int]  # of the picture, in the frame
    center: tuple[float, float]

    @classmethod
    def of(cls, image: np.ndarray, die: Die, side: float) -> Look | None:
        """`die`'s look (its face `side` px); None near the frame's edge or under 4 px."""
        box = _square(die.center, side * box_growth(die.angle) + 2)
        if _clip(box, image) != box or side < 4:
            return None
        mask = np.zeros((box[3] - box[1], box[2] - box[0]), np.float32)
        corners = cv2.boxPoints(((die.center[0] - box[0], die.center[1] - box[1]),
                                 (side - 2, side - 2), die.angle))  # less its edge
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1.0)
        return cls(_grey(image[box[1]:box[3], box[0]:box[2]]).copy(), mask, box[:2],
                   die.center)

    def seen_at(self, image: np.ndarray, center: tuple[float, float]) -> bool:
        """Whether `image` shows this die at `center` (at least `SAME_DIE`): neither moved
        (beyond `SHIFT`) nor turned, as a die hidden under a hand and then uncovered is; a
        die thrown that landed where it lay, a few pixels off and turned 12°, is not."""
        dx, dy = round(center[0] - self.center[0]), round(center[1] - self.center[1])
        at = (self.corner[0] + dx, self.corner[1] + dy)
        return _found(self.picture, image, at, self.mask) >= SAME_DIE

    def still_in(self, image: np.ndarray) -> bool:
        """Whether `image` shows this die where and as it lay, found no more than `IN_PLACE`
        off: a kept die while dice roll, before a thrown one hits it."""
        return _found(self.picture, image, self.corner, self.mask, IN_PLACE) >= SAME_DIE


def where_it_lay(look: Look, image: np.ndarray, side: float) -> tuple[float, float]:
    """(the correlation of a die's `look` with `image` where it lay, or a pixel off (noise),
    over its face less its edge pixels; how far off, in pixels, it is best found within
    `UNMOVED_REACH` die sides). (1.0, 0.0) where it cannot be compared."""
    r = max(2, round(UNMOVED_REACH * side))
    ph, pw = look.picture.shape
    x0, y0 = look.corner[0] - r, look.corner[1] - r
    window = image[max(y0, 0):y0 + ph + 2 * r, max(x0, 0):x0 + pw + 2 * r]
    if window.shape[:2] != (ph + 2 * r, pw + 2 * r) or not look.mask.any() or \
            float(look.picture[look.mask > 0].std()) == 0.0:
        return 1.0, 0.0
    grey = cv2.cvtColor(window, cv2.COLOR_BGR2GRAY) if window.ndim == 3 else window
    found = cv2.matchTemplate(grey.astype(np.float32), look.picture.astype(np.float32),
                              cv2.TM_CCOEFF_NORMED, mask=look.mask)
    found = np.nan_to_num(found, nan=0.0, posinf=0.0, neginf=0.0)
    _, _, _, (bx, by) = cv2.minMaxLoc(found)
    return float(found[r - 1:r + 2, r - 1:r + 2].max()), float(np.hypot(bx - r, by - r))


def uncovered(look: Look, dice: Sequence[Die], side: float) -> Look | None:
    """`look` less what the `dice` but its own (the one read nearest where it lay, within
    `TWICE` sides) cover of it: each one's face square, `side` px, turned as read; a cocked
    one's box, side and all. A die thrown that came to lean on a kept die covers a corner of
    it, which moved no more for that (75005 t6, `knocked`). None when under
    `UNCOVERED_LEAST` of it is left."""
    def gap(d: Die) -> float:
        return float(np.hypot(d.center[0] - look.center[0], d.center[1] - look.center[1]))

    own = min(dice, key=gap, default=None)
    mask, (cx, cy) = look.mask.copy(), look.corner
    for d in dice:
        if d is own and gap(d) <= TWICE * side:
            continue
        if d.status == "cocked":
            x0, y0, x1, y1 = d.box
            cv2.rectangle(mask, (x0 - cx, y0 - cy), (x1 - cx, y1 - cy), 0.0, -1)
        else:
            corners = cv2.boxPoints(((d.center[0] - cx, d.center[1] - cy), (side, side), d.angle))
            cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 0.0)
    if mask.sum() == look.mask.sum():
        return look
    return replace(look, mask=mask) if mask.sum() >= UNCOVERED_LEAST * look.mask.sum() else None
