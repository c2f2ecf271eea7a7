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
