"""The Pi camera against a stand-in for picamera2: lores for motion, main for reading, and
exposure, white balance and focus fixed (at start, or as saved by `zonkcam calibrate`)."""
import sys
import types

import cv2
import numpy as np
import pytest
from zonkcam.hardware import cameras
from zonkcam.hardware.cameras import PiCamera, fixed_controls, picamera
from zonkcam.hardware.cli import main
from zonkcam.vision.table import TableConfig

METADATA = {"ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6), "Lux": 300.0}


class FakePicamera2:
    """Records what the product asks of the camera; delivers a grey table with a light mat.

    `model` is libcamera's sensor name: an imx708 (Camera Module 3) has autofocus, its lens at
    1.0 until an autofocus cycle moves it to 2.5; the others report no lens position."""

    last: "FakePicamera2 | None" = None
    model = "imx708"
    focus_found = True
    takes_sensor = True  # picamera2 with the `sensor=` configuration (0.3.13 and later)
    frames_left: int | None = None  # then capture_array raises KeyboardInterrupt (Ctrl-C)

    @classmethod
    def global_camera_info(cls) -> list[dict]:
        return [{"Model": cls.model, "Id": f"/base/axi/pcie@120000/rp1/i2c@88000/{cls.model}@1a"}]

    def __init__(self) -> None:
        self.controls: list[dict] = []
        self.events: list[str] = []
        self.started = self.closed = False
        self.lens = 1.0
        self.camera_properties = {"Model": self.model}
        self.camera_controls = {"ExposureTime": (1, 1_000_000, 20_000)}
        if self.model.startswith("imx708"):
            self.camera_controls["AfMode"] = (0, 2, 0)
        FakePicamera2.last = self

    def create_video_configuration(self, main, lores, **options):
        if "sensor" in options and not self.takes_sensor:
            raise TypeError("create_video_configuration() got an unexpected keyword argument 'sensor'")
        return {"main": main, "lores": lores, **options}

    def configure(self, config) -> None:
        self.config = config
        self.events.append("configure")

    def start(self) -> None:
        self.started = True
        self.events.append("start")

    def autofocus_cycle(self) -> bool:
        assert "AfMode" in self.camera_controls, "no autofocus on this camera"
        self.events.append("autofocus")
        self.lens = 2.5
        return self.focus_found

    def set_controls(self, controls: dict) -> None:
        self.controls.append(dict(controls))
        self.events.append("set_controls")

    def capture_metadata(self) -> dict:
        af = {"LensPosition": self.lens} if "AfMode" in self.camera_controls else {}
        return {**METADATA, **af}

    def capture_array(self, stream: str) -> np.ndarray:
        if self.frames_left is not None:
            if self.frames_left == 0:
                raise KeyboardInterrupt
            self.frames_left -= 1
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
    monkeypatch.setattr(picamera.time, "sleep", lambda s: None)
    for name in ("model", "focus_found", "takes_sensor", "frames_left"):
        monkeypatch.setattr(FakePicamera2, name, getattr(FakePicamera2, name))  # undone after
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

    from zonkcam.hardware.cli.play import open_source

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


def test_camera_module_3_focuses_before_its_lens_is_locked(picamera2):
    camera = PiCamera()
    cam = picamera2.last
    assert cam.events == ["configure", "start", "autofocus", "set_controls"]
    assert cam.controls[-1]["LensPosition"] == 2.5  # where the cycle focused, not the default 1.0
    assert cam.controls[-1]["AfMode"] == 0  # then held there: manual focus
    assert cam.config["sensor"] == {"output_size": (2304, 1296), "bit_depth": 10}
    assert cam.config["main"]["size"] == (2304, 1296) and camera.main_size == (2304, 1296)
    camera.close()


@pytest.mark.parametrize(("model", "mode", "main"), [
    ("imx219", {"output_size": (1640, 1232), "bit_depth": 10}, (1600, 900)),  # Camera Module 2
    ("imx477", {"output_size": (2028, 1520), "bit_depth": 12}, (1920, 1080)),  # HQ Camera
])
def test_a_camera_focused_by_hand_runs_no_autofocus_and_gets_its_binned_mode(picamera2, model, mode, main):
    picamera2.model = model
    camera = PiCamera()
    cam = picamera2.last
    assert "autofocus" not in cam.events
    assert "LensPosition" not in cam.controls[-1] and "AfMode" not in cam.controls[-1]
    assert cam.config["sensor"] == mode  # the full sensor, binned: not a centre crop
    assert cam.config["main"]["size"] == main
    assert camera.still().shape == (main[1], main[0], 3)
    camera.close()


def test_a_wide_module_3_is_pinned_like_the_standard_one(picamera2):
    picamera2.model = "imx708_wide_noir"
    PiCamera().close()
    assert picamera2.last.config["sensor"]["output_size"] == (2304, 1296)


def test_an_unknown_sensor_gets_no_pinned_mode(picamera2):
    picamera2.model = "ov5647"
    PiCamera().close()
    assert "sensor" not in picamera2.last.config and "raw" not in picamera2.last.config
    assert picamera2.last.config["main"]["size"] == (2304, 1296)


def test_an_older_picamera2_picks_the_mode_by_the_raw_stream(picamera2):
    picamera2.takes_sensor = False
    PiCamera().close()
    assert picamera2.last.config["raw"] == {"size": (2304, 1296)}


def test_focus_not_found_is_said_and_the_lens_still_locked(picamera2, caplog):
    picamera2.focus_found = False
    with caplog.at_level("WARNING"):
        PiCamera().close()
    assert "autofocus found no sharp focus" in caplog.text
    assert picamera2.last.controls[-1]["AfMode"] == 0


def test_a_calibration_without_a_lens_position_is_focused_first(picamera2):
    camera = PiCamera(controls={"ExposureTime": 9000, "AnalogueGain": 2.0, "ColourGains": [2.0, 1.5]})
    assert picamera2.last.events[-2:] == ["autofocus", "set_controls"]
    assert picamera2.last.controls[-1]["LensPosition"] == 2.5
    assert picamera2.last.controls[-1]["ExposureTime"] == 9000
    camera.close()


def test_capture_and_play_open_the_pi_camera_with_the_table_files_controls(picamera2, tmp_path):
    table = tmp_path / "table.json"
    TableConfig((2304, 1296), [(100, 100), (2200, 100), (2200, 1200), (100, 1200)],
                camera={"ExposureTime": 12000, "AnalogueGain": 1.2, "ColourGains": [2.1, 1.4],
                        "LensPosition": 3.0}).save(table)
    from zonkcam.hardware.cli.play import open_source

    play = open_source("pi", None, TableConfig.load(table).camera)()
    played = picamera2.last
    play.close()
    picamera2.frames_left = 5  # then Ctrl-C: capture stops as a person would stop it
    assert main(["capture", "--camera", "pi", "--table", str(table), "--out", str(tmp_path / "ds")]) == 130
    captured = picamera2.last
    assert captured is not played
    assert captured.controls == played.controls == [{
        "AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 1.2,
        "ColourGains": (2.1, 1.4), "LensPosition": 3.0, "AfMode": 0}]
    assert "autofocus" not in captured.events  # the calibrated lens position is kept
    assert captured.config["sensor"] == played.config["sensor"]


def test_the_calibrate_dice_picture_is_taken_as_play_sees_the_table(picamera2, tmp_path, capsys):
    from zonkcam.hardware.cameras import pi_still

    table = tmp_path / "table.json"
    TableConfig((2304, 1296), [(0, 0), (2300, 0), (2300, 1290)],
                camera={"ExposureTime": 7000, "AnalogueGain": 1.1, "ColourGains": [1.8, 1.7],
                        "LensPosition": 2.0}).save(table)
    out = tmp_path / "row.jpg"
    assert pi_still.main(["--table", str(table), "-o", str(out)]) == 0
    assert picamera2.last.controls == [fixed_controls(TableConfig.load(table).camera)]
    assert picamera2.last.config["sensor"]["output_size"] == (2304, 1296)
    assert cv2.imread(str(out)).shape == (1296, 2304, 3)  # the stream dice are read from
    assert pi_still.main(["--table", str(tmp_path / "none.json"), "-o", str(out)]) == 2
    assert pi_still.main(["--camera", "webcam", "-o", str(out)]) == 2
    assert pi_still.main(["-o", str(tmp_path / "row.gif")]) == 2
    err = capsys.readouterr().err
    assert "cannot read table file" in err and "expected pi or usb:N" in err and ".jpg or .png" in err


def test_a_pi_camera_is_detected_without_being_started(picamera2, monkeypatch):
    FakePicamera2.last = None
    assert cameras.detect_camera() == "pi"
    assert FakePicamera2.last is None  # listed by libcamera, not opened: no settle, no autofocus
    usb_only = [{"Model": "HD Webcam C525", "Id": "/base/scb/pcie@7d500000/usb@1,0-1.2:1.0-046d:0826"}]
    monkeypatch.setattr(FakePicamera2, "global_camera_info", classmethod(lambda cls: usb_only))

    def no_usb(index):
        raise cameras.CameraError(f"usb:{index}: no camera at index {index}")

    monkeypatch.setattr(cameras, "UsbCamera", no_usb)
    assert cameras.detect_camera() == "demo"  # a USB camera libcamera lists is not a Pi camera
