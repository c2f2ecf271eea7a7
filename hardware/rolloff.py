"""The roll-off for the order of play: each player throws one die in turn, the highest goes
first, and the players tied for highest throw again until one is left (W3).

The winner starts and play goes on round the table from there, so the seating order is
kept: A, B, C, D with C highest plays C, D, A, B. Pure: the kiosk feeds it the dice the
camera read (or the scorekeeper typed), and creates the game once `order` is known.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class RollOffError(ValueError):
    """A throw the roll-off cannot take; the message is for the scorekeeper."""


@dataclass
class RollOff:
    players: tuple[str, ...]  # seating order
    rounds: list[dict[str, int]] = field(default_factory=lambda: [{}])
    rolling: list[str] = field(default_factory=list)  # who throws in the current round

    def __post_init__(self) -> None:
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            raise RollOffError("a roll-off needs two or more players with distinct names")
        self.rolling = list(self.players)

    @property
    def up(self) -> str | None:
        """Who throws next (None once the order is decided)."""
        if self.winner is not None:
            return None
        return next(p for p in self.rolling if p not in self.rounds[-1])

    @property
    def winner(self) -> str | None:
        last = self.rounds[-1]
        if len(last) < len(self.rolling):
            return None
        top = max(last.values())
        tied = [p for p in self.rolling if last[p] == top]
        return tied[0] if len(tied) == 1 else None

    @property
    def done(self) -> bool:
        return self.winner is not None

    @property
    def order(self) -> tuple[str, ...] | None:
        """The order of play: the winner, then the players after them round the table."""
        winner = self.winner
        if winner is None:
            return None
        seat = self.players.index(winner)
        return self.players[seat:] + self.players[:seat]

    def throw(self, value: int) -> str:
        """The next player's die; returns who threw it."""
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise RollOffError(f"{value!r} is not a face value 1-6")
        player = self.up
        if player is None:
            raise RollOffError("the order of play is decided already")
        self.rounds[-1][player] = value
        if len(self.rounds[-1]) == len(self.rolling) and self.winner is None:
            top = max(self.rounds[-1].values())
            self.rolling = [p for p in self.rolling if self.rounds[-1][p] == top]
            self.rounds.append({})  # the tied players throw again
        return player

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "rounds": [dict(r) for r in self.rounds],
                "rolling": list(self.rolling), "up": self.up, "winner": self.winner,
                "order": list(self.order) if self.order else None}
