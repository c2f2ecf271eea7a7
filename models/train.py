"""Train the recognizer's two nets on rune55's `fit` photo groups and export `models/dice.onnx`.

    python -m zonkcam.models.train [--epochs-det 9] [--epochs-cls 8] [--out models/dice.onnx]
    python -m zonkcam.models.train --proposer-from models/dice.onnx   # the classifier alone
    python -m zonkcam.models.train --proposer-further models/dice.onnx  # the proposer, further
    python -m zonkcam.models.train --classifier-from models/dice.onnx --clutter-share 0.1
        # the classifier further, drawn clutter (`clutter_negatives`) a tenth of its crops, as rejects

CPU only, seeded, with a progress bar on stderr. Stages: (1) the proposer learns die centres and
sizes on augmented whole pictures and is exported to ONNX (or is taken from an existing model
with `--proposer-from`); (2) it is run over the training pictures to mine its false alarms
(picture dice, table marks), which join random and off-centre crops as the classifier's reject
class; (3) the face classifier learns value-or-reject on augmented crops; (4) it is exported,
joined to the proposer's graph in one ONNX file and quantized to int8 (`models.quantize`). Run
`python -m zonkcam.models.tune` afterwards to choose the reader's thresholds. Needs the `train`
extra (torch, onnx) and ../shared/datasets/rune55.

The pieces: `nets` (the two nets), `crops` (the classifier's patches and augmented crops),
`onnx_io` (export, and a shipped model's nets as torch twins); here the data for the proposer,
the two training loops, false-alarm mining and the stages.
"""
from __future__ import annotations

import argparse
import copy
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
from torch.nn import functional as F
from zonkcam.models.augment import photometric, random_affine
from zonkcam.models.clutter_negatives import clutter_patches, clutter_rng
from zonkcam.models.crops import (
    CROP,
    CROP_MARGIN,
    FREE_TURNS,
    Mined,
    augment_crop,
    classifier_patches,
    drawn_patches,
    inside_any,
)
from zonkcam.models.nets import STRIDE, FaceClassifier, Proposer
from zonkcam.models.onnx_io import (
    OnnxClassifier,
    export,
    export_proposer,
    proposer_twin,
    write_proposer,
)
from zonkcam.models.progress import Progress
from zonkcam.models.quantize import CALIBRATION_IMAGES, quantize, sample_pictures
from zonkcam.models.rune55 import datasets_root, group_split
from zonkcam.models.train_extra import TrainError
from zonkcam.models.twin_training import DISTILL_T
from zonkcam.models.yolo import LabelError, Labelled
from zonkcam.vision.sim.drawn import render_scene

# defined in crops, onnx_io and progress since the split; imported from here as before
__all__ = ["CROP", "CROP_MARGIN", "FREE_TURNS", "Progress", "augment_crop", "classifier_patches",
           "drawn_patches", "export", "export_proposer", "main", "proposer_twin", "train_classifier",
           "train_proposer", "write_proposer"]

DET_VIEW = 224  # training views; the net is fully convolutional and runs at ~320 later
DRAWN_FRACTION = 0.2  # share of proposer views and positive crops drawn, not photographed


def load_grey(items: list[Labelled]) -> list[np.ndarray]:
    bar = Progress(len(items), "load")
    out = []
    for it in items:
        image = cv2.imread(str(it.image), cv2.IMREAD_GRAYSCALE)
        if image is None:
            raise TrainError(f"cannot read {it.image}: not an image, or damaged")
        out.append(image)
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


# ---------------------------------------------------------------- classifier training
class CropData(torch.utils.data.Dataset):
    def __init__(self, patches, labels, seed, hard_share: float = 0.0, kept=None):
        self.patches, self.labels, self.seed = patches, labels, seed
        self.hard_share = hard_share
        self.kept = np.zeros(len(labels), bool) if kept is None else kept
        self.calls = 0

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        self.calls += 1
        rng = np.random.default_rng((self.seed, i, self.calls))
        # hard faces for dice only: a reject crop washed or set on a floor is a blank rounded
        # square, which taught the first run (2026-11-27) to reject faint faces
        share = self.hard_share if self.labels[i] > 0 else 0.0
        crop = augment_crop(self.patches[i], rng, share)
        return torch.from_numpy(crop[None].astype(np.float32) / 255), self.labels[i], self.kept[i]


