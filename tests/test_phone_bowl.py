"""benchmarks/phone_bowl.py, issue 36's drawn phone photos: its labels lie on the dice it drew."""
import benchmark_scripts
import numpy as np


def test_each_label_lies_on_a_die_drawn_apart_from_the_others(tmp_path):
    bowl = benchmark_scripts.load("phone_bowl")
    bowl.write(tmp_path, 3, seed=5, size=(1008, 756))
    looks = (tmp_path / "looks.csv").read_text().splitlines()
    assert len(looks) == 4 and looks[0] == "image,look"
    import cv2

    for i in range(3):
        image = cv2.imread(str(tmp_path / "images" / f"bowl{i:03d}.jpg"))
        rows = np.loadtxt(tmp_path / "labels" / f"bowl{i:03d}.txt", ndmin=2)
        assert 8 <= len(rows) <= 20 and set(rows[:, 0]) <= set(range(6))
        h, w = image.shape[:2]
        centres = rows[:, 1:3] * [w, h]
        sides = rows[:, 3] * w
        assert (sides > 15).all() and (sides < 50).all()  # 80-130 px of 4032, turned
        gaps = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1)) + np.eye(len(rows)) * 1e9
        assert (gaps > 0.7 * sides[:, None]).all()  # no two dice drawn on one place
        for (cx, cy), s in zip(centres, sides, strict=True):
            die = image[round(cy - s / 4):round(cy + s / 4), round(cx - s / 4):round(cx + s / 4)]
            ring = image[round(cy - s):round(cy + s), round(cx - s):round(cx + s)]
            # a die's middle differs from the floor round it (its body colour, pips, glare)
            assert np.abs(die.reshape(-1, 3).mean(0) - np.median(ring.reshape(-1, 3), 0)).max() > 8 \
                or die.std() > 25
