"""A captured dataset: settled throws saved with the recognizer's labels, for retraining.

Layout (plain files, so a dataset can be copied to a bigger machine and trained there):

    DIR/images/NAME.jpg     the full frame the dice were read from
    DIR/labels/NAME.txt     YOLO labels: ``class cx cy w h`` normalised, class 0..5 = value 1..6
    DIR/meta/NAME.json      {"time", "model", "reviewed", "dice": [{value, color, status,
                            confidence, color_confidence, box, flagged, rejected?}]}

Dice the recognizer was unsure of are ``flagged`` for review. So are the die-shaped things it
took for "not a pip die" (``rejected``: a logo six, a star one, a picture die): they come after
the dice, with no value, so a person can say what they show (or that they are no pip die at all:
status ``not_a_die``). A correction rewrites the labels and marks the frame ``reviewed``
(human-verified). A person may also call a crop ``bad_crop`` (a die cut off, several dice in one
box: never trained on), ``skip`` it (left as the recognizer read it, out of the queue), or add a
die the recognizer missed (``added``: a box of the frame's dice size, its face set next). Each
die may carry its ``look`` (`models.review_rank`: class probabilities and proposer heat), which
orders the review queue by what a person's answer is worth to the model.
Disk use is capped: the oldest unreviewed frames are pruned first; reviewed
frames are never pruned.
"""
from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from zonkcam.models.review_rank import (
    GROUPS,
    describe,
    die_looks,
    disagreements,
    odd_among_lookalikes,
    rank,
)
from zonkcam.vision.colors import COLOR_NAME
from zonkcam.vision.dice import Die

LOW_CONFIDENCE = 0.9  # below this a die is flagged for review
NOT_A_DIE = 0  # the correction "this is no pip die" (value 1..6 sets a face)
DISMISSALS = ("bad_crop", "skip")  # what a person may call a crop besides a face


class CaptureError(ValueError):
    """A capture folder or frame that cannot be used."""


@dataclass(frozen=True)
class ReviewItem:
    name: str
    die: int
    value: int | None
    color: str | None
    confidence: float
    rejected: bool = False  # die-shaped, but the recognizer read no pip face on it
    group: str = "misread"  # `review_rank.GROUPS`: likely misread, sure read, table junk
    doubt: float = 0.0  # how doubtful the read is (0..1): the order within a group
    words: str = ""  # the die in plain words ("reads 3, unsure (or 5?)")


def set_by_person(entry: dict) -> bool:
    """A captured die's value was set by a person (`CaptureSet.correct`): confidence 1, not
    flagged. (The recognizer's own reads are stored to 4 decimals and are below 0.99995.)"""
    return not entry.get("flagged", False) and float(entry.get("confidence", 0)) >= 0.99995


