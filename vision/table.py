"""The table region dice must land in, an optional keep zone, and how to find them.

A calibration is saved as a small JSON file (`zonkcam calibrate` writes it, `zonkcam replay
--table FILE` reads it):

    {"frame_size": [640, 480], "polygon": [[x, y], ...], "keep_zone": [[x, y], ...] | null,
     "camera": {"ExposureTime": ..., "AnalogueGain": ..., "ColourGains": [r, b], ...}}

`camera` (optional) holds the fixed exposure, gains and focus the Pi camera had when the table
was calibrated (`zonkcam calibrate --camera pi`), so colours are named under the same light.

A die is off the table (SPAZ) when its top face lies outside the polygon or crosses its edge.
Dice inside the keep zone are the player's set-aside dice, for tables that slide kept dice to one
side instead of leaving them where they landed.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np

Point = tuple[int, int]
Polygon = list[Point]


class TableConfigError(ValueError):
    """A calibration file that cannot be used."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    frame_size: tuple[int, int]  # width, height the polygons are expressed in
    polygon: Polygon
    keep_zone: Polygon | None = None
    camera: dict | None = None  # fixed camera controls (Pi camera), see the module's doc

    def to_json(self) -> dict:
        out = {
            "frame_size": list(self.frame_size),
            "polygon": [list(p) for p in self.polygon],
            "keep_zone": [list(p) for p in self.keep_zone] if self.keep_zone else None,
        }
        return out | ({"camera": self.camera} if self.camera else {})

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> TableConfig:
        try:
            data = json.loads(Path(path).read_text())
            if not isinstance(data, dict):  # "NaN", a list: say so, not what indexing it raised
                raise ValueError(f"a JSON {type(data).__name__}, not an object")
            size = tuple(_coordinate(v) for v in data["frame_size"])
            if any(v <= 0 for v in size):
                raise ValueError(f"frame_size {list(size)} must be positive")
            polygon = _polygon(data["polygon"])
            keep = _polygon(data["keep_zone"]) if data.get("keep_zone") else None
            camera = data.get("camera")
            if camera is not None and not isinstance(camera, dict):
                raise ValueError("'camera' must be an object of camera controls")
        except OSError as exc:
            raise TableConfigError(f"cannot read table file {path}: {exc.strerror}") from exc
        except KeyError as exc:
            raise TableConfigError(f"{path} is not a table calibration file (no {exc})") from exc
        except (ValueError, TypeError, IndexError, AttributeError) as exc:
            raise TableConfigError(f"{path} is not a table calibration file ({exc})") from exc
        if len(size) != 2 or len(polygon) < 3:
            raise TableConfigError(f"{path}: needs frame_size [w, h] and a polygon of 3+ points")
        return cls((size[0], size[1]), polygon, keep, camera)

    def scaled(self, width: int, height: int) -> TableConfig:
        """The same calibration for frames of another size (e.g. full-resolution stills)."""
        if (width, height) == self.frame_size:
            return self
        sx, sy = width / self.frame_size[0], height / self.frame_size[1]

        def scale(poly: Polygon) -> Polygon:
            return [(round(x * sx), round(y * sy)) for x, y in poly]

        return TableConfig((width, height), scale(self.polygon),
                           scale(self.keep_zone) if self.keep_zone else None, self.camera)


MAX_COORDINATE = 100_000  # pixels; anything beyond is a typo, not a camera


def _coordinate(value: object) -> int:
    """A pixel coordinate from a file or the command line: finite and of camera size."""
    number = float(value)  # type: ignore[arg-type]
    if not math.isfinite(number) or abs(number) > MAX_COORDINATE:
        raise ValueError(f"{value!r} is not a pixel coordinate")
    return round(number)


def _polygon(points: object) -> Polygon:
    return [(_coordinate(p[0]), _coordinate(p[1])) for p in points]  # type: ignore[attr-defined, index]


def parse_polygon(text: str) -> Polygon:
    """`x1,y1,x2,y2,...` → polygon; a 4-number text is an axis-aligned rectangle."""
    try:
        nums = [_coordinate(v) for v in text.replace(";", ",").split(",") if v.strip()]
    except ValueError as exc:
        raise TableConfigError(f"polygon must be numbers x1,y1,x2,y2,...: {text!r}") from exc
    if len(nums) == 4:
        x1, y1, x2, y2 = nums
        nums = [x1, y1, x2, y1, x2, y2, x1, y2]
    if len(nums) < 6 or len(nums) % 2:
        raise TableConfigError("polygon needs 3 or more x,y points (or x1,y1,x2,y2 for a box)")
    return [(nums[i], nums[i + 1]) for i in range(0, len(nums), 2)]


