"""`zonkcam train` warns when a capture shows a face the model has never seen too few times."""
from __future__ import annotations

import numpy as np
from zonkcam.models.thin_faces import MIN_EXAMPLES, advice, thin_faces

THRESHOLDS = (0.5, 0.6)  # the reader's reject and value thresholds


def _probs(reads: list[int]) -> np.ndarray:
    """The starting model's classes for dice it reads as `reads` (0: no die), surely."""
    out = np.full((len(reads), 7), 0.01)
    out[np.arange(len(reads)), reads] = 0.94
    return out


def test_a_face_misread_on_most_of_its_few_dice_is_thin():
    # three emblem sixes read as ones, a skull one read as "no die" on 2 of 4, pip fives read right
    labels = [6, 6, 6, 1, 1, 1, 1, 5, 5]
    reads = [1, 1, 1, 0, 0, 1, 1, 5, 5]
    assert thin_faces(_probs(reads), labels, *THRESHOLDS) == {6: 3}


def test_enough_dice_or_a_face_already_known_is_not_thin():
    labels = [6] * MIN_EXAMPLES + [2, 2]
    reads = [1] * MIN_EXAMPLES + [2, 2]  # every six misread, but shown enough; two twos read right
    assert thin_faces(_probs(reads), labels, *THRESHOLDS) == {}


def test_an_unsure_read_counts_as_wrong_and_unknown_values_are_ignored():
    probs = _probs([4, 4, 4])
    probs[:2, 4] = 0.55  # under the value threshold: the reader says unreadable
    assert thin_faces(probs, [4, 4, None], *THRESHOLDS) == {4: 2}
    assert thin_faces(np.zeros((0, 7)), [], *THRESHOLDS) == {}


def test_the_advice_names_each_face_and_what_to_do():
    one = advice({6: 3})
    assert "new face 6 (3 dice)" in one and f"at least {MIN_EXAMPLES}" in one and "photos" in one
    two = advice({1: 1, 6: 2})
    assert "new faces 1 (1 die), 6 (2 dice)" in two and "them" in two


def test_the_model_card_carries_the_warning():
    from zonkcam.models.finetune import model_card

    m = {"base_model": "shipped.onnx", "datasets": ["caps"], "seed": 0, "threads": 1,
         "frames": {"train": 10, "validation": 0, "held_back": 10, "folds": 3},
         "dice": {"verified": 40, "unverified": 0, "pseudo_labelled": 0, "held_back": 40, "rejects": 9},
         "held_back_labels": "verified", "base_data": "drawn dice", "base_eval_dice": 600,
         "before": {"held_back": 0.5, "base": 1.0}, "after": {"held_back": 0.9, "base": 1.0},
         "train_seconds": 1.0, "total_seconds": 2.0, "epochs": [], "proposer": None, "activated": True}
    assert "Warning" not in model_card(m | {"thin_faces": {}})
    assert "Warning: too few dice show the new face 6 (3 dice)" in model_card(m | {"thin_faces": {"6": 3}})
