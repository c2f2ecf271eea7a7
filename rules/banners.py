"""What the kiosk flashes across the screen after an action: ZONK!, DEVIL HIT, MAGIC NUMBER…

`banners(before, after)` compares the game before and after one recorded action and names
what that action set off, in the seeds' words (the ruleset's own mark for a zonk or a spaz);
`new_hits(before, after)` counts the hits it gave, per player: the hits to take now.
"""
from __future__ import annotations

from collections import Counter

from zonkcam.rules.events import Event
from zonkcam.rules.game import Game

# Turn events worth a banner, by event type (zonks and spazzes use the ruleset's mark).
_EVENT_TEXT = {
    "devil": "DEVIL HIT",
    "social": "SOCIAL!",
    "courtesy_hit": "COURTESY HIT",
    "colors": "COLORS!",
    "six_of_a_kind": "SIX OF A KIND!",
    "five_ones": "FIVE ONES!",
    "hot_dice": "HOT DICE",
}


def banners(before: Game, after: Game) -> list[str]:
    """Banner texts for what changed from `before` to `after` (one action later)."""
    return [text for _, text in kinds_and_banners(before, after)]


def kinds_and_banners(before: Game, after: Game) -> list[tuple[str, str]]:
    """(kind, text) of each banner: the event type (zonk, spaz, hot_dice, devil, ...), "magic"
    or "halftime"; the page plays a sound for some kinds."""
    seen = {r.id: (len(r.turn.events) if r.turn else 0, r.magic) for r in before.turns}
    out: list[tuple[str, str]] = []
    for record in after.turns:
        events, magic = seen.get(record.id, (0, 0))
        if record.turn is not None:
            out.extend((e.type, t) for e in record.turn.events[events:] if (t := _event_text(e)))
        if record.magic > magic:
            out.append(("magic", "MAGIC NUMBER"))
    if _in_halftime(after) and not _in_halftime(before):
        out.append(("halftime", "HALFTIME SHOW"))
    return out


def _event_text(event: Event) -> str | None:
    if event.type in ("zonk", "spaz"):
        return f"{getattr(event, 'mark', '') or event.type.upper()}!"
    if event.type == "straight":
        return f"{getattr(event, 'name', 'straight').upper()}!"
    return _EVENT_TEXT.get(event.type)


def _in_halftime(game: Game) -> bool:
    return (game.special is not None and game.special.kind == "halftime") or any(
        s.kind == "halftime" for s in game.specials)


def new_hits(before: Game, after: Game) -> dict[str, int]:
    """Hits (not the optional ones) that one action gave, per player, in seating order."""
    given = Counter(h.player for h in after.hits[len(before.hits):] if not h.optional)
    return {name: given[name] for name in after.order if given[name]}
