"""Camera sources: files, folders, bad input, and reconnecting a lost live camera."""
import sys

import cv2
import numpy as np
import pytest
from zonkcam.hardware.cameras import (
    SOURCES,
    CameraError,
    DemoCamera,
    Frame,
    FrameFolder,
    Reconnecting,
    VideoFile,
    camera_opener,
    is_live,
    open_camera,
    source_for,
)


def frames(n=5, size=(64, 48)):
    return [np.full((size[1], size[0], 3), 40 * i, np.uint8) for i in range(n)]


def test_frame_folder_plays_in_name_order_at_the_given_rate(tmp_path):
    for i, image in enumerate(frames()):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), image)
    with open_camera(str(tmp_path), fps=10) as camera:
        got = list(camera)
    assert [f.index for f in got] == [0, 1, 2, 3, 4]
    assert [f.t for f in got] == pytest.approx([0, 0.1, 0.2, 0.3, 0.4])
    assert [int(f.image[0, 0, 0]) for f in got] == [0, 40, 80, 120, 160]
    assert camera.still() is got[-1].image


def test_video_file_frames_and_time(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 20, (64, 48))
    for image in frames(6):
        writer.write(image)
    writer.release()
    with open_camera(str(path)) as camera:
        assert isinstance(camera, VideoFile)
        got = list(camera)
    assert len(got) == 6 and got[-1].t == pytest.approx(5 / 20)


def test_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(CameraError, match="no pictures in it"):
        FrameFolder(tmp_path)


def test_frames_of_changing_size_are_refused(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), frames(1, (64, 48))[0])
    cv2.imwrite(str(tmp_path / "b.png"), frames(1, (32, 48))[0])
    camera = FrameFolder(tmp_path)
    camera.read()
    with pytest.raises(CameraError, match="same size"):
        camera.read()


def test_corrupt_frame_and_unreadable_video_are_clear_errors(tmp_path):
    (tmp_path / "frames").mkdir()
    (tmp_path / "frames" / "x.jpg").write_bytes(b"not a jpeg")
    with pytest.raises(CameraError, match="none of its 1 images could be decoded"):
        FrameFolder(tmp_path / "frames").read()
    (tmp_path / "clip.mp4").write_bytes(b"\x00" * 100)
    with pytest.raises(CameraError, match=r"clip\.mp4"):
        VideoFile(tmp_path / "clip.mp4").read()


def test_a_corrupt_frame_in_a_folder_is_skipped_and_play_goes_on(tmp_path):
    """Never back to frame 0: the folder's throws would be scored a second time."""
    for i, image in enumerate(frames(3, (64, 48))):
        cv2.imwrite(str(tmp_path / f"{2 * i}.png"), image)
    (tmp_path / "1.png").write_bytes(b"\x89PNG broken")
    camera = FrameFolder(tmp_path)
    indexes = []
    while (frame := camera.read()) is not None:
        indexes.append(frame.index)
    assert indexes == [0, 2, 3]  # positions in the folder: 1 is the broken file


def test_unknown_camera_spec(tmp_path):
    with pytest.raises(CameraError, match="not a camera"):
        open_camera(str(tmp_path / "nothing-here"))
    with pytest.raises(CameraError, match="usb:N"):
        open_camera("usb:x")


def test_an_unknown_source_is_refused_in_one_line_naming_every_source(tmp_path):
    with pytest.raises(CameraError) as caught:
        camera_opener("webcam")
    message = str(caught.value)
    assert "\n" not in message and message.startswith("webcam: not a camera source")
    assert all(s.usage in message for s in SOURCES)
    with pytest.raises(CameraError, match="usb:N with N a camera number"):
        camera_opener("usb:")  # named a USB camera, malformed: said so before anything opens


def test_the_registry_tells_live_cameras_from_recordings_and_the_demo(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    video = tmp_path / "clip.avi"
    video.write_bytes(b"")
    assert [source_for(s).usage for s in ("pi", "usb:1", "demo", str(folder), str(video))] == [
        "pi", "usb:N", "demo", "a folder of frames", "a video file"]
    assert [is_live(s) for s in ("pi", "usb:0", "demo", str(folder), "nothing")] == [
        True, True, False, False, False]


def test_the_demo_opens_by_name_with_its_pace_as_an_option():
    with open_camera("demo", realtime=False) as camera:
        assert isinstance(camera, DemoCamera) and not camera.realtime
        assert camera.read() is not None


def test_pi_camera_without_picamera2_says_what_to_do():
    pytest.importorskip("cv2")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="picamera2 is not installed"):
            open_camera("pi")
    else:
        pytest.skip("picamera2 present: this is a Pi")


