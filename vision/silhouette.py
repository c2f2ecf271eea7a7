"""A die's silhouette against the table, seen from above: what stands out at its centre.

The overhead checks on live throws start from it: a cocked die's silhouette is long and its
top face short (`vision.cocked`); a die resting on another covers more table than a die alone
(`vision.stacked`); the overhead reader reads a die again at the square it makes, and reads
things near its dice that no die was read in (`vision.read`).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, patch_at
from zonkcam.vision.geometry import STACKED

WINDOW = 2.4  # die sides spanned by the square looked at (`faces.PATCH` px)
L_WEIGHT = 0.5  # a shadow is the table darker: lightness counts half, colour in full
OPEN = 9  # px: about a third of a die side in the patch
_YS, _XS = np.mgrid[:PATCH, :PATCH].astype(np.float32) - PATCH / 2
_WEIGHTS = np.array([L_WEIGHT, 1, 1], np.float32)
_AT_95 = round(0.95 * (PATCH * PATCH - 1))
COLOUR_APART = 20.0  # Lab (a, b) between two dice's faces for colour to tell them apart
OWN_COLOUR = 0.5  # of the way from a die's (a, b) to the other's: still its colour
# of the lightness where a die was read, or its inverse: another face of it (a face lit alike
# is its own, which the halfway cut keeps off; darker still, a seam's edge)
SIDE_LIGHT = (0.45, 0.9)
FACE_SAMPLE = 3  # px each side of a die's centre in the patch sampled for its face's colour
SECOND_TABLE = 0.2  # of the border unlike the table: a second surface (a die covers under 0.1)
# A dark table (8-bit Lab lightness under `DARK_TABLE`: a black tray's floor): what is lighter
# than it by `DARK_STEP` stands out too. A grey die there, and the side of a die leaning,
# differ from the floor in lightness alone and by less than the colour test asks; nothing on
# it is darker but shadows and the wall's shade, which are not dice. Above a black floor's
# lamp-lit end with the room's light turned up: the simulator's reaches 43 under its lamp
# and its light changes 1.25 times that (84009 t5: 48.0 round a grey two at 1.18, whose
# shaded edge the colour test then left out: its lit part alone, narrow, was called cocked)
DARK_TABLE = 54.0
DARK_STEP = 12.0
PIECE_REACH = 0.4  # die sides from a die's silhouette on a dark table that a piece of it lies
# (a black die leaning 40°: the lone pip of a one at its side's middle lies 0.32 sides past
# its top face's edge, and the face's own rim, as dark as the floor, is not in the silhouette)
SIDE_REACH = 0.5  # ...for the cocked test (`grain` False): a black die leaning, its side as
# dark as the floor, shows a two's far pip 0.47 sides past its top face's edge (76019 t0)
PIECE_AREA = 0.01  # of a die's face: a piece this large at least (a pip is about 0.03)
PIECES_MOST = 1.5  # faces: a die and its pieces cover at most this (a leaning die 1.4)
LIT_FLOOR = 75  # percentile of the square's border: the floor's lit part (`silhouette`'s lit_floor)
PIECE_STEP = 20.0  # Lab lightness over the floor's that a piece reaches somewhere (a pip, a
# die's lit corner: 60-90; the floor's grain by a tray's shaded wall: under 20)


@dataclass(frozen=True, slots=True)
class Silhouette:
    patch: np.ndarray  # BGR, PATCH×PATCH, centred on the die, WINDOW die sides across
    contour: np.ndarray  # the silhouette's outline, in patch pixels
    side: float  # a die side, in patch pixels
    center: tuple[float, float]  # the patch's centre in the picture
    scale: float  # patch pixels per picture pixel

    @property
    def area(self) -> float:
        """The silhouette's area in die faces (1.0: one face's worth of table covered)."""
        return cv2.contourArea(self.contour) / self.side**2

    def in_picture(self, x: float, y: float) -> tuple[float, float]:
        """A point of the patch in picture pixels."""
        return (self.center[0] + (x - PATCH / 2) / self.scale,
                self.center[1] + (y - PATCH / 2) / self.scale)

    def in_patch(self, x: float, y: float) -> tuple[float, float]:
        """A point of the picture in patch pixels."""
        return ((x - self.center[0]) * self.scale + PATCH / 2,
                (y - self.center[1]) * self.scale + PATCH / 2)

    def centroid(self) -> tuple[float, float]:
        """The silhouette's centre of area, in picture pixels."""
        m = cv2.moments(self.contour)
        return self.in_picture(m["m10"] / m["m00"], m["m01"] / m["m00"])

    def halves(self) -> list[tuple[float, float]]:
        """The centres (picture pixels) of the two parts the silhouette falls into along its
        long axis (two means: each pixel goes with the nearer centre), for two dice touching."""
        mask = np.zeros((PATCH, PATCH), np.uint8)
        cv2.drawContours(mask, [self.contour], -1, 1, -1)
        ys, xs = np.nonzero(mask)
        points = np.stack([xs, ys], axis=1).astype(np.float32)
        mean = points.mean(axis=0)
        _, vectors = np.linalg.eigh(np.cov((points - mean).T))
        along = (points - mean) @ vectors[:, -1]  # the long axis: the larger eigenvalue's
        cut = 0.0
        for _ in range(10):
            low, high = along[along <= cut], along[along > cut]
            if not len(low) or not len(high):
                break
            cut = (low.mean() + high.mean()) / 2
        return [self.in_picture(*points[part].mean(axis=0))
                for part in (along <= cut, along > cut) if part.any()]


