"""How high to mount a camera over a table, and how big a die will look.

    python -m zonkcam.hardware.mounting 90x60 --camera module3

Fields of view are the sensor makers' published figures for each camera's full-sensor modes.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

DIE_MM = 16  # a standard die


@dataclass(frozen=True)
class CameraModel:
    name: str
    hfov: float  # degrees
    vfov: float
    width_px: int  # full-resolution still width


CAMERAS = {
    "module3": CameraModel("Camera Module 3 (IMX708)", 66.0, 41.0, 4608),
    "module3-wide": CameraModel("Camera Module 3 Wide (IMX708)", 102.0, 67.0, 4608),
    "module2": CameraModel("Camera Module 2 (IMX219)", 62.2, 48.8, 3280),
    "hq-6mm": CameraModel("HQ Camera (IMX477) + 6 mm lens", 63.0, 49.0, 4056),
}


def mount_height_cm(table_w_cm: float, table_h_cm: float, cam: CameraModel) -> float:
    """Lowest height at which the whole table fits the frame (long side along the width)."""
    w, h = max(table_w_cm, table_h_cm), min(table_w_cm, table_h_cm)
    return max(
        w / (2 * math.tan(math.radians(cam.hfov / 2))),
        h / (2 * math.tan(math.radians(cam.vfov / 2))),
    )


def die_pixels(height_cm: float, cam: CameraModel, width_px: int | None = None) -> float:
    """Width of a die's top face in pixels at that height."""
    seen_cm = 2 * height_cm * math.tan(math.radians(cam.hfov / 2))
    return (width_px or cam.width_px) / seen_cm * DIE_MM / 10


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m zonkcam.hardware.mounting", description=__doc__)
    p.add_argument("table", help="playing area in cm, e.g. 90x60")
    p.add_argument("--camera", choices=sorted(CAMERAS), default=None, help="default: all")
    args = p.parse_args(argv)
    try:
        w, h = (float(x) for x in args.table.lower().split("x"))
    except ValueError:
        p.error(f"table size {args.table!r}: expected WIDTHxHEIGHT in cm, e.g. 90x60")
    for key in [args.camera] if args.camera else sorted(CAMERAS):
        cam = CAMERAS[key]
        height = mount_height_cm(w, h, cam)
        print(f"{key:<13} {cam.name:<32} mount at {height:5.0f} cm: a die is "
              f"{die_pixels(height, cam):4.0f} px at full resolution, "
              f"{die_pixels(height, cam, 640):3.0f} px in a 640-wide stream")


if __name__ == "__main__":
    main()
