"""Named rule hooks: the rules that are not table-shaped.

A ruleset lists the hooks it uses by name (``hooks = ["devil", "social"]``). Throw hooks
see the dice of one throw and return events; keep hooks see the turn's keeps so far.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

from zonkcam.rules.dice import DieFace
from zonkcam.rules.events import (
    Colors,
    CourtesyHit,
    Devil,
    Event,
    FiveOnes,
    SixOfAKind,
    SlimPickins,
    Social,
    ThousandInThrow,
)


class DiceSet(Protocol):
    """What a hook reads of its ruleset; a Protocol, so that `ruleset` (which checks hook
    names against `NAMES`) and this module do not import each other."""

    @property
    def dice(self) -> int: ...
    @property
    def dice_colors(self) -> tuple[str, ...]: ...


ThrowHook = Callable[[DiceSet, Sequence[DieFace], tuple[int, ...]], list[Event]]
# (ruleset, keeps so far this turn as (dice values, points) pairs) -> events of the last keep
KeepHook = Callable[[DiceSet, Sequence[tuple[tuple[int, ...], int]]], list[Event]]


def devil(ruleset: DiceSet, dice: Sequence[DieFace], c: tuple[int, ...]) -> list[Event]:
    return [Devil()] if c[5] >= 3 else []


def social(ruleset: DiceSet, dice: Sequence[DieFace], c: tuple[int, ...]) -> list[Event]:
    """A1: four of a kind (001:18); five of a kind is a line of its own (001:19), no social."""
    return [Social(f) for f in range(1, 7) if c[f - 1] == 4]


def five_ones(ruleset: DiceSet, dice: Sequence[DieFace], c: tuple[int, ...]) -> list[Event]:
    return [FiveOnes()] if c[0] >= 5 else []


def six_of_a_kind(ruleset: DiceSet, dice: Sequence[DieFace], c: tuple[int, ...]) -> list[Event]:
    return [SixOfAKind(f) for f in range(1, 7) if c[f - 1] >= 6]


def courtesy_hit(ruleset: DiceSet, dice: Sequence[DieFace], c: tuple[int, ...]) -> list[Event]:
    """The lynch pin (the set's one die of its colour) with both dice of a pair colour."""
    set_colors = Counter(ruleset.dice_colors)
    lynch_pins = {color for color, n in set_colors.items() if n == 1}
    pairs = {color for color, n in set_colors.items() if n == 2}
    events: list[Event] = []
    for face in range(1, 7):
        if not 3 <= c[face - 1] <= 4:  # five of a kind is its own line (001:19), no courtesy
            continue
        shown = Counter(d.color for d in dice if d.value == face)
        if not lynch_pins & shown.keys():
            continue
        events.extend(CourtesyHit(face, p) for p in sorted(pairs) if shown[p] >= 2)
    return events


def colors(ruleset: DiceSet, dice: Sequence[DieFace], c: tuple[int, ...]) -> list[Event]:
    return [
        Colors(face)
        for face in range(1, 7)
        if len({d.color for d in dice if d.value == face and d.color}) >= 3
    ]


def thousand_in_throw(ruleset: DiceSet, keeps: Sequence[tuple[tuple[int, ...], int]]) -> list[Event]:
    points = keeps[-1][1]
    return [ThousandInThrow(points // 1000, points)] if points >= 1000 else []


def slim_pickins(ruleset: DiceSet, keeps: Sequence[tuple[tuple[int, ...], int]]) -> list[Event]:
    """Progress while every keep this turn was a single 1 or 5; complete at all dice."""
    if not all(len(d) == 1 and d[0] in (1, 5) for d, _ in keeps):
        return []
    n = len(keeps)
    return [SlimPickins(n, n == ruleset.dice)] if n <= ruleset.dice else []


THROW_HOOKS: dict[str, ThrowHook] = {
    "devil": devil,
    "social": social,
    "five_ones": five_ones,
    "six_of_a_kind": six_of_a_kind,
    "courtesy_hit": courtesy_hit,
    "colors": colors,
}
KEEP_HOOKS: dict[str, KeepHook] = {
    "thousand_in_throw": thousand_in_throw,
    "slim_pickins": slim_pickins,
}
NAMES = frozenset(THROW_HOOKS) | frozenset(KEEP_HOOKS)
