"""The table a picture is read on: its polygon, and which dice lie off it (a SPAZ)."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.geometry import on_table
from zonkcam.vision.silhouette import silhouette
from zonkcam.vision.table import TableConfig, inside

EDGE_FRACTION = 0.35  # a centre closer than this × die size to the table edge crosses it
# A die's outline against the table is its face's square when it is this near a square, of
# these multiples of the dice's side (a die's own, not a pip's or two dice's)
OUTLINE_ASPECT = 1.15
OUTLINE_SIZES = (0.8, 1.25)


class TableError(ValueError):
    """A table polygon that cannot be used (fewer than 3 points, or no area)."""


def table_polygon(table: list[tuple[int, int]] | None, w: int, h: int) -> list[tuple[int, int]]:
    """The table's polygon in whole pixels; the whole `w` × `h` picture when there is none."""
    if table is None:
        return [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
    polygon = [(round(x), round(y)) for x, y in table]
    if len(polygon) < 3 or cv2.contourArea(np.array(polygon, np.float32)) < 1.0:
        raise TableError(f"the table polygon {polygon} is empty (needs 3+ points and an area)")
    return polygon


def place(die: Die, polygon: list[tuple[int, int]]) -> Die:
    """Mark a die `off_table` when its centre is outside the polygon or its face crosses the edge."""
    contour = np.array(polygon, np.float32).reshape(-1, 1, 2)
    dist = cv2.pointPolygonTest(contour, (float(die.center[0]), float(die.center[1])), True)
    size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
    if dist < EDGE_FRACTION * size:
        return Die(die.value, die.color, die.confidence, die.color_confidence, die.box,
                   die.center, die.angle, "off_table")
    return die


def placed_as_outlined(dice: list[Die], image: np.ndarray, table: TableConfig | None,
                       side: float) -> list[Die]:
    """`dice`, those called `off_table` whose centre lies on the table judged again as their
    outline against the table shows them: turned as it is, where it is a die's square
    (`geometry.on_table` measures the face at the die's turn, and the turn read is the face's
    pips and edges, which a real die's photo can show turned otherwise than its square: a
    white die at 42° inside a red square at 3°, read at 42°, crossed the edge of a region
    found 3 px inside the file's, 72001 t8, a false SPAZ); else centred where it is, where it
    covers about a die's face (`_outline_centre`: a black die against a dark tray's wall read
    6 px off its centre, toward the wall, 73019 t3). Only such dice: one whose centre is off
    the table is off it however it is turned."""
    if table is None:
        return dice
    out = []
    for d in dice:
        if d.status == "off_table" and inside(table.polygon, *d.center):
            others = [o.center for o in dice if o is not d]
            turn = _outline_turn(image, d, side, others)
            centre = _outline_centre(image, d, side, others)
            placings = [replace(d, angle=turn)] if turn is not None else []
            placings += [replace(d, center=centre)] if centre is not None else []
            on = next((p for p in placings if on_table(p, table, side)), None)
            if on is not None:
                d = replace(on, box=d.box, status="ok" if d.value is not None else "unreadable")
        out.append(d)
    return out


def _outline_turn(image: np.ndarray, d: Die, side: float,
                  others: list[tuple[float, float]]) -> float | None:
    """The turn (degrees) of die `d`'s outline against the table, where it is a square of
    about a die's side (`OUTLINE_ASPECT`, `OUTLINE_SIZES`); else None."""
    found = silhouette(image, d.center, side, others)
    if found is None:
        return None
    _, (w, h), angle = cv2.minAreaRect(found.contour)
    size = (w + h) / 2 / found.scale
    if max(w, h) > OUTLINE_ASPECT * min(w, h) or \
            not OUTLINE_SIZES[0] <= size / side <= OUTLINE_SIZES[1]:
        return None
    return float(angle)


def _outline_centre(image: np.ndarray, d: Die, side: float,
                    others: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The centre of die `d`'s outline against the table, by colour, else (on a dark table)
    by lightness too (a grey or black die on a black floor stands out by lightness), where
    it covers about a die's face (`OUTLINE_SIZES` squared); else None. The recognizer's box
    can lie off a die's face (a photo's light corners)."""
    for lighter in (False, True):
        found = silhouette(image, d.center, side, others, lighter=lighter, lit_floor=lighter)
        if found is not None and OUTLINE_SIZES[0] ** 2 <= found.area <= OUTLINE_SIZES[1] ** 2:
            return found.centroid()
    return None
