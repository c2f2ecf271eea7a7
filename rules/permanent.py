"""Rules the players make (D8): a game rule after a six-die zonk, a permanent rule earned
with six of a kind and voted on at the start of each later game.

A rule written ``KEY=VALUE`` changes the ruleset from then on (``scoring.singles.5 = 100``);
any other text is kept on the sheet for the table to honour.
"""
from __future__ import annotations

import tomllib
from collections.abc import Sequence

from zonkcam.rules.actions import Action
from zonkcam.rules.events import Event, SixOfAKind, Zonked
from zonkcam.rules.records import ZONKS, PermanentRule, TurnRecord
from zonkcam.rules.ruleset import RulesetError, with_option
from zonkcam.rules.scoring import Scorer
from zonkcam.rules.state import GameState
from zonkcam.rules.turn import IllegalAction

__all__ = [  # PermanentRule is a record (`records`); it is found here too
    "PermanentRule", "apply_passed", "apply_text", "earn", "make_rule", "open_rules", "thrown", "turn_over",
    "vote",
]


def vote(state: GameState, a: Action) -> None:
    """``vote RULE PLAYER yes|no``, before play starts."""
    if state.phase != "setup":
        raise IllegalAction("permanent rules are voted on before play starts")
    if len(a.args) != 3 or a.args[2] not in ("yes", "no") or a.args[1] not in state.players:
        raise IllegalAction("vote RULE PLAYER yes|no")
    ids = {r.id for r in state.setup.permanent_rules}
    if not a.args[0].isdigit() or int(a.args[0]) not in ids:
        raise IllegalAction(f"no permanent rule {a.args[0]} on the table")
    state.votes.setdefault(int(a.args[0]), {})[a.args[1]] = a.args[2] == "yes"


def open_rules(state: GameState) -> dict[int, bool]:
    """Whether each permanent rule on the table passes (its owner's vote counts twice; a majority)."""
    result = {}
    for rule in state.setup.permanent_rules:
        votes = state.votes.get(rule.id, {})
        yes = sum((2 if p == rule.owner else 1) for p, v in votes.items() if v)
        result[rule.id] = yes * 2 > len(state.players) + 1
    return result


def apply_passed(state: GameState) -> None:
    """Play starts: the permanent rules voted in take effect."""
    passed = open_rules(state)
    for rule in state.setup.permanent_rules:
        if passed[rule.id]:
            apply_text(state, rule.text)


def thrown(state: GameState, player: str, events: Sequence[Event]) -> None:
    """A throw ends the chance to make a game rule; six of a kind earns a permanent one."""
    state.may_rule = None
    if state.ruleset.game.permanent_rules and any(isinstance(e, SixOfAKind) for e in events):
        state.may_permanent.append(player)


def turn_over(state: GameState, rec: TurnRecord) -> None:
    """A six-die zonk, but not the game's first, lets its player make a game rule."""
    if not state.ruleset.game.game_rules or rec.outcome not in ZONKS:
        return
    assert rec.turn is not None
    if any(isinstance(e, Zonked) and e.full_throw for e in rec.turn.events):
        state.six_die_zonks += 1
        if state.six_die_zonks > 1:
            state.may_rule = rec.player


def make_rule(state: GameState, a: Action) -> None:
    """``PLAYER rule TEXT``: a game rule, right after the player's six-die zonk."""
    if state.may_rule != a.player:
        raise IllegalAction("a game rule is made right after a six-die zonk (not the game's first)")
    assert a.player is not None  # a player's verb
    text = " ".join(a.args)
    apply_text(state, text)
    state.game_rules.append((a.player, text))
    state.may_rule = None


def earn(state: GameState, a: Action) -> None:
    """``PLAYER permanent TEXT``: the permanent rule earned with six of a kind, for later games."""
    if a.player not in state.may_permanent:
        raise IllegalAction("a permanent rule is earned with six of a kind")
    state.may_permanent.remove(a.player)
    state.new_permanent.append((a.player, " ".join(a.args)))


def apply_text(state: GameState, text: str) -> None:
    """``KEY=VALUE`` changes the ruleset (point values) from now on; other text is kept."""
    key, sep, value = text.partition("=")
    if not sep:
        return
    try:
        parsed = tomllib.loads(f"v = {value.strip()}")["v"]
        state.ruleset = with_option(state.ruleset, key.strip(), parsed)
    except (tomllib.TOMLDecodeError, RulesetError) as exc:
        raise IllegalAction(f"rule {text!r}: {exc}") from None
    state.scorer = Scorer(state.ruleset)
