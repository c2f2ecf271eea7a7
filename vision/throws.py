"""Kept vs thrown: turn successive settled readings into throw events.

Each settle is compared with the table as it was at the previous settle:

- dice at the same place (within `match_tol` of a die's size, same value, colour and turn) are
  *the same die*: the player left it there (kept);
- dice that vanished were picked up (`removed`); they are collected over every settle since the
  last throw, so a pause between picking up and throwing changes nothing;
- dice that moved or appeared are the new throw (`thrown`).

A settle with nothing new (a nudged table, a light change, a hand that hovered and left, dice
being picked up) is not a throw, unless dice were picked up, a die was seen rolling where it
could leave the picture (near its edge, `left`) and fewer dice lie on the table than are in
play: every die thrown left the table (`lost`). A player holding dice picked up is no such
thing. Hidden dice
that reappear where they were are the same dice.
Once a pick-up has been seen, a remaining die that moved a little (`nudge_radius` die sizes) with
the same face is a kept die that was knocked, and the next throw carries `knocked`; so does a
throw after which a kept die no longer lies as it lay (`shifted`, the caller's picture check: a
thrown die nudged it a tenth of a side or turned it a few degrees). Dice slid into the keep
zone are kept, not knocked.

Flags on a throw: `spaz` (a die off the table, or a die count that does not add up), `lost`
(fewer dice on the table than in play: a die left the table or is hidden), `knocked`,
`not_thrown` (no rolling motion was seen: dice placed or slid), `cocked`, `stacked`. A stacked
die stands for two dice (one hides under it) when counting.

This module knows nothing of scoring: the rules decide what the flags cost.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from zonkcam.vision.dice import Die
from zonkcam.vision.geometry import count_dice, die_size, distance, same_colour
from zonkcam.vision.table import TableConfig, inside

FLAGS = ("spaz", "lost", "knocked", "not_thrown", "cocked", "stacked")
STILL = 0.15  # of the match tolerance: a die this close to where one lay has not moved
AGAINST = 1.5  # die sizes between the centres of a die and one leaning on it, at most
KNOCK_REACH = 0.6  # die sizes a kept die a thrown die knocked lies from where it lay, at most
SLID_REACH = 1.5  # die sizes a hand picking dice up slides a kept die, at most
Kind = Literal["baseline", "throw", "ignored", "pickup", "nudge", "none"]


@dataclass(frozen=True, slots=True)
class ThrowEvent:
    """One settled throw."""

    t: float  # stream time of the frame the reading was accepted on, seconds
    frame: int
    thrown: list[Die]
    kept: list[Die]
    removed: list[Die]
    flags: list[str]
    latency_ms: float = 0.0  # last moving frame → event, minus the settle window
    quorum: bool = True  # False: the reads never agreed, the reading has low confidence

    def to_json(self) -> dict:
        return {
            "t": round(self.t, 3),
            "frame": self.frame,
            "thrown": [d.to_json() for d in self.thrown],
            "kept": [d.to_json() for d in self.kept],
            "removed": [d.to_json() for d in self.removed],
            "flags": list(self.flags),
            "latency_ms": round(self.latency_ms, 1),
            "quorum": self.quorum,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: Kind
    thrown: list[Die] = field(default_factory=list)
    kept: list[Die] = field(default_factory=list)
    removed: list[Die] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)


def _same_face(a: Die, b: Die, colours: bool = False) -> bool:
    """Same value and status, and with `colours` the same colour where both are named.

    Colour is named less surely than the value (shadows, a hand's glow), so at a settle with no
    roll a die whose colour name flickered is still the die that lay there; after a roll the
    colour tells a thrown die from one that lay near where it landed.
    """
    if a.value != b.value or a.status != b.status:
        return False
    return not colours or same_colour(a, b)


def _angle_close(a: Die, b: Die, tol: float | None) -> bool:
    if tol is None:
        return True
    d = abs(a.angle - b.angle) % 90
    return min(d, 90 - d) <= tol


class ThrowTracker:
    """Compares each settled reading with the table before it and reports throws.

    Set `expecting` from the app layer: a throw-like settle while no throw is expected updates
    the tracker's picture of the table but produces no event.
    """

    def __init__(self, table: TableConfig | None = None, *, dice_count: int | None = None,
                 match_tol: float = 0.35, angle_tol: float | None = 20.0,
                 nudge_radius: float = 2.5, shift_max: float = 1.0) -> None:
        self.table = table
        self.dice_count = dice_count  # dice in play; learned from the throws when None
        self._count_given = dice_count is not None  # a given count is never raised by a misread
        self.match_tol = match_tol
        self.angle_tol = angle_tol
        self.nudge_radius = nudge_radius
        self.shift_max = shift_max
        self.expecting = True
        self.reset()

    def reset(self) -> None:
        """Forget the table (e.g. a new game)."""
        self._on_table: list[Die] | None = None
        self._removed: list[Die] = []  # picked up since the last throw
        self._pickup_seen = False
        self._knocked = False

    @property
    def removed(self) -> list[Die]:
        """The dice picked up since the last throw."""
        return list(self._removed)

    @property
    def on_table(self) -> list[Die]:
        """The dice on the table at the last settle, as the tracker holds them (a die lying
        still keeps its reading from before)."""
        return list(self._on_table or [])

    def settle(self, dice: list[Die], rolled: bool,
               alike: Callable[[Die, Die], bool] | None = None, *, left: bool = True,
               shifted: Callable[[Die], bool] | None = None,
               stayed: Callable[[Die], bool | None] | None = None,
               lately: Callable[[Die], bool] | None = None,
               placed: Callable[[Die], bool] | None = None) -> Outcome:
        """Account for one settled, quorum-checked reading; `rolled`: rolling motion was seen;
        `left`: a die rolling was seen where it could leave the picture (a throw whose every
        die is missing needs it). `alike(old, new)`, if the caller can tell: whether the
        picture shows die `old`, as it was last seen, where `new` lies. After a roll only such
        a die is the one that lay there, unless it lies still (`STILL`): a die picked up and
        thrown can land by its old place, turned a little. `shifted(old)`, if the caller can
        tell: whether die `old` no longer lies exactly as it lay (moved or turned).
        `stayed(old)`: whether die `old` was seen where it lay after the rolling began (a kept
        die a thrown die knocked was; one picked up was not); None where that cannot be told.
        `lately(old)`, likewise: whether it was seen there just before the rolling began or
        since (a kept die a hand pushes was; one picked up, held and thrown was not).
        `placed(new)`, likewise: whether die `new` was seen where it lies just before the
        rolling began (a kept die a hand pushed there, picking others up, was)."""
        if self._on_table is None:
            self._on_table = list(dice)
            if rolled and dice and self.expecting:
                return self._throw(dice, [], [], moved_kept=False, rolled=True)
            return Outcome("baseline")
        before = self._on_table
        size = die_size(before + dice)
        # After a roll a thrown die may lie near where another lay: the colour tells them apart.
        # Without one, no die came, so a colour named differently is the same die (see _same_face).
        # A die still lying where it lay at the last settle (within STILL) is that die, colour
        # or not: a colour name flickers from one settle to the next.
        colours = rolled
        shift = self._table_shift(before, dice, size, colours)
        tol = self.match_tol * size
        seen = alike if rolled else None
        # a die lying still is that die, as it was read, however a die leaning on it changed
        # its picture: it turns to another face only by rolling over an edge, a side's length
        # (a two read as a one, a cocked die covering a pip)
        # ...but not a die seen gone from where it lay once the rolling began (`stayed`
        # False): it was picked up, and a thrown die of its face can land on its place (the
        # demo, albany seed 7: a red six 2 px from where a red six picked up had lain)
        taken = [b for b in before if rolled and stayed is not None and stayed(b) is False]
        still, before_left, dice_left = self._lying_still(
            [b for b in before if all(b is not t for t in taken)], dice, size, shift)
        before_left += taken
        as_read = {id(new): replace(old, box=new.box, center=new.center) for old, new in still}
        dice = [as_read.get(id(d), d) for d in dice]
        still = [(old, as_read[id(new)]) for old, new in still]
        # the dice a pick-up left on the table were kept, and one a die landing against covers
        # in part looks otherwise: only a die picked up and thrown with
        # no settle between, or hidden and uncovered (`back`), must look as it did
        pairs, gone, fresh = self._match(before_left, dice_left, tol, shift, angles=True,
                                         colours=colours,
                                         alike=None if self._pickup_seen else seen)
        pairs += still
        # Dice hidden at an earlier settle (a hand resting over them) that are back in place.
        back, self._removed, fresh = self._match(self._removed, fresh, tol, shift, angles=True,
                                                 colours=colours, alike=seen)
        kept = [new for _, new in pairs + back]
        in_zone = [d for d in fresh if self._in_keep_zone(d)]
        fresh = [d for d in fresh if not self._in_keep_zone(d)]
        # Dice slid to the keep zone are some of the vanished ones, matched by face.
        slid, gone, _ = self._match(gone, in_zone, math.inf, (0.0, 0.0), angles=False,
                                    colours=colours)
        kept += in_zone
        moved: list[tuple[Die, Die]] = []
        if rolled and not self._pickup_seen:
            # picked up and thrown with no settle between: a kept die a thrown die knocked
            # is still that die, of its face and colour, turned little (a thrown die landing
            # that near where a picked-up die of its face and colour lay, turned alike, is
            # rare); within the match tolerance too, where its picture is not as it was
            # (`alike`), if another die was thrown to knock it: alone, it is the die picked
            # up and thrown, landed by its old place
            moved = self._knocked_in_one_go(gone, fresh, size, shift, stayed)
            gone = [a for a in gone if all(a is not x for x, _ in moved)]
            fresh = [b for b in fresh if all(b is not y for _, y in moved)]
            kept += [new for _, new in moved]
        if self._pickup_seen or not rolled:
            moved, gone, fresh = self._match(gone, fresh, self.nudge_radius * size, shift,
                                             angles=False, colours=colours)
            kept += [new for _, new in moved]
        if rolled:
            renamed, gone, fresh = self._seen_knocked(gone, fresh, size, shift, stayed)
            moved += renamed
            kept += [new for _, new in renamed]
        if not rolled:
            # nothing rolled: a "new" die where a vanished one lay is that die read differently
            # (a misread, a shadow), not a die placed there
            rereads, gone, fresh = self._match(gone, fresh, tol, shift,
                                               angles=False, faces=False)
            kept += [new for _, new in rereads]
            # and one a little way off, with another face, is a kept die the hand knocked
            knocked, gone, fresh = self._match(gone, fresh, self.nudge_radius * size, shift,
                                               angles=False, faces=False)
            moved += knocked
            kept += [new for _, new in knocked]
        pushed: list[tuple[Die, Die]] = []
        if rolled and fresh and self.short(dice):
            pushed, gone, fresh = self._slid(gone, fresh, size, shift, colours, lately, placed)
            moved += pushed
            kept += [new for _, new in pushed]
        self._on_table = list(dice)
        # dice picked up, a die seen rolling where it could leave the picture and none landed:
        # every die thrown left the table. A player holding dice picked up, shaking them in
        # view, is no die rolling (`motion`), and none was seen leaving (issue 34); nor is a
        # kept die the hand slid, and the hand going out may look like a die leaving. Nor is a
        # table cleared in one go with no pick-up seen before it: a hand sweeping every die up
        # and holding them is likelier than every die thrown out of view
        swept = bool(before) and len(gone) == len(before) and not self._removed
        all_lost = rolled and left and not pushed and not swept and \
            bool(self._removed or gone) and self.short(dice)
        # a kept die a thrown die knocked a little way lies where it lay, within the match
        # tolerance; only the picture tells it moved
        hit = rolled and shifted is not None and any(shifted(old) for old, _ in pairs)
        if not fresh and not all_lost:
            self._removed += gone
            self._pickup_seen |= bool(gone)
            self._knocked |= bool(moved) and self._pickup_seen
            if gone:
                return Outcome("pickup", removed=gone)
            return Outcome("nudge" if moved or slid else "none")
        return self._throw(fresh, kept, self._removed + gone,
                           moved_kept=self._knocked or bool(moved) or hit, rolled=rolled)

    def _knocked_in_one_go(self, gone: list[Die], fresh: list[Die], size: float,
                           shift: tuple[float, float],
                           stayed: Callable[[Die], bool | None] | None = None
                           ) -> list[tuple[Die, Die]]:
        """Pairs of a die gone and one that came within `KNOCK_REACH`, of its face and colour
        and turned alike: past the match tolerance, or nearer with another die thrown. A die
        gone that was not seen where it lay once the rolling began (`stayed` False) was picked
        up: a die of its face landing by its place is another. One seen there (True) was on
        the table when the dice were thrown: a die of its face by its place is it, however its
        turn was read (a one's turn is read from its outline, which a dark tray blurs)."""
        seen = [a for a in gone if stayed is not None and stayed(a) is True]
        if stayed is not None:
            gone = [a for a in gone if stayed(a) is not False]
        near, _, _ = self._match(gone, fresh, KNOCK_REACH * size, shift, angles=False,
                                 colours=True)
        near = [(a, b) for a, b in near
                if any(a is s for s in seen) or _angle_close(a, b, self.angle_tol)]
        far = [(a, b) for a, b in near if distance(a, b, shift) > self.match_tol * size]
        return near if len(fresh) > len(near) else far

    def _seen_knocked(self, gone: list[Die], fresh: list[Die], size: float,
                      shift: tuple[float, float],
                      stayed: Callable[[Die], bool | None] | None
                      ) -> tuple[list[tuple[Die, Die]], list[Die], list[Die]]:
        """`_match` of each die gone that was seen where it lay once the rolling began
        (`stayed` True) with a die of its face that came as near as a knocked die of its colour
        is looked for (`nudge_radius` once a pick-up was seen, else `KNOCK_REACH`), whatever
        its colour is named: it was on the table when the dice were thrown, so it was knocked,
        not picked up, and a die's colour name flickers (a marbled cream die named yellow,
        then ivory, knocked 0.45 of a side: 72005 t6, reported thrown and picked up). A thrown
        die of its face landing there while it is knocked farther is the same value kept."""
        if stayed is None:
            return [], gone, fresh
        seen = [a for a in gone if stayed(a) is True]
        reach = self.nudge_radius if self._pickup_seen else KNOCK_REACH
        pairs, _, fresh = self._match(seen, fresh, reach * size, shift, angles=False)
        return pairs, [a for a in gone if all(a is not x for x, _ in pairs)], fresh

    def _slid(self, gone: list[Die], fresh: list[Die], size: float,
              shift: tuple[float, float], colours: bool,
              lately: Callable[[Die], bool] | None = None,
              placed: Callable[[Die], bool] | None = None
              ) -> tuple[list[tuple[Die, Die]], list[Die], list[Die]]:
        """`_match` of every die that came with a die gone of its face within `SLID_REACH`,
        when all can be: with dice short of the count, dice that all came near where one of
        their face lay are kept dice the hand slid picking the others up, which it holds (in a
        sleeve of the table's colour, the die sliding alone is a die rolling, and the hand
        going out by the frame's edge a die leaving). Thrown dice that all land so, while
        others leave the picture, are rare. No pairs otherwise. A die gone that was not seen
        where it lay just before the rolling began (`lately`) was picked up and held, not
        pushed: a die of its face that came near its place was thrown, unless that die was
        seen where it lies before the rolling began (`placed`): the hand pushed it there
        picking the others up, went out and came back holding them, with no settle between
        (73000 t7: a phantom `spaz, lost`)."""
        def pushed(old: Die, new: Die) -> bool:
            return lately is None or lately(old) or (placed is not None and placed(new))

        pairs, _, left = self._match(gone, fresh, SLID_REACH * size, shift, angles=False,
                                     colours=colours, alike=pushed)
        still_gone = [a for a in gone if all(a is not x for x, _ in pairs)]
        return ([], gone, fresh) if left else (pairs, still_gone, [])

    def _throw(self, thrown: list[Die], kept: list[Die], removed: list[Die], *,
               moved_kept: bool, rolled: bool) -> Outcome:
        on_table = thrown + kept
        count = count_dice(on_table)
        lost = self.short(on_table)
        if not self._count_given and (self.dice_count is None or count > self.dice_count):
            self.dice_count = count
        flags = []
        if lost or any(d.status == "off_table" for d in on_table):
            flags.append("spaz")
        if lost:
            flags.append("lost")
        if moved_kept:
            flags.append("knocked")
        if not rolled:
            flags.append("not_thrown")
        for status in ("cocked", "stacked"):
            if any(d.status == status for d in thrown):
                flags.append(status)
        self._removed, self._pickup_seen, self._knocked = [], False, False
        kind: Kind = "throw" if self.expecting else "ignored"
        return Outcome(kind, thrown, kept, removed, flags)

    def short(self, dice: list[Die]) -> bool:
        """Fewer dice on the table than are in play."""
        return self.dice_count is not None and count_dice(dice) < self.dice_count

    def _in_keep_zone(self, d: Die) -> bool:
        return bool(self.table and self.table.keep_zone and inside(self.table.keep_zone, *d.center))

    def _match(self, old: list[Die], new: list[Die], tol: float, shift: tuple[float, float],
               *, angles: bool, faces: bool = True, colours: bool = False,
               alike: Callable[[Die, Die], bool] | None = None
               ) -> tuple[list[tuple[Die, Die]], list[Die], list[Die]]:
        """Greedy nearest one-to-one matching of dice (of the same face unless `faces` is
        False; of the same colour with `colours`, see `_same_face`; `alike`, if given, as
        `settle`'s): (pairs, old left, new left). With `angles`, dice farther apart than
        `STILL` × `tol` must also be turned alike: one that has not moved at all is the same
        die however its turn was measured (a face of about the table's grey, a red die on
        green felt, is placed surely but turned by ±20°)."""
        cands = []
        for i, a in enumerate(old):
            for j, b in enumerate(new):
                dist = distance(a, b, shift)
                if not (_same_face(a, b, colours) if faces else
                        not colours or same_colour(a, b)):
                    continue
                if angles and dist > STILL * tol and not _angle_close(a, b, self.angle_tol):
                    continue
                if dist <= tol and alike is not None and not alike(a, b):
                    continue
                cands.append((dist, i, j))
        cands.sort()
        used_a: set[int] = set()
        used_b: set[int] = set()
        pairs = []
        for dist, i, j in cands:
            if dist > tol:
                break
            if i in used_a or j in used_b:
                continue
            used_a.add(i)
            used_b.add(j)
            pairs.append((old[i], new[j]))
        return (pairs, [a for i, a in enumerate(old) if i not in used_a],
                [b for j, b in enumerate(new) if j not in used_b])

    def _lying_still(self, old: list[Die], new: list[Die], size: float,
                     shift: tuple[float, float]) -> tuple[list[tuple[Die, Die]], list[Die],
                                                          list[Die]]:
        """`_match` of the dice lying where one lay (moved by `shift`), within `STILL` × the
        match tolerance: each is that die however its turn was measured, and of its face, its
        colour named (a flicker), or with another face read, of its colour, where another die
        lies against it (one leaning on it covers a pip). A die of another face and colour
        there is another die, thrown (a thrown die can land a pixel from where another lay),
        and so is one of another face with no die against it."""
        tol = STILL * self.match_tol * size
        others = list(new)
        same, old, new = self._match(old, new, tol, shift, angles=False)
        covered, old, new = self._match(old, new, tol, shift, angles=False, faces=False,
                                        colours=True)
        against: list[tuple[Die, Die]] = []
        alone: list[tuple[Die, Die]] = []
        for a, b in covered:
            leant_on = any(d is not b and distance(d, b) <= AGAINST * size for d in others)
            (against if leant_on else alone).append((a, b))
        return (same + against, old + [a for a, _ in alone], new + [b for _, b in alone])

    def _table_shift(self, old: list[Die], new: list[Die], size: float,
                     colours: bool) -> tuple[float, float]:
        """The common displacement of a nudged table (or camera), if two or more dice agree on
        it: each lies where one lay, moved by it, as near as a die that has not moved (`STILL`).
        Dice matched only within the match tolerance do not agree on a shift: a thrown die that
        landed a few pixels from where a die of its face lay would carry a die that has not
        moved into matching it without its turn (see `_match`)."""
        def agreeing(shift: tuple[float, float]) -> int:
            return len(self._lying_still(old, new, size, shift)[0])

        best, best_n = (0.0, 0.0), agreeing((0.0, 0.0))
        for a in old:
            for b in new:
                shift = (b.center[0] - a.center[0], b.center[1] - a.center[1])
                if not _same_face(a, b, colours) or math.hypot(*shift) > self.shift_max * size:
                    continue
                n = agreeing(shift)
                if n >= 2 and n > best_n:
                    best, best_n = shift, n
        return best
