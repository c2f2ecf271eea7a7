"""`zonkcam train` pieces: the BN-free twin of the ONNX classifier, the spliced export, the
frame split, and clear errors for bad input."""
import sys

import numpy as np
import pytest
from zonkcam.hardware.cli import main
from zonkcam.models.captures import CaptureSet
from zonkcam.models.finetune import (
    CapturedFrame,
    LabelledDie,
    TrainError,
    load_frames,
    split_frames,
    value_accuracy,
)
from zonkcam.models.registry import shipped_model
from zonkcam.vision.dice import Die
from zonkcam.vision.model import DiceModel


def frames(n, verified_every=4):
    die = LabelledDie(3, 10, 10, 20, False, True)
    checked = LabelledDie(3, 10, 10, 20, True, True)
    return [CapturedFrame(f"cap/{i:03d}", None, (checked if i % verified_every == 0 else die,))
            for i in range(n)]


def test_split_is_by_frame_fixed_and_gives_the_held_back_part_verified_frames():
    held, val, fit = split_frames(frames(40))
    keys = [f.key for part in (held, val, fit) for f in part]
    assert len(keys) == len(set(keys)) == 40
    assert 10 <= len(held) <= 11 and any(f.verified for f in held)
    again = split_frames(list(reversed(frames(40))))
    assert [f.key for f in again[0]] == [f.key for f in held]  # the order frames come in does not matter
    bigger = split_frames(frames(44))[0]
    assert len({f.key for f in held} - {f.key for f in bigger}) <= 3  # new captures barely move it


def test_the_split_and_folds_follow_the_pictures_not_the_capture_clock(tmp_path):
    # the same photos captured twice get other names (the clock); they must split the same way
    from zonkcam.models.finetune import fold_frames

    rng = np.random.default_rng(0)
    pictures = [rng.integers(0, 255, (40, 40, 3), np.uint8) for _ in range(12)]
    die = Die(3, "red", 0.95, 0.9, (5, 5, 25, 25), (15, 15), 0.0, "ok")

    def capture(folder):
        captures = CaptureSet(tmp_path / folder, max_bytes=None)
        names = [captures.add(p, [die], "m") for p in pictures]
        for name in names[::3]:
            captures.correct(name, 0, value=3)
        return load_frames(tmp_path / folder)

    def by_picture(frames):
        return {f.key.split("/")[1]: f.image.read_bytes() for f in frames}

    first, second = capture("a"), capture("b")
    pa, pb = by_picture(first), by_picture(second)
    assert set(pa) != set(pb)  # other names
    for part_a, part_b in zip(fold_frames(first, 3), fold_frames(second, 3), strict=True):
        assert [pa[f.key.split("/")[1]] for f in part_a] == [pb[f.key.split("/")[1]] for f in part_b]
    for part_a, part_b in zip(split_frames(first), split_frames(second), strict=True):
        assert [pa[f.key.split("/")[1]] for f in part_a] == [pb[f.key.split("/")[1]] for f in part_b]


def test_capture_folders_load_with_person_set_dice_verified(tmp_path):
    captures = CaptureSet(tmp_path / "cap", max_bytes=None)
    image = np.full((60, 200, 3), 80, np.uint8)

    def die(value, confidence, x):
        return Die(value, "red", confidence, 0.9, (x, 10, x + 30, 40), (x + 15, 25), 0.0,
                   "ok" if value else "unreadable")

    rejected = [die(None, 0.1, 5 + 40 * k) for k in range(3, 5)]
    name = captures.add(image, [die(2, 0.95, 5), die(None, 0.2, 45), die(4, 0.5, 85)], "m", rejected)
    captures.correct(name, 1, value=6)
    captures.correct(name, 3, value=0)  # a rejected candidate a person called "not a die"
    (loaded,) = load_frames(tmp_path / "cap")
    assert [(d.value, d.verified, d.confident) for d in loaded.dice] == [
        (2, False, True), (6, True, True), (4, False, False), (0, True, True), (None, False, False)]
    assert loaded.dice[1].cx == 60 and loaded.dice[1].size == 30


def test_a_bad_crop_is_never_relabelled(tmp_path):
    # a box round two dice, or a die cut off: a model sure of a face there must not teach it
    from zonkcam.models.finetune import relabelable

    captures = CaptureSet(tmp_path / "cap", max_bytes=None)
    die = Die(5, "red", 0.95, 0.9, (5, 10, 35, 40), (20, 25), 0.0, "ok")
    pair = Die(6, "red", 0.97, 0.9, (50, 5, 190, 55), (120, 30), 0.0, "ok")
    name = captures.add(np.full((60, 200, 3), 80, np.uint8), [die, pair], "m")
    captures.dismiss(name, 1, "bad_crop")
    (loaded,) = load_frames(tmp_path / "cap")
    assert [(d.bad_crop, relabelable(d)) for d in loaded.dice] == [(False, True), (True, False)]


def test_value_accuracy_counts_a_dropped_non_die_as_right():
    probs = np.array([[0.9, 0.1, 0, 0, 0, 0, 0],   # dropped: right for a non-die
                      [0.1, 0, 0.9, 0, 0, 0, 0],   # a 2
                      [0.1, 0.9, 0, 0, 0, 0, 0],   # a non-die read as a 1: wrong
                      [0.6, 0, 0.4, 0, 0, 0, 0]])  # a 2 dropped: wrong
    assert value_accuracy(probs, np.array([0, 2, 0, 2]), 0.5, 0.5) == 0.5


