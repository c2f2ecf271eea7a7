"""Dice at one distance from a camera are alike in size: the picture's median die size, and the
reads that size rules out (specks, table grain, one die read twice)."""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.proposals import Proposal, apart

Judge = Callable[[Candidate], bool]  # the reader's `rejects` or `unsure`

TYPICAL_SIZE_FROM = 3  # dice read at the first look needed for a median size to go by
# A die found under this share of the median size of the picture's dice (three or more read)
# is dropped: a speck on the table, read again at the dice's size, passes for a one (a dot on a
# plain face). Measured: docs/recognizer.md, "How it works" 6.
LEAST_OF_TYPICAL = 0.5
# ... and, read unsurely, over this multiple of it: the grain of a table seen at a zoom that
# shows small dice passes for a die of two or three times their size (issue 36's phone photos).
MOST_OF_TYPICAL = 2.5
DIE_SIZE_FLOOR = 0.6  # of the median size of a big still's dice read surely: the least a die is
# ... and, where a still's views are merged die by die (`vision.merged`), the fifth of their
# sizes below which a die's size lies, not the least: its dice are boxed by several views, and
# one die boxed tight by the focus halved every long box of a phone bowl's still as two dice
MERGED_QUANTILE = 0.2


def typical_size(found: Sequence[Candidate], known: float | None, rejects: Judge) -> float | None:
    """The median proposed size of the dice read, once there are enough to go by, else the size
    the caller `known` (a live table's dice: a lone die proposed at over twice its size is seen
    as a square only at the dice's size)."""
    sizes = [c.proposal.size for c in found if not rejects(c)]
    return float(np.median(sizes)) if len(sizes) >= TYPICAL_SIZE_FROM else known


def die_size(found: Sequence[Candidate], rejects: Judge, unsure: Judge, quantile: float = 0.0
             ) -> float | None:
    """A die's size in a big still, where the proposer boxes a die alone up to twice its size
    (an 8 MP still's 100-px dice are 10 px in its 320-px view) and touching dice as one: the
    least (or the `quantile`) of the shorter sides of the boxes of the dice read surely, and
    `DIE_SIZE_FLOOR` of their median at least (a pip read as a die); from `TYPICAL_SIZE_FROM`
    such dice, else None."""
    sides = [min(c.proposal.w, c.proposal.h) for c in found if not rejects(c) and not unsure(c)]
    if len(sides) < TYPICAL_SIZE_FROM:
        return None
    # the size at or below the quantile, not between two (a still of 5-8 dice: the least)
    least = float(np.quantile(sides, quantile, method="lower"))
    return max(least, DIE_SIZE_FLOOR * float(np.median(sides)))


def seen_size(views: Sequence[Sequence[Candidate]], rejects: Judge, unsure: Judge) -> float | None:
    """A big still's die size by all its views (the proposals at each side, the focus's regions):
    the least of their `die_size`s, each at `MERGED_QUANTILE`. The view kept can box every die
    1.5-3 times its size (an 8 MP still's 80-140-px dice seen 8-14 px at 320 px, a touching
    pair as one die 344 px across read surely as a one), so its own least box is no measure;
    the focus sees them ~64 px, boxed about their size (scale_eval's pi-tray stills)."""
    sizes = [s for view in views if (s := die_size(view, rejects, unsure, MERGED_QUANTILE))]
    return min(sizes, default=None)


def alike_in_size(found: list[Candidate], rejects: Judge, unsure: Judge, overhead: bool,
                  seen: float | None = None) -> list[Candidate]:
    """Without the dice under `LEAST_OF_TYPICAL` of the picture's median die size, once three or
    more are read (after the squares: a die proposed at a pip has its square's size by then),
    nor, in photos, those read unsurely over `MOST_OF_TYPICAL` of it (overhead, a die leaning on
    a die is boxed bigger; a die read surely is a die, however big the proposer boxed it: a
    picture face is often boxed at 2-4 times its size). A die of a big still's size by its
    views (`seen`, `seen_size`) or larger is no speck, however big the others were boxed."""
    typical = typical_size(found, None, rejects)
    if typical is None:
        return found
    most = np.inf if overhead else MOST_OF_TYPICAL * typical
    least = LEAST_OF_TYPICAL * typical if seen is None else min(LEAST_OF_TYPICAL * typical, seen)
    return [c for c in found if rejects(c) or least
            <= c.proposal.size <= (most if unsure(c) else np.inf)]


def one_per_die(found: list[Candidate], rejects: Judge, at: list[Proposal] | None = None,
                first: Collection[int] = ()) -> list[Candidate]:
    """Of two dice read closer than `apart` allows for the picture's median die size, the one
    the proposer was surer of (measured: docs/recognizer.md, "How it works" 5). `decode` already
    keeps proposals apart by their own sizes, but a die proposed at half its size can hold two
    proposals, and both read. `at`: where each candidate was read, when not at its proposal;
    `first`: candidates (indices) kept before the others, as read where they are seen better."""
    at = at or [c.proposal for c in found]
    dice = sorted((i for i, c in enumerate(found) if not rejects(c)),
                  key=lambda i: (i not in first, -found[i].proposal.score))
    if len(dice) < 2:
        return found
    size = float(np.median([at[i].size for i in dice]))
    kept: list[int] = []
    for i in dice:
        if all(apart(at[i], at[k], size) for k in kept):
            kept.append(i)
    return [c for i, c in enumerate(found) if rejects(c) or i in kept]
