"""What a captured die is worth to a person's review: how the model saw it, and the queue's order.

A person's time goes first to the dice whose answer teaches the model most:

1. **likely misreads**: a read whose top two classes are close (the margin), a die-shaped thing
   the model could not read (a picture face it was never shown: the proposer is sure it is a
   die, the classifier is not), a read that disagrees with its neighbours (the same spot in the
   frame before or after, in a video capture; or the crops that look most like it, anywhere in
   the capture: a skull read surely as a 2 among skulls read otherwise), a die the person added
   by hand;
2. **sure reads**, least sure first (one tap confirms a whole screen of them);
3. **table junk**: candidates the classifier calls "not a pip die" that the proposer hardly took
   for a die (table marks, carpet, the tray rim): last, grouped so one tap dismisses them.

A die's *look* (`die_looks`) is its seven class probabilities (not a die, 1..6) read from a
crop cut as the reader cuts it, the proposer's heat at its centre (how die-like the spot is),
and a small signature of the crop (`SIGNATURE` px a side, normalised) to find look-alikes.
Capture stores it beside each die; older captures get it computed when first reviewed.
"""
from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from zonkcam.vision.faces import face_angle, patch_at, upright
from zonkcam.vision.proposals import PROPOSER_SIDE, proposer_input

MISREAD, SURE, JUNK = "misread", "sure", "junk"
GROUPS = (MISREAD, SURE, JUNK)
UNSURE_MARGIN = 0.5  # a read whose top two classes are closer than this is a likely misread
JUNK_HEAT = 0.45  # an unread candidate the proposer is less sure than this of is table junk
DIE_LIKE_HEAT = 0.6  # ... and one it is surer than this of, a die whose face was never taught
SURE_READ = 0.9  # below this, a read is checked first even with a clear margin
SAME_SPOT = 0.15  # a die within this share of its side of one in the next frame lay still
SIGNATURE = 8  # px a side of a crop's signature
ALIKE = 0.8  # signatures this close (cosine, at the best quarter turn) look alike
NEIGHBOURS = 3  # a read is odd when most of its look-alikes (up to this many) read otherwise


