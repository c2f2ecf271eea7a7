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
    gains = white_balance_gains(image)
    samples: dict[str, list[Body]] = {}
    for die, name in zip(dice, names, strict=True):
        size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
        patch = patch_at(image, die.center[0], die.center[1], size)
        samples.setdefault(name, []).append(body_lab(patch, gains))
    return from_bodies(set_name, samples)


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
