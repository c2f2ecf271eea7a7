"""Small helpers shared by the rules tests."""
from __future__ import annotations

from functools import cache

from zonkcam.rules import Scorer, ThrowScore, Turn, load_variant, make_dice


@cache
def scorer(variant: str) -> Scorer:
    return Scorer(load_variant(variant))


def score(variant: str, *values: int, colors: str | None = None) -> ThrowScore:
    return scorer(variant).score(make_dice(values, colors.split(",") if colors else None))


def best(variant: str, *values: int, colors: str | None = None) -> int:
    option = score(variant, *values, colors=colors).best
    return option.points if option else 0


def types(events) -> list[str]:
    return [e.type for e in events]


def turn(variant: str, opened: bool = True) -> Turn:
    return Turn(load_variant(variant), opened=opened)


def dice(*values: int, colors: str | None = None):
    return make_dice(values, colors.split(",") if colors else None)
