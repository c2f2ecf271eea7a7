"""The exported ONNX graph loads in the reader (needs the `train` extra; skipped without it)."""
import numpy as np
import pytest
from zonkcam.vision.read import Reader


def test_fresh_nets_export_to_a_model_the_reader_loads(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from zonkcam.models.nets import CROP, FaceClassifier, Proposer
    from zonkcam.models.train import export, export_proposer

    export_proposer(Proposer().eval(), tmp_path / "proposer.onnx")
    out = tmp_path / "fresh.onnx"
    export(tmp_path / "proposer.onnx", FaceClassifier().eval(), out)
    reader = Reader(out)
    reading = reader.read(np.full((240, 320, 3), 128, np.uint8))
    assert (reading.width, reading.height) == (320, 240)
    assert reader.model.crop == CROP
    probs = reader.model.classify(np.zeros((3, CROP, CROP), np.float32))
    assert probs.shape == (3, 7) and np.allclose(probs.sum(1), 1, atol=1e-4)


def test_classifier_alone_keeps_a_shipped_proposer(tmp_path):
    pytest.importorskip("torch")
    onnx = pytest.importorskip("onnx")
    from zonkcam.models.nets import FaceClassifier
    from zonkcam.models.quantize import float_graph
    from zonkcam.models.train import export
    from zonkcam.vision.model import DEFAULT_MODEL, DiceModel

    out = tmp_path / "new.onnx"
    export(DEFAULT_MODEL, FaceClassifier().eval(), out)
    grey = np.random.default_rng(0).uniform(0, 1, (320, 320)).astype(np.float32)
    # the shipped model is int8: its proposer is kept as the float graph it was made from
    onnx.save(float_graph(onnx.load(str(DEFAULT_MODEL))), str(tmp_path / "float.onnx"))
    old, new = DiceModel(tmp_path / "float.onnx"), DiceModel(out)
    assert np.array_equal(old.propose(grey)[0], new.propose(grey)[0])


def test_shipped_proposer_trains_further_and_keeps_the_classifier(tmp_path):
    """`--proposer-further`: the shipped proposer's torch twin computes what onnxruntime does,
    and its weights go back into the model with the face classifier left as it was."""
    torch = pytest.importorskip("torch")
    onnx = pytest.importorskip("onnx")
    from zonkcam.models.quantize import float_graph
    from zonkcam.models.train import proposer_twin, write_proposer
    from zonkcam.vision.model import DEFAULT_MODEL, DiceModel

    onnx.save(float_graph(onnx.load(str(DEFAULT_MODEL))), str(tmp_path / "float.onnx"))
    old = DiceModel(tmp_path / "float.onnx")
    grey = np.random.default_rng(0).uniform(0, 1, (96, 128)).astype(np.float32)
    twin = proposer_twin(DEFAULT_MODEL)
    with torch.no_grad():
        out = twin(torch.from_numpy(grey[None, None]))[0].numpy()
    heat, geometry = old.propose(grey)
    assert np.abs(torch.sigmoid(torch.from_numpy(out[0])).numpy() - heat).max() < 1e-5
    assert np.abs(out[1:] - geometry).max() < 1e-4

    with torch.no_grad():  # a training step's worth of change
        twin.head.bias += 0.5
    write_proposer(twin, DEFAULT_MODEL, tmp_path / "further.onnx")
    new = DiceModel(tmp_path / "further.onnx")
    assert not np.allclose(new.propose(grey)[0], heat)
    crops = np.random.default_rng(1).uniform(0, 1, (3, old.crop, old.crop)).astype(np.float32)
    assert np.array_equal(new.classify(crops), old.classify(crops))
    assert (new.stride, new.crop, new.reject_threshold) == (old.stride, old.crop, old.reject_threshold)


@pytest.mark.parametrize("content", [None, b"not an onnx file"])
def test_proposer_further_needs_a_model_it_can_read(tmp_path, capsys, content):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from zonkcam.models.train import main

    model = tmp_path / "model.onnx"
    if content is not None:
        model.write_bytes(content)
    assert main(["--proposer-further", str(model), "--out", str(tmp_path / "out.onnx")]) == 2
    err = capsys.readouterr().err
    assert f"cannot train {model} further" in err and "Traceback" not in err
    assert not (tmp_path / "out.onnx").exists()


@pytest.mark.parametrize("damage", ["groups", "photo"])
def test_training_from_a_damaged_rune55_says_so_in_one_line(tmp_path, capsys, monkeypatch, damage):
    pytest.importorskip("torch")
    from zonkcam.models.train import main

    root = tmp_path / "rune55"
    (root / "train" / "images").mkdir(parents=True)
    (root / "train" / "labels").mkdir()
    rows = "split,file,group\n" + "".join(f"train,p{g}.jpg,{g}\n" for g in range(40))
    (root / "groups.csv").write_text("split,file\n" if damage == "groups" else rows)
    for g in range(40):
        (root / "train" / "images" / f"p{g}.jpg").write_bytes(b"not a jpeg")
    monkeypatch.setenv("ZONKCAM_DATASETS", str(tmp_path))
    assert main(["--out", str(tmp_path / "out.onnx"), "--work", str(tmp_path / "work")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cannot train:") and "Traceback" not in err
    assert ("no group column" in err) if damage == "groups" else ("not an image" in err)
