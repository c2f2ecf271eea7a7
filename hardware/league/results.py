"""A league game's standing from its events: replayed by the same rules the kiosk plays by.

The league keeps every event the kiosk sends, legal or not (its copy must equal the kiosk's);
a log that no longer replays is a problem shown on the game, never a refused event, so the
kiosk's outbox can always drain. Replays are cached per game and extended by the new events
(an undo or a correction replays the whole log, as the kiosk's store does)."""
from __future__ import annotations

import threading
from collections.abc import Callable
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
    """The replayed game of each league game, kept between batches of events.

    A batch moves the cached game on when it starts right after the cached log (a kiosk's line
    under a sequence number never changes, and the league refuses a different one); anything
    else (a cache behind another server process, a rolled-back batch, an undo or a correction)
    replays the whole log, as the kiosk's store does."""

    def __init__(self, limit: int = 4096) -> None:
        self._games: dict[int, Game] = {}
        self._lock = threading.Lock()
        self.limit = limit

    def outcome(self, game_id: int, setup: GameSetup, first_seq: int, new: list[tuple[str, str]],
                everything: Callable[[], list[tuple[str, str]]]) -> Outcome:
        """The game after its events: `new` (line, at) are the ones from `first_seq` on,
        `everything` fetches them all (line, at) when the cache cannot be moved on."""
        with self._lock:
            cached = self._games.pop(game_id, None)
        game = None
        try:
            if cached is not None and len(cached.log) == first_seq - 1:
                game = self._extend(cached, [parse_action(line, setup.players, at) for line, at in new])
            if game is None:
                log = [parse_action(line, setup.players, at) for line, at in everything()]
                game = Game.replay(setup, log)
        except ActionError as exc:
            return self._empty(setup, f"an event does not read: {exc}")
        except IllegalAction as exc:
            return self._empty(setup, f"the events no longer play: {exc}")
        with self._lock:
            if len(self._games) >= self.limit:
                self._games.clear()  # finished nights: cheap to replay again if asked
            self._games[game_id] = game
        return outcome_of(game)

    @staticmethod
    def _extend(game: Game, new: list[AnyAction]) -> Game | None:
        """The cached game moved on by `new`, or None to replay afresh. The events were recorded
        by the kiosk (stored), so they replay as recorded, without the check of an action taken
        now (`Game.check_taken`): an older kiosk's off-set colour must not force a full replay."""
        if any(isinstance(a, Undo | Correct) for a in new):
            return None
        try:
            for action in new:
                game.apply(action, stored=True)
        except IllegalAction:
            return None  # replayed afresh, which names the action
        game.log = [*game.log, *new]
        return game

    @staticmethod
    def _empty(setup: GameSetup, problem: str) -> Outcome:
        return outcome_of(Game(setup), problem)
