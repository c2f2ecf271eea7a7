"""Scoring the recognizer on a labelled YOLO folder (`zonkcam eval`).

A prediction matches a label when its centre lies inside the label's box, one-to-one (most
confident predictions first, each to the nearest free label). Every reported die is a
prediction, `unreadable` ones included; a matched die whose value is wrong or missing counts
against value accuracy. An image is exact when every die was found and read and nothing extra
was reported. Boxes marked ignore (illegible dice, `--split audited`) count neither way: a
reported die that matches no label and lies in one is left out. Timing: the read (decoding
excluded, as `elapsed_ms`) and the decode of the same encoded bytes are both measured in this
run, so their ratio compares like with like.

YOLO labels hold values only; a colour-labels file (CSV `image,line,color`: the image's stem,
the line of its label file from 0, the die's colour) adds a breakdown by colour: of the dice of
each colour, how many were found and how many of those were named that colour.
"""
from __future__ import annotations

import csv
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.progress import Progress

# Label sizes (longest side, px) the figures are also broken down by: where the dice are missed.
SIZE_BINS = (0, 30, 45, 70, 130, 100_000)


def size_bin(px: float) -> str:
    i = int(np.searchsorted(SIZE_BINS, px, side="right")) - 1
    lo, hi = SIZE_BINS[i], SIZE_BINS[i + 1]
    return f"{lo}+ px" if hi == SIZE_BINS[-1] else f"{lo}-{hi} px"


def match(dice: list[Die], boxes: np.ndarray) -> tuple[list[tuple[Die, int]], np.ndarray]:
    """(die, label index) pairs, the most confident die first, each to the nearest free label
    box (cx, cy, w, h in pixels) holding its centre; and the mask of labels left unmatched."""
    free = np.ones(len(boxes), bool)
    pairs = []
    for d in sorted(dice, key=lambda d: -d.confidence):
        x, y = d.center
        inside = free & (np.abs(x - boxes[:, 0]) <= boxes[:, 2] / 2) \
            & (np.abs(y - boxes[:, 1]) <= boxes[:, 3] / 2)
        if inside.any():
            cand = np.nonzero(inside)[0]
            j = int(cand[np.argmin(np.hypot(x - boxes[cand, 0], y - boxes[cand, 1]))])
            free[j] = False
            pairs.append((d, j))
    return pairs, free


def on_ignored(die: Die, boxes: np.ndarray) -> bool:
    """Whether `die` lies on an illegible die's box (cx, cy, w, h in pixels): its centre in the
    box, or the box's centre in the die's box. The second is for a die seen at a slant, whose
    label boxes its top face alone while the reader boxes the whole die, so the centres differ."""
    x, y = die.center
    x1, y1, x2, y2 = die.box
    return bool(((np.abs(x - boxes[:, 0]) <= boxes[:, 2] / 2)
                 & (np.abs(y - boxes[:, 1]) <= boxes[:, 3] / 2)).any()
                or ((boxes[:, 0] >= x1) & (boxes[:, 0] <= x2)
                    & (boxes[:, 1] >= y1) & (boxes[:, 1] <= y2)).any())


@dataclass
class Tally:
    images: int = 0
    labels: int = 0
    predictions: int = 0
    matched: int = 0
    correct: int = 0
    exact_images: int = 0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 6), np.int64))
    unread_matched: int = 0  # matched dice reported without a value
    read_ms: list[float] = field(default_factory=list)
    decode_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    by_size: dict[str, list[int]] = field(default_factory=dict)  # bin -> [labels, found, read right]
    by_color: dict[str, list[int]] = field(default_factory=dict)  # colour -> [labels, found, named so]

    def add(self, dice: list[Die], labels: np.ndarray, width: int, height: int,
            colors: Sequence[str | None] | None = None, ignore: np.ndarray | None = None) -> None:
        """One image: `labels` rows are (value, cx, cy, w, h) normalised to the image;
        `colors`: each label's colour, where known; `ignore`: boxes (cx, cy, w, h normalised) of
        illegible dice: a reported die that matches no label and lies on one (`on_ignored`) is
        not counted."""
        scale = np.array([width, height, width, height], np.float32)
        boxes = labels[:, 1:] * scale
        bins = [size_bin(float(max(w, h))) for w, h in boxes[:, 2:]]
        for b in bins:
            self.by_size.setdefault(b, [0, 0, 0])[0] += 1
        pairs, _ = match(dice, boxes)
        if ignore is not None and len(ignore):  # matching first: a legible die beside one still counts
            found = {id(d) for d, _ in pairs}
            dice = [d for d in dice if id(d) in found or not on_ignored(d, ignore * scale)]
        if colors is not None:
            self._add_colors(pairs, colors)
        matched, correct = len(pairs), 0
        for d, j in pairs:
            self.by_size[bins[j]][1] += 1
            truth = int(labels[j, 0])
            if d.value is None:
                self.unread_matched += 1
            else:
                self.confusion[truth - 1, d.value - 1] += 1
                correct += d.value == truth
                self.by_size[bins[j]][2] += d.value == truth
        self.images += 1
        self.labels += len(boxes)
        self.predictions += len(dice)
        self.matched += matched
        self.correct += correct
        self.exact_images += matched == len(boxes) == len(dice) == correct

    def _add_colors(self, pairs: list[tuple[Die, int]], colors: Sequence[str | None]) -> None:
        for c in colors:
            if c is not None:
                self.by_color.setdefault(c, [0, 0, 0])[0] += 1
        for d, j in pairs:
            if (c := colors[j]) is not None:
                self.by_color[c][1] += 1
                self.by_color[c][2] += d.color == c

    def summary(self) -> dict:
        def ratio(a: float, b: float) -> float | None:
            return round(a / b, 4) if b else None

        read = np.array(self.read_ms or [0.0])
        decode = np.array(self.decode_ms or [0.0])
        per_image = read / np.maximum(decode, 1e-6)
        return {
            "images": self.images,
            "labels": self.labels,
            "predictions": self.predictions,
            "matched": self.matched,
            "precision": ratio(self.matched, self.predictions),
            "recall": ratio(self.matched, self.labels),
            "value_accuracy": ratio(self.correct, self.matched),
            "exact_image_rate": ratio(self.exact_images, self.images),
            "unreadable_matched": self.unread_matched,
            "confusion": self.confusion.tolist(),
            "by_size": {b: dict(zip(("labels", "recall", "value_accuracy"),
                                    (n, ratio(found, n), ratio(right, found)), strict=True))
                        for b in map(size_bin, SIZE_BINS[:-1]) if b in self.by_size
                        for n, found, right in [self.by_size[b]]},
            "by_color": {c: dict(zip(("labels", "recall", "color_accuracy"),
                                     (n, ratio(found, n), ratio(right, found)), strict=True))
                         for c, (n, found, right) in sorted(self.by_color.items())},
            "read_ms_median": round(float(np.median(read)), 2),
            "read_ms_p95": round(float(np.percentile(read, 95)), 2),
            "decode_ms_median": round(float(np.median(decode)), 2),
            "read_decode_ratio_median": round(float(np.median(per_image)), 3),
            "failed_images": self.failures,
        }


