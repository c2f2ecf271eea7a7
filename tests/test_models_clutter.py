"""Drawn clutter for the classifier's reject class (issue 36, item 5): `models.clutter_negatives`
and `train --clutter-share`. The generator needs no torch; the training tests skip without it."""
import numpy as np
import pytest
from zonkcam.models.clutter_negatives import KINDS, clutter_patch, clutter_patches, clutter_rng
from zonkcam.models.crops import CROP, CROP_MARGIN, reader_crops
from zonkcam.vision.faces import PATCH


def test_clutter_patches_are_patches_the_reader_cuts_with_something_in_them():
    patches = clutter_patches(2 * len(KINDS), clutter_rng(0))
    assert patches.shape == (2 * len(KINDS), PATCH, PATCH) and patches.dtype == np.uint8
    # a flat table is no lesson: most patches show an edge of the thing (part views may not)
    assert np.mean([p.std() > 6 for p in patches]) > 0.8
    crops = reader_crops(patches, CROP, CROP_MARGIN)
    assert crops.shape == (len(patches), CROP, CROP)


def test_every_kind_draws_and_an_unknown_one_is_a_clear_error():
    rng = clutter_rng(1)
    for kind in KINDS:
        assert clutter_patch(rng, kind).shape == (PATCH, PATCH)
    with pytest.raises(ValueError, match="unknown clutter kind"):
        clutter_patch(rng, "dice")


def test_clutter_has_its_own_random_stream():
    # the same training seed gives the same clutter, and not the stream a benchmark seed gives
    assert np.array_equal(clutter_patches(3, clutter_rng(5)), clutter_patches(3, clutter_rng(5)))
    assert clutter_rng(1).random() != np.random.default_rng(1).random()


def test_clutter_joins_the_reject_class_in_its_share():
    pytest.importorskip("torch")
    from zonkcam.models.train import TrainError, with_clutter

    patches = np.zeros((90, PATCH, PATCH), np.uint8)
    labels = np.arange(90, dtype=np.int64) % 7
    out, out_labels = with_clutter(patches, labels, 0.1, clutter_rng(0))
    assert len(out) == len(out_labels) == 100
    assert np.array_equal(out_labels[:90], labels) and not out_labels[90:].any()  # reject: 0
    assert out[90:].std() > 0  # drawn clutter, not the zeros given
    same, same_labels = with_clutter(patches, labels, 0.0, clutter_rng(0))
    assert same is patches and same_labels is labels
    with pytest.raises(TrainError):
        with_clutter(patches, labels, 1.0, clutter_rng(0))


def test_a_tiny_training_run_takes_clutter_crops():
    torch = pytest.importorskip("torch")
    from zonkcam.models.crops import drawn_patches
    from zonkcam.models.train import train_classifier, with_clutter

    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    dice, labels = drawn_patches(24, rng)
    patches, labels = with_clutter(dice, labels, 0.25, clutter_rng(0))
    assert np.count_nonzero(labels == 0) == 8
    net = train_classifier(patches, labels, epochs=1, seed=0)
    with torch.no_grad():
        out = net(torch.from_numpy(reader_crops(patches[:4], CROP, CROP_MARGIN)[:, None]))
    assert out.shape == (4, 7) and torch.isfinite(out).all()


def test_a_clutter_share_out_of_range_is_a_usage_error():
    pytest.importorskip("torch")
    from zonkcam.models.train import main

    with pytest.raises(SystemExit) as exit_:
        main(["--clutter-share", "0.9"])
    assert exit_.value.code == 2