class CaptureSet:
    def __init__(self, root: str | Path, max_bytes: int | None = 2 * 1024**3) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        for sub in ("images", "labels", "meta"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)

    # --- writing ------------------------------------------------------------------------

    def add(self, image: np.ndarray, dice: Sequence[Die], model: str = "",
            rejected: Sequence[Die] = (), still: bool = False) -> str:
        """Save one settled frame with its dice, and the die-shaped candidates the recognizer
        rejected (`Reading.rejected`; those on a die are skipped); returns the frame's name.
        `still`: a photo of its own, no frame of a stream (no die lies still from one to the next)."""
        # one reading of the clock: the second and its fraction read apart can sort a frame
        # before the one taken just before it
        ns = time.time_ns()
        name = (time.strftime("%Y%m%dT%H%M%S", time.localtime(ns // 1_000_000_000))
                + f"-{ns % 1_000_000_000:09d}")
        h, w = image.shape[:2]
        unread = [r for r in rejected if not any(_overlaps(r, d) for d in dice)]
        meta = {
            "time": time.time(),
            "model": model,
            "size": [w, h],
            "reviewed": False,
            **({"still": True} if still else {}),
            "dice": [
                d.to_json() | {"flagged": d.value is None or d.confidence < LOW_CONFIDENCE}
                for d in dice
            ] + [d.to_json() | {"flagged": True, "rejected": True} for d in unread],
        }
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        if not ok:
            raise CaptureError("the frame could not be encoded as JPEG")
        # Image and labels first, meta last: a frame without meta (a crash mid-write) is
        # incomplete and ignored, never read with half its labels.
        _write_atomic(self.root / "images" / f"{name}.jpg", jpeg.tobytes())
        self._write_labels(name, meta)
        _write_atomic(self.root / "meta" / f"{name}.json", json.dumps(meta, indent=1).encode())
        self.prune()
        return name

    def correct(self, name: str, die: int, value: int | None = None, color: str | None = None) -> None:
        """A person's correction: rewrite the labels and mark the frame human-verified.
        `value`: 1..6, or `NOT_A_DIE` (a picture die, a mark: taught as "not a pip die")."""
        meta = self.meta(name)
        if not 0 <= die < len(meta["dice"]):
            raise CaptureError(f"{name}: no die {die} (the frame has {len(meta['dice'])})")
        if value is not None and (isinstance(value, bool) or value not in range(7)):
            raise CaptureError(f"{value!r} is not a face value 1-6 (or 0: not a pip die)")
        if color is not None and not (isinstance(color, str) and COLOR_NAME.fullmatch(color)):
            raise CaptureError(f"{color!r} is not a colour name (a lower-case word)")
        entry = meta["dice"][die]
        if value == NOT_A_DIE:
            entry.update(value=None, confidence=1.0, status="not_a_die")
        elif value is not None:
            entry.update(value=value, confidence=1.0, status="ok")
        if color is not None:
            entry.update(color=color, color_confidence=1.0)
        entry["flagged"] = False
        meta["reviewed"] = True
        self._write_labels(name, meta)
        _write_atomic(self.root / "meta" / f"{name}.json", json.dumps(meta, indent=1).encode())

    def dismiss(self, name: str, die: int, how: str) -> None:
        """A person's "bad crop" (never trained on) or "skip" (left as read, out of the queue)."""
        meta = self.meta(name)
        if not 0 <= die < len(meta["dice"]):
            raise CaptureError(f"{name}: no die {die} (the frame has {len(meta['dice'])})")
        if how not in DISMISSALS:
            raise CaptureError(f"{how!r} is not one of {', '.join(DISMISSALS)}")
        entry = meta["dice"][die]
        if how == "bad_crop":
            entry.update(value=None, confidence=1.0, status="bad_crop", flagged=False)
            meta["reviewed"] = True
        else:
            entry["skipped"] = True
        self._write_labels(name, meta)
        _write_atomic(self.root / "meta" / f"{name}.json", json.dumps(meta, indent=1).encode())

    def add_die(self, name: str, x: float, y: float, size: float | None = None) -> int:
        """A die the recognizer missed, at (x, y) of the frame: a box of `size` px (default: the
        frame's dice's median side), queued for its face first. Returns its index."""
        meta = self.meta(name)
        w, h = meta["size"]
        x, y = float(x), float(y)
        if not (0 <= x < w and 0 <= y < h):
            raise CaptureError(f"({x:.0f}, {y:.0f}) is outside the {w}x{h} frame")
        sides = [max(d["box"][2] - d["box"][0], d["box"][3] - d["box"][1]) for d in meta["dice"]
                 if d.get("status") != "bad_crop" and not d.get("rejected")]
        side = float(size or (np.median(sides) if sides else min(w, h) / 10))
        half = side / 2
        box = [round(max(0, x - half)), round(max(0, y - half)), round(min(w, x + half)),
               round(min(h, y + half))]
        meta["dice"].append({"value": None, "color": None, "confidence": 0.0, "color_confidence": 0.0,
                             "box": box, "center": [round(x, 1), round(y, 1)], "angle": 0.0,
                             "status": "unreadable", "flagged": True, "added": True})
        _write_atomic(self.root / "meta" / f"{name}.json", json.dumps(meta, indent=1).encode())
        return len(meta["dice"]) - 1

    def fill_looks(self, model, names: Sequence[str] | None = None) -> int:
        """Store each die's look (`review_rank.die_looks`) where it is missing; returns how many
        frames were updated."""
        done = 0
        for name in names if names is not None else self.names():
            meta = self.meta(name)
            todo = [i for i, d in enumerate(meta["dice"]) if "look" not in d]
            if not todo:
                continue
            looks = die_looks(model, self.image(name), [meta["dice"][i]["box"] for i in todo])
            for i, look in zip(todo, looks, strict=True):
                meta["dice"][i]["look"] = look
            _write_atomic(self.root / "meta" / f"{name}.json", json.dumps(meta, indent=1).encode())
            done += 1
        return done

    def prune(self) -> list[str]:
        """Delete the oldest unreviewed frames until the set fits its size cap."""
        if self.max_bytes is None:
            return []
        sizes = {name: self._bytes(name) for name in self.names()}
        total = sum(sizes.values())
        removed = []
        for name in self.names()[:-1]:  # oldest first; never the frame just saved
            if total <= self.max_bytes:
                break
            if self.meta(name)["reviewed"]:
                continue
            total -= sizes[name]
            for path in self._paths(name):
                path.unlink(missing_ok=True)
            removed.append(name)
        return removed

    # --- reading ------------------------------------------------------------------------

    def names(self) -> list[str]:
        """Complete frames, oldest first."""
        return sorted(p.stem for p in (self.root / "meta").glob("*.json"))

    def meta(self, name: str) -> dict:
        # A name is a file stem inside the set: one from outside ("../x") is no frame of it.
        if not name or "/" in name or "\\" in name or name.startswith("."):
            raise CaptureError(f"{self.root}: no captured frame {name!r}")
        try:
            return json.loads((self.root / "meta" / f"{name}.json").read_text())
        except FileNotFoundError:
            raise CaptureError(f"{self.root}: no captured frame {name!r}") from None

    def image(self, name: str) -> np.ndarray:
        image = cv2.imread(str(self.root / "images" / f"{name}.jpg"))
        if image is None:
            raise CaptureError(f"{name}: image missing or unreadable")
        return image

    def review_queue(self) -> list[ReviewItem]:
        """Dice no person has set (or skipped) yet, by what a person's answer is worth to the model
        (`review_rank`): likely misreads and unread die-shaped faces first, sure reads next, table
        junk last. A correction verifies only the dice it touches (`zonkcam train` alike)."""
        names = self.names()
        metas = [self.meta(name) for name in names]
        odd = disagreements(metas)
        every = [(k, i) for k, meta in enumerate(metas) for i in range(len(meta["dice"]))]
        for n in odd_among_lookalikes([metas[k]["dice"][i] for k, i in every]):
            odd[every[n][0]].add(every[n][1])
        items = []
        for name, meta, odd_ones in zip(names, metas, odd, strict=True):
            for i, d in enumerate(meta["dice"]):
                if (meta["reviewed"] and set_by_person(d)) or d.get("skipped"):
                    continue
                group, doubt = rank(d, i in odd_ones)
                items.append(ReviewItem(name, i, d["value"], d["color"], d["confidence"],
                                        d.get("rejected", False), group, doubt, describe(d, group)))
        return sorted(items, key=lambda it: (GROUPS.index(it.group), -it.doubt, it.name, it.die))

    def crop(self, name: str, die: int, margin: float = 0.25) -> np.ndarray:
        x1, y1, x2, y2 = self.meta(name)["dice"][die]["box"]
        image = self.image(name)
        mx, my = int((x2 - x1) * margin), int((y2 - y1) * margin)
        h, w = image.shape[:2]
        return image[max(0, y1 - my):min(h, y2 + my), max(0, x1 - mx):min(w, x2 + mx)]

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())

    # --- internals ----------------------------------------------------------------------

    def _write_labels(self, name: str, meta: dict) -> None:
        w, h = meta["size"]
        lines = []
        for d in meta["dice"]:
            if d["value"] is None or d["status"] != "ok":
                continue  # unreadable, cocked, stacked or off-table dice are not face labels
            x1, y1, x2, y2 = d["box"]
            cx, cy, bw, bh = (x1 + x2) / 2 / w, (y1 + y2) / 2 / h, (x2 - x1) / w, (y2 - y1) / h
            lines.append(f"{d['value'] - 1} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
        _write_atomic(self.root / "labels" / f"{name}.txt", ("\n".join(lines) + "\n").encode())

    def _paths(self, name: str) -> list[Path]:
        return [self.root / "meta" / f"{name}.json", self.root / "images" / f"{name}.jpg",
                self.root / "labels" / f"{name}.txt"]

    def _bytes(self, name: str) -> int:
        return sum(p.stat().st_size for p in self._paths(name) if p.exists())


def _overlaps(a: Die, b: Die) -> bool:
    """`a`'s centre lies within half a die of `b`'s."""
    size = max(b.box[2] - b.box[0], b.box[3] - b.box[1])
    return abs(a.center[0] - b.center[0]) < size / 2 and abs(a.center[1] - b.center[1]) < size / 2


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
