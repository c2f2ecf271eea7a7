"""Benchmarks: time to score every possible throw, and to compute the odds, per variant.

    python -m zonkcam.rules.bench

Scoring: "cold" is a fresh scorer with an empty cache (the first throw a game sees);
"warm" is the steady state during a game; mean and 99th percentile in µs per throw.
Odds: the one-off solve of a ruleset's optimal-policy table, then a live query.
"""
from __future__ import annotations

import itertools
import statistics
import time

from zonkcam.rules.dice import make_dice
from zonkcam.rules.odds import OddsTable
from zonkcam.rules.ruleset import load_variant, variant_names
from zonkcam.rules.scoring import Scorer
from zonkcam.rules.turn import Turn


def all_throws(max_dice: int):
    for n in range(1, max_dice + 1):
        for values in itertools.product(range(1, 7), repeat=n):
            yield make_dice(values)


def main() -> None:
    print(f"{'variant':<9} {'throws':>7} {'cold mean':>10} {'cold p99':>9}", end="")
    print(f" {'warm mean':>10} {'warm p99':>9}  (µs per throw)")
    for name in variant_names():
        ruleset = load_variant(name)
        throws = list(all_throws(ruleset.dice))
        rows = []
        for label in ("cold", "warm"):
            times = []
            scorer = Scorer(ruleset)
            if label == "warm":
                for dice in throws:
                    scorer.score(dice)
            for dice in throws:
                if label == "cold":
                    scorer = Scorer(ruleset)
                t0 = time.perf_counter()
                scorer.score(dice)
                times.append((time.perf_counter() - t0) * 1e6)
            rows.append((statistics.mean(times), statistics.quantiles(times, n=100)[98]))
        (cm, cp), (wm, wp) = rows
        print(f"{name:<9} {len(throws):>7} {cm:>10.1f} {cp:>9.1f} {wm:>10.1f} {wp:>9.1f}")


def bench_odds() -> None:
    print(f"\n{'variant':<9} {'solve (ms)':>10} {'query (ms)':>11}")
    for name in variant_names():
        ruleset = load_variant(name)
        table = OddsTable(ruleset)
        t0 = time.perf_counter()
        table.values(opened=True)
        solve = time.perf_counter() - t0
        turn = Turn(ruleset)
        turn.throw(make_dice([1, 2, 3, 4, 6, 6][: ruleset.dice]))
        turn.keep([0])
        queries = []
        for _ in range(50):
            t0 = time.perf_counter()
            table.for_turn(turn)
            queries.append(time.perf_counter() - t0)
        print(f"{name:<9} {solve * 1e3:>10.0f} {statistics.median(queries) * 1e3:>11.2f}")


if __name__ == "__main__":
    main()
    bench_odds()
