"""Dice as the rules see them: a face value and, when the camera knows it, a colour."""
from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

COLOR_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")  # a word, as dice-set files and the log write it


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
        dice.append(Die(v, color_name(colors[i]) if colors else None))
    return tuple(dice)


def color_name(color: object) -> str | None:
    """A die's colour as the log stores it (lower case), or None; ValueError if not a name."""
    if color is None or color == "":
        return None
    if not isinstance(color, str) or not COLOR_NAME.fullmatch(color.lower()):
        raise ValueError(f"{color!r} is not a colour name (a word: red, white, dark-blue)")
    return color.lower()


def parse_die(token: str) -> Die:
    """``"5"`` or ``"red:5"`` -> Die."""
    color, _, value = token.rpartition(":")
    if not value.isdigit() or not 1 <= int(value) <= 6:
        raise ValueError(f"{token!r} is not a die (a face 1-6, optionally colour:face)")
    return Die(int(value), color_name(color))


def counts(dice: Sequence[Die] | Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face 1..6."""
    c = [0] * 6
    for d in dice:
        c[(d.value if isinstance(d, Die) else d) - 1] += 1
    return tuple(c)
