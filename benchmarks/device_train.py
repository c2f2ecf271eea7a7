"""Train the face classifier further on a GPU machine that has no rune55 beside it.

`python -m zonkcam.models.train --classifier-from` spends ~8 minutes an epoch on one CPU core,
almost all of it cutting and augmenting crops. A lent GPU machine (16 cores) runs an epoch in
~10 s with three loader processes, but only the repository travels there (64 MiB), not
../shared/datasets. So the crops are cut here, once, and carried:

    # here (rune55 present): the classifier's patches as `train` makes them, JPEG'd; all dice,
    # half the rejects (each then counts twice), ~45 MB
    python benchmarks/device_train.py dump .devc/crops.npz
    # there (`device` run, carry .devc): candidates from the shipped classifier
    python benchmarks/device_train.py train .devc/crops.npz $OUT/h.onnx --hard-faces 0.1 \\
        --epochs 12 --lr 5e-4 --device cuda --workers 3
    # here again: int8 as shipped (calibrated on rune55 photos), then the guard rails
    python -m zonkcam.models.quantize h.onnx --out h8.onnx

The candidates' figures are in benchmarks/README.md (issue 36, "The classifier on a GPU").
"""
from __future__ import annotations

import argparse
import sys
from itertools import pairwise
from pathlib import Path

import cv2
import numpy as np
from zonkcam.hardware.options import seed as seed_number

SHIPPED = Path(__file__).resolve().parents[1] / "models" / "dice.onnx"


def dump(out: Path, seed: int, reject_share: float, quality: int) -> int:
    from zonkcam.models.rune55 import datasets_root, group_split
    from zonkcam.models.train import classifier_data, load_grey

    root = datasets_root() / "rune55"
    if not (root / "groups.csv").exists():
        print(f"rune55 not found at {root} (set ZONKCAM_DATASETS)", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)  # as `train --seed` draws them
    items = group_split(root, "fit")
    patches, labels, _ = classifier_data(SHIPPED, load_grey(items), items, rng, 0.0, seed)
    save(out, patches, labels, reject_share, quality, seed)
    return 0


def save(out: Path, patches: np.ndarray, labels: np.ndarray, reject_share: float = 0.5,
         quality: int = 85, seed: int = 0) -> None:
    """Every dice patch and `reject_share` of the rejects, each a JPEG, in one .npz."""
    rejects = np.flatnonzero(labels == 0)
    kept = np.random.default_rng(seed).choice(rejects, round(len(rejects) * reject_share), replace=False)
    keep = np.sort(np.concatenate([np.flatnonzero(labels > 0), kept]))
    blobs = [cv2.imencode(".jpg", patches[i], [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
             for i in keep]
    offsets = np.cumsum([0] + [len(b) for b in blobs])
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(out, data=np.frombuffer(b"".join(blobs), np.uint8), offsets=offsets, labels=labels[keep],
             reject_weight=np.int64(round(1 / reject_share)))
    print(f"wrote {out}: {len(keep)} crops ({len(kept)} of {len(rejects)} rejects), "
          f"{out.stat().st_size / 1e6:.1f} MB", file=sys.stderr)


def load(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The dumped patches and labels, each reject repeated to the share it had."""
    d = np.load(path)
    data, offsets = d["data"], d["offsets"]
    patches = np.stack([cv2.imdecode(data[a:b], cv2.IMREAD_GRAYSCALE)
                        for a, b in pairwise(offsets)])
    labels = d["labels"]
    rejects = np.flatnonzero(labels == 0)
    order = np.concatenate([np.arange(len(labels)), *[rejects] * (int(d["reject_weight"]) - 1)])
    return patches[order], labels[order]


def train(args: argparse.Namespace) -> int:
    import torch
    from zonkcam.models.onnx_io import OnnxClassifier
    from zonkcam.models.train import train_classifier

    cv2.setNumThreads(1)
    torch.set_num_threads(2)
    patches, labels = load(args.data)
    spec = OnnxClassifier.load(args.start)
    net = spec.twin()
    if args.scratch:  # the same net, new weights
        for m in net.modules():
            if hasattr(m, "reset_parameters"):
                m.reset_parameters()
    net = train_classifier(patches, labels, args.epochs, args.seed, net=net.train(), lr=args.lr,
                           hard_share=args.hard_faces, device=args.device, workers=args.workers)
    spec.write(net, args.out, {})
    print(f"wrote {args.out} (float; quantize it where rune55 is)", file=sys.stderr)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump", help="cut the classifier's crops here (needs rune55)")
    d.add_argument("out", type=Path)
    d.add_argument("--seed", type=seed_number, default=0)
    d.add_argument("--reject-share", type=float, default=0.5)
    d.add_argument("--quality", type=int, default=85)
    t = sub.add_parser("train", help="train the classifier further on dumped crops")
    t.add_argument("data", type=Path)
    t.add_argument("out", type=Path)
    t.add_argument("--start", type=Path, default=SHIPPED, help="the model whose classifier to train")
    t.add_argument("--scratch", action="store_true", help="its net with new weights")
    t.add_argument("--hard-faces", type=float, default=0.0)
    t.add_argument("--epochs", type=int, default=3)
    t.add_argument("--lr", type=float, default=1e-3)
    t.add_argument("--seed", type=seed_number, default=0)
    t.add_argument("--device", default="cpu")
    t.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    if args.command == "dump":
        if not 0 < args.reject_share <= 1:
            ap.error(f"--reject-share {args.reject_share}: give a share above 0, at most 1")
        return dump(args.out, args.seed, args.reject_share, args.quality)
    if not args.data.is_file():
        ap.error(f"{args.data}: no such file (make it with `dump`)")
    import torch

    if args.device.startswith("cuda") and not torch.cuda.is_available():
        ap.error(f"--device {args.device}: torch sees no GPU here")
    try:
        return train(args)
    except (OSError, ValueError, KeyError) as exc:  # a damaged crops file or start model
        print(f"cannot train: {exc}".splitlines()[0], file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
