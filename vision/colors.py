"""Naming a die's colour from the set in play: a calibrated dice set or the default palette.

No photo set has colour labels, so colour is measured rather than learned: the die's body colour
(`body_lab`: what most of the face agrees on, so pips, glare and a translucent body's light and
shade are left out), white-balanced on the picture's highlights, in CIE Lab. It is named by the
nearest reference colour of the set, with lightness weighted down because light levels vary
more than hues; a body further than the set's `max_distance` from every reference is not named
(None: the die's colour is unreadable), never given a colour the set does not have.
`zonkcam calibrate-dice` measures the set's own colours under the table's light, saved as a
dice-set file:

    {"name": "my set", "colors": {"red": [L, a, b], "white": [L, a, b], ...},
     "modes": {"red": [[share, L, a, b], [share, L, a, b]], ...}}

A marbled die's body is two colours in shares that vary from die to die, so its one body colour
wanders between them; a calibrated colour also keeps the two `modes` of its dice's bodies (pips
left out by their shape), and a die is as near a colour as the nearer of its body colour and its
own two modes (the earth mover's distance between the two pairs of modes). Files without
"modes" (older ones, the default palette) name by the body colour alone.
The default palette, for sets without a file, names in a space of its own (`_palette_space`):
its references are usual dice, not the table's own, so a die's chroma (dye, translucency,
swirl, light) is compressed and its hue decides, and a body clearly coloured is never black.
`DiceSet.restricted(names)` keeps the colours a game's rules name (a variant's `dice_colors`).
"""
from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

