"""Actions: what a person (or the camera) does in a game, as typed objects; one line each in a log.

    Baldrick throw 1 5 2 3 6     # Throw: dice as thrown (colour:face when the variant needs colours)
    Baldrick keep 1 5            # Keep: dice set aside from the last throw, by value or @index
    Baldrick bank                # Bank
    Quean spaz [reason]          # Spaz
    Baldrick penalty space       # Penalty: space, dealer-spaz, miscall, clock, foul N, next N
    Baldrick space               # the same ("Baldrick foul 2" is "Baldrick penalty foul 2")
    magic 2 3 3 5 5              # the scorekeeper's MAGIC NUMBER (W2)
    Baldrick roll 6              # one die for the order of play (W3, C9)
    Baldrick goes first|last     # C9: the highest throw chooses
    Baldrick give Quean          # A4: the courtesy hit goes to Quean
    Quean rule 5s score 100      # D8 game rule; "scoring.singles.5=100" changes point values
    Quean permanent TEXT         # D8 permanent rule, after six of a kind
    vote 3 Quean yes             # D8: vote on permanent rule 3 at the start of a game
    Biggles shaharazad | accept | decline   # A12
    end                          # the scorekeeper ends the game (no shaharazad)
    undo                         # Undo: retract the last action that stands (X3)
    correct 7 die 2 white:2      # Correct: die 2 of throw 7 was a white 2 (X3)
    correct 7 Baldrick throw 1 5 2 3 4   # Correct: replace action 7 as a whole

The six actions of play (`Throw`, `Keep`, `Bank`, `Spaz`, `Penalty`, `Correct`) and `Undo` are
their own classes: programs build them, the game applies them, and the text above is only how a
log stores them and how a script is written (`parse_action`, `str`). The rarer actions are a
plain `Action` of a verb and its words. A correction names the action it corrects by its number
in the log, so it can never land on another throw.

The player may be left out of a line for the player whose turn it is; the game writes it in
before the line is stored, so a later correction cannot move an action to someone else.
"""
from __future__ import annotations

import dataclasses
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, cast

from zonkcam.rules.dice import DieFace, parse_die

PENALTIES = ("space", "dealer-spaz", "miscall", "clock", "foul", "next")
MAX_TURNS_LOST = 20  # a penalty's further turns lost: a game is not longer than that
# Penalties a table calls by name, like a spaz: "Ann space" is "Ann penalty space".
PENALTY_VERBS = frozenset({"space", "dealer-spaz", "miscall", "foul"})
TURN_VERBS = frozenset({"throw", "keep", "bank", "spaz"})
PLAYER_VERBS = TURN_VERBS | PENALTY_VERBS | {"penalty", "roll", "goes", "give", "rule", "permanent",
                                             "shaharazad", "accept", "decline"}
GAME_VERBS = frozenset({"magic", "vote", "end"})
LOG_VERBS = frozenset({"undo", "correct"})
VERBS = PLAYER_VERBS | GAME_VERBS | LOG_VERBS


class ActionError(ValueError):
    """A line that is not an action, or an action that is not well formed."""


class _Line:
    """What every action has: a verb, the player who does it (None for the game's and the log's
    own actions), the words after the verb, and when it was recorded (not part of the line)."""

    verb: ClassVar[str]
    player: str | None
    at: str | None

    @property
    def args(self) -> tuple[str, ...]:
        raise NotImplementedError

    def __str__(self) -> str:
        words = [self.player] if self.player else []
        return shlex.join([*words, self.verb, *self.args])

    def with_player(self, player: str) -> AnyAction:
        return cast("AnyAction", dataclasses.replace(self, player=player))  # type: ignore[type-var]

    def stamped(self, at: str | None) -> AnyAction:
        return cast("AnyAction", dataclasses.replace(self, at=at))  # type: ignore[type-var]


@dataclass(frozen=True)
class Action(_Line):
    """Any other action: a verb and its words, checked by the game when applied."""

    verb: str  # type: ignore[misc]
    player: str | None = None
    args: tuple[str, ...] = ()  # type: ignore[assignment]
    at: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Throw(_Line):
    verb: ClassVar[str] = "throw"
    player: str | None
    dice: tuple[DieFace, ...]
    at: str | None = field(default=None, compare=False, kw_only=True)

    @property
    def args(self) -> tuple[str, ...]:
        return tuple(map(str, self.dice))


@dataclass(frozen=True)
class Keep(_Line):
    """Dice set aside from the last throw: by value (and colour), or by position in the throw."""

    verb: ClassVar[str] = "keep"
    player: str | None
    dice: tuple[DieFace, ...] = ()
    positions: tuple[int, ...] = ()
    at: str | None = field(default=None, compare=False, kw_only=True)

    @property
    def args(self) -> tuple[str, ...]:
        return tuple(f"@{i}" for i in self.positions) if self.positions else tuple(map(str, self.dice))


