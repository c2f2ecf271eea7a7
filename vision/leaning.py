"""A die leaning on another, or against one, and the dice beside it: one die or two, flat
or cocked (the stream's checks of the dice the recognizer read twice, or missed).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
from zonkcam.vision.cocked import SLANT, looks_cocked, side_slant, top_face_ratio
from zonkcam.vision.dice import Die
from zonkcam.vision.geometry import LEAN_REACH, TWICE, same_colour
from zonkcam.vision.silhouette import silhouette
from zonkcam.vision.table import Polygon, inside

APART = 1.0  # die sides between the centres of two dice lying flat, at least
WHOLE = 0.8  # of a face's area: a die showing this much of its own lies whole
UNDER = 0.5  # die sides from a cocked die's read that a die it leans over is read, at least
READ_COCKED = 0.5  # die sides from a changed spot that a die read cocked in a picture of the
# quorum lies, at most, for the spot to be that die (the change's centre is off the top face's
# by its side and shadow: 0.3 sides, 75014 t6)


def sides_to(point: tuple[float, float], dice: list[Die], side: float) -> list[float]:
    """Distances from `point` to each die's centre, in die sides."""
    return [float(np.hypot(point[0] - d.center[0], point[1] - d.center[1])) / side for d in dice]


def apart(d: Die, dice: list[Die], side: float) -> bool:
    """Whether die `d`, read at a changed spot, is no die of `dice` read again: `APART` from
    each lying flat, `UNDER` from each cocked (a leaning die's top face lies over part of the
    die it leans over, nearer than two flat dice lie: 0.66 sides, 75011 t0; its side is no
    spot read, `judge_spots`)."""
    return all(gap >= (UNDER if o.status == "cocked" else APART)
               for gap, o in zip(sides_to(d.center, dice, side), dice, strict=True))


def leaning_read_twice(dice: list[Die], extra: int, side: float,
                       image: np.ndarray | None = None) -> list[Die]:
    """`dice` less up to `extra` dice read flat within `LEAN_REACH` of a die read cocked, of
    its colour (or one of them not named), nearest first: when more dice are read than are in
    play, a die read lying flat at its top face and cocked at its side is one die, leaning:
    its two reads lie farther apart than one die's two reads when neither is cocked. So is a
    pair read cocked, less the surer (74013 t5: a six's side, a two, read 0.9 sides from its
    top face, and called cocked too, its top face narrow). With the `image`, then also a
    leaning die read flat twice (`top_and_side`)."""
    if extra <= 0:
        return dice
    gaps = sorted((sides_to(c.center, [d], side)[0], i) for c in dice if c.status == "cocked"
                  for i, d in enumerate(dice) if d is not c and same_colour(c, d) and (
                      d.status == "ok" or (d.status == "cocked" and d.confidence < c.confidence)))
    drop = list(dict.fromkeys(i for gap, i in gaps if gap < LEAN_REACH))[:extra]
    out = [d for i, d in enumerate(dice) if i not in drop]
    return out if image is None else top_and_side(out, extra - len(drop), image, side)


def top_and_side(dice: list[Die], extra: int, image: np.ndarray, side: float) -> list[Die]:
    """`dice` with up to `extra` pairs of dice read flat `TWICE`..`LEAN_REACH` sides apart, of
    one colour, made one die, cocked, when the surer, looked at with the other left out,
    looks cocked: when more dice are read than are in play, a leaning die's top face and its
    side (which shows its pips) read as two dice lying flat. Two dice lying side by side make
    one silhouette too long for one die (`cocked.TWO_DICE_ASPECT`)."""
    out = list(dice)
    for _ in range(extra):
        pair = next(((i, j) for i, a in enumerate(out) for j, b in enumerate(out)
                     if i != j and a.status == b.status == "ok" and a.confidence >= b.confidence
                     and same_colour(a, b) and TWICE <= sides_to(a.center, [b], side)[0] < LEAN_REACH
                     and looks_cocked(image, a.center, side,
                                      [o.center for k, o in enumerate(out) if k not in (i, j)])),
                    None)
        if pair is None:
            break
        i, j = pair
        out[i] = replace(out[i], value=None, status="cocked")
        del out[j]
    return out


