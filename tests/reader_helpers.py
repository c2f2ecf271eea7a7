"""Drawn scenes and stand-in candidates shared by the reader's tests."""
import numpy as np
from zonkcam.vision.sim.drawn import render_scene


def scene(seed: int, kind: str = "felt", n: int = 5, size: float = 60, w: int = 640,
          h: int = 480):
    return render_scene(np.random.default_rng(seed), w, h, n=n, size=size, kind=kind)


def matched(reading, drawn):
    """(found, read right) counts of drawn dice, by centre-in-box."""
    found = right = 0
    for d in drawn:
        x1, y1, x2, y2 = d.box
        hits = [r for r in reading.dice if x1 <= r.center[0] <= x2 and y1 <= r.center[1] <= y2]
        found += bool(hits)
        right += any(r.value == d.value for r in hits)
    return found, right


def cand(x, y, size, score, reject=0.0):
    """A candidate read as a one (reject probability `reject`), no picture behind it."""
    from zonkcam.vision.proposals import Proposal
    from zonkcam.vision.read import Candidate

    probs = np.array([reject, 0.9 - reject, 0.02, 0.02, 0.02, 0.02, 0.02], np.float32)
    grey_patch = np.full((64, 64, 3), 128, np.uint8)
    crop = np.full((40, 40), 0.5, np.float32)
    return Candidate(Proposal(x, y, size, size, score), 0.0, probs, grey_patch, None, crop)