def silhouette(image_bgr: np.ndarray, center: tuple[float, float], side: float,
               others: Sequence[tuple[float, float]] = (), window: float = WINDOW,
               sides: bool = False, lighter: bool = False, grain: bool = True,
               lit_floor: bool = False, most: float = PIECES_MOST) -> Silhouette | None:
    """What stands out from the table at `center` (a die of `side` px), cut off where it is
    nearer one of the `others` (centres of the other dice) than this one; None when it merges
    with the wall or the table (it reaches the edge of the square `window` die sides across).
    Where it merges with what lies beyond the table's edge, and the square's border shows two
    surfaces (the felt and the frame), both count as table. `sides`: past where it is cut
    off, what is of its colour and lit otherwise stays its own (`_ours`): a leaning die's
    side, for the cocked test. `lighter`: on a dark table what is lighter than it stands out
    too (`DARK_TABLE`): a grey die and its side whole (for the cocked test; the stack test
    compares such areas against a higher bar), and its outline is the hull of its pieces.
    `grain` False: of that, only pieces lighter by `PIECE_STEP` somewhere (`_lighter_within`):
    the cocked test, which the floor's grain round a die makes long (the stack test keeps it,
    to tell a die merged with it, far larger than a stack, from a stack). `lit_floor`: with
    `lighter`, lighter than the floor's lit part (`LIT_FLOOR`), not its median: a die by a
    tray's wall has its shaded strip along two sides of the square, and the floor round the
    die, lit, stood out in grain that ringed a die lying flat (taken for a stack, 71018 t1).
    `most`: faces a die and its pieces cover at most (`_with_pieces`)."""
    patch, k = _window(image_bgr, center, side, window)
    cx, cy = center
    # a die on top of this one, or this one read twice, is not a neighbour to cut off
    near = [((ox - cx) * k, (oy - cy) * k) for ox, oy in others
            if STACKED * side < math.hypot(ox - cx, oy - cy) < window * side]
    # against the felt alone, a die across the table's edge merges with the frame beyond it
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB)  # once for every step below
    contour = _outline(patch, near, sides=sides, lighter=lighter, side=k * side, grain=grain,
                       lit_floor=lit_floor, most=most, lab=lab)
    if contour is None:
        contour = _outline(patch, near, two_tables=True, sides=sides, lab=lab)
    return None if contour is None else Silhouette(patch, contour, k * side, center, k)


def blobs(image_bgr: np.ndarray, center: tuple[float, float], side: float,
          window: float = WINDOW) -> list[Silhouette]:
    """Everything that stands out from the table in the square `window` die sides across at
    `center` (dice of `side` px), each thing apart, except what reaches the square's border."""
    patch, k = _window(image_bgr, center, side, window)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(_foreground(patch, []))
    out = []
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        if x > 0 and y > 0 and x + w < PATCH and y + h < PATCH:
            contours, _ = cv2.findContours((labels == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                           cv2.CHAIN_APPROX_SIMPLE)
            out.append(Silhouette(patch, max(contours, key=cv2.contourArea), k * side, center, k))
    return out


def standing_out(image_bgr: np.ndarray, center: tuple[float, float], side: float,
                 others: Sequence[tuple[float, float]], window: float) -> tuple[np.ndarray, float]:
    """Mask (0/1) of what stands out from the table in the square `window` die sides across at
    `center`, nearer it than the `others` (centres), gaps closed but nothing cut off (dice
    touching at a corner stay one piece); and its patch pixels per picture pixel."""
    patch, k = _window(image_bgr, center, side, window)
    cx, cy = center
    near = [((ox - cx) * k, (oy - cy) * k) for ox, oy in others]
    mask = _standing_out(patch, near)
    return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)), k


