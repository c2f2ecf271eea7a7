"""Train the recognizer's two nets on rune55's `fit` photo groups and export `models/dice.onnx`.

    python -m zonkcam.models.train [--epochs-det 9] [--epochs-cls 8] [--out models/dice.onnx]
    python -m zonkcam.models.train --proposer-from models/dice.onnx   # the classifier alone
    python -m zonkcam.models.train --proposer-further models/dice.onnx  # the proposer, further

CPU only, seeded, with a progress bar on stderr. Stages: (1) the proposer learns die centres and
sizes on augmented whole pictures and is exported to ONNX (or is taken from an existing model
with `--proposer-from`); (2) it is run over the training pictures to mine its false alarms
(picture dice, table marks), which join random and off-centre crops as the classifier's reject
class; (3) the face classifier learns value-or-reject on augmented crops; (4) it is exported,
joined to the proposer's graph in one ONNX file and quantized to int8 (`models.quantize`). Run
`python -m zonkcam.models.tune` afterwards to choose the reader's thresholds. Needs the `train`
extra (torch, onnx) and ../shared/datasets/rune55.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F
from zonkcam.models.augment import photometric, random_affine
from zonkcam.models.nets import CROP, STRIDE, FaceClassifier, Proposer
from zonkcam.models.quantize import (
    CALIBRATION_IMAGES,
    float_graph,
    quantize,
    replace_tensors,
    sample_pictures,
)
from zonkcam.models.rune55 import Labelled, datasets_root, group_split
from zonkcam.vision.faces import PATCH, PATCH_MARGIN, face_angle, patch_at
from zonkcam.vision.synthetic import BODY_BGR, DrawnDie, background, draw_die, render_scene

DET_VIEW = 224  # training views; the net is fully convolutional and runs at ~320 later
DRAWN_FRACTION = 0.2  # share of proposer views and positive crops drawn, not photographed
FREE_TURNS = 0.15  # share of training crops turned at any angle rather than upright
CROP_MARGIN = 1.5  # must match vision.faces: the die spans CROP / CROP_MARGIN of a crop


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.start, self.n = total, label, time.time(), 0

    def step(self, note: str = "") -> None:
        self.n += 1
        done = self.n / self.total
        bar = "#" * int(30 * done)
        eta = (time.time() - self.start) / done * (1 - done)
        end = "\n" if self.n == self.total else ""
        print(f"\r{self.label} [{bar:<30}] {self.n}/{self.total} eta {eta:4.0f}s {note}",
              end=end, file=sys.stderr, flush=True)


def load_grey(items: list[Labelled]) -> list[np.ndarray]:
    bar = Progress(len(items), "load")
    out = []
    for it in items:
        out.append(cv2.imread(str(it.image), cv2.IMREAD_GRAYSCALE))
        bar.step()
    return out


# ---------------------------------------------------------------- proposer data
def drawn_table(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A drawn table of coloured dice (grey, 448 px) with YOLO-style rows, for variety of
    surfaces and colours that rune55's grey photos lack."""
    side = 448
    size = float(np.exp(rng.uniform(np.log(14), np.log(110))))
    image, dice = render_scene(rng, side, side, n=int(rng.integers(0, 9)), size=size,
                               kind=str(rng.choice(["felt", "wood", "paper", "dark"])))
    rows = [(d.value, (b[0] + b[2]) / 2 / side, (b[1] + b[3]) / 2 / side,
             (b[2] - b[0]) / side, (b[3] - b[1]) / side) for d in dice for b in [d.box]]
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return grey, np.array(rows, np.float32).reshape(-1, 5)


