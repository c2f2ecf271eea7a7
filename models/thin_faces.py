"""Faces a capture shows too few times to teach.

A face the starting model reads wrong on most of the verified dice that show it is one it has
never seen (a skull for the one, an emblem on the six); docs/teach.md (step 1) asks for at least
`MIN_EXAMPLES` of each. On the rune55 proxy, ten photos showing 3 emblems left it reading 63 %
of the new faces on other photos; ten of the same seed showing 8, 71 %.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from zonkcam.models.twin_training import read_right

MIN_EXAMPLES = 5


def thin_faces(probs: np.ndarray, values: Sequence[int | None], reject: float, value: float
               ) -> dict[int, int]:
    """Each value (1-6) the starting model misreads on most of the verified dice showing it,
    shown by fewer than `MIN_EXAMPLES` of them: value -> how many dice show it. `probs`: the
    starting model's classes (reject, 1..6) for those dice, read as the reader reads
    (`reject`, `value`: its thresholds)."""
    labels = np.array([-1 if v is None else v for v in values], np.int64)
    if not len(labels):
        return {}
    right = read_right(probs, labels, reject, value)
    thin = {}
    for v in range(1, 7):
        shown = labels == v
        n = int(shown.sum())
        if 0 < n < MIN_EXAMPLES and 2 * int(right[shown].sum()) < n:
            thin[v] = n
    return thin


def advice(thin: dict[int, int]) -> str:
    """One line for a person: which new faces to photograph more."""
    faces = ", ".join(f"{v} ({n} {'die' if n == 1 else 'dice'})" for v, n in sorted(thin.items()))
    return (f"too few dice show the new face{'s' if len(thin) > 1 else ''} {faces} to teach "
            f"{'them' if len(thin) > 1 else 'it'}: the model in use reads most of them wrong, and a "
            f"face it has never seen needs at least {MIN_EXAMPLES}; take more photos showing "
            f"{'them' if len(thin) > 1 else 'it'}, review them and train again (docs/teach.md)")
