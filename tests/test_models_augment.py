"""Training crops are shown as the reader shows faces (needs the `train` extra; skipped without)."""
import numpy as np
import pytest
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, face_angle
from zonkcam.vision.sim.drawn import DrawnDie, background, draw_die


def test_training_crops_are_turned_upright_as_the_reader_turns_faces():
    pytest.importorskip("torch")
    from zonkcam.models.train import FREE_TURNS, augment_crop

    rng = np.random.default_rng(0)
    patch = background(rng, PATCH, PATCH, "felt")
    draw_die(patch, DrawnDie(5, "white", PATCH / 2, PATCH / 2, PATCH / PATCH_MARGIN, 30.0))
    grey = patch.mean(axis=2).astype(np.uint8)
    turns = [abs(face_angle(augment_crop(grey, rng))) for _ in range(200)]
    upright = np.mean([t <= 15 for t in turns])  # a quarter turn and ±10°, and the shear
    # a face at 30°, turned at any angle, is this near upright a third of the time
    assert upright >= 1 - FREE_TURNS - 0.1
