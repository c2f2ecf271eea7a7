"""Typed events of a throw and a turn. The hits layer and the display consume these.

Events are facts ("three sixes were thrown"), not verdicts: whether a fact earns a hit is
decided by the game layer from the ruleset.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    type: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


# --- facts about one throw -------------------------------------------------------------


@dataclass(frozen=True)
class StraightThrown(Event):
    type: ClassVar[str] = "straight"
    name: str
    faces: tuple[int, ...]
    points: int


@dataclass(frozen=True)
class ColoredPairs(Event):
    type: ClassVar[str] = "colored_pairs"
    points: int


@dataclass(frozen=True)
class Devil(Event):
    """Three 6s in one throw (wheaton's DEVIL HIT)."""

    type: ClassVar[str] = "devil"


@dataclass(frozen=True)
class Social(Event):
    """Four of a kind in one throw (albany: every player gets a hit)."""

    type: ClassVar[str] = "social"
    face: int


@dataclass(frozen=True)
class CourtesyHit(Event):
    """Three of a kind of the lynch pin plus both dice of one colour pair (albany)."""

    type: ClassVar[str] = "courtesy_hit"
    face: int
    pair_color: str


@dataclass(frozen=True)
class Colors(Event):
    """Three of a kind in three different colours (colors6 COLORS)."""

    type: ClassVar[str] = "colors"
    face: int


@dataclass(frozen=True)
class SixOfAKind(Event):
    """Six of a kind (detroit: the thrower may make a permanent rule)."""

    type: ClassVar[str] = "six_of_a_kind"
    face: int


@dataclass(frozen=True)
class FiveOnes(Event):
    """Five 1s in one throw (wheaton: 10,000 and the game is won at once)."""

    type: ClassVar[str] = "five_ones"


# --- turn events ------------------------------------------------------------------------


@dataclass(frozen=True)
class Kept(Event):
    type: ClassVar[str] = "kept"
    dice: tuple[int, ...]
    points: int
    combos: tuple[str, ...]
    turn_total: int


@dataclass(frozen=True)
class ThousandInThrow(Event):
    """A keep worth 1000 or more from one throw (detroit: one B per 1000)."""

    type: ClassVar[str] = "thousand_in_throw"
    count: int
    points: int


@dataclass(frozen=True)
class SlimPickins(Event):
    """Every die of the turn so far scored one at a time as a 1 or a 5 (colors6)."""

    type: ClassVar[str] = "slim_pickins"
    count: int
    complete: bool


@dataclass(frozen=True)
class HotDice(Event):
    """Every die has scored; all are thrown again (vanna, limbo, hot dice)."""

    type: ClassVar[str] = "hot_dice"
    mark: str
    turn_total: int
    mandatory: bool


@dataclass(frozen=True)
class Zonked(Event):
    """A throw with nothing to keep ended the turn; `kind` is zonk, bloades or vanna."""

    type: ClassVar[str] = "zonk"
    kind: str
    mark: str
    dice_thrown: int
    full_throw: bool  # every die of the set was thrown (six-die zonk, train wreck)
    lost_points: int


@dataclass(frozen=True)
class Banked(Event):
    type: ClassVar[str] = "banked"
    points: int
    opening: bool  # this bank opened / dialled the player in


@dataclass(frozen=True)
class Spazzed(Event):
    type: ClassVar[str] = "spaz"
    reason: str
    mark: str
    lost_points: int
    counts_as_zonk: bool
    skip_turns: int  # further turns the player loses


@dataclass(frozen=True)
class Knocked(Event):
    """A kept die was knocked and the ruleset lets the turn go on (albany)."""

    type: ClassVar[str] = "knocked"
