"""Fine-tune a dice model's face classifier on a table's own captured dice: `zonkcam train`.

    from zonkcam.models.finetune import FinetuneConfig, finetune
    result = finetune(FinetuneConfig(datasets=[Path("captures")], out=Path("runs/ours")))

Data: captured folders as `models.captures.CaptureSet` writes them (labels from `meta/`: a
frame marked reviewed is human-verified; in other frames only confident dice count), or plain
YOLO folders (`images/` + `labels/`, taken as verified). A die counts as verified when a person
set its value (`CaptureSet.correct`: confidence 1, unflagged, frame reviewed); the other dice of
a reviewed frame were not necessarily looked at, and the recognizer's sure misreads (a 2 read as
a 1 at 0.95) must not be trusted, so they go through the second round like any unverified die.

Crops are cut exactly as the reader cuts them (`vision.faces`). Frames are split by a fixed seed:
a held-back part never trained on (old and new model are both scored on it), a validation part
for early stopping, the rest trained on.
When some frames are verified, training runs twice: first on verified dice only, then that
model relabels the unverified dice (kept when it is sure) and training goes on with them too, so
a few corrections teach a whole capture without the old model's misreads leaking in.

Base data is mixed in against forgetting: rune55 crops (`base="rune55"`, when present), a YOLO
folder, or drawn dice (`vision.synthetic`); plus reject crops (table, off-centre views).

The base weights are read from the .onnx file itself (its BatchNorm is fused into the convs; an
int8 file is read as the float graph it was made from), so the torch twin here has biased convs
and no BatchNorm. The new model is the old float graph with the classifier's tensors replaced
(the proposer, metadata and thresholds kept), quantized to int8 like the shipped model,
calibrated on the table's own frames.
torch is imported lazily: the product never needs it.
"""
from __future__ import annotations

import hashlib
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from zonkcam.models.captures import set_by_person
from zonkcam.models.quantize import CALIBRATION_IMAGES, float_graph, quantize, replace_tensors
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, face_angle, patch_at, upright

TRAIN_EXTRA = "install the train extra: pip install 'zonkcam[train]'"
SPLIT_SEED = 11  # the held-back/validation split of captured frames, fixed across runs
HELD_FRACTION = 0.25
VAL_FRACTION = 0.15
PSEUDO_CONFIDENCE = 0.9  # an unverified die joins round two when the round-one model is this sure
# A die a person set counts this many times an unverified one: those are the faces the model got
# wrong or was unsure of. With 1, the simulated star-logo table (tests/test_teach_dice.py) read
# its held-back dice 0.995-1.000 over four seeds, the star one as low as 0.24 sure; with 3,
# 1.000 over three seeds and the star one at least 0.65 sure.
VERIFIED_WEIGHT = 3
BASE_EVAL_DICE = 600  # drawn dice scored for forgetting (a fixed seed, never trained on)


class TrainError(ValueError):
    """Unusable input: no images, a bad folder, torch missing, a corrupt model."""


# ----------------------------------------------------------------------------- data, no torch
@dataclass(frozen=True, slots=True)
class LabelledDie:
    value: int | None  # 1..6; 0: not a pip die (a person said so); None: unknown
    cx: float
    cy: float
    size: float
    verified: bool  # a person looked at it (a reviewed frame, or a plain YOLO label)
    confident: bool  # the recognizer was sure (not flagged)


@dataclass(frozen=True, slots=True)
class CapturedFrame:
    key: str  # "folder-name/frame-name", unique across datasets
    image: Path
    dice: tuple[LabelledDie, ...]

    @property
    def verified(self) -> bool:
        return any(d.verified for d in self.dice)


