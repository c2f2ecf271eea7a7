"""Units of the recognizer that need no model: image decoding, matching, colours, angles."""
import struct
import zlib

import cv2
import numpy as np
import pytest
from zonkcam.vision import evaluate
from zonkcam.vision.colors import DiceSet, DiceSetError, body_lab
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, face_angle, patch_at
from zonkcam.vision.imageio import ImageError, decode, header_size
from zonkcam.vision.sim.drawn import BODY_BGR, DrawnDie, background, draw_die


def png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)))


def test_header_size_reads_png_and_jpeg_without_decoding():
    assert header_size(png_header(8000, 6000)) == (8000, 6000)
    ok, jpg = cv2.imencode(".jpg", np.zeros((48, 64, 3), np.uint8))
    assert ok and header_size(jpg.tobytes()) == (64, 48)
    assert header_size(b"not a picture") is None


def test_huge_and_corrupt_pictures_get_clear_errors():
    with pytest.raises(ImageError, match=r"20000×20000 \(400 MP\)"):
        decode("huge.png", png_header(20000, 20000))
    with pytest.raises(ImageError, match="corrupt"):
        decode("junk.jpg", b"\xff\xd8 junk")
    with pytest.raises(ImageError, match="corrupt"):
        decode("empty.jpg", b"")


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_a_picture_cut_short_is_refused_not_read_in_half(ext):
    image = (np.random.default_rng(0).random((120, 160, 3)) * 255).astype(np.uint8)
    data = cv2.imencode(ext, image)[1].tobytes()
    assert decode("whole" + ext, data).shape == image.shape
    with pytest.raises(ImageError, match="cut short"):
        decode("half" + ext, data[: len(data) * 2 // 3])


def test_matching_is_one_to_one_by_centre_in_box():
    labels = np.array([[3, 0.25, 0.5, 0.2, 0.2], [5, 0.75, 0.5, 0.2, 0.2]], np.float32)

    def die(x, y, value, conf=0.9):
        return Die(value, "white", conf, 1.0, (0, 0, 1, 1), (x, y), 0.0)

    # the surer die takes the box; the other, inside it too, stays unmatched, as does label 1
    pairs, free = evaluate.match([die(27, 52, 3, 0.5), die(25, 50, 3)], labels[:, 1:] * 100)
    assert [(d.center, j) for d, j in pairs] == [((25, 50), 0)] and free.tolist() == [False, True]
    t = evaluate.Tally()
    # two predictions in the first box: one matches, one is extra; the second die is missed
    t.add([die(25, 50, 3), die(27, 52, 3, 0.5)], labels, 100, 100)
    t.add([die(25, 50, 3), die(75, 50, 5)], labels, 100, 100)  # an exact image
    t.add([die(25, 50, 4), die(75, 50, 5)], labels, 100, 100)  # one misread
    s = t.summary()
    assert (s["labels"], s["predictions"], s["matched"]) == (6, 6, 5)
    assert s["precision"] == pytest.approx(5 / 6, abs=1e-4)
    assert s["value_accuracy"] == pytest.approx(4 / 5)
    assert s["exact_image_rate"] == pytest.approx(1 / 3, abs=1e-4)
    assert s["confusion"][2][3] == 1 and s["confusion"][4][4] == 2
    # both labels are 20 px dice: 6 labelled, 5 found, 4 read right
    assert s["by_size"] == {"0-30 px": {"labels": 6, "recall": pytest.approx(5 / 6, abs=1e-4),
                                        "value_accuracy": 0.8}}
    assert evaluate.size_bin(29.9) == "0-30 px" and evaluate.size_bin(130) == "130+ px"
    assert "0-30 px" in evaluate.format_summary(s)


@pytest.mark.parametrize("name", list(BODY_BGR))
def test_drawn_dice_get_their_colour_names(name):
    rng = np.random.default_rng(1)
    img = background(rng, 200, 200, "paper" if name == "black" else "dark")
    d = DrawnDie(5, name, 100, 100, 60, 20)
    draw_die(img, d)
    got, conf = DiceSet.default().name_of(body_lab(patch_at(img, 100, 100, 60), np.ones(3)))
    assert got == name and conf > 0.5


@pytest.mark.parametrize(("cx", "cy", "size"), [(20, 30, 240), (620, 460, 300), (320, 240, 520),
                                                (-200, 240, 300)])
def test_big_patch_leaving_the_picture_lands_where_a_warp_puts_it(cx, cy, size):
    """A die so big that its patch is area-averaged, and partly outside the picture: the edge
    is replicated as a plain warp would (the patch is cut, shrunk, then padded)."""
    x, y = np.meshgrid(np.arange(640), np.arange(480))
    img = np.dstack([x * 0.3, y * 0.4, 128 + 60 * np.sin(x / 40) * np.cos(y / 50)]).astype(np.uint8)
    got = patch_at(img, cx, cy, size).astype(np.float32)
    k = PATCH / (size * PATCH_MARGIN)
    m = np.float32([[k, 0, PATCH / 2 - k * cx], [0, k, PATCH / 2 - k * cy]])
    want = cv2.warpAffine(cv2.GaussianBlur(img, (0, 0), 0.5 / k), m, (PATCH, PATCH),
                          flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    assert got.shape == want.shape == (PATCH, PATCH, 3)
    assert np.abs(got - want).mean() < 3.0  # mean grey levels; blur and area-averaging differ a little


@pytest.mark.parametrize("angle", [0.0, 15.0, 30.0, -20.0, 40.0])
def test_face_angle_finds_the_square(angle):
    img = background(np.random.default_rng(2), 200, 200, "felt")
    draw_die(img, DrawnDie(6, "white", 100, 100, 70, angle), shadow=False)
    grey = cv2.cvtColor(patch_at(img, 100, 100, 70 * 1.2), cv2.COLOR_BGR2GRAY)
    got = face_angle(grey)
    diff = (got - angle + 45) % 90 - 45
    assert abs(diff) < 4


def test_dice_set_round_trip_and_bad_file(tmp_path):
    s = DiceSet("mine", {"red": (100.0, 170.0, 150.0), "ivory": (230.0, 128.0, 135.0)})
    s.save(tmp_path / "set.json")
    assert DiceSet.load(tmp_path / "set.json") == s
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(DiceSetError, match="not a dice-set file"):
        DiceSet.load(tmp_path / "bad.json")
    with pytest.raises(DiceSetError, match="cannot read"):
        DiceSet.load(tmp_path / "missing.json")
    # JSON of another shape is named as such, not with Python's own words for it
    for i, text in enumerate(('[1, 2]', '{"colors": [1]}', '{"colors": {"red": 5}}')):
        (tmp_path / f"shape{i}.json").write_text(text)
        with pytest.raises(DiceSetError, match=r"expected a JSON object whose 'colors'"):
            DiceSet.load(tmp_path / f"shape{i}.json")


def test_heatmap_peaks_half_a_die_apart_are_two_dice_in_a_photo_one_from_overhead():
    # two peaks 16 px apart, each proposing a 32-px die: in a photo a die proposed at up to
    # 1.6 times its size must not hide the die touching it (0.45 of a die); seen from
    # overhead, a leaning die makes two peaks that close (0.6: the stronger alone)
    from zonkcam.vision.proposals import NMS_FRACTION
    from zonkcam.vision.proposals import decode as decode_heat

    heat = np.zeros((20, 20), np.float32)
    heat[5, 5], heat[5, 9] = 0.9, 0.8
    geometry = np.zeros((4, 20, 20), np.float32)
    geometry[:2] = np.log(32.0)
    both = decode_heat(heat, geometry, scale=1.0, stride=4, threshold=0.5)
    assert [(p.cx, p.cy, p.size) for p in both] == [(20.0, 20.0, 32.0), (36.0, 20.0, 32.0)]
    one = decode_heat(heat, geometry, 1.0, 4, 0.5, peaks_apart=NMS_FRACTION)
    assert [(p.cx, p.score) for p in one] == [(20.0, pytest.approx(0.9))]
