"""The roll-off for the order of play, run by the kiosk before a game exists: the rules' one
roll-off (`zonkcam.rules.order.RollOff`, W3), kept importable here for the kiosk.

Each player throws one die in turn, the highest goes first, and the players tied for highest
throw again until one is left; play goes on round the table from the winner. The kiosk feeds
it the dice the camera read (or the scorekeeper typed), and creates the game once `order` is
known. `RollOff.actions()` gives the same throws as the game's ``roll`` log lines.
"""
from __future__ import annotations

from zonkcam.rules.order import RollOff, RollOffError

__all__ = ["RollOff", "RollOffError"]
