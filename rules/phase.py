"""`Phase`: a part of the game outside the plain rotation, as the hooks the core calls.

Each of `halftime`, `bonus`, `rebuttal`, `ending` and `shaharazad` exports one ``PHASE``;
`rounds.PHASES` lists them in the order their hooks run. A hook left None is not called.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from zonkcam.rules.records import Special, TurnRecord
from zonkcam.rules.state import GameState


@dataclass(frozen=True)
class Phase:
    kind: str  # the kind of its specials, sheet rows and turns
    # a regular or rebuttal turn banked (after the score and hits are written)
    banked: Callable[[GameState, TurnRecord], None] | None = None
    # a regular round ended: queue specials; True if the next round must wait for them
    round_over: Callable[[GameState], bool] | None = None
    # one of its specials is about to be played, before its sheet row is drawn
    begin: Callable[[GameState, Special], None] | None = None
    # one of its specials was played: its turns, in order
    end: Callable[[GameState, Special, list[TurnRecord]], None] | None = None
