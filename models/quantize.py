"""Int8 dice models: what the reader runs, and the float graph that training starts from.

    python -m zonkcam.models.quantize MODEL.onnx [--out OUT.onnx] [--images N]

onnxruntime's static quantization (QDQ format: int8 weights per output channel, uint8
activations) runs the proposer about 1.8× and the classifier about 2.9× faster on one CPU
core, for a change in rune55 held-out figures within half a point (docs/recognizer.md). The
activation ranges are calibrated by running the float model over pictures of the kind it will
read: rune55 `fit` photos when present, else drawn tables (`vision.sim.drawn`); `zonkcam train`
calibrates on the table's own captured frames.

Training and fine-tuning need float weights: `float_graph` folds a quantized file's
QuantizeLinear/DequantizeLinear nodes back into float tensors. Relu nodes are kept when
quantizing (onnxruntime drops them at load time anyway), so the folded graph has the float
model's ops. Needs the `train` extra (onnx).
"""
from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.read import Reader

CALIBRATION_IMAGES = 120


def is_quantized(model) -> bool:
    return any(n.op_type == "DequantizeLinear" for n in model.graph.node)


def float_graph(model):
    """The float model a QDQ-quantized one was made from (weights as int8 would give them).

    A DequantizeLinear of a stored tensor becomes that tensor in float; a QuantizeLinear →
    DequantizeLinear pair on an activation is dropped (its output renamed to its input).
    """
    import onnx

    if not is_quantized(model):
        return model
    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    keep, rename, new_inits = _fold_quantization(g)
    for n in keep:
        for i, name in enumerate(n.input):
            n.input[i] = rename.get(name, name)
    _keep_output_names(g, keep, rename)
    used = {i for n in keep for i in n.input} | {i.name for i in g.input}
    del g.node[:]
    g.node.extend(n for n in keep if n.op_type != "Constant" or n.output[0] in used)
    kept_inits = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(kept_inits + new_inits)
    del g.value_info[:]
    props = [p for p in m.metadata_props if p.key != "quantized"]
    del m.metadata_props[:]
    m.metadata_props.extend(props)
    return m


