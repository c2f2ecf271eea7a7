"""Scoring one throw: every legal way to set dice aside, with its points (S10).

A keep is legal when every kept die belongs to a scoring combination thrown in this
throw (S1, S4). Points depend only on the multiset of faces kept, so the best split of
each multiset into combinations is computed once per ruleset and cached: at most 924
multisets of up to six dice exist.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from zonkcam.rules import hooks
from zonkcam.rules.dice import DieFace, counts
from zonkcam.rules.events import ColoredPairs, Event, StraightThrown
from zonkcam.rules.ruleset import Ruleset, Straight

_KIND_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}

Counts = tuple[int, ...]
Split = tuple[int, tuple[str, ...]]  # points, combination names


@dataclass(frozen=True)
class Option:
    """One legal keep: die indexes into the throw, its points and the combinations used."""

    keep: tuple[int, ...]
    points: int
    combos: tuple[str, ...]
    all_scored: bool  # every thrown die is kept

    def to_json(self) -> dict:
        return {
            "points": self.points,
            "keep": list(self.keep),
            "combos": list(self.combos),
            "all_scored": self.all_scored,
        }


@dataclass(frozen=True)
class ThrowScore:
    dice: tuple[DieFace, ...]
    options: tuple[Option, ...]  # best first
    events: tuple[Event, ...]

    @property
    def zonk(self) -> bool:
        return not self.options

    @property
    def best(self) -> Option | None:
        return self.options[0] if self.options else None

    def option_for(self, keep: Sequence[int]) -> Option | None:
        """The option that keeps these dice (indexes), if that keep is legal."""
        wanted = counts([self.dice[i] for i in keep])
        for option in self.options:
            if counts([self.dice[i] for i in option.keep]) == wanted:
                return option
        return None


class Scorer:
    """Scores throws under one ruleset; cheap to call repeatedly."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._best = functools.lru_cache(maxsize=None)(self._best_split)
        self._hooks = [hooks.THROW_HOOKS[name] for name in ruleset.hooks if name in hooks.THROW_HOOKS]

    def score(self, dice: Sequence[DieFace]) -> ThrowScore:
        dice = tuple(dice)
        if not 1 <= len(dice) <= self.ruleset.dice:
            raise ValueError(f"a throw has 1 to {self.ruleset.dice} dice, not {len(dice)}")
        thrown = counts(dice)
        by_keep: dict[Counts, Split] = {}
        for keep in _sub_multisets(thrown):
            split = self._best(keep)
            if split is not None:
                by_keep[keep] = split

        straights = [s for s in self.ruleset.scoring.straights if _has_straight(thrown, s)]
        events: list[Event] = [StraightThrown(s.name, s.faces, s.points) for s in straights]
        unbreakable = [s.name for s in straights if s.unbreakable]
        if unbreakable:  # classic's Straw Hat: any keep must hold the whole straight
            by_keep = {k: v for k, v in by_keep.items() if unbreakable[0] in v[1]}

        bonus = self.ruleset.scoring.colored_pairs
        if bonus and len(dice) == self.ruleset.dice and _colored_pairs(dice):
            points, combos = max(by_keep.values(), default=(0, ()))
            by_keep[thrown] = (points + bonus, ("colored pairs", *combos))
            events.append(ColoredPairs(bonus))

        for hook in self._hooks:
            events.extend(hook(self.ruleset, dice, thrown))

        options = [_option(dice, keep, split) for keep, split in by_keep.items()]
        # Best first; on equal points prefer scoring every die (the dice go round again),
        # then keeping fewer dice (more left to throw).
        options.sort(key=lambda o: (-o.points, not o.all_scored, len(o.keep), o.keep))
        return ThrowScore(dice, tuple(options), tuple(events))

    def split(self, keep: Counts) -> Split | None:
        """Best split of a multiset of faces (counts per face) into combinations."""
        return self._best(tuple(keep))

    def _best_split(self, keep: Counts) -> Split | None:
        """Highest-scoring split of ``keep`` into combinations, or None if a die is left over."""
        if not any(keep):
            return (0, ())
        face = next(f for f in range(1, 7) if keep[f - 1])
        scoring = self.ruleset.scoring
        candidates: list[tuple[Counts, int, str]] = []
        if face in scoring.singles:
            candidates.append((_take(keep, {face: 1}), scoring.singles[face], f"single {face}"))
        for n, table in scoring.of_a_kind.items():
            if n <= keep[face - 1]:
                name = f"{_KIND_WORDS[n]} {face}s"
                candidates.append((_take(keep, {face: n}), table[face - 1], name))
        for s in scoring.straights:
            if face in s.faces and _has_straight(keep, s):
                candidates.append((_take(keep, dict.fromkeys(s.faces, 1)), s.points, s.name))
        best: Split | None = None
        for rest, points, name in candidates:
            split = self._best(rest)
            if split is None:
                continue
            found = (points + split[0], (name, *split[1]))
            # On a tie prefer fewer, larger combinations: albany's four 5s is a social.
            if best is None or (found[0], -len(found[1])) > (best[0], -len(best[1])):
                best = found
        return best


def _sub_multisets(c: Counts):
    """Every non-empty multiset of faces contained in ``c``."""
    def rec(i: int, acc: tuple[int, ...]):
        if i == 6:
            if any(acc):
                yield acc
            return
        for k in range(c[i] + 1):
            yield from rec(i + 1, (*acc, k))
    yield from rec(0, ())


def _take(c: Counts, faces: dict[int, int]) -> Counts:
    return tuple(n - faces.get(f, 0) for f, n in enumerate(c, start=1))


def _has_straight(c: Counts, straight: Straight) -> bool:
    return all(c[f - 1] >= 1 for f in straight.faces)


def _colored_pairs(dice: Sequence[DieFace]) -> bool:
    """Each colour shows exactly two dice, and they show the same face (detroit)."""
    by_color: dict[str, list[int]] = {}
    for d in dice:
        if d.color is None:
            return False
        by_color.setdefault(d.color, []).append(d.value)
    return all(len(v) == 2 and v[0] == v[1] for v in by_color.values())


def _option(dice: Sequence[DieFace], keep: Counts, split: Split) -> Option:
    """Map a multiset keep onto die indexes (the first dice of each face)."""
    wanted = list(keep)
    indexes = []
    for i, d in enumerate(dice):
        if wanted[d.value - 1]:
            wanted[d.value - 1] -= 1
            indexes.append(i)
    return Option(tuple(indexes), split[0], split[1], len(indexes) == len(dice))
