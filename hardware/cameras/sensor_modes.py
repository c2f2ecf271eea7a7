"""The sensor mode zonkcam pins on each Raspberry Pi camera, and the streams it takes from it.

Each is the sensor's 2x2-binned mode over the whole sensor: the widest view at a frame rate a
Pi keeps up with. The streams are 16:9 (`PiCamera`'s main and lores), so on a 4:3 sensor
(Module 2, HQ) the ISP crops the mode's top and bottom: the stream sees the sensor's full width
and three quarters of its height. Camera Module 3 (IMX708) is 16:9 already.

Without a pinned mode libcamera picks the mode nearest the main stream's size, which on the
4:3 sensors is a centre crop (Module 2's 1920x1080) or the slow full-resolution mode; neither
has a 2304x1296 binned mode.
"""
from __future__ import annotations

from dataclasses import dataclass

STREAM_ASPECT = 16 / 9


@dataclass(frozen=True, slots=True)
class SensorMode:
    sensor: str  # libcamera's model name, without a _wide / _noir suffix
    output_size: tuple[int, int]  # the sensor mode (picamera2's sensor={"output_size": ...})
    bit_depth: int
    main_size: tuple[int, int]  # the 16:9 stream dice are read from, within the mode's crop

    @property
    def crop_size(self) -> tuple[float, float]:
        """The part of the mode a 16:9 stream sees (the ISP crops to the stream's aspect)."""
        w, h = self.output_size
        return (w, w / STREAM_ASPECT) if w / h < STREAM_ASPECT else (h * STREAM_ASPECT, h)

    def picamera2(self) -> dict:
        """picamera2's `sensor` configuration for this mode."""
        return {"output_size": self.output_size, "bit_depth": self.bit_depth}


SENSOR_MODES = {
    "imx708": SensorMode("imx708", (2304, 1296), 10, (2304, 1296)),  # Camera Module 3 (and Wide)
    "imx219": SensorMode("imx219", (1640, 1232), 10, (1600, 900)),  # Camera Module 2
    "imx477": SensorMode("imx477", (2028, 1520), 12, (1920, 1080)),  # HQ Camera
}
DEFAULT_MAIN = (2304, 1296)  # an unknown sensor: libcamera picks the mode


def sensor_mode(model: str) -> SensorMode | None:
    """The pinned mode for libcamera's model name (``imx708_wide_noir`` → imx708), if known."""
    return SENSOR_MODES.get(model.lower().split("_")[0])
