"""Hits (bong hits, B's): what earns them, table by table, and the rules that adjust them.

A hit is earned from a source (a thousand mark, a straight, the magic number, ...) on one
turn, by one player (`Hit`). A turn's hits come from three tables: the events of its throws
(`EVENT_HITS`), the score it banks (`SCORE_HITS`), and its zonks (`zonk_hits`). A ruleset's
``[hits]`` section turns each source on by name. Integrity (W16) and three-in-three (A8)
then adjust the player's hits once a turn is settled.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from zonkcam.rules.actions import Action
from zonkcam.rules.events import (
    Banked,
    Colors,
    CourtesyHit,
    Devil,
    Event,
    Kept,
    SlimPickins,
    Social,
    StraightThrown,
    ThousandInThrow,
    Zonked,
)
from zonkcam.rules.gamerules import HitRules
from zonkcam.rules.records import SCORING_KINDS, ZONKS, Hit, TurnRecord
from zonkcam.rules.state import GameState
from zonkcam.rules.turn import IllegalAction

# A throw's event -> (hit source, how many the event earns). The source names the
# ``[hits]`` switch too; "social" is communal: every player takes one (A1).
EVENT_HITS: dict[type[Event], tuple[tuple[str, Callable[[Any], int]], ...]] = {
    StraightThrown: (("straight", lambda e: 1),),
    Devil: (("devil", lambda e: 1),),
    Colors: (("colors", lambda e: 1),),
    CourtesyHit: (("courtesy", lambda e: 1),),
    Social: (("social", lambda e: 1),),
    SlimPickins: (("slim_pickins", lambda e: int(e.complete)),),
    ThousandInThrow: (("throw_thousand", lambda e: e.count),),
    Zonked: (("train_wreck", lambda e: int(e.full_throw)), ("full_zonk", lambda e: int(e.full_throw))),
}
COMMUNAL = frozenset({"social", "magic"})

# A banked score -> (hit source, how many): (hit rules, score before, score after) -> count.
SCORE_HITS: tuple[tuple[str, Callable[[HitRules, int, int], int]], ...] = (
    ("thousand", lambda r, before, after: after // 1000 - before // 1000 if r.thousand else 0),
    ("five_hundred", lambda r, before, after: int(r.five_hundred and after % 1000 == 500)),
    ("square", lambda r, before, after: int(after in r.squares)),
    ("special", lambda r, before, after: int(after in r.specials)),
    ("magic", lambda r, before, after: int(after in r.magic_scores)),
)

Earn = Callable[..., None]  # (source, n=1, **Hit fields)


def integrity(earned: int, previous: int) -> int:
    """HIT INTEGRITY (W16): never exactly two hits; after a turn with hits, at least one more."""
    if earned == 0:
        return 0
    if previous:
        earned = max(earned, previous + 1)
    return 3 if earned == 2 else earned


def sympathy_due(scoreless: int, awarded: int, gaps: Sequence[int]) -> bool:
    """A10, C7: after ``gaps[0]`` scoreless turns, then ``gaps[1]`` more, ...; the last repeats.

    ``scoreless`` counts turns since the last sympathy hit (or the last score)."""
    if not gaps:
        return False
    return scoreless >= gaps[min(awarded, len(gaps) - 1)]


def three_in_three(window: Sequence[int]) -> bool:
    """A8: three hits within three turns (``window``: hits of the player's last turns)."""
    return sum(window[-3:]) >= 3


# --- a turn's hits ------------------------------------------------------------------------

def turn_hits(state: GameState, rec: TurnRecord, before: int) -> None:
    """Every hit source of one closed turn: its events, its magic throws, and the new score."""
    rules = state.ruleset.hits
    assert rec.turn is not None
    events = rec.turn.events
    earn = _earner(state, rec)
    for e in events:
        for source, count in EVENT_HITS.get(type(e), ()):
            if getattr(rules, source):
                _earn_or_share(state, rec, earn, source, count(e))
    if rules.magic_number:
        communal(state, rec, "magic", rec.magic)
    if rules.turn_thousand:
        reached = max((e.turn_total for e in events if isinstance(e, Kept)), default=0)
        earn("turn_thousand", reached // 1000)
    if rec.outcome == "banked" and rec.kind in SCORING_KINDS:
        _score_hits(state, rec, before, earn)
    if rec.kind == "regular":
        zonk_hits(state, rec, earn)


def _earner(state: GameState, rec: TurnRecord) -> Earn:
    rules, banked = state.ruleset.hits, rec.outcome == "banked"

    def earn(source: str, n: int = 1, **kw: Any) -> None:
        losable = source in rules.lost_on_zonk
        if losable and not banked:
            return
        for _ in range(n):
            state.hits.append(Hit(rec.player, source, rec.id, rec.id, losable=losable, **kw))

    return earn


def _earn_or_share(state: GameState, rec: TurnRecord, earn: Earn, source: str, n: int) -> None:
    if source in COMMUNAL:
        communal(state, rec, source, n)
    else:
        earn(source, n)


def _score_hits(state: GameState, rec: TurnRecord, before: int, earn: Earn) -> None:
    """The banked score's hits: thousand marks, 500s, squares, specials, opening, first to."""
    rules, after = state.ruleset.hits, rec.score
    for source, count in SCORE_HITS:
        earn(source, count(rules, before, after))
    assert rec.turn is not None
    if rules.opening and any(isinstance(e, Banked) and e.opening for e in rec.turn.events):
        earn("opening")
    for mark in rules.first_to:
        if mark not in state.first_to and after >= mark:
            state.first_to[mark] = rec.player
            earn("first_to")


def zonk_hits(state: GameState, rec: TurnRecord, earn: Earn) -> None:
    """D5 every third zonk, Z4 three zonks in a row, A10/C7 sympathy."""
    rules, player = state.ruleset.hits, state.players[rec.player]
    zonked = rec.outcome in ZONKS or (
        rec.outcome in ("spaz", "penalty") and state.ruleset.spaz.counts_as_zonk)
    if zonked:
        player.zonks += 1
        if rules.zonk_count and player.zonks % rules.zonk_count == 0:
            earn("zonk_count")
        if rules.zonk_streak:
            player.zonk_streak.append(len(state.own_hits(rec)))
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
        if sympathy_due(player.scoreless, player.sympathies, rules.sympathy):
            earn("sympathy", optional=rules.sympathy_optional)
            player.scoreless = 0
            player.sympathies += 1


def communal(state: GameState, rec: TurnRecord, source: str, n: int = 1) -> None:
    """A hit for every player (magic number, social): beside everyone's current score."""
    for _ in range(n):
        for name in state.order:
            shown = rec.id if name == rec.player else state.latest_record(name)
            state.hits.append(Hit(name, source, rec.id, shown))


def best_turns(state: GameState, source: str, records: Iterable[TurnRecord]) -> None:
    """Halftime show, bonus round (W15, A9): a hit for the best banked turn; ties all take one."""
    if not getattr(state.ruleset.hits, source):
        return
    banked = [r for r in records if r.outcome == "banked"]
    best = max((r.points for r in banked), default=0)
    for r in banked:
        if r.points == best:
            state.hits.append(Hit(r.player, source, r.id, r.id))


def give(state: GameState, a: Action) -> None:
    """A4: a courtesy hit is given to any player; it shows beside their latest score."""
    if len(a.args) != 1 or a.args[0] not in state.players:
        raise IllegalAction("give PLAYER")
    mine = [h for h in state.hits if h.source == "courtesy" and h.player == a.player and not h.given_by]
    if not mine:
        raise IllegalAction(f"{a.player} has no courtesy hit to give")
    hit = mine[-1]
    hit.player, hit.given_by = a.args[0], a.player
    hit.shown = state.latest_record(a.args[0])


# --- settling -----------------------------------------------------------------------------

def settle(state: GameState, rec: TurnRecord) -> None:
    """HIT INTEGRITY (W16) once every source of the turn is known, then three-in-three (A8)."""
    rules = state.ruleset.hits
    if rules.integrity:
        earned = len(state.own_hits(rec))
        previous = state.previous(rec)
        prev_hits = len(state.own_hits(previous)) if previous else 0
        for _ in range(integrity(earned, prev_hits) - earned):
            state.hits.append(Hit(rec.player, "integrity", rec.id, rec.id))
    if rules.three_in_three and rec.kind in SCORING_KINDS:
        three_in_three_hit(state, rec)


def three_in_three_hit(state: GameState, rec: TurnRecord) -> None:
    """A8: a hit when the player's last three turns (after the last such hit) had three."""
    player = state.players[rec.player]
    mine = [r for r in state.turns[: rec.id + 1] if r.player == rec.player
            and r.kind in SCORING_KINDS][-3:]
    window = []
    for r in mine:
        if player.three_from is not None and r.id < player.three_from:
            continue
        counted = [h for h in state.hits if h.player == rec.player and h.shown == r.id
                   and not h.optional and h.source != "bonus"]
        if r.id == player.three_from:  # the last three-in-three hit starts the next one
            counted = [h for h in counted if h.source == "three_in_three"]
        window.append(len(counted))
    if player.three_from != rec.id and three_in_three(window):
        state.hits.append(Hit(rec.player, "three_in_three", rec.id, rec.id))
        player.three_from = rec.id


def end_of_game(state: GameState) -> None:
    """The hits of the end (A7, Z4): winner, most zonks, fewest hits; beside the last score."""
    rules = state.ruleset.hits
    last = {p: state.latest_record(p) for p in state.order}

    def award(names: Iterable[str], source: str, optional: bool = False) -> None:
        for name in names:
            rid = last[name]
            if rid is not None:
                state.hits.append(Hit(name, source, rid, rid, optional=optional))

    if rules.winner:
        award(state.winners, "winner")
    if rules.most_zonks:
        most = max(p.zonks for p in state.players.values())
        award([p for p in state.order if most and state.players[p].zonks == most], "most_zonks")
    if rules.fewest_hits:
        fewest = min(state.hit_total(p) for p in state.order)
        award([p for p in state.order if state.hit_total(p) == fewest], "fewest_hits", optional=True)
    if rules.three_in_three:  # end-of-game hits count in the last round (A8)
        for name in state.order:
            rid = last[name]
            if rid is not None and state.turns[rid].kind in SCORING_KINDS:
                three_in_three_hit(state, state.turns[rid])
