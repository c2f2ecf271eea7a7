"""`zonkcam calibrate-dice`: measure a dice set's colours under the table's own light."""
from __future__ import annotations

import numpy as np
from zonkcam.vision.colors import DiceSet, body_lab, white_balance_gains
from zonkcam.vision.faces import patch_at


class CalibrationError(Exception):
    """The picture does not show the dice that were named."""


def calibrate(reader, image: np.ndarray, names: list[str], set_name: str) -> DiceSet:
    """A dice set from one picture of dice laid left to right in the order of `names`.

    A name given several times (red, red, white, ...) gets the mean of its dice, which evens
    out shading across the row.
    """
    dice = sorted(reader.read(image).dice, key=lambda d: d.center[0])
    if len(dice) != len(names):
        raise CalibrationError(
            f"found {len(dice)} dice in the picture but --colors names {len(names)}; lay out "
            "exactly the named dice, apart from each other, and try again")
    gains = white_balance_gains(image)
    samples: dict[str, list[np.ndarray]] = {}
    for die, name in zip(dice, names, strict=True):
        size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
        patch = patch_at(image, die.center[0], die.center[1], size)
        samples.setdefault(name, []).append(body_lab(patch, gains))
    means = {n: np.mean(s, axis=0) for n, s in samples.items()}
    colors = {n: (float(m[0]), float(m[1]), float(m[2])) for n, m in means.items()}
    return DiceSet(set_name, colors)