def load_colors(path: str | Path) -> dict[tuple[str, int], str]:
    """A colour-labels file: (image stem, label line) -> colour. ValueError says what is wrong."""
    try:
        with Path(path).open(encoding="utf-8") as f:
            reader = csv.DictReader(line for line in f if not line.startswith("#"))
            rows = list(reader)
        if not {"image", "line", "color"} <= set(reader.fieldnames or ()):
            raise ValueError("no header line image,line,color")
        return {(r["image"], int(r["line"])): r["color"].strip().lower() for r in rows}
    except OSError as exc:
        raise ValueError(f"cannot read colour labels {path}: {exc.strerror}") from None
    except (KeyError, TypeError, ValueError, AttributeError, csv.Error) as exc:
        raise ValueError(f"{path}: not a colour-labels file (CSV image,line,color): {exc}") from None


def run(items: Iterable, read: Callable, decode: Callable, total: int,
        progress: bool = True, colors: dict[tuple[str, int], str] | None = None) -> Tally:
    """Evaluate `read(image) -> Reading` over labelled items (`.image` path, `.dice` labels);
    `colors`: colour labels (`load_colors`) for a breakdown by colour."""
    tally = Tally()
    bar = Progress(total, "eval", unit="pictures") if progress else None
    for n, item in enumerate(items, 1):
        _add(tally, item, read, decode, colors)
        if bar is not None:  # the figures so far, now and then
            s = tally.summary() if n % 25 == 0 or n == total else None
            bar.step(f"P {s['precision']}  R {s['recall']}  value {s['value_accuracy']}" if s else "")
    if bar is not None:
        bar.close()
    return tally


def _add(tally: Tally, item, read: Callable, decode: Callable,
         colors: dict[tuple[str, int], str] | None = None) -> None:
    try:
        data = item.image.read_bytes()
        t0 = time.perf_counter()
        image = decode(item.image, data)
    except Exception as exc:  # a missing or corrupt file in a dataset: count it, go on
        tally.failures.append(f"{item.image}: {exc}")
        return
    tally.decode_ms.append((time.perf_counter() - t0) * 1000)
    reading = read(image)
    tally.read_ms.append(reading.elapsed_ms)
    known = None if colors is None else [colors.get((item.image.stem, i)) for i in range(len(item.dice))]
    tally.add(reading.dice, item.dice, reading.width, reading.height, known, getattr(item, "ignore", None))


def format_summary(s: dict) -> str:
    lines = [
        f"images {s['images']}, labelled dice {s['labels']}, reported {s['predictions']}",
        f"detection precision  {s['precision']}",
        f"detection recall     {s['recall']}",
        f"value accuracy       {s['value_accuracy']}  (matched dice; "
        f"{s['unreadable_matched']} reported unreadable)",
        f"exact-image rate     {s['exact_image_rate']}",
        f"read ms median {s['read_ms_median']}, p95 {s['read_ms_p95']}; decode ms median "
        f"{s['decode_ms_median']}; read/decode (median per image) {s['read_decode_ratio_median']}",
        "confusion (rows: labelled value 1..6, columns: read value 1..6):",
    ]
    lines += ["  " + " ".join(f"{v:6d}" for v in row) for row in s["confusion"]]
    lines += ["by die size (longest side of the label box):"]
    lines += [f"  {b:>11}  {v['labels']:6d} dice  recall {v['recall']}  value accuracy {v['value_accuracy']}"
              for b, v in s["by_size"].items()]
    if s.get("by_color"):
        lines += ["by colour (dice with a colour label; accuracy: found dice named that colour):"]
        lines += [f"  {c:>11}  {v['labels']:6d} dice  recall {v['recall']}  colour accuracy "
                  f"{v['color_accuracy']}" for c, v in s["by_color"].items()]
    lines += [f"failed: {f}" for f in s["failed_images"]]
    return "\n".join(lines)