def _fold_quantization(g) -> tuple[list, dict[str, str], list]:
    """(the nodes to keep, activation names to rename, float initializers for the dequantized
    weights) of graph `g`."""
    from onnx import numpy_helper

    inits = {t.name: t for t in g.initializer}
    consts = {n.output[0]: n.attribute[0].t for n in g.node
              if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value"}

    def array(name: str) -> np.ndarray:
        return numpy_helper.to_array(inits[name] if name in inits else consts[name])

    rename: dict[str, str] = {}
    new_inits = []
    quantize_of = {n.output[0]: n for n in g.node if n.op_type == "QuantizeLinear"}
    keep = []
    for n in g.node:
        if n.op_type == "DequantizeLinear" and n.input[0] in inits:
            new_inits.append(numpy_helper.from_array(_dequantized(n, array), n.output[0]))
        elif n.op_type == "DequantizeLinear" and n.input[0] in quantize_of:
            rename[n.output[0]] = quantize_of[n.input[0]].input[0]
        elif n.op_type != "QuantizeLinear":
            keep.append(n)
    return keep, rename, new_inits


def _dequantized(n, array) -> np.ndarray:
    """The float tensor a DequantizeLinear node `n` makes of its stored int8 input."""
    q = array(n.input[0]).astype(np.float32)
    scale = array(n.input[1]).astype(np.float32)
    zero = array(n.input[2]).astype(np.float32) if len(n.input) > 2 else np.float32(0)
    axis = next((a.i for a in n.attribute if a.name == "axis"), 1)
    if scale.ndim == 1 and q.ndim > 1:  # per channel along `axis`
        shape = [1] * q.ndim
        shape[axis] = -1
        scale, zero = scale.reshape(shape), np.reshape(zero, shape if np.ndim(zero) else ())
    return ((q - zero) * scale).astype(np.float32)


def _keep_output_names(g, keep: list, rename: dict[str, str]) -> None:
    """A graph output that was a dequantized copy: its producer takes its name (in place)."""
    for o in g.output:
        if (source := rename.get(o.name)) is not None:
            for n in keep:
                for names in (n.input, n.output):
                    for i, name in enumerate(names):
                        if name == source:
                            names[i] = o.name


def replace_tensors(model, tensors: dict[str, np.ndarray]) -> None:
    """Put new values into `model`'s initializers of those names (float32), in place: how a
    net trained further goes back into the graph it was read from."""
    from onnx import numpy_helper

    for i, t in enumerate(model.graph.initializer):
        if t.name in tensors:
            model.graph.initializer[i].CopyFrom(
                numpy_helper.from_array(np.ascontiguousarray(tensors[t.name], np.float32), t.name))


def calibration_feeds(model_path: Path, images: Iterable[np.ndarray]) -> list[dict[str, np.ndarray]]:
    """One feed per picture: the proposer's input and the crops the reader cuts from it."""
    from zonkcam.vision.proposals import proposer_input

    reader = Reader(model_path)
    feeds = []
    for image in images:
        bgr = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
        grey01, _, _ = proposer_input(bgr, reader.proposer_side)
        crops = [c.crop for c in reader.candidates(bgr)]
        if crops:
            feeds.append({"image": grey01[None, None], "crops": np.stack(crops)[:, None]})
    if not feeds:
        raise ValueError("no calibration picture showed a die candidate")
    return feeds


def quantize(src: Path, out: Path, images: Iterable[np.ndarray]) -> None:
    """Write the int8 version of model `src` (float or already quantized) to `out`."""
    import onnx
    import onnxruntime
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    onnxruntime.set_default_logger_severity(3)  # the quantizer's own sessions warn about defaults
    model = float_graph(onnx.load(str(src)))
    # merged graphs list the default opset twice, which the quantizer cannot read
    opset = max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
    del model.opset_import[:]
    model.opset_import.append(onnx.helper.make_opsetid("", opset))
    with tempfile.TemporaryDirectory() as tmp:
        float_path = Path(tmp) / "float.onnx"
        onnx.save(model, str(float_path))
        feeds = iter(calibration_feeds(float_path, images))

        class Feeds(CalibrationDataReader):
            def get_next(self) -> dict | None:
                return next(feeds, None)

        quantized = Path(tmp) / "int8.onnx"
        root = logging.getLogger()
        level = root.level
        root.setLevel(logging.ERROR)  # the quantizer's advice to pre-process: done differently here
        try:
            quantize_static(str(float_path), str(quantized), Feeds(),
                            quant_format=QuantFormat.QDQ, per_channel=True,
                            activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                            extra_options={"QDQKeepRemovableActivations": True})
        finally:
            root.setLevel(level)
        q = onnx.load(str(quantized))
        # the float model's metadata (crop, thresholds), not the quantizer's notes
        props = {p.key: p.value for p in model.metadata_props} | {"quantized": "int8"}
        del q.metadata_props[:]
        for key, value in props.items():
            q.metadata_props.add(key=key, value=value)
        tmp_out = out.with_suffix(".tmp.onnx")
        onnx.save(q, str(tmp_out))
        tmp_out.replace(out)


def sample_pictures(n: int) -> tuple[str, list[np.ndarray]]:
    """Calibration pictures: rune55 `fit` photos when present, else drawn tables."""
    import random

    from zonkcam.models.rune55 import datasets_root, group_split

    root = datasets_root() / "rune55"
    if (root / "groups.csv").exists():
        items = group_split(root, "fit")
        random.Random(0).shuffle(items)
        pictures = (cv2.imread(str(it.image)) for it in items[:n])
        return "rune55 fit photos", [p for p in pictures if p is not None]
    from zonkcam.vision.sim.drawn import render_scene

    rng = np.random.default_rng(0)
    kinds = ("felt", "wood", "paper", "dark")
    return "drawn tables", [render_scene(rng, 640, 480, int(rng.integers(1, 7)),
                                         kind=kinds[i % 4])[0] for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m zonkcam.models.quantize", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", type=Path)
    ap.add_argument("--out", type=Path, help="default: replace MODEL")
    ap.add_argument("--images", type=int, default=CALIBRATION_IMAGES,
                    help=f"calibration pictures (default {CALIBRATION_IMAGES})")
    args = ap.parse_args(argv)
    if not args.model.is_file():
        print(f"no such model file: {args.model}", file=sys.stderr)
        return 2
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("onnx is not installed; pip install 'zonkcam[train]'", file=sys.stderr)
        return 2
    kind, pictures = sample_pictures(args.images)
    print(f"calibrating on {len(pictures)} {kind}", file=sys.stderr)
    out = args.out or args.model
    try:
        quantize(args.model, out, pictures)
    except Exception as exc:  # protobuf, onnx and onnxruntime raise many unrelated types
        print(f"cannot quantize {args.model}: {exc}".splitlines()[0], file=sys.stderr)
        return 2
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
