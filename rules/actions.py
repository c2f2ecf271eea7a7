"""Actions: what a person (or the camera) records in a game, one line each.

    Baldrick throw 1 5 2 3 6     # dice as thrown (colour:face when the variant needs colours)
    Baldrick keep 1 5            # dice set aside from the last throw, by value or @index
    Baldrick bank
    Quean spaz [reason]
    Baldrick penalty space       # space, dealer-spaz, miscall, clock, foul N, next N
    magic 2 3 3 5 5              # the scorekeeper's MAGIC NUMBER (W2)
    Baldrick roll 6              # one die for the order of play (W3, C9)
    Baldrick goes first|last     # C9: the highest throw chooses
    Baldrick give Quean          # A4: the courtesy hit goes to Quean
    Quean rule 5s score 100      # D8 game rule; "scoring.singles.5=100" changes point values
    Quean permanent TEXT         # D8 permanent rule, after six of a kind
    vote 3 Quean yes             # D8: vote on permanent rule 3 at the start of a game
    Biggles shaharazad | accept | decline   # A12
    end                          # the scorekeeper ends the game (no shaharazad)
    undo                         # retract the last action (X3)
    correct 7 Baldrick throw 1 5 2 3 4   # replace action 7 (X3)

The log of a game is a list of these lines; the game state is a pure function of it. The
player may be left out of a line for the player whose turn it is; the game writes it in
before the line is stored, so a later correction cannot move an action to someone else.
"""
from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass

TURN_VERBS = frozenset({"throw", "keep", "bank", "spaz"})
PLAYER_VERBS = TURN_VERBS | {"penalty", "roll", "goes", "give", "rule", "permanent", "shaharazad",
                             "accept", "decline"}
GAME_VERBS = frozenset({"magic", "vote", "end"})
LOG_VERBS = frozenset({"undo", "correct"})
VERBS = PLAYER_VERBS | GAME_VERBS | LOG_VERBS


class ActionError(ValueError):
    """A line that is not an action."""


@dataclass(frozen=True)
class Action:
    verb: str
    player: str | None = None
    args: tuple[str, ...] = ()
    at: str | None = None  # when it was recorded (ISO time); not part of the line

    def __str__(self) -> str:
        words = [self.player] if self.player else []
        return shlex.join([*words, self.verb, *self.args])

    def with_player(self, player: str) -> Action:
        return Action(self.verb, player, self.args, self.at)


def parse_action(line: str, players: Sequence[str], at: str | None = None) -> Action:
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
    if verb == "correct":
        if not args or not args[0].isdigit():
            raise ActionError("correct needs the number of the action to replace, then the new line")
        parse_action(shlex.join(args[1:]), players)  # the replacement must itself be an action
    return Action(verb, player, args, at)


def effective(log: Sequence[Action], players: Sequence[str]) -> list[tuple[int, Action]]:
    """The actions that stand, as (number in the log, action), after undo and correct (X3).

    Numbers count every line of the log from 1, so an action keeps its number for good."""
    out: list[tuple[int, Action]] = []
    for seq, action in enumerate(log, start=1):
        if action.verb == "undo":
            if not out:
                raise ActionError("nothing to undo")
            out.pop()
        elif action.verb == "correct":
            target = int(action.args[0])
            index = next((i for i, (s, _) in enumerate(out) if s == target), None)
            if index is None:
                raise ActionError(f"there is no action {target} to correct")
            old = out[index][1]
            new = parse_action(shlex.join(action.args[1:]), players)
            if new.player is None and old.player and new.verb in PLAYER_VERBS:
                new = new.with_player(old.player)
            out[index] = (target, Action(new.verb, new.player, new.args, old.at))
        else:
            out.append((seq, action))
    return out
