"""Int8 models: the shipped one is quantized, `float_graph` recovers the float model it came
from, and quantizing a float model keeps what it reads (needs the `train` extra's onnx)."""
import numpy as np
import pytest
from zonkcam.models.registry import shipped_model
from zonkcam.vision.model import DiceModel
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.drawn import render_scene

onnx = pytest.importorskip("onnx")
from zonkcam.models.quantize import float_graph, is_quantized, quantize  # noqa: E402


def tables(n, seed):
    rng = np.random.default_rng(seed)
    kinds = ("felt", "wood", "paper", "dark")
    return [render_scene(rng, 480, 360, n=int(rng.integers(2, 6)), kind=kinds[i % 4])
            for i in range(n)]


def test_the_shipped_model_is_int8_and_its_float_graph_reads_alike(tmp_path):
    shipped = onnx.load(str(shipped_model()))
    assert is_quantized(shipped)
    assert {p.key: p.value for p in shipped.metadata_props}["quantized"] == "int8"
    back = float_graph(shipped)
    onnx.checker.check_model(back)
    ops = {n.op_type for n in back.graph.node}
    assert not ops & {"QuantizeLinear", "DequantizeLinear"} and "Relu" in ops
    assert "quantized" not in {p.key for p in back.metadata_props}
    onnx.save(back, str(tmp_path / "float.onnx"))
    int8, fp = DiceModel(shipped_model()), DiceModel(tmp_path / "float.onnx")
    crops = np.stack([Reader().look(image, _proposal(d))[0] for image, dice in tables(4, 3)
                      for d in dice])
    a, b = int8.classify(crops), fp.classify(crops)
    assert np.abs(a - b).max() < 0.1
    assert (a.argmax(1) == b.argmax(1)).mean() >= 0.9


def test_quantizing_a_float_model_keeps_its_reads_and_metadata(tmp_path):
    src = tmp_path / "float.onnx"
    onnx.save(float_graph(onnx.load(str(shipped_model()))), str(src))
    out = tmp_path / "int8.onnx"
    quantize(src, out, [image for image, _ in tables(8, 1)])
    q = onnx.load(str(out))
    assert is_quantized(q) and out.stat().st_size < src.stat().st_size / 2
    meta = {p.key: p.value for p in q.metadata_props}
    assert meta["quantized"] == "int8" and meta["crop"] == "40" and "value_threshold" in meta
    scenes = tables(6, 2)  # not the calibration pictures
    n = sum(len(dice) for _, dice in scenes)
    right_fp, right_int8 = (sum(_read_right(Reader(m), image, dice) for image, dice in scenes)
                            for m in (src, out))
    assert n >= 12 and right_fp >= 0.7 * n  # drawn dice this small are read about 80% right
    assert right_int8 >= right_fp - 1


def _read_right(reader, image, dice):
    """Drawn dice read with their value at their place."""
    found = reader.read(image).dice
    return sum(any(r.value == d.value and np.hypot(r.center[0] - d.cx, r.center[1] - d.cy) < d.size / 2
                   for r in found) for d in dice)


def _proposal(d):
    from zonkcam.vision.proposals import Proposal

    return Proposal(d.cx, d.cy, d.size, d.size, 1.0)


def test_the_command_names_a_bad_model_file(tmp_path, capsys):
    from zonkcam.models.quantize import main

    assert main([str(tmp_path / "missing.onnx")]) == 2
    assert "no such model file" in capsys.readouterr().err
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    assert main([str(bad), "--images", "2"]) == 2
    err = capsys.readouterr().err
    assert "cannot quantize" in err and "Traceback" not in err
