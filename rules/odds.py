"""Odds for the display (X2): the chance a throw scores nothing, and throwing vs banking.

    >>> from zonkcam.rules import load_variant
    >>> round(zonk_chance(load_variant("wheaton"), 1), 4)
    0.6667

Everything is exact for the active ruleset: throws are enumerated as multisets of faces
weighted by their multinomial probability (462 multisets for six dice, instead of 46,656
ordered throws), detroit's colored pairs as the 216 ways each colour pair can match.

Two answers to "throw or bank?":
- one step: the expected turn total after throwing once more, keeping the best and stopping;
- optimal: the expected banked points when playing the rest of the turn to maximise them,
  from a table solved once per ruleset (backwards over the turn total, which only grows).
  The turn total is capped at the ruleset's target; beyond it a player simply banks.
  Solving takes a few hundred milliseconds once per ruleset (``odds_table(rs).values``,
  worth calling when a game starts); every later query takes well under a millisecond.

Classic's ``combine_kept`` is not modelled: its odds are those of scoring each throw alone.
"""
from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

from zonkcam.rules.dice import DieFace, counts
from zonkcam.rules.ruleset import Ruleset
from zonkcam.rules.scoring import Scorer
from zonkcam.rules.turn import Turn

# The turn has not yet scored every die / has / just did / just did with a straight that may
# be banked (classic's bank_after_straight).
FIRST, CYCLED, HOT, HOT_FREE = 0, 1, 2, 3
Choice = tuple[int, int, bool]  # points, dice kept, all scored by a bankable straight
Outcome = tuple[float, tuple[Choice, ...]]  # probability and the undominated keeps


@dataclass(frozen=True)
class Odds:
    dice: int  # dice the next throw would use
    zonk_chance: float
    bank_value: int | None  # the turn total if banking is allowed now, else None
    one_step_value: float  # expected total after one more throw, then stopping
    throw_value: float  # expected banked points from throwing now and playing on well
    advice: str  # "throw" or "bank"

    def to_json(self) -> dict:
        return {
            "dice": self.dice,
            "zonk_chance": round(self.zonk_chance, 6),
            "bank_value": self.bank_value,
            "one_step_value": round(self.one_step_value, 1),
            "throw_value": round(self.throw_value, 1),
            "advice": self.advice,
        }


def zonk_chance(ruleset: Ruleset, n: int) -> float:
    """Exact probability that throwing ``n`` dice gives nothing to keep."""
    return odds_table(ruleset).zonk_chance(n)


def turn_odds(turn: Turn) -> Odds:
    """Odds for the player about to decide: throw the remaining dice or bank."""
    return odds_table(turn.ruleset).for_turn(turn)


def odds_table(ruleset: Ruleset) -> OddsTable:
    """The (cached) odds of one ruleset; the first call for a ruleset solves its table."""
    key = id(ruleset)
    if key not in _TABLES or _TABLES[key].ruleset is not ruleset:
        _TABLES[key] = OddsTable(ruleset)
    return _TABLES[key]


