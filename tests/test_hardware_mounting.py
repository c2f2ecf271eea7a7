"""Mount-height arithmetic for the hardware guide, on the field of view the streams really see."""
import math

import pytest
from zonkcam.hardware.cameras.mounting import CAMERAS, CameraModel, die_pixels, main, mount_height_cm
from zonkcam.hardware.cameras.sensor_modes import SENSOR_MODES


def test_square_fov_camera_over_a_square_table():
    cam = CameraModel("ideal", 90.0, 90.0, "imx708")  # a 16:9 sensor: the streams see it all
    assert cam.stream_fov == pytest.approx((90.0, 90.0))
    assert mount_height_cm(100, 100, cam) == pytest.approx(50)  # sees twice its height across
    assert die_pixels(50, cam) == pytest.approx(2304 / 100 * 1.6)


def test_a_4_3_sensor_loses_a_quarter_of_its_height_to_the_16_9_streams():
    cam = CAMERAS["module2"]
    hfov, vfov = cam.stream_fov
    assert hfov == pytest.approx(62.2)
    full = math.tan(math.radians(48.8 / 2))
    assert math.tan(math.radians(vfov / 2)) == pytest.approx(0.75 * full, rel=0.01)
    assert round(mount_height_cm(90, 60, cam)) == 88  # issue 38: the full-sensor figure said 75
    assert round(mount_height_cm(90, 60, CAMERAS["hq-6mm"])) == 88


def test_long_side_goes_along_the_wide_axis():
    cam = CAMERAS["module3"]
    assert mount_height_cm(90, 60, cam) == mount_height_cm(60, 90, cam)
    needed_for_height = 60 / (2 * math.tan(math.radians(cam.stream_fov[1] / 2)))
    assert mount_height_cm(90, 60, cam) == pytest.approx(needed_for_height)


def test_every_camera_is_read_from_a_stream_inside_its_pinned_mode():
    for cam in CAMERAS.values():
        crop_w, crop_h = cam.mode.crop_size
        main_w, main_h = cam.mode.main_size
        assert main_w <= crop_w and main_h <= crop_h + 1  # scaled down, never up
        assert main_w / main_h == pytest.approx(16 / 9, abs=0.01)
    assert {cam.sensor for cam in CAMERAS.values()} == set(SENSOR_MODES)


def test_the_tool_prints_the_figures_the_guide_quotes(capsys):
    main(["90x60", "--camera", "module3-wide"])
    out = capsys.readouterr().out
    assert "mount at   45 cm" in out and "33 px in the 2304x1296 stream" in out
    assert "  9 px in the 640x360 motion stream" in out
    with pytest.raises(SystemExit):
        main(["0x60"])
