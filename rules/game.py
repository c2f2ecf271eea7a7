"""A whole game of Zonk: players, rounds, hits, specials, the end — a pure function of its log.

    game = Game.replay(GameSetup(load_variant("wheaton"), ("Baldrick", "Biggles")), [
        parse_action("magic 2 3 3 5 5", players),
        parse_action("Baldrick throw 6 6 6 2 3", players),
        parse_action("Baldrick bank", players),
    ])
    game.players["Baldrick"].score   # 600, and a DEVIL HIT

`Game.apply` takes one action, or raises `IllegalAction` with the reason. Undo and
corrections (X3) are log lines: `Game.replay` plays the actions that stand after them
(`actions.effective`), so everything after a corrected action is recomputed.
The game never prints, sleeps or stores; `zonkcam.hardware.store` persists the log.
"""
from __future__ import annotations

import dataclasses
import tomllib
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from zonkcam.rules import hits as hitrules
from zonkcam.rules.actions import (
    TURN_VERBS,
    VERBS,
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
from zonkcam.rules.dice import Die, parse_die
from zonkcam.rules.events import (
    Banked,
    Colors,
    CourtesyHit,
    Devil,
    FiveOnes,
    Kept,
    SixOfAKind,
    SlimPickins,
    Social,
    Spazzed,
    StraightThrown,
    ThousandInThrow,
    Zonked,
)
from zonkcam.rules.hits import Hit
from zonkcam.rules.ruleset import Ruleset, RulesetError, with_option
from zonkcam.rules.scoring import Scorer
from zonkcam.rules.turn import IllegalAction, Turn

ZONKS = ("zonk", "bloades", "vanna")
DASH = "dash"  # a sheet cell whose turn is played elsewhere (W15)


@dataclass(frozen=True)
class PermanentRule:
    """D8: a rule a player earned with six of a kind; voted on at the start of each game."""

    id: int
    owner: str
    text: str


@dataclass(frozen=True)
class GameSetup:
    ruleset: Ruleset
    players: tuple[str, ...]  # in seating order; play goes this way round
    started: str = ""  # local start time, ISO ("2002-03-13T12:44")
    zone: str = ""  # time-zone label written on the sheet ("EST")
    permanent_rules: tuple[PermanentRule, ...] = ()  # the players' rules to vote on (D8)

    def __post_init__(self) -> None:
        if len(self.players) < 1 or len(set(self.players)) != len(self.players):
            raise IllegalAction("a game needs players with distinct names")
        for name in self.players:
            if not name.strip() or name.lower() in VERBS or "," in name:
                raise IllegalAction(f"{name!r} cannot be a Zonk name (empty, a comma, or an action word)")

    @cached_property
    def scorer(self) -> Scorer:
        return Scorer(self.ruleset)


class ReplayError(IllegalAction):
    """An action of a log that cannot stand; `seq` is its number in the log."""

    def __init__(self, seq: int, action: AnyAction, reason: str) -> None:
        super().__init__(f"action {seq} ({action}): {reason}")
        self.seq = seq
        self.reason = reason


@dataclass
class Player:
    name: str
    score: int = 0
    opened: bool = False
    skips: list[str] = field(default_factory=list)  # marks of the turns still to lose
    zonks: int = 0
    zonk_streak: list[int] = field(default_factory=list)  # own hits of each zonk in a row (Z4)
    scoreless: int = 0  # turns without a score since the last score or sympathy hit
    sympathies: int = 0
    three_from: int | None = None  # turn of the last three-in-three hit (A8)
    finished: int = 0  # finishing place (D7), 0 while playing


@dataclass
class TurnRecord:
    id: int
    player: str
    kind: str  # regular, halftime, bonus, rebuttal, shaharazad
    row: int
    turn: Turn | None = None
    outcome: str | None = None  # banked, zonk, bloades, vanna, spaz, penalty, skipped
    mark: str = ""  # the word written for a turn without points
    points: int = 0
    score: int = 0  # the player's total after the turn
    straight: str = ""  # C10: the turn was one straight, by name
    magic: int = 0  # throws that matched the magic number (W14)

    @property
    def over(self) -> bool:
        return self.outcome is not None


@dataclass
class Row:
    kind: str  # round, line, halftime, bonus, rebuttal, shaharazad
    number: int
    cells: dict[str, int | str] = field(default_factory=dict)  # player -> turn id or DASH


@dataclass
class Special:
    """A round outside the game score (halftime show, bonus round) or a rebuttal/play-off."""

    kind: str
    players: list[str]
    scorer: str = ""
    row: int = -1
    records: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Ask:
    """W17: how many times the next player asks "Can I roll?", and whom."""

    times: int
    whom: str


class Game:
    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.ruleset = setup.ruleset
        self.scorer = setup.scorer
        self.players = {name: Player(name) for name in setup.players}
        self.order = list(setup.players)
        self.phase = "setup"  # setup, play, shaharazad?, over
        self.magic: tuple[int, ...] = ()
        self.order_rolls: list[dict[str, int]] = [{}]
        self.chooser: str | None = None  # the highest throw for order
        self.tied: list[str] = []  # players throwing again for order
        self.chosen = False  # C9: the chooser said first or last
        self.turns: list[TurnRecord] = []
        self.rows: list[Row] = []
        self.hits: list[Hit] = []
        self.log: list[AnyAction] = []
        self.up: tuple[str, str] | None = None  # (kind, player) of the turn to play next
        self.live: TurnRecord | None = None
        self.pos = -1
        self.round = 0
        self.round_row = -1
        self.specials: deque[Special] = deque()
        self.special: Special | None = None
        self.ask: Ask | None = None
        self.first_to: dict[int, str] = {}
        self.halftime_done = False
        self.round_marks: list[tuple[str, int]] = []  # bonus marks reached this round (A9)
        self.bonus_marks: set[tuple[str, int]] = set()
        self.crosser: tuple[str, int] | None = None  # first to the target this round, and seat
        self.ending = False  # the game ends once the specials queued now are played
        self.winners: list[str] = []
        self.finish_order: list[str] = []
        self.six_die_zonks = 0
        self.may_rule: str | None = None
        self.may_permanent: list[str] = []
        self.game_rules: list[tuple[str, str]] = []
        self.new_permanent: list[tuple[str, str]] = []
        self.votes: dict[int, dict[str, bool]] = {}
        self.playoff: dict[str, int] = {}  # A12 shaharazad scores
        self.playoff_request: str | None = None
        self.last_at: str | None = None

    # --- the log ------------------------------------------------------------------------

    @classmethod
    def replay(cls, setup: GameSetup, log: Iterable[AnyAction]) -> Game:
        """The game after this log; `IllegalAction` names the first action that cannot stand."""
        log = list(log)
        try:
            actions = effective(log, setup.players)
        except ActionError as exc:
            raise IllegalAction(str(exc)) from None
        game = cls(setup)
        for seq, action in actions:
            try:
                game.apply(action)
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

    # --- questions ----------------------------------------------------------------------

    @property
    def current(self) -> str | None:
        """Whose turn it is (or would be, before the first action)."""
        if self.live is not None:
            return self.live.player
        if self.phase == "setup":
            return self._decided_order()[0] if self._order_blocker() is None else None
        return self.up[1] if self.up else None

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def own_hits(self, record: TurnRecord) -> list[Hit]:
        return [h for h in self.hits if h.turn == record.id and h.player == record.player
                and not h.optional]

    def hit_total(self, player: str) -> int:
        return sum(1 for h in self.hits if h.player == player and not h.optional)

    def gha(self) -> float:
        """G.H.A. (W19): every player's hits over the number of players."""
        return round(sum(self.hit_total(p) for p in self.players) / len(self.players), 2)

    def open_rules(self) -> dict[int, bool]:
        """D8: whether each permanent rule on the table passes (owner 2 votes, a majority)."""
        result = {}
        for rule in self.setup.permanent_rules:
            votes = self.votes.get(rule.id, {})
            yes = sum((2 if p == rule.owner else 1) for p, v in votes.items() if v)
            result[rule.id] = yes * 2 > len(self.players) + 1
        return result

    # --- applying actions ---------------------------------------------------------------

    def apply(self, action: AnyAction) -> None:
        """Apply one action, or raise `IllegalAction` with the reason.

        A rejected action may leave the game part-way (say, play started): to check an action
        without touching a game, replay the log with it (`Game.replay`), as the store does."""
        if isinstance(action, Undo | Correct):
            raise IllegalAction("undo and correct change the log: replay it (Game.replay)")
        if self.phase == "over" and action.verb != "permanent":
            raise IllegalAction("the game is over")
        action = self.normalize(action)
        if action.player is not None and action.player not in self.players:
            raise IllegalAction(f"{action.player} is not playing")
        handler: Callable[[AnyAction], None] = getattr(self, "_do_" + action.verb.replace("-", "_"))
        handler(action)
        self.last_at = action.at or self.last_at

    def _do_magic(self, a: Action) -> None:
        if not self.ruleset.game.magic_number:
            raise IllegalAction(f"{self.ruleset.name} has no magic number")
        if self.phase != "setup":
            raise IllegalAction("the magic number is thrown before play starts")
        dice = _dice(a.args)
        if len(dice) != self.ruleset.dice:
            raise IllegalAction(f"the magic number is a throw of {self.ruleset.dice} dice")
        self.magic = tuple(sorted(d.value for d in dice))

    def _do_roll(self, a: Action) -> None:
        rules = self.ruleset.game
        if self.phase != "setup":
            raise IllegalAction("the order of play is thrown before play starts")
        if rules.order == "seating" or (rules.order == "choose" and len(self.players) > 3):
            raise IllegalAction("play goes in seating order; no throw for order")
        [die] = _dice(a.args, 1)
        rolling = self._rolling()
        if a.player not in rolling or a.player in self.order_rolls[-1]:
            waiting = [p for p in rolling if p not in self.order_rolls[-1]]
            raise IllegalAction(f"throwing for order now: {', '.join(waiting)}")
        self.order_rolls[-1][a.player] = die.value
        if len(self.order_rolls[-1]) == len(rolling):
            top = max(self.order_rolls[-1].values())
            tied = [p for p, v in self.order_rolls[-1].items() if v == top]
            if len(tied) > 1:
                self.order_rolls.append({})  # ties throw again (W3)
                self.tied = tied
            else:
                self.chooser = tied[0]

    def _do_goes(self, a: Action) -> None:
        if self.ruleset.game.order != "choose" or self.chooser != a.player or self.chosen:
            raise IllegalAction("only the highest throw for order chooses, before play starts")
        if a.args not in (("first",), ("last",)):
            raise IllegalAction("goes first or goes last")
        seat = self.order.index(a.player) + (a.args[0] == "last")
        self.order = self.order[seat:] + self.order[:seat]
        self.chosen = True

    def _do_vote(self, a: Action) -> None:
        if self.phase != "setup":
            raise IllegalAction("permanent rules are voted on before play starts")
        if len(a.args) != 3 or a.args[2] not in ("yes", "no") or a.args[1] not in self.players:
            raise IllegalAction("vote RULE PLAYER yes|no")
        ids = {r.id for r in self.setup.permanent_rules}
        if not a.args[0].isdigit() or int(a.args[0]) not in ids:
            raise IllegalAction(f"no permanent rule {a.args[0]} on the table")
        self.votes.setdefault(int(a.args[0]), {})[a.args[1]] = a.args[2] == "yes"

    def _do_throw(self, a: Throw) -> None:
        record = self._turn_for(a.player)
        turn = record.turn
        assert turn is not None
        dice = a.dice
        score = turn.throw(dice)
        self._commit_start(record)
        if self.magic and tuple(sorted(d.value for d in dice)) == self.magic:
            record.magic += 1
        self.may_rule = None
        if any(isinstance(e, SixOfAKind) for e in score.events) and self.ruleset.game.permanent_rules:
            self.may_permanent.append(record.player)
        if turn.over:
            self._close(record)
        elif self.ruleset.game.five_ones_win and any(isinstance(e, FiveOnes) for e in score.events):
            turn.keep(range(len(dice)))  # W5: five 1s win the game at once
            self._close(record, forced_points=turn.total)

    def _do_keep(self, a: Keep) -> None:
        record = self._live_for(a.player)
        assert record.turn is not None and record.turn.last is not None
        record.turn.keep(a.positions or _keep_indexes(a.dice, record.turn.last.dice))

    def _do_bank(self, a: Bank) -> None:
        record = self._live_for(a.player)
        assert record.turn is not None
        record.turn.bank()
        self._close(record)

    def _do_spaz(self, a: Spaz) -> None:
        record = self._turn_for(a.player)
        assert record.turn is not None
        record.turn.spaz(a.reason or "called")
        self._commit_start(record)
        if record.turn.over:
            self._close(record)

    def _do_penalty(self, a: Penalty) -> None:
        """Penalties a person calls (W10, A13, A15, C8): lose this turn and/or the next ones."""
        kind = a.kind
        names = self.ruleset.names
        mark = {"space": names.space, "dealer-spaz": names.dealer_spaz, "miscall": names.miscall,
                "clock": names.clock, "foul": names.foul, "next": names.skipped}[kind]
        n = a.turns or (1 if kind == "next" else 0)
        player = self.players[a.player]
        on_turn = a.player == self.current
        if kind == "next":
            player.skips.extend([names.skipped] * n)
            if on_turn and self.live is None and self.up and self.up[0] == "regular":
                self.pos -= 1  # the turn about to start is the next one: choose again
                self._advance()
        elif on_turn:
            record = self._turn_for(a.player)
            self._commit_start(record)
            player.skips.extend([names.skipped] * n)
            self._close(record, penalty=mark)
        elif kind in ("space", "dealer-spaz"):  # out of turn: the player's next turn is lost
            player.skips.append(mark)
        else:
            raise IllegalAction(f"it is not {a.player}'s turn")

    def _do_give(self, a: Action) -> None:
        if len(a.args) != 1 or a.args[0] not in self.players:
            raise IllegalAction("give PLAYER")
        mine = [h for h in self.hits if h.source == "courtesy" and h.player == a.player and not h.given_by]
        if not mine:
            raise IllegalAction(f"{a.player} has no courtesy hit to give")
        hit = mine[-1]
        hit.player, hit.given_by = a.args[0], a.player
        hit.shown = self._latest_record(a.args[0])

    def _do_rule(self, a: Action) -> None:
        if self.may_rule != a.player:
            raise IllegalAction("a game rule is made right after a six-die zonk (not the game's first)")
        text = " ".join(a.args)
        self._apply_rule_text(text)
        self.game_rules.append((a.player, text))
        self.may_rule = None

    def _do_permanent(self, a: Action) -> None:
        if a.player not in self.may_permanent:
            raise IllegalAction("a permanent rule is earned with six of a kind")
        self.may_permanent.remove(a.player)
        self.new_permanent.append((a.player, " ".join(a.args)))

    def _do_shaharazad(self, a: Action) -> None:
        if self.phase != "shaharazad?" or a.player == self.leaders()[0] or a.player not in self.leaders():
            raise IllegalAction("shaharazad is requested by a lower player past the target, after the game")
        self.playoff_request = a.player

    def _do_accept(self, a: Action) -> None:
        if self.phase != "shaharazad?" or not self.playoff_request or a.player != self.leaders()[0]:
            raise IllegalAction("the leader accepts a requested shaharazad")
        self._start_playoff()

    def _do_decline(self, a: Action) -> None:
        if self.phase != "shaharazad?" or a.player != self.leaders()[0]:
            raise IllegalAction("the leader declines a shaharazad")
        self._finish()

    def _do_end(self, a: Action) -> None:
        if self.phase != "shaharazad?":
            raise IllegalAction("the game ends by itself; 'end' only skips a shaharazad")
        self._finish()

    # --- turns --------------------------------------------------------------------------

    def _turn_for(self, player: str) -> TurnRecord:
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
        kind, _ = self.up
        ruleset = self._turn_ruleset(player, kind)
        opened = self.players[player].opened if kind != "shaharazad" else self.playoff[player] > 0
        turn = Turn(ruleset, opened=opened, scorer=self.scorer if ruleset is self.ruleset else None)
        return TurnRecord(len(self.turns), player, kind, self._row_for(kind), turn)

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

    def _live_for(self, player: str) -> TurnRecord:
        if self.live is None or self.live.player != player:
            last = self.turns[-1] if self.turns else None
            if last is not None and last.player == player and last.over:  # a bank after a zonk
                word = last.mark or last.outcome
                raise IllegalAction(f"{player}'s turn is over ({word}): {self.current or 'nobody'} is up")
            raise IllegalAction(f"{player} has no turn going (throw first)")
        return self.live

    def _turn_ruleset(self, player: str, kind: str) -> Ruleset:
        if kind != "shaharazad":
            return self.ruleset
        first, step = (*self.ruleset.game.shaharazad_open, 0, 0)[:2]
        seat = list(self.playoff).index(player)
        return dataclasses.replace(
            self.ruleset, turn=dataclasses.replace(self.ruleset.turn, open_minimum=first + step * seat))

    # --- closing a turn: score, hits, what comes next -----------------------------------

    def _close(self, record: TurnRecord, *, penalty: str = "", forced_points: int | None = None) -> None:
        turn = record.turn
        assert turn is not None
        player = self.players[record.player]
        if penalty:
            record.outcome, record.mark = "penalty", penalty
        elif forced_points is not None:
            record.outcome, record.points = "banked", forced_points
        else:
            record.outcome = turn.outcome
            record.points = turn.banked_points
            spaz = next((e for e in turn.events if isinstance(e, Spazzed)), None)
            zonk = next((e for e in turn.events if isinstance(e, Zonked)), None)
            record.mark = spaz.mark if spaz else zonk.mark if zonk else ""
            if spaz:
                player.skips.extend([self.ruleset.names.skipped] * spaz.skip_turns)
        counts_score = record.kind in ("regular", "rebuttal")
        before = player.score
        if record.outcome == "banked":
            if counts_score:
                player.score += record.points
                player.opened = True
            elif record.kind == "shaharazad":
                self.playoff[record.player] += record.points
            record.straight = self._one_straight(turn)
        record.score = player.score if record.kind != "shaharazad" else self.playoff[record.player]
        self.live = None
        self._turn_hits(record, before)
        if record.kind not in ("halftime",):  # halftime hits settle when the show ends
            self._settle(record)
        self._after_turn(record)
        self._advance()

    def _one_straight(self, turn: Turn) -> str:
        """C10: the straight's name when the turn was that one straight and nothing else."""
        kept = [e for e in turn.events if isinstance(e, Kept)]
        if len(kept) == 1:
            names = {s.name for s in self.ruleset.scoring.straights}
            return next((c for c in kept[0].combos if c in names), "")
        return ""

    def _turn_hits(self, rec: TurnRecord, before: int) -> None:
        """Every hit source of one turn (the turn's events and, when banked, the new score)."""
        rules = self.ruleset.hits
        turn = rec.turn
        assert turn is not None
        banked = rec.outcome == "banked"
        events = turn.events

        def earn(source: str, n: int = 1, **kw: Any) -> None:
            losable = source in rules.lost_on_zonk
            if losable and not banked:
                return
            for _ in range(n):
                self.hits.append(Hit(rec.player, source, rec.id, rec.id, losable=losable, **kw))

        for e in events:
            if isinstance(e, StraightThrown) and rules.straight:
                earn("straight")
            elif isinstance(e, Devil) and rules.devil:
                earn("devil")
            elif isinstance(e, Colors) and rules.colors:
                earn("colors")
            elif isinstance(e, CourtesyHit) and rules.courtesy:
                earn("courtesy")
            elif isinstance(e, Social) and rules.social:
                self._communal(rec, "social")
            elif isinstance(e, SlimPickins) and e.complete and rules.slim_pickins:
                earn("slim_pickins")
            elif isinstance(e, ThousandInThrow) and rules.throw_thousand:
                earn("throw_thousand", e.count)
            elif isinstance(e, Zonked) and e.full_throw:
                if rules.train_wreck:
                    earn("train_wreck")
                if rules.full_zonk:
                    earn("full_zonk")
        if rules.magic_number:
            for _ in range(rec.magic):
                self._communal(rec, "magic")
        if rules.turn_thousand:
            reached = max((e.turn_total for e in events if isinstance(e, Kept)), default=0)
            earn("turn_thousand", reached // 1000)
        if banked and rec.kind in ("regular", "rebuttal"):
            after = rec.score
            if rules.thousand:
                earn("thousand", after // 1000 - before // 1000)
            if rules.five_hundred and after % 1000 == 500:
                earn("five_hundred")
            if after in rules.squares:
                earn("square")
            if after in rules.specials:
                earn("special")
            if after in rules.magic_scores:
                earn("magic")
            if rules.opening and any(isinstance(e, Banked) and e.opening for e in events):
                earn("opening")
            for mark in rules.first_to:
                if mark not in self.first_to and after >= mark:
                    self.first_to[mark] = rec.player
                    earn("first_to")
        if rec.kind == "regular":
            self._zonk_hits(rec, earn)

    def _zonk_hits(self, rec: TurnRecord, earn: Callable[..., None]) -> None:
        """D5 every third zonk, Z4 three zonks in a row, A10/C7 sympathy."""
        rules, player = self.ruleset.hits, self.players[rec.player]
        zonked = rec.outcome in ZONKS or (
            rec.outcome in ("spaz", "penalty") and self.ruleset.spaz.counts_as_zonk)
        if zonked:
            player.zonks += 1
            if rules.zonk_count and player.zonks % rules.zonk_count == 0:
                earn("zonk_count")
            if rules.zonk_streak:
                player.zonk_streak.append(len(self.own_hits(rec)))
                if len(player.zonk_streak) == rules.zonk_streak:
                    if not any(player.zonk_streak[:-1]):
                        earn("zonk_streak")
                    player.zonk_streak = []
        else:
            player.zonk_streak = []
        if rec.outcome == "banked":
            player.scoreless = player.sympathies = 0
        elif rules.sympathy:
            player.scoreless += 1
            if hitrules.sympathy_due(player.scoreless, player.sympathies, rules.sympathy):
                earn("sympathy", optional=rules.sympathy_optional)
                player.scoreless = 0
                player.sympathies += 1

    def _communal(self, rec: TurnRecord, source: str) -> None:
        """A hit for every player (magic number, social): beside everyone's current score."""
        for name in self.order:
            shown = rec.id if name == rec.player else self._latest_record(name)
            self.hits.append(Hit(name, source, rec.id, shown))

    def _latest_record(self, player: str) -> int | None:
        return next((r.id for r in reversed(self.turns) if r.player == player), None)

    def _settle(self, rec: TurnRecord) -> None:
        """HIT INTEGRITY (W16) once every source of the turn is known, then three-in-three (A8)."""
        rules = self.ruleset.hits
        if rules.integrity:
            earned = len(self.own_hits(rec))
            previous = self._previous(rec)
            prev_hits = len(self.own_hits(previous)) if previous else 0
            for _ in range(hitrules.integrity(earned, prev_hits) - earned):
                self.hits.append(Hit(rec.player, "integrity", rec.id, rec.id))
        if rules.three_in_three and rec.kind in ("regular", "rebuttal"):
            self._three_in_three(rec)

    def _previous(self, rec: TurnRecord) -> TurnRecord | None:
        return next((r for r in reversed(self.turns[: rec.id]) if r.player == rec.player), None)

    def _three_in_three(self, rec: TurnRecord) -> None:
        player = self.players[rec.player]
        mine = [r for r in self.turns[: rec.id + 1] if r.player == rec.player
                and r.kind in ("regular", "rebuttal")][-3:]
        window = []
        for r in mine:
            if player.three_from is not None and r.id < player.three_from:
                continue
            counted = [h for h in self.hits if h.player == rec.player and h.shown == r.id
                       and not h.optional and h.source != "bonus"]
            if r.id == player.three_from:  # the last three-in-three hit starts the next one
                counted = [h for h in counted if h.source == "three_in_three"]
            window.append(len(counted))
        if player.three_from != rec.id and hitrules.three_in_three(window):
            self.hits.append(Hit(rec.player, "three_in_three", rec.id, rec.id))
            player.three_from = rec.id

    def _after_turn(self, rec: TurnRecord) -> None:
        """What a finished turn sets off: Can I roll?, the end, halftime, bonus rounds, rules."""
        rules, player = self.ruleset.game, self.players[rec.player]
        own = len(self.own_hits(rec))
        if rules.ask_to_roll and rec.outcome not in ("penalty", "skipped"):
            self.ask = Ask(own, rec.player) if own else None
        if rules.game_rules and rec.outcome in ZONKS and any(
                isinstance(e, Zonked) and e.full_throw for e in rec.turn.events):  # type: ignore[union-attr]
            self.six_die_zonks += 1
            if self.six_die_zonks > 1:  # the first six-die zonk of the game makes no rule (D8)
                self.may_rule = rec.player
        if rec.kind == "shaharazad":
            if self.playoff[rec.player] >= rules.shaharazad:
                self.winners = [rec.player]
                self._finish(decided=True)
            return
        if rec.kind not in ("regular", "rebuttal") or rec.outcome != "banked":
            return
        target = self.ruleset.target
        if rec.points and self._won_at_once(rec):
            return
        if rules.end == "all" and player.score >= target and not player.finished:
            self.finish_order.append(rec.player)
            player.finished = len(self.finish_order)
            if self.ruleset.hits.finish:
                self.hits.append(Hit(rec.player, "finish", rec.id, rec.id))
        halftime = rules.halftime and not self.halftime_done and rec.kind == "regular"
        if halftime and player.score >= rules.halftime:
            self._start_halftime(rec)
        for mark in rules.bonus_rounds:
            if player.score >= mark and (rec.player, mark) not in self.bonus_marks:
                self.bonus_marks.add((rec.player, mark))
                self.round_marks.append((rec.player, mark))
        if rules.end == "round" and player.score >= target and self.crosser is None:
            self.crosser = (rec.player, self.pos)

    def _won_at_once(self, rec: TurnRecord) -> bool:
        rules = self.ruleset.game
        forced = rec.turn is not None and any(isinstance(e, FiveOnes) for e in rec.turn.events)
        if (rules.end == "first" and self.players[rec.player].score >= self.ruleset.target) or (
                forced and rules.five_ones_win):
            self.winners = [rec.player]
            self._finish(decided=True)
            return True
        return False

    # --- rounds and specials ------------------------------------------------------------

    def _start_play(self) -> None:
        blocker = self._order_blocker()
        if blocker:
            raise IllegalAction(blocker)
        self.order = self._decided_order()
        passed = self.open_rules()
        for rule in self.setup.permanent_rules:
            if passed[rule.id]:
                self._apply_rule_text(rule.text)
        self.phase = "play"
        self._advance()

    def _rolling(self) -> list[str]:
        return self.tied or list(self.players)

    def _order_blocker(self) -> str | None:
        rules = self.ruleset.game
        if self.order_rolls == [{}]:
            return None  # nobody threw for order: seating order
        waiting = [p for p in self._rolling() if p not in self.order_rolls[-1]]
        if waiting:
            return f"the order of play is not decided: {', '.join(waiting)} must throw"
        if rules.order == "choose" and not self.chosen:
            return f"{self.chooser} chooses to go first or last"
        return None

    def _decided_order(self) -> list[str]:
        if self.ruleset.game.order == "highest" and self.chooser:
            seat = self.order.index(self.chooser)
            return self.order[seat:] + self.order[:seat]
        return self.order

    def _row_for(self, kind: str) -> int:
        return self.round_row if kind == "regular" else self.special.row if self.special else -1

    def _new_row(self, kind: str, number: int = 0) -> int:
        self.rows.append(Row(kind, number or self.round))
        return len(self.rows) - 1

    def _advance(self) -> None:
        """Choose the next turn: specials first, then the regular rotation, losing turns owed."""
        for _ in range(10_000):  # a bound, not a limit anyone reaches
            if self.phase in ("over", "shaharazad?"):
                self.up = None
                return
            if self.special is not None:
                if self.special.players:
                    name = self.special.players.pop(0)
                    self.up = (self.special.kind, name)
                    return
                self._end_special()
                continue
            if self.specials:
                self._begin_special(self.specials.popleft())
                continue
            if self.ending:
                self._finish()
                continue
            self.pos += 1
            if self.pos >= len(self.order) or self.round == 0:
                if self.round and self._end_round():
                    self.pos -= 1  # the round's specials come first; then the new round
                    continue
                self.round += 1
                self.pos = 0
                self.round_row = self._new_row("round")
            name = self.order[self.pos]
            player = self.players[name]
            if player.finished:
                continue
            if player.skips:
                self._record_skip(name, player.skips.pop(0))
                continue
            self.up = ("regular", name)
            return
        raise AssertionError("no next turn")

    def _record_skip(self, name: str, mark: str) -> None:
        rec = TurnRecord(len(self.turns), name, "regular", self.round_row, None, "skipped", mark,
                         score=self.players[name].score)
        self.turns.append(rec)
        self.rows[self.round_row].cells[name] = rec.id

    def _end_round(self) -> bool:
        """Queue the specials a finished round sets off (A9, A11); True if any were queued."""
        rules = self.ruleset.game
        queued = False
        for name, _mark in self.round_marks:  # A9: reverse order, starting with the scorer
            seat = self.order.index(name)
            players = [self.order[(seat - i) % len(self.order)] for i in range(len(self.order))]
            self.specials.append(Special("bonus", players, name))
            queued = True
        self.round_marks = []
        if self.crosser is not None and not self.ending:
            crosser, seat = self.crosser
            if rules.rebuttal and not rules.league:
                for name in self.order[:seat]:  # A11: they threw before the crosser this round
                    score = self.players[name].score
                    if rules.rebuttal <= score < self.ruleset.target:
                        self.specials.append(Special("rebuttal", [name], crosser))
            self.ending = True
            queued = True
        if rules.end == "all" and all(p.finished for p in self.players.values()):
            self.ending = True
            queued = True
        return queued

    def _start_halftime(self, rec: TurnRecord) -> None:
        """W15: dashes for the rest of the round, a line, one turn each from the scorer's left."""
        self.halftime_done = True
        row = self.rows[self.round_row]
        seat = self.order.index(rec.player)
        for name in self.order[seat + 1:]:
            row.cells[name] = DASH
        players = [self.order[(seat + 1 + i) % len(self.order)] for i in range(len(self.order))]
        self.specials.appendleft(Special("halftime", players, rec.player))

    def _begin_special(self, special: Special) -> None:
        if special.kind == "halftime":
            line = self._new_row("line")
            self.rows[line].cells = dict.fromkeys(self.order, DASH)
        special.row = self._new_row(special.kind)
        self.special = special

    def _end_special(self) -> None:
        special = self.special
        assert special is not None
        self.special = None
        records = [self.turns[i] for i in special.records]
        if special.kind in ("halftime", "bonus"):
            banked = [r for r in records if r.outcome == "banked"]
            best = max((r.points for r in banked), default=0)
            source = special.kind
            if getattr(self.ruleset.hits, source):
                for r in banked:
                    if r.points == best:  # ties: every tied player gets it
                        self.hits.append(Hit(r.player, source, r.id, r.id))
        if special.kind == "halftime":
            for r in records:
                self._settle(r)
            line = self._new_row("line")
            self.rows[line].cells = dict.fromkeys(self.order, DASH)
            if self.pos < len(self.order) - 1:  # play resumes where it stopped
                self.round_row = self._new_row("round")
                self.rows[self.round_row].cells = dict.fromkeys(self.order[: self.pos + 1], DASH)
            if records and self.ruleset.game.ask_to_roll:  # the settled hits are asked for
                own = len(self.own_hits(records[-1]))
                self.ask = Ask(own, records[-1].player) if own else None
        elif special.kind == "shaharazad" and self.phase != "over":
            self._queue_playoff_round()

    # --- the end ------------------------------------------------------------------------

    def leaders(self) -> list[str]:
        """The players past the target, the highest first."""
        past = [p for p in self.order if self.players[p].score >= self.ruleset.target]
        return sorted(past, key=lambda p: -self.players[p].score)

    def _finish(self, decided: bool = False) -> None:
        """End of the game: winners, end-of-game hits (A7, Z4), or the shaharazad question."""
        rules = self.ruleset
        self.ending = False
        if not decided and rules.game.end == "round":
            leaders = self.leaders()
            if rules.game.shaharazad and len(leaders) > 1 and self.phase != "shaharazad?":
                self.phase = "shaharazad?"
                return
        if not self.winners and rules.game.end != "all":
            best = max(p.score for p in self.players.values())
            self.winners = [p for p in self.order if self.players[p].score == best]
        self.phase = "over"
        self.up = None
        last = {p: self._latest_record(p) for p in self.order}

        def award(names: Iterable[str], source: str, optional: bool = False) -> None:
            for name in names:
                rid = last[name]
                if rid is not None:
                    self.hits.append(Hit(name, source, rid, rid, optional=optional))

        if rules.hits.winner:
            award(self.winners, "winner")
        if rules.hits.most_zonks:
            most = max(p.zonks for p in self.players.values())
            award([p for p in self.order if most and self.players[p].zonks == most], "most_zonks")
        if rules.hits.fewest_hits:
            fewest = min(self.hit_total(p) for p in self.order)
            award([p for p in self.order if self.hit_total(p) == fewest], "fewest_hits", optional=True)
        if rules.hits.three_in_three:  # end-of-game hits count in the last round (A8)
            for name in self.order:
                rid = last[name]
                if rid is not None and self.turns[rid].kind in ("regular", "rebuttal"):
                    self._three_in_three(self.turns[rid])

    def _start_playoff(self) -> None:
        """A12: a game to the shaharazad target between the players past the target."""
        leaders = self.leaders()
        self.playoff = dict.fromkeys(leaders, 0)
        self.phase = "play"
        self._queue_playoff_round()
        self._advance()

    def _queue_playoff_round(self) -> None:
        self.specials.append(Special("shaharazad", list(self.playoff)))

    def _apply_rule_text(self, text: str) -> None:
        """D8: ``KEY=VALUE`` changes the ruleset (point values) from now on; other text is kept."""
        key, sep, value = text.partition("=")
        if not sep:
            return
        try:
            parsed = tomllib.loads(f"v = {value.strip()}")["v"]
            self.ruleset = with_option(self.ruleset, key.strip(), parsed)
        except (tomllib.TOMLDecodeError, RulesetError) as exc:
            raise IllegalAction(f"rule {text!r}: {exc}") from None
        self.scorer = Scorer(self.ruleset)


def _dice(tokens: Sequence[str], n: int | None = None) -> tuple[Die, ...]:
    try:
        dice = tuple(parse_die(t) for t in tokens)
    except ValueError as exc:
        raise IllegalAction(str(exc)) from None
    if not dice or (n is not None and len(dice) != n):
        raise IllegalAction(f"expected {n or 'some'} dice")
    return dice


def _keep_indexes(kept: Sequence[Die], thrown: Sequence[Die]) -> list[int]:
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

