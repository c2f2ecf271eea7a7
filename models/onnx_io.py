"""Reading dice models' ONNX graphs into torch twins, writing trained twins back, and exporting.

A shipped model is one ONNX file holding two nets: the proposer (input `image`, outputs `heat`
and `geometry`) and the face classifier (input `crops`, output `face`). Training further starts
from the file itself: its BatchNorm is fused into the convolutions, and an int8 file is read as
the float graph it was made from (`quantize.float_graph`), so each twin has biased convolutions
and no BatchNorm. Writing back replaces only that net's tensors; the other net, the metadata and
the thresholds are kept. torch and onnx are imported lazily (`train_extra`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from zonkcam.models.crops import CROP, CROP_MARGIN
from zonkcam.models.quantize import float_graph, replace_tensors
from zonkcam.models.train_extra import TrainError, need_onnx, need_torch

if TYPE_CHECKING:
    import torch
    from zonkcam.models.nets import Proposer


# ----------------------------------------------------------------------------- the face classifier
@dataclass
class OnnxClassifier:
    """The face classifier's part of a dice .onnx graph: its ops in order and its tensors.

    A quantized model is read as the float graph it was made from (`quantize.float_graph`).
    """

    path: Path
    model: Any = None  # the float onnx.ModelProto the classifier was read from
    ops: list[tuple] = field(default_factory=list)  # ("sub"|"div", c), ("conv", i), ("pool", k, s), ...
    convs: list[dict] = field(default_factory=list)  # {"w", "b", "weight", "bias", "stride", "pad", ...}
    fc: dict = field(default_factory=dict)  # {"w", "b", "weight", "bias", "trans_b"}

    @classmethod
    def load(cls, path: Path) -> OnnxClassifier:
        onnx, numpy_helper = need_onnx()
        try:
            model = float_graph(onnx.load(str(path)))
        except Exception as exc:  # protobuf raises several types for a corrupt file
            raise TrainError(f"cannot load model {path}: {exc}".splitlines()[0]) from None
        inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
        consts = {n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in model.graph.node
                  if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value"}
        found = cls(Path(path), model)
        reach = {"crops"}
        for node in model.graph.node:  # nodes are stored in topological order
            if not any(i in reach for i in node.input):
                continue
            reach.update(node.output)
            attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}
            other = [i for i in node.input if i not in reach]
            if node.op_type in ("Sub", "Div") and other and other[0] in consts:
                found.ops.append((node.op_type.lower(), float(consts[other[0]])))
            elif node.op_type == "Conv" and len(node.input) == 3:
                w, b = node.input[1], node.input[2]
                if attrs.get("group", 1) != 1 or set(attrs.get("dilations", [1, 1])) != {1}:
                    raise TrainError(f"{path}: unexpected classifier convolution")
                found.ops.append(("conv", len(found.convs)))
                found.convs.append({"w": w, "b": b, "weight": inits[w], "bias": inits[b],
                                    "stride": attrs.get("strides", [1, 1])[0],
                                    "pad": attrs.get("pads", [0, 0, 0, 0])[0]})
            elif node.op_type == "Relu":
                found.ops.append(("relu",))
            elif node.op_type == "MaxPool":
                found.ops.append(("pool", attrs["kernel_shape"][0], attrs.get("strides", [1])[0]))
            elif node.op_type == "ReduceMean":
                found.ops.append(("mean",))
            elif node.op_type == "Gemm":
                w, b = node.input[1], node.input[2]
                found.fc = {"w": w, "b": b, "weight": inits[w], "bias": inits[b],
                            "trans_b": attrs.get("transB", 0)}
            elif node.op_type != "Softmax":
                raise TrainError(f"{path}: classifier op {node.op_type} is not supported by zonkcam train")
        if not found.convs or not found.fc:
            raise TrainError(f"{path} is not a zonkcam dice model (no face classifier found)")
        return found

    def twin(self):
        """A torch module computing the classifier's logits with these weights (no BatchNorm)."""
        torch = need_torch()
        from torch import nn
        from torch.nn import functional as F

        spec = self

        class Twin(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.convs = nn.ModuleList()
                for c in spec.convs:
                    cout, cin, k, _ = c["weight"].shape
                    conv = nn.Conv2d(cin, cout, k, c["stride"], c["pad"], bias=True)
                    conv.weight.data = torch.from_numpy(c["weight"].copy())
                    assert conv.bias is not None  # made with bias=True
                    conv.bias.data = torch.from_numpy(c["bias"].copy())
                    self.convs.append(conv)
                w = spec.fc["weight"] if spec.fc["trans_b"] else spec.fc["weight"].T
                self.fc = nn.Linear(w.shape[1], w.shape[0])
                self.fc.weight.data = torch.from_numpy(np.array(w, np.float32))
                self.fc.bias.data = torch.from_numpy(spec.fc["bias"].copy())

            def forward(self, x):
                for op in spec.ops:
                    if op[0] == "sub":
                        x = x - op[1]
                    elif op[0] == "div":
                        x = x / op[1]
                    elif op[0] == "conv":
                        x = self.convs[op[1]](x)
                    elif op[0] == "relu":
                        x = F.relu(x)
                    elif op[0] == "pool":
                        x = F.max_pool2d(x, op[1], op[2])
                    elif op[0] == "mean":
                        x = x.mean(dim=(2, 3))
                return self.fc(x)

        return Twin()

    def write(self, twin, out: Path, metadata: dict[str, str]) -> None:
        """The base (float) graph with the classifier's tensors replaced by the twin's; all else
        kept."""
        onnx, _ = need_onnx()
        model = onnx.ModelProto()
        model.CopyFrom(self.model)
        new = {}
        for c, conv in zip(self.convs, twin.convs, strict=True):
            new[c["w"]] = conv.weight.detach().numpy()
            new[c["b"]] = conv.bias.detach().numpy()
        w = twin.fc.weight.detach().numpy()
        new[self.fc["w"]] = w if self.fc["trans_b"] else w.T
        new[self.fc["b"]] = twin.fc.bias.detach().numpy()
        replace_tensors(model, new)
        props = {p.key: p.value for p in model.metadata_props} | metadata
        del model.metadata_props[:]
        for key, value in props.items():
            model.metadata_props.add(key=key, value=value)
        onnx.checker.check_model(model)
        tmp = out.with_suffix(".tmp.onnx")
        onnx.save(model, str(tmp))
        tmp.replace(out)


def twin_error(spec: OnnxClassifier, n: int = 16, seed: int = 0) -> float:
    """Largest difference between the twin's probabilities and onnxruntime's `face` output of
    the float graph it was read from."""
    import onnxruntime as ort

    torch = need_torch()
    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    session = ort.InferenceSession(spec.model.SerializeToString(), opts,
                                   providers=["CPUExecutionProvider"])
    crop = next(i for i in session.get_overridable_initializers() if i.name == "crops").shape[-1]
    rng = np.random.default_rng(seed)
    crops = rng.uniform(0, 1, (n, 1, crop, crop)).astype(np.float32)
    with torch.no_grad():
        mine = torch.softmax(spec.twin().eval()(torch.from_numpy(crops)), 1).numpy()
    return float(np.abs(mine - session.run(["face"], {"crops": crops})[0]).max())


# ----------------------------------------------------------------------------- the proposer
def _proposer_convs(model) -> dict[str, tuple[str, str]]:
    """The proposer's convolutions: the `Proposer` submodule each comes from (the exporter
    names a node after it, e.g. `/net/s8/s8.0/s8.0.3/Conv`) -> its (weight, bias) tensors."""
    reach, convs = {"image"}, {}
    for node in model.graph.node:  # stored in topological order
        if any(i in reach for i in node.input):
            reach.update(node.output)
            if node.op_type == "Conv" and len(node.input) == 3:
                convs[node.name.rsplit("/", 2)[-2]] = (node.input[1], node.input[2])
    return convs


def proposer_twin(path: Path) -> Proposer:
    """The proposer of a dice .onnx as a torch `Proposer` to train further. The export folded
    each BatchNorm into its convolution, so the twin's BatchNorms are identities and its
    convolutions carry the folded weights and biases (as the face classifier's twin does).
    """
    import onnx
    import torch
    from onnx import numpy_helper
    from torch import nn
    from zonkcam.models.nets import Proposer

    model = float_graph(onnx.load(str(path)))
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    net = Proposer()
    for module in net.modules():
        for name, child in module.named_children():
            if isinstance(child, nn.BatchNorm2d):
                setattr(module, name, nn.Identity())
    convs = {name: m for name, m in net.named_modules() if isinstance(m, nn.Conv2d)}
    found = _proposer_convs(model)
    if found.keys() != convs.keys() or any(
            tuple(convs[k].weight.shape) != inits[w].shape for k, (w, _) in found.items()):
        raise ValueError(f"{path}: its proposer is not this version's Proposer")
    for k, (w, b) in found.items():
        convs[k].weight = nn.Parameter(torch.from_numpy(inits[w].copy()))
        convs[k].bias = nn.Parameter(torch.from_numpy(inits[b].copy()))
    return net.eval()


def write_proposer(twin: Proposer, base: Path, out: Path) -> None:
    """`base`'s float graph with the proposer's tensors replaced by the twin's; all else
    (the face classifier, metadata) kept."""
    import onnx
    from torch import nn

    model = float_graph(onnx.load(str(base)))
    new = {}
    for k, (w, b) in _proposer_convs(model).items():
        conv = twin.get_submodule(k)
        assert isinstance(conv, nn.Conv2d) and conv.bias is not None
        new[w], new[b] = conv.weight.detach().numpy(), conv.bias.detach().numpy()
    replace_tensors(model, new)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


# ----------------------------------------------------------------------------- export
def _export(module: torch.nn.Module, example: torch.Tensor, path: Path, inp: str,
            outs: list[str]) -> None:
    import torch

    axes = {inp: {0: "n"} if inp == "crops" else {2: "h", 3: "w"}}
    axes |= {o: {0: "n"} if inp == "crops" else {2: "gh", 3: "gw"} for o in outs}
    torch.onnx.export(module.eval(), (example,), str(path), dynamo=False, opset_version=17,
                      input_names=[inp], output_names=outs, dynamic_axes=axes)


def export_proposer(proposer: Proposer, out: Path) -> None:
    """The proposer alone, as shipped (heat as a probability), for mining its false alarms."""
    import torch
    from zonkcam.models.nets import ProposerHeads

    _export(ProposerHeads(proposer), torch.zeros(1, 1, 320, 320), out, "image", ["heat", "geometry"])


def export(proposer_onnx: Path, classifier: torch.nn.Module, out: Path) -> None:
    """One file for both nets: the proposer's graph (from an exported or shipped model) beside
    the classifier's. Each input gets a default value, so each stage runs alone: a run that
    fetches only `heat` feeds only `image`, one that fetches `face` feeds only `crops`."""
    import onnx
    import torch
    from onnx import compose, numpy_helper
    from zonkcam.models.nets import STRIDE, FaceProbs

    tmp = out.with_suffix(".face.onnx")
    _export(FaceProbs(classifier), torch.zeros(2, 1, CROP, CROP), tmp, "crops", ["face"])
    face = compose.add_prefix(onnx.load(str(tmp)), "face/", rename_inputs=False,
                              rename_outputs=False)
    tmp.unlink()
    proposer = onnx.utils.Extractor(float_graph(onnx.load(str(proposer_onnx)))).extract_model(
        ["image"], ["heat", "geometry"])
    proposer.ir_version = face.ir_version = min(proposer.ir_version, face.ir_version)
    m = compose.merge_models(proposer, face, io_map=[])
    have = {t.name for t in m.graph.initializer}
    m.graph.initializer.extend(
        numpy_helper.from_array(np.zeros(shape, np.float32), name)
        for name, shape in (("image", (1, 1, 32, 32)), ("crops", (1, 1, CROP, CROP)))
        if name not in have)
    for key, value in {"stride": str(STRIDE), "crop": str(CROP), "crop_margin": str(CROP_MARGIN),
                       "classes": "reject,1,2,3,4,5,6"}.items():
        m.metadata_props.add(key=key, value=value)
    onnx.checker.check_model(m)
    tmp = out.with_suffix(".tmp.onnx")
    onnx.save(m, str(tmp))
    tmp.replace(out)
