"""Settled dice read again at their places, where the reader can read at a place (`read_at`).

Three cases, each decided by reads that fail differently from the quorum's (whose pictures differ
by sensor noise alone, so a die misread in one is misread in all three):

- `unsure_read_again`: a die read under `UNSURE` is read again at its square at `AGAIN` times
  the dice's size, and takes the value both of these give, if they agree on another one: the
  dice the recognizer misreads unsure in its proposer's crop mostly read right, and surer, in
  a crop a little larger, while two sizes agreeing on another value seldom make a right read
  wrong. A misread die spoils its throw and each later one that keeps or picks it up. A die
  read `unreadable` is not read again at these sizes: such dice (picture dice) read at the two
  seldom agree, and a majority of sizes names them wrong, where `unreadable` at least tells
  the scorekeeper. The figures: benchmarks/README.md, issue 34, rounds 6 and 7.
- `unreadable_read_again`: a die read `unreadable` in the proposer's crop is read again at its
  centre at the dice's size, which a live table knows from its settles, in each of the quorum's
  pictures, and takes a value every one of them reads at least `SURE_AGAIN` sure: a face
  washed out by a lamp reads surely or not at all with a pixel of its crop's centre or size
  (a three 0.28 sure in a 33 px crop, 0.84 in a 40 px one, 0.86 at its silhouette's centre at
  the dice's size; benchmarks/README.md, issue 34, round 10).
  Less sure reads leave it `unreadable`: such dice are named wrong as often as right (round 7),
  and `unreadable` at least tells the scorekeeper.
- `faint_read_again`: a die still `unreadable`, or read under `UNSURE`, whose face is faint
  (`faces.faint`: a lamp's wash, light grey pips on white) is read again in each of the quorum's
  pictures with its face's own span of grey stretched to a die's (`faces.stretched`), and takes
  a value every picture reads at least `SURE_STRETCHED` sure so. Unstretched, drawn faint faces
  read 0.24-0.91 sure, 12 of 18 wrong or `unreadable` (a three as a one, a six as a four), and
  their plain views can agree on a wrong value (a washed-out six's nine crops, 1.1-1.3 of the
  dice's size in three pictures, all read a three: 69008); stretched, all 18 read right,
  0.91-0.99 sure. Of the 18 such dice in round 14's traces of 68000-70019 (ring-pip threes,
  faces clipped at 255) none reaches the bar wrongly: 11 kept as read, 7 left `unreadable`.
- `tops_read_again`: a stacked die's top die read at its face (`stacked.top_face_centre`).
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import faint, stretched
from zonkcam.vision.geometry import STACKED
from zonkcam.vision.stacked import top_face_centre

ReadAt = Callable[..., list[Die]]  # (image, points, size, table=None) -> dice read there

UNSURE = 0.9  # a die read less sure than this is read again
AGAIN = (1.2, 1.3)  # of the dice's size: the crops it is read again at
SURE_AGAIN = 0.6  # an `unreadable` die read again takes a value only this sure in each picture:
# the misreads seen at the dice's size were 0.33-0.49 sure (the reader's `ok` starts at 0.3),
# the right read 0.79 (round 10)
SURE_STRETCHED = 0.9  # a faint face read stretched takes a value only this sure in each picture
TOP_CROP = 0.85  # of a die's size: a stack's top die is also read as a die this much smaller,
# so that the crop's margin leaves out the die below


def _sides_apart(a: tuple[float, float], b: tuple[float, float], side: float) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1])) / side


def _nearest(found: list[Die], point: tuple[float, float], side: float) -> Die | None:
    """The die of `found` nearest `point`, if within half a side of it."""
    near = [(_sides_apart(a.center, point, side), a) for a in found]
    return min((x for x in near if x[0] < 0.5), key=lambda x: x[0], default=(0.0, None))[1]


def unsure_read_again(dice: list[Die], image: np.ndarray, read_at: ReadAt, side: float,
                      table: Sequence[tuple[int, int]] | None = None,
                      settled: Sequence[Die] = ()) -> list[Die]:
    """`dice`, each lying flat (on the table or off it) and read under `UNSURE` read again
    at `AGAIN` times `side` (one call a size, for all such dice); where both reads give one
    value other than its own, with its status, it takes the surer of them (value, colour,
    confidences; its place stays). Dice in `settled` (lying as at the last settle, read then)
    are left alone."""
    unsure = [i for i, d in enumerate(dice) if d.status in ("ok", "off_table")
              and d.confidence < UNSURE and all(d is not s for s in settled)]
    if not unsure:
        return dice
    points = [dice[i].center for i in unsure]
    views: list[list[Die | None]] = []
    for f in AGAIN:
        found = read_at(image, points, f * side, table)
        # a read "not a die" gives none: each point takes the read nearest it
        views.append([_nearest(found, p, side) for p in points])
    out = list(dice)
    for k, i in enumerate(unsure):
        d, again = dice[i], [v[k] for v in views]
        if any(a is None or a.value is None for a in again):
            continue
        values = {a.value for a in again if a is not None}
        if len(values) != 1 or d.value in values:
            continue
        best = max((a for a in again if a is not None), key=lambda a: a.confidence)
        if best.status == d.status:
            out[i] = replace(d, value=best.value, color=best.color, confidence=best.confidence,
                             color_confidence=best.color_confidence)
    return out


def unreadable_read_again(dice: list[Die], pictures: Sequence[np.ndarray], read_at: ReadAt,
                          side: float, table: Sequence[tuple[int, int]] | None = None,
                          settled: Sequence[Die] = ()) -> list[Die]:
    """`dice`, each read `unreadable` (not one of `settled`, lying as at the last settle) read
    again at its centre at `side` in each of `pictures` (one call a picture, for all such
    dice); where every picture reads it as one value, `ok` and at least `SURE_AGAIN` sure, it
    takes the surest of those reads (value, colour, confidences, status; its place stays)."""
    unread = [i for i, d in enumerate(dice)
              if d.status == "unreadable" and all(d is not s for s in settled)]
    if not unread or not pictures:
        return dice
    points = [dice[i].center for i in unread]
    views = [[_nearest(read_at(image, points, side, table), p, side) for p in points]
             for image in pictures]
    out = list(dice)
    for k, i in enumerate(unread):
        again = [v[k] for v in views]
        reads = [a for a in again if a is not None and a.status == "ok" and a.value is not None
                 and a.confidence >= SURE_AGAIN]
        if len(reads) < len(again) or len({a.value for a in reads}) != 1:
            continue
        best = max(reads, key=lambda a: a.confidence)
        out[i] = replace(dice[i], value=best.value, color=best.color, confidence=best.confidence,
                         color_confidence=best.color_confidence, status=best.status)
    return out


def faint_read_again(dice: list[Die], pictures: Sequence[np.ndarray], read_at: ReadAt,
                     side: float, table: Sequence[tuple[int, int]] | None = None,
                     settled: Sequence[Die] = ()) -> list[Die]:
    """`dice`, each read `unreadable` or under `UNSURE` (lying flat, not one of `settled`) whose
    face is faint in the last of `pictures` (`faces.faint`), read again at its centre at `side`
    in each picture with its face stretched (`faces.stretched`; one call a picture, for all such
    dice); where every picture reads it as one value at least `SURE_STRETCHED` sure, it takes
    the surest of those reads' value, confidence and status (its place and colour stay: a
    stretched picture's colours are not the die's)."""
    if not pictures:
        return dice
    last = pictures[-1]
    unsure = [i for i, d in enumerate(dice) if all(d is not s for s in settled) and (
        d.status == "unreadable" or (d.status in ("ok", "off_table") and d.confidence < UNSURE))]
    faint_dice = [i for i in unsure if faint(last, dice[i].center, side)]
    if not faint_dice:
        return dice
    points = [dice[i].center for i in faint_dice]
    views = [[_nearest(read_at(stretched(image, points, side), points, side, table), p, side)
              for p in points] for image in pictures]
    out = list(dice)
    for k, i in enumerate(faint_dice):
        reads = [a for v in views if (a := v[k]) is not None and a.value is not None
                 and a.status in ("ok", "off_table") and a.confidence >= SURE_STRETCHED]
        if len(reads) < len(views) or len({a.value for a in reads}) != 1:
            continue
        best = max(reads, key=lambda a: a.confidence)
        out[i] = replace(dice[i], value=best.value, confidence=best.confidence, status=best.status)
    return out


def tops_read_again(dice: list[Die], quorum: list[list[Die]], pictures: Sequence[np.ndarray],
                    read_at: ReadAt, side: float) -> list[Die]:
    """Stacked dice read again at their top die's face (`stacked.top_face_centre`) in each of
    the quorum's `pictures`, as a die of the dice's size and of `TOP_CROP` of it; these and the
    `quorum`'s own reads of the die vote, and a value given more often than the one voted
    replaces it. Each view fails its own way: the proposer's crop takes in the sliver of the
    die below (a five read as a four); at the face, a crop of a die's size can take in a pip
    of the die below at its margin (a one read as a two); a narrower one can lose a corner pip
    or take in the die below's edge (a four read as a two). Two views agreeing outvote the
    third (benchmarks/README.md has the throws)."""
    out = []
    for d in dice:
        if d.status == "stacked":
            others = [o.center for o in dice if o is not d]
            tops = [(image, top) for image in pictures
                    if (top := top_face_centre(image, d.center, side, others)) is not None]
            again = [a for image, top in tops for size in (side, TOP_CROP * side)
                     for a in read_at(image, [top], size)[:1] if a.value is not None]
            before = [o for reading in quorum for o in reading
                      if o.value is not None and _sides_apart(o.center, d.center, side) < STACKED]
            votes = Counter(a.value for a in again + before)
            best = max(votes, key=votes.__getitem__, default=d.value)
            if votes[best] > votes[d.value]:
                # the surest read of that value: the quorum's own, when no view again gave it
                # (a die the cocked test took has no value; the top face can go unfound)
                surest = [a for a in again if a.value == best] or \
                    [o for o in before if o.value == best]
                a = max(surest, key=lambda a: a.confidence)
                d = replace(d, value=a.value, color=a.color, confidence=a.confidence,
                            color_confidence=a.color_confidence)
        out.append(d)
    return out
