"""`zonkcam simulate | replay | calibrate` from the command line, and their bad-input messages."""
import json
import subprocess
import sys

import cv2
import numpy as np
import pytest


def zonkcam(*args, check=True):
    out = subprocess.run([sys.executable, "-m", "zonkcam.hardware.cli", *args],
                         capture_output=True, text=True, env={"OMP_NUM_THREADS": "1",
                                                              "PATH": "/usr/bin:/bin"})
    if check:
        assert out.returncode == 0, out.stderr
    return out


@pytest.fixture(scope="module")
def footage(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sim")
    video = folder / "throws.avi"
    zonkcam("simulate", str(video), "--seed", "101", "--throws", "2", "--surface", "mat")
    return video


def test_simulate_then_replay_prints_one_line_per_throw_and_a_summary(footage):
    truth = json.loads(footage.with_suffix(".truth.json").read_text())
    out = zonkcam("replay", str(footage), "--table", str(footage.with_suffix(".table.json")),
                  "--reader", "drawn", "--json")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    events, summary = lines[:-1], lines[-1]["summary"]
    assert len(events) == len(truth["throws"]) == summary["throws"] == 2
    first = events[0]
    assert set(first) >= {"t", "frame", "thrown", "kept", "removed", "flags", "latency_ms"}
    assert sorted(d["value"] for d in first["thrown"]) == \
        sorted(d["value"] for d in truth["throws"][0]["thrown"])
    assert summary["frames"] == truth["frames"]


def test_calibrate_finds_the_mat_and_writes_an_overlay(footage, tmp_path):
    out_file, overlay = tmp_path / "table.json", tmp_path / "overlay.png"
    zonkcam("calibrate", str(footage), "-o", str(out_file), "--overlay", str(overlay))
    found = json.loads(out_file.read_text())["polygon"]
    truth = json.loads(footage.with_suffix(".table.json").read_text())["polygon"]
    area = cv2.contourArea(np.float32(found))
    assert abs(area / cv2.contourArea(np.float32(truth)) - 1) < 0.08
    assert cv2.imread(str(overlay)) is not None


def test_calibrate_warns_about_a_tiny_region(footage, tmp_path):
    out = zonkcam("calibrate", str(footage), "--polygon", "10,10,40,40", "-o",
                  str(tmp_path / "t.json"))
    assert "warning" in out.stderr and "SPAZ" in out.stderr


def test_calibrate_warns_of_a_patch_of_the_floor_with_dice_at_rest_outside_it(footage, tmp_path):
    mat = json.loads(footage.with_suffix(".table.json").read_text())["polygon"]
    (x1, y1), (x2, y2) = np.min(mat, axis=0), np.max(mat, axis=0)
    patch = f"{x1 + 120},{y1 + 100},{x2 - 120},{y2 - 100}"
    out = zonkcam("calibrate", str(footage), "--polygon", patch, "-o", str(tmp_path / "t.json"))
    assert "may be a patch" in out.stderr and "outside the table region" in out.stderr
    found = zonkcam("calibrate", str(footage), "-o", str(tmp_path / "found.json"))
    assert "warning" not in found.stderr


def test_bad_inputs_get_one_line_messages(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken.mp4"
    broken.write_bytes(b"not a video")
    sizes = tmp_path / "sizes"
    sizes.mkdir()
    cv2.imwrite(str(sizes / "a.png"), np.zeros((48, 64, 3), np.uint8))
    cv2.imwrite(str(sizes / "b.png"), np.zeros((40, 64, 3), np.uint8))
    for source, words in ((empty, "no pictures"), (broken, "not a video"),
                          (sizes, "64x40"), (tmp_path / "missing", "no such")):
        out = zonkcam("replay", str(source), "--reader", "drawn", "--json", check=False)
        assert out.returncode == 2 and words in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
