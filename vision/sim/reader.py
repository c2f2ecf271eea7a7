"""A reader for the simulator's drawn dice: the live-throw code's test stand-in for the recognizer.

It has the recognizer's interface (`read(image, table) -> Reading`) and knows the simulator's
drawing conventions: dice stand out from a locally uniform surface, pips contrast with the body,
a cocked die shows as a long shape (top face and one side), and a stacked die shows as a bright
face on a shadowed die below it. It is not meant for camera images: `vision.read.Reader` is.
"""
from __future__ import annotations

import math
import time

import cv2
import numpy as np
from zonkcam.vision.dice import Die, Reading, Status
from zonkcam.vision.sim.simulator import PALETTE
from zonkcam.vision.table import Polygon, box_inside, inside

_PALETTE_LAB = {
    name: cv2.cvtColor(np.array([[body]], np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    for name, (body, _) in PALETTE.items()}


class DrawnDiceReader:
    """Reads dice drawn by `vision.sim.simulator` (values, colours, cocked and stacked)."""

    def __init__(self, min_contrast: float = 20.0) -> None:
        self.min_contrast = min_contrast

    def read(self, image: np.ndarray, table: Polygon | None = None,
             size: float | None = None) -> Reading:
        """The drawn dice in `image`; `size` is not needed (their contrast tells them)."""
        start = time.perf_counter()
        h, w = image.shape[:2]
        lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
        small = cv2.resize(lab, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
        background = cv2.resize(cv2.medianBlur(small, 15), (w, h),
                                interpolation=cv2.INTER_LINEAR)
        diff = np.linalg.norm(lab.astype(np.float32) - background.astype(np.float32), axis=2)
        mask = (diff > self.min_contrast).astype(np.uint8)
        # The opening removes thin things that are not dice: a tray rim, a shadow's edge.
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        blobs = [c for c in contours if cv2.contourArea(c) >= 150]
        singles = [cv2.contourArea(c) for c in blobs if self._squareish(c)]
        unit = float(np.median(singles)) if singles else 0.0
        dice = []
        for contour in blobs:
            die = self._read_blob(image, lab, contour, unit)
            if die is not None:
                if table is not None and not (inside(table, *die.center)
                                              and box_inside(table, die.box, margin=0.15)):
                    die = Die(die.value, die.color, die.confidence, die.color_confidence,
                              die.box, die.center, die.angle, "off_table")
                dice.append(die)
        elapsed = 1000 * (time.perf_counter() - start)
        return Reading(w, h, dice, list(table or []), elapsed)

    @staticmethod
    def _squareish(contour: np.ndarray) -> bool:
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        return min(rw, rh) > 0 and max(rw, rh) / min(rw, rh) < 1.2 and \
            cv2.contourArea(contour) > 0.85 * rw * rh

    def _read_blob(self, image: np.ndarray, lab: np.ndarray, contour: np.ndarray,
                   unit: float) -> Die | None:
        area = cv2.contourArea(contour)
        rect = cv2.minAreaRect(contour)
        (_, _), (rw, rh), _ = rect
        aspect = max(rw, rh) / max(1.0, min(rw, rh))
        if (unit and area > 4 * unit) or aspect > 2.2:
            return None  # a hand, an arm, or something else that is not one die
        if self._squareish(contour) and (not unit or area < 1.35 * unit):
            return self._face(image, lab, rect, "ok")
        if unit:
            # A die across the tray rim picks up pieces of the rim: strip them and look again.
            core = self._opened(contour, round(0.5 * math.sqrt(unit)) | 1)
            if core is not None and self._squareish(core) and \
                    0.75 * unit < cv2.contourArea(core) < 1.35 * unit:
                return self._face(image, lab, cv2.minAreaRect(core), "ok")
        top = self._bright_part(lab, contour)
        if top is None:
            return None
        (px, py), (pw, ph), pa = top
        if max(pw, ph) / max(1.0, min(pw, ph)) >= 1.15:
            # Cocked: the top face, foreshortened, beside its darker side.
            return self._face(image, lab, ((px, py), (max(pw, ph),) * 2, pa), "cocked")
        if not unit or 1.2 * unit < area < 2.8 * unit:
            # Stacked: the top die's brighter, square face over the shadowed die below it.
            side = math.sqrt(unit / 0.95) * 1.1 if unit else max(pw, ph)
            return self._face(image, lab, ((px, py), (side, side), pa), "stacked")
        return None

    @staticmethod
    def _opened(contour: np.ndarray, k: int) -> np.ndarray | None:
        x, y, bw, bh = cv2.boundingRect(contour)
        region: np.ndarray = np.zeros((bh + 2, bw + 2), np.uint8)
        cv2.drawContours(region, [contour - [x - 1, y - 1]], -1, 255, -1)
        region = cv2.morphologyEx(region, cv2.MORPH_OPEN,
                                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        parts, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        return max(parts, key=cv2.contourArea) + np.array([x - 1, y - 1], np.int32) if parts else None

    @staticmethod
    def _bright_part(lab: np.ndarray, contour: np.ndarray) -> tuple | None:
        """The rotated rectangle of the brighter tone in a two-tone blob, pips smoothed away."""
        x, y, bw, bh = cv2.boundingRect(contour)
        region = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(region, [contour - [x, y]], -1, 255, -1)
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
        light = lab[y:y + bh, x:x + bw, 0]
        light = cv2.morphologyEx(cv2.morphologyEx(light, cv2.MORPH_OPEN, kernel),
                                 cv2.MORPH_CLOSE, kernel)
        level, _ = cv2.threshold(light[region > 0], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        top = ((light > level) & (region > 0)).astype(np.uint8)
        parts, _ = cv2.findContours(top, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not parts:
            return None
        return cv2.minAreaRect(max(parts, key=cv2.contourArea) + np.array([x, y], np.int32))

    def _face(self, image: np.ndarray, lab: np.ndarray, rect: tuple, status: Status
              ) -> Die | None:
        (cx, cy), (rw, rh), angle = rect
        side = min(rw, rh)
        points = cv2.boxPoints(((cx, cy), (side, side), angle))
        x1, y1 = np.floor(points.min(axis=0)).astype(int)
        x2, y2 = np.ceil(points.max(axis=0)).astype(int)
        box = (int(x1), int(y1), int(x2), int(y2))
        n = 48
        m = cv2.getRotationMatrix2D((cx, cy), angle, n / max(side, 1.0))
        m[0, 2] += n / 2 - cx
        m[1, 2] += n / 2 - cy
        face_lab = cv2.warpAffine(lab, m, (n, n), flags=cv2.INTER_LINEAR)
        body = np.median(face_lab[8:-8, 8:-8].reshape(-1, 3), axis=0).astype(np.float32)
        color, color_conf = self._color(face_lab, body)
        value = self._count_pips(face_lab, body)
        if not value or color_conf < 0.3:
            return None  # no die colour, no pips or too many: a tray corner, wood grain
        if status == "cocked":
            return Die(None, color, 0.9, color_conf, box, (float(cx), float(cy)),
                       float(angle % 90), "cocked")
        return Die(value, color, 0.99, color_conf, box, (float(cx), float(cy)),
                   float(angle % 90), status)

    @staticmethod
    def _count_pips(face_lab: np.ndarray, body: np.ndarray) -> int | None:
        """Pips on a face crop: 0 when none (not a die), None when more than six."""
        n = face_lab.shape[0]
        inner = face_lab[4:n - 4, 4:n - 4, 0].astype(np.float32)
        pips = (np.abs(inner - body[0]) > 60).astype(np.uint8)
        _, _, stats, _ = cv2.connectedComponentsWithStats(pips)
        sizes = stats[1:, cv2.CC_STAT_AREA]
        found = int(((sizes >= 12) & (sizes <= 120)).sum())
        return found if found <= 6 else None

    @staticmethod
    def _color(face_lab: np.ndarray, body: np.ndarray) -> tuple[str, float]:
        dist = {name: float(np.linalg.norm(body - ref)) for name, ref in _PALETTE_LAB.items()}
        name = min(dist, key=lambda n: dist[n])
        return name, float(math.exp(-dist[name] / 40))
