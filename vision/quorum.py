"""The quorum: the reads of the last pictures of a still spell, voted die by die.

`vote` groups the dice of the reads by place and takes each group's most common reading;
`cocked_or_flat` decides a die read cocked in some pictures and flat in others on their mean;
`called_cocked` names the dice decided flat that most pictures called cocked.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from zonkcam.vision.cocked import looks_cocked, under_a_leaning_die
from zonkcam.vision.dice import Die, reading_order
from zonkcam.vision.geometry import die_size, distance

# a silhouette this long for its width in every picture of the quorum may lean (1.15 in one:
# 82004 t0's leaning five measured 1.129-1.133 in all three; a flat die's least is lower, its
# noisiest picture reaching 1.114 (81003 t3) and 1.2 (82006 t6), where the mean took in 1.154)
LEAST_LONG_ASPECT = 1.10


def vote(readings: list[list[Die]]) -> tuple[list[Die], bool]:
    """Per-die majority over the readings: (dice, agreed).

    Dice are grouped by position across the readings. A group is decided when at least two
    readings agree on it — on its value, colour and status, or on there being no die there.
    `agreed` is True when every group is decided; otherwise each group falls back to its most
    common answer.
    """
    size = die_size([d for r in readings for d in r])
    groups: list[dict[int, Die]] = []
    for k, reading in enumerate(readings):
        for d in reading:
            best = min((g for g in groups if k not in g),
                       key=lambda g: _gap(g, d), default=None)
            if best is not None and _gap(best, d) < 0.5 * size:
                best[k] = d
            else:
                groups.append({k: d})
    need = min(2, len(readings))
    dice, agreed = [], True
    for g in groups:
        votes = Counter((d.value, d.color, d.status) for d in g.values())
        absent = len(readings) - len(g)
        key, n = votes.most_common(1)[0]
        if max(n, absent) < need:
            agreed = False
        if n >= absent:
            dice.append(max((d for d in g.values() if (d.value, d.color, d.status) == key),
                            key=lambda d: d.confidence))
    return sorted(dice, key=reading_order), agreed


def cocked_or_flat(dice: list[Die], quorum: list[list[Die]], pictures: Sequence[np.ndarray],
                   side: float) -> list[Die]:
    """The voted `dice`, each read cocked in some of the `quorum`'s `pictures` and flat in
    others decided again on their mean (`looks_cocked`, at the voted die's centre and the
    dice's `side`): a top face near the cocked test's bounds flickers with the picture's
    noise and the read's centre and size, and the vote can follow two pictures of three (a
    white one lying flat by the wall was called cocked so). A die decided flat takes the
    value read most often flat. One that looks cocked on the mean is flat where a die read
    cocked leans over it (`under_a_leaning_die`: the side over its edge makes it look so).
    A die read flat in every picture is cocked when it looks cocked in each of them long
    from `LEAST_LONG_ASPECT` (under `LONG_ASPECT`): a lean shows in all, a flat die's noise
    in some."""
    if len(pictures) < 2:
        return dice
    mean: np.ndarray | None = None
    out = []
    for k, d in enumerate(dice):
        near = [o for reading in quorum for o in reading
                if o.status in ("ok", "unreadable", "cocked")
                and np.hypot(o.center[0] - d.center[0], o.center[1] - d.center[1]) < 0.5 * side]
        flat = [o for o in near if o.status != "cocked"]
        if flat and len(flat) == len(near) and d.status == "ok":
            # read flat in every picture: a lean short of `LONG_ASPECT` in each of them
            # (82004 t0: 1.129-1.133) is told when every picture shows it
            others = [o.center for o in dice if o is not d]
            if all(looks_cocked(p, d.center, side, others, LEAST_LONG_ASPECT) for p in pictures) \
                    and not under_a_leaning_die(pictures[-1], dice, k, side):
                d = replace(d, value=None, status="cocked")
        elif flat and len(flat) < len(near) and d.status in ("ok", "unreadable", "cocked"):
            if mean is None:
                mean = np.mean(np.stack(list(pictures)), axis=0).astype(np.uint8)
            others = [o.center for o in dice if o is not d]
            if looks_cocked(mean, d.center, side, others) and \
                    not under_a_leaning_die(mean, dice, k, side):
                d = d if d.status == "cocked" else replace(d, value=None, status="cocked")
            elif d.status == "cocked":
                value = Counter(o.value for o in flat).most_common(1)[0][0]
                d = max((o for o in flat if o.value == value), key=lambda o: o.confidence)
        out.append(d)
    return out


def _gap(group: dict[int, Die], d: Die) -> float:
    return distance(group[max(group)], d)


def called_cocked(dice: list[Die], quorum: list[list[Die]], side: float) -> set[int]:
    """The indices of `dice` read flat that the `quorum` called cocked in most of its pictures
    (within half a side of them)."""
    def called(d: Die) -> bool:
        votes = sum(any(o.status == "cocked" and distance(o, d) < side / 2 for o in reading)
                    for reading in quorum)
        return 2 * votes > len(quorum)

    return {i for i, d in enumerate(dice) if d.status in ("ok", "unreadable") and called(d)}
