"""The HALFTIME SHOW (W15): when a player first reaches the halftime score, the rest of the
round is dashed, a line is drawn, and every player throws one turn, starting at the scorer's
left. The best banked turn takes a hit; the show's points do not count in the game score.
Hit integrity for the show's turns waits until the show ends, then play resumes where it
stopped.
"""
from __future__ import annotations

from zonkcam.rules import hits
from zonkcam.rules.phase import Phase
from zonkcam.rules.records import DASH, Special, TurnRecord
from zonkcam.rules.state import GameState


def banked(state: GameState, rec: TurnRecord) -> None:
    rules = state.ruleset.game
    if rules.halftime and not state.halftime_done and rec.kind == "regular" \
            and state.players[rec.player].score >= rules.halftime:
        start(state, rec)


def start(state: GameState, rec: TurnRecord) -> None:
    """Dashes for the rest of the round; the show is played before anything else queued."""
    state.halftime_done = True
    row = state.rows[state.round_row]
    seat = state.order.index(rec.player)
    for name in state.order[seat + 1:]:
        row.cells[name] = DASH
    players = [state.order[(seat + 1 + i) % len(state.order)] for i in range(len(state.order))]
    state.specials.appendleft(Special("halftime", players, rec.player))


def begin(state: GameState, special: Special) -> None:
    state.dash_line()


def end(state: GameState, special: Special, records: list[TurnRecord]) -> None:
    hits.best_turns(state, "halftime", records)
    for r in records:
        hits.settle(state, r)
    state.dash_line()
    if state.pos < len(state.order) - 1:  # play resumes where it stopped
        state.round_row = state.new_row("round")
        state.rows[state.round_row].cells = dict.fromkeys(state.order[: state.pos + 1], DASH)
    if records and state.ruleset.game.ask_to_roll:  # the settled hits are asked for
        state.ask_after(records[-1])


PHASE = Phase("halftime", banked=banked, begin=begin, end=end)
