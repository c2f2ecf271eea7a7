"""The camera sources by name: a registry of what `--camera` accepts, each with how it is named,
how it is opened and whether it is a live camera.

A live camera (``pi``, ``usb:N``) is reopened when it fails and delivers frames as they come; a
recording (a video file, a folder of frames) ends, and `zonkcam play` paces it at its frames'
own times; the demo is the throw simulator. Options are typed (`CameraOptions`): a source takes
the ones it needs and ignores the rest.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zonkcam.hardware.cameras.base import Camera, CameraError
from zonkcam.hardware.cameras.demo import DemoCamera
from zonkcam.hardware.cameras.opencv import FrameFolder, UsbCamera, VideoFile
from zonkcam.hardware.cameras.picamera import PiCamera

FOLDER_FPS = 30.0  # a folder of frames without --fps is played at this rate

Opener = Callable[[], Camera]


@dataclass(frozen=True, slots=True)
class CameraOptions:
    """What opening a source may take."""

    fps: float | None = None  # a video file's (None: its own) or a frame folder's rate
    realtime: bool = True  # the demo plays its throws in real time (capture runs it flat out)
    # the Pi camera's exposure, gains and focus, fixed (`TableConfig.camera`, saved by calibrate)
    controls: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Source:
    """One kind of camera source."""

    usage: str  # how `--camera` names it, as an error message lists it
    live: bool  # a camera that is reopened when it fails, rather than a recording or the demo
    names: Callable[[str], bool]  # whether a `--camera` value names this source
    opener: Callable[[str, CameraOptions], Opener]  # how to (re)open it; CameraError if malformed


def _usb(spec: str, _: CameraOptions) -> Opener:
    index = spec.removeprefix("usb:")
    if not index.isdigit():
        raise CameraError(f"{spec}: expected usb:N with N a camera number")
    return lambda: UsbCamera(int(index))


def _pi(_: str, options: CameraOptions) -> Opener:
    controls = dict(options.controls) if options.controls is not None else None
    return lambda: PiCamera(controls=controls)


SOURCES: tuple[Source, ...] = (
    Source("pi", True, lambda s: s == "pi", _pi),
    Source("usb:N", True, lambda s: s.startswith("usb:"), _usb),
    Source("demo", False, lambda s: s == "demo", lambda _, o: lambda: DemoCamera(realtime=o.realtime)),
    Source("a folder of frames", False, lambda s: Path(s).is_dir(),
           lambda s, o: lambda: FrameFolder(Path(s), o.fps or FOLDER_FPS)),
    Source("a video file", False, lambda s: Path(s).is_file(),
           lambda s, o: lambda: VideoFile(Path(s), o.fps)),
)


def source_for(spec: str) -> Source:
    """The source a `--camera` value names; CameraError listing them all for one that names none."""
    source = next((s for s in SOURCES if s.names(spec)), None)
    if source is None:
        known = ", ".join(s.usage for s in SOURCES)
        raise CameraError(f"{spec}: not a camera source (one of: {known})")
    return source


def is_live(spec: str) -> bool:
    """Whether `spec` names a live camera (pi, usb:N), as commands that need one check."""
    return any(s.live and s.names(spec) for s in SOURCES)