def proposer_sample(img: np.ndarray, dice: np.ndarray, rng: np.random.Generator):
    h, w = img.shape
    scale = 0.5 * math.exp(rng.uniform(math.log(0.6), math.log(1.8)))
    center = (rng.uniform(0, w), rng.uniform(0, h))
    m = random_affine(rng, center, DET_VIEW, scale, free_rotation=False)
    fill = int(rng.integers(0, 256))
    view = cv2.warpAffine(img, m, (DET_VIEW, DET_VIEW), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_CONSTANT, borderValue=fill)
    view = photometric(view, rng)
    g = DET_VIEW // STRIDE
    heat = np.zeros((g, g), np.float32)
    reg = np.zeros((4, g, g), np.float32)
    mask = np.zeros((g, g), np.float32)
    yy, xx = np.mgrid[0:g, 0:g].astype(np.float32)
    for _, cx, cy, bw, bh in dice:
        px, py = m @ np.array([cx * w, cy * h, 1.0])
        nw = abs(m[0, 0]) * bw * w + abs(m[0, 1]) * bh * h
        nh = abs(m[1, 0]) * bw * w + abs(m[1, 1]) * bh * h
        gx, gy = px / STRIDE, py / STRIDE
        if not (0 <= gx < g and 0 <= gy < g):
            continue
        sigma = max(0.7, 0.1 * max(nw, nh) / STRIDE)
        heat = np.maximum(heat, np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sigma**2)))
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = 1.0
        reg[:, iy, ix] = (math.log(max(nw, 1.0)), math.log(max(nh, 1.0)), gx - ix, gy - iy)
        mask[iy, ix] = 1.0
    return view, heat, reg, mask


class ProposerData(torch.utils.data.IterableDataset):
    def __init__(self, images, items, n, seed):
        self.images, self.items, self.n, self.seed = images, items, n, seed

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng(self.seed + (info.id if info else 0))
        for _ in range(self.n):
            if rng.random() < DRAWN_FRACTION:
                image, dice = drawn_table(rng)
            else:
                i = int(rng.integers(len(self.images)))
                image, dice = self.images[i], self.items[i].dice
            v, heat, reg, mask = proposer_sample(image, dice, rng)
            yield (torch.from_numpy(v[None].astype(np.float32) / 255), torch.from_numpy(heat[None]),
                   torch.from_numpy(reg), torch.from_numpy(mask[None]))


