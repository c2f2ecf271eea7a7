"""The score sheet (W18, C10): one column per player, one row per round, cells as the seeds
write them (``BLOADES``, ``» 500 ¶¶¶``, ``(+800) 800``, ``Straw Hat 1000*``, halftime dashes).

`rows` gives the cells as data, `render_text` the sheet as text, `to_json` the sheet and the
display state (whose turn, the turn so far, "Can I roll?", odds) for the kiosk.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from zonkcam.rules.game import DASH, Game, TurnRecord
from zonkcam.rules.hits import Hit
from zonkcam.rules.turn import Turn

_WORDS = ("Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
          "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen", "Sixteen", "Seventeen", "Eighteen",
          "Nineteen", "Twenty")


@dataclass(frozen=True)
class Cell:
    text: str
    kind: str  # score, zonk, bloades, vanna, spaz, penalty, skipped, dash, live, empty
    score: int | None = None  # the number written (total, or the turn's points off the game score)
    points: int | None = None  # points banked on the turn
    marks: tuple[str, ...] = ()  # hit sources marked left of the score
    hits: tuple[Hit, ...] = ()
    turn: int | None = None  # the turn record the cell shows

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "kind": self.kind, "score": self.score, "points": self.points,
                "marks": list(self.marks), "hits": [h.to_json() for h in self.hits], "turn": self.turn}


@dataclass(frozen=True)
class SheetRow:
    kind: str  # round, line, halftime, bonus, rebuttal, shaharazad
    label: str
    cells: tuple[Cell, ...]  # in play order

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.cells]


def header(game: Game) -> str:
    """Start time and magic number: ``12:44 p.m. 3/13/2002 EST MAGIC NO. 2-3-3-5-5`` (W2)."""
    parts = []
    if game.setup.started:
        t = datetime.fromisoformat(game.setup.started)
        hour = t.hour % 12 or 12
        parts.append(f"{hour}:{t.minute:02d} {'a.m.' if t.hour < 12 else 'p.m.'} {t.month}/{t.day}/{t.year}")
        if game.setup.zone:
            parts.append(game.setup.zone)
    if game.magic:
        parts.append("MAGIC NO. " + "-".join(map(str, game.magic)))
    return " ".join(parts)


def rows(game: Game) -> list[SheetRow]:
    out = []
    for row in game.rows:
        cells = tuple(_cell(game, row.cells.get(name)) for name in game.order)
        out.append(SheetRow(row.kind, _label(game, row.kind, row.number), cells))
    return out


def _label(game: Game, kind: str, number: int) -> str:
    template = game.ruleset.sheet.row_label
    if not template or kind == "line":
        return ""
    if kind != "round":
        return kind.upper()
    words = _WORDS[number] if number < len(_WORDS) else str(number)
    return template.format(n=number, words=words)


def _cell(game: Game, ref: int | str | None) -> Cell:
    sheet = game.ruleset.sheet
    if ref == DASH:
        return Cell(sheet.dash, "dash")
    if ref is None:
        return Cell("", "empty")
    assert isinstance(ref, int)
    rec = game.turns[ref]
    if not rec.over:
        return Cell("", "live", turn=rec.id)
    hits = tuple(h for h in game.hits if h.shown == rec.id)
    earned = sum(1 for h in hits if not h.optional)
    flags = sheet.hit * earned + sheet.optional_hit * (len(hits) - earned)
    marks = tuple(s for s in sheet.marks if any(h.source == s for h in hits))
    banked = rec.outcome == "banked"
    number = rec.score if rec.kind in ("regular", "rebuttal", "shaharazad") else rec.points
    kind = "score" if banked else rec.outcome or "live"
    if sheet.style == "running":
        if banked:
            label = rec.straight.title() if sheet.label_straights and rec.straight else f"(+{rec.points})"
        else:
            label = f"({rec.mark.title()})"
        return Cell(f"{label} {number}{flags}", kind, number, rec.points if banked else None, marks, hits,
                    rec.id)
    body = str(number) if banked else rec.mark
    text = " ".join([*(sheet.marks[s] for s in marks), body])
    if flags:
        text += sheet.hit_gap + flags
    return Cell(text, kind, number if banked else None, rec.points if banked else None, marks, hits, rec.id)


def render_text(game: Game) -> str:
    """The sheet as text: header, names, rows; columns separated by `` | ``."""
    sheet_rows = rows(game)
    labelled = any(r.label for r in sheet_rows)
    table = [([""] if labelled else []) + list(game.order)]
    table += [([r.label] if labelled else []) + r.texts for r in sheet_rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    lines = []
    if game.ruleset.sheet.header and header(game):
        lines += [header(game), ""]
    lines += [" | ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in table]
    if game.over:
        lines += ["", *summary(game)]
    return "\n".join(lines) + "\n"


def summary(game: Game) -> list[str]:
    """W19: winners (or finishing order), final scores, hit totals, G.H.A."""
    lines = []
    if game.winners:
        lines.append("WINNER: " + ", ".join(game.winners))
    if game.finish_order:
        lines.append("FINISHED: " + ", ".join(game.finish_order))
    for name in game.order:
        lines.append(f"{name}: {game.players[name].score}, {game.hit_total(name)} hits")
    lines.append(f"G.H.A.: {game.gha():g}")
    return lines


def to_json(game: Game, odds: Callable[[Turn], Any] | None = None) -> dict[str, Any]:
    """The sheet and the display state; ``odds(turn)`` (X2) fills ``turn.odds`` when given."""
    players = []
    for name in game.order:
        p = game.players[name]
        players.append({
            "name": name, "score": p.score, "hits": game.hit_total(name),
            "optional_hits": sum(1 for h in game.hits if h.player == name and h.optional),
            "opened": p.opened, "zonks": p.zonks, "finished": p.finished,
            "turns_to_lose": len(p.skips),
        })
    return {
        "variant": game.ruleset.name,
        "title": game.ruleset.title,
        "header": header(game),
        "started": game.setup.started,
        "magic": list(game.magic),
        "phase": game.phase,
        "players": players,
        "rows": [{"kind": r.kind, "label": r.label, "cells": [c.to_json() for c in r.cells]}
                 for r in rows(game)],
        "current": _current(game, odds),
        "winners": game.winners,
        "finish_order": game.finish_order,
        "gha": game.gha(),
        "pending": {  # what the display asks a person about
            "courtesy": [h.player for h in game.hits if h.source == "courtesy" and not h.given_by],  # A4
            "game_rule": game.may_rule,  # D8
            "permanent_rule": game.may_permanent,
            "shaharazad": game.phase == "shaharazad?",  # A12: a lower player may request it
        },
        "game_rules": [{"player": p, "text": t} for p, t in game.game_rules],
        "permanent_rules": [{"player": p, "text": t} for p, t in game.new_permanent],
    }


def _current(game: Game, odds: Callable[[Turn], Any] | None) -> dict[str, Any] | None:
    name = game.current
    if name is None:
        return None
    rec: TurnRecord | None = game.live
    kind = rec.kind if rec else (game.up[0] if game.up else "regular")
    state: dict[str, Any] = {"player": name, "kind": kind, "ask": None, "clock": _clock(game, rec),
                             "turn": None}
    if game.ask and game.ruleset.game.ask_to_roll and rec is None:
        state["ask"] = {"times": game.ask.times, "whom": game.ask.whom}  # W17
    if rec is not None and rec.turn is not None:
        turn = rec.turn
        last = turn.last
        state["turn"] = {
            "total": turn.total, "dice_left": turn.dice_left, "state": turn.state,
            "bank_blocker": turn.bank_blocker(),
            "last_throw": [str(d) for d in last.dice] if last else [],
            "options": [o.to_json() for o in last.options] if last and turn.state == "keep" else [],
            "events": [e.to_json() for e in turn.events],
            "odds": odds(turn).to_json() if odds and turn.state != "over" else None,
        }
    return state


def _clock(game: Game, rec: TurnRecord | None) -> dict[str, Any] | None:
    """A14: seconds allowed from the last action (first throw, later throws), and the countdown."""
    rules = game.ruleset.game
    if not (rules.league and rules.turn_clock):
        return None
    first, later, countdown = (*rules.turn_clock, 0, 0, 0)[:3]
    started = rec is not None and rec.turn is not None and rec.turn.throws > 0
    return {"since": game.last_at, "limit_s": later if started else first, "countdown_s": countdown}
