"""What a settled throw means to the game: the camera's view turned into typed actions.

The game is the authority. The dice set aside are the dice still on the table that the turn
had not set aside before (the turn knows which faces it holds, so a throw that was not scored
in between changes nothing). Picking up every die is hot dice when the last throw all scored,
or, with gesture banking, a bank when the turn may be banked: the dice then thrown are the next
player's first throw, but after a bank that ends the game (or leads to albany's shaharazad
question) they are nobody's, and the bank alone is recorded. A die off the table, lost, stacked
or knocked is a spaz. What cannot be read (a cocked die, a die with no value, dice
placed rather than thrown) raises `Unread`; what the rules refuse raises `IllegalAction`.
Nothing is guessed into the score.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from zonkcam.rules.actions import AnyAction, Bank, Keep, Spaz, Throw
from zonkcam.rules.dice import DieFace
from zonkcam.rules.game import Game
from zonkcam.rules.turn import IllegalAction
from zonkcam.vision.dice import Die

# Throw-event flags that end the turn as a spaz, with the reason the rules know them by.
SPAZ_FLAGS = {"spaz": "off_table", "lost": "lost", "stacked": "stacked", "knocked": "knocked"}


class Unread(ValueError):
    """The throw cannot be scored as seen: throw again, or enter the die that was not read."""


@dataclass(frozen=True)
class Seen:
    """One settled throw as the camera saw it (the parts of a vision ThrowEvent the game needs)."""

    thrown: tuple[Die, ...]
    kept: tuple[Die, ...]  # dice on the table from before, still there
    flags: tuple[str, ...]

    def with_die(self, index: int, value: int | None = None, color: str | None = None) -> Seen:
        """The throw with thrown die `index` entered by a person: read, and lying flat."""
        die = self.thrown[index]
        die = replace(die, value=value if value is not None else die.value, color=color or die.color,
                      status="ok" if (value is not None or die.value is not None) else die.status)
        thrown = (*self.thrown[:index], die, *self.thrown[index + 1:])
        cocked = any(d.status == "cocked" for d in thrown)
        flags = tuple(f for f in self.flags if f != "cocked" or cocked)
        return Seen(thrown, self.kept, flags)


def actions_for(seen: Seen, game: Game, *, gesture_bank: bool, colors: bool) -> list[AnyAction]:
    """The actions one settled throw stands for, in order; the player is left to the game
    (each action is recorded for whoever is up when it is applied)."""
    if game.current is None:
        raise IllegalAction("no game is waiting for a throw")
    if "not_thrown" in seen.flags:
        raise Unread("the dice were placed, not thrown: throw again")
    spaz = next((SPAZ_FLAGS[f] for f in seen.flags if f in SPAZ_FLAGS), None)
    if spaz is None and ("cocked" in seen.flags or any(d.status == "cocked" for d in seen.thrown)):
        raise Unread("a die is cocked: throw again, or tap it to enter its face")
    if spaz is not None:
        try:  # a keep made before the spaz is still recorded; a spaz ends the turn regardless
            before = _before(seen, game, gesture_bank=gesture_bank, colors=colors)
        except IllegalAction:
            before = []
        if _game_ending_bank(before, game):
            return before
        return [*before, Spaz(None, spaz)]
    before = _before(seen, game, gesture_bank=gesture_bank, colors=colors)
    if _game_ending_bank(before, game):
        return before  # the last bank of the game: the dice thrown after it are nobody's
    if any(d.value is None for d in seen.thrown):
        raise Unread("a die could not be read: tap it to enter its face")
    return [*before, Throw(None, tuple(_die(d, colors) for d in seen.thrown))]


def _game_ending_bank(before: list[AnyAction], game: Game) -> bool:
    """Whether `before` ends in a bank that leaves nobody up: it ends the game, or leads to a
    decision the people at the table take on the page (albany's shaharazad, A12). The game is
    replayed with it, as the store checks it, so every rule that ends a game is the game's own."""
    if not before or not isinstance(before[-1], Bank) or game.current is None:
        return False
    try:
        after = Game.replay(game.setup, [*game.log, before[-1].with_player(game.current)], new=1)
    except IllegalAction:
        return False  # the bank itself is refused: let the store say why
    return after.current is None


def _before(seen: Seen, game: Game, *, gesture_bank: bool, colors: bool) -> list[AnyAction]:
    """The keep (or bank) the dice left on the table say was made before this throw."""
    rec = game.live
    turn = rec.turn if rec is not None else None
    if turn is None or turn.state != "keep":
        return []
    assert turn.last is not None
    aside = Counter({face: n for face, n in enumerate(turn.set_aside, start=1) if n})
    on_table = [d for d in seen.kept if d.value is not None]
    new = _unmatched(on_table, aside)
    if new:
        return [_keep(new, turn.last.dice, colors)]
    if on_table:
        raise IllegalAction("every die of the last throw was picked up, but a scoring die must stay")
    if any(o.all_scored for o in turn.last.options) and len(seen.thrown) == game.ruleset.dice:
        return [Keep(None, tuple(turn.last.dice))]  # hot dice
    if not gesture_bank:
        raise IllegalAction("every die was picked up, but at least one scoring die must stay")
    blocker = turn.bank_blocker()
    if blocker is not None:
        raise IllegalAction(f"every die was picked up, but the turn may not be banked: {blocker}")
    return [Bank(None)]


def _unmatched(on_table: Sequence[Die], aside: Counter[int]) -> list[Die]:
    """The dice on the table beyond the faces the turn already holds."""
    left = Counter(aside)
    out = []
    for d in on_table:
        assert d.value is not None
        if left[d.value]:
            left[d.value] -= 1
        else:
            out.append(d)
    return out


def _keep(new: Sequence[Die], last: Sequence[DieFace], colors: bool) -> Keep:
    """Keep by value, and by colour where the variant cares and the colours match the throw."""
    if colors:
        dice = tuple(_die(d, True) for d in new)
        if not Counter(dice) - Counter(last):
            return Keep(None, dice)
    return Keep(None, tuple(DieFace(d.value) for d in new if d.value is not None))


def _die(d: Die, colors: bool) -> DieFace:
    assert d.value is not None
    return DieFace(d.value, d.color if colors and d.color else None)