def focal_loss(logit: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss on a Gaussian-splatted centre heatmap."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    pos_loss = -torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = -torch.log(1 - p) * p**2 * (1 - target) ** 4 * (1 - pos)
    return (pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def train_proposer(images, items, epochs: int, seed: int, net: Proposer | None = None,
                   lr: float = 3e-3) -> Proposer:
    """A new `Proposer`, or `net` trained further (a shipped proposer's twin)."""
    torch.manual_seed(seed)
    net = Proposer() if net is None else net
    per_epoch, batch = len(images), 32
    steps = epochs * (per_epoch // batch)
    data = ProposerData(images, items, steps * batch, seed)
    loader = torch.utils.data.DataLoader(data, batch_size=batch, num_workers=1)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    bar = Progress(steps, "proposer")
    avg = 0.0
    for x, heat, reg, mask in loader:
        out = net(x)
        l_heat = focal_loss(out[:, :1], heat)
        n = mask.sum().clamp(min=1)
        l_size = (F.l1_loss(out[:, 1:3], reg[:, :2], reduction="none") * mask).sum() / n
        l_off = (F.l1_loss(out[:, 3:5], reg[:, 2:], reduction="none") * mask).sum() / n
        loss = l_heat + 0.5 * l_size + 0.5 * l_off
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        avg = 0.98 * avg + 0.02 * loss.item() if avg else loss.item()
        bar.step(f"loss {avg:.3f}")
    return net.eval()


# ---------------------------------------------------------------- classifier data
def inside_any(x: float, y: float, boxes: np.ndarray) -> bool:
    return bool(np.any((abs(x - boxes[:, 0]) < boxes[:, 2] / 2) &
                       (abs(y - boxes[:, 1]) < boxes[:, 3] / 2)))


def classifier_patches(images, items, rng, mined=None):
    """Positive patches for every labelled die and reject patches, with labels 0..6."""
    patches, labels = [], []
    for idx, (img, it) in enumerate(zip(images, items, strict=True)):
        h, w = img.shape
        boxes = it.dice[:, 1:] * np.array([w, h, w, h], np.float32)
        sizes = np.maximum(boxes[:, 2], boxes[:, 3]) if len(boxes) else np.array([60.0])
        for (v, *_), (cx, cy, bw, bh) in zip(it.dice, boxes, strict=True):
            patches.append(patch_at(img, cx, cy, max(bw, bh)))
            labels.append(int(v))
            # an off-centre view of the same die (what a proposal between two dice sees)
            a = rng.uniform(0, 2 * math.pi)
            r = rng.uniform(0.7, 1.1) * max(bw, bh)
            sx, sy = cx + r * math.cos(a), cy + r * math.sin(a)
            if not inside_any(sx, sy, boxes):
                patches.append(patch_at(img, sx, sy, max(bw, bh)))
                labels.append(0)
        for _ in range(3):  # table, vignette, picture dice: anything that is not a pip die
            sx, sy = rng.uniform(0, w), rng.uniform(0, h)
            if not inside_any(sx, sy, boxes):
                size = float(rng.choice(sizes)) * rng.uniform(0.6, 1.6)
                patches.append(patch_at(img, sx, sy, size))
                labels.append(0)
        for sx, sy, size in (mined or {}).get(idx, []):
            patches.append(patch_at(img, sx, sy, size))
            labels.append(0)
    return np.stack(patches), np.array(labels, np.int64)


def drawn_patches(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`n` drawn dice centred in patches (coloured, then grey), with a neighbour now and then."""
    die = PATCH / PATCH_MARGIN
    out, labels = [], []
    for _ in range(n):
        img = background(rng, PATCH, PATCH, str(rng.choice(["felt", "wood", "paper", "dark"])))
        if rng.random() < 0.3:  # a touching neighbour at the edge of the patch
            a = rng.uniform(0, 2 * np.pi)
            draw_die(img, DrawnDie(int(rng.integers(1, 7)), str(rng.choice(list(BODY_BGR))),
                                   PATCH / 2 + 1.05 * die * np.cos(a),
                                   PATCH / 2 + 1.05 * die * np.sin(a), die, rng.uniform(0, 90)))
        value = int(rng.integers(1, 7))
        draw_die(img, DrawnDie(value, str(rng.choice(list(BODY_BGR))), PATCH / 2, PATCH / 2,
                               die * rng.uniform(0.92, 1.05), rng.uniform(0, 90)))
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.0))
        out.append(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
        labels.append(value)
    return np.stack(out), np.array(labels, np.int64)


def augment_crop(patch: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    die = PATCH / PATCH_MARGIN
    k = (CROP / CROP_MARGIN) / die * rng.uniform(0.8, 1.25)
    # proposals miss the centre by ~0.1 die (up to 0.3): the whole face must stay in the crop
    jitter = np.clip(rng.normal(0, 0.12, 2), -0.3, 0.3) * die
    center = (PATCH / 2 + jitter[0], PATCH / 2 + jitter[1])
    # The reader turns each face upright by its measured angle (`faces.face_angle`), so the
    # classifier learns upright faces, as the reader shows them, and now and then a face at
    # any angle, for faces whose angle was measured wrong.
    free = rng.random() < FREE_TURNS
    m = random_affine(rng, center, CROP, k, free_rotation=free,
                      angle=0.0 if free else face_angle(patch))
    crop = cv2.warpAffine(patch, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.2:  # a die only a few pixels across, upsampled as the reader does
        small = int(rng.integers(11, 30))
        crop = cv2.resize(cv2.resize(crop, (small, small), interpolation=cv2.INTER_AREA),
                          (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    return photometric(crop, rng)


class CropData(torch.utils.data.Dataset):
    def __init__(self, patches, labels, seed):
        self.patches, self.labels, self.seed = patches, labels, seed
        self.calls = 0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        self.calls += 1
        rng = np.random.default_rng((self.seed, i, self.calls))
        crop = augment_crop(self.patches[i], rng)
        return torch.from_numpy(crop[None].astype(np.float32) / 255), self.labels[i]


def train_classifier(patches, labels, epochs: int, seed: int, net: torch.nn.Module | None = None,
                     lr: float = 3e-3) -> torch.nn.Module:
    """A new `FaceClassifier`, or `net` trained further (a shipped classifier's twin)."""
    torch.manual_seed(seed)
    net = FaceClassifier() if net is None else net
    data = CropData(patches, labels, seed)
    gen = torch.Generator().manual_seed(seed)
    loader = torch.utils.data.DataLoader(data, batch_size=256, shuffle=True, num_workers=1,
                                         generator=gen, persistent_workers=True)
    steps = epochs * len(loader)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    bar = Progress(steps, "classifier")
    avg, acc = 0.0, 0.0
    for _ in range(epochs):
        for x, y in loader:
            out = net(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            a = (out.argmax(1) == y).float().mean().item()
            avg = 0.98 * avg + 0.02 * loss.item() if avg else loss.item()
            acc = 0.98 * acc + 0.02 * a if acc else a
            bar.step(f"loss {avg:.3f} acc {acc:.3f}")
    return net.eval()


# ---------------------------------------------------------------- a shipped proposer, further
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
    from onnx import numpy_helper
    from torch import nn

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

    model = float_graph(onnx.load(str(base)))
    new = {}
    for k, (w, b) in _proposer_convs(model).items():
        conv = twin.get_submodule(k)
        new[w], new[b] = conv.weight.detach().numpy(), conv.bias.detach().numpy()
    replace_tensors(model, new)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


# ---------------------------------------------------------------- mining and export
def mine_false_alarms(proposer_onnx: Path, images, items, threshold: float = 0.2):
    """Proposals on training pictures whose centre lies in no labelled box: reject examples."""
    import onnxruntime as ort
    from zonkcam.vision.proposals import decode

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.log_severity_level = 3
    session = ort.InferenceSession(str(proposer_onnx), opts, providers=["CPUExecutionProvider"])
    mined: dict[int, list[tuple[float, float, float]]] = {}
    bar = Progress(len(images), "mining")
    for idx, im in enumerate(images):
        h, w = im.shape
        small = cv2.resize(im, (320, 320), interpolation=cv2.INTER_AREA)
        heat, geometry = session.run(["heat", "geometry"],
                                     {"image": small[None, None].astype(np.float32) / 255})
        boxes = items[idx].dice[:, 1:] * np.array([w, h, w, h], np.float32)
        for p in decode(heat[0, 0], geometry[0], 320 / w, STRIDE, threshold):
            cx, cy = p.cx, p.cy * h / w  # decode scales both axes by the width's factor
            if not inside_any(cx, cy, boxes):
                mined.setdefault(idx, []).append((cx, cy, p.size))
        bar.step(f"{sum(map(len, mined.values()))} found")
    return mined


def _export(module: torch.nn.Module, example: torch.Tensor, path: Path, inp: str,
            outs: list[str]) -> None:
    axes = {inp: {0: "n"} if inp == "crops" else {2: "h", 3: "w"}}
    axes |= {o: {0: "n"} if inp == "crops" else {2: "gh", 3: "gw"} for o in outs}
    torch.onnx.export(module.eval(), (example,), str(path), dynamo=False, opset_version=17,
                      input_names=[inp], output_names=outs, dynamic_axes=axes)


class _Heads(torch.nn.Module):
    """The proposer as shipped: heat as a probability, geometry as is."""

    def __init__(self, net: Proposer) -> None:
        super().__init__()
        self.net = net

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out = self.net(image)
        return torch.sigmoid(out[:, :1]), out[:, 1:]


class _Probs(torch.nn.Module):
    def __init__(self, net: FaceClassifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops), 1)


def export_proposer(proposer: Proposer, out: Path) -> None:
    _export(_Heads(proposer), torch.zeros(1, 1, 320, 320), out, "image", ["heat", "geometry"])


def export(proposer_onnx: Path, classifier: FaceClassifier, out: Path) -> None:
    """One file for both nets: the proposer's graph (from an exported or shipped model) beside
    the classifier's. Each input gets a default value, so each stage runs alone: a run that
    fetches only `heat` feeds only `image`, one that fetches `face` feeds only `crops`."""
    import onnx
    from onnx import compose, numpy_helper

    tmp = out.with_suffix(".face.onnx")
    _export(_Probs(classifier), torch.zeros(2, 1, CROP, CROP), tmp, "crops", ["face"])
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m zonkcam.models.train", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--epochs-det", type=int, default=9)
    ap.add_argument("--epochs-cls", type=int, default=8)
    ap.add_argument("--limit", type=int, default=0, help="use only N pictures (smoke test)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads (default 1)")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "dice.onnx")
    ap.add_argument("--work", type=Path, default=Path("/tmp/zonkcam-train"),
                    help="where stage checkpoints go (default /tmp/zonkcam-train)")
    ap.add_argument("--proposer-from", type=Path, metavar="MODEL.onnx",
                    help="keep this model's proposer and train the classifier alone")
    ap.add_argument("--classifier-from", type=Path, metavar="MODEL.onnx",
                    help="keep this model's proposer and train its classifier further "
                         "(lr 1e-3); run `python -m zonkcam.models.tune` afterwards")
    ap.add_argument("--proposer-further", type=Path, metavar="MODEL.onnx",
                    help="train this model's proposer further (lr 1e-3) and keep its classifier; "
                         "run `python -m zonkcam.models.tune` afterwards")
    args = ap.parse_args(argv)
    further = None
    if args.proposer_further:
        try:
            further = proposer_twin(args.proposer_further)
        except Exception as exc:  # a missing or corrupt file: protobuf raises several types
            print(f"cannot train {args.proposer_further} further: {exc}".splitlines()[0], file=sys.stderr)
            return 2
    root = datasets_root() / "rune55"
    if not (root / "groups.csv").exists():
        print(f"rune55 not found at {root} (set ZONKCAM_DATASETS)", file=sys.stderr)
        return 2
    # one thread per process: on a shared 2-core machine two OpenMP threads stall each other
    # whenever another job takes a core; the data loader uses the other core
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    items = group_split(root, "fit")
    if args.limit:
        items = [items[i] for i in sorted(rng.choice(len(items), args.limit, replace=False))]
    t0 = time.time()
    images = load_grey(items)
    args.work.mkdir(parents=True, exist_ok=True)
    if further is not None:
        twin = train_proposer(images, items, args.epochs_det, args.seed, net=further.train(), lr=1e-3)
        torch.save(twin.state_dict(), args.work / "proposer.pt")
        write_proposer(twin.eval(), args.proposer_further, args.out)
        return _quantize(args.out, t0)
    proposer_onnx = args.classifier_from or args.proposer_from or args.work / "proposer.onnx"
    if args.classifier_from is None and args.proposer_from is None:
        export_proposer(train_proposer(images, items, args.epochs_det, args.seed), proposer_onnx)
    mined = mine_false_alarms(proposer_onnx, images, items)
    patches, labels = classifier_patches(images, items, rng, mined)
    n_drawn = int(DRAWN_FRACTION * np.count_nonzero(labels))
    drawn, drawn_labels = drawn_patches(n_drawn, rng)
    patches = np.concatenate([patches, drawn])
    labels = np.concatenate([labels, drawn_labels])
    print(f"classifier data: {len(labels)} crops, per class {np.bincount(labels).tolist()}",
          file=sys.stderr)
    if args.classifier_from:
        from zonkcam.models.finetune import OnnxClassifier

        spec = OnnxClassifier.load(args.classifier_from)
        classifier = train_classifier(patches, labels, args.epochs_cls, args.seed,
                                      net=spec.twin(), lr=1e-3)
        torch.save(classifier.state_dict(), args.work / "classifier.pt")
        spec.write(classifier.eval(), args.out, {})
    else:
        classifier = train_classifier(patches, labels, args.epochs_cls, args.seed)
        torch.save(classifier.state_dict(), args.work / "classifier.pt")
        export(proposer_onnx, classifier, args.out)
    return _quantize(args.out, t0)


def _quantize(out: Path, t0: float) -> int:
    kind, pictures = sample_pictures(CALIBRATION_IMAGES)
    print(f"quantizing to int8, calibrated on {len(pictures)} {kind}", file=sys.stderr)
    quantize(out, out, pictures)
    size = out.stat().st_size / 1e6
    print(f"wrote {out} ({size:.2f} MB) in {(time.time() - t0) / 60:.1f} min", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
