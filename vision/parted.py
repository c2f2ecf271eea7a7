"""A die read over two dice touching, parted: with a die short of the count after a roll, a
die read whose box spans two dice is read again at its quarters, and the change left there
that looks cocked is the other die.

The recognizer can box two dice touching as one (81001 t4: a cocked white die over a dark
four lying flat, one read 2.4 sides across, a four, centred between them). The read's centre
lies within `changed_spots`' reach of both, so no spot is left to show the die it hid, and the
throw came out a die short: `spaz, lost`.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from zonkcam.vision.cocked import looks_cocked
from zonkcam.vision.dice import Die, box_growth
from zonkcam.vision.geometry import TWICE, distance
from zonkcam.vision.table import Polygon

# die sides a read's box spans, its turn undone (`box_growth`), at least, that is two dice (a
# die alone, turned 45°: 1.41 before; 90003 t5: a black two turned 36°, boxed with its shadow
# 57 px across, 1.9 sides, parted into two twos 28 px apart)
TWO_DICE = 1.8
ONE_DIE = 1.5  # die sides a die read again at a quarter spans, at most: one die, not two again

Spot = tuple[float, float]
Box = tuple[int, int, int, int]
ReadAt = Callable[[np.ndarray, Sequence[Spot], float, Polygon | None], list[Die]]


def wide(d: Die) -> int:
    """A die's box's longer side, in px."""
    return max(d.box[2] - d.box[0], d.box[3] - d.box[1])


def _quarters(box: Box) -> list[Spot]:
    """The centres of `box`'s four quarters: two dice side by side or corner to corner each
    lie at one."""
    x0, y0, x1, y1 = box
    w, h = (x1 - x0) / 4, (y1 - y0) / 4
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return [(cx + dx, cy + dy) for dx in (-w, w) for dy in (-h, h)]


def read_apart(dice: list[Die], image: np.ndarray, side: float, table: Polygon | None,
               read_at: ReadAt | None) -> tuple[list[Die], list[Die]]:
    """`dice` with each flat die read `TWO_DICE` sides across or more replaced by the dice read
    at its box's quarters (each one die, apart from the others), and the reads so parted. A
    box that reads no die at its quarters keeps its read. No `read_at` (no die short, or a
    reader that cannot read at a place): `dice` as they are."""
    if read_at is None:
        return dice, []
    out: list[Die] = []
    split: list[Die] = []
    for d in dice:
        if d.status != "ok" or wide(d) / box_growth(d.angle) < TWO_DICE * side:
            out.append(d)
            continue
        found: list[Die] = []
        for r in read_at(image, _quarters(d.box), side, table):
            if wide(r) <= ONE_DIE * side and all(distance(r, o) >= TWICE * side for o in found):
                found.append(r)
        out += found or [d]
        if found:
            split.append(d)
    return out, split


def _in(center: Spot, box: Box) -> bool:
    return box[0] <= center[0] <= box[2] and box[1] <= center[1] <= box[3]


def unparted(dice: list[Die], split: Sequence[Die]) -> list[Die]:
    """`dice` with each read `split` (`read_apart`) given back where its box holds one die
    alone, read again at a quarter and lying flat: nothing else was found in it (no die
    cocked, none at a changed spot), so it held one die and a sliver beside it, a stack's die
    below, which the read's box measures whole (83002 t5: a five thrown onto a four, boxed
    1.96 sides across; read again at a quarter 0.46 sides off its top face, from where the
    stack's silhouette reached past the window it is measured in, the die short was taken for
    lost: a false SPAZ)."""
    out = list(dice)
    for whole in split:
        inside = [i for i, d in enumerate(out) if _in(d.center, whole.box)]
        if len(inside) == 1 and out[inside[0]].status == "ok" and \
                out[inside[0]].center != whole.center:
            out[inside[0]] = whole
    return out


def cocked_within(spots: Sequence[Spot], boxes: Sequence[Box], image: np.ndarray, side: float,
                  dice: list[Die]) -> tuple[list[Die], list[Spot]]:
    """Dice found cocked at the `spots` within a parted box that look cocked (cut off from the
    `dice`), and the other spots. Such a spot is the die the parted read hid, not the side of
    the die read again beside it (`leaning.judge_spots` would take it for that and call the
    die read again, lying flat, cocked: 81001 t4)."""
    found: list[Die] = []
    rest: list[Spot] = []
    half = round(side / 2)
    for x, y in spots:
        if any(_in((x, y), b) for b in boxes) and \
                looks_cocked(image, (x, y), side, [d.center for d in dice]):
            box = (round(x) - half, round(y) - half, round(x) + half, round(y) + half)
            found.append(Die(None, None, 0.0, 0.0, box, (x, y), 0.0, "cocked"))
        else:
            rest.append((x, y))
    return found, rest