@dataclass(frozen=True)
class Bank(_Line):
    verb: ClassVar[str] = "bank"
    player: str | None
    at: str | None = field(default=None, compare=False, kw_only=True)

    @property
    def args(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True)
class Spaz(_Line):
    verb: ClassVar[str] = "spaz"
    player: str | None
    reason: str = ""  # off_table, lost, stacked, knocked, ... ("" : called by the table)
    at: str | None = field(default=None, compare=False, kw_only=True)

    @property
    def args(self) -> tuple[str, ...]:
        return (self.reason,) if self.reason else ()


@dataclass(frozen=True)
class Penalty(_Line):
    verb: ClassVar[str] = "penalty"
    player: str | None
    kind: str
    turns: int = 0  # further turns lost (foul, next)
    at: str | None = field(default=None, compare=False, kw_only=True)

    def __post_init__(self) -> None:
        if self.kind not in PENALTIES:
            raise ActionError(f"penalty is one of: {', '.join(PENALTIES)}")
        if not 0 <= self.turns <= MAX_TURNS_LOST:
            raise ActionError(f"turns lost are 0 to {MAX_TURNS_LOST}, not {self.turns}")

    @property
    def args(self) -> tuple[str, ...]:
        return (self.kind, str(self.turns)) if self.turns else (self.kind,)


@dataclass(frozen=True)
class Undo(_Line):
    verb: ClassVar[str] = "undo"
    player: None = None
    at: str | None = field(default=None, compare=False, kw_only=True)

    @property
    def args(self) -> tuple[str, ...]:
        return ()


@dataclass(frozen=True)
class Correct(_Line):
    """Action `target` of the log (by its number, from 1) corrected: one die of a throw
    (`die_index`, `die`), or the whole action replaced (`replacement`)."""

    verb: ClassVar[str] = "correct"
    target: int
    die_index: int | None = None
    die: DieFace | None = None
    replacement: AnyAction | None = None
    player: None = None
    at: str | None = field(default=None, compare=False, kw_only=True)

    def __post_init__(self) -> None:
        if self.target < 1:
            raise ActionError("correct needs the number of the action to replace")
        if (self.replacement is None) == (self.die is None or self.die_index is None):
            raise ActionError("a correction is a die of a throw or a whole new action")
        if self.die_index is not None and self.die_index < 0:
            raise ActionError(f"no die {self.die_index}")
        if isinstance(self.replacement, Undo | Correct):
            raise ActionError("a correction replaces an action with another action")

    @property
    def args(self) -> tuple[str, ...]:
        if self.replacement is not None:
            return (str(self.target), *shlex.split(str(self.replacement)))
        return (str(self.target), "die", str(self.die_index), str(self.die))

    def apply_to(self, old: AnyAction) -> AnyAction:
        """The corrected action: the player and time stay those of the original."""
        if self.replacement is None:
            if not isinstance(old, Throw):
                raise ActionError(f"action {self.target} is a {old.verb}, not a throw")
            assert self.die_index is not None and self.die is not None
            if self.die_index >= len(old.dice):
                raise ActionError(f"throw {self.target} has no die {self.die_index}")
            dice = list(old.dice)
            dice[self.die_index] = self.die
            return dataclasses.replace(old, dice=tuple(dice))
        new = self.replacement
        if new.player is None and old.player and new.verb in PLAYER_VERBS:
            new = new.with_player(old.player)
        return new.stamped(old.at)


AnyAction = Action | Throw | Keep | Bank | Spaz | Penalty | Undo | Correct


def parse_action(line: str, players: Sequence[str], at: str | None = None) -> AnyAction:
    """One action from a line; ``players`` tells a leading name from a verb."""
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError as exc:
        raise ActionError(f"cannot read the line: {exc}") from None
    if not tokens:
        raise ActionError("empty line")
    player = None
    if tokens[0] in players:
        player, tokens = tokens[0], tokens[1:]
    if not tokens:
        raise ActionError(f"{player} does what? (throw, keep, bank, spaz, penalty, ...)")
    verb, args = tokens[0].lower(), tuple(tokens[1:])
    if verb not in VERBS:
        known = ", ".join(players)
        raise ActionError(f"unknown action or player {tokens[0]!r} (players: {known})")
    if player and verb not in PLAYER_VERBS:
        raise ActionError(f"'{verb}' is not done by a player")
    return _typed(verb, player, args, players).stamped(at)


