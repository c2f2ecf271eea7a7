"""The Raspberry Pi camera through picamera2, and what the rest of the product asks about the
Pi: whether this machine is one, why picamera2 cannot be imported, which Pi cameras libcamera
lists, and the controls that hold exposure, white balance and focus fixed."""
from __future__ import annotations

import logging
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from zonkcam.hardware.cameras.base import BaseCamera, CameraError, Frame
from zonkcam.hardware.cameras.sensor_modes import DEFAULT_MAIN, sensor_mode

log = logging.getLogger(__name__)


class PiCamera(BaseCamera):
    """A Raspberry Pi camera through picamera2: a low-resolution stream for motion, the
    main stream for reading dice, both 16:9 from the sensor mode pinned for the camera's
    sensor (`sensor_modes`: the binned mode over the whole sensor).

    Exposure, white balance and focus are fixed so colours do not drift during a game: to
    `controls` saved by `zonkcam calibrate --camera pi` when given, else to the values the
    camera's automatic controls reach in its first `settle_s` seconds. A camera with autofocus
    (Camera Module 3) runs one autofocus cycle on the table first and is then held at the lens
    position it found; others are focused by hand."""

    def __init__(
        self, main_size: tuple[int, int] | None = None, lores_size: tuple[int, int] = (640, 360),
        controls: dict | None = None, settle_s: float = 2.0, timeout_s: float = 5.0,
    ) -> None:
        self.name = "pi"
        self.timeout_s = timeout_s
        # captures run on a worker so that a camera that hangs (rather than erroring) is
        # reported as lost after `timeout_s` instead of freezing the table
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="picamera2")
        problem = picamera2_problem()
        if problem is not None:
            raise CameraError(f"pi: {problem}")
        from picamera2 import Picamera2

        try:
            self._cam = Picamera2()
        except (IndexError, RuntimeError) as exc:  # no camera attached / busy
            raise CameraError(f"pi: no camera found ({exc})") from None
        try:
            self._start(main_size, lores_size, controls, settle_s)
        except RuntimeError as exc:  # a mode or control the camera refuses
            self._release()
            raise CameraError(f"pi: cannot start the camera ({exc})") from None
        except BaseException:
            self._release()
            raise
        self._t0 = time.monotonic()
        self._index = 0

    def _start(self, main_size: tuple[int, int] | None, lores_size: tuple[int, int],
               controls: dict | None, settle_s: float) -> None:
        self.model = str(self._cam.camera_properties.get("Model", "unknown"))
        self.sensor_mode = sensor_mode(self.model)
        self._configure(main_size, lores_size)
        self._cam.start()
        self.autofocus = "AfMode" in self._cam.camera_controls
        if controls:
            self.controls = dict(controls)
            if self.autofocus and "LensPosition" not in self.controls:  # calibrated unfocused
                self._focus()
                self.controls["LensPosition"] = self._cam.capture_metadata().get("LensPosition")
            self._cam.set_controls(fixed_controls(self.controls))
        else:
            time.sleep(settle_s)  # let automatic exposure and white balance converge
            if self.autofocus:
                self._focus()
            self.lock()

    def _configure(self, main_size: tuple[int, int] | None, lores_size: tuple[int, int]) -> None:
        mode = self.sensor_mode
        main = main_size or (mode.main_size if mode else DEFAULT_MAIN)
        streams = {"main": {"size": main, "format": "RGB888"},
                   "lores": {"size": lores_size, "format": "YUV420"}}
        if mode is None:
            log.info("pi: sensor %s has no pinned mode: libcamera picks one for %dx%d",
                     self.model, *main)
            config = self._cam.create_video_configuration(**streams)
        else:
            try:
                config = self._cam.create_video_configuration(**streams, sensor=mode.picamera2())
            except TypeError:  # picamera2 before `sensor=`: the raw stream's size picks the mode
                config = self._cam.create_video_configuration(**streams, raw={"size": mode.output_size})
        self._cam.configure(config)
        self.main_size = tuple(main)

    def _focus(self) -> None:
        """One autofocus cycle (Camera Module 3): picamera2 starts with autofocus idle, so
        without it the lens would be locked at its default position, not on the table."""
        try:
            focused = self._worker.submit(self._cam.autofocus_cycle).result(self.timeout_s)
        except FuturesTimeout:
            raise CameraError(f"pi: autofocus did not finish in {self.timeout_s:g} s") from None
        except RuntimeError as exc:
            raise CameraError(f"pi: autofocus failed ({exc})") from None
        if not focused:
            log.warning("pi: autofocus found no sharp focus (an empty, plain table has little "
                        "to focus on): the lens stays where the scan ended; calibrate with a few "
                        "dice on the table")

    def read(self) -> Frame | None:
        image = cv2.cvtColor(self._capture("lores"), cv2.COLOR_YUV420p2BGR)
        self._last = Frame(image, time.monotonic() - self._t0, self._index)
        self._index += 1
        return self._last

    def still(self) -> np.ndarray:
        # picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's order.
        return self._capture("main")

    def _capture(self, stream: str) -> np.ndarray:
        try:
            return self._worker.submit(self._cam.capture_array, stream).result(self.timeout_s)
        except FuturesTimeout:
            raise CameraError(f"pi: no frame for {self.timeout_s:g} s (camera hung)") from None
        except RuntimeError as exc:
            raise CameraError(f"pi: stopped delivering frames ({exc})") from None

    def lock(self) -> dict:
        """Fix exposure, white balance and focus at their current values; returns them."""
        meta = self._cam.capture_metadata()
        self.controls = {key: meta[key] for key in PI_LOCKED if key in meta}
        if not self.autofocus:  # a fixed-focus lens reports no position worth holding
            self.controls.pop("LensPosition", None)
        self._cam.set_controls(fixed_controls(self.controls))
        return self.controls

    def close(self) -> None:
        self._release()

    def _release(self) -> None:
        self._worker.shutdown(wait=False)
        self._cam.stop()
        self._cam.close()


