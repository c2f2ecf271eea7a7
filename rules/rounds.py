"""Rounds: who plays next. Queued specials come first (halftime show, bonus rounds,
rebuttals, shaharazad rounds), then the regular rotation, where turns owed to earlier
penalties are lost (written on the sheet) and finished players (D7) are passed over.
"""
from __future__ import annotations

from zonkcam.rules import bonus, ending, halftime, rebuttal, shaharazad
from zonkcam.rules.phase import Phase
from zonkcam.rules.records import TurnRecord
from zonkcam.rules.state import GameState

# The phases in the order their hooks run: a round's bonus rounds are queued before its
# rebuttals, and both before the end.
PHASES: tuple[Phase, ...] = (halftime.PHASE, bonus.PHASE, rebuttal.PHASE, ending.PHASE, shaharazad.PHASE)
_BY_KIND = {p.kind: p for p in PHASES}


def advance(state: GameState) -> None:
    """Choose the next turn (`state.up`), playing out specials and lost turns on the way."""
    for _ in range(10_000):  # a bound, not a limit anyone reaches
        if state.phase in ("over", "shaharazad?"):
            state.up = None
            return
        if state.special is not None or state.specials:
            if _next_special_turn(state):
                return
            continue
        if state.ending:
            ending.finish(state)
            continue
        if _next_regular_turn(state):
            return
    raise AssertionError("no next turn")


def _next_special_turn(state: GameState) -> bool:
    """Take one step through the specials; True once a special turn is up."""
    if state.special is None:
        _begin_special(state)
    elif state.special.players:
        state.up = (state.special.kind, state.special.players.pop(0))
        return True
    else:
        _end_special(state)
    return False


def _next_regular_turn(state: GameState) -> bool:
    """One seat on round the table; True once a regular turn is up."""
    state.pos += 1
    if state.pos >= len(state.order) or state.round == 0:
        if state.round and _end_round(state):
            state.pos -= 1  # the round's specials come first; then the new round
            return False
        state.round += 1
        state.pos = 0
        state.round_row = state.new_row("round")
    name = state.order[state.pos]
    player = state.players[name]
    if player.finished:
        return False
    if player.skips:
        _record_skip(state, name, player.skips.pop(0))
        return False
    state.up = ("regular", name)
    return True


def _record_skip(state: GameState, name: str, mark: str) -> None:
    rec = TurnRecord(len(state.turns), name, "regular", state.round_row, None, "skipped", mark,
                     score=state.players[name].score)
    state.turns.append(rec)
    state.rows[state.round_row].cells[name] = rec.id


def _end_round(state: GameState) -> bool:
    """The round's hooks queue what it set off (A9, A11, the end); True if anything was."""
    queued = [phase.round_over(state) for phase in PHASES if phase.round_over]
    return any(queued)


def _begin_special(state: GameState) -> None:
    special = state.specials.popleft()
    phase = _BY_KIND[special.kind]
    if phase.begin:
        phase.begin(state, special)
    special.row = state.new_row(special.kind)
    state.special = special


def _end_special(state: GameState) -> None:
    special = state.special
    assert special is not None
    state.special = None
    phase = _BY_KIND[special.kind]
    if phase.end:
        phase.end(state, special, [state.turns[i] for i in special.records])


def row_for(state: GameState, kind: str) -> int:
    """The sheet row a new turn of ``kind`` is written in."""
    return state.round_row if kind == "regular" else state.special.row if state.special else -1
