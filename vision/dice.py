"""The recognizer's output records: one `Die` per die found, one `Reading` per image.

Their JSON shape is the stable contract in `shared/spec/read-json.md`: fields may be added,
never renamed or dropped.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Literal

Status = Literal["ok", "cocked", "stacked", "off_table", "unreadable"]


@dataclass(frozen=True, slots=True)
class Die:
    """One die as seen from above (what the game takes from it is a `rules.dice.DieFace`)."""

    value: int | None  # 1..6, None when the top face cannot be read (see status)
    color: str | None
    confidence: float  # classifier probability of `value`
    color_confidence: float
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 of the top face, original pixels
    center: tuple[float, float]
    angle: float  # rotation of the top face in degrees
    status: Status = "ok"

    def to_json(self) -> dict:
        d = asdict(self)
        d["box"] = list(self.box)
        d["center"] = [round(c, 1) for c in self.center]
        d["angle"] = round(self.angle, 1)
        d["confidence"] = round(self.confidence, 4)
        d["color_confidence"] = round(self.color_confidence, 4)
        return d


def box_growth(angle: float) -> float:
    """How much wider than a square's side is its upright box, the square turned by `angle`
    degrees."""
    a = math.radians(angle % 90)
    return abs(math.cos(a)) + abs(math.sin(a))


def reading_order(d: Die) -> tuple[float, float]:
    """Sort key: dice top to bottom, then left to right, as a person reads the table."""
    return d.center[1], d.center[0]


@dataclass(slots=True)
class Reading:
    """Everything read from one image."""

    width: int
    height: int
    dice: list[Die] = field(default_factory=list)
    table: list[tuple[int, int]] = field(default_factory=list)  # polygon, pixels
    elapsed_ms: float = 0.0
    # Die-shaped candidates the classifier took for "not a pip die" (a picture die, a face it
    # has never seen): value None, status `unreadable`, box from the proposer. Not part of the
    # JSON contract; `zonkcam capture` keeps them so a person can teach the odd faces.
    rejected: list[Die] = field(default_factory=list)

    @property
    def spaz(self) -> bool:
        return any(d.status == "off_table" for d in self.dice)

    def to_json(self, image: str) -> dict:
        return {
            "image": image,
            "width": self.width,
            "height": self.height,
            "elapsed_ms": round(self.elapsed_ms, 2),
            "table": [list(p) for p in self.table],
            "spaz": self.spaz,
            "dice": [d.to_json() for d in self.dice],
            "error": None,
        }