DEVICE_MODEL = Path("/proc/device-tree/model")


def on_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi (its device tree says so)."""
    try:
        return "Raspberry Pi" in DEVICE_MODEL.read_text(errors="replace")
    except OSError:
        return False


def picamera2_problem() -> str | None:
    """Why picamera2 cannot be imported by this Python, and how to fix it; None if it can."""
    try:
        import picamera2  # noqa: F401  (only on a Raspberry Pi)
    except Exception as exc:  # ImportError, or ValueError from a NumPy it was not built for
        if not on_raspberry_pi():
            return ("picamera2 is not installed (it runs on a Raspberry Pi only); "
                    "use --camera usb:0, a video file, a folder of frames or demo")
        return (f"picamera2 cannot be imported by {sys.executable} ({type(exc).__name__}: {exc}). "
                "picamera2 and libcamera come from apt, not pip: `sudo apt install "
                "python3-picamera2`, and a virtual environment made with "
                "`python3 -m venv --system-site-packages` (hardware/pi/setup.sh does both, "
                "and keeps NumPy at apt's 1.x)")
    return None


# What `PiCamera.lock` reads from the camera's metadata and a calibration file keeps.
PI_LOCKED = ("ExposureTime", "AnalogueGain", "ColourGains", "LensPosition")


def fixed_controls(values: dict) -> dict:
    """picamera2 controls that hold exposure, gains and focus at `values` (automatics off)."""
    controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
    for key in PI_LOCKED:
        if key in values:
            value = values[key]
            controls[key] = tuple(value) if isinstance(value, list) else value
    if "LensPosition" in values:  # Camera Module 3: manual focus at the position found
        controls["AfMode"] = 0
    return controls



def pi_cameras() -> list[dict]:
    """The Raspberry Pi cameras libcamera lists (not USB cameras it also handles), without
    opening one: asked before every start, so no settling or autofocus is spent on it."""
    from picamera2 import Picamera2

    try:
        cameras = Picamera2.global_camera_info()
    except Exception as exc:  # libcamera could not enumerate (camera stack broken)
        log.warning("pi: libcamera could not list cameras (%s)", exc)
        return []
    return [c for c in cameras if "usb" not in str(c.get("Id", "")).lower()]