def train_classifier(patches, labels, epochs: int, seed: int, net: torch.nn.Module | None = None,
                     lr: float = 3e-3, hard_share: float = 0.0, device: str = "cpu",
                     workers: int = 1, distill: float = 0.0, kept=None) -> torch.nn.Module:
    """A new `FaceClassifier`, or `net` trained further (a shipped classifier's twin);
    `hard_share` of the crops hard faces (`augment.hard_face`). On a GPU (`device` "cuda") the
    crops' augmentation is the work: give it `workers` processes (benchmarks/device_train.py).
    `distill` > 0 (with `net`): on the patches `kept` marks, `net`'s own soft classes at the
    start are kept too, this much against the labels' loss (as `zonkcam train` does), so that a
    new lesson (drawn pips of other sets) does not move what it read on photos."""
    torch.manual_seed(seed)
    teacher = None
    if distill and net is not None:
        teacher = copy.deepcopy(net).to(device).eval()
    net = (FaceClassifier() if net is None else net).to(device)
    data = CropData(patches, labels, seed, hard_share, kept)
    gen = torch.Generator().manual_seed(seed)
    loader = torch.utils.data.DataLoader(data, batch_size=256, shuffle=True, num_workers=workers,
                                         generator=gen, persistent_workers=True)
    steps = epochs * len(loader)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    bar = Progress(steps, "classifier")
    avg, acc = 0.0, 0.0
    for _ in range(epochs):
        for x, y, keep in loader:
            x, y = x.to(device), y.to(device)
            out = net(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.02)
            if teacher is not None and bool(keep.any()):
                with torch.no_grad():
                    soft = F.log_softmax(teacher(x[keep]) / DISTILL_T, 1)
                loss = loss + distill * DISTILL_T ** 2 * F.kl_div(
                    F.log_softmax(out[keep] / DISTILL_T, 1), soft, log_target=True,
                    reduction="batchmean")
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            a = (out.argmax(1) == y).float().mean().item()
            avg = 0.98 * avg + 0.02 * loss.item() if avg else loss.item()
            acc = 0.98 * acc + 0.02 * a if acc else a
            bar.step(f"loss {avg:.3f} acc {acc:.3f}")
    return net.cpu().eval()


# ---------------------------------------------------------------- classifier data
def mine_false_alarms(proposer_onnx: Path, images: list[np.ndarray], items: list[Labelled],
                      threshold: float = 0.2) -> Mined:
    """Proposals on training pictures whose centre lies in no labelled box: reject examples."""
    import onnxruntime as ort
    from zonkcam.vision.proposals import decode

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.log_severity_level = 3
    session = ort.InferenceSession(str(proposer_onnx), opts, providers=["CPUExecutionProvider"])
    mined: Mined = {}
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


def with_clutter(patches: np.ndarray, labels: np.ndarray, share: float, rng: np.random.Generator
                 ) -> tuple[np.ndarray, np.ndarray]:
    """`patches` and `labels` with drawn clutter (`models.clutter_negatives`) added to the reject
    class (0), `share` of the crops in all: logos, print, pens, knots, coins are not dice."""
    if not 0 <= share < 1:
        raise TrainError(f"clutter share {share} is not in 0..1")
    n = round(share * len(labels) / (1 - share))
    if n == 0:
        return patches, labels
    return (np.concatenate([patches, clutter_patches(n, rng)]),
            np.concatenate([labels, np.zeros(n, labels.dtype)]))