def _window(image_bgr: np.ndarray, center: tuple[float, float], side: float,
            window: float) -> tuple[np.ndarray, float]:
    """The reader's face patch, wider: a die of `side` px spans PATCH / `window` of it; and
    its patch pixels per picture pixel."""
    patch = patch_at(image_bgr, center[0], center[1], side * window / PATCH_MARGIN)
    return patch, PATCH / (window * side)


def _squared_distance(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Squared distances of Lab pixels (any shape, channels last) from one colour."""
    diff = (lab - colour) * _WEIGHTS
    return np.einsum("...k,...k->...", diff, diff)


def _foreground(patch_bgr: np.ndarray, others: list[tuple[float, float]],
                two_tables: bool = False, sides: bool = False, lighter: bool = False
                ) -> np.ndarray:
    """Mask (0/1) of what stands out from the table (the patch's border) in the patch, nearer
    its centre than the `others` (offsets from it, patch pixels). `two_tables`: the border
    shows two surfaces (the felt and the frame round it), each taken for table; the mask is
    empty when it shows one."""
    return _cleaned(_standing_out(patch_bgr, others, two_tables, sides, lighter))


def _cleaned(mask: np.ndarray) -> np.ndarray:
    """`_standing_out`'s mask with gaps closed and what touches it at a corner or along a
    short stretch cut off (the opening also takes out pieces a pip wide)."""
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # cut a neighbour touching at a corner or along a short stretch
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (OPEN, OPEN)))


def _standing_out(patch_bgr: np.ndarray, others: list[tuple[float, float]],
                  two_tables: bool = False, sides: bool = False, lighter: bool = False,
                  grain: bool = True, lit_floor: bool = False,
                  lab8: np.ndarray | None = None) -> np.ndarray:
    """`_foreground`'s mask (0/1) before it is cleaned, pip-wide pieces and all. `lab8`: the
    patch in 8-bit Lab, if already converted."""
    if lab8 is None:
        lab8 = cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB)
    lab = lab8.astype(np.float32)
    ring = np.concatenate([lab[:2].reshape(-1, 3), lab[-2:].reshape(-1, 3),
                           lab[:, :2].reshape(-1, 3), lab[:, -2:].reshape(-1, 3)])
    table = np.median(ring, axis=0)
    squared = _squared_distance(lab, table)
    top = float(np.partition(squared.ravel(), _AT_95)[_AT_95])  # the 95th percentile
    least = max(20.0**2, 0.4**2 * top)
    if two_tables:
        # the second table: the ring where it does not look like the first (the frame)
        rest = ring[_squared_distance(ring, table) > least]
        if len(rest) < SECOND_TABLE * len(ring):
            return np.zeros(squared.shape, np.uint8)
        squared = np.minimum(squared, _squared_distance(lab, np.median(rest, axis=0)))
    mask = squared > least
    if lighter and table[0] < DARK_TABLE:
        floor = float(np.percentile(ring[:, 0], LIT_FLOOR)) if lit_floor else float(table[0])
        mask |= _lighter_within(lab[..., 0], floor, mask, grain)
    mask &= _ours(lab, others, sides)
    return mask.astype(np.uint8)


def _lighter_within(lightness: np.ndarray, table: float, mask: np.ndarray,
                    grain: bool = True) -> np.ndarray:
    """Of the pixels `DARK_STEP` lighter than a dark `table` (Lab lightness) and not in
    `mask`, those of pieces that do not reach the patch's border (a tray's wall lit from
    above, or the table round it, is lighter than its floor too, and a die against it is left
    as the colour test cut it); without `grain`, of pieces `PIECE_STEP` lighter somewhere,
    over more than a speck: where a lamp lights the floor round a die more than at the
    patch's border, its grain is lighter by less, in specks that the silhouette's closing
    joins to a die lying flat, making it long."""
    extra = ((lightness > table + DARK_STEP) & ~mask).astype(np.uint8)
    n, labels = cv2.connectedComponents(extra)
    if n <= 1:
        return extra.astype(bool)
    keep = np.ones(n, bool)
    if not grain:  # lighter by `PIECE_STEP` over 3x3 pixels at least: no speck of noise
        bright = cv2.morphologyEx((lightness >= table + PIECE_STEP).astype(np.uint8),
                                  cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        keep[:] = False
        keep[labels[bright > 0]] = True
    keep[_border(labels)] = False
    keep[0] = False
    return keep[labels]


def _ours(lab: np.ndarray, others: list[tuple[float, float]], sides: bool) -> np.ndarray:
    """Mask (bool) of the patch's pixels that go with the die at its centre rather than the
    `others` (offsets from it, patch pixels): those nearer its centre than theirs (|p|² ≤
    |p - o|²); with `sides`, and past that, those of its own colour when the other die's
    differs (Lab (a, b) `COLOUR_APART` or more): within `OWN_COLOUR` of the way to the
    other's, and lit otherwise than where it was read (`SIDE_LIGHT`): its side, or its top
    face when read at its side. A die leaning with its side against a die of another colour
    reaches past halfway to it (a white die's grey side against a yellow die; a red die read
    at its side, its top face against a white die): cut off, the rest of it was a square. A
    seam's blend and the dark edge of a die of another colour are of neither."""
    keep = np.ones(lab.shape[:2], bool)
    ours = _face_colour(lab, (0.0, 0.0)) if sides and others else None
    if ours is not None:
        lightness = lab[..., 0] / max(float(ours[0]), 1.0)
        low, high = SIDE_LIGHT
        otherwise = ((low <= lightness) & (lightness <= high)) | (
            (1 / high <= lightness) & (lightness <= 1 / low))
    for ox, oy in others:
        nearer = _XS * ox + _YS * oy <= (ox * ox + oy * oy) / 2
        theirs = None if ours is None else _face_colour(lab, (ox, oy))
        apart = 0.0 if ours is None or theirs is None else float(np.linalg.norm(ours[1:] - theirs[1:]))
        if ours is not None and apart >= COLOUR_APART:
            diff = lab[..., 1:] - ours[1:]
            own = np.einsum("...k,...k->...", diff, diff) <= (OWN_COLOUR * apart) ** 2
            nearer |= own & otherwise
        keep &= nearer
    return keep


def _face_colour(lab: np.ndarray, offset: tuple[float, float]) -> np.ndarray | None:
    """The median Lab of a die's face round `offset` from the patch's centre, or None when
    that lies outside the patch."""
    x, y = round(PATCH / 2 + offset[0]), round(PATCH / 2 + offset[1])
    r = FACE_SAMPLE
    if not (r <= x < PATCH - r and r <= y < PATCH - r):
        return None
    return np.median(lab[y - r:y + r + 1, x - r:x + r + 1].reshape(-1, 3), axis=0)


def _outline(patch_bgr: np.ndarray, others: list[tuple[float, float]],
             two_tables: bool = False, sides: bool = False, lighter: bool = False,
             side: float | None = None, grain: bool = True, lit_floor: bool = False,
             most: float = PIECES_MOST, *, lab: np.ndarray) -> np.ndarray | None:
    """Contour of what stands out from the table at the centre of the patch, nearer its centre
    than the `others` (offsets from it, patch pixels), or None when it reaches the patch's
    border (it is not one die alone). `two_tables`: as for `_foreground`. `side`: a die's side
    in patch pixels; with `lighter` on a dark table, the outline is the hull of the die's
    pieces (`_with_pieces`). `lab`: the patch in 8-bit Lab."""
    raw = _standing_out(patch_bgr, others, two_tables, sides, lighter, grain, lit_floor, lab)
    c = PATCH // 2
    grey = lab[..., 0]
    floor = _table_lightness(grey) if lighter and side is not None else np.inf
    dark = floor < DARK_TABLE
    if dark:
        raw[_lit_beyond(grey, floor) > 0] = 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats(_cleaned(raw))
    centre = np.bincount(labels[c - 4:c + 4, c - 4:c + 4].ravel(), minlength=n)
    centre[0] = 0
    if n < 2 or centre.max() == 0:
        return None
    k = int(centre.argmax())
    x, y, w, h, _ = stats[k]
    if x == 0 or y == 0 or x + w == PATCH or y + h == PATCH:
        return None
    die = (labels == k).astype(np.uint8)
    if dark:
        assert side is not None
        return _with_pieces(die, raw, side, grey, floor, PIECE_REACH if grain else SIDE_REACH, most)
    contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(contours, key=cv2.contourArea)


def _lit_beyond(grey: np.ndarray, floor: float) -> np.ndarray:
    """Mask (0/1) of what is lighter than a dark table (`DARK_STEP`) in pieces apart from the
    one at the patch's centre that reach its border: a tray's rim or lit wall, or the table
    round it, whose colour stands out too. Closed onto a die flush against it across the
    dark seam between them, a strip of it made a flat die long (75011 t2, called cocked).
    `grey`, `floor`: the patch's Lab lightness and its border's median."""
    n, labels = cv2.connectedComponents((grey > floor + DARK_STEP).astype(np.uint8))
    c = PATCH // 2
    beyond = np.zeros(n, bool)
    beyond[_border(labels)] = True
    beyond[0] = False
    beyond[np.unique(labels[c - 4:c + 4, c - 4:c + 4])] = False
    return beyond[labels].astype(np.uint8)


def on_dark_table(patch_bgr: np.ndarray) -> bool:
    """Whether the patch's border (the table) is under `DARK_TABLE` in Lab lightness."""
    return _table_lightness(cv2.cvtColor(patch_bgr, cv2.COLOR_BGR2LAB)[..., 0]) < DARK_TABLE


def _border(labels: np.ndarray) -> np.ndarray:
    """The labels along the patch's border (with repeats)."""
    return np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]])


