"""Where dice lie, shared by every stage that looks at dice from above: the dice's size, one die
read twice, a die resting on another (`stacked`), a die off the table, and colour names that
are one die's (a name flickers between settles).

The distances are in die sizes (a die's top-face side in pixels): dice of a set are one size,
and the camera looks straight down.
"""
from __future__ import annotations

import functools
import math
import statistics
from dataclasses import replace

import numpy as np
from zonkcam.vision.dice import Die, box_growth, reading_order
from zonkcam.vision.table import TableConfig, inside

STACKED = 0.6  # die sizes between the centres of a die and the one it rests on, at most
TWICE = 0.85  # die sizes between two reads of one die, at most (dice side by side: 1)
LEAN_REACH = 1.2  # die sides from where a cocked die is read (its top face) that its side reaches
EDGE_SLACK = 0.15  # of a side: how far a die's face may seem to cross the table's edge
WIDEST = 4.0  # die sides: a read whose box is wider is no die (a stack's top die proposed
# with the die below is up to 3 wide)
ALIKE_COLOURS = 55.0  # palette distance between colour names a die's name flickers between


def die_size(dice: list[Die], default: float = 30.0) -> float:
    """Median top-face side in pixels, undoing the box growth a rotation causes."""
    sides = []
    for d in dice:
        sides.append(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) / box_growth(d.angle))
    return statistics.median(sides) if sides else default


def count_dice(dice: list[Die]) -> int:
    """How many dice these are: a stacked one stands for two (the one below is hidden)."""
    return sum(2 if d.status == "stacked" else 1 for d in dice)


def mark_geometry(dice: list[Die], table: TableConfig | None,
                  size: float | None = None) -> list[Die]:
    """Statuses the reader cannot know or may miss: off the table, and stacked.

    A die whose face crosses the table edge is `off_table`. Two dice much closer than one die
    size cannot both lie flat: the one read with more confidence is on top (`stacked`) and the
    other, mostly hidden, is dropped. Two a little farther apart, but still closer than dice
    touching side by side, are one die read twice (the proposer can find a low-contrast face
    twice, some 0.7 of a die apart); no die can rest on another that far off its centre. A
    `cocked` die is not taken for a second read of a flat neighbour: its outline is longer
    than a flat die's, so its centre lies nearer the die it touches.
    `size`: the dice's face side in pixels, if known better than from these dice.
    A read whose box is over `WIDEST` sides across is no die: the recognizer's proposal of a
    patch of the table with dice in it (centred between dice it hid, it was taken for a die
    thrown on the table after a hold).
    """
    size = size or die_size(dice)
    dice = [d for d in dice if max(d.box[2] - d.box[0], d.box[3] - d.box[1]) <= WIDEST * size]
    out: list[Die] = []
    for d in sorted(dice, key=lambda d: -d.confidence):
        near = next((o for o in out if distance(o, d) < _one_die(o, d) * size), None)
        if near is not None:
            if near.status == "ok" and distance(near, d) < STACKED * size:
                out[out.index(near)] = replace(near, status="stacked")
            continue
        out.append(d)
    if table is not None:
        out = [_placed(d, table, size) for d in out]
    return sorted(out, key=reading_order)


def _placed(d: Die, table: TableConfig, size: float) -> Die:
    """The die, `off_table` when its face crosses the table's edge (`on_table`), and not when
    it does not, if a reader marked it so by a box wider than a die."""
    if not on_table(d, table, size):
        return d if d.status == "off_table" else replace(d, status="off_table")
    if d.status == "off_table":
        return replace(d, status="ok" if d.value is not None else "unreadable")
    return d


def _one_die(a: Die, b: Die) -> float:
    """Die sizes between two reads of one die, at most. Two dice read cocked that close are
    one read at its top face and at its side: two leaning dice lie a side apart or more."""
    return STACKED if (a.status == "cocked") != (b.status == "cocked") else TWICE


def on_table(d: Die, table: TableConfig, size: float) -> bool:
    """Whether the die's centre and face lie on the table. The face is measured as a die of
    `size` px turned as this one is, not by its box: dice of a set are one size, and a box
    can be a pip's (a die proposed at a pip) or three dice wide (a stack's top die proposed
    with the die below, called off the table a die from its edge)."""
    x, y = d.center
    if not inside(table.polygon, x, y):
        return False
    # the face's corners as the die is turned (not its upright box, wider by `box_growth`),
    # each `EDGE_SLACK` of a side in: a die resting flat against a tray's wall lies a hair
    # inside it, and the picture can lie a few px off the table file's (a table nudged: a die
    # against a slanted wall was called off the table)
    reach = size * (0.5 - EDGE_SLACK) * math.sqrt(2)
    a = math.radians(d.angle % 90 + 45)
    return all(inside(table.polygon, x + reach * math.cos(a + k * math.pi / 2),
                      y + reach * math.sin(a + k * math.pi / 2)) for k in range(4))


def distance(a: Die, b: Die, shift: tuple[float, float] = (0.0, 0.0)) -> float:
    return math.hypot(b.center[0] - a.center[0] - shift[0], b.center[1] - a.center[1] - shift[1])


def same_colour(a: Die, b: Die) -> bool:
    """The same colour where both are named, or names a die's colour flickers between: of
    the default palette, nearer each other than `ALIKE_COLOURS` (white and grey, grey and
    black, red and orange; not white and black). A real die's grey body on a dark tray, lit
    more or less, is named white, grey or black from one settle to the next (a kept die
    knocked, named white then grey, was reported thrown)."""
    if a.color is None or b.color is None or a.color == b.color:
        return True
    return _palette_gap(a.color, b.color) < ALIKE_COLOURS


@functools.cache
def _palette_gap(a: str, b: str) -> float:
    """Lab distance, lightness weighted down as where dice are named, between two colours of
    the default palette; infinite for a name it lacks (a calibrated set's own)."""
    from zonkcam.vision.colors import DEFAULT_RGB, L_WEIGHT, rgb_to_lab

    if a not in DEFAULT_RGB or b not in DEFAULT_RGB:
        return math.inf
    d = rgb_to_lab(DEFAULT_RGB[a]) - rgb_to_lab(DEFAULT_RGB[b])
    return float(np.hypot(L_WEIGHT * d[0], np.hypot(d[1], d[2])))
