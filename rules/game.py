"""A whole game of Zonk: players, rounds, hits, specials, the end — a pure function of its log.

    game = Game.replay(GameSetup(load_variant("wheaton"), ("Baldrick", "Biggles")), [
        parse_action("magic 2 3 3 5 5", players),
        parse_action("Baldrick throw 6 6 6 2 3", players),
        parse_action("Baldrick bank", players),
    ])
    game.players["Baldrick"].score   # 600, and a DEVIL HIT

`Game.apply` takes one typed action (`zonkcam.rules.actions`), or raises `IllegalAction`
with the reason. Undo and corrections (X3) are log lines: `Game.replay` plays the actions
that stand after them (`actions.effective`), so everything after a corrected action is
recomputed. The game never prints, sleeps or stores; `zonkcam.hardware.store` persists the log.

This module is the core: the log, the turn's life (start, throws, close) and the order in
which a closed turn's consequences run. The rest is in the modules it calls: `order`
(order of play, W3), `rounds` (who is up), `hits`, `permanent` (D8), and the phases
`halftime`, `bonus`, `rebuttal`, `ending` and `shaharazad`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from zonkcam.rules import hits, permanent, rounds, shaharazad
from zonkcam.rules.actions import (
    TURN_VERBS,
    Action,
    ActionError,
    AnyAction,
    Bank,
    Correct,
    Keep,
    Penalty,
    Spaz,
    Throw,
    Undo,
    effective,
)
from zonkcam.rules.dice import DieFace, check_colors, parse_die, set_color
from zonkcam.rules.ending import won_at_once
from zonkcam.rules.events import FiveOnes, Kept, Spazzed, Zonked
from zonkcam.rules.records import (
    DASH,
    SCORING_KINDS,
    ZONKS,
    Ask,
    GameSetup,
    Hit,
    PermanentRule,
    Player,
    ReplayError,
    Row,
    Special,
    TurnRecord,
)
from zonkcam.rules.state import GameState
from zonkcam.rules.turn import IllegalAction, Turn

__all__ = [  # the records live in `records`; importable from here as before the split
    "DASH", "ZONKS", "Ask", "Game", "GameSetup", "Hit", "IllegalAction", "PermanentRule", "Player",
    "ReplayError", "Row", "Special", "TurnRecord",
]


class Game(GameState):
    # --- the log ------------------------------------------------------------------------

    @classmethod
    def replay(cls, setup: GameSetup, log: Iterable[AnyAction], new: int = 0) -> Game:
        """The game after this log; `IllegalAction` names the first action that cannot stand.

        The last `new` actions of the log are being taken now: they are also checked as `apply`
        checks an action (`check_taken`). The ones before them were stored and replay as they
        were recorded, so a log an older zonkcam wrote (a die in a colour outside the set) plays."""
        log = list(log)
        try:
            actions = effective(log, setup.players)
        except ActionError as exc:
            raise IllegalAction(str(exc)) from None
        game = cls(setup)
        for seq in range(max(len(log) - new, 0) + 1, len(log) + 1):
            try:
                game.check_taken(log[seq - 1])
            except IllegalAction as exc:
                raise ReplayError(seq, log[seq - 1], str(exc)) from None
        for seq, action in actions:
            try:
                game.apply(action, stored=True)
            except IllegalAction as exc:
                raise ReplayError(seq, action, str(exc)) from None
        game.log = log
        return game

    def normalize(self, action: AnyAction) -> AnyAction:
        """The action as it is stored: a turn action names its player."""
        if action.player is None and action.verb in TURN_VERBS | {"penalty"}:
            if self.current is None:
                raise IllegalAction("nobody is up: name the player")
            return action.with_player(self.current)
        return action

    @property
    def current(self) -> str | None:
        """Whose turn it is (or would be, before the first action)."""
        if self.live is not None:
            return self.live.player
        if self.phase == "setup":
            return self.order_of_play.decided(self.order)[0] if self.order_of_play.blocker() is None else None
        return self.up[1] if self.up else None

    def open_rules(self) -> dict[int, bool]:
        """D8: whether each permanent rule on the table passes (owner 2 votes, a majority)."""
        return permanent.open_rules(self)

    # --- applying actions ---------------------------------------------------------------

    def apply(self, action: AnyAction, *, stored: bool = False) -> None:
        """Apply one action, or raise `IllegalAction` with the reason. `stored`: the action is
        replayed from a log, as it was recorded (not checked by `check_taken`).

        A rejected action may leave the game part-way (say, play started): to check an action
        without touching a game, replay the log with it (`Game.replay`), as the store does."""
        if isinstance(action, Undo | Correct):
            raise IllegalAction("undo and correct change the log: replay it (Game.replay)")
        if self.phase == "over" and action.verb != "permanent":
            raise IllegalAction("the game is over")
        action = self.normalize(action)
        if action.player is not None and action.player not in self.players:
            raise IllegalAction(f"{action.player} is not playing")
        handler = _HANDLERS.get(action.verb)
        if handler is None:
            raise IllegalAction(f"no such action: {action.verb}")
        if not stored:
            self.check_taken(action)
        handler(self, action)
        self.last_at = action.at or self.last_at

    def check_taken(self, action: AnyAction) -> None:
        """What an action taken now must meet besides the rules of play: every die it names (a
        throw, a correction) is in one of the set's colours (`dice_colors`) or none, since a
        colour the set does not have would score (colors6's COLORS) as if it did. A stored log
        is not held to it: an older zonkcam could name any colour the recognizer knew."""
        who, allowed = self.ruleset.name, self.ruleset.dice_colors
        try:
            if isinstance(action, Throw):
                check_colors(action.dice, allowed, who)
            elif isinstance(action, Correct) and action.replacement is not None:
                self.check_taken(action.replacement)
            elif isinstance(action, Correct) and action.die is not None:
                set_color(action.die.color, allowed, who)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    # Before play: the magic number (W2) and the order of play (W3, C9).

    def _magic(self, a: Action) -> None:
        if not self.ruleset.game.magic_number:
            raise IllegalAction(f"{self.ruleset.name} has no magic number")
        if self.phase != "setup":
            raise IllegalAction("the magic number is thrown before play starts")
        dice = _dice(a.args)
        if len(dice) != self.ruleset.dice:
            raise IllegalAction(f"the magic number is a throw of {self.ruleset.dice} dice")
        self.magic = tuple(sorted(d.value for d in dice))

    def _roll(self, a: Action) -> None:
        if self.phase != "setup":
            raise IllegalAction("the order of play is thrown before play starts")
        if not self.order_of_play.thrown_for:
            raise IllegalAction("play goes in seating order; no throw for order")
        assert a.player is not None
        [die] = _dice(a.args, 1)
        self.order_of_play.roll(a.player, die.value)
        self.order = self.order_of_play.decided(self.order)  # W3: the sheet shows it from the last die

    def _goes(self, a: Action) -> None:
        assert a.player is not None
        self.order = self.order_of_play.goes(a.player, a.args[0] if len(a.args) == 1 else "", self.order)

    def _start_play(self) -> None:
        if blocker := self.order_of_play.blocker():
            raise IllegalAction(blocker)
        self.order = self.order_of_play.decided(self.order)
        permanent.apply_passed(self)
        self.phase = "play"
        rounds.advance(self)

    # Turn actions.

    def _throw(self, a: Throw) -> None:
        record = self._turn_for(a.player)
        turn = record.turn
        assert turn is not None
        score = turn.throw(a.dice)
        self._commit_start(record)
        if self.magic and tuple(sorted(d.value for d in a.dice)) == self.magic:
            record.magic += 1
        permanent.thrown(self, record.player, score.events)
        if turn.over:
            self._close(record)
        elif self.ruleset.game.five_ones_win and any(isinstance(e, FiveOnes) for e in score.events):
            turn.keep(range(len(a.dice)))  # W5: five 1s win the game at once
            self._close(record, forced_points=turn.total)

    def _keep(self, a: Keep) -> None:
        record = self._live_for(a.player)
        assert record.turn is not None and record.turn.last is not None
        record.turn.keep(a.positions or _keep_indexes(a.dice, record.turn.last.dice))

    def _bank(self, a: Bank) -> None:
        record = self._live_for(a.player)
        assert record.turn is not None
        record.turn.bank()
        self._close(record)

    def _spaz(self, a: Spaz) -> None:
        record = self._turn_for(a.player)
        assert record.turn is not None
        record.turn.spaz(a.reason or "called")
        self._commit_start(record)
        if record.turn.over:
            self._close(record)

    def _penalty(self, a: Penalty) -> None:
        """Penalties a person calls (W10, A13, A15, C8): lose this turn and/or the next ones."""
        kind, names = a.kind, self.ruleset.names
        mark = {"space": names.space, "dealer-spaz": names.dealer_spaz, "miscall": names.miscall,
                "clock": names.clock, "foul": names.foul, "next": names.skipped}[kind]
        n = a.turns or (1 if kind == "next" else 0)
        assert a.player is not None
        player = self.players[a.player]
        on_turn = a.player == self.current
        if kind == "next":
            player.skips.extend([names.skipped] * n)
            if on_turn and self.live is None and self.up and self.up[0] == "regular":
                self.pos -= 1  # the turn about to start is the next one: choose again
                rounds.advance(self)
        elif on_turn:
            record = self._turn_for(a.player)
            self._commit_start(record)
            player.skips.extend([names.skipped] * n)
            self._close(record, penalty=mark)
        elif kind in ("space", "dealer-spaz"):  # out of turn: the player's next turn is lost
            player.skips.append(mark)
        else:
            raise IllegalAction(f"it is not {a.player}'s turn")

    def _accept(self, a: Action) -> None:
        shaharazad.accept(self, a)
        rounds.advance(self)

    # --- a turn's life ------------------------------------------------------------------

    def _turn_for(self, player: str | None) -> TurnRecord:
        """The live turn of ``player``, starting it if it is their turn."""
        if self.live is not None:
            if self.live.player != player:
                raise IllegalAction(f"it is {self.live.player}'s turn, not {player}'s")
            return self.live
        if self.phase == "setup":
            self._start_play()
        if self.phase == "shaharazad?":
            raise IllegalAction("the game is over unless a shaharazad is requested and accepted")
        if self.up is None or self.up[1] != player:
            who = self.up[1] if self.up else "nobody"
            raise IllegalAction(f"it is {who}'s turn, not {player}'s (out of turn: a SPACE)")
        kind, name = self.up
        if kind == "shaharazad":
            ruleset, opened = shaharazad.turn_rules(self, name)
        else:
            ruleset, opened = self.ruleset, self.players[name].opened
        turn = Turn(ruleset, opened=opened, scorer=self.scorer if ruleset is self.ruleset else None)
        return TurnRecord(len(self.turns), name, kind, rounds.row_for(self, kind), turn)

    def _commit_start(self, record: TurnRecord) -> None:
        """A turn's first action stands: the record joins the game."""
        if self.live is record or record.over:
            return
        self.live = record
        self.turns.append(record)
        self.rows[record.row].cells[record.player] = record.id
        if self.special is not None:
            self.special.records.append(record.id)
        for hit in self.hits:  # communal hits waiting for the recipient's next cell
            if hit.player == record.player and hit.shown is None:
                hit.shown = record.id

    def _live_for(self, player: str | None) -> TurnRecord:
        if self.live is None or self.live.player != player:
            last = self.turns[-1] if self.turns else None
            if last is not None and last.player == player and last.over:  # a bank after a zonk
                word = last.mark or last.outcome
                raise IllegalAction(f"{player}'s turn is over ({word}): {self.current or 'nobody'} is up")
            raise IllegalAction(f"{player} has no turn going (throw first)")
        return self.live

    def _close(self, record: TurnRecord, *, penalty: str = "", forced_points: int | None = None) -> None:
        """The turn is over: its outcome and score, its hits, what it sets off, who is next."""
        turn = record.turn
        assert turn is not None
        player = self.players[record.player]
        if penalty:
            record.outcome, record.mark = "penalty", penalty
        elif forced_points is not None:
            record.outcome, record.points = "banked", forced_points
        else:
            record.outcome, record.points = turn.outcome, turn.banked_points
            spaz = next((e for e in turn.events if isinstance(e, Spazzed)), None)
            zonk = next((e for e in turn.events if isinstance(e, Zonked)), None)
            record.mark = spaz.mark if spaz else zonk.mark if zonk else ""
            if spaz:
                player.skips.extend([self.ruleset.names.skipped] * spaz.skip_turns)
        before = player.score
        if record.outcome == "banked":
            if record.kind in SCORING_KINDS:
                player.score += record.points
                player.opened = True
            elif record.kind == "shaharazad":
                self.playoff[record.player] += record.points
            record.straight = self._one_straight(turn)
        record.score = player.score if record.kind != "shaharazad" else self.playoff[record.player]
        self.live = None
        hits.turn_hits(self, record, before)
        if record.kind != "halftime":  # halftime hits settle when the show ends
            hits.settle(self, record)
        self._after_turn(record)
        rounds.advance(self)

    def _one_straight(self, turn: Turn) -> str:
        """C10: the straight's name when the turn was that one straight and nothing else."""
        kept = [e for e in turn.events if isinstance(e, Kept)]
        if len(kept) == 1:
            names = {s.name for s in self.ruleset.scoring.straights}
            return next((c for c in kept[0].combos if c in names), "")
        return ""

    def _after_turn(self, rec: TurnRecord) -> None:
        """What a closed turn sets off: Can I roll?, a game rule, and the phases' hooks."""
        if self.ruleset.game.ask_to_roll and rec.outcome not in ("penalty", "skipped"):
            self.ask_after(rec)
        permanent.turn_over(self, rec)
        if rec.kind == "shaharazad":
            shaharazad.turn_over(self, rec)
            return
        if rec.kind not in SCORING_KINDS or rec.outcome != "banked":
            return
        if rec.points and won_at_once(self, rec):
            return
        for phase in rounds.PHASES:
            if phase.banked:
                phase.banked(self, rec)


# verb -> what applies it; module functions take the game as their `GameState`
_HANDLERS: dict[str, Callable[[Game, Any], None]] = {
    "magic": Game._magic, "roll": Game._roll, "goes": Game._goes, "vote": permanent.vote,
    "throw": Game._throw, "keep": Game._keep, "bank": Game._bank, "spaz": Game._spaz,
    "penalty": Game._penalty, "give": hits.give, "rule": permanent.make_rule,
    "permanent": permanent.earn, "shaharazad": shaharazad.request, "accept": Game._accept,
    "decline": shaharazad.decline, "end": shaharazad.end_game,
}


def _dice(tokens: Sequence[str], n: int | None = None) -> tuple[DieFace, ...]:
    try:
        dice = tuple(parse_die(t) for t in tokens)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    if not dice or (n is not None and len(dice) != n):
        raise IllegalAction(f"expected {n or 'some'} dice")
    return dice


def _keep_indexes(kept: Sequence[DieFace], thrown: Sequence[DieFace]) -> list[int]:
    """The positions in the throw of dice kept by value (``1 5``), or value and colour (``red:5``)."""
    free = list(range(len(thrown)))
    picked = []
    for die in kept:
        match = next((i for i in free if thrown[i].value == die.value
                      and (die.color is None or thrown[i].color == die.color)), None)
        if match is None:
            shown = " ".join(str(d) for d in thrown)
            raise IllegalAction(f"no {die} left to keep in the last throw ({shown})")
        free.remove(match)
        picked.append(match)
    return picked