@pytest.mark.parametrize("make, message", [
    (lambda p: p / "missing", "no such folder"),
    (lambda p: p, "no images/ folder"),
    (lambda p: (p / "images").mkdir() or p, "no images with labels"),
])
def test_bad_datasets_are_one_line_errors(tmp_path, make, message):
    with pytest.raises(TrainError, match=message):
        load_frames(make(tmp_path))


def test_cli_bad_input_exits_2_without_a_traceback(tmp_path, capsys, monkeypatch):
    pytest.importorskip("torch")
    monkeypatch.setenv("ZONKCAM_HOME", str(tmp_path / "home"))
    assert main(["train", str(tmp_path / "nothing"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "no such folder" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    assert main(["train", str(tmp_path), "--base", str(bad), "--out", str(tmp_path / "out")]) == 2
    assert "cannot load model" in capsys.readouterr().err


def test_cli_without_torch_says_how_to_install_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    assert main(["train", str(tmp_path), "--out", str(tmp_path / "out")]) == 2
    assert "pip install 'zonkcam[train]'" in capsys.readouterr().err


def test_the_twin_reproduces_the_onnx_classifier_and_the_export_keeps_the_proposer(tmp_path):
    torch = pytest.importorskip("torch")
    onnx = pytest.importorskip("onnx")
    from zonkcam.models.finetune import OnnxClassifier, twin_error
    from zonkcam.models.quantize import float_graph

    torch.set_num_threads(1)
    spec = OnnxClassifier.load(shipped_model())  # int8: read as the float graph it came from
    assert twin_error(spec, n=32) < 1e-5
    assert len(spec.convs) == 7 and spec.fc["weight"].shape == (7, 128)
    base = tmp_path / "float.onnx"
    onnx.save(spec.model, str(base))
    old = DiceModel(base)

    twin = spec.twin()
    with torch.no_grad():
        twin.fc.bias += torch.tensor([0.0, 3.0, 0, 0, 0, 0, 0])  # the new model prefers "1"
    out = tmp_path / "model.onnx"
    spec.write(twin, out, {"finetuned_from": "test"})
    new = DiceModel(out)
    grey = np.random.default_rng(1).uniform(0, 1, (96, 128)).astype(np.float32)
    for a, b in zip(old.propose(grey), new.propose(grey), strict=True):
        assert np.array_equal(a, b)
    crops = np.random.default_rng(2).uniform(0, 1, (8, old.crop, old.crop)).astype(np.float32)
    assert not np.allclose(old.classify(crops), new.classify(crops))
    assert twin_error(OnnxClassifier.load(out)) < 1e-5
    before, after = float_graph(onnx.load(str(shipped_model()))), onnx.load(str(out))
    classifier = {c[k] for c in spec.convs for k in ("w", "b")} | {spec.fc["w"], spec.fc["b"]}
    for t_old, t_new in zip(before.graph.initializer, after.graph.initializer, strict=True):
        if t_old.name not in classifier:
            assert t_old.SerializeToString() == t_new.SerializeToString(), t_old.name
    meta = {p.key: p.value for p in after.metadata_props}
    assert meta["finetuned_from"] == "test"
    assert float(meta["value_threshold"]) == old.value_threshold  # thresholds kept


def test_a_small_capture_is_folded_with_its_verified_frames_dealt_out():
    from zonkcam.models.finetune import fold_frames

    folds = fold_frames(frames(10, verified_every=3), 3)  # 4 verified frames of 10
    assert sorted(f.key for fold in folds for f in fold) == [f.key for f in frames(10)]
    assert sorted(sum(f.verified for f in fold) for fold in folds) == [1, 1, 2]
    again = fold_frames(list(reversed(frames(10, verified_every=3))), 3)
    assert [[f.key for f in fold] for fold in again] == [[f.key for f in fold] for fold in folds]


def test_distillation_keeps_what_the_starting_model_read_on_the_base_crops():
    """Noise labelled "3" (half of it the table's, half base data): without the teacher the twin
    learns to read noise as 3; with the starting model's soft classes on the base half it keeps
    reading noise as it did."""
    torch = pytest.importorskip("torch")
    from zonkcam.models.finetune import OnnxClassifier
    from zonkcam.models.twin_training import predict, train_twin
    from zonkcam.vision.faces import PATCH

    torch.set_num_threads(1)
    spec = OnnxClassifier.load(shipped_model())
    rng = np.random.default_rng(3)
    patches = rng.integers(0, 255, (256, PATCH, PATCH)).astype(np.uint8)
    old = spec.twin().eval()
    crops = rng.uniform(0, 1, (16, 40, 40)).astype(np.float32)  # the shipped model's crop
    start = predict(old, crops)
    moved = []
    for weight in (0.0, 5.0):
        twin = spec.twin()
        train_twin(twin, patches, np.full(256, 3, np.int64), (np.zeros((0, 40, 40), np.float32),
                   np.zeros(0, np.int64)), epochs=4, seed=0, lr=3e-3, patience=3, thresholds=(0.3, 0.3),
                   crop=40, margin=1.5, label="test", teacher=old, distill_from=128, distill=weight)
        moved.append(float(np.abs(predict(twin, crops) - start).sum()))
    assert moved[1] < 0.3 * moved[0], moved