class Flaky:
    """A live camera that fails after a few frames, and whose reopening fails once."""

    name = "flaky"
    opened = 0

    def __init__(self):
        Flaky.opened += 1
        if Flaky.opened == 2:
            raise CameraError("still unplugged")
        self.left = 3

    def read(self):
        if self.left == 0:
            raise CameraError("unplugged")
        self.left -= 1
        return Frame(np.zeros((2, 2, 3), np.uint8), 0.0, 0)

    def still(self):
        return np.zeros((2, 2, 3), np.uint8)

    def close(self):
        pass


def test_lost_camera_is_reopened_with_back_off_and_reported():
    Flaky.opened = 0
    messages, sleeps = [], []
    camera = Reconnecting(Flaky, on_status=messages.append, sleep=sleeps.append, first_delay=0.5)
    got = [camera.read() for _ in range(6)]
    assert all(f is not None for f in got)
    assert sleeps == [0.5, 1.0]  # the first reopening failed, the second worked
    assert camera.generation == 1
    assert messages[0].startswith("camera lost: unplugged") and messages[-1] == "camera flaky is back"


def test_a_video_frame_that_does_not_decode_is_skipped_never_rewound(tmp_path):
    path = tmp_path / "throws.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    texture = np.random.default_rng(0).integers(0, 6, (240, 320, 3), dtype=np.uint8)
    for i in range(8):  # frames of some kilobytes each, told apart by their brightness
        writer.write(texture + np.uint8(20 * i + 8))
    writer.release()
    data = bytearray(path.read_bytes())
    starts = [i for i in range(len(data) - 1) if data[i:i + 2] == b"\xff\xd8"]
    assert starts[5] - starts[4] > 600
    data[starts[4]:starts[4] + 600] = bytes(600)  # the fifth frame's picture is gone
    path.write_bytes(bytes(data))
    video = VideoFile(path)
    frames = []
    while (frame := video.read()) is not None:
        frames.append((frame.index, round(float(frame.image.mean()) / 10) * 10))
    indexes = [i for i, _ in frames]
    assert indexes[:6] == [0, 1, 2, 3, 5, 6] and indexes == sorted(set(indexes))  # never rewound
    assert all(m == 20 * i + 10 for i, m in frames), frames  # each frame is the one its index says


@pytest.fixture
def pi_without_picamera2(monkeypatch, tmp_path):
    """A Raspberry Pi (by its device tree) whose Python cannot import picamera2: a plain venv."""
    from zonkcam.hardware import cameras
    from zonkcam.hardware.cameras import picamera

    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    monkeypatch.setattr(picamera, "DEVICE_MODEL", model)  # where `on_raspberry_pi` reads it
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import raises ImportError

    def no_usb(index):
        raise CameraError(f"usb:{index}: no camera at index {index}")

    monkeypatch.setattr(cameras, "UsbCamera", no_usb)  # where `detect_camera` looks it up
    return cameras


def test_on_a_pi_a_python_without_picamera2_is_told_how_to_fix_it(pi_without_picamera2, caplog):
    cameras = pi_without_picamera2
    with caplog.at_level("WARNING"):
        assert cameras.detect_camera() == "demo"
    assert "this is a Raspberry Pi, but picamera2 cannot be imported" in caplog.text
    assert "--system-site-packages" in caplog.text and "python3-picamera2" in caplog.text
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        cameras.PiCamera()


def test_off_a_pi_no_camera_is_quietly_the_demo(pi_without_picamera2, tmp_path, caplog, monkeypatch):
    from zonkcam.hardware.cameras import picamera

    cameras = pi_without_picamera2
    monkeypatch.setattr(picamera, "DEVICE_MODEL", tmp_path / "absent")
    with caplog.at_level("INFO"):
        assert cameras.detect_camera() == "demo"
    assert "Raspberry Pi" not in caplog.text
