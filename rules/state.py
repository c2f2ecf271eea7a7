"""`GameState`: everything a game holds, and the questions asked of it.

The game's phases (`halftime`, `bonus`, `shaharazad`, ...) read and change a `GameState`;
`Game` adds the actions on top. Like python-chess's `BaseBoard` under `Board`, so the phase
modules need not import the game that calls them.
"""
from __future__ import annotations

from collections import deque

from zonkcam.rules.actions import AnyAction
from zonkcam.rules.order import OrderOfPlay
from zonkcam.rules.records import DASH, Ask, GameSetup, Hit, Player, Row, Special, TurnRecord


class GameState:
    def __init__(self, setup: GameSetup) -> None:
        self.setup = setup
        self.ruleset = setup.ruleset  # changed by game rules and permanent rules (D8)
        self.scorer = setup.scorer
        self.players = {name: Player(name) for name in setup.players}
        self.phase = "setup"  # setup, play, shaharazad?, over
        self.log: list[AnyAction] = []
        self.last_at: str | None = None
        # before play (`order`, W2)
        self.order = list(setup.players)  # the order of play, once play starts
        self.order_of_play = OrderOfPlay(self.ruleset.game.order, setup.players)  # W3, C9
        self.magic: tuple[int, ...] = ()  # W2
        # the sheet and the hits (`hits`)
        self.turns: list[TurnRecord] = []
        self.rows: list[Row] = []
        self.hits: list[Hit] = []
        self.first_to: dict[int, str] = {}  # mark -> the first player to reach it (A7, Z4)
        self.ask: Ask | None = None  # W17
        # who is up (`rounds`)
        self.up: tuple[str, str] | None = None  # (kind, player) of the turn to play next
        self.live: TurnRecord | None = None
        self.pos = -1  # seat of the regular turn last chosen
        self.round = 0
        self.round_row = -1
        self.specials: deque[Special] = deque()  # queued, played before the next regular turn
        self.special: Special | None = None  # being played
        # the phases (`halftime`, `bonus`, `ending`, `shaharazad`)
        self.halftime_done = False
        self.round_marks: list[tuple[str, int]] = []  # bonus marks reached this round (A9)
        self.bonus_marks: set[tuple[str, int]] = set()
        self.crosser: tuple[str, int] | None = None  # first to the target this round, and seat
        self.ending = False  # the game ends once the specials queued now are played
        self.winners: list[str] = []
        self.finish_order: list[str] = []  # D7
        self.playoff: dict[str, int] = {}  # A12 shaharazad scores
        self.playoff_request: str | None = None
        # rules the players make (`permanent`, D8)
        self.six_die_zonks = 0
        self.may_rule: str | None = None  # who may make a game rule now
        self.may_permanent: list[str] = []  # who earned a permanent rule
        self.game_rules: list[tuple[str, str]] = []
        self.new_permanent: list[tuple[str, str]] = []
        self.votes: dict[int, dict[str, bool]] = {}  # permanent rule id -> player -> yes

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

    def leaders(self) -> list[str]:
        """The players past the target, the highest first."""
        past = [p for p in self.order if self.players[p].score >= self.ruleset.target]
        return sorted(past, key=lambda p: -self.players[p].score)

    def latest_record(self, player: str) -> int | None:
        return next((r.id for r in reversed(self.turns) if r.player == player), None)

    def previous(self, rec: TurnRecord) -> TurnRecord | None:
        """The player's turn before ``rec``."""
        return next((r for r in reversed(self.turns[: rec.id]) if r.player == rec.player), None)

    def new_row(self, kind: str, number: int = 0) -> int:
        self.rows.append(Row(kind, number or self.round))
        return len(self.rows) - 1

    def dash_line(self) -> None:
        """W15: a line of dashes across the sheet, before and after the halftime show."""
        self.rows[self.new_row("line")].cells = dict.fromkeys(self.order, DASH)

    def ask_after(self, rec: TurnRecord) -> None:
        """W17: the next player asks "Can I roll?" once per hit of the turn just played."""
        own = len(self.own_hits(rec))
        self.ask = Ask(own, rec.player) if own else None
