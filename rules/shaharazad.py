"""SHAHARAZAD (A12): after a game ending with more than one player past the target, a lower
of them may request a play-off; if the leader accepts, those players play rounds of their
own scores from zero until one reaches the shaharazad target. Each seat opens with a higher
minimum (``game.shaharazad_open``: the first, then this much more per seat).
"""
from __future__ import annotations

import dataclasses

from zonkcam.rules import ending
from zonkcam.rules.actions import Action
from zonkcam.rules.phase import Phase
from zonkcam.rules.records import Special, TurnRecord
from zonkcam.rules.ruleset import Ruleset
from zonkcam.rules.state import GameState
from zonkcam.rules.turn import IllegalAction


def request(state: GameState, a: Action) -> None:
    leaders = state.leaders()
    if state.phase != "shaharazad?" or a.player == leaders[0] or a.player not in leaders:
        raise IllegalAction("shaharazad is requested by a lower player past the target, after the game")
    state.playoff_request = a.player


def accept(state: GameState, a: Action) -> None:
    """The leader accepts: the play-off's first round is queued (the caller chooses the turn)."""
    if state.phase != "shaharazad?" or not state.playoff_request or a.player != state.leaders()[0]:
        raise IllegalAction("the leader accepts a requested shaharazad")
    state.playoff = dict.fromkeys(state.leaders(), 0)
    state.phase = "play"
    queue_round(state)


def decline(state: GameState, a: Action) -> None:
    if state.phase != "shaharazad?" or a.player != state.leaders()[0]:
        raise IllegalAction("the leader declines a shaharazad")
    ending.finish(state)


def end_game(state: GameState, a: Action) -> None:
    """``end``: nobody asks for a shaharazad."""
    if state.phase != "shaharazad?":
        raise IllegalAction("the game ends by itself; 'end' only skips a shaharazad")
    ending.finish(state)


def queue_round(state: GameState) -> None:
    state.specials.append(Special("shaharazad", list(state.playoff)))


def turn_rules(state: GameState, player: str) -> tuple[Ruleset, bool]:
    """The ruleset of a play-off turn (its seat's opening minimum), and whether it is open."""
    first, step = (*state.ruleset.game.shaharazad_open, 0, 0)[:2]
    seat = list(state.playoff).index(player)
    turn = dataclasses.replace(state.ruleset.turn, open_minimum=first + step * seat)
    return dataclasses.replace(state.ruleset, turn=turn), state.playoff[player] > 0


def turn_over(state: GameState, rec: TurnRecord) -> None:
    if state.playoff[rec.player] >= state.ruleset.game.shaharazad:
        state.winners = [rec.player]
        ending.finish(state, decided=True)


def end(state: GameState, special: Special, records: list[TurnRecord]) -> None:
    if state.phase != "over":  # nobody reached the target: another round
        queue_round(state)


PHASE = Phase("shaharazad", end=end)
