"""What every camera source shares: the frame it delivers, the interface, and the error a camera
raises when it cannot be opened or stops delivering frames."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

import numpy as np


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


class BaseCamera:
    """`still`, closing and iteration for a source whose `read` keeps its last frame."""

    name = "camera"
    _last: Frame | None = None

    def read(self) -> Frame | None:
        raise NotImplementedError

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

