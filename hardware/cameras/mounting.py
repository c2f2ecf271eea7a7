"""How high to mount a camera over a table, and how big a die will look.

    python -m zonkcam.hardware.cameras.mounting 90x60 --camera module3

Fields of view are the sensor makers' published figures for each camera's full sensor; the
tool narrows them to what zonkcam's streams see: the sensor mode `PiCamera` pins
(`sensor_modes`, the binned mode over the whole sensor) cropped to the streams' 16:9. On the
4:3 sensors (Module 2, HQ) that keeps the full width and three quarters of the height.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import dataclass

from zonkcam.hardware.cameras.sensor_modes import SENSOR_MODES, SensorMode

DIE_MM = 16  # a standard die
LORES_WIDTH = 640  # the motion stream (`PiCamera`'s lores, 640x360)


@dataclass(frozen=True)
class CameraModel:
    name: str
    hfov: float  # degrees, full sensor
    vfov: float
    sensor: str  # key of `sensor_modes.SENSOR_MODES`

    @property
    def mode(self) -> SensorMode:
        return SENSOR_MODES[self.sensor]

    @property
    def stream_fov(self) -> tuple[float, float]:
        """Horizontal and vertical field of view (degrees) of the 16:9 streams."""
        w, h = self.mode.output_size
        crop_w, crop_h = self.mode.crop_size
        return (_narrowed(self.hfov, crop_w / w), _narrowed(self.vfov, crop_h / h))

    @property
    def width_px(self) -> int:
        """Width of the stream dice are read from."""
        return self.mode.main_size[0]


def _narrowed(fov: float, fraction: float) -> float:
    """The field of view of a centred `fraction` of the sensor's side (a pinhole lens)."""
    return math.degrees(2 * math.atan(fraction * math.tan(math.radians(fov / 2))))


CAMERAS = {
    "module3": CameraModel("Camera Module 3 (IMX708)", 66.0, 41.0, "imx708"),
    "module3-wide": CameraModel("Camera Module 3 Wide (IMX708)", 102.0, 67.0, "imx708"),
    "module2": CameraModel("Camera Module 2 (IMX219)", 62.2, 48.8, "imx219"),
    "hq-6mm": CameraModel("HQ Camera (IMX477) + 6 mm lens", 63.0, 49.0, "imx477"),
}


def mount_height_cm(table_w_cm: float, table_h_cm: float, cam: CameraModel) -> float:
    """Lowest height at which the whole table fits the streams (long side along the width)."""
    w, h = max(table_w_cm, table_h_cm), min(table_w_cm, table_h_cm)
    hfov, vfov = cam.stream_fov
    return max(
        w / (2 * math.tan(math.radians(hfov / 2))),
        h / (2 * math.tan(math.radians(vfov / 2))),
    )


def die_pixels(height_cm: float, cam: CameraModel, width_px: int | None = None) -> float:
    """Width of a die's top face in pixels at that height, in the stream dice are read from
    (or in a stream `width_px` wide)."""
    seen_cm = 2 * height_cm * math.tan(math.radians(cam.stream_fov[0] / 2))
    return (width_px or cam.width_px) / seen_cm * DIE_MM / 10


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m zonkcam.hardware.cameras.mounting", description=__doc__)
    p.add_argument("table", help="playing area in cm, e.g. 90x60")
    p.add_argument("--camera", choices=sorted(CAMERAS), default=None, help="default: all")
    args = p.parse_args(argv)
    try:
        w, h = (float(x) for x in args.table.lower().split("x"))
    except ValueError:
        p.error(f"table size {args.table!r}: expected WIDTHxHEIGHT in cm, e.g. 90x60")
    if w <= 0 or h <= 0:
        p.error(f"table size {args.table!r}: both sides must be more than 0 cm")
    for key in [args.camera] if args.camera else sorted(CAMERAS):
        cam = CAMERAS[key]
        height = mount_height_cm(w, h, cam)
        main_w, main_h = cam.mode.main_size
        print(f"{key:<13} {cam.name:<32} mount at {height:4.0f} cm: a die is "
              f"{die_pixels(height, cam):3.0f} px in the {main_w}x{main_h} stream it is read from, "
              f"{die_pixels(height, cam, LORES_WIDTH):3.0f} px in the 640x360 motion stream")


if __name__ == "__main__":
    main()
