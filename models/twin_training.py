"""Training the face classifier's torch twin on a table's dice, scored by the reader's rule.

An epoch sees every patch once, freshly augmented (`crops.augment_crop`); after each the twin is
scored on the validation crops as the reader would report them, and the best epoch is kept.
torch is imported lazily (`train_extra`).
"""
from __future__ import annotations

import math
import sys

import cv2
import numpy as np
from zonkcam.models.crops import CROP, CROP_MARGIN, SCALES, augment_crop
from zonkcam.models.progress import Progress
from zonkcam.models.train_extra import need_torch

BATCH = 128
GUARD = 0.01
DISTILL_T = 2.0  # temperature of the distillation term (Hinton et al.): the old model's soft classes


def read_right(probs: np.ndarray, values: np.ndarray, reject: float, value: float) -> np.ndarray:
    """Each die the reader would report with the right value (not dropped, not unreadable); a
    value 0 (not a pip die) is right when the reader drops it."""
    read = np.argmax(probs[:, 1:], 1) + 1
    ok = (probs[:, 0] < reject) & (probs[np.arange(len(read)), read] >= value) & (read == values)
    ok |= (values == 0) & (probs[:, 0] >= reject)
    return ok


def value_accuracy(probs: np.ndarray, values: np.ndarray, reject: float, value: float) -> float | None:
    """Share of dice `read_right`."""
    return float(read_right(probs, values, reject, value).mean()) if len(values) else None


def train_twin(twin, patches: np.ndarray, labels: np.ndarray, val: tuple[np.ndarray, np.ndarray],
               *, epochs: int, seed: int, lr: float, patience: int, thresholds: tuple[float, float],
               crop: int, margin: float, label: str, guard_only: bool = False,
               teacher=None, distill_from: int | None = None, distill: float = 0.0,
               zoomed: tuple[int, tuple[float, float]] = (0, SCALES)) -> tuple[object, list[dict]]:
    """Fine-tune `twin` on augmented crops of `patches`; keep the epoch best on `val`
    (reader-rule accuracy, then loss) and stop after `patience` epochs without progress.
    `guard_only`: `val` holds no table dice, only a guard against forgetting (drawn dice): every
    epoch runs and the last is kept, unless it reads `val` more than `GUARD` below the best
    epoch (then that one is: the base dice's loss would favour the least-changed, first epochs).
    `teacher` (the model fine-tuning started from): the patches from index `distill_from` on (the
    base data) are also pulled, with weight `distill`, towards the teacher's soft classes on the
    same crops, so that what it read there is kept, not only the label. `zoomed`: the first n
    patches are cut at this range of scales (`crops.augment_crop`) instead of the usual one."""
    torch = need_torch()
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    steps_per_epoch = max(1, math.ceil(len(labels) / BATCH))
    opt = torch.optim.AdamW(twin.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps_per_epoch,
                                                pct_start=0.15)
    val_x = torch.from_numpy(val[0][:, None]) if len(val[1]) else None
    val_y = torch.from_numpy(val[1]) if len(val[1]) else None
    best, best_key, history, stale = None, None, [], 0
    bar = Progress(epochs * steps_per_epoch, label)
    accs: list[float] = []
    for epoch in range(epochs):
        loss = _epoch(twin, patches, labels, rng, opt=opt, sched=sched, bar=bar, crop=crop, margin=margin,
                      distill=(teacher, len(labels) if distill_from is None else distill_from, distill),
                      zoomed=zoomed)
        twin.eval()
        record = {"epoch": epoch + 1, "loss": round(loss, 4)}
        if val_x is not None:
            acc, scores = _validate(twin, val_x, val_y, val[1], thresholds)
            record |= scores
            key = (acc or 0.0, -record["val_loss"])
            accs.append(acc or 0.0)
            if guard_only:
                key = (float(accs[-1] >= max(accs) - GUARD), epoch)  # the latest within the guard
            if best_key is None or key > best_key:
                best_key, stale = key, 0
                best = {k: v.clone() for k, v in twin.state_dict().items()}
            else:
                stale += 1
        history.append(record)
        if val_x is not None and not guard_only and stale >= patience and epoch + 1 < epochs:
            print(f"\n{label}: early stop after epoch {epoch + 1} (no progress on validation)",
                  file=sys.stderr)
            break
    if bar.total is not None and bar.n < bar.total:
        print(file=sys.stderr)
    if best is not None:
        twin.load_state_dict(best)
    return twin.eval(), history