def inside(polygon: Polygon, x: float, y: float) -> bool:
    return cv2.pointPolygonTest(_contour(polygon), (float(x), float(y)), False) >= 0


def box_inside(polygon: Polygon, box: tuple[float, float, float, float], margin: float = 0.0) -> bool:
    """True when the box (shrunk by `margin` of its size on each side) lies inside the polygon.

    The box is a die's axis-aligned top-face box, which is larger than the face when it is
    rotated, so callers pass a small margin to avoid calling a die near the edge off the table.
    """
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * margin, (y2 - y1) * margin
    contour = _contour(polygon)
    return all(cv2.pointPolygonTest(contour, (float(x), float(y)), False) >= 0
               for x, y in ((x1 + dx, y1 + dy), (x2 - dx, y1 + dy),
                            (x2 - dx, y2 - dy), (x1 + dx, y2 - dy)))


def _contour(polygon: Polygon) -> np.ndarray:
    return np.asarray(polygon, np.float32).reshape(-1, 1, 2)


FILL_STEP = 4.0  # Lab units (0..255) between neighbouring pixels of one surface, at most
FILL_WIDTH = 240  # px: the picture's longer side as it is searched
# Walls the fill may not cross, found on a finer copy (a thin rim shrunk to the search's size is
# a pixel the median blur erases; a slanted edge shrunk is a ramp of blends, each step small):
# pixels whose 3x3 neighbourhood spans more than WALL_SPREAD Lab units (at FILL_STEP; or
# WALL_NOISE times the picture's median span, for a noisy dark picture), in runs at least a
# WALL_SPECK-th of the picture long. Chosen on simulated dark trays, trays and mats at 640x480 to
# 1920x1080 with camera noise of 0-16 grey levels (benchmarks/README.md, "calibrate at every size").
WALL_WIDTH = 720  # px: the finer copy's longer side, at most
WALL_SPREAD = 12.0
WALL_NOISE = 3.0
WALL_SPECK = 24
_BRIGHTEN = np.round(255 * (np.arange(256) / 255) ** 0.5).astype(np.uint8)


def find_table(image: np.ndarray) -> Polygon:
    """Find the large uniform area the dice land on (a mat, a tray floor, a table top).

    The surface is the area reached from the picture's centre stepping from pixel to pixel by
    less than `FILL_STEP` of colour: a lamp's gradient and the strip a tray's wall shades are
    crossed, a rim's or a mat's edge (a step) is not. Colour alone cannot do it: the shaded
    strip along a dark tray's wall is farther from the floor's middle in colour than its rim
    may be (issue 34: a patch inside the floor, or the rim). Dice are holes in it, filled by
    taking its outline's convex hull. The caller checks the result with `region_warnings`.
    """
    return _found_region(image, FILL_STEP)


def _found_region(image: np.ndarray, step: float) -> Polygon:
    h, w = image.shape[:2]
    region, scale = _fill(image, step)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    approx = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True)
    return [(min(w - 1, round(x / scale)), min(h - 1, round(y / scale)))
            for x, y in approx.reshape(-1, 2)]


def _lab(image: np.ndarray, width: int) -> tuple[np.ndarray, float]:
    """The picture shrunk to `width` on its longer side, brightened (gamma 1/2: steps between
    dark greys count as those between light ones, so a black wall beside a floor in its shade,
    grey 18 and 4, is an edge), in Lab, median-blurred; and the shrink factor."""
    h, w = image.shape[:2]
    scale = width / max(h, w)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    return cv2.medianBlur(cv2.cvtColor(cv2.LUT(small, _BRIGHTEN), cv2.COLOR_BGR2LAB), 3), scale


def _walls(image: np.ndarray, step: float, shape: tuple[int, int]) -> np.ndarray:
    """Where the fill of `step` may not go, on the search's grid of `shape` (h, w): edges seen
    on a finer copy of the picture (`WALL_WIDTH`), specks left out."""
    fine, _ = _lab(image, max(FILL_WIDTH, min(WALL_WIDTH, max(image.shape[:2]))))
    k = np.ones((3, 3), np.uint8)
    spread = (cv2.dilate(fine, k).astype(np.int16) - cv2.erode(fine, k)).max(axis=2)
    limit = max(WALL_SPREAD, WALL_NOISE * float(np.median(spread))) * step / FILL_STEP
    _, labels, stats, _ = cv2.connectedComponentsWithStats((spread > limit).astype(np.uint8))
    long = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]) \
        >= max(fine.shape[:2]) / WALL_SPECK
    long[0] = False  # the background
    walls = long[labels].astype(np.float32)
    # a cell of the search's grid a fifth covered by a wall is one
    return cv2.resize(walls, (shape[1], shape[0]), interpolation=cv2.INTER_AREA) > 0.2


