"""The demo's simulated player: plays the game the table app keeps, one throw at a time.

`DemoCamera` asks `next_throw` whenever its simulation has played every frame scripted so far.
The player first waits (more still frames) until the app has processed the last settled throw,
then reads the game as the app left it and decides the next throw:

- a throw the app did not score (`app.pending`: refused, a cocked die) is thrown again: the
  dice set aside stay, the ones just thrown are picked up;
- a new turn, hot dice (every die scored) and a bank are every die picked up (the app banks
  when all dice are picked up while the turn may be banked: gesture banking);
- otherwise the best keep of the game's own last throw stays on the table, the rest is thrown;
- now and then a die goes off the table (SPAZ) or lands cocked, on purpose, and it says so;
- a finished game is shown for a while, then a new one starts with the same players;
- a decision the game leaves to the table (albany's shaharazad question, A12) is shown for a
  while, then taken on the page as a scorekeeper would: now and then a play-off, else the end;
- a throw the game keeps refusing is not thrown forever: the scorekeeper steps in (banks the
  turn on the page if it may be banked, else undoes the last action).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from zonkcam.rules.dice import DieFace
from zonkcam.rules.game import Game
from zonkcam.rules.ruleset import Ruleset
from zonkcam.rules.turn import Turn
from zonkcam.vision.sim.simulator import PALETTE, SimDie, ThrowPlan

P_SPAZ = 0.03  # chance per throw of a die sent off the table on purpose
P_COCKED = 0.03  # ... of a die landing cocked on purpose
PATIENCE_S = 8.0  # seconds a played throw may wait for the app before the demo throws on
GAME_OVER_S = 15.0  # a finished game is shown this long before the next starts
DECIDE_S = 5.0  # a decision the table takes on the page is shown this long first
P_PLAYOFF = 0.5  # chance that a shaharazad is requested, and accepted, when one may be
RETRIES = 3  # throws refused in a row before the scorekeeper steps in
BANK_BUTTON_S = 20.0  # without gesture banking: how long a bank waits for the Bank button
# A turn is banked once its total reaches this, by the dice that would be left to throw:
# with few dice a zonk is likely, with many the turn is worth pushing on.
BANK_AT = {0: 0, 1: 0, 2: 250, 3: 350, 4: 500, 5: 1000}
BANK_AT_MORE = 2000  # six dice left or more


class DemoPlayer:
    """Decides each throw of the demo from the table app's game (`app`: a `TableApp`)."""

    def __init__(self, app: Any, seed: int = 0, p_spaz: float = P_SPAZ,
                 p_cocked: float = P_COCKED) -> None:
        self.app = app
        self.rng = random.Random(seed)
        self.p_spaz, self.p_cocked = p_spaz, p_cocked
        self.throws = 0  # throws decided
        self.on_purpose: dict[str, int] = {"off_table": 0, "cocked": 0}
        self._seen: int | None = None  # the app's processed throws when the last was decided
        self._waiting_since: float | None = None
        self._over_at: float | None = None
        self._bank_asked: float | None = None
        self._asked_at: float | None = None  # when the game put a question to the table
        self._refused = 0  # throws not scored in a row

    def next_throw(self, sim: Any, t: float) -> ThrowPlan | None:
        """The next throw for the simulation `sim` at simulated time `t`, or None: not yet
        (the camera shows the table still a little longer and asks again)."""
        if self._seen is not None and self._processed() <= self._seen:
            if self._waiting_since is None:
                self._waiting_since = t
            if t - self._waiting_since < PATIENCE_S:
                return None
            self._say("demo: the camera missed that throw; throwing the same dice again")
            return self._made(ThrowPlan())
        self._waiting_since = None
        with self.app.lock:  # the page's actions change the game from another thread
            throw = self._decide(sim, t)
        return None if throw is None else self._made(self._maybe_special(throw))

    # --- deciding -----------------------------------------------------------------------

    def _decide(self, sim: Any, t: float) -> ThrowPlan | None:
        app = self.app
        if getattr(app, "rolloff", None) is not None:
            return self._fresh(app.game, sim)  # a roll-off reads the leftmost die
        game: Game = app.game
        if game.over:
            if self._over_at is None:
                self._over_at = t
                self._say(f"demo: game over; a new game starts in {GAME_OVER_S:g} s")
            if t - self._over_at < GAME_OVER_S:
                return None
            if not self._new_game():
                self._over_at = t  # tried again a while later
                return None
            game = app.game
        self._over_at = None
        if game.phase == "shaharazad?":
            self._shaharazad(game, t)
            return None
        self._asked_at = None
        player = game.current
        if player is None:
            return None  # the order of play is not decided: that is for the people at the table
        if app.pending is not None:
            self._refused += 1
            if self._refused > RETRIES:
                self._step_in(game, app.pending.reason)
                return None
            return ThrowPlan()  # not scored: the same dice again, the dice set aside stay
        self._refused = 0
        turn = game.live.turn if game.live is not None else None
        if turn is None or turn.state == "over" or turn.throws == 0:
            return self._fresh(game, sim)
        if turn.state == "throw":  # kept but not thrown: a keep made on the page
            return self._throw_left(game, turn, sim)
        return self._after_throw(game, turn, sim, t)

    def _throw_left(self, game: Game, turn: Turn, sim: Any) -> ThrowPlan | None:
        """The dice the game waits for: only their number matters, the keep is recorded."""
        if turn.dice_left == game.ruleset.dice:
            return self._fresh(game, sim)
        stay = len(sim.last_thrown) - turn.dice_left
        if stay < 0:
            return self._off_track(game, turn, sim)
        return ThrowPlan(keep=tuple(range(stay)))

    def _after_throw(self, game: Game, turn: Turn, sim: Any, t: float) -> ThrowPlan | None:
        """What to do with the dice of the game's last throw: keep, bank, or hot dice."""
        last = turn.last
        assert last is not None and last.best is not None  # a zonk ends the turn
        best = last.best
        if len(sim.last_thrown) != len(last.dice):
            return self._off_track(game, turn, sim)
        if any(o.all_scored for o in last.options):  # hot dice: every die up, thrown again
            return self._fresh(game, sim)
        total = turn.total + best.points
        left = len(last.dice) - len(best.keep)
        score = game.players[turn_player(game)].score
        worth = total >= BANK_AT.get(left, BANK_AT_MORE) or score + total >= game.ruleset.target
        if worth and turn.bank_blocker() is None:
            if self.app.gesture_bank:
                self._say(f"demo: {turn_player(game)} banks {total}")
                return self._fresh(game, sim)
            if self._bank_asked is None:
                self._bank_asked = t
                self._say(f"demo: {turn_player(game)} would bank {total}: press Bank")
            if t - self._bank_asked < BANK_BUTTON_S:
                return None
        self._bank_asked = None
        return ThrowPlan(keep=tuple(match(sim.last_thrown, [last.dice[i] for i in best.keep])))

    def _off_track(self, game: Game, turn: Turn, sim: Any) -> ThrowPlan | None:
        """The table does not show the game's last throw (a game resumed mid-turn, an undo on
        the page): bank the turn if it may be, else take the throw back and throw afresh."""
        if self.app.gesture_bank and turn.bank_blocker() is None:
            self._say(f"demo: the table lost track of the turn; {turn_player(game)} banks")
            return self._fresh(game, sim)
        self._say("demo: the table lost track of the turn; taking the last action back (undo)")
        try:
            self.app.act({"action": "undo"})
        except ValueError as exc:  # the app's Refused
            self._say(f"demo: cannot undo: {exc}")
        return None

    def _shaharazad(self, game: Game, t: float) -> None:
        """A12, after the question has been on the page a while: a lower player past the target
        asks for a play-off and the leader accepts, or nobody asks and the game ends."""
        if self._asked_at is None:
            self._asked_at = t
            self._say(f"demo: {' and '.join(game.leaders())} are past the target: a shaharazad? "
                      f"(decided in {DECIDE_S:g} s)")
        if t - self._asked_at < DECIDE_S:
            return None
        self._asked_at = None
        leader, *lower = game.leaders()
        if lower and self.rng.random() < P_PLAYOFF:
            challenger = self.rng.choice(lower)
            self._say(f"demo: {challenger} asks for a shaharazad and {leader} accepts: a play-off "
                      f"to {game.ruleset.game.shaharazad}")
            steps = [{"action": "shaharazad", "player": challenger}, {"action": "accept"}]
        else:
            self._say("demo: nobody asks for a shaharazad: the game ends")
            steps = [{"action": "end_game"}]
        for step in steps:
            try:
                self.app.act(step)
            except ValueError as exc:  # the app's Refused: asked again after a while
                self._say(f"demo: no {step['action']}: {exc}")
                break
        return None

    def _step_in(self, game: Game, reason: str | None) -> None:
        """A throw refused again and again (the game and the table disagree): as a scorekeeper
        would, bank the turn on the page if it may be banked, else take the last action back."""
        self._refused = 0
        turn = game.live.turn if game.live is not None else None
        action = "bank" if turn is not None and turn.state == "keep" and turn.bank_blocker() is None \
            else "undo"
        self._say(f"demo: that throw is refused again and again ({reason}); the scorekeeper "
                  f"steps in: {action}")
        try:
            self.app.act({"action": action})
        except ValueError as exc:  # the app's Refused
            self._say(f"demo: cannot {action}: {exc}")

    def _fresh(self, game: Game, sim: Any) -> ThrowPlan:
        """Every die picked up and the whole set thrown, in the ruleset's colours."""
        ruleset = game.ruleset
        return ThrowPlan(fresh=True, dice=ruleset.dice, colors=set_colors(ruleset.dice,
                     ruleset.dice_colors, sim.colors))

    def _maybe_special(self, throw: ThrowPlan) -> ThrowPlan:
        if getattr(self.app, "rolloff", None) is not None:
            return throw
        r = self.rng.random()
        if r < self.p_spaz:
            self._say("demo: this throw sends a die off the table (SPAZ), on purpose")
            special = "off_table"
        elif r < self.p_spaz + self.p_cocked:
            self._say("demo: this throw lands a die cocked, on purpose: it is thrown again")
            special = "cocked"
        else:
            return throw
        self.on_purpose[special] += 1
        return ThrowPlan(throw.keep, throw.fresh, special, throw.dice, throw.colors)

    def _made(self, throw: ThrowPlan) -> ThrowPlan:
        # roll-off throws are not tallied: the frames after the throw are time enough for it
        self._seen = None if getattr(self.app, "rolloff", None) is not None else self._processed()
        self._waiting_since = self._bank_asked = None
        self.throws += 1
        return throw

    def _new_game(self) -> bool:
        """The same players and ruleset again, in the order given; False if the app refused."""
        setup = self.app.state()["new_game"]
        try:
            self.app.act({"action": "new_game", "ruleset": setup["ruleset"],
                          "players": setup["players"], "order": "given"})
        except ValueError as exc:  # the app's Refused
            self._say(f"demo: no new game: {exc}")
            return False
        self._say(f"demo: a new game, {', '.join(setup['players'])}")
        return True

    def _processed(self) -> int:
        return sum(self.app.tally.values())

    def _say(self, text: str) -> None:
        self.app.say(text)


