"""The end of a game, by the variant's ``game.end``:

- "first": whoever reaches the target wins at once (and W5: five 1s in one throw win);
- "round": the round is played out, then rebuttals (A11), then the highest wins, or the
  players past the target may play a shaharazad (A12);
- "all": players finish one by one as they reach the target (D7) until everyone has.

Then the end-of-game hits (A7, Z4).
"""
from __future__ import annotations

from zonkcam.rules import hits
from zonkcam.rules.events import FiveOnes
from zonkcam.rules.phase import Phase
from zonkcam.rules.records import Hit, TurnRecord
from zonkcam.rules.state import GameState


def won_at_once(state: GameState, rec: TurnRecord) -> bool:
    """A banked turn that ends the game there and then: the target under "first", or W5."""
    rules = state.ruleset.game
    forced = rec.turn is not None and any(isinstance(e, FiveOnes) for e in rec.turn.events)
    if (rules.end == "first" and state.players[rec.player].score >= state.ruleset.target) or (
            forced and rules.five_ones_win):
        state.winners = [rec.player]
        finish(state, decided=True)
        return True
    return False


def banked(state: GameState, rec: TurnRecord) -> None:
    """Reaching the target: a finishing place (D7), or the round's first to cross it."""
    rules, player = state.ruleset.game, state.players[rec.player]
    if player.score < state.ruleset.target:
        return
    if rules.end == "all" and not player.finished:
        state.finish_order.append(rec.player)
        player.finished = len(state.finish_order)
        if state.ruleset.hits.finish:
            state.hits.append(Hit(rec.player, "finish", rec.id, rec.id))
    if rules.end == "round" and state.crosser is None:
        state.crosser = (rec.player, state.pos)


def round_over(state: GameState) -> bool:
    """The game ends after a round in which someone crossed the target, or all finished."""
    queued = False
    if state.crosser is not None and not state.ending:
        state.ending = queued = True
    if state.ruleset.game.end == "all" and all(p.finished for p in state.players.values()):
        state.ending = queued = True
    return queued


def finish(state: GameState, decided: bool = False) -> None:
    """Winners and end-of-game hits, or first the shaharazad question (A12)."""
    rules = state.ruleset
    state.ending = False
    if not decided and rules.game.end == "round":
        leaders = state.leaders()
        if rules.game.shaharazad and len(leaders) > 1 and state.phase != "shaharazad?":
            state.phase = "shaharazad?"
            return
    if not state.winners and rules.game.end != "all":
        best = max(p.score for p in state.players.values())
        state.winners = [p for p in state.order if state.players[p].score == best]
    state.phase = "over"
    state.up = None
    hits.end_of_game(state)


PHASE = Phase("end", banked=banked, round_over=round_over)
