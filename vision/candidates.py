"""A candidate die: a proposal and what the classifier made of it, before any threshold."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from zonkcam.vision.proposals import Proposal


@dataclass(frozen=True, slots=True)
class Candidate:
    """A proposal and what the classifier made of it, before any threshold."""

    proposal: Proposal
    angle: float
    probs: np.ndarray  # reject, values 1..6
    patch: np.ndarray
    gains: np.ndarray
    crop: np.ndarray  # the classifier's crop at the first look (float, 0..1)

    @property
    def box(self) -> tuple[int, int, int, int]:
        p = self.proposal
        return (round(p.cx - p.w / 2), round(p.cy - p.h / 2),
                round(p.cx + p.w / 2), round(p.cy + p.h / 2))

    @property
    def value(self) -> int:
        """The value read (1..6), sure or not."""
        return int(np.argmax(self.probs[1:])) + 1