def _fill(image: np.ndarray, step: float) -> tuple[np.ndarray, float]:
    """The surface reached from the centre (`find_table`) as a mask of the shrunk picture,
    and the shrink factor."""
    lab, scale = _lab(image, FILL_WIDTH)
    sh, sw = lab.shape[:2]
    # start where the central patch shows its median colour: dice cover a minority of it
    patch = lab[sh * 3 // 8: sh * 5 // 8, sw * 3 // 8: sw * 5 // 8].astype(np.float32)
    far = np.linalg.norm(patch - np.median(patch.reshape(-1, 3), axis=0), axis=2)
    py, px = np.unravel_index(int(np.argmin(far)), far.shape)
    seed = (sw * 3 // 8 + int(px), sh * 3 // 8 + int(py))
    mask = np.zeros((sh + 2, sw + 2), np.uint8)
    mask[1:-1, 1:-1][_walls(image, step, (sh, sw))] = 1  # floodFill goes nowhere marked
    mask[seed[1] + 1, seed[0] + 1] = 0
    cv2.floodFill(lab, mask, seed, 0, (step,) * 3, (step,) * 3,
                  8 | cv2.FLOODFILL_MASK_ONLY | (2 << 8))
    region = (mask[1:-1, 1:-1] == 2).astype(np.uint8)
    k = max(3, round(min(sh, sw) / 20)) | 1  # close over pips and specks of felt
    closed = cv2.morphologyEx(region, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k)))
    # its edge's pixels, half of them the rim's, are left out by the steps: one more
    return cv2.dilate(closed, np.ones((3, 3), np.uint8)), scale


def found_margin(frame_size: tuple[int, int]) -> float:
    """Px the region `find_table` finds may lie inside the floor's edge: one cell of its
    search's grid (`FILL_WIDTH`). Over 40 simulated dark trays the floor's edge lay a median
    0.6 px outside the region found, up to 3.7 px (1.4 cells at 640x480), where the fill stops
    a cell short of a wall's shaded strip."""
    return max(frame_size) / FILL_WIDTH


def widened(polygon: Polygon, frame_size: tuple[int, int]) -> Polygon:
    """A convex `polygon` found by `find_table` with each edge moved `found_margin` px outward
    (its corners along their bisectors), in whole pixels inside the frame."""
    by, (w, h) = found_margin(frame_size), frame_size
    pts = np.asarray(polygon, np.float64)
    if len(pts) < 3 or by <= 0:
        return list(polygon)
    x, y = pts[:, 0], pts[:, 1]
    turn = 1.0 if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0 else -1.0
    edges = np.roll(pts, -1, axis=0) - pts
    lengths = np.maximum(np.linalg.norm(edges, axis=1, keepdims=True), 1e-9)
    # the outward normal of each edge (from a point to the next), for either orientation
    normals = turn * np.stack([edges[:, 1], -edges[:, 0]], axis=1) / lengths
    before, after = np.roll(normals, 1, axis=0), normals  # the edges meeting at each point
    cos = np.maximum((before * after).sum(axis=1, keepdims=True), -0.5)
    moved = pts + by * (before + after) / (1.0 + cos)
    return [(min(max(round(float(a)), 0), w - 1), min(max(round(float(b)), 0), h - 1))
            for a, b in moved]


LOOSE_STEP = 2.5  # of `FILL_STEP`: a surface found with steps this much larger...
PATCH = 1.3  # ...and this many times the region's area, round it: the region is a patch of it


