"""Training crops are shown as the reader shows faces (needs the `train` extra; skipped without)."""
import numpy as np
import pytest
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, face_angle
from zonkcam.vision.sim.drawn import DrawnDie, background, draw_die


def _drawn_patch(rng: np.random.Generator, value: int, angle: float) -> np.ndarray:
    """A white die drawn on felt in the middle of a grey PATCH, as the reader cuts patches."""
    patch = background(rng, PATCH, PATCH, "felt")
    draw_die(patch, DrawnDie(value, "white", PATCH / 2, PATCH / 2, PATCH / PATCH_MARGIN, angle))
    return patch.mean(axis=2).astype(np.uint8)


def test_training_crops_are_turned_upright_as_the_reader_turns_faces():
    pytest.importorskip("torch")
    from zonkcam.models.train import FREE_TURNS, augment_crop

    rng = np.random.default_rng(0)
    grey = _drawn_patch(rng, 5, 30.0)
    turns = [abs(face_angle(augment_crop(grey, rng))) for _ in range(200)]
    upright = np.mean([t <= 15 for t in turns])  # a quarter turn and ±10°, and the shear
    # a face at 30°, turned at any angle, is this near upright a third of the time
    assert upright >= 1 - FREE_TURNS - 0.1


def _white_face_crop() -> np.ndarray:
    """A white die showing six on a mid-grey table, upright, CROP px, as `augment_crop` cuts."""
    from zonkcam.models.crops import CROP, CROP_MARGIN

    img = np.full((CROP, CROP, 3), 120, np.uint8)
    draw_die(img, DrawnDie(6, "white", CROP / 2, CROP / 2, CROP / CROP_MARGIN, 0.0))
    return img.mean(axis=2).astype(np.uint8)


def test_a_washed_face_is_clipped_white_and_keeps_its_pips():
    from zonkcam.models.augment import washed

    crop = _white_face_crop()
    inner = slice(crop.shape[0] // 4, -(crop.shape[0] // 4))
    for seed in range(20):
        out = washed(crop, np.random.default_rng(seed))[inner, inner]
        assert np.mean(out >= 254) > 0.3  # the lamp clips the body's highlights
        assert out.min() < 240  # but the pips are still darker than the body


def test_a_face_on_the_floor_has_a_dark_floor_round_it():
    from zonkcam.models.augment import on_floor

    crop = _white_face_crop()
    out = on_floor(crop, np.random.default_rng(0), (crop.shape[1] / 2, crop.shape[0] / 2), 20.0)
    corners = np.concatenate([out[:5, :5].ravel(), out[-5:, -5:].ravel()])
    assert corners.mean() < 110 < crop[:5, :5].mean()  # the table grey 120 is now the floor
    c = crop.shape[0] // 2
    assert np.array_equal(out[c - 3:c + 3, c - 3:c + 3], crop[c - 3:c + 3, c - 3:c + 3])


def test_a_glossy_face_gets_a_light_spot_on_the_face_and_a_blotched_one_light_swirls():
    from zonkcam.models.augment import blotched, glare
    from zonkcam.models.crops import CROP, CROP_MARGIN

    side = CROP / CROP_MARGIN
    plain = np.full((CROP, CROP), 120, np.uint8)  # a face without pips: the spot is the only mark
    for seed in range(20):
        out = glare(plain, np.random.default_rng(seed), (CROP / 2, CROP / 2), side)
        y, x = np.unravel_index(np.argmax(out), out.shape)
        assert out[y, x] >= np.median(out) + 50 and max(abs(x - CROP / 2), abs(y - CROP / 2)) <= 0.4 * side
        # a white six made a dark body with swirls as light as pips, 80 levels or more over it
        swirled = blotched(_white_face_crop(), np.random.default_rng(seed))
        assert np.mean(swirled >= np.median(swirled) + 70) > 0.02


def test_hard_faces_are_off_by_default_and_every_kind_makes_a_crop():
    pytest.importorskip("torch")
    from zonkcam.models.augment import HARD_KINDS
    from zonkcam.models.crops import CROP, augment_crop

    grey = _drawn_patch(np.random.default_rng(0), 3, 20.0)
    # off: the same crops as before the option (no random draw is spent on it); the sum is
    # that of the recipe before hard faces (HEAD of 2026-11-27, checked crop by crop on 50 seeds)
    plain = [augment_crop(grey, np.random.default_rng(seed), 0.0) for seed in range(5)]
    assert sum(int(c.astype(np.int64).sum()) for c in plain) == 962701
    hard = [augment_crop(grey, np.random.default_rng(seed), 1.0) for seed in range(10 * len(HARD_KINDS))]
    assert all(c.shape == (CROP, CROP) and c.dtype == np.uint8 for c in hard)


def test_a_big_one_is_drawn_big_and_ring_pips_hollow():
    from zonkcam.vision.sim.drawn import Pips

    def dark_pixels(value: int, pips: Pips) -> int:
        patch = np.full((PATCH, PATCH, 3), 128, np.uint8)
        draw_die(patch, DrawnDie(value, "white", PATCH / 2, PATCH / 2, PATCH / PATCH_MARGIN, 0),
                 shadow=False, pips=pips)
        return int(np.count_nonzero(patch.mean(axis=2) < 60))

    plain = dark_pixels(1, Pips())
    assert 3 < dark_pixels(1, Pips(one_radius=0.18)) / plain < 5  # (0.18 / 0.09) ** 2
    assert dark_pixels(5, Pips(one_radius=0.18)) == dark_pixels(5, Pips())  # ones only
    assert dark_pixels(6, Pips(radius=0.1, ring=0.03)) < 0.8 * dark_pixels(6, Pips(radius=0.1))
    assert dark_pixels(1, Pips(one_ring=0.1)) > 1.5 * plain


def test_a_zoomed_crop_shows_the_face_bigger():
    # a small capture's own dice are cut at up to 1.5 times their usual size
    # (finetune.TABLE_SCALES): the proposer boxes a big picture face short of its side
    pytest.importorskip("torch")
    from zonkcam.models.crops import SCALES, augment_crop
    from zonkcam.models.finetune import TABLE_SCALES

    grey = _drawn_patch(np.random.default_rng(0), 1, 0.0)

    def white_share(scales: tuple[float, float]) -> float:
        crops = [augment_crop(grey, np.random.default_rng(s), scales=scales) for s in range(40)]
        return float(np.mean([(c > 170).mean() for c in crops]))  # the white face's share

    assert TABLE_SCALES[1] > SCALES[1]
    assert white_share((1.45, 1.5)) > 1.5 * white_share((0.8, 0.85))