def die_looks(model, image_bgr: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[dict]:
    """Each box's class probabilities ("probs": not a die, 1..6) and proposer heat ("heat")."""
    if not len(boxes):
        return []
    grey = cv2.cvtColor(image_bgr, cv2.COLOR_BGR2GRAY) if image_bgr.ndim == 3 else image_bgr
    patches = []
    for x1, y1, x2, y2 in boxes:
        size = max(x2 - x1, y2 - y1, 4)
        patch = patch_at(grey, (x1 + x2) / 2, (y1 + y2) / 2, size)
        patches.append(upright(patch, face_angle(patch), model.crop, model.crop_margin)
                       .astype(np.float32) / 255)
    crops = np.stack(patches)
    probs = model.classify(crops)
    grey01, scale, _ = proposer_input(image_bgr, PROPOSER_SIDE)
    heat, _ = model.propose(grey01)
    k = scale / model.stride
    looks = []
    for (x1, y1, x2, y2), p in zip(boxes, probs, strict=True):
        gx, gy = int((x1 + x2) / 2 * k), int((y1 + y2) / 2 * k)
        around = heat[max(0, gy - 1):gy + 2, max(0, gx - 1):gx + 2]
        looks.append({"probs": [round(float(v), 4) for v in p],
                      "heat": round(float(around.max()) if around.size else 0.0, 4)})
    for look, crop in zip(looks, crops, strict=True):
        look["sig"] = [round(float(v), 3) for v in _signature(crop)]
    return looks


def _signature(crop: np.ndarray) -> np.ndarray:
    """The crop's centre (the face) at SIGNATURE px a side, zero mean, unit length."""
    n = crop.shape[0]
    face = crop[n // 6:n - n // 6, n // 6:n - n // 6]
    small = cv2.resize(face, (SIGNATURE, SIGNATURE), interpolation=cv2.INTER_AREA).ravel()
    small = small - small.mean()
    return small / max(1e-6, float(np.linalg.norm(small)))


def odd_among_lookalikes(entries: Sequence[dict]) -> set[int]:
    """The read dice (indexes into `entries`) most of whose look-alike crops read otherwise
    (another value, or no die): one of them is misread, and a person should see which."""
    have = [i for i, e in enumerate(entries) if (e.get("look") or {}).get("sig")]
    if len(have) < 2:
        return set()
    sig = np.array([entries[i]["look"]["sig"] for i in have], np.float32).reshape(-1, SIGNATURE, SIGNATURE)
    turns = np.stack([np.rot90(sig, k, axes=(1, 2)).reshape(len(have), -1) for k in range(4)])
    flat = turns[0]
    alike = np.max(turns @ flat.T, axis=0)  # (i, j): i turned against j as it lies, best turn
    np.fill_diagonal(alike, -1)
    reads = [entries[i].get("value") for i in have]
    odd = set()
    for a, i in enumerate(have):
        if reads[a] is None:
            continue
        near = [b for b in np.argsort(-alike[a])[:NEIGHBOURS] if alike[a, b] >= ALIKE]
        if len(near) >= 2 and sum(reads[b] != reads[a] for b in near) * 2 > len(near):
            odd.add(i)
    return odd


def margin(probs: Sequence[float]) -> float:
    """How much surer the model is of its first class than of its second (0..1)."""
    top = sorted(probs, reverse=True)
    return float(top[0] - top[1])


def second_guess(probs: Sequence[float]) -> int | None:
    """The value the model would say next (1..6), or None when its runner-up is "not a die"."""
    order = np.argsort(probs)[::-1]
    return int(order[1]) or None if len(order) > 1 else None


def rank(entry: dict, disagrees: bool = False) -> tuple[str, float]:
    """(group, doubt): the die's review group and how doubtful it is (0..1, higher first)."""
    look = entry.get("look") or {}
    probs = look.get("probs")
    if entry.get("added"):  # a die a person said the model missed: its face is still to set
        return MISREAD, 1.0
    if entry.get("rejected") or entry.get("value") is None:
        heat = look.get("heat")
        if heat is not None and heat < JUNK_HEAT:
            return JUNK, float(heat)
        # die-shaped but unread: a face never taught; surer the more die-like the spot is
        return MISREAD, 0.6 + 0.4 * float(heat if heat is not None else 0.5)
    confidence = float(entry.get("confidence", 0))
    doubt = 1 - (margin(probs) if probs else confidence)
    if disagrees:
        return MISREAD, max(doubt, 0.99)  # one of the two reads is wrong
    if doubt > 1 - UNSURE_MARGIN or confidence < SURE_READ:
        return MISREAD, max(doubt, 1 - confidence)
    return SURE, doubt


def disagreements(metas: Sequence[dict]) -> list[set[int]]:
    """For frames in time order, the dice whose read differs from a die at the same spot (a die
    that lay still: `_same_spot`) in the frame before or after: one of the two reads is wrong."""
    out: list[set[int]] = [set() for _ in metas]
    for i, meta in enumerate(metas):
        for j in (i - 1, i + 1):
            if not 0 <= j < len(metas) or metas[j].get("size") != meta.get("size") \
                    or meta.get("still") or metas[j].get("still"):  # photos are no sequence
                continue
            for k, d in enumerate(meta["dice"]):
                if d.get("value") is None:
                    continue
                for e in metas[j]["dice"]:
                    if e.get("value") is not None and e["value"] != d["value"] and _same_spot(d, e):
                        out[i].add(k)
    return out


def _same_spot(a: dict, b: dict) -> bool:
    """Where a die lay still between two captured throws (a kept die): within `SAME_SPOT` of a
    die's side. Rethrown dice coming to rest near each other's last spot are not the same die
    (half a die of slack flagged a tenth of a simulated table's throws)."""
    ax1, ay1, ax2, ay2 = a["box"]
    bx1, by1, bx2, by2 = b["box"]
    near = SAME_SPOT * max(ax2 - ax1, ay2 - ay1)
    return abs((ax1 + ax2) - (bx1 + bx2)) / 2 < near and abs((ay1 + ay2) - (by1 + by2)) / 2 < near


def describe(entry: dict, group: str) -> str:
    """The die in plain words, for the review page."""
    look = entry.get("look") or {}
    probs = look.get("probs")
    if entry.get("added"):
        return "added by you: which face?"
    if group == JUNK:
        return "probably not a die"
    value = entry.get("value")
    if value is None:
        return "a die? face not recognised"
    if group == SURE:
        return f"reads {value}"
    guess = second_guess(probs) if probs else None
    return f"reads {value}, unsure" + (f" (or {guess}?)" if guess and guess != value else "")