def _typed(verb: str, player: str | None, args: tuple[str, ...], players: Sequence[str]) -> AnyAction:
    if verb in PENALTY_VERBS:
        verb, args = "penalty", (verb, *args)
    parse = _PARSERS.get(verb)
    return parse(player, args, players) if parse else Action(verb, player, args)


def _throw(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Throw:
    return Throw(player, dice_of(args))


def _keep(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Keep:
    if args and all(a.startswith("@") for a in args):
        if not all(a[1:].isdigit() for a in args):
            raise ActionError(f"not die positions: {shlex.join(args)}")
        return Keep(player, positions=tuple(int(a[1:]) for a in args))
    return Keep(player, dice=dice_of(args))


def _bank(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Bank:
    if args:
        raise ActionError("bank takes nothing more")
    return Bank(player)


def _spaz(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Spaz:
    if len(args) > 1:
        raise ActionError("spaz takes at most a reason")
    return Spaz(player, args[0] if args else "")


def _penalty(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Penalty:
    if not args:
        raise ActionError(f"penalty is one of: {', '.join(PENALTIES)}")
    if len(args) > 2 or (len(args) == 2 and not args[1].isdigit()):
        raise ActionError("a penalty takes at most a number of further turns lost")
    return Penalty(player, args[0], int(args[1]) if len(args) == 2 else 0)


def _undo(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Undo:
    if args:
        raise ActionError("undo takes nothing more")
    return Undo()


def _correct(player: str | None, args: tuple[str, ...], players: Sequence[str]) -> Correct:
    if not args or not args[0].isdigit():
        raise ActionError("correct needs the number of the action to replace, then the new line")
    target = int(args[0])
    if len(args) == 4 and args[1] == "die" and args[2].isdigit():
        return Correct(target, int(args[2]), dice_of(args[3:])[0])
    return Correct(target, replacement=parse_action(shlex.join(args[1:]), players))


# The verbs with a typed action; any other verb is a plain `Action` with its words.
_PARSERS: dict[str, Callable[[str | None, tuple[str, ...], Sequence[str]], AnyAction]] = {
    "throw": _throw, "keep": _keep, "bank": _bank, "spaz": _spaz, "penalty": _penalty,
    "undo": _undo, "correct": _correct,
}


def dice_of(tokens: Sequence[str]) -> tuple[DieFace, ...]:
    try:
        dice = tuple(parse_die(t) for t in tokens)
    except ValueError as exc:
        raise ActionError(str(exc)) from None
    if not dice:
        raise ActionError("expected some dice")
    return dice


# What a SPAZ's reason says to people (the log keeps the word on the left).
SPAZ_WORDS = {"off_table": "a die off the table", "knocked": "dice knocked", "stacked": "dice stacked",
              "lost": "a die lost", "dropped": "a die dropped", "called": "called"}


def describe(action: AnyAction) -> str:
    """An action in plain words, for a person (the kiosk's undo and redo; a keep's positions
    counted from 1): "Ann's throw 6 1",
    "Ann's SPAZ (a die off the table)". `str` is the log's and the script's form."""
    whose = f"{action.player}'s " if action.player else ""
    if isinstance(action, Keep) and action.positions:
        return f"{whose}keep (dice {', '.join(f'#{i + 1}' for i in action.positions)} of the throw)"
    if isinstance(action, Throw | Keep):
        return f"{whose}{action.verb} {' '.join(action.args)}"
    if isinstance(action, Spaz):
        reason = SPAZ_WORDS.get(action.reason, action.reason.replace("_", " "))
        return f"{whose}SPAZ ({reason})" if reason else f"{whose}SPAZ"
    if isinstance(action, Penalty):
        turns = f", {action.turns} more turn{'s' if action.turns != 1 else ''} lost" if action.turns else ""
        return f"{whose}penalty ({action.kind.replace('-', ' ')}{turns})"
    if isinstance(action, Correct):
        return f"the correction of action {action.target}"
    if isinstance(action, Bank | Undo):
        return f"{whose}{action.verb}"
    return str(action)


def effective(log: Sequence[AnyAction], players: Sequence[str]) -> list[tuple[int, AnyAction]]:
    """The actions that stand, as (number in the log, action), after undo and correct (X3).

    Numbers count every line of the log from 1, so an action keeps its number for good."""
    out: list[tuple[int, AnyAction]] = []
    for seq, action in enumerate(log, start=1):
        if isinstance(action, Undo):
            if not out:
                raise ActionError("nothing to undo")
            out.pop()
        elif isinstance(action, Correct):
            index = next((i for i, (s, _) in enumerate(out) if s == action.target), None)
            if index is None:
                raise ActionError(f"there is no action {action.target} to correct")
            out[index] = (action.target, action.apply_to(out[index][1]))
        else:
            out.append((seq, action))
    return out
