"""`zonkcam calibrate-dice`: measure a dice set's colours under the table's own light."""
from __future__ import annotations

import numpy as np
from zonkcam.vision.colors import (
    CALIBRATED_MAX_DISTANCE,
    Body,
    DiceSet,
    body_lab,
    central_body,
    pooled_modes,
    white_balance_gains,
)
from zonkcam.vision.dice import Die
from zonkcam.vision.faces import patch_at


class CalibrationError(Exception):
    """The picture does not show the dice that were named."""


def calibrate(reader, image: np.ndarray, names: list[str], set_name: str) -> DiceSet:
    """A dice set from one picture of dice laid left to right in the order of `names`.

    A name given several times (red, red, white, ...) gets the median of its dice's body
    colours, which evens out shading across the row, less a marbled die whose body read as its
    swirl, and the two modes of their bodies (`reference`).
    """
    dice = sorted(reader.read(image).dice, key=lambda d: d.center[0])
    if len(dice) != len(names):
        raise CalibrationError(
            f"found {len(dice)} dice in the picture but --colors names {len(names)}; lay out "
            "exactly the named dice, apart from each other, and try again")
    odd = odd_one_out(dice)
    if odd:
        raise CalibrationError(
            f"die {odd[0] + 1} from the left {odd[1]}: the reader may have taken something else "
            "for a die and missed one; lay out the dice on a plain surface, apart from each other, "
            "in one row, and try again")
    gains = white_balance_gains(image)
    samples: dict[str, list[Body]] = {}
    for die, name in zip(dice, names, strict=True):
        size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
        patch = patch_at(image, die.center[0], die.center[1], size)
        samples.setdefault(name, []).append(body_lab(patch, gains))
    return from_bodies(set_name, samples)


# A row of one set's dice: each die's size within these times the others' median, and its centre
# within `ROW_REACH` of that median size off the line through the others. A phantom (a mark, a
# shadow) with a die missed keeps the count right but shifts every name after it.
SIZE_RANGE = (0.6, 1.6)
ROW_REACH = 1.0


def odd_one_out(dice: list[Die]) -> tuple[int, str] | None:
    """The first die (left to right) unlike the row of the others, and how; None when all fit."""
    sizes = np.array([max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice], np.float64)
    xy = np.array([d.center for d in dice], np.float64)
    for i in range(len(dice)):
        others = np.delete(np.arange(len(dice)), i)
        if not len(others):
            return None
        size = float(np.median(sizes[others]))
        if not SIZE_RANGE[0] * size <= sizes[i] <= SIZE_RANGE[1] * size:
            return i, f"is {sizes[i] / size:.1f} times the size of the others"
        if len(others) >= 2 and np.ptp(xy[others, 0]) > 0:
            slope, offset = np.polyfit(xy[others, 0], xy[others, 1], 1)
            if abs(xy[i, 1] - (slope * xy[i, 0] + offset)) > ROW_REACH * size:
                return i, "is out of the row of the others"
    return None


def reference(bodies: list[Body]) -> tuple[tuple[float, float, float], np.ndarray]:
    """One colour of a set from its dice's bodies: the median of those that agree with their
    main mode (`colors.central_body`), and their pooled modes."""
    modes = pooled_modes([b.modes() for b in bodies])
    m = central_body(np.array([np.asarray(b) for b in bodies]), modes)
    return (float(m[0]), float(m[1]), float(m[2])), modes


def from_bodies(set_name: str, samples: dict[str, list[Body]], max_distance: float | None = None
                ) -> DiceSet:
    """A calibrated set from the bodies of each colour's dice."""
    refs = {n: reference(b) for n, b in samples.items()}
    return DiceSet(set_name, {n: r[0] for n, r in refs.items()},
                   CALIBRATED_MAX_DISTANCE if max_distance is None else max_distance,
                   {n: r[1] for n, r in refs.items()})
