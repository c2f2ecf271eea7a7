"""The roll-off for the order of play, run by the kiosk before a game exists: the rules' one
roll-off (`zonkcam.rules.order.RollOff`, W3), kept importable here for the kiosk.

Each player throws one die in turn, the highest goes first, and the players tied for highest
throw again until one is left; play goes on round the table from the winner. The kiosk feeds
it the dice the camera read (or the scorekeeper typed), and creates the game once `order` is
known, with the roll-off in its log (`game_start`) where the rules throw for order.
"""
from __future__ import annotations

from typing import Literal

from zonkcam.rules.actions import Action
from zonkcam.rules.order import OrderOfPlay, RollOff, RollOffError

__all__ = ["RollOff", "RollOffError", "game_start"]


def game_start(rolloff: RollOff, rule: Literal["highest", "choose", "seating"]
               ) -> tuple[tuple[str, ...], list[Action]]:
    """The players a game ordered by a finished `rolloff` is set up with, and its first log
    lines. Where the ruleset's order `rule` throws for order (W3; C9 with two or three players),
    the players keep their seats and the log holds each die (``Ann roll 4``), under C9 with the
    winner going first, so the game settles the order itself and a replay shows how. Under
    seating rules the game takes no such lines: the roll-off's order becomes the seating."""
    order = rolloff.order
    if order is None:
        raise RollOffError(f"the order of play is not decided: {', '.join(rolloff.waiting)} must throw")
    if not OrderOfPlay(rule, rolloff.players).thrown_for:
        return order, []
    lines = rolloff.actions()
    if rule == "choose":
        lines.append(Action("goes", order[0], ("first",)))
    return rolloff.players, lines