def region_warnings(polygon: Polygon, frame_size: tuple[int, int],
                    image: np.ndarray | None = None,
                    resting: list[tuple[float, float]] | None = None) -> list[str]:
    """Plain-language warnings for a region that is obviously wrong: too small or the whole
    frame; with the `image`, much smaller (`PATCH`) than the surface it lies on, as found
    with `find_table`'s steps or larger ones (a region given inside the floor; a patch of a
    tray's floor cut off by a shade's edge; a larger step's surface reaching two of the
    frame's sides is the table round the tray, not its floor); with `resting` (where things came to rest,
    `resting_spots`), things at rest outside it."""
    w, h = frame_size
    area = abs(cv2.contourArea(_contour(polygon))) / float(w * h)
    warnings = []
    cx, cy = np.asarray(polygon, np.float32).mean(axis=0)
    for step in (FILL_STEP, LOOSE_STEP * FILL_STEP) if image is not None and area >= 0.10 \
            else ():
        assert image is not None  # the steps are () without a picture
        surface = _found_region(image, step)
        if step > FILL_STEP and _frame_sides(surface, w, h) >= 2:
            # the looser fill went over the rim into the table round the tray, to the frame's
            # edges (a dark table lit like the floor); it is no floor
            continue
        around = abs(cv2.contourArea(_contour(surface))) / float(w * h)
        if around < 0.95 and around > PATCH * area and inside(surface, cx, cy):
            warnings.append(f"the table region covers {area:.0%} of the frame, but the surface "
                            f"round it {around:.0%}: it may be a patch of the tray's floor, and "
                            "dice near the wall would be SPAZ; check the overlay or give "
                            "--polygon")
            break
    outside = [p for p in resting or [] if not inside(polygon, *p)]
    if outside:
        where = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in outside[:5])
        warnings.append(f"{len(outside)} thing(s) came to rest outside the table region, at "
                        f"{where}: if they are dice on the tray, the region is too small")
    if area < 0.10:
        warnings.append(f"the table region covers only {area:.0%} of the frame: "
                        "dice will land outside it and count as SPAZ")
    elif area > 0.95:
        note = ("; a tray or mat seems visible — give its corners with --polygon"
                if image is not None and _inner_frame_visible(image) else "")
        warnings.append(f"the table region covers {area:.0%} of the frame: dice leaving the "
                        f"table cannot be seen as SPAZ{note}")
    if any(not (0 <= x < w and 0 <= y < h) for x, y in polygon):
        warnings.append("the table region reaches outside the frame")
    return warnings



def _frame_sides(polygon: Polygon, w: int, h: int, reach: int = 2) -> int:
    """On how many of the frame's four sides `polygon` has a corner (within `reach` px, or a
    pixel of the search's grid, which a region found by `find_table` is drawn on)."""
    reach = max(reach, math.ceil(max(w, h) / FILL_WIDTH) + 1)
    xs, ys = (np.asarray(v) for v in zip(*polygon, strict=True))
    return int((xs <= reach).any()) + int((xs >= w - 1 - reach).any()) + \
        int((ys <= reach).any()) + int((ys >= h - 1 - reach).any())


def resting_spots(settled: list[np.ndarray], side: float | None = None
                  ) -> list[tuple[float, float]]:
    """Where die-sized things came or went between successive still pictures of a video (a
    die at rest in one, not the next): `vision.changed_spots.changed_spots` with dice of `side` px,
    by default a 19th of the picture's width (the product's camera mount)."""
    from zonkcam.vision.changed_spots import changed_spots

    spots: list[tuple[float, float]] = []
    for before, now in pairwise(settled):
        side = side or now.shape[1] / 19
        spots += [p for p in changed_spots(before, now, side)
                  if all(np.hypot(p[0] - q[0], p[1] - q[1]) > side for q in spots)]
    return spots


def _inner_frame_visible(image: np.ndarray) -> bool:
    """A long straight edge well inside the frame suggests a tray rim or a mat edge."""
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    edges = cv2.Canny(cv2.GaussianBlur(grey, (5, 5), 0), 50, 150)
    lines = cv2.HoughLinesP(edges, 1, np.pi / 180, 80, minLineLength=min(h, w) // 3,
                            maxLineGap=5)
    if lines is None:
        return False
    m = min(h, w) // 20
    for x1, y1, x2, y2 in lines.reshape(-1, 4):
        if all(m < x < w - m for x in (x1, x2)) and all(m < y < h - m for y in (y1, y2)):
            return True
    return False


def draw_overlay(image: np.ndarray, config: TableConfig,
                 warnings: list[str] | None = None) -> np.ndarray:
    """The frame with the table region (green), keep zone (blue) and warnings drawn on it."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    tint = out.copy()
    cv2.fillPoly(tint, [np.asarray(config.polygon, np.int32)], (0, 200, 0))
    if config.keep_zone:
        cv2.fillPoly(tint, [np.asarray(config.keep_zone, np.int32)], (200, 120, 0))
    out = cv2.addWeighted(tint, 0.25, out, 0.75, 0)
    cv2.polylines(out, [np.asarray(config.polygon, np.int32)], True, (0, 255, 0), 2)
    if config.keep_zone:
        cv2.polylines(out, [np.asarray(config.keep_zone, np.int32)], True, (255, 160, 0), 2)
    for i, text in enumerate(warnings or []):
        y = 22 + 20 * i
        cv2.putText(out, text[:90], (8, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3)
        cv2.putText(out, text[:90], (8, y), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 200, 255), 1)
    return out