def whole_apart(d: Die, spot: tuple[float, float], dice: list[Die], image: np.ndarray,
                side: float) -> bool:
    """Whether die `d`, cut off from the other `dice` and from a changed `spot` beside it,
    covers the table as a whole face does (`WHOLE`): it lies flat, and the spot is a die
    leaning on it (over a corner of it, a die's side away), not the rest of it: its side, or
    the top of a stack whose sliver it is (a sliver covers well under a face)."""
    others = [o.center for o in dice if o is not d] + [spot]
    found = silhouette(image, d.center, side, others)
    return found is not None and found.area >= WHOLE


def leans_over(d: Die, spot: tuple[float, float], dice: list[Die], image: np.ndarray,
               side: float) -> bool:
    """Whether die `d`, read flat, is a die leaning over one lying flat at a changed `spot`
    that looks cocked: the recognizer read the leaning die whole (its top face and side in
    one box) and missed the die under its side, whose face the side covers in part. Then,
    each cut off from the other, both look cocked, and the step from `d`'s top face to its
    side is square across it while the step the side makes on the flat die's face is askew
    (`cocked.SLANT`), as `cocked.mark_cocked` tells two dice read cocked apart (72005 t2: a
    leaning four read flat, the two under its side called cocked)."""
    others = [o.center for o in dice if o is not d]
    if not looks_cocked(image, d.center, side, [*others, spot]):
        return False
    ours, theirs = (side_slant(image, c, side, [o for o in [*others, spot, d.center] if o != c])
                    for c in (d.center, spot))
    return ours is not None and ours <= SLANT and (theirs is None or theirs > SLANT)


def cocked_beside(dice: list[Die], found: list[Die], image: np.ndarray,
                  side: float) -> list[Die]:
    """`dice` with those read flat within `LEAN_REACH` of a die just `found` marked cocked
    when, cut off from it, they look cocked: the recognizer missed the die one leans on,
    and the two made one silhouette, whose darker part was the other die's colour (a yellow
    die leaning on a green one on green felt)."""
    centres = [d.center for d in dice + found]
    out = []
    for d in dice:
        if d.status == "ok" and min(sides_to(d.center, found, side), default=LEAN_REACH) \
                < LEAN_REACH and looks_cocked(image, d.center, side,
                                              [c for c in centres if c != d.center]):
            d = replace(d, value=None, status="cocked")
        out.append(d)
    return out


def flat_apart(d: Die, value: int | None, spot: tuple[float, float], dice: list[Die],
               image: np.ndarray, side: float) -> Die | None:
    """Die `d`, called cocked, lying flat after all, when cut off from the changed `spot`
    beside it its silhouette is square: a die touching it (the spot) made it look long.
    None when it is not square (the spot is its side) or no value was read for it. Cut
    off at halfway: a flat die partly in a leaning die's shadow has a face past it lit
    as a side is. `value`: the value read for it before the cocked test took
    it."""
    others = [o.center for o in dice if o is not d] + [spot]
    if value is None or top_face_ratio(image, d.center, side, others, sides=False) != 1.0:
        return None
    return replace(d, value=value, status="ok")


Spot = tuple[float, float]


def _gaps(point: Spot, centres: Sequence[Spot], side: float) -> list[float]:
    return [float(np.hypot(point[0] - c[0], point[1] - c[1])) / side for c in centres]


def _across(centre: Spot, one: Spot, other: Spot) -> bool:
    """Whether spots `one` and `other` lie on opposite sides of a die at `centre` (over a
    right angle apart, seen from it)."""
    return (one[0] - centre[0]) * (other[0] - centre[0]) + \
        (one[1] - centre[1]) * (other[1] - centre[1]) < 0


