"""Hits (bong hits, B's) as records, and the rules that adjust a player's hits over turns.

A hit is earned from a source (a thousand mark, a straight, the magic number, ...) on one
turn, by one player. It is drawn on the sheet in the cell of the recipient's turn that
`shown` names (for a communal hit earned on someone else's turn: the recipient's latest
cell). Optional hits (sympathy) are offered, not earned: they count in no total.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any


@dataclass
class Hit:
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
