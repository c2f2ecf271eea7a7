"""Camera sources behind one small interface.

    with open_camera("usb:0") as camera:
        while (frame := camera.read()) is not None:
            ...  # frame.image (BGR), frame.t (seconds), frame.index

Sources: ``pi`` (picamera2, a Raspberry Pi camera), ``usb:N`` (OpenCV), a video file, a
folder of frames, and ``demo`` (the throw simulator playing a game in real time). `read`
returns None at the end of a file, folder or demo script, and raises `CameraError` when a
live camera stops delivering; `Reconnecting` turns that into retries with back-off.

`read` gives the frame for motion detection; `still` gives the full-resolution picture for
reading dice (the same frame except on the Pi camera, whose low-resolution stream feeds the
per-frame path and whose main stream is captured only when the dice are at rest).

The sources live in their own modules of this package (`base`, `opencv`, `picamera`, `demo`),
and `sources` names them (a registry: how each is named, opened, and whether it is live); this
module opens them by name, finds the one attached and reconnects a live one that fails.
Every name is importable from here. Beside them: `sensor_modes` and `mounting` (the Pi camera's
modes, how high to mount a camera), `pi_still` (one picture as play takes it) and `stills` (a
folder of photos as a capture source).
"""
from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from zonkcam.hardware.cameras.base import BaseCamera, Camera, CameraError, Frame
from zonkcam.hardware.cameras.demo import DemoCamera, DemoPlayerLike
from zonkcam.hardware.cameras.opencv import FrameFolder, UsbCamera, VideoFile
from zonkcam.hardware.cameras.picamera import (
    PI_LOCKED,
    PiCamera,
    fixed_controls,
    on_raspberry_pi,
    pi_cameras,
    picamera2_problem,
)
from zonkcam.hardware.cameras.sources import SOURCES, CameraOptions, Source, is_live, source_for

__all__ = [
    "PI_LOCKED", "SOURCES", "BaseCamera", "Camera", "CameraError", "CameraOptions", "DemoCamera",
    "DemoPlayerLike", "Frame", "FrameFolder", "PiCamera", "Reconnecting", "Source", "UsbCamera",
    "VideoFile", "camera_opener", "detect_camera", "fixed_controls", "is_live", "on_raspberry_pi",
    "open_camera", "pi_cameras", "picamera2_problem", "source_for",
]
log = logging.getLogger(__name__)


class Reconnecting(BaseCamera):
    """Wraps a live camera: when it fails, reports it and reopens it with back-off.

    ``generation`` counts reopenings, so a consumer can drop a half-seen throw instead of
    stitching frames from before and after the gap into one wrong score."""

    def __init__(
        self,
        opener: Callable[[], Camera],
        on_status: Callable[[str], None] = print,
        first_delay: float = 0.5,
        max_delay: float = 8.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._opener, self._on_status, self._sleep = opener, on_status, sleep
        self.first_delay, self.max_delay = first_delay, max_delay
        self.generation = 0
        self._camera = opener()
        self.name = self._camera.name

    def read(self) -> Frame | None:
        delay = self.first_delay
        while True:
            try:
                frame = self._camera.read()
                self._last = frame
                return frame
            except CameraError as exc:
                self._on_status(f"camera lost: {exc}; retrying in {delay:g} s")
                self._camera.close()
                self._sleep(delay)
                delay = min(delay * 2, self.max_delay)
                try:
                    self._camera = self._opener()
                except CameraError:
                    continue
                self.generation += 1
                self._on_status(f"camera {self.name} is back")

    def still(self) -> np.ndarray:
        return self._camera.still()

    def close(self) -> None:
        self._camera.close()


def camera_opener(spec: str, fps: float | None = None, controls: dict | None = None
                  ) -> Callable[[], Camera]:
    """How to (re)open a camera from its command-line name (`sources.SOURCES`: pi, usb:N, demo,
    a video file or a folder). `controls`: the Pi camera's exposure, gains and focus from a table
    file (`TableConfig.camera`, saved by `zonkcam calibrate`); play and capture both open the
    camera here, so a throw is seen the same way by both."""
    return source_for(spec).opener(spec, CameraOptions(fps=fps, controls=controls))


def open_camera(spec: str, fps: float | None = None, realtime: bool = True,
                controls: dict | None = None) -> Camera:
    """A camera from its command-line name: pi, usb:N, demo, a video file or a folder; a live
    camera is reopened when it fails (`Reconnecting`)."""
    source = source_for(spec)
    opener = source.opener(spec, CameraOptions(fps, realtime, controls))
    return Reconnecting(opener) if source.live else opener()


def detect_camera() -> str:
    """The camera `zonkcam play` uses when none is named: a Pi camera, a USB camera, or the
    demo when neither is attached. On a Raspberry Pi whose Python cannot import picamera2,
    that is said (with the fix), never passed over in silence."""
    problem = picamera2_problem()
    if problem is None:
        if pi_cameras():
            return "pi"
        log.info("no Pi camera attached (libcamera lists none)")
    elif on_raspberry_pi():
        log.warning("this is a Raspberry Pi, but %s. Looking for a USB camera instead, then the "
                    "demo", problem)
    if sys.platform.startswith("linux") and not Path("/dev/video0").exists():
        return "demo"  # no V4L2 device: don't let OpenCV probe (and warn about) one
    try:
        UsbCamera(0).close()
        return "usb:0"
    except CameraError:
        return "demo"