def turn_player(game: Game) -> str:
    assert game.live is not None
    return game.live.player


def set_colors(dice: int, named: Sequence[str], contrasting: Sequence[str]) -> tuple[str, ...]:
    """The simulator's colours for a set: the ruleset's names where the simulator draws them,
    others given the palette's colours the set does not use; a set with no colours is one
    plain colour that stands out from the table (white, else the first that does)."""
    if not named:
        plain = "white" if "white" in contrasting else contrasting[0]
        return (plain,) * dice
    spare = iter(c for c in contrasting if c not in named)
    mapped: dict[str, str] = {}
    for name in dict.fromkeys(named):
        mapped[name] = name if name in PALETTE else next(spare, "white")
    return tuple(mapped[name] for name in named)


def match(dice: Sequence[SimDie], wanted: Sequence[DieFace]) -> list[int]:
    """Indexes of `dice` (as they lie) showing the `wanted` dice of the game: same value and
    colour, else same value, else any die left (the game read it otherwise: that die is the one
    it means, most likely read the same way again)."""
    free = list(range(len(dice)))
    chosen = []
    tests = (lambda d, w: d.value == w.value and (w.color is None or d.color == w.color),
             lambda d, w: d.value == w.value, lambda d, w: True)
    for w in wanted:
        i = next(i for test in tests for i in free if test(dice[i], w))
        free.remove(i)
        chosen.append(i)
    return sorted(chosen)