# sRGB of dice bodies as `body_lab` measures them in byler's photos (white-balanced; ivory,
# orange, pink and grey, which byler lacks, from the usual dice of those names), as Lab via
# OpenCV's 8-bit convention (L, a, b in 0..255). White, ivory and yellow differ in b*
# (yellowness) and lightness: white ~131, ivory ~145, yellow 190 and up.
DEFAULT_RGB = {
    "white": (226, 226, 226),  # neutral: byler's and the drawn white dice measure b* 127-129
    "ivory": (222, 212, 185),
    "yellow": (210, 190, 40),
    "orange": (225, 110, 30),
    "red": (165, 35, 38),
    "maroon": (100, 40, 50),
    "pink": (230, 120, 160),
    "purple": (80, 35, 100),
    "blue": (32, 62, 140),
    "teal": (38, 94, 81),
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
# Fewer, but a blob of them at the centre of at least DIE_BLOB of the inner half is a die seen
# smaller than its box (the table fills the rest; byler through the reader: a red die at 0.4 of
# its box read white). Pips, and a glare spot joining a pip, are far smaller.
DIE_BLOB = 0.25
BLOB_FAR = 36.0  # and clearly unlike the table: a swirl or glare on a die of the table's colour is not
# A pip: a compact blob (bounding box filled 0.45, sides within 2:1) at most PIP_SHARE of the
# inner half, further than PIP_FAR from the body colour. A marbled die's swirls are bigger or
# long, and are kept: they are the body's second colour.
PIP_FAR, PIP_SHARE = 30.0, 0.12
AGREE = 35.0  # a calibrated colour's dice whose bodies agree (`central_body`)
TEMPERATURE = 12.0  # Lab distance that makes a name e times less likely than a closer one
# A body further than this (in `_naming_space`) from every colour of the set is not named:
# another colour than the set's (a blue die in a red, white and green set), not a die's own
# colour in another light. Marbled dice vary most, from die to die of one set.
MAX_DISTANCE = 40.0
CALIBRATED_MAX_DISTANCE = 40.0
# The default palette's space (`_palette_space`). Its references are usual dice, not the table's
# own: a navy die's chroma is a royal blue's doubled by the dark boost, a blue die marbled with
# black measures a third of the palette's blue, a translucent green half its green, yet each
# keeps its hue. So chroma is compressed (C -> PALETTE_CHROMA * C / (C + PALETTE_HALF): 45 of
# chroma is half the most) and lightness weighted down further; and a body of chroma
# BLACK_MAX_CHROMA or more is not black (byler's black dice measure 1-6, its black-swirled
# blue and dark plum dice 10-27). Set on byler's photos and drawn seeds 0-3 (colour round 2).
PALETTE_L_WEIGHT = 0.3
PALETTE_CHROMA, PALETTE_HALF = 130.0, 45.0
BLACK_MAX_CHROMA = 10.0
# A game's share of the palette does not name a die that a palette colour left out of the game
# is nearer than OUTSIDE_MARGIN to: no colour of the set fits it (a blue die in a red, green
# and white set). Closer than that, the set's colour is taken: a cream die in a white set is
# its white. Drawn seeds 0-3, three other colours: named .23 -> .08, three with its own
# right .993 -> .992; byler in a red, green, white set: right .983 -> .975.
OUTSIDE_MARGIN = 20.0


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
    from all of them is not named. `palette`: the default palette's colours (and a game's
    share of them), named in `_palette_space`; a calibrated set, borrowed colours and all, is
    named in `_naming_space`. `outside`: the palette's colours a game's share of it left out
    (`restricted`), for `OUTSIDE_MARGIN`."""

    name: str
    colors: dict[str, tuple[float, float, float]]
    max_distance: float = MAX_DISTANCE
    modes: dict[str, np.ndarray] = field(default_factory=dict)  # name: k×4 (share, L, a, b)
    palette: bool = False
    outside: dict[str, tuple[float, float, float]] = field(default_factory=dict)

    @classmethod
    def default(cls) -> DiceSet:
        return cls("default", {k: tuple(rgb_to_lab(v).tolist()) for k, v in DEFAULT_RGB.items()},
                   palette=True)

    @classmethod
    def load(cls, path: str | Path) -> DiceSet:
        shape = "a JSON object whose 'colors' maps names to [L, a, b]"
        try:
            data = json.loads(Path(path).read_text())
        except OSError as exc:
            raise DiceSetError(f"cannot read dice-set file {path}: {exc.strerror}") from exc
        except ValueError as exc:  # not JSON, or not text at all
            raise DiceSetError(f"{path} is not a dice-set file (not JSON: {exc})") from exc
        if not isinstance(data, dict) or not isinstance(data.get("colors"), dict):
            raise DiceSetError(f"{path} is not a dice-set file (expected {shape})")
        try:
            colors = {str(k): tuple(float(x) for x in v) for k, v in data["colors"].items()}
        except (ValueError, TypeError) as exc:
            raise DiceSetError(f"{path} is not a dice-set file (expected {shape})") from exc
        if not colors or any(len(v) != 3 or not all(0 <= x <= 255 for x in v)
                             for v in colors.values()):
            raise DiceSetError(f"{path}: 'colors' must map names to [L, a, b], each 0-255")
        if bad := [k for k in colors if not COLOR_NAME.fullmatch(k)]:
            raise DiceSetError(f"{path}: {bad[0]!r} is not a colour name (a lower-case word)")
        lab = {k: (v[0], v[1], v[2]) for k, v in colors.items()}  # three each, checked above
        return cls(str(data.get("name", Path(path).stem)), lab, CALIBRATED_MAX_DISTANCE,
                   _load_modes(path, data.get("modes", {}), lab))

    def save(self, path: str | Path) -> None:
        data: dict = {"name": self.name,
                      "colors": {k: [round(x, 1) for x in v] for k, v in self.colors.items()}}
        if self.modes:
            data["modes"] = {k: [[round(float(x), 3 if i == 0 else 1) for i, x in enumerate(row)]
                                 for row in m] for k, m in self.modes.items()}
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
        modes = {n: self.modes[n] for n in wanted if n in self.modes}
        outside = ({n: v for n, v in (self.colors | self.outside).items() if n not in colors}
                   if self.palette else {})
        return DiceSet(self.name, colors, self.max_distance, modes,  # type: ignore[arg-type]
                       self.palette, outside)

    def name_of(self, lab: np.ndarray) -> tuple[str | None, float]:
        """The nearest reference colour and a softmax confidence over all of them; (None, 0.0)
        when even the nearest is over `max_distance`: the die's colour is unreadable. A `Body`
        (from `body_lab`) is as near a colour with `modes` as the nearer of its body colour and
        its own modes (`mode_distance`). A game's share of the palette names None where a
        colour it left out is nearer by more than `OUTSIDE_MARGIN`."""
        names = list(self.colors)
        dist = self._distances(self.colors, lab)
        if not np.isfinite(dist).any():
            return None, 0.0
        if isinstance(lab, Body) and lab.measured() and any(n in self.modes for n in names):
            own = lab.modes()
            dist = np.array([min(d, mode_distance(own, self.modes[n])) if n in self.modes else d
                             for d, n in zip(dist, names, strict=True)])
        p = np.exp(-(dist - dist.min()) / TEMPERATURE)
        p /= p.sum()
        i = int(np.argmax(p))
        if dist[i] > self.max_distance or (
                self.outside and self._distances(self.outside, lab).min() + OUTSIDE_MARGIN < dist[i]):
            return None, 0.0
        return names[i], float(p[i])

    def _distances(self, colors: dict[str, tuple[float, float, float]], lab: np.ndarray) -> np.ndarray:
        """The body's distance to each of `colors` in this set's space (inf: black, for a body
        too coloured to be black in the palette's)."""
        space = _palette_space if self.palette else _naming_space
        refs = _references(self.palette, tuple(tuple(map(float, v)) for v in colors.values()))
        dist = np.linalg.norm(refs - space(np.asarray(lab, np.float32).reshape(1, 3)), axis=1)
        if self.palette and _chroma(lab) >= BLACK_MAX_CHROMA:
            dist = np.where([n == "black" for n in colors], np.inf, dist)
        return dist


@lru_cache(maxsize=64)
def _references(palette: bool, labs: tuple[tuple[float, float, float], ...]) -> np.ndarray:
    """A set's colours in its naming space, once per set (naming is per die, per frame)."""
    refs = (_palette_space if palette else _naming_space)(np.array(labs, np.float32))
    refs.flags.writeable = False
    return refs


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
    small = thumbnail(image_bgr, WB_SIDE).reshape(-1, 3)
    # the sum of the three channels, 0-765: its 99th-percentile pixel found by counting, not by
    # a partition of every pixel (the same pixel, at a fifth of the cost)
    lum = small[:, 0].astype(np.int32) + small[:, 1] + small[:, 2]
    k = int(0.99 * (len(lum) - 1))
    kth = int(np.searchsorted(np.cumsum(np.bincount(lum, minlength=766)), k, side="right"))
    top = small[lum >= kth].astype(np.float32).mean(0) + 1.0
    return np.clip(top.max() / top, 0.8, 1.25)


class Body(np.ndarray):
    """A die's body colour (Lab, 3 numbers, as an array) that keeps the pixels it was measured
    on, for `modes`: a marbled die's two colours, measured only when a set asks for them."""

    core: np.ndarray | None
    mask: np.ndarray | None

    def __array_finalize__(self, obj: object) -> None:
        # arithmetic on a body (a mean of several, a difference) is a colour with no pixels
        self.core, self.mask = None, None

    def measured(self) -> bool:
        return self.core is not None and self.mask is not None and self.shape == (3,)

    def modes(self) -> np.ndarray:
        """The body's two colours and their shares, k×4 (share, L, a, b): pips left out by their
        shape (`_without_pips`), the rest split in two (`two_modes`)."""
        if self.core is None or self.mask is None:
            raise ValueError("a body computed from others has no pixels: measure it (body_lab)")
        return two_modes(_without_pips(self.core, self.mask, np.asarray(self)))


def body_lab(patch_bgr: np.ndarray, gains: np.ndarray) -> Body:
    """Lab of the die's body in a face patch (the die spans the middle 1/1.6 of it).

    The body is what most of the face's inner half agrees on: the median colour, then the
    median of the `BODY_SHARE` of pixels nearest it, twice. Pips (a quarter of the inner half at
    most, a six's), glare on a glossy face and pips seen through a translucent body are the
    far minority; a translucent body's light and shade lie on both sides of its median. A
    proposal too big or off the die's centre lets the table in: where enough of the inner half
    is unlike the table's colour (the patch's rim), only that part is measured (`DIE_SHARE`), or
    a blob of it at the centre the size of a die (`DIE_BLOB`).
    """
    core, mask = _body_pixels(patch_bgr, gains)
    body = _trimmed_median(core[mask]).view(Body)
    body.core, body.mask = core, mask
    return body


def _body_pixels(patch_bgr: np.ndarray, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The inner half's Lab pixels (N×3) and which of them are the die's (N bools)."""
    n = patch_bgr.shape[0]
    m = int(n * 0.25)  # the inner half of the patch: well inside the face
    core = _labs(patch_bgr[m:n - m, m:n - m].reshape(-1, 3).astype(np.float32) * gains)
    ring = np.concatenate([patch_bgr[:2].reshape(-1, 3), patch_bgr[-2:].reshape(-1, 3),
                           patch_bgr[:, :2].reshape(-1, 3), patch_bgr[:, -2:].reshape(-1, 3)])
    table = _column_medians(_labs(ring.astype(np.float32) * gains))
    unlike = _distance(core, table) > TABLE_FAR
    if unlike.sum() >= DIE_SHARE * len(core):
        return core, unlike
    side = n - 2 * m
    _, blobs, stats, _ = cv2.connectedComponentsWithStats(
        unlike.reshape(side, side).astype(np.uint8), connectivity=8)
    c = side // 2
    central = [i for i in np.unique(blobs[c - 2:c + 2, c - 2:c + 2])
               if i and stats[i, cv2.CC_STAT_AREA] >= DIE_BLOB * len(core)]
    if central:
        blob = blobs.reshape(-1) == max(central, key=lambda i: stats[i, cv2.CC_STAT_AREA])
        if _distance(np.median(core[blob], axis=0)[None], table)[0] >= BLOB_FAR:
            return core, blob
    return core, np.ones(len(core), bool)


def _without_pips(core: np.ndarray, mask: np.ndarray, body: np.ndarray) -> np.ndarray:
    """The die's pixels less its pips: compact blobs unlike the body, of a pip's size at most."""
    side = round(len(core) ** 0.5)
    odd = (_distance(core, body) > PIP_FAR) & mask
    count, blobs, stats, _ = cv2.connectedComponentsWithStats(
        odd.reshape(side, side).astype(np.uint8), connectivity=8)
    pips = [i for i in range(1, count) if _pip_like(stats[i], len(core))]
    keep = mask & ~np.isin(blobs.reshape(-1), pips)
    return core[keep] if keep.sum() >= 20 else core[mask]


def _pip_like(stat: np.ndarray, n: int) -> bool:
    _, _, w, h, area = (int(v) for v in stat)
    return area <= PIP_SHARE * n and max(w, h) <= 2 * min(w, h) and area >= 0.45 * w * h


def two_modes(labs: np.ndarray, rounds: int = 5) -> np.ndarray:
    """Two colours of `labs` (N×3) and their shares, k×4 (share, L, a, b; k=1 when all the
    pixels fall to one): 2-means in the naming space, begun at the median and the mean of the
    quarter furthest from it, on every other pixel (as good, and half the cost)."""
    labs = labs[::2] if len(labs) >= 200 else labs
    z = _naming_space(labs)
    c0 = np.median(z, axis=0)
    d = ((z - c0) ** 2).sum(axis=1)
    c1 = z[d >= np.quantile(d, 0.75)].mean(axis=0)
    second = np.zeros(len(z), bool)
    for _ in range(rounds):  # nearer c1 than c0: beyond the plane halfway between them
        second = z @ (c1 - c0) > 0.5 * (c1 @ c1 - c0 @ c0)
        if second.all() or not second.any():
            break
        c0, c1 = z[~second].mean(axis=0), z[second].mean(axis=0)
    return np.array([[float(part.mean()), *labs[part].mean(axis=0)]
                     for part in (~second, second) if part.any()], np.float32)


def pooled_modes(modes: list[np.ndarray], rounds: int = 8) -> np.ndarray:
    """A colour's two modes from its dice's (`calibrate-dice`'s row, each die's `Body.modes`):
    2-means over all their modes, weighted by share, each die counting alike."""
    rows = np.concatenate([m * np.array([1.0 / m[:, 0].sum(), 1, 1, 1], np.float32) for m in modes])
    w, z = rows[:, 0] / rows[:, 0].sum(), _naming_space(rows[:, 1:])
    first = int(np.argmax(w))
    spread = np.linalg.norm(z - z[first], axis=1) * (w > 0.1 * w.max())
    centres = np.stack([z[first], z[int(np.argmax(spread))]])
    for _ in range(rounds):
        near = np.argmin(((z[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
        centres = np.stack([(z[near == j] * w[near == j, None]).sum(axis=0) / w[near == j].sum()
                            if (near == j).any() else centres[j] for j in range(2)])
    return np.array([[w[near == j].sum(), *(rows[near == j, 1:] * w[near == j, None]).sum(axis=0)
                      / w[near == j].sum()] for j in range(2) if (near == j).any()], np.float32)


def central_body(bodies: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """A colour's body from its dice's (N×3): the median of those within `AGREE` of the one
    nearest their pooled main mode. Two marbled dice, one read as its purple and one as its
    white swirl, have a mean (their median) that is neither (a set's purple dice read blue)."""
    z = _naming_space(np.asarray(bodies, np.float32))
    main = modes[int(np.argmax(modes[:, 0])), 1:]
    d = np.linalg.norm(z - _naming_space(main[None].astype(np.float32)), axis=1)
    nearest = z[int(np.argmin(d))]
    agree = np.linalg.norm(z - nearest, axis=1) <= AGREE
    return np.median(np.asarray(bodies, np.float32)[agree], axis=0)


def mode_distance(a: np.ndarray, b: np.ndarray) -> float:
    """The earth mover's distance between two colours' modes (k×4: share, L, a, b) in the
    naming space: the least colour difference, times share, that turns one into the other."""
    sa, sb = (np.concatenate([m[:, :1] / m[:, 0].sum(), _naming_space(m[:, 1:])], axis=1)
              .astype(np.float32) for m in (a, b))
    return float(cv2.EMD(sa, sb, cv2.DIST_L2)[0])


def _load_modes(path: str | Path, raw: object, colors: dict) -> dict[str, np.ndarray]:
    """A dice-set file's "modes" (optional): name -> rows of [share, L, a, b]."""
    if not isinstance(raw, dict):
        raise DiceSetError(f"{path}: 'modes' must map names to rows of [share, L, a, b]")
    try:
        # float64 first: a huge number is refused below, not cast to inf with a warning
        modes = {str(k): np.array(v, np.float64).reshape(-1, 4) for k, v in raw.items()}
    except (ValueError, TypeError) as exc:
        raise DiceSetError(f"{path}: 'modes' must map names to rows of [share, L, a, b] ({exc})") from exc
    for k, m in modes.items():
        if k not in colors or not len(m) or not np.all((m >= 0) & (m <= 255)) or m[:, 0].sum() <= 0:
            raise DiceSetError(f"{path}: 'modes' of {k!r} must be a colour of the set's, with rows "
                               "of [share, L, a, b], each 0-255, shares not all 0")
    return {k: m.astype(np.float32) for k, m in modes.items()}


def _trimmed_median(labs: np.ndarray) -> np.ndarray:
    """The median of the `BODY_SHARE` of `labs` nearest their median, found twice."""
    mid = _column_medians(labs)
    for _ in range(2):
        d = _distance(labs, mid)
        mid = _column_medians(labs[d <= _quantile(d, BODY_SHARE)])
    return mid.astype(np.float32)


def _column_medians(values: np.ndarray) -> np.ndarray:
    """`np.median(values, axis=0)` of an N×3 array, as it computes it (the mean of the middle
    one or two after a partition), at half its cost: a die's colour takes several a read."""
    n = len(values)
    k = n // 2
    kth = (k,) if n % 2 else (k - 1, k)
    part = np.partition(np.ascontiguousarray(values.T), kth, axis=1)
    return np.mean(part[:, kth[0]:k + 1], axis=1)


def _quantile(values: np.ndarray, q: float) -> np.floating:
    """`np.quantile(values, q)` (linear) of a 1-D array, by a partition at its two order
    statistics, in the same arithmetic (the values' own type, as numpy's `_lerp`)."""
    at = q * (len(values) - 1)
    lo = int(np.floor(at))
    hi = min(lo + 1, len(values) - 1)
    part = np.partition(values, (lo, hi))
    a, b, t = part[lo], part[hi], at - lo
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t


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


def _palette_space(labs: np.ndarray) -> np.ndarray:
    """`_naming_space` for the default palette: lightness weighted `PALETTE_L_WEIGHT`, and the
    dark-boosted chroma C compressed to PALETTE_CHROMA * C / (C + PALETTE_HALF), hue kept. A
    die's chroma strays from a usual die's of its colour (translucent, marbled, navy against
    royal blue) far more than its hue does; near grey, chroma still tells black from a colour."""
    z = _naming_space(labs)
    chroma = np.hypot(z[:, 1], z[:, 2])[:, None]
    return np.concatenate([z[:, :1] * (PALETTE_L_WEIGHT / L_WEIGHT),
                           z[:, 1:] * (PALETTE_CHROMA / (chroma + PALETTE_HALF))], axis=1)


def _chroma(lab: np.ndarray) -> float:
    """A colour's chroma, as measured (no dark boost), in OpenCV 8-bit Lab."""
    v = np.asarray(lab, np.float32).reshape(3)
    return float(np.hypot(v[1] - 128.0, v[2] - 128.0))


def _labs(bgr: np.ndarray) -> np.ndarray:
    """BGR pixels (N×3, 0..255 float) to Lab in OpenCV's 8-bit convention, unrounded."""
    px = np.clip(bgr, 0, 255).astype(np.float32).reshape(-1, 1, 3) / 255.0
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return lab * np.array([2.55, 1.0, 1.0], np.float32) + np.array([0.0, 128.0, 128.0], np.float32)
