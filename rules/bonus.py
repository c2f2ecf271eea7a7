"""Bonus rounds (A9): a player reaching a bonus mark sets off a bonus round at the end of the
round, played in reverse order starting with that player. The best banked turn takes a hit;
the round's points do not count in the game score.
"""
from __future__ import annotations

from zonkcam.rules import hits
from zonkcam.rules.phase import Phase
from zonkcam.rules.records import Special, TurnRecord
from zonkcam.rules.state import GameState


def banked(state: GameState, rec: TurnRecord) -> None:
    """Each mark a player reaches sets off one bonus round, once a game."""
    score = state.players[rec.player].score
    for mark in state.ruleset.game.bonus_rounds:
        if score >= mark and (rec.player, mark) not in state.bonus_marks:
            state.bonus_marks.add((rec.player, mark))
            state.round_marks.append((rec.player, mark))


def round_over(state: GameState) -> bool:
    """One bonus round per mark reached this round: reverse order, starting with the scorer."""
    for name, _mark in state.round_marks:
        seat = state.order.index(name)
        players = [state.order[(seat - i) % len(state.order)] for i in range(len(state.order))]
        state.specials.append(Special("bonus", players, name))
    queued = bool(state.round_marks)
    state.round_marks = []
    return queued


def end(state: GameState, special: Special, records: list[TurnRecord]) -> None:
    hits.best_turns(state, "bonus", records)


PHASE = Phase("bonus", banked=banked, round_over=round_over, end=end)