def _table_lightness(grey: np.ndarray) -> float:
    """The median of the patch's border (two pixels wide) in `grey`."""
    ring = np.concatenate([grey[:2].ravel(), grey[-2:].ravel(), grey[:, :2].ravel(),
                           grey[:, -2:].ravel()])
    return float(np.median(ring))


def _with_pieces(die: np.ndarray, raw: np.ndarray, side: float, grey: np.ndarray, floor: float,
                 reach_sides: float = PIECE_REACH, most: float = PIECES_MOST) -> np.ndarray | None:
    """The convex hull of the die's silhouette (`die`, 0/1) and the pieces of `raw` (what
    stands out, uncleaned) within `reach_sides` of it (`PIECE_REACH`; the cocked test's
    `SIDE_REACH`), each lighter than the floor by
    `PIECE_STEP` somewhere, unless they cover over `most` faces (then the die's alone). On
    a black floor a dark die shows in pieces: a leaning die's side, as dark as the floor,
    shows its pips alone; a real die's face darkening to one edge leaves its lighter rounded
    corners apart from it (a black one lying flat was taken for a top face alone, narrower
    than a die). The opening that cleans the silhouette takes pip-wide
    pieces out. `grey`, `floor`: the patch's Lab lightness and its border's median."""
    reach = cv2.distanceTransform(1 - die, cv2.DIST_L2, 3) <= reach_sides * side
    n, labels, stats, _ = cv2.connectedComponentsWithStats((raw > die).astype(np.uint8))
    bright = grey >= floor + PIECE_STEP
    # each piece's tests at once: within reach, lighter somewhere, large, off the border (a
    # wall, the table beyond: not the die's)
    pieces = np.zeros(n, bool)
    pieces[labels[reach]] = True
    lit = np.zeros(n, bool)
    lit[labels[bright]] = True
    x, y, w, h, area = (stats[:, k] for k in range(5))
    pieces &= lit & (area >= PIECE_AREA * side * side) & (x > 0) & (y > 0) & \
        (x + w < PATCH) & (y + h < PATCH)
    pieces[0] = False
    keep = die.astype(bool) | pieces[labels]
    hull = cv2.convexHull(cv2.findNonZero(keep.astype(np.uint8)))
    if cv2.contourArea(hull) > most * side * side:
        # the floor's lighter grain, not pieces of a die (a white one by the wall, where the
        # floor is lighter than its shaded strip, looked cocked)
        hull = cv2.convexHull(cv2.findNonZero(die))
    return hull