class OddsTable:
    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.scorer = Scorer(ruleset)
        self._outcomes: dict[int, tuple[Outcome, ...]] = {}
        self._values: dict[bool, dict[tuple[int, int, int], float]] = {}

    def zonk_chance(self, n: int) -> float:
        return 1.0 - sum(p for p, choices in self.outcomes(n) if choices)

    def for_turn(self, turn: Turn) -> Odds:
        """Odds before the next throw; right after a throw, as if its best keep were taken."""
        rs = self.ruleset
        if turn.state == "over":
            raise ValueError(f"odds are for a turn in play, not one in state {turn.state!r}")
        n, t, scored = turn.dice_left, turn.total, turn.dice_scored
        hot, by_straight = turn.hot, turn.hot_by_straight
        if turn.state == "keep":
            assert turn.last is not None and turn.last.best is not None
            best = turn.last.best
            n, t, scored = n - len(best.keep), t + best.points, scored + len(best.keep)
            hot = n == 0
            names = {s.name for s in rs.scoring.straights}
            by_straight = hot and bool(names & set(best.combos))
            n = n or rs.dice
        mode = CYCLED if scored >= rs.dice else FIRST
        if hot:
            mode = HOT_FREE if by_straight and rs.turn.bank_after_straight else HOT
        one_step = sum(p * (t + max(c[0] for c in ch)) for p, ch in self.outcomes(n) if ch)
        throw_value = self._throw_value(self.values(turn.opened), t, n, mode)
        bank = t if turn.throws and _bankable(rs, turn.opened, t, n, mode) else None
        advice = "bank" if bank is not None and bank >= throw_value else "throw"
        return Odds(n, self.zonk_chance(n), bank, one_step, throw_value, advice)

    # --- throw distribution -------------------------------------------------------------

    def outcomes(self, n: int) -> tuple[Outcome, ...]:
        """Every distinct throw of n dice with its probability and its undominated keeps."""
        if n not in self._outcomes:
            pairs = _colored_pair_throws(self.ruleset, n)
            out: list[Outcome] = []
            for faces, weight in _multisets(n):
                p = weight / 6**n
                paired = pairs.get(faces, 0) / 6**n
                if paired:  # orderings that match colour by colour score the bonus
                    out.append((paired, self._choices(_paired_dice(self.ruleset, faces))))
                    p -= paired
                if p > 1e-15:
                    out.append((p, self._choices([DieFace(v) for v in faces])))
            self._outcomes[n] = tuple(out)
        return self._outcomes[n]

    def _choices(self, dice: list[DieFace]) -> tuple[Choice, ...]:
        """Keeps of a throw: the best points for each number of dice kept (and, where a
        straight may be banked, for scoring every die with one)."""
        straights = {s.name for s in self.ruleset.scoring.straights}
        free = self.ruleset.turn.bank_after_straight
        best: dict[tuple[int, bool], int] = {}
        for option in self.scorer.score(dice).options:
            key = (len(option.keep), free and option.all_scored and bool(straights & set(option.combos)))
            best[key] = max(best.get(key, 0), option.points)
        return tuple((points, k, by_straight) for (k, by_straight), points in best.items())

    # --- the optimal-policy table -------------------------------------------------------

    def values(self, opened: bool) -> dict[tuple[int, int, int], float]:
        """V[t, n, mode]: expected banked points with turn total t and n dice to throw,
        playing on optimally; solved from the cap down since every keep adds points."""
        if opened not in self._values:
            rs = self.ruleset
            step, cap = _step(rs), rs.target
            value: dict[tuple[int, int, int], float] = {}
            states = [(n, m) for m in (FIRST, CYCLED) for n in range(1, rs.dice + 1)]
            states += [(rs.dice, HOT), (rs.dice, HOT_FREE)]
            for t in range(cap - cap % step, -1, -step):
                for n, mode in states:
                    bank = t if t > 0 and _bankable(rs, opened, t, n, mode) else 0
                    value[t, n, mode] = max(bank, self._throw_value(value, t, n, mode))
            self._values[opened] = value
        return self._values[opened]

    def _throw_value(self, value: dict, t: int, n: int, mode: int) -> float:
        rs = self.ruleset
        total = 0.0
        for p, choices in self.outcomes(n):
            best = 0.0
            for points, k, by_straight in choices:
                t2 = t + points
                if t2 >= rs.target:
                    v = float(t2)
                elif k == n:
                    v = value[t2, rs.dice, HOT_FREE if by_straight else HOT]
                else:
                    v = value[t2, n - k, FIRST if mode == FIRST else CYCLED]
                best = max(best, v)
            total += p * best
        return total


_TABLES: dict[int, OddsTable] = {}


def _multisets(n: int) -> Iterator[tuple[tuple[int, ...], int]]:
    for faces in itertools.combinations_with_replacement(range(1, 7), n):
        weight = math.factorial(n)
        for k in counts(faces):
            weight //= math.factorial(k)
        yield faces, weight


def _colored_pair_throws(ruleset: Ruleset, n: int) -> dict[tuple[int, ...], int]:
    """How many orderings of each multiset match colour pair by colour pair (detroit)."""
    if not ruleset.scoring.colored_pairs or n != ruleset.dice or not ruleset.dice_colors:
        return {}
    colors = sorted(set(ruleset.dice_colors))
    if any(ruleset.dice_colors.count(c) != 2 for c in colors):
        return {}
    found: dict[tuple[int, ...], int] = {}
    for values in itertools.product(range(1, 7), repeat=len(colors)):
        faces = tuple(sorted(values * 2))
        found[faces] = found.get(faces, 0) + 1
    return found


def _paired_dice(ruleset: Ruleset, faces: tuple[int, ...]) -> list[DieFace]:
    colors = sorted(set(ruleset.dice_colors))
    return [DieFace(v, c) for v, c in zip(faces[::2], colors, strict=True) for _ in range(2)]


def _step(ruleset: Ruleset) -> int:
    """The granularity of turn totals: the gcd of every point value."""
    s = ruleset.scoring
    values = [*s.singles.values(), s.colored_pairs, *(p for t in s.of_a_kind.values() for p in t)]
    values += [st.points for st in s.straights]
    return functools.reduce(math.gcd, [v for v in values if v], 0) or 50


def _bankable(rs: Ruleset, opened: bool, t: int, n: int, mode: int) -> bool:
    rules = rs.turn
    if mode == HOT and rules.hot_dice == "mandatory":
        return False
    if not opened:
        return t >= rules.open_minimum
    scored = rs.dice if mode != FIRST else rs.dice - n  # every hot mode has scored all dice
    return t >= rules.stop_minimum or scored >= rules.stop_min_dice
