"""The records a game keeps: its setup, players, turns, sheet rows, hits and queued specials.

Plain data, written by the game and its phases and read by the sheet, the statistics and
the kiosk; nothing here knows the rules that fill it in.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cached_property
from typing import Any

from zonkcam.rules.actions import VERBS, AnyAction
from zonkcam.rules.ruleset import Ruleset
from zonkcam.rules.scoring import Scorer
from zonkcam.rules.turn import IllegalAction, Turn

ZONKS = ("zonk", "bloades", "vanna")
DASH = "dash"  # a sheet cell whose turn is played elsewhere (W15)
SCORING_KINDS = ("regular", "rebuttal")  # the turns whose points count in the game score


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


@dataclass
class Hit:
    """A hit (bong hit, B) earned from a source on one turn, by one player.

    It is drawn on the sheet in the cell of the recipient's turn that `shown` names (for a
    communal hit earned on someone else's turn: the recipient's latest cell). Optional hits
    (sympathy) are offered, not earned: they count in no total."""

    player: str  # who takes it
    source: str  # thousand, five_hundred, square, special, magic, straight, devil, halftime, social,
    # courtesy, colors, train_wreck, slim_pickins, opening, turn_thousand, throw_thousand, full_zonk,
    # zonk_count, zonk_streak, first_to, winner, finish, most_zonks, fewest_hits, three_in_three,
    # bonus, sympathy, integrity
    turn: int  # the turn that earned it
    shown: int | None = None  # the turn whose cell shows it (None: the recipient's next turn)
    optional: bool = False  # sympathy: the player may take it; not counted as earned
    losable: bool = False  # lost if its turn does not bank (colors6 straight, COLORS)
    given_by: str | None = None  # a courtesy hit given away (A4)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
