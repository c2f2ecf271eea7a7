"""Scoring throw events against the simulator's ground truth (issue 4's targets).

An event belongs to the last simulated throw that came to rest before it, if it comes within
`window_s` of that rest; any other event, or a second event for the same throw, is a phantom.
A throw is reported exactly when its event has the same thrown, kept and removed dice (value and
status, as multisets) and the same flags. Colours are counted separately. A false cocked die is
a die thrown reported `cocked` beyond the truth's cocked dice thrown (kept and removed dice are
earlier throws' dice again, counted there): the truth has no places to match dice by, so a
cocked die read flat and a flat die called cocked in one throw cancel out (both miss `exact`).
"""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from zonkcam.vision.throws import ThrowEvent


@dataclass(slots=True)
class Score:
    throws: int = 0
    reported: int = 0
    exact: int = 0
    colours_right: int = 0
    phantoms: int = 0
    spaz_truth: int = 0
    spaz_found: int = 0
    lost_truth: int = 0
    lost_found: int = 0
    false_spaz: int = 0
    knocked_truth: int = 0
    knocked_found: int = 0
    false_knocked: int = 0
    false_cocked: int = 0  # dice
    latency_ms: list[float] = field(default_factory=list)
    misses: list[dict] = field(default_factory=list)  # what went wrong, for reading

    def add(self, other: Score) -> None:
        for name in ("throws", "reported", "exact", "colours_right", "phantoms", "spaz_truth",
                     "spaz_found", "lost_truth", "lost_found", "false_spaz", "knocked_truth",
                     "knocked_found", "false_knocked", "false_cocked"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latency_ms += other.latency_ms
        self.misses += other.misses

    def to_json(self) -> dict:
        def rate(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "throws": self.throws,
            "reported": self.reported,
            "exact": self.exact,
            "exact_rate": rate(self.exact, self.throws),
            "colour_rate": rate(self.colours_right, self.reported),
            "phantom_events": self.phantoms,
            "spaz_recall": rate(self.spaz_found, self.spaz_truth),
            "spaz_throws": self.spaz_truth,
            "lost_recall": rate(self.lost_found, self.lost_truth),
            "lost_throws": self.lost_truth,
            "false_spaz": self.false_spaz,
            "knocked_recall": rate(self.knocked_found, self.knocked_truth),
            "knocked_throws": self.knocked_truth,
            "false_knocked": self.false_knocked,
            "false_cocked": self.false_cocked,
            "latency_ms_median": (round(statistics.median(self.latency_ms), 1)
                                  if self.latency_ms else None),
        }


def _dice(dice: list) -> Counter:
    return Counter((d["value"], d["status"]) for d in dice)


def _cocked(dice: list) -> int:
    return sum(d["status"] == "cocked" for d in dice)


def _dice_colours(dice: list) -> Counter:
    return Counter((d["value"], d["status"], d["color"]) for d in dice)


def score(events: list[ThrowEvent], truth: dict, window_s: float = 1.0) -> Score:
    fps = truth["fps"]
    throws = truth["throws"]
    result = Score(throws=len(throws))
    matched: dict[int, dict] = {}
    for event in events:
        owner = max((k for k, t in enumerate(throws) if t["frame"] <= event.frame), default=None)
        data = event.to_json()
        if owner is None or owner in matched or \
                event.frame - throws[owner]["frame"] > window_s * fps:
            result.phantoms += 1
            result.false_spaz += "spaz" in event.flags
            result.misses.append({"phantom": data["frame"], "flags": event.flags})
            continue
        matched[owner] = data
        result.latency_ms.append(event.latency_ms)
    for k, t in enumerate(throws):
        result.spaz_truth += "spaz" in t["flags"]
        result.lost_truth += "lost" in t["flags"]
        result.knocked_truth += "knocked" in t["flags"]
        got = matched.get(k)
        if got is None:
            result.misses.append({"missed": k, "frame": t["frame"]})
            continue
        result.reported += 1
        result.spaz_found += "spaz" in t["flags"] and "spaz" in got["flags"]
        result.lost_found += "lost" in t["flags"] and "lost" in got["flags"]
        result.false_spaz += "spaz" not in t["flags"] and "spaz" in got["flags"]
        result.knocked_found += "knocked" in t["flags"] and "knocked" in got["flags"]
        result.false_knocked += "knocked" not in t["flags"] and "knocked" in got["flags"]
        result.false_cocked += max(0, _cocked(got["thrown"]) - _cocked(t["thrown"]))
        same = all(_dice(got[part]) == _dice(t[part]) for part in ("thrown", "kept", "removed"))
        same &= sorted(got["flags"]) == sorted(t["flags"])
        result.exact += same
        result.colours_right += all(_dice_colours(got[part]) == _dice_colours(t[part])
                                    for part in ("thrown", "kept", "removed"))
        if not same:
            result.misses.append({"throw": k, "special": t.get("special"), "truth": {
                part: sorted(_dice(t[part]).elements(), key=str) for part in
                ("thrown", "kept", "removed")} | {"flags": t["flags"]}, "got": {
                part: sorted(_dice(got[part]).elements(), key=str) for part in
                ("thrown", "kept", "removed")} | {"flags": got["flags"]}})
    return result
