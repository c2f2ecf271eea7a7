"""Table statistics: how each player's dice fall, and how their turns go.

Pure functions over games (replayed from their logs, so undo and corrections are honoured):
per player and per die colour, how often each face came up in every throw, with a chi-square
test of fairness (are the six faces equally likely?), and per player the zonk rate and the
average turn. The game database gives every game it holds (`hardware.store.Store.stats`).

The chi-square survival function is computed here in closed form (no SciPy on a Pi): for
``k`` degrees of freedom it is the regularized upper gamma function Q(k/2, x/2), a finite sum
for even ``k`` and erfc plus a finite sum for odd ``k``.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from zonkcam.rules.actions import Throw, effective
from zonkcam.rules.game import ZONKS, Game

FACES = 6
NO_COLOR = "any"  # dice of a variant that does not tell colours apart
MIN_EXPECTED = 5  # below this many expected per face the chi-square test says little


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with ``dof`` degrees of freedom."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if x <= 0:
        return 1.0
    h = x / 2
    if dof % 2 == 0:  # Q(m, h) = exp(-h) * sum_{i<m} h^i / i!
        term = total = 1.0
        for i in range(1, dof // 2):
            term *= h / i
            total += term
        return min(1.0, math.exp(-h) * total)
    # Q(m + 1/2, h) = erfc(sqrt h) + exp(-h) * sum_{i=1..m} h^(i-1/2) / Gamma(i + 1/2)
    total = math.erfc(math.sqrt(h))
    term = math.exp(-h) * math.sqrt(h) / math.gamma(1.5) if dof > 1 else 0.0
    for i in range(1, (dof - 1) // 2 + 1):
        if i > 1:
            term *= h / (i - 0.5)
        total += term
    return min(1.0, total)


@dataclass(frozen=True)
class Fairness:
    """Pearson's chi-square test of face counts against a fair die."""

    n: int
    chi2: float | None
    p: float | None  # None: no throws
    enough: bool  # every face expected at least MIN_EXPECTED times

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "chi2": None if self.chi2 is None else round(self.chi2, 3),
                "p": None if self.p is None else round(self.p, 4), "enough": self.enough}


def fairness(counts: Sequence[int]) -> Fairness:
    if len(counts) != FACES:
        raise ValueError(f"expected {FACES} face counts, got {len(counts)}")
    n = sum(counts)
    if n == 0:
        return Fairness(0, None, None, False)
    expected = n / FACES
    chi2 = sum((c - expected) ** 2 for c in counts) / expected
    return Fairness(n, chi2, chi2_sf(chi2, FACES - 1), expected >= MIN_EXPECTED)


@dataclass
class Faces:
    counts: list[int] = field(default_factory=lambda: [0] * FACES)

    def add(self, value: int) -> None:
        self.counts[value - 1] += 1

    def to_json(self) -> dict[str, Any]:
        return {"faces": list(self.counts), **fairness(self.counts).to_json()}


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    turns: int = 0  # turns played (thrown at least once), finished
    zonks: int = 0  # turns that ended in a zonk (any kind: zonk, bloades, vanna)
    points: int = 0  # points banked in those turns
    best_turn: int = 0
    faces: dict[str, Faces] = field(default_factory=dict)  # by die colour

    @property
    def zonk_rate(self) -> float | None:
        return self.zonks / self.turns if self.turns else None

    @property
    def average_turn(self) -> float | None:
        return self.points / self.turns if self.turns else None

    def all_faces(self) -> Faces:
        total = Faces()
        for f in self.faces.values():
            total.counts = [a + b for a, b in zip(total.counts, f.counts, strict=True)]
        return total

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "games": self.games, "turns": self.turns, "zonks": self.zonks,
            "zonk_rate": None if self.zonk_rate is None else round(self.zonk_rate, 4),
            "average_turn": None if self.average_turn is None else round(self.average_turn, 1),
            "best_turn": self.best_turn,
            "dice": [{"color": c, **f.to_json()} for c, f in sorted(self.faces.items())],
            "all_dice": self.all_faces().to_json(),
        }


@dataclass
class TableStats:
    games: int = 0
    players: dict[str, PlayerStats] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)  # games that could not be replayed, and why

    def player(self, name: str) -> PlayerStats:
        return self.players.setdefault(name, PlayerStats(name))

    def colors(self) -> dict[str, Faces]:
        """Every player's dice together, by colour."""
        out: dict[str, Faces] = {}
        for p in self.players.values():
            for color, f in p.faces.items():
                total = out.setdefault(color, Faces())
                total.counts = [a + b for a, b in zip(total.counts, f.counts, strict=True)]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "players": [p.to_json() for p in sorted(self.players.values(), key=lambda p: p.name.lower())],
            "colors": [{"color": c, **f.to_json()} for c, f in sorted(self.colors().items())],
            "skipped": self.skipped,
        }


def add_game(stats: TableStats, game: Game) -> TableStats:
    """Count one game's throws and finished turns into ``stats``."""
    stats.games += 1
    for name in game.order:
        stats.player(name).games += 1
    for _, action in effective(game.log, game.setup.players):
        if not isinstance(action, Throw) or action.player is None:
            continue
        faces = stats.player(action.player).faces
        for die in action.dice:
            faces.setdefault(die.color or NO_COLOR, Faces()).add(die.value)
    for rec in game.turns:
        if rec.turn is None or not rec.over or rec.turn.throws == 0:
            continue  # a skipped turn, a penalty before throwing, or the turn still going
        p = stats.player(rec.player)
        p.turns += 1
        p.zonks += rec.outcome in ZONKS
        points = rec.points if rec.outcome == "banked" else 0
        p.points += points
        p.best_turn = max(p.best_turn, points)
    return stats
