"""A league game's standing from its events: replayed by the same rules the kiosk plays by.

The league keeps every event the kiosk sends, legal or not (its copy must equal the kiosk's);
a log that no longer replays is a problem shown on the game, never a refused event, so the
kiosk's outbox can always drain. Replays are cached per game and extended by the new events
(an undo or a correction replays the whole log, as the kiosk's store does)."""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from zonkcam.rules.actions import ActionError, AnyAction, Correct, Undo, parse_action
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.ruleset import RulesetError, ruleset_from_dict
from zonkcam.rules.turn import IllegalAction


@dataclass
class Outcome:
    """What the league shows of a game after its events."""

    over: bool
    scores: dict[str, int]
    hits: dict[str, int]
    winners: list[str]
    current: str | None
    round: int
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"over": self.over, "scores": self.scores, "hits": self.hits, "winners": self.winners,
                "current": self.current, "round": self.round, "problem": self.problem}


def setup_for(ruleset: dict[str, Any], players: list[str]) -> GameSetup:
    try:
        return GameSetup(ruleset_from_dict(ruleset, "league game"), tuple(players))
    except (RulesetError, IllegalAction) as exc:
        raise ValueError(f"the game's setup does not read: {exc}") from None


def outcome_of(game: Game, problem: str | None = None) -> Outcome:
    return Outcome(over=game.over, scores={p: game.players[p].score for p in game.order},
                   hits={p: game.hit_total(p) for p in game.order}, winners=list(game.winners),
                   current=None if game.over else game.current, round=game.round, problem=problem)


class Replays:
    """The replayed game of each league game, kept between batches of events."""

    def __init__(self, limit: int = 4096) -> None:
        self._games: dict[int, Game] = {}
        self._lock = threading.Lock()
        self.limit = limit

    def outcome(self, game_id: int, setup: GameSetup, lines: list[tuple[int, str, str]]) -> Outcome:
        """The game after `lines` (seq, at, line): every event the league holds for it, in order."""
        with self._lock:
            cached = self._games.get(game_id)
        try:
            actions = [parse_action(line, setup.players, at) for _, line, at in lines]
        except ActionError as exc:
            return self._empty(setup, f"an event does not read: {exc}")
        game = self._extend(cached, actions) if cached is not None else None
        try:
            game = game or Game.replay(setup, actions)
        except IllegalAction as exc:
            with self._lock:
                self._games.pop(game_id, None)
            return self._empty(setup, f"the events no longer play: {exc}")
        with self._lock:
            if len(self._games) >= self.limit:
                self._games.clear()  # finished nights: cheap to replay again if asked
            self._games[game_id] = game
        return outcome_of(game)

    @staticmethod
    def _extend(game: Game, actions: list[AnyAction]) -> Game | None:
        """The cached game moved on by the events it has not seen, or None to replay afresh."""
        seen = len(game.log)
        new = actions[seen:]
        if len(actions) < seen or any(isinstance(a, Undo | Correct) for a in new):
            return None
        if [str(a) for a in actions[:seen]] != [str(a) for a in game.log]:
            return None
        try:
            for action in new:
                game.apply(action)
        except IllegalAction:
            return None  # replayed afresh, which names the action
        game.log = actions
        return game

    def forget(self, game_id: int) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    @staticmethod
    def _empty(setup: GameSetup, problem: str) -> Outcome:
        return outcome_of(Game(setup), problem)
