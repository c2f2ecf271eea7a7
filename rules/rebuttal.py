"""Rebuttal (A11): when a player reaches the target, each player who threw before them that
round and has at least the rebuttal score gets one more turn; its points count. Not in
league play.
"""
from __future__ import annotations

from zonkcam.rules.phase import Phase
from zonkcam.rules.records import Special
from zonkcam.rules.state import GameState


def round_over(state: GameState) -> bool:
    rules = state.ruleset.game
    if state.crosser is None or state.ending or not rules.rebuttal or rules.league:
        return False
    crosser, seat = state.crosser
    for name in state.order[:seat]:  # they threw before the crosser this round
        if rules.rebuttal <= state.players[name].score < state.ruleset.target:
            state.specials.append(Special("rebuttal", [name], crosser))
    return True


PHASE = Phase("rebuttal", round_over=round_over)
