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
"""
from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np
from zonkcam.hardware.sensor_modes import DEFAULT_MAIN, sensor_mode

log = logging.getLogger(__name__)
MAX_SKIPPED = 30  # undecodable frames in a row a video may have before it counts as ended
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}


class CameraError(RuntimeError):
    """A camera that cannot be opened or stopped delivering frames."""


@dataclass(frozen=True, slots=True)
class Frame:
    image: np.ndarray  # BGR
    t: float  # seconds since the source started
    index: int


class Camera(Protocol):
    name: str

    def read(self) -> Frame | None: ...

    def still(self) -> np.ndarray: ...

    def close(self) -> None: ...


class _Base:
    name = "camera"
    _last: Frame | None = None

    def still(self) -> np.ndarray:
        if self._last is None:
            raise CameraError(f"{self.name}: no frame read yet")
        return self._last.image

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame


class VideoFile(_Base):
    """A recorded video; time comes from the frame index and the file's (or given) rate."""

    def __init__(self, path: str | Path, fps: float | None = None) -> None:
        self.name = str(path)
        if not Path(path).is_file():
            raise CameraError(f"{path}: no such file")
        self._cap = cv2.VideoCapture(str(path))
        if not self._cap.isOpened():
            raise CameraError(f"{path}: not a video OpenCV can read")
        self.fps = fps or self._cap.get(cv2.CAP_PROP_FPS) or 30.0
        self._index = 0
        self._size: tuple[int, ...] | None = None

    def read(self) -> Frame | None:
        """The next frame that decodes. A frame that does not, before the file's end, is
        skipped (its time still passes); the video is never reopened at its start."""
        ok, image = self._cap.read()
        skipped = 0
        while not ok and skipped < MAX_SKIPPED and self._index + skipped + 1 < self._frame_count():
            skipped += 1
            ok, image = self._cap.read()
        if skipped:
            log.warning("%s: %d frame(s) from %d could not be decoded: skipped",
                        self.name, skipped, self._index)
            self._index += skipped
        if not ok:
            if self._index == 0:
                raise CameraError(f"{self.name}: no frames could be decoded")
            return None
        self._size = _same_size(self.name, self._size, image, self._index)
        self._last = Frame(image, self._index / self.fps, self._index)
        self._index += 1
        return self._last

    def _frame_count(self) -> float:
        """The container's frame count: asked only once a frame fails to decode."""
        return self._cap.get(cv2.CAP_PROP_FRAME_COUNT)

    def close(self) -> None:
        self._cap.release()


class FrameFolder(_Base):
    """A folder of still frames, in name order, played at ``fps``."""

    def __init__(self, path: str | Path, fps: float = 30.0) -> None:
        folder = Path(path)
        self.name = str(path)
        if not folder.is_dir():
            raise CameraError(f"{path}: no such folder")
        self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"{path}: no image files ({', '.join(sorted(IMAGE_SUFFIXES))})")
        self.fps = fps
        self._index = 0
        self._size: tuple[int, ...] | None = None

    def read(self) -> Frame | None:
        """The next frame that decodes: a corrupt file is skipped and logged, never a reason to
        start the folder over (its throws would be scored again)."""
        while self._index < len(self.files):
            path = self.files[self._index]
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            index = self._index
            self._index += 1
            if image is None:
                if not path.is_file():  # the folder went away (a drive unplugged): retried
                    raise CameraError(f"{path}: no longer there")
                log.warning("%s: not an image OpenCV can decode; skipped", path)
                continue
            self._size = _same_size(str(path), self._size, image, index)
            self._last = Frame(image, index / self.fps, index)
            return self._last
        if self._size is None:
            raise CameraError(f"{self.name}: none of its {len(self.files)} images could be decoded")
        return None


class UsbCamera(_Base):
    """A USB (UVC) camera through OpenCV."""

    def __init__(self, index: int = 0, size: tuple[int, int] | None = (1280, 720)) -> None:
        self.name = f"usb:{index}"
        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            raise CameraError(f"{self.name}: no camera at index {index}")
        if size:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._t0 = time.monotonic()
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok:
            raise CameraError(f"{self.name}: stopped delivering frames")
        self._last = Frame(image, time.monotonic() - self._t0, self._index)
        self._index += 1
        return self._last

    def close(self) -> None:
        self._cap.release()


class PiCamera(_Base):
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
    controls = {"AeEnable": False, "AwbEnable": False}
    for key in PI_LOCKED:
        if key in values:
            value = values[key]
            controls[key] = tuple(value) if isinstance(value, list) else value
    if "LensPosition" in values:  # Camera Module 3: manual focus at the position found
        controls["AfMode"] = 0
    return controls


