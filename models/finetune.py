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
for early stopping, the rest trained on. A small capture (a few phone photos, under
`SMALL_CAPTURE` frames) is not cut in half: it is folded (`FOLDS`, by the same fixed seed); each
fold's model trains on the other folds, relabels its own fold's unverified dice and is scored on
its verified ones (the held-back figure, out of fold), and the model written trains on every
frame. Early stopping then watches drawn dice kept out of training (forgetting).
When some frames are verified, training runs twice: first on verified dice only, then that
model relabels the unverified dice (kept when it is sure) and training goes on with them too, so
a few corrections teach a whole capture without the old model's misreads leaking in.

Base data is mixed in against forgetting: rune55 crops (`base="rune55"`, when present), a YOLO
folder, or drawn dice (`vision.sim.drawn`); plus reject crops (table, off-centre views).

The base weights are read from the .onnx file itself (its BatchNorm is fused into the convs; an
int8 file is read as the float graph it was made from), so the torch twin here has biased convs
and no BatchNorm. The new model is the old float graph with the classifier's tensors replaced
(the proposer, metadata and thresholds kept), quantized to int8 like the shipped model,
calibrated on the table's own frames.
torch is imported lazily: the product never needs it.

The pieces: `frames` (captured frames and their split), `crops` (patches and crops cut as the
reader cuts them), `base_data` (against forgetting), `onnx_io` (the torch twin of the ONNX
classifier and writing it back), `twin_training` (epochs, early stopping); here the two
training rounds and the job's steps.
"""
from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
from zonkcam.models.base_data import base_data_for
from zonkcam.models.crops import SCALES, die_patches, grey, reader_crops, reject_patches
from zonkcam.models.frames import SPLIT_SEED, CapturedFrame, LabelledDie, load_frames, shuffled, split_frames
from zonkcam.models.onnx_io import OnnxClassifier, twin_error
from zonkcam.models.quantize import CALIBRATION_IMAGES, quantize
from zonkcam.models.thin_faces import advice, thin_faces
from zonkcam.models.train_extra import TRAIN_EXTRA, TrainError, need_torch
from zonkcam.models.twin_training import predict, train_twin, value_accuracy

if TYPE_CHECKING:
    from zonkcam.models.registry import Registry
    from zonkcam.vision.model import DiceModel

# what `zonkcam train` and the tests import from here (frames, onnx_io, train_extra and
# twin_training define some)
__all__ = ["TRAIN_EXTRA", "CapturedFrame", "FinetuneConfig", "LabelledDie", "OnnxClassifier",
           "TrainError", "finetune", "load_frames", "split_frames", "twin_error", "value_accuracy"]

# The recipe's figures, and what was tried instead: docs/teach.md, "What `zonkcam train` does".
PSEUDO_CONFIDENCE = 0.9  # an unverified die joins round two when the round-one model is this sure
# A die a person set counts this many times an unverified one: those are the faces the model got
# wrong or was unsure of (with 1, a taught picture face stayed barely sure)
VERIFIED_WEIGHT = 3
SMALL_CAPTURE = 40  # fewer frames than this are folded, not split: every frame is trained on
FOLDS = 3
# A small capture's dice are repeated to this share of the base crops, not as many (as many
# forgot plain dice)
SMALL_TABLE_SHARE = 0.5
# Epochs a round (when --epochs is not given): an epoch of ten photos is a few dozen steps, and
# new faces read right level off by about 24; a big capture's epochs are long
SMALL_CAPTURE_EPOCHS = 24
BIG_CAPTURE_EPOCHS = 8
# A small capture's rounds also keep the starting model's soft classes on the base crops
# (distillation, `twin_training.train_twin`), this much against the labels' loss: more epochs
# taught more new faces and forgot more plain dice, which this takes back. Big captures (a
# kiosk session) were not measured with it and go without.
DISTILL = 1.0
# A small capture's own dice are cut at up to 1.5 times their usual size (others at 0.8-1.25,
# `crops.SCALES`): the proposer boxes a picture face at 0.7-0.85 of its side at times (a big dark
# emblem passes for the die), a crop cut there shows the face up to 1.45 times as big, and the
# taught photos may never show one so. The rune55 proxy, three seeds: docs/teach.md.
TABLE_SCALES = (0.8, 1.5)


@dataclass
class FinetuneConfig:
    datasets: list[Path]
    out: Path
    base: str | None = None  # "rune55", a YOLO folder (base data) or a .onnx file (base model)
    epochs: int | None = None  # most epochs per round (None: by the capture's size)
    seed: int = 0
    threads: int = 1
    force: bool = False  # activate even when worse; write into a non-empty --out
    register: bool = True
    name: str | None = None
    base_dice: int = 600  # at least this many base dice are mixed in
    patience: int = 3
    registry_root: Path | None = None
    proposer: bool = False  # teach the proposer too (`proposer_tuning`; off: it cost found dice)


@dataclass(frozen=True)
class _Start:
    """The model fine-tuning starts from, and how the reader reads with it."""

    path: Path
    model: DiceModel
    spec: OnnxClassifier
    thresholds: tuple[float, float]  # the reader's (reject, value) thresholds
    crop: tuple[int, float]  # the classifier's crop side and margin


@dataclass(frozen=True)
class _Data:
    """The captured dice, split by frame, and the base data mixed in against forgetting."""

    frames: list[CapturedFrame]
    held: list[CapturedFrame]
    val: list[CapturedFrame]
    fit: list[CapturedFrame]
    held_p: np.ndarray
    held_dice: list[LabelledDie]
    val_set: tuple[np.ndarray, np.ndarray]  # reader crops of validation dice and rejects, labels
    folds: list[list[CapturedFrame]]  # a small capture's folds (then `held` and `val` are empty)
    verified_p: np.ndarray
    verified_dice: list[LabelledDie]
    rest_p: np.ndarray  # the training frames' unverified dice (some have no value)
    rest_dice: list[LabelledDie]
    rejects: np.ndarray
    base_kind: str
    base_train: tuple[np.ndarray, np.ndarray]
    base_eval: tuple[np.ndarray, np.ndarray]


def finetune(cfg: FinetuneConfig) -> dict:
    """Run the whole job; returns the metrics (also written to OUT/metrics.json)."""
    torch = need_torch()
    from zonkcam.models.registry import Registry
    from zonkcam.vision.model import DiceModel

    t_start = time.time()
    torch.set_num_threads(cfg.threads)
    cv2.setNumThreads(1)
    out = _out_folder(cfg)
    registry = Registry(cfg.registry_root)
    start = _starting_model(cfg.base, registry)
    data = _captured_data(cfg, start.crop)
    before = _score(start.model, data, start)
    thin = thin_faces(start.model.classify(reader_crops(data.verified_p, *start.crop)),
                      [d.value for d in data.verified_dice], *start.thresholds) if data.verified_dice else {}
    if thin:  # said before the minutes of training, and again in the summary
        print(f"warning: {advice(thin)}", file=sys.stderr)
    twin = start.spec.twin()
    t_train = time.time()
    if data.folds:
        history, pseudo, out_of_fold = _train_folds(twin, data, cfg, start)
    else:
        history, pseudo = _train_rounds(twin, data, cfg, start)
    train_s = time.time() - t_train
    model_path, proposer = _write_model(twin, start, out, cfg, data.fit, data.frames if cfg.proposer else [])
    after = _score(DiceModel(model_path), data, start)
    if data.folds:  # the model written saw every frame: its figure on the table's dice is its folds'
        after["held_back"] = _round(out_of_fold)
    better = (after["held_back"] or 0) >= (before["held_back"] or 0) and \
        (after["base"] or 0) >= (before["base"] or 0) - 0.01
    metrics = {
        "base_model": str(start.path), "datasets": [str(d) for d in cfg.datasets], "seed": cfg.seed,
        "frames": {"train": len(data.fit), "validation": len(data.val), "held_back": len(data.held),
                   "folds": len(data.folds)},
        "dice": {"verified": len(data.verified_dice), "unverified": len(data.rest_dice),
                 "pseudo_labelled": pseudo, "held_back": len(data.held_dice),
                 "rejects": len(data.rejects)},
        "held_back_labels": (f"verified, out of fold ({len(data.folds)} folds)" if data.folds else "verified"
                             if any(f.verified for f in data.held) else "recognizer (unreviewed)"),
        "held_back_frames": sorted(f.key for f in data.held),
        "base_data": data.base_kind, "base_eval_dice": int((data.base_eval[1] > 0).sum()),
        "before": before, "after": after, "not_worse": better,
        "train_seconds": round(train_s, 1), "total_seconds": round(time.time() - t_start, 1),
        "epochs": history, "threads": cfg.threads, "proposer": proposer,
        "thin_faces": {str(v): n for v, n in thin.items()},
    }
    metrics["activated"] = _register(cfg, registry, out, metrics, better) if cfg.register else False
    (out / "MODEL_CARD.md").write_text(model_card(metrics))
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1) + "\n")
    return metrics


def _out_folder(cfg: FinetuneConfig) -> Path:
    """The output folder, refused when it would overwrite a model without --force."""
    out = Path(cfg.out)
    if out.exists() and not out.is_dir():
        raise TrainError(f"{out} exists and is not a folder")
    if (out / "model.onnx").exists() and not cfg.force:
        raise TrainError(f"{out} already holds a model.onnx (choose another --out, or --force)")
    return out


def _starting_model(base: str | None, registry: Registry) -> _Start:
    """The base model (a .onnx `--base`, else the registry's active one) and its torch twin's
    source, refused when the twin would not reproduce it."""
    from zonkcam.models.registry import RegistryError
    from zonkcam.vision.model import DiceModel, ModelError
    from zonkcam.vision.read import REJECT_THRESHOLD, VALUE_THRESHOLD

    try:
        path = Path(base) if base and base.endswith(".onnx") else registry.active_path()
        old = DiceModel(path)
    except (ModelError, RegistryError) as exc:
        raise TrainError(str(exc)) from None
    spec = OnnxClassifier.load(path)
    if (err := twin_error(spec)) > 1e-4:
        raise TrainError(f"{path}: the torch twin does not reproduce the model (error {err:.2g})")
    return _Start(path, old, spec,
                  (old.reject_threshold or REJECT_THRESHOLD, old.value_threshold or VALUE_THRESHOLD),
                  (old.crop, old.crop_margin))


def _trusted(part: list[CapturedFrame]) -> Callable[[LabelledDie], bool]:
    """Verified dice where a person looked at the part, else the recognizer's sure ones."""
    use_verified = any(f.verified for f in part)
    return lambda d: d.value is not None and (d.verified if use_verified else d.confident)


def relabelable(d: LabelledDie) -> bool:
    """A die no person set, which a model may relabel. Not a person's bad crop (two dice in one
    box, a die cut off): relabelled as a face, one such crop cost a drawn teaching test 20 % of
    the new faces and three plain dice (tests/test_teach_photos.py)."""
    return not d.verified and not d.bad_crop


def _captured_data(cfg: FinetuneConfig, crop: tuple[int, float]) -> _Data:
    """The datasets' dice cut into patches by part (held back, validation, training), the
    rejects, and the base data; says on stderr what it found."""
    frames = [f for d in cfg.datasets for f in load_frames(Path(d))]
    if not any(d.value is not None for f in frames for d in f.dice):
        raise TrainError("the datasets hold no labelled dice")
    folds = fold_frames(frames, FOLDS) if len(frames) < SMALL_CAPTURE else []
    if sum(any(f.verified for f in fold) for fold in folds) < FOLDS:
        folds = []  # too few reviewed frames to score each fold: split as a big capture is
    held, val, fit = ([], [], frames) if folds else split_frames(frames)
    if folds:  # every verified die is scored: by the old model as it is, by the new out of fold
        held = [f for f in frames if f.verified]
    rng = np.random.default_rng(cfg.seed)
    held_p, held_dice, _ = die_patches(held, _trusted(held))
    val_p, val_dice, _ = die_patches(val, _trusted(val))
    verified_p, verified_dice, _ = die_patches(fit, lambda d: d.verified and d.value is not None)
    rest_p, rest_dice, _ = die_patches(fit, relabelable)
    rejects = reject_patches(fit + val, rng)
    val_set = (np.concatenate([reader_crops(val_p, *crop), reader_crops(rejects[:len(val_p) // 2], *crop)]),
               np.concatenate([[d.value for d in val_dice], np.zeros(min(len(rejects), len(val_p) // 2))]
                              ).astype(np.int64))
    n_captured = len(verified_dice) + len(rest_dice)
    base_kind, base_train, base_eval = base_data_for(cfg.base, max(cfg.base_dice, n_captured), rng)
    if folds:  # early stopping watches base dice kept out of training, and rejects: every fifth
        # crop (the base data lists its dice first, then its rejects: its tail held no dice)
        held_out = np.arange(len(base_train[1])) % 5 == 4
        (base_p, base_y), base_train = (base_train[0][held_out], base_train[1][held_out]), \
            (base_train[0][~held_out], base_train[1][~held_out])
        val_set = (reader_crops(base_p, *crop), base_y.astype(np.int64))
        print(f"data: {len(frames)} frames, all trained on, in {len(folds)} folds (each fold's model "
              f"scores its verified dice); {len(verified_dice)} verified and {len(rest_dice)} unverified "
              f"dice; base data: {base_kind}, {len(base_train[1])} crops", file=sys.stderr)
    else:
        print(f"data: {len(frames)} frames ({len(fit)} train, {len(val)} validation, {len(held)} held "
              f"back); {len(verified_dice)} verified and {len(rest_dice)} unverified training dice; base "
              f"data: {base_kind}, {len(base_train[1])} crops", file=sys.stderr)
    return _Data(frames, held, val, fit, held_p, held_dice, val_set, folds, verified_p, verified_dice,
                 rest_p, rest_dice, rejects, base_kind, base_train, base_eval)


def _score(model, data: _Data, start: _Start) -> dict:
    """Reader-rule accuracy of `model` on the held-back captured dice and on the base data."""
    held_values = np.array([d.value for d in data.held_dice], np.int64)
    held_acc = value_accuracy(model.classify(reader_crops(data.held_p, *start.crop)), held_values,
                              *start.thresholds)
    positive = data.base_eval[1] > 0
    base_acc = value_accuracy(model.classify(reader_crops(data.base_eval[0][positive], *start.crop)),
                              data.base_eval[1][positive], *start.thresholds)
    return {"held_back": _round(held_acc), "base": _round(base_acc)}


def _train_rounds(twin, data: _Data, cfg: FinetuneConfig, start: _Start) -> tuple[list[dict], int]:
    """Round one; then, when some dice are verified, round two with the unverified dice round one
    reads surely. Returns the epochs' records and how many dice round two relabelled."""
    # Round one: what a person set, plus the recognizer's own sure reads of the rest (it reads
    # the table's ordinary faces well; learning from the corrected faces alone made it forget them)
    sure = [i for i, d in enumerate(data.rest_dice) if d.confident and d.value is not None]
    first_p = np.concatenate([data.verified_p, data.rest_p[sure] if sure else data.rest_p[:0]])
    first_y = _faces(data.verified_dice) + _faces([data.rest_dice[i] for i in sure])
    if not len(first_y):
        raise TrainError("no usable training dice: review some captured frames first (zonkcam review)")
    history = _train_round(twin, first_p, first_y, data, cfg, start, "train", 1e-3)
    pseudo = 0
    if data.verified_dice and len(data.rest_dice):
        probs = predict(twin, reader_crops(data.rest_p, *start.crop))
        values = np.argmax(probs[:, 1:], 1) + 1
        relabel = (probs[np.arange(len(values)), values] >= PSEUDO_CONFIDENCE) & (probs[:, 0] < 0.5)
        pseudo = int(relabel.sum())
        print(f"round two: {pseudo} of {len(data.rest_dice)} unverified dice relabelled by round one",
              file=sys.stderr)
        if pseudo:
            history += _train_round(twin, np.concatenate([data.verified_p, data.rest_p[relabel]]),
                                    [d.value for d in data.verified_dice] + values[relabel].tolist(),
                                    data, cfg, start, "train (round two)", 5e-4)
    return history, pseudo


def fold_frames(frames: list[CapturedFrame], k: int, seed: int = SPLIT_SEED) -> list[list[CapturedFrame]]:
    """`k` folds by frame, verified frames dealt out first so each fold gets its share; the order
    depends only on the pictures."""
    folds: list[list[CapturedFrame]] = [[] for _ in range(k)]
    i = 0
    for part in ([f for f in frames if f.verified], [f for f in frames if not f.verified]):
        for f in shuffled(part, seed):
            folds[i % k].append(f)
            i += 1
    return folds


def _train_folds(twin, data: _Data, cfg: FinetuneConfig, start: _Start
                 ) -> tuple[list[dict], int, float | None]:
    """A small capture: each fold's model trains on the other folds (their verified dice and the
    recognizer's sure reads), is scored on its fold's verified dice and relabels its fold's
    unverified ones it is sure of; then `twin` trains on every verified and relabelled die.
    Returns the epochs' records, how many dice were relabelled, and the out-of-fold accuracy."""
    history: list[dict] = []
    right = scored = 0.0
    relabel_p, relabel_y = [], []
    for k, fold in enumerate(data.folds):
        others = [f for j, part in enumerate(data.folds) if j != k for f in part]
        ver_p, ver_dice, _ = die_patches(others, lambda d: d.verified and d.value is not None)
        sure_p, sure_dice, _ = die_patches(others, lambda d: relabelable(d) and d.confident
                                           and d.value is not None)
        fold_twin = start.spec.twin()
        history += _train_round(fold_twin, np.concatenate([ver_p, sure_p]),
                                _faces(ver_dice + sure_dice), data, cfg, start,
                                f"fold {k + 1}/{len(data.folds)}", 1e-3, n_verified=len(ver_dice))
        held_p, held_dice, _ = die_patches(fold, lambda d: d.verified and d.value is not None)
        if held_dice:
            acc = value_accuracy(predict(fold_twin, reader_crops(held_p, *start.crop)),
                                 np.array([d.value for d in held_dice]), *start.thresholds)
            right, scored = right + (acc or 0) * len(held_dice), scored + len(held_dice)
        un_p, _, _ = die_patches(fold, relabelable)
        if len(un_p):
            probs = predict(fold_twin, reader_crops(un_p, *start.crop))
            values = np.argmax(probs[:, 1:], 1) + 1
            sure = (probs[np.arange(len(values)), values] >= PSEUDO_CONFIDENCE) & (probs[:, 0] < 0.5)
            relabel_p.append(un_p[sure])
            relabel_y += values[sure].tolist()
    pseudo = len(relabel_y)
    print(f"all frames: {len(data.verified_dice)} verified dice and {pseudo} of {len(data.rest_dice)} "
          "unverified relabelled by their fold's model", file=sys.stderr)
    history += _train_round(twin, np.concatenate([data.verified_p, *relabel_p]),
                            _faces(data.verified_dice) + relabel_y, data, cfg, start,
                            "train (all frames)", 1e-3)
    return history, pseudo, (right / scored if scored else None)


def _faces(dice: list[LabelledDie]) -> list[int]:
    """The faces of dice chosen for having one (0: "no die")."""
    faces = [d.value for d in dice if d.value is not None]
    if len(faces) != len(dice):
        raise ValueError("a training die without a face")
    return faces


def _train_round(twin, pos_p: np.ndarray, pos_y: list[int], data: _Data, cfg: FinetuneConfig,
                 start: _Start, label: str, lr: float, n_verified: int | None = None) -> list[dict]:
    """Train `twin` on the table's dice `pos_p` (the `n_verified` verified ones first; default:
    the data's), the rejects and the base data; returns the epochs' records."""
    # a few verified dice must not drown in the base data: repeat the table's dice (each repeat
    # is augmented afresh) until they are about as many as the base crops, the verified ones
    # VERIFIED_WEIGHT times as often
    n_verified = len(data.verified_dice) if n_verified is None else n_verified
    weight = np.where(np.arange(len(pos_y)) < n_verified, VERIFIED_WEIGHT, 1)
    share = SMALL_TABLE_SHARE if data.folds else 1.0
    reps = weight * max(1, round(share * len(data.base_train[1]) / max(1, int(weight.sum()))))
    patches = np.concatenate([np.repeat(pos_p, reps, 0), data.rejects, data.base_train[0]])
    labels = np.concatenate([np.repeat(np.array(pos_y, np.int64), reps),
                             np.zeros(len(data.rejects), np.int64), data.base_train[1]])
    epochs = cfg.epochs or (SMALL_CAPTURE_EPOCHS if data.folds else BIG_CAPTURE_EPOCHS)
    _, history = train_twin(twin, patches, labels, data.val_set, epochs=epochs, seed=cfg.seed,
                            lr=lr, patience=cfg.patience, thresholds=start.thresholds,
                            crop=start.crop[0], margin=start.crop[1], label=label,
                            guard_only=bool(data.folds), teacher=start.spec.twin().eval(),
                            distill_from=len(labels) - len(data.base_train[1]),
                            distill=DISTILL if data.folds else 0.0,
                            zoomed=(int(reps.sum()), TABLE_SCALES) if data.folds else (0, SCALES))
    return history


def _write_model(twin, start: _Start, out: Path, cfg: FinetuneConfig, fit: list[CapturedFrame],
                 proposer_frames: list[CapturedFrame]) -> tuple[Path, dict]:
    """OUT/model.onnx: the base graph with the twin's classifier (and, given frames, a proposer
    taught them: `proposer_tuning`), quantized to int8 like the shipped model, calibrated on the
    table's own frames. Returns the path and what became of the proposer."""
    from zonkcam.models.proposer_tuning import splice_proposer

    out.mkdir(parents=True, exist_ok=True)
    model_path = out / "model.onnx"
    start.spec.write(twin, model_path, {
        "finetuned_from": start.path.name, "finetune_datasets": ",".join(str(d) for d in cfg.datasets)})
    proposer = splice_proposer(model_path, proposer_frames, cfg.seed) if proposer_frames else {"tuned": False}
    try:
        quantize(model_path, model_path, (grey(f.image) for f in fit[:CALIBRATION_IMAGES]))
    except ValueError as exc:  # no die candidate in any calibration frame
        raise TrainError(f"cannot quantize the new model: {exc}") from None
    return model_path, proposer


def _register(cfg: FinetuneConfig, registry: Registry, out: Path, metrics: dict, better: bool) -> bool:
    """Add OUT's model to the registry under a new name (set in `metrics`), activated when it is
    not worse or forced; returns whether it was activated."""
    from zonkcam.models.registry import RegistryError

    name = cfg.name or out.name
    if name in {e.name for e in registry.entries()}:
        name = f"{name}-{time.strftime('%Y%m%d-%H%M%S')}"
    metrics["name"] = name
    (out / "MODEL_CARD.md").write_text(model_card(metrics))  # the registry keeps a copy
    try:
        registry.add(out / "model.onnx", name=name, metrics=_summary(metrics))
        if better or cfg.force:
            registry.use(name)
            return True
    except RegistryError as exc:
        raise TrainError(str(exc)) from None
    return False


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _summary(m: dict) -> dict:
    return {"held_back_before": m["before"]["held_back"], "held_back_after": m["after"]["held_back"],
            "base_before": m["before"]["base"], "base_after": m["after"]["base"]}


def _proposer_note(m: dict) -> str:
    p = m.get("proposer") or {}
    if not p.get("tuned"):
        return "the proposer (which finds the dice) is the base model's;"
    return (f"its proposer taught the {p['frames']} frames a person went through whole (drawn dice "
            f"found {100 * p['drawn_recall_before']:.1f}% -> {100 * p['drawn_recall_after']:.1f}%);")


def _folds_note(m: dict) -> str:
    if not m["frames"].get("folds"):
        return "; never trained on"
    return ("; a small capture: every frame trained on, the held-back figure is each fold's model "
            "on its own fold, trained on the others")


def _thin_note(m: dict) -> str:
    thin = {int(v): n for v, n in (m.get("thin_faces") or {}).items()}
    return f"Warning: {advice(thin)}.\n\n" if thin else ""


def model_card(m: dict) -> str:
    pct = lambda x: "n/a" if x is None else f"{100 * x:.1f}%"  # noqa: E731
    b, a = m["before"], m["after"]
    return f"""# Model card: {m.get('name') or 'fine-tuned dice model'}

Made by `zonkcam train` from `{m['base_model']}`: its face classifier fine-tuned on a table's own
captured dice; {_proposer_note(m)} metadata and thresholds are the base model's, unchanged.

- Datasets: {', '.join(m['datasets'])}
- Frames: {m['frames']['train']} trained on, {m['frames']['validation']} validation (early stopping),
  {m['frames']['held_back']} held back (labels: {m['held_back_labels']}{_folds_note(m)})
- Dice: {m['dice']['verified']} verified, {m['dice']['unverified']} unverified
  ({m['dice']['pseudo_labelled']} relabelled by the first round), {m['dice']['rejects']} reject views
- Base data mixed in against forgetting: {m['base_data']}
- Seed {m['seed']}, {m['threads']} torch thread(s), {len(m['epochs'])} epochs in all,
  training {m['train_seconds']} s ({m['total_seconds']} s with data and evaluation)

| value accuracy (reader's thresholds) | base model | this model |
|---|---|---|
| held-back captured dice ({m['dice']['held_back']}) | {pct(b['held_back'])} | {pct(a['held_back'])} |
| base data ({m['base_data']}, {m['base_eval_dice']} dice) | {pct(b['base'])} | {pct(a['base'])} |

{_thin_note(m)}Activated: {'yes' if m.get('activated') else 'no'} (a model is activated when it is not worse
on the held-back dice and loses at most one point on the base data, or with `--force`).
"""
