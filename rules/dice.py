"""Dice as the rules see them: a face value and, when the camera knows it, a colour."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Die(NamedTuple):
    value: int
    color: str | None = None

    def __str__(self) -> str:
        return f"{self.color}:{self.value}" if self.color else str(self.value)


def make_dice(values: Sequence[int], colors: Sequence[str | None] | None = None) -> tuple[Die, ...]:
    """Dice from values (and colours, one per die); ValueError says what is wrong."""
    if colors is not None and len(colors) != len(values):
        raise ValueError(f"{len(colors)} colours for {len(values)} dice")
    dice = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise ValueError(f"die {i + 1}: {v!r} is not a face value 1-6")
        dice.append(Die(v, colors[i] if colors else None))
    return tuple(dice)


def parse_die(token: str) -> Die:
    """``"5"`` or ``"red:5"`` -> Die."""
    color, _, value = token.rpartition(":")
    if not value.isdigit() or not 1 <= int(value) <= 6:
        raise ValueError(f"{token!r} is not a die (a face 1-6, optionally colour:face)")
    return Die(int(value), color.lower() or None)


def counts(dice: Sequence[Die] | Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face 1..6."""
    c = [0] * 6
    for d in dice:
        c[(d.value if isinstance(d, Die) else d) - 1] += 1
    return tuple(c)
