"""One player's turn as a state machine: throw -> keep -> throw the rest or bank.

    turn = Turn(load_variant("wheaton"), opened=False)
    turn.throw(make_dice([1, 5, 2, 3, 6]))   # -> ThrowScore with every legal keep
    turn.keep([0, 1])                        # the 1 and the 5: 150 so far
    turn.throw(make_dice([1, 4, 4]))
    turn.bank()                              # keeps the best of the last throw, banks 250

Illegal actions raise `IllegalAction` with the reason and leave the turn unchanged. The
turn never prints, sleeps or stores: the game layer records what it returns.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from zonkcam.rules import hooks
from zonkcam.rules.dice import DieFace, counts
from zonkcam.rules.events import (
    Banked,
    Event,
    HotDice,
    Kept,
    Knocked,
    Spazzed,
    Zonked,
)
from zonkcam.rules.ruleset import SPAZ_REASONS, Ruleset
from zonkcam.rules.scoring import Option, Scorer, ThrowScore

State = Literal["throw", "keep", "over"]
Outcome = Literal["banked", "zonk", "bloades", "vanna", "spaz"]


class IllegalAction(ValueError):
    """The action breaks a rule; the message says which."""


@dataclass(frozen=True)
class _Keep:
    dice: tuple[int, ...]
    points: int


class Turn:
    def __init__(self, ruleset: Ruleset, *, opened: bool = True, scorer: Scorer | None = None):
        self.ruleset = ruleset
        self.opened = opened  # the player has already dialled in / opened
        self.scorer = scorer or Scorer(ruleset)
        self.state: State = "throw"
        self.outcome: Outcome | None = None
        self.total = 0  # points set aside this turn
        self.dice_left = ruleset.dice  # dice to throw next
        self.dice_scored = 0  # dice set aside this turn, over every round of hot dice
        self.hot = False  # every die has scored; the next throw is all of them again
        self.hot_by_straight = False  # ... and the last keep was a straight
        self.throws = 0
        self.last: ThrowScore | None = None
        self.events: list[Event] = []
        self._keeps: list[_Keep] = []
        self._on_table: tuple[int, ...] = (0,) * 6  # faces kept since all dice last went up
        self._keep_hooks = [hooks.KEEP_HOOKS[n] for n in ruleset.hooks if n in hooks.KEEP_HOOKS]

    # --- actions ------------------------------------------------------------------------

    def throw(self, dice: Sequence[DieFace]) -> ThrowScore:
        """Record a throw; a throw with nothing to keep ends the turn."""
        self._require("throw", "keep dice from the last throw or bank first")
        dice = tuple(dice)
        if len(dice) != self.dice_left:
            which = "all of them" if self.dice_left == self.ruleset.dice else "the dice not kept"
            raise IllegalAction(f"expected {self.dice_left} dice ({which}), got {len(dice)}")
        score = self.scorer.score(dice)
        after_hot = self.hot
        self.throws += 1
        self.last = score
        self.hot = self.hot_by_straight = False
        self.events.extend(score.events)
        if score.zonk:
            kind: Outcome = "zonk" if self.throws == 1 else "vanna" if after_hot else "bloades"
            mark = getattr(self.ruleset.names, kind)
            full = len(dice) == self.ruleset.dice
            self.events.append(Zonked(kind, mark, len(dice), full, self.total))
            self._end(kind)
        else:
            self.state = "keep"
        return score

    def keep(self, indexes: Sequence[int]) -> Kept:
        """Set aside these dice (indexes into the last throw)."""
        self._require("keep", "throw first" if self.throws == 0
                      else "the last throw's dice are already set aside: throw the dice left, or bank")
        option = self._option(indexes)
        self._apply_keep(option)
        return self._last_kept()

    def bank(self) -> Banked:
        """End the turn scoring its total; right after a throw, the best keep is taken first."""
        if self.state == "keep":
            option = self._bankable_option()
            if option is None:
                assert self.last is not None and self.last.best is not None
                raise IllegalAction(self._bank_blocker(self.last.best) or "")
            self._apply_keep(option)
        self._require("throw", "the turn is over")
        blocker = self._bank_blocker(None)
        if blocker:
            raise IllegalAction(blocker)
        event = Banked(self.total, opening=not self.opened)
        self.events.append(event)
        self._end("banked")
        return event

    def spaz(self, reason: str = "called") -> Spazzed | Knocked:
        """Dice mishandled (camera or called): ends the turn unless the ruleset ignores it."""
        if reason not in SPAZ_REASONS:
            raise IllegalAction(f"unknown spaz reason {reason!r} (known: {', '.join(SPAZ_REASONS)})")
        self._require_live()
        rules = self.ruleset.spaz
        if reason in rules.ignore:
            event: Spazzed | Knocked = Knocked()
            self.events.append(event)
            return event
        event = Spazzed(
            reason,
            self.ruleset.names.spaz,
            self.total,
            rules.counts_as_zonk,
            rules.skip_turns.get(reason, 0),
        )
        self.events.append(event)
        self._end("spaz")
        return event

    # --- questions ----------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state == "over"

    @property
    def banked_points(self) -> int:
        return self.total if self.outcome == "banked" else 0

    @property
    def set_aside(self) -> tuple[int, ...]:
        """How many dice of each face (1..6) are set aside since all the dice last went up."""
        return self._on_table

    def bank_total(self) -> int | None:
        """The points a bank now would score (the best bankable keep taken first), or None."""
        if self.bank_blocker() is not None:
            return None
        if self.state == "keep":
            option = self._bankable_option()
            assert option is not None
            return self.total + self._keep_value(option)[0]
        return self.total

    def bank_blocker(self) -> str | None:
        """Why the player may not bank now, or None if they may."""
        if self.state == "keep":
            if self._bankable_option() is None:
                assert self.last is not None and self.last.best is not None
                return self._bank_blocker(self.last.best)
            return None
        if self.state == "over":
            return "the turn is over"
        if self.throws == 0:
            return "nothing thrown yet"
        return self._bank_blocker(None)

    # --- internals ----------------------------------------------------------------------

    def _bankable_option(self) -> Option | None:
        """The best keep of the last throw after which the turn may be banked."""
        assert self.last is not None
        return next((o for o in self.last.options if self._bank_blocker(o) is None), None)

    def _bank_blocker(self, pending: Option | None) -> str | None:
        total = self.total + (self._keep_value(pending)[0] if pending else 0)
        scored = self.dice_scored + (len(pending.keep) if pending else 0)
        hot = pending.all_scored if pending else self.hot
        rules = self.ruleset.turn
        if rules.bank_after_straight and (self._is_straight(pending) if pending else self.hot_by_straight):
            hot = False
        if hot and rules.hot_dice == "mandatory":
            mark = self.ruleset.names.hot_dice
            return f"{mark}: every die has scored, so all {self.ruleset.dice} must be thrown again"
        if not self.opened and total < rules.open_minimum:
            word = self.ruleset.names.open
            return f"{word} needs at least {rules.open_minimum} in one turn; this turn has {total}"
        if self.opened and total < rules.stop_minimum and scored < rules.stop_min_dice:
            return (
                f"a turn may stop only with {rules.stop_minimum} points or "
                f"{rules.stop_min_dice} dice scored; this one has {total} from {scored}"
            )
        return None

    def _option(self, indexes: Sequence[int]) -> Option:
        assert self.last is not None
        n = len(self.last.dice)
        if not indexes:
            raise IllegalAction("at least one scoring die must be set aside")
        if len(set(indexes)) != len(indexes) or not all(0 <= i < n for i in indexes):
            raise IllegalAction(f"keep indexes must be distinct, 0 to {n - 1}: {list(indexes)}")
        option = self.last.option_for(indexes)
        if option is None:
            values = " ".join(str(self.last.dice[i].value) for i in sorted(indexes))
            unbreakable = [s for s in self.ruleset.scoring.straights if s.unbreakable]
            if unbreakable and any(e.type == "straight" for e in self.last.events):
                raise IllegalAction(f"{values} cannot be set aside: a {unbreakable[0].name} cannot be "
                                    "broken up (keep all of it)")
            raise IllegalAction(f"{values} cannot be set aside: only scoring dice may be kept")
        return option

    def _apply_keep(self, option: Option) -> None:
        assert self.last is not None
        dice = tuple(self.last.dice[i].value for i in option.keep)
        points, combos, self._on_table = self._keep_value(option)
        self.total += points
        self.dice_scored += len(dice)
        self.dice_left -= len(dice)
        self._keeps.append(_Keep(dice, points))
        self.events.append(Kept(dice, points, combos, self.total))
        keeps = [(k.dice, k.points) for k in self._keeps]
        for hook in self._keep_hooks:
            self.events.extend(hook(self.ruleset, keeps))
        if self.dice_left == 0:
            self.hot = True
            self.hot_by_straight = self._is_straight(option)
            self.dice_left = self.ruleset.dice
            self._on_table = (0,) * 6
            mandatory = self.ruleset.turn.hot_dice == "mandatory"
            self.events.append(HotDice(self.ruleset.names.hot_dice, self.total, mandatory))
        self.state = "throw"

    def _is_straight(self, option: Option) -> bool:
        names = {s.name for s in self.ruleset.scoring.straights}
        return bool(names.intersection(option.combos))

    def _keep_value(self, option: Option) -> tuple[int, tuple[str, ...], tuple[int, ...]]:
        """Points and combinations a keep adds, and the faces kept on the table after it.

        With combine_kept the keep is valued together with the dice already kept."""
        assert self.last is not None
        dice = counts([self.last.dice[i] for i in option.keep])
        on_table = tuple(a + b for a, b in zip(self._on_table, dice, strict=True))
        if not self.ruleset.turn.combine_kept:
            return option.points, option.combos, on_table
        before = self.scorer.split(self._on_table)
        after = self.scorer.split(on_table)
        assert before is not None and after is not None  # unions of legal keeps always split
        return after[0] - before[0], after[1], on_table

    def _last_kept(self) -> Kept:
        return next(e for e in reversed(self.events) if isinstance(e, Kept))

    def _require(self, state: State, hint: str) -> None:
        if self.state != state:
            if self.state == "over":
                raise IllegalAction(f"the turn is over ({self.outcome})")
            raise IllegalAction(hint)

    def _require_live(self) -> None:
        if self.state == "over":
            raise IllegalAction(f"the turn is over ({self.outcome})")

    def _end(self, outcome: Outcome) -> None:
        self.state = "over"
        self.outcome = outcome
        if outcome != "banked":
            self.total = 0
