"""Teaching the proposer (which finds the dice) a table's own dice, so dice it missed are found.

A person's review says where every die of a frame lies: the dice they set or confirmed, and
the dice they added by hand where the proposer found nothing. Those frames, with drawn tables
mixed in against forgetting (half the views, plus `train.DRAWN_FRACTION` of its own), train the
base model's proposer further (`train.train_proposer` on `onnx_io.proposer_twin`).

Off by default (`zonkcam train --proposer`): taught a few photos, the tuned proposer found
fewer never-taught picture-face dice than the base one (docs/teach.md has the figures).

The new proposer is kept only if it finds drawn dice no worse (the whole reader's recall on
`RECALL_TABLES` drawn tables of a fixed seed, at most `RECALL_SLACK` lower); else the model keeps
its old proposer. torch is imported lazily (`train_extra`).
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from zonkcam.models.crops import grey
from zonkcam.models.frames import CapturedFrame

STEPS = 60  # proposer training steps (batches of 32 views of 224 px)
RECALL_TABLES = 30
RECALL_SLACK = 0.01
RECALL_SEED = 4242


@dataclass(frozen=True)
class _Item:
    dice: np.ndarray  # rows (value, cx, cy, w, h), 0..1 of the picture, as `yolo.Labelled`


def complete_frames(frames: list[CapturedFrame]) -> list[CapturedFrame]:
    """Frames a person went through whole: every die with a value verified (a sure read nobody
    confirmed may be a die the proposer boxed wrong), and at least one die."""
    return [f for f in frames if any(d.verified and d.value for d in f.dice)
            and all(d.verified or d.value is None for d in f.dice)]


def tune_proposer(base: Path, frames: list[CapturedFrame], seed: int):
    """The base model's proposer trained further on `frames` (complete ones) and drawn tables."""
    from zonkcam.models.onnx_io import proposer_twin
    from zonkcam.models.train import drawn_table, train_proposer

    rng = np.random.default_rng(seed)
    images, items = [], []
    for f in frames:
        image = grey(f.image)
        h, w = image.shape
        rows = [(d.value, d.cx / w, d.cy / h, d.size / w, d.size / h) for d in f.dice
                if d.verified and d.value]
        images.append(image)
        items.append(_Item(np.array(rows, np.float32).reshape(-1, 5)))
    drawn = [drawn_table(rng) for _ in range(max(8, len(images)))]
    pool_images = images + [d[0] for d in drawn]
    pool_items = items + [_Item(d[1]) for d in drawn]
    # the table's frames as often as the drawn ones; one pass of STEPS batches
    weights = [len(drawn) / len(images)] * len(images) + [1.0] * len(drawn)
    order = rng.choice(len(pool_images), STEPS * 32, p=np.array(weights) / sum(weights))
    twin = proposer_twin(base).train()
    return train_proposer([pool_images[i] for i in order], [pool_items[i] for i in order],
                          epochs=1, seed=seed, net=twin, lr=5e-4)


def drawn_recall(model: Path) -> float:
    """Share of the dice on fixed drawn tables the whole reader finds (read or rejected)."""
    from zonkcam.vision.read import Reader
    from zonkcam.vision.sim.drawn import render_scene

    reader = Reader(model)
    rng = np.random.default_rng(RECALL_SEED)
    found = total = 0
    for _ in range(RECALL_TABLES):
        side = int(rng.integers(360, 720))
        image, dice = render_scene(rng, side, side, n=int(rng.integers(2, 9)),
                                   size=float(np.exp(rng.uniform(np.log(24), np.log(90)))),
                                   kind=str(rng.choice(["felt", "wood", "paper", "dark"])))
        reading = reader.read(image)
        seen = [*reading.dice, *reading.rejected]
        for d in dice:
            total += 1
            found += any(math.hypot(s.center[0] - d.cx, s.center[1] - d.cy) < 0.5 * d.size for s in seen)
    return found / max(1, total)


def splice_proposer(model: Path, frames: list[CapturedFrame], seed: int) -> dict:
    """Train the proposer of the float `model` further and write it in, if it finds drawn dice
    no worse; returns what happened (for the metrics)."""
    from zonkcam.models.onnx_io import write_proposer

    usable = complete_frames(frames)
    if not usable:
        return {"tuned": False, "why": "no frame reviewed whole"}
    before = drawn_recall(model)
    twin = tune_proposer(model, usable, seed)
    trial = model.with_name("proposer-trial.onnx")
    write_proposer(twin, model, trial)
    after = drawn_recall(trial)
    kept = after >= before - RECALL_SLACK
    if kept:
        trial.replace(model)
    else:
        trial.unlink()
    print(f"proposer: trained on {len(usable)} frames; drawn dice found {100 * before:.1f}% -> "
          f"{100 * after:.1f}%: {'kept' if kept else 'not kept (it would forget)'}", file=sys.stderr)
    return {"tuned": kept, "frames": len(usable), "drawn_recall_before": round(before, 4),
            "drawn_recall_after": round(after, 4)}