def play_offline(ruleset: Ruleset, root: Path, model: Path, *, minutes: float,
                 seed: int = 1) -> tuple[Any, DemoPlayer]:
    """`minutes` of simulated demo play, as fast as the machine goes, through the real pipeline
    (demo camera -> throw stream -> table app, gesture banking on); a game database and its
    evidence in `root`. Returns the table app (its `tally`, its game) and the player."""
    import threading

    from zonkcam.hardware.cameras import DemoCamera
    from zonkcam.hardware.kiosk.app import TableApp
    from zonkcam.hardware.kiosk.web import Hub
    from zonkcam.hardware.store import Store
    from zonkcam.rules.game import GameSetup
    from zonkcam.vision.read import Reader
    from zonkcam.vision.stream import ThrowStream

    store = Store(root / "z.db")
    app = TableApp(store, store.new_game(GameSetup(ruleset, ("Ann", "Bob"))), Hub(), root / "evidence",
                   gesture_bank=True, demo=True, on_message=lambda m: None)
    player = DemoPlayer(app, seed=seed)
    camera = DemoCamera(seed=seed, realtime=False, dice=ruleset.dice, player=player)
    reader = Reader(model, overhead=True, dice_colors=ruleset.dice_colors)

    def make_stream(dice: int) -> ThrowStream:
        return ThrowStream(reader, camera.table, dice_count=dice)

    class Timed:  # the demo camera, ending after `minutes` of simulated time
        name = "demo"

        def read(self):
            frame = camera.read()
            return frame if frame.t < minutes * 60 else None

        def still(self):
            return camera.still()

        def close(self) -> None:
            camera.close()

    app.run(Timed(), make_stream(ruleset.dice), threading.Event(), make_stream)
    return app, player