def classifier_data(proposer_onnx: Path, images: list[np.ndarray], items: list[Labelled],
                    rng: np.random.Generator, clutter_share: float = 0.0, seed: int = 0,
                    varied_pips: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classifier's patches, their labels and which are drawn, not photographed: every
    labelled die, reject views (the proposer's false alarms among them), a share of drawn dice
    (`varied_pips` of them with other sets' pips) and, with `clutter_share`, drawn clutter as
    rejects (its own random stream, `clutter_rng`)."""
    mined = mine_false_alarms(proposer_onnx, images, items)
    patches, labels = classifier_patches(images, items, rng, mined)
    n_drawn = int(DRAWN_FRACTION * np.count_nonzero(labels))
    drawn, drawn_labels = drawn_patches(n_drawn, rng, varied_pips)
    is_drawn = np.r_[np.zeros(len(labels), bool), np.ones(n_drawn, bool)]
    patches = np.concatenate([patches, drawn])
    labels = np.concatenate([labels, drawn_labels])
    patches, labels = with_clutter(patches, labels, clutter_share, clutter_rng(seed))
    is_drawn = np.r_[is_drawn, np.ones(len(labels) - len(is_drawn), bool)]
    print(f"classifier data: {len(labels)} crops, per class {np.bincount(labels).tolist()}",
          file=sys.stderr)
    return patches, labels, is_drawn


# ---------------------------------------------------------------- the command
def _parser() -> argparse.ArgumentParser:
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
                         "(lr 1e-3, or --lr); run `python -m zonkcam.models.tune` afterwards")
    ap.add_argument("--proposer-further", type=Path, metavar="MODEL.onnx",
                    help="train this model's proposer further (lr 1e-3) and keep its classifier; "
                         "run `python -m zonkcam.models.tune` afterwards")
    ap.add_argument("--clutter-share", type=float, default=0.0, metavar="SHARE",
                    help="add drawn clutter (print, logos, pens, knots, stitches, coins, buttons) "
                         "as 'not a die', SHARE of the classifier's crops (e.g. 0.1; default 0)")
    ap.add_argument("--lr", type=float, metavar="LR",
                    help="with --classifier-from: the one-cycle's top learning rate (default 1e-3)")
    ap.add_argument("--distill", type=float, default=0.0, metavar="WEIGHT",
                    help="with --classifier-from: keep the starting classifier's own soft classes "
                         "on the photographed crops, WEIGHT against the labels' loss (e.g. 1; "
                         "default 0), so drawn lessons do not move its reading of photos")
    ap.add_argument("--hard-faces", type=float, default=0.0, metavar="SHARE",
                    help="make SHARE of the classifier's dice crops hard faces: washed by a lamp's "
                         "gain, faint, marbled, light pips on a dark body, alone on a dark floor "
                         "(`augment.hard_face`; e.g. 0.3; default 0)")
    ap.add_argument("--varied-pips", type=float, default=0.0, metavar="SHARE",
                    help="draw SHARE of the drawn dice with other sets' pips: small, big, rings, a "
                         "big or red one (`crops.other_pips`; e.g. 0.5; default 0)")
    return ap


def _check(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors (argparse's exit 2) for options out of range or without the stage they tune."""
    if not 0 <= args.clutter_share <= 0.5:
        ap.error(f"--clutter-share {args.clutter_share}: give a share from 0 to 0.5")
    if not 0 <= args.hard_faces <= 1:
        ap.error(f"--hard-faces {args.hard_faces}: give a share from 0 to 1")
    if not 0 <= args.varied_pips <= 1:
        ap.error(f"--varied-pips {args.varied_pips}: give a share from 0 to 1")
    if not 0 <= args.distill <= 10:
        ap.error(f"--distill {args.distill}: give a weight from 0 to 10")
    if args.lr is not None and not 0 < args.lr <= 0.1:
        ap.error(f"--lr {args.lr}: give a learning rate over 0, at most 0.1")
    if args.distill and not args.classifier_from:
        ap.error("--distill needs --classifier-from (the classifier whose reading is kept)")
    if args.lr is not None and not args.classifier_from:
        ap.error("--lr is for --classifier-from (the other stages keep their own rates)")


def main(argv: list[str] | None = None) -> int:
    ap = _parser()
    args = ap.parse_args(argv)
    _check(ap, args)
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
    t0 = time.time()
    try:  # a damaged groups.csv, label file or photo: one line, not a traceback
        items = group_split(root, "fit")
        if args.limit:
            items = [items[i] for i in sorted(rng.choice(len(items), args.limit, replace=False))]
        images = load_grey(items)
    except (LabelError, TrainError) as exc:
        print(f"cannot train: {exc}", file=sys.stderr)
        return 2
    args.work.mkdir(parents=True, exist_ok=True)
    if further is not None:
        twin = train_proposer(images, items, args.epochs_det, args.seed, net=further.train(), lr=1e-3)
        torch.save(twin.state_dict(), args.work / "proposer.pt")
        write_proposer(twin.eval(), args.proposer_further, args.out)
        return _quantize(args.out, t0)
    proposer_onnx = args.classifier_from or args.proposer_from or args.work / "proposer.onnx"
    if args.classifier_from is None and args.proposer_from is None:
        export_proposer(train_proposer(images, items, args.epochs_det, args.seed), proposer_onnx)
    patches, labels, drawn = classifier_data(proposer_onnx, images, items, rng, args.clutter_share,
                                             args.seed, args.varied_pips)
    if args.classifier_from:
        spec = OnnxClassifier.load(args.classifier_from)
        classifier = train_classifier(patches, labels, args.epochs_cls, args.seed,
                                      net=spec.twin(), lr=args.lr or 1e-3, hard_share=args.hard_faces,
                                      distill=args.distill, kept=~drawn)
        torch.save(classifier.state_dict(), args.work / "classifier.pt")
        spec.write(classifier.eval(), args.out, {})
    else:
        classifier = train_classifier(patches, labels, args.epochs_cls, args.seed,
                                      hard_share=args.hard_faces)
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
