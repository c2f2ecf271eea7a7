"""`zonkcam capture --stills DIR`: a folder of photos, each saved as one scene."""
import json
import struct

import cv2
import numpy as np
import pytest
from zonkcam.hardware.cli import main
from zonkcam.vision.imageio import ImageError, decode
from zonkcam.vision.sim.drawn import render_scene


def photo(path, seed, width, height, n=4):
    image, dice = render_scene(np.random.default_rng(seed), width, height, n=n, colors=("white",))
    cv2.imwrite(str(path), image)
    return dice


def with_orientation(jpeg: bytes, orientation: int) -> bytes:
    """The JPEG with an EXIF APP1 segment saying the camera was turned (6: 90° clockwise)."""
    tiff = (b"MM\x00\x2a" + struct.pack(">IH", 8, 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
            + struct.pack(">I", 0))
    app1 = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + jpeg[2:]


def test_each_photo_is_one_scene_whatever_its_size(tmp_path, capsys):
    photos = tmp_path / "phone"
    photos.mkdir()
    drawn = [photo(photos / "IMG_0001.jpg", 1, 640, 480), photo(photos / "IMG_0002.jpg", 2, 480, 640),
             photo(photos / "IMG_0003.png", 3, 800, 600, n=5)]
    # a photo taken with the phone turned: stored sideways, EXIF says how to turn it back
    side = photos / "IMG_0004.jpg"
    photo(side, 4, 640, 480)
    upright = cv2.imread(str(side))
    _, jpeg = cv2.imencode(".jpg", cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE))
    side.write_bytes(with_orientation(jpeg.tobytes(), 6))
    (photos / "notes.txt").write_text("not a photo")
    (photos / "IMG_0005.jpg").write_bytes(b"\xff\xd8 broken")
    out = tmp_path / "cap"
    assert main(["capture", "--stills", str(photos), "--out", str(out)]) == 0
    captured = capsys.readouterr()
    metas = [json.loads(p.read_text()) for p in sorted((out / "meta").glob("*.json"))]
    assert len(metas) == 4  # every readable photo, the first one too (no baseline scene)
    assert [m["size"] for m in metas] == [[640, 480], [480, 640], [800, 600], [640, 480]]
    read = sum(d["value"] is not None and not d.get("rejected") for m in metas for d in m["dice"])
    assert read >= 0.8 * sum(map(len, drawn)) + 0.8 * 4
    assert all("look" in d for m in metas for d in m["dice"])  # what orders the review queue
    assert all(m["still"] for m in metas)  # photos are no sequence: no die lies still between them
    line = captured.out.strip().splitlines()[-1]
    assert line.startswith(f"4 photos, {read} dice saved in {out}") and "1 unreadable skipped" in line
    assert "IMG_0005.jpg" in captured.err


def test_an_empty_or_unreadable_folder_is_a_clear_error(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["capture", "--stills", str(empty), "--out", str(tmp_path / "a")]) == 2
    assert "no pictures in it" in capsys.readouterr().err
    (empty / "IMG_1.HEIC").write_bytes(b"heic")
    assert main(["capture", "--stills", str(empty), "--out", str(tmp_path / "a")]) == 2
    assert "export them as JPEG" in capsys.readouterr().err
    (empty / "a.jpg").write_bytes(b"nothing")
    assert main(["capture", "--stills", str(empty), "--out", str(tmp_path / "a")]) == 1
    assert "none of its 1 photos could be read" in capsys.readouterr().err
    assert main(["capture", "--stills", str(tmp_path / "nope"), "--out", str(tmp_path / "a")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["capture", "--stills", str(empty), "--table", "t.json", "--out", str(tmp_path / "a")]) == 2
    assert "not --stills" in capsys.readouterr().err


def test_an_iphone_photo_says_how_to_convert_it_wherever_a_picture_is_read(tmp_path, capsys):
    heic = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(64)
    (tmp_path / "IMG_2.HEIC").write_bytes(heic)
    with pytest.raises(ImageError, match=r"HEIF/AVIF photo.*export it as JPEG"):
        decode("IMG_2.HEIC", heic)
    assert main(["read", str(tmp_path / "IMG_2.HEIC")]) == 2
    assert "Most Compatible" in capsys.readouterr().err
    for command in (["replay", str(tmp_path)], ["calibrate", str(tmp_path), "-o", str(tmp_path / "t.json")]):
        assert main(command) == 2, command
        assert "export them as JPEG" in capsys.readouterr().err, command


def test_calibrate_takes_a_folder_of_frames_as_replay_does(tmp_path, capsys):
    frames = tmp_path / "frames"
    frames.mkdir()
    image, _ = render_scene(np.random.default_rng(5), 640, 480, n=3, colors=("white",))
    for i in range(3):
        cv2.imwrite(str(frames / f"{i:04d}.png"), image)
    assert main(["calibrate", str(frames), "-o", str(tmp_path / "t.json")]) == 0
    assert json.loads((tmp_path / "t.json").read_text())["frame_size"] == [640, 480]
    assert main(["calibrate", str(tmp_path / "nope"), "-o", str(tmp_path / "t.json")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