def load_frames(folder: Path) -> list[CapturedFrame]:
    """Every frame of a capture folder (meta/ present) or a plain YOLO folder."""
    if not folder.is_dir():
        raise TrainError(f"{folder}: no such folder")
    if not (folder / "images").is_dir():
        raise TrainError(f"{folder}: not a dataset (no images/ folder; expected a capture or YOLO folder)")
    frames = []
    if (folder / "meta").is_dir():
        for meta_path in sorted((folder / "meta").glob("*.json")):
            image = folder / "images" / f"{meta_path.stem}.jpg"
            try:
                meta = json.loads(meta_path.read_text())
                reviewed = bool(meta.get("reviewed"))
                dice = []
                for d in meta["dice"]:
                    x1, y1, x2, y2 = d["box"]
                    cx, cy = d.get("center") or ((x1 + x2) / 2, (y1 + y2) / 2)
                    status = d.get("status", "ok")
                    ok = d.get("value") is not None and status == "ok"
                    if status == "not_a_die" and set_by_person(d):  # a person said so: a reject
                        ok, d = True, d | {"value": 0}
                    flagged = bool(d.get("flagged", False))
                    size = float(max(x2 - x1, y2 - y1))
                    dice.append(LabelledDie(d["value"] if ok else None, float(cx), float(cy), size,
                                            reviewed and ok and set_by_person(d), ok and not flagged))
            except (ValueError, KeyError, TypeError) as exc:
                raise TrainError(f"{meta_path}: unreadable capture metadata ({exc})") from None
            if image.is_file():
                frames.append(CapturedFrame(f"{folder.name}/{meta_path.stem}", image, tuple(dice)))
    else:
        from zonkcam.models.rune55 import yolo_folder

        for item in yolo_folder(folder):
            size = cv2.imread(str(item.image), cv2.IMREAD_GRAYSCALE)
            if size is None:
                continue
            h, w = size.shape
            dice = tuple(LabelledDie(int(v), cx * w, cy * h, max(bw * w, bh * h), True, True)
                         for v, cx, cy, bw, bh in item.dice)
            frames.append(CapturedFrame(f"{folder.name}/{item.image.stem}", item.image, dice))
    if not frames:
        raise TrainError(f"{folder}: no images with labels in it")
    return frames


def split_frames(frames: list[CapturedFrame], seed: int = SPLIT_SEED
                 ) -> tuple[list[CapturedFrame], list[CapturedFrame], list[CapturedFrame]]:
    """(held back, validation, training) by frame. Verified and unverified frames are split apart
    so the held-back part gets its share of verified labels; the order depends only on names."""
    held, val, fit = [], [], []
    for part in ([f for f in frames if f.verified], [f for f in frames if not f.verified]):
        part = sorted(part, key=lambda f: hashlib.sha1(f"{seed}:{f.key}".encode()).hexdigest())
        n_held = math.ceil(len(part) * HELD_FRACTION) if len(part) >= 2 else 0
        n_val = math.ceil(len(part) * VAL_FRACTION) if len(part) - n_held >= 3 else 0
        held += part[:n_held]
        val += part[n_held:n_held + n_val]
        fit += part[n_held + n_val:]
    return held, val, fit


def grey(path: Path) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise TrainError(f"{path}: image missing or unreadable")
    return image


def die_patches(frames: list[CapturedFrame], which) -> tuple[np.ndarray, list[LabelledDie], list[str]]:
    """PATCH-sized patches of the dice `which(die)` accepts, with the dice and their frame keys."""
    patches, dice, keys = [], [], []
    for f in frames:
        chosen = [d for d in f.dice if which(d)]
        if not chosen:
            continue
        image = grey(f.image)
        for d in chosen:
            patches.append(patch_at(image, d.cx, d.cy, d.size))
            dice.append(d)
            keys.append(f.key)
    return _stack(patches), dice, keys


def reject_patches(frames: list[CapturedFrame], rng: np.random.Generator, per_frame: int = 2
                   ) -> np.ndarray:
    """Table and off-centre views from captured frames: what the reject class must keep saying."""
    out = []
    for f in frames:
        image = grey(f.image)
        h, w = image.shape
        size = float(np.median([d.size for d in f.dice])) if f.dice else min(w, h) / 12
        for d in f.dice:  # half a die: a proposal between two dice sees this
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.7, 1.1) * d.size
            x, y = d.cx + r * math.cos(a), d.cy + r * math.sin(a)
            if not _near_any(x, y, f.dice, 0.5):
                out.append(patch_at(image, x, y, d.size))
        for _ in range(per_frame):
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            if not _near_any(x, y, f.dice, 0.8):
                out.append(patch_at(image, x, y, size * rng.uniform(0.7, 1.4)))
    return _stack(out)


