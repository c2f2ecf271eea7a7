"""The order of play: seating order, the W3 roll-off, or the highest throw choosing (C9).

`RollOff` is the one roll-off: each player throws one die, the highest goes first, and the
players tied for highest throw again until one is left. The winner starts and play goes on
round the table from there, so the seating order is kept: A, B, C, D with C highest plays
C, D, A, B. The game logs each die as a ``roll`` action; the kiosk runs a `RollOff` on its
own before a game exists, feeding it the dice the camera read.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from zonkcam.rules.actions import Action
from zonkcam.rules.turn import IllegalAction


class RollOffError(IllegalAction):
    """A throw the roll-off cannot take; the message is for the scorekeeper."""


@dataclass
class RollOff:
    players: tuple[str, ...]  # seating order
    rounds: list[dict[str, int]] = field(default_factory=lambda: [{}])  # a tie opens a round
    rolling: list[str] = field(default_factory=list)  # who throws in the current round

    def __post_init__(self) -> None:
        if len(self.players) < 2 or len(set(self.players)) != len(self.players):
            raise RollOffError("a roll-off needs two or more players with distinct names")
        self.rolling = list(self.players)

    @property
    def waiting(self) -> list[str]:
        """Who still throws in the current round, in seating order."""
        return [] if self.done else [p for p in self.rolling if p not in self.rounds[-1]]

    @property
    def up(self) -> str | None:
        """Who throws next (None once the order is decided)."""
        return next(iter(self.waiting), None)

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

    def throw(self, value: int, player: str | None = None) -> str:
        """One die for the order, by ``player`` (default: the next in seating order); returns who
        threw it. The game names the player, as a table's players throw in any order."""
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise RollOffError(f"{value!r} is not a face value 1-6")
        if self.done:
            raise RollOffError("the order of play is decided already")
        player = player or self.up
        if player not in self.waiting:
            raise RollOffError(f"throwing for order now: {', '.join(self.waiting)}")
        assert player is not None
        self.rounds[-1][player] = value
        if len(self.rounds[-1]) == len(self.rolling) and self.winner is None:
            top = max(self.rounds[-1].values())
            self.rolling = [p for p in self.rolling if self.rounds[-1][p] == top]
            self.rounds.append({})  # the tied players throw again
        return player

    def actions(self) -> list[Action]:
        """The roll-off as the game's log lines (``Ann roll 4``), in the order thrown."""
        return [Action("roll", p, (str(v),)) for r in self.rounds for p, v in r.items()]

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "rounds": [dict(r) for r in self.rounds],
                "rolling": list(self.rolling), "up": self.up, "winner": self.winner,
                "order": list(self.order) if self.order else None}


@dataclass
class OrderOfPlay:
    """How a game's order of play is settled before the first turn."""

    rule: Literal["highest", "choose", "seating"]
    players: tuple[str, ...]  # seating order
    rolloff: RollOff | None = None  # started by the first die thrown for order
    chosen: bool = False  # C9: the highest throw said first or last

    @property
    def thrown_for(self) -> bool:
        """Whether the order is thrown for, not simply the seating order (C9: 4+ players sit)."""
        return self.rule == "highest" or (self.rule == "choose" and len(self.players) <= 3)

    def roll(self, player: str, value: int) -> None:
        if not self.thrown_for:
            raise IllegalAction("play goes in seating order; no throw for order")
        if self.rolloff is None:
            self.rolloff = RollOff(self.players)
        self.rolloff.throw(value, player)

    def goes(self, player: str, where: str, order: list[str]) -> list[str]:
        """C9: the highest throw goes first or last; returns the new ``order``."""
        if self.rule != "choose" or self.chooser != player or self.chosen:
            raise IllegalAction("only the highest throw for order chooses, before play starts")
        if where not in ("first", "last"):
            raise IllegalAction("goes first or goes last")
        seat = order.index(player) + (where == "last")
        self.chosen = True
        return order[seat:] + order[:seat]

    @property
    def chooser(self) -> str | None:
        """The highest throw for order."""
        return self.rolloff.winner if self.rolloff else None

    def blocker(self) -> str | None:
        """Why play cannot start yet, or None."""
        if self.rolloff is None:
            return None  # nobody threw for order: seating order
        if waiting := self.rolloff.waiting:
            return f"the order of play is not decided: {', '.join(waiting)} must throw"
        if self.rule == "choose" and not self.chosen:
            return f"{self.chooser} chooses to go first or last"
        return None

    def decided(self, order: list[str]) -> list[str]:
        """The order of play once settled (``order``: seating, or as chosen)."""
        if self.rule == "highest" and self.rolloff and self.rolloff.order:
            return list(self.rolloff.order)
        return order