def _epoch(twin, patches: np.ndarray, labels: np.ndarray, rng: np.random.Generator, *, opt, sched,
           bar: Progress, crop: int, margin: float, distill: tuple = (None, 0, 0.0),
           zoomed: tuple[int, tuple[float, float]] = (0, SCALES)) -> float:
    """One pass over freshly augmented crops of every patch, in a new order; the last batch's loss
    (`distill`: the teacher, the first patch it teaches, the term's weight; `zoomed`: see
    `train_twin`)."""
    torch = need_torch()
    from torch.nn import functional as F

    twin.train()
    order = rng.permutation(len(labels))
    # any quarter turn too: the reader turns a face upright only to the nearest quarter, and a
    # table's own picture face (a skull) has an up that a few photos show only some ways round
    n_zoomed, zoom = zoomed
    crops = np.stack([np.rot90(augment_crop(patches[i], rng, scales=zoom if i < n_zoomed else SCALES),
                               int(rng.integers(4)))
                      for i in order]).astype(np.float32) / 255
    crops = _fit_crop(crops, crop, margin)
    x_all, y_all = torch.from_numpy(crops[:, None]), torch.from_numpy(labels[order])
    teacher, first, weight = distill
    taught = torch.from_numpy(order >= first)
    for s in range(max(1, math.ceil(len(labels) / BATCH))):
        x, y = x_all[s * BATCH:(s + 1) * BATCH], y_all[s * BATCH:(s + 1) * BATCH]
        logits = twin(x)
        loss = F.cross_entropy(logits, y, label_smoothing=0.02)
        total = loss
        if teacher is not None and weight and bool((mask := taught[s * BATCH:(s + 1) * BATCH]).any()):
            with torch.no_grad():
                soft = torch.log_softmax(teacher(x[mask]) / DISTILL_T, 1)
            total = loss + weight * DISTILL_T ** 2 * F.kl_div(
                torch.log_softmax(logits[mask] / DISTILL_T, 1), soft, log_target=True, reduction="batchmean")
        opt.zero_grad()
        total.backward()
        opt.step()
        sched.step()
        bar.step(f"loss {loss.item():.3f}")
    return loss.item()


def _validate(twin, val_x, val_y, values: np.ndarray, thresholds: tuple[float, float]
              ) -> tuple[float | None, dict]:
    """The reader-rule accuracy on the validation dice (rejects left out), and the record's
    validation entries (loss over all, accuracy, rounded)."""
    torch = need_torch()
    from torch.nn import functional as F

    with torch.no_grad():
        logits = twin(val_x)
        probs = torch.softmax(logits, 1).numpy()
        val_loss = round(F.cross_entropy(logits, val_y).item(), 4)
    positive = values > 0
    acc = value_accuracy(probs[positive], values[positive], *thresholds)
    return acc, {"val_loss": val_loss, "val_accuracy": None if acc is None else round(acc, 4)}


def _fit_crop(crops: np.ndarray, crop: int, margin: float) -> np.ndarray:
    """augment_crop makes the training recipe's CROP-px crops; a model with another size gets them resized."""
    if crop == CROP and abs(margin - CROP_MARGIN) < 1e-6:
        return crops
    return np.stack([cv2.resize(c, (crop, crop), interpolation=cv2.INTER_AREA) for c in crops])


def predict(twin, crops: np.ndarray) -> np.ndarray:
    """The twin's class probabilities (n, 7) for float crops (n, crop, crop)."""
    torch = need_torch()
    if not len(crops):
        return np.zeros((0, 7), np.float32)
    with torch.no_grad():
        return torch.softmax(twin(torch.from_numpy(crops[:, None])), 1).numpy()
