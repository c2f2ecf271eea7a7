"""Overhead cameras: a die lying flat shows a square top face, and is read again at the square
its silhouette against the table makes. Why, and what it was measured to gain: docs/live.md,
"Read at the die's square"."""
from __future__ import annotations

import cv2
import numpy as np
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.crop_reader import CropReader
from zonkcam.vision.dice import box_growth
from zonkcam.vision.die_sizes import one_per_die, typical_size
from zonkcam.vision.proposals import Proposal
from zonkcam.vision.silhouette import silhouette

# A die whose silhouette is this near a square, and within these multiples of a die's size (the
# median of the dice read, from three; else its proposed size), is read again at the square (its
# top face seen from above). Chosen on drawn throws: a narrower range of sizes read more dice wrong.
SQUARE_ASPECT = 1.15
SQUARE_SIZES = (0.5, 1.5)
PIPS_TO_DIE = 1.6  # a die's size for a pip's box the proposer made (measured 20-21 px for 34)
# A die's read at the proposer's box stands against a less sure one of another value at its square
# (`square_read_kept`) only where that box is at most this many times the square's side. Over round
# 14's saved settles of 68000-70019 the bare rule changed 30 reads of dice boxed wider (51-75 px
# for 33): 3 right ones made wrong (ones 0.64-0.97 at the box), 2 wrong ones right; and of dice
# boxed at 1.03-1.41 times their size, 17 wrong ones right and 1 right one wrong
# (benchmarks/README.md, issue 34, round 15).
BOX_OF_A_DIE = 1.45


def squared(reader: CropReader, image: np.ndarray, found: list[Candidate], size: float | None
            ) -> list[Candidate]:
    """Each die whose silhouette against the table is a square of about a die's size, read
    again at that square; that reading and colour patch are kept unless it reads "not a die" or,
    where the proposer boxed the die at about its size, reads less surely another value
    (`square_read_kept`), and of two dice whose squares coincide (two pips of a two, each
    proposed as a die) one is kept. The box becomes the square's (turned as the die is), so
    that a die proposed at a pip in one frame and at its middle in the next lies in one place,
    at a die's size: the stream measures dice by their boxes, and the proposer's run large. In
    a photo taken at a slant a silhouette holds a side as well (it read fewer photos exactly),
    so only overhead cameras get this."""
    dice = [i for i, c in enumerate(found) if not reader.rejects(c)]
    typical = typical_size(found, size, reader.rejects)
    squares: dict[int, Proposal] = {}
    for i in dice:
        p = found[i].proposal
        others = [(found[j].proposal.cx, found[j].proposal.cy) for j in dice if j != i]
        # whole, or else cut off where another die is nearer: a die read twice, at two of its
        # pips, is cut in two halves that can pass for small squares; at the typical size, or
        # else at its own or a die's when the typical is a pip's (most dice proposed at their
        # pips) and, where the caller knows the dice's size (a live table's), of about that: a
        # die and one leaning on it can make a square nearly two dice wide
        sizes = dict.fromkeys((typical or p.size, p.size, PIPS_TO_DIE * (typical or p.size)))
        q = next((q for at in sizes for near in ([], others)
                  if (q := square(image, p, near, at)) is not None
                  and (size is None or of_size(q.w, size))), None)
        if q is not None:
            squares[i] = q
    if not squares:
        return found
    looks = [(i, *reader.look(image, q)) for i, q in squares.items()]  # (die, crop, patch, angle)
    probs = reader.model.classify(np.stack([crop for _, crop, _, _ in looks]))
    out = list(found)
    for (i, _, patch, angle), pr in zip(looks, probs, strict=True):
        if pr[0] < reader.reject_threshold:
            c = found[i]
            p, q = c.proposal, squares[i]
            grown = q.w * box_growth(angle)
            box = Proposal(q.cx, q.cy, grown, grown, p.score)
            if p.size > BOX_OF_A_DIE * q.w or square_read_kept(c.probs, pr):
                out[i] = Candidate(box, angle, pr, patch, c.gains, c.crop)
            else:  # its read at a box of about its size, surer and of another value
                out[i] = Candidate(box, angle, c.probs, c.patch, c.gains, c.crop)
    return one_per_die(out, reader.rejects,
                       [squares.get(i, c.proposal) for i, c in enumerate(out)], first=squares.keys())


def square_read_kept(read: np.ndarray, at_square: np.ndarray) -> bool:
    """Whether a die's read at its square (class probabilities, "not a die" first) replaces its
    read at the proposer's box `read`: where it is at least as sure, or gives the same value (a
    six read 0.92 at its box, a four 0.73 at its square: 69015 t7; `BOX_OF_A_DIE`)."""
    return bool(at_square[1:].max() >= read[1:].max() or at_square[1:].argmax() == read[1:].argmax())


def square(image: np.ndarray, p: Proposal, others: list[tuple[float, float]],
           size: float) -> Proposal | None:
    """The square a die's silhouette makes (`others`: the other dice's centres; `size`: a die's
    size, px), as a proposal; None when the silhouette is not near a square of about that
    size."""
    found = silhouette(image, (p.cx, p.cy), size, others)
    if found is None:
        return None
    (x, y), (w, h), _ = cv2.minAreaRect(found.contour)
    side = (w + h) / 2 / found.scale
    if max(w, h) > SQUARE_ASPECT * min(w, h) or not of_size(side, size):
        return None
    return Proposal(*found.in_picture(x, y), side, side, p.score)


def of_size(side: float, size: float) -> bool:
    """Whether a square of `side` px is a die's of `size` px (`SQUARE_SIZES`)."""
    return SQUARE_SIZES[0] <= side / size <= SQUARE_SIZES[1]