class DemoPlayerLike(Protocol):
    """Decides the demo's next throw (`vision.simulate.ThrowPlan`), or None: not yet."""

    def next_throw(self, sim, t: float): ...


class DemoCamera(_Base):
    """The throw simulator as a camera, played in real time (``realtime=False`` delivers frames
    as fast as asked for), on one table.

    With a ``player`` (`hardware.demo.DemoPlayer`) it plays live: each throw is asked of the
    player once the last one has been played, so it can follow the game; while the player is
    not ready the table stays still. Without one, a long script of throws is drawn up front
    and played over again; ``keep_policy`` then plays the simulated player: given the values
    of a throw and an opaque state (0 at the start of a turn), it returns the indexes to set
    aside and the new state, or None to pick every die up (the turn is over)."""

    WAIT_S = 0.2  # still table shown while the player is not ready, before asking again

    def __init__(self, seed: int = 1, realtime: bool = True, throws: int = 100, dice: int = 5,
                 keep_policy: Callable | None = None, player: DemoPlayerLike | None = None) -> None:
        from zonkcam.vision.simulate import SimConfig, Simulation

        self.name = "demo"
        self.realtime = realtime
        self.player = player
        if player is None:
            config = SimConfig(seed=seed, throws=throws, dice=dice, keep_policy=keep_policy)
        else:  # live: only the specials the player asks for, and no kept die nudged (a SPAZ)
            config = SimConfig(seed=seed, throws=0, dice=dice, p_off_table=0, p_cocked=0,
                               p_stacked=0, p_nudge=0)
        self.simulation = Simulation(config)
        self._frames: Iterator[tuple[float, np.ndarray]] | None = None
        self._offset = 0.0
        self._t = 0.0
        self._index = 0
        self._t0 = time.monotonic()

    @property
    def table(self):
        """The simulated table's region, as a calibration would find it."""
        from zonkcam.vision.table import TableConfig

        region = self.simulation.truth["table"]
        return TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])

    def read(self) -> Frame | None:
        t, image = self._live() if self.player is not None else self._scripted()
        self._t = t
        if self.realtime:
            delay = self._t - (time.monotonic() - self._t0)
            if delay > 0:
                time.sleep(delay)
        self._last = Frame(image, self._t, self._index)
        self._index += 1
        return self._last

    def _live(self) -> tuple[float, np.ndarray]:
        sim = self.simulation
        assert self.player is not None
        while (item := sim.next_frame()) is None:
            throw = self.player.next_throw(sim, self._t)
            if throw is None:
                sim.wait(self.WAIT_S)
            else:
                sim.extend(throw)
        return item

    def _scripted(self) -> tuple[float, np.ndarray]:
        while True:
            if self._frames is None:
                self._frames = self.simulation.frames()
                self._offset = self._t  # the script plays again from the start, same table
            item = next(self._frames, None)
            if item is not None:
                return self._offset + item[0], item[1]
            self._frames = None


class Reconnecting(_Base):
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
    """How to (re)open a camera from its command-line name: pi, usb:N, a video file or a folder
    (not demo). `controls`: the Pi camera's exposure, gains and focus from a table file
    (`TableConfig.camera`, saved by `zonkcam calibrate`); play and capture both open the
    camera here, so a throw is seen the same way by both."""
    if spec == "pi":
        return lambda: PiCamera(controls=controls)
    if spec.startswith("usb:"):
        index = spec.removeprefix("usb:")
        if not index.isdigit():
            raise CameraError(f"{spec}: expected usb:N with N a camera number")
        return lambda: UsbCamera(int(index))
    path = Path(spec)
    if path.is_dir():
        return lambda: FrameFolder(path, fps or 30.0)
    if path.is_file():
        return lambda: VideoFile(path, fps)
    raise CameraError(f"{spec}: not a camera (pi, usb:N, demo), a video file or a folder of frames")


def open_camera(spec: str, fps: float | None = None, realtime: bool = True,
                controls: dict | None = None) -> Camera:
    """A camera from its command-line name: pi, usb:N, demo, a video file or a folder; a live
    camera is reopened when it fails (`Reconnecting`)."""
    if spec == "demo":
        return DemoCamera(realtime=realtime)
    opener = camera_opener(spec, fps, controls)
    return Reconnecting(opener) if spec == "pi" or spec.startswith("usb:") else opener()


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


def _same_size(
    name: str, size: tuple[int, ...] | None, image: np.ndarray, index: int
) -> tuple[int, ...]:
    if size is not None and image.shape != size:
        raise CameraError(
            f"{name}: frame {index} is {image.shape[1]}x{image.shape[0]}, "
            f"earlier frames were {size[1]}x{size[0]}; frames must all be the same size"
        )
    return image.shape
