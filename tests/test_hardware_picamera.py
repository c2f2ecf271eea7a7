"""The Pi camera against a stand-in for picamera2: lores for motion, main for reading, and
exposure, white balance and focus fixed (at start, or as saved by `zonkcam calibrate`)."""
import sys
import types

import cv2
import numpy as np
import pytest
from zonkcam.hardware import cameras
from zonkcam.hardware.cameras import PiCamera
from zonkcam.hardware.cli import main
from zonkcam.vision.table import TableConfig

METADATA = {"ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6),
            "LensPosition": 2.5, "Lux": 300.0}


class FakePicamera2:
    """Records what the product asks of the camera; delivers a grey table with a light mat."""

    last: "FakePicamera2 | None" = None

    def __init__(self) -> None:
        self.controls: list[dict] = []
        self.started = self.closed = False
        FakePicamera2.last = self

    def create_video_configuration(self, main, lores):
        return {"main": main, "lores": lores}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def set_controls(self, controls: dict) -> None:
        self.controls.append(dict(controls))

    def capture_metadata(self) -> dict:
        return dict(METADATA)

    def capture_array(self, stream: str) -> np.ndarray:
        w, h = self.config[stream]["size"]
        if stream == "lores":  # YUV420 planar: h * 3/2 rows
            return np.full((h * 3 // 2, w), 90, np.uint8)
        image = np.full((h, w, 3), 40, np.uint8)
        cv2.rectangle(image, (w // 6, h // 6), (5 * w // 6, 5 * h // 6), (60, 140, 60), -1)
        return image

    def stop(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def picamera2(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    monkeypatch.setattr(cameras.time, "sleep", lambda s: None)
    return FakePicamera2


def test_without_a_calibration_the_automatic_controls_are_fixed_where_they_settled(picamera2):
    camera = PiCamera(main_size=(1152, 648), lores_size=(320, 180))
    fixed = picamera2.last.controls[-1]
    assert fixed["AeEnable"] is False and fixed["AwbEnable"] is False
    assert (fixed["ExposureTime"], fixed["AnalogueGain"], fixed["ColourGains"]) == (8000, 1.5, (1.9, 1.6))
    assert fixed["AfMode"] == 0 and fixed["LensPosition"] == 2.5
    assert "Lux" not in camera.controls
    frame = camera.read()
    assert frame.image.shape == (180, 320, 3)  # motion: the low-resolution stream, as BGR
    assert camera.still().shape == (648, 1152, 3)  # reading: the main stream
    camera.close()
    assert picamera2.last.closed


def test_calibrate_saves_the_fixed_controls_and_play_applies_them(picamera2, tmp_path, capsys):
    out = tmp_path / "table.json"
    assert main(["calibrate", "--camera", "pi", "-o", str(out)]) == 0
    assert "camera exposure, white balance and focus saved" in capsys.readouterr().err
    table = TableConfig.load(out)
    assert table.frame_size == (2304, 1296)  # the main stream: dice are read at full resolution
    assert table.camera["ColourGains"] == [1.9, 1.6]
    assert table.scaled(640, 360).camera == table.camera

    from zonkcam.hardware.cli_play import open_source

    picamera2.last = None
    camera = open_source("pi", None, table.camera)()
    assert picamera2.last.controls == [{"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000,
                                        "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6),
                                        "LensPosition": 2.5, "AfMode": 0}]
    camera.close()


def test_calibrate_takes_a_file_or_a_camera_not_both(tmp_path, capsys):
    assert main(["calibrate", "-o", str(tmp_path / "t.json")]) == 2
    assert "give a picture or video file, or --camera" in capsys.readouterr().err
    assert main(["calibrate", "--camera", "webcam", "-o", str(tmp_path / "t.json")]) == 2
    assert "expected pi or usb:N" in capsys.readouterr().err


def test_a_bad_camera_block_in_a_table_file_is_reported(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"frame_size": [64, 48], "polygon": [[0, 0], [10, 0], [10, 10]], "camera": 3}')
    with pytest.raises(ValueError, match="'camera' must be an object"):
        TableConfig.load(bad)


def test_a_camera_that_hangs_is_reported_lost(picamera2):
    import threading

    from zonkcam.hardware.cameras import CameraError

    camera = PiCamera(timeout_s=0.2)
    release = threading.Event()
    camera._cam.capture_array = lambda stream: release.wait(5)
    with pytest.raises(CameraError, match=r"no frame for 0\.2 s"):
        camera.read()
    release.set()
    camera.close()