def drawn_dice(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`n` drawn pip dice in reader-style patches (labels 1..6) plus n/2 drawn rejects (0)."""
    from zonkcam.vision.synthetic import BODY_BGR, DrawnDie, background, draw_die

    die = PATCH / PATCH_MARGIN
    kinds = ["felt", "wood", "paper", "dark"]
    patches, labels = [], []
    for i in range(n + n // 2):
        img = background(rng, PATCH, PATCH, kinds[i % 4])
        value = int(rng.integers(1, 7))
        # a positive is centred; a reject is a die seen off-centre or bare table
        off = 0.0 if i < n else rng.choice([0.0, 1.0]) * rng.uniform(0.75, 1.0) * die
        a = rng.uniform(0, 2 * math.pi)
        if i < n or off:
            draw_die(img, DrawnDie(value, str(rng.choice(list(BODY_BGR))),
                                   PATCH / 2 + off * math.cos(a), PATCH / 2 + off * math.sin(a),
                                   die * rng.uniform(0.92, 1.05), rng.uniform(0, 90)))
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
        patches.append(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        labels.append(value if i < n else 0)
    return np.stack(patches), np.array(labels, np.int64)


def yolo_base(folder: Path, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """About `n` labelled dice (and their reject views) from a YOLO folder such as rune55."""
    from zonkcam.models.rune55 import yolo_folder

    items = yolo_folder(folder) if (folder / "images").is_dir() else []
    return _labelled_items(items, n, rng, folder)


def rune55_base(split: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    from zonkcam.models.rune55 import datasets_root, group_split

    return _labelled_items(group_split(datasets_root() / "rune55", split), n, rng, "rune55")


def rune55_present() -> bool:
    from zonkcam.models.rune55 import datasets_root

    return (datasets_root() / "rune55" / "groups.csv").is_file()


def _labelled_items(items, n: int, rng: np.random.Generator, where) -> tuple[np.ndarray, np.ndarray]:
    if not items:
        raise TrainError(f"{where}: no labelled images for base data")
    patches, labels = [], []
    for i in rng.permutation(len(items)):
        if len(labels) >= n:
            break
        item = items[int(i)]
        image = cv2.imread(str(item.image), cv2.IMREAD_GRAYSCALE)
        if image is None:
            continue
        h, w = image.shape
        dice = [LabelledDie(int(v), cx * w, cy * h, max(bw * w, bh * h), True, True)
                for v, cx, cy, bw, bh in item.dice]
        for d in dice:
            patches.append(patch_at(image, d.cx, d.cy, d.size))
            labels.append(d.value)
        frame = CapturedFrame("", item.image, tuple(dice))
        rejects = reject_patches([frame], rng, per_frame=1)
        patches += list(rejects)
        labels += [0] * len(rejects)
    return _stack(patches), np.array(labels, np.int64)


def reader_crops(patches: np.ndarray, crop: int, margin: float) -> np.ndarray:
    """Float crops (n, crop, crop) in 0..1, turned upright exactly as `vision.read` does."""
    if not len(patches):
        return np.zeros((0, crop, crop), np.float32)
    return np.stack([upright(p, face_angle(p), crop, margin) for p in patches]).astype(np.float32) / 255


def value_accuracy(probs: np.ndarray, values: np.ndarray, reject: float, value: float) -> float | None:
    """Share of dice the reader would report with the right value (not dropped, not unreadable);
    a value 0 (not a pip die) is right when the reader drops it."""
    if not len(values):
        return None
    read = np.argmax(probs[:, 1:], 1) + 1
    ok = (probs[:, 0] < reject) & (probs[np.arange(len(read)), read] >= value) & (read == values)
    ok |= (values == 0) & (probs[:, 0] >= reject)
    return float(ok.mean())


def _near_any(x: float, y: float, dice, fraction: float) -> bool:
    return any(math.hypot(x - d.cx, y - d.cy) < fraction * d.size for d in dice)


def _stack(patches: list[np.ndarray]) -> np.ndarray:
    return np.stack(patches) if patches else np.zeros((0, PATCH, PATCH), np.uint8)


# ----------------------------------------------------------------------------- the ONNX classifier
def _torch():
    try:
        import torch
    except ImportError:
        raise TrainError(f"torch is not installed; {TRAIN_EXTRA}") from None
    return torch


def _onnx():
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError:
        raise TrainError(f"onnx is not installed; {TRAIN_EXTRA}") from None
    return onnx, numpy_helper


@dataclass
class OnnxClassifier:
    """The face classifier's part of a dice .onnx graph: its ops in order and its tensors.

    A quantized model is read as the float graph it was made from (`quantize.float_graph`).
    """

    path: Path
    model: object = None  # the float onnx.ModelProto the classifier was read from
    ops: list[tuple] = field(default_factory=list)  # ("sub"|"div", c), ("conv", i), ("pool", k, s), ...
    convs: list[dict] = field(default_factory=list)  # {"w", "b", "weight", "bias", "stride", "pad", ...}
    fc: dict = field(default_factory=dict)  # {"w", "b", "weight", "bias", "trans_b"}

    @classmethod
    def load(cls, path: Path) -> OnnxClassifier:
        onnx, numpy_helper = _onnx()
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
        torch = _torch()
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
        onnx, _ = _onnx()
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

    torch = _torch()
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


# ----------------------------------------------------------------------------- training
def train_twin(twin, patches: np.ndarray, labels: np.ndarray, val: tuple[np.ndarray, np.ndarray],
               *, epochs: int, seed: int, lr: float, patience: int, thresholds: tuple[float, float],
               crop: int, margin: float, label: str) -> tuple[object, list[dict]]:
    """Fine-tune `twin` on augmented crops of `patches`; keep the epoch best on `val`
    (reader-rule accuracy, then loss) and stop after `patience` epochs without progress."""
    torch = _torch()
    from torch.nn import functional as F
    from zonkcam.models.train import Progress, augment_crop

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    batch = 128
    steps_per_epoch = max(1, math.ceil(len(labels) / batch))
    opt = torch.optim.AdamW(twin.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch,
                                                pct_start=0.15)
    val_x = torch.from_numpy(val[0][:, None]) if len(val[1]) else None
    val_y = torch.from_numpy(val[1]) if len(val[1]) else None
    best, best_key, history, stale = None, None, [], 0
    bar = Progress(epochs * steps_per_epoch, label)
    for epoch in range(epochs):
        twin.train()
        order = rng.permutation(len(labels))
        crops = np.stack([augment_crop(patches[i], rng) for i in order]).astype(np.float32) / 255
        crops = _fit_crop(crops, crop, margin)
        x_all, y_all = torch.from_numpy(crops[:, None]), torch.from_numpy(labels[order])
        for s in range(steps_per_epoch):
            x, y = x_all[s * batch:(s + 1) * batch], y_all[s * batch:(s + 1) * batch]
            loss = F.cross_entropy(twin(x), y, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            bar.step(f"loss {loss.item():.3f}")
        twin.eval()
        record = {"epoch": epoch + 1, "loss": round(loss.item(), 4)}
        if val_x is not None:
            with torch.no_grad():
                logits = twin(val_x)
                probs = torch.softmax(logits, 1).numpy()
                record["val_loss"] = round(F.cross_entropy(logits, val_y).item(), 4)
            positive = val[1] > 0
            acc = value_accuracy(probs[positive], val[1][positive], *thresholds)
            record["val_accuracy"] = None if acc is None else round(acc, 4)
            key = (acc or 0.0, -record["val_loss"])
            if best_key is None or key > best_key:
                best_key, stale = key, 0
                best = {k: v.clone() for k, v in twin.state_dict().items()}
            else:
                stale += 1
        history.append(record)
        if val_x is not None and stale >= patience and epoch + 1 < epochs:
            print(f"\n{label}: early stop after epoch {epoch + 1} (no progress on validation)",
                  file=sys.stderr)
            break
    if bar.n < bar.total:
        print(file=sys.stderr)
    if best is not None:
        twin.load_state_dict(best)
    return twin.eval(), history


def _fit_crop(crops: np.ndarray, crop: int, margin: float) -> np.ndarray:
    """augment_crop makes the training recipe's 32-px crops; a model with another size gets them resized."""
    from zonkcam.models.train import CROP, CROP_MARGIN

    if crop == CROP and abs(margin - CROP_MARGIN) < 1e-6:
        return crops
    return np.stack([cv2.resize(c, (crop, crop), interpolation=cv2.INTER_AREA) for c in crops])


def predict(twin, crops: np.ndarray) -> np.ndarray:
    torch = _torch()
    if not len(crops):
        return np.zeros((0, 7), np.float32)
    with torch.no_grad():
        return torch.softmax(twin(torch.from_numpy(crops[:, None])), 1).numpy()


# ----------------------------------------------------------------------------- the whole job
@dataclass
class FinetuneConfig:
    datasets: list[Path]
    out: Path
    base: str | None = None  # "rune55", a YOLO folder (base data) or a .onnx file (base model)
    epochs: int = 8
    seed: int = 0
    threads: int = 1
    force: bool = False  # activate even when worse; write into a non-empty --out
    register: bool = True
    name: str | None = None
    base_dice: int = 600  # at least this many base dice are mixed in
    patience: int = 3
    registry_root: Path | None = None


def finetune(cfg: FinetuneConfig) -> dict:
    """Run the whole job; returns the metrics (also written to OUT/metrics.json)."""
    torch = _torch()
    from zonkcam.models.registry import Registry, RegistryError
    from zonkcam.vision.model import DiceModel, ModelError
    from zonkcam.vision.read import REJECT_THRESHOLD, VALUE_THRESHOLD

    t_start = time.time()
    torch.set_num_threads(cfg.threads)
    cv2.setNumThreads(1)
    out = Path(cfg.out)
    if out.exists() and not out.is_dir():
        raise TrainError(f"{out} exists and is not a folder")
    if (out / "model.onnx").exists() and not cfg.force:
        raise TrainError(f"{out} already holds a model.onnx (choose another --out, or --force)")
    registry = Registry(cfg.registry_root)
    base = cfg.base
    try:
        base_path = Path(base) if base and base.endswith(".onnx") else registry.active_path()
        old = DiceModel(base_path)
    except (ModelError, RegistryError) as exc:
        raise TrainError(str(exc)) from None
    spec = OnnxClassifier.load(base_path)
    if (err := twin_error(spec)) > 1e-4:
        raise TrainError(f"{base_path}: the torch twin does not reproduce the model (error {err:.2g})")
    thresholds = (old.reject_threshold or REJECT_THRESHOLD, old.value_threshold or VALUE_THRESHOLD)
    crop = (old.crop, old.crop_margin)

    frames = [f for d in cfg.datasets for f in load_frames(Path(d))]
    if not any(d.value is not None for f in frames for d in f.dice):
        raise TrainError("the datasets hold no labelled dice")
    held, val, fit = split_frames(frames)
    rng = np.random.default_rng(cfg.seed)

    def trusted(part: list[CapturedFrame]):
        """Verified dice where a person looked at the part, else the recognizer's sure ones."""
        use_verified = any(f.verified for f in part)
        return lambda d: d.value is not None and (d.verified if use_verified else d.confident)

    held_p, held_dice, _ = die_patches(held, trusted(held))
    val_p, val_dice, _ = die_patches(val, trusted(val))
    verified_p, verified_dice, _ = die_patches(fit, lambda d: d.verified and d.value is not None)
    rest_p, rest_dice, _ = die_patches(fit, lambda d: not d.verified)
    rejects = reject_patches(fit + val, rng)
    held_values = np.array([d.value for d in held_dice], np.int64)
    val_set = (np.concatenate([reader_crops(val_p, *crop), reader_crops(rejects[:len(val_p) // 2], *crop)]),
               np.concatenate([[d.value for d in val_dice], np.zeros(min(len(rejects), len(val_p) // 2))]
                              ).astype(np.int64))

    n_captured = len(verified_dice) + len(rest_dice)
    base_kind, base_train, base_eval = _base_data(base, max(cfg.base_dice, n_captured), rng)
    print(f"data: {len(frames)} frames ({len(fit)} train, {len(val)} validation, {len(held)} held back); "
          f"{len(verified_dice)} verified and {len(rest_dice)} unverified training dice; base data: "
          f"{base_kind}, {len(base_train[1])} crops", file=sys.stderr)

    def score(model) -> dict:
        held_acc = value_accuracy(model.classify(reader_crops(held_p, *crop)), held_values, *thresholds)
        positive = base_eval[1] > 0
        base_acc = value_accuracy(model.classify(reader_crops(base_eval[0][positive], *crop)),
                                  base_eval[1][positive], *thresholds)
        return {"held_back": _round(held_acc), "base": _round(base_acc)}

    before = score(old)
    twin = spec.twin()
    t_train = time.time()
    # Round one: what a person set, plus the recognizer's own sure reads of the rest (it reads
    # the table's ordinary faces well; learning from the corrected faces alone made it forget them)
    sure = [i for i, d in enumerate(rest_dice) if d.confident and d.value is not None]
    first_p = np.concatenate([verified_p, rest_p[sure] if sure else rest_p[:0]])
    first_y = [d.value for d in verified_dice] + [rest_dice[i].value for i in sure]
    if not len(first_y):
        raise TrainError("no usable training dice: review some captured frames first (zonkcam review)")
    history = []

    def run(pos_p: np.ndarray, pos_y: list[int], label: str, lr: float) -> None:
        # a few verified dice (the first of pos_p) must not drown in the base data: repeat the
        # table's dice (each repeat is augmented afresh) until they are about as many as the
        # base crops, the verified ones VERIFIED_WEIGHT times as often
        weight = np.where(np.arange(len(pos_y)) < len(verified_dice), VERIFIED_WEIGHT, 1)
        reps = weight * max(1, round(len(base_train[1]) / max(1, int(weight.sum()))))
        patches = np.concatenate([np.repeat(pos_p, reps, 0), rejects, base_train[0]])
        labels = np.concatenate([np.repeat(np.array(pos_y, np.int64), reps), np.zeros(len(rejects), np.int64),
                                 base_train[1]])
        _, h = train_twin(twin, patches, labels, val_set, epochs=cfg.epochs, seed=cfg.seed, lr=lr,
                          patience=cfg.patience, thresholds=thresholds, crop=crop[0], margin=crop[1],
                          label=label)
        history.extend(h)

    run(first_p, first_y, "train", 1e-3)
    pseudo = 0
    if verified_dice and len(rest_dice):
        probs = predict(twin, reader_crops(rest_p, *crop))
        values = np.argmax(probs[:, 1:], 1) + 1
        sure = (probs[np.arange(len(values)), values] >= PSEUDO_CONFIDENCE) & (probs[:, 0] < 0.5)
        pseudo = int(sure.sum())
        print(f"round two: {pseudo} of {len(rest_dice)} unverified dice relabelled by round one",
              file=sys.stderr)
        if pseudo:
            run(np.concatenate([verified_p, rest_p[sure]]),
                [d.value for d in verified_dice] + values[sure].tolist(), "train (round two)", 5e-4)
    train_s = time.time() - t_train

    out.mkdir(parents=True, exist_ok=True)
    model_path = out / "model.onnx"
    spec.write(twin, model_path, {
        "finetuned_from": base_path.name, "finetune_datasets": ",".join(str(d) for d in cfg.datasets)})
    # int8, like the shipped model, calibrated on the table's own frames
    try:
        quantize(model_path, model_path, (grey(f.image) for f in fit[:CALIBRATION_IMAGES]))
    except ValueError as exc:  # no die candidate in any calibration frame
        raise TrainError(f"cannot quantize the new model: {exc}") from None
    after = score(DiceModel(model_path))
    better = (after["held_back"] or 0) >= (before["held_back"] or 0) and \
        (after["base"] or 0) >= (before["base"] or 0) - 0.01
    metrics = {
        "base_model": str(base_path), "datasets": [str(d) for d in cfg.datasets], "seed": cfg.seed,
        "frames": {"train": len(fit), "validation": len(val), "held_back": len(held)},
        "dice": {"verified": len(verified_dice), "unverified": len(rest_dice), "pseudo_labelled": pseudo,
                 "held_back": len(held_dice), "rejects": len(rejects)},
        "held_back_labels": "verified" if any(f.verified for f in held) else "recognizer (unreviewed)",
        "held_back_frames": sorted(f.key for f in held),
        "base_data": base_kind, "base_eval_dice": int((base_eval[1] > 0).sum()),
        "before": before, "after": after, "not_worse": better,
        "train_seconds": round(train_s, 1), "total_seconds": round(time.time() - t_start, 1),
        "epochs": history, "threads": cfg.threads,
    }
    name, activated = None, False
    if cfg.register:
        name = cfg.name or out.name
        if name in {e.name for e in registry.entries()}:
            name = f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
        metrics["name"] = name
        (out / "MODEL_CARD.md").write_text(model_card(metrics))
        try:
            registry.add(model_path, name=name, metrics=_summary(metrics))
            if better or cfg.force:
                registry.use(name)
                activated = True
        except RegistryError as exc:
            raise TrainError(str(exc)) from None
    metrics["activated"] = activated
    (out / "MODEL_CARD.md").write_text(model_card(metrics))
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    return metrics


def _base_data(base: str | None, n: int, rng: np.random.Generator):
    """(kind, (patches, labels) to train on, (patches, labels) to score forgetting on)."""
    if base == "rune55" and rune55_present():
        return "rune55", rune55_base("fit", n, rng), rune55_base("heldout", BASE_EVAL_DICE,
                                                                 np.random.default_rng(SPLIT_SEED))
    if base and base != "rune55" and not base.endswith(".onnx"):
        folder = Path(base)
        if not (folder / "images").is_dir():
            raise TrainError(f"--base {base}: not rune55, a YOLO folder or a .onnx model")
        return f"YOLO folder {folder}", yolo_base(folder, n, rng), drawn_dice(
            BASE_EVAL_DICE, np.random.default_rng(SPLIT_SEED))
    kind = "drawn dice" + (" (rune55 not found)" if base == "rune55" else "")
    return kind, drawn_dice(n, rng), drawn_dice(BASE_EVAL_DICE, np.random.default_rng(SPLIT_SEED))


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _summary(m: dict) -> dict:
    return {"held_back_before": m["before"]["held_back"], "held_back_after": m["after"]["held_back"],
            "base_before": m["before"]["base"], "base_after": m["after"]["base"]}


def model_card(m: dict) -> str:
    pct = lambda x: "n/a" if x is None else f"{100 * x:.1f}%"  # noqa: E731
    b, a = m["before"], m["after"]
    return f"""# Model card: {m.get('name') or 'fine-tuned dice model'}

Made by `zonkcam train` from `{m['base_model']}`: its face classifier fine-tuned on a table's own
captured dice; the proposer, metadata and thresholds are the base model's, unchanged.

- Datasets: {', '.join(m['datasets'])}
- Frames: {m['frames']['train']} trained on, {m['frames']['validation']} validation (early stopping),
  {m['frames']['held_back']} held back (never trained on; labels: {m['held_back_labels']})
- Dice: {m['dice']['verified']} verified, {m['dice']['unverified']} unverified
  ({m['dice']['pseudo_labelled']} relabelled by the first round), {m['dice']['rejects']} reject views
- Base data mixed in against forgetting: {m['base_data']}
- Seed {m['seed']}, {m['threads']} torch thread(s), {len(m['epochs'])} epochs in all,
  training {m['train_seconds']} s ({m['total_seconds']} s with data and evaluation)

| value accuracy (reader's thresholds) | base model | this model |
|---|---|---|
| held-back captured dice ({m['dice']['held_back']}) | {pct(b['held_back'])} | {pct(a['held_back'])} |
| base data ({m['base_data']}, {m['base_eval_dice']} dice) | {pct(b['base'])} | {pct(a['base'])} |

Activated: {'yes' if m.get('activated') else 'no'} (a model is activated when it is not worse on the
held-back dice and loses at most one point on the base data, or with `--force`).
"""
