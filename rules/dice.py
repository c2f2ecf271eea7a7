"""Dice as the rules see them: a face value and, when the camera knows it, a colour."""
from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

COLOR_NAME = re.compile(r"[a-z][a-z0-9_-]{0,23}")  # a word, as dice-set files and the log write it


class DieFace(NamedTuple):
    """A die as the rules see it: the face it shows and, where known, its colour's name. (The
    camera's record of a die, with its box and confidence, is `zonkcam.vision.dice.Die`.)"""

    value: int
    color: str | None = None

    def __str__(self) -> str:
        return f"{self.color}:{self.value}" if self.color else str(self.value)


def make_dice(values: Sequence[int], colors: Sequence[str | None] | None = None) -> tuple[DieFace, ...]:
    """Dice from values (and colours, one per die); ValueError says what is wrong."""
    if colors is not None and len(colors) != len(values):
        raise ValueError(f"{len(colors)} colours for {len(values)} dice")
    dice = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise ValueError(f"die {i + 1}: {v!r} is not a face value 1-6")
        dice.append(DieFace(v, color_name(colors[i]) if colors else None))
    return tuple(dice)


def color_name(color: object) -> str | None:
    """A die's colour as the log stores it (lower case), or None; ValueError if not a name."""
    if color is None or color == "":
        return None
    if not isinstance(color, str) or not COLOR_NAME.fullmatch(color.lower()):
        raise ValueError(f"{color!r} is not a colour name (a word: red, white, dark-blue)")
    return color.lower()


def set_color(color: object, allowed: Collection[str], who: str = "this set") -> str | None:
    """`color_name(color)`, and ValueError if it is not one of the set's: `allowed` is the
    ruleset's `dice_colors` (none: the rules do not look at colours, so any name goes). No
    colour (the camera could not tell it) is always allowed. `who` names the set (a variant)."""
    name = color_name(color)
    if allowed and name is not None and name not in allowed:
        known = ", ".join(dict.fromkeys(allowed))
        raise ValueError(f"{name!r} is not a colour of {who}'s dice ({known})")
    return name


def check_colors(dice: Iterable[DieFace], allowed: Collection[str], who: str = "this set") -> None:
    """ValueError for the first die whose colour is not one of the set's (`set_color`)."""
    for i, d in enumerate(dice):
        try:
            set_color(d.color, allowed, who)
        except ValueError as exc:
            raise ValueError(f"die {i + 1}: {exc}") from None


def parse_die(token: str) -> DieFace:
    """``"5"`` or ``"red:5"`` -> DieFace."""
    color, _, value = token.rpartition(":")
    if not value.isdigit() or not 1 <= int(value) <= 6:
        raise ValueError(f"{token!r} is not a die (a face 1-6, optionally colour:face)")
    return DieFace(int(value), color_name(color))


def counts(dice: Sequence[DieFace] | Sequence[int]) -> tuple[int, ...]:
    """How many dice show each face 1..6."""
    c = [0] * 6
    for d in dice:
        c[(d.value if isinstance(d, DieFace) else d) - 1] += 1
    return tuple(c)
