"""The camera sources OpenCV reads: a recorded video, a folder of still frames, a USB camera."""
from __future__ import annotations

import logging
import time
from pathlib import Path

import cv2
import numpy as np
from zonkcam.hardware.cameras.base import BaseCamera, CameraError, Frame
from zonkcam.vision.imageio import ImageError, pictures_in

log = logging.getLogger(__name__)
MAX_SKIPPED = 30  # undecodable frames in a row a video may have before it counts as ended


class VideoFile(BaseCamera):
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


class FrameFolder(BaseCamera):
    """A folder of still frames, in name order, played at ``fps``."""

    def __init__(self, path: str | Path, fps: float = 30.0) -> None:
        folder = Path(path)
        self.name = str(path)
        try:
            self.files = pictures_in(folder)
        except ImageError as exc:
            raise CameraError(str(exc)) from None
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


class UsbCamera(BaseCamera):
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



def _same_size(
    name: str, size: tuple[int, ...] | None, image: np.ndarray, index: int
) -> tuple[int, ...]:
    if size is not None and image.shape != size:
        raise CameraError(
            f"{name}: frame {index} is {image.shape[1]}x{image.shape[0]}, "
            f"earlier frames were {size[1]}x{size[0]}; frames must all be the same size"
        )
    return image.shape