def judge_spots(spots: Sequence[Spot], dice: list[Die], image: np.ndarray, side: float,
                table: Polygon | None, values: Mapping[Spot, int], short: bool
                ) -> tuple[list[Die], list[Die], list[Spot]]:
    """What each changed `spot` holds that no die read explains (the stream's
    `_with_missed`, whose docstring says why): (`dice`, some now cocked or flat, dice `found`
    cocked at spots, spots `elsewhere` to be read as dice lying flat). `values`: the values
    read for dice before the cocked test took them (by centre); `short`: dice are short of
    the count after a roll and none was seen leaving."""
    dice, found, elsewhere = list(dice), [], []
    by: dict[int, Spot] = {}  # the spot each die read flat was judged cocked by, here
    dropped = [c for c in values if min(sides_to(c, dice, side), default=np.inf) >= READ_COCKED]
    for x, y in spots:
        gaps = sides_to((x, y), dice, side)
        leaning = next((i for i, (g, d) in enumerate(zip(gaps, dice, strict=True))
                        if g < LEAN_REACH and d.status == "cocked"), None)
        if leaning is not None and short and leaning in by and \
                _across(dice[leaning].center, by[leaning], (x, y)) and \
                whole_apart(dice[leaning], (x, y), dice, image, side):
            # a leaning die shows one side: a spot across it from the one it was judged cocked
            # by, cut off from which it still covers a face (its top face and side), is a die
            # of its own, with a die short (80004 t10: a flat five touching a cocked one's top
            # face, away from its side; both spots looked to be under a leaning die's side).
            # Cut off from its side, a top face covers less (75011 t0: a die under it)
            elsewhere.append((x, y))
            continue
        if leaning is not None:
            flat = flat_apart(dice[leaning], values.get(dice[leaning].center), (x, y), dice,
                              image, side)
            if flat is None:
                continue  # the spot is the cocked die's side
            dice[leaning] = flat
            # under `TWICE` from it, with a die short, the sliver of a die under it: a stack
            # whose top die was called cocked (79009 t0), as under a die read whole (74018 t6)
            if short and gaps[leaning] < TWICE:
                continue
        # a die read cocked in a picture of the quorum, which the vote dropped, lies at the
        # spot: the cocked test at the change's centre, its shadow with it, can miss it (75014
        # t6: 1.25 at the spot, 0.61-0.72 at most points 2 px round it, with the model reader)
        cocked = (table is None or inside(table, x, y)) and (
            any(g < READ_COCKED for g in _gaps((x, y), dropped, side))
            or looks_cocked(image, (x, y), side, [d.center for d in dice] +
                            [p for p in spots if short and p != (x, y)]))
        # a cocked spot up to a leaning die's reach from a die read flat may be part of it
        # (its side, or the top of a stack whose sliver was read), unless that die is whole
        reach = LEAN_REACH if cocked else APART
        part_of = None if leaning is not None else \
            next((i for i, g in enumerate(gaps) if g < reach), None)
        # (with a die short, the spot under a leaning die's top face need not look cocked: a
        # dark die on the dark floor shows too little of itself, 75011 t0)
        if part_of is not None and (cocked or short) and dice[part_of].status == "ok" and \
                leans_over(dice[part_of], (x, y), dice, image, side):
            dice[part_of] = replace(dice[part_of], value=None, status="cocked")
            by[part_of] = (x, y)
            elsewhere.append((x, y))  # the die it leans over, lying flat
            continue
        if part_of is not None and (cocked or short) and dice[part_of].status == "ok" and \
                whole_apart(dice[part_of], (x, y), dice, image, side):
            # a die leaning on the one read there, which lies flat; under `TWICE` from it, the
            # sliver of a die under it or its shadow, which a die short lets in (74018 t6)
            if short and gaps[part_of] < TWICE:
                continue
            part_of, cocked = None, True
        if part_of is not None:
            if cocked and dice[part_of].status == "ok":
                dice[part_of] = replace(dice[part_of], value=None, status="cocked")
                by[part_of] = (x, y)
        elif cocked:
            half = round(side / 2)
            box = (round(x) - half, round(y) - half, round(x) + half, round(y) + half)
            found.append(Die(None, None, 0.0, 0.0, box, (x, y), 0.0, "cocked"))
        else:
            elsewhere.append((x, y))
    return dice, found, elsewhere
