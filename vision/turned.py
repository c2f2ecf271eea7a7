"""A die is a die from every side (issue 36, item 5: clutter is not a die).

A pip face turned by a quarter, a half or three quarters, or mirrored, is still a pip face of the
same value, and the classifier reads it so: of the 981 legible dice of rune55's audited held-out
photos it takes none of those eight views for "not a pip die" at `NOT_A_DIE` while reading it
less surely than `DOUBTFUL`. Clutter the classifier lets through from one side (a letter, a
coin's number, a button, a badge, a knot) is often "not a pip die" from another. So a die read
doubtfully is read in all eight views of its first crop, in one batch, and where one of them
says "not a pip die" at `NOT_A_DIE` it joins the rejected candidates (kept for the teaching
review), not the dice. Measured: docs/recognizer.md, "Clutter".
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
from zonkcam.vision.candidates import Candidate

Classify = Callable[[np.ndarray], np.ndarray]  # crops (n, h, w) -> class probabilities (n, 7)

# Chosen on the clutter proxy's tuning seeds 1 and 2 (benchmarks/clutter_eval.py), the audited
# held-out photos and the oblique proxy's seed 1: the pair that cost none of the audited dice.
DOUBTFUL = 0.7  # a die read less surely than this is looked at from every side
NOT_A_DIE = 0.5  # ... and is not a die where any view reads "not a pip die" this surely


def views(crop: np.ndarray) -> np.ndarray:
    """The eight turns and mirrors of a square crop."""
    out = []
    for k in range(4):
        turned = np.rot90(crop, k)
        out += [turned, turned.T]
    return np.ascontiguousarray(np.stack(out))


def not_dice(found: list[Candidate], classify: Classify, rejects: Callable[[Candidate], bool]
             ) -> set[int]:
    """Indices of the candidates read as dice, doubtfully, that some view of their first crop
    reads as "not a pip die"."""
    doubtful = [i for i, c in enumerate(found) if not rejects(c) and c.probs[1:].max() < DOUBTFUL]
    if not doubtful:
        return set()
    probs = classify(np.concatenate([views(found[i].crop) for i in doubtful]))
    reject = probs[:, 0].reshape(len(doubtful), 8).max(axis=1)
    return {i for i, r in zip(doubtful, reject, strict=True) if r >= NOT_A_DIE}
