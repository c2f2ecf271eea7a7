"""A simulated player for league tests and benchmarks: the next action of a game, from the
rules alone (random dice, the best keep, bank at a sensible total). No camera, no pictures:
a simulated kiosk records these into its own game log, as a real one records the camera's."""
from __future__ import annotations

import random

from zonkcam.rules.actions import AnyAction, Bank, Keep, Throw, parse_action
from zonkcam.rules.dice import DieFace
from zonkcam.rules.game import Game

BANK_AT = {0: 0, 1: 0, 2: 300, 3: 400, 4: 700, 5: 1000}


def next_action(game: Game, rng: random.Random) -> AnyAction | None:
    """The current player's next action, or None when the game waits on nobody (over)."""
    player = game.current
    if game.phase == "shaharazad?":  # several past the target: nobody asks (A12), the game ends
        return parse_action("end", game.setup.players)
    if game.over or player is None:
        return None
    turn = game.live.turn if game.live is not None else None
    if turn is None or turn.state in ("over", "throw"):
        n = turn.dice_left if turn is not None and turn.state == "throw" else game.ruleset.dice
        return Throw(player, tuple(DieFace(rng.randint(1, 6)) for _ in range(n)))
    last = turn.last
    best = last.best if last is not None else None
    assert last is not None and best is not None  # a throw with nothing to keep ends the turn
    left = len(last.dice) - len(best.keep)
    total = turn.total + best.points
    if turn.bank_blocker() is None and (total >= BANK_AT.get(left, 1000)
                                        or game.players[player].score + total >= game.ruleset.target):
        return Bank(player)
    return Keep(player, positions=tuple(best.keep))


def play_out(game: Game, seed: int, limit: int = 20_000) -> list[AnyAction]:
    """Every action of a game played to its end from here (for tests of draws and standings)."""
    rng = random.Random(seed)
    actions: list[AnyAction] = []
    while len(actions) < limit and (action := next_action(game, rng)) is not None:
        game.apply(action)
        actions.append(action)
    return actions
