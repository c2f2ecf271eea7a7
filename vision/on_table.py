"""The table a picture is read on: its polygon, and which dice lie off it (a SPAZ)."""
from __future__ import annotations

import cv2
import numpy as np
from zonkcam.vision.dice import Die

EDGE_FRACTION = 0.35  # a centre closer than this × die size to the table edge crosses it


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
