"""The exported ONNX graph loads in the reader (needs the `train` extra; skipped without it)."""
import numpy as np
import pytest
from zonkcam.vision.read import Reader


def test_fresh_nets_export_to_a_model_the_reader_loads(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from zonkcam.models.nets import FaceClassifier, Proposer
    from zonkcam.models.train import export

    out = tmp_path / "fresh.onnx"
    export(Proposer().eval(), FaceClassifier().eval(), out)
    reader = Reader(out)
    reading = reader.read(np.full((240, 320, 3), 128, np.uint8))
    assert (reading.width, reading.height) == (320, 240)
    probs = reader.model.classify(np.zeros((3, 32, 32), np.float32))
    assert probs.shape == (3, 7) and np.allclose(probs.sum(1), 1, atol=1e-4)
