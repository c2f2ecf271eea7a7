"""Mount-height arithmetic for the hardware guide."""
import math

import pytest
from zonkcam.hardware.mounting import CAMERAS, CameraModel, die_pixels, mount_height_cm


def test_square_fov_camera_over_a_square_table():
    cam = CameraModel("ideal", 90.0, 90.0, 1000)  # sees twice its height across
    assert mount_height_cm(100, 100, cam) == pytest.approx(50)
    assert die_pixels(50, cam) == pytest.approx(1000 / 100 * 1.6)


def test_long_side_goes_along_the_wide_axis():
    cam = CAMERAS["module3"]
    assert mount_height_cm(90, 60, cam) == mount_height_cm(60, 90, cam)
    needed_for_height = 60 / (2 * math.tan(math.radians(cam.vfov / 2)))
    assert mount_height_cm(90, 60, cam) == pytest.approx(needed_for_height)
