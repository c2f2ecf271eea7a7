"""The page's state: what the kiosk, the spectator and programs read from `/api/state`.

One function shapes it from the running table app (`page_state`); the JSON is the contract
of the page (hardware/kiosk/static/app.js) and of `GET /api/state`. Fields may be added, never
renamed or dropped.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from zonkcam.rules import sheet
from zonkcam.rules.game import Game
from zonkcam.rules.odds import turn_odds
from zonkcam.rules.ruleset import Ruleset, load_variant, variant_names
from zonkcam.rules.stats import TableStats, add_game

if TYPE_CHECKING:
    from zonkcam.hardware.kiosk.app import Shown, TableApp

PENALTIES = [("space", "SPACE"), ("dealer-spaz", "DEALER SPAZ"), ("miscall", "Miscalled score"),
             ("foul", "League foul (this turn and N more lost)"), ("next", "Lose the next N turns")]
CLOCK_PENALTY = ("clock", "Turn clock ran out")  # A14, offered when the game runs the clock
# How the page paints a die of each colour the rulesets and the recognizer name.
DIE_CSS = {"red": "#c62828", "white": "#f5f5f5", "green": "#2e7d32", "blue": "#1565c0",
           "yellow": "#f9a825", "black": "#212121", "orange": "#ef6c00", "purple": "#6a1b9a",
           "pink": "#d81b60", "grey": "#9e9e9e", "gray": "#9e9e9e", "brown": "#6d4c41"}
HIT_SOURCES = {"square": "square hit", "magic": "magic number hit", "straight": "straight hit",
               "devil": "devil hit", "halftime": "halftime hit"}


def page_state(app: TableApp) -> dict[str, Any]:
    game = app.game
    data = sheet.to_json(game, odds=turn_odds)
    current = data["current"] or {}
    turn = current.get("turn") or {}
    rec = game.live
    live_turn = rec.turn if rec is not None else None
    last = live_turn.last if live_turn is not None and live_turn.state == "keep" else None
    best = last.best if last is not None else None
    current_row = rec.row if rec is not None else game.round_row  # the row being played
    return {
        "game": {"id": app.game_id, "variant": data["variant"], "title": data["title"],
                 "phase": data["phase"], "header": data["header"], "round": game.round,
                 "target": game.ruleset.target},
        "players": [{"name": p["name"], "score": p["score"], "hits": p["hits"],
                     "to_target": max(0, game.ruleset.target - p["score"]),
                     "current": p["name"] == current.get("player")} for p in data["players"]],
        "sheet": {
            "players": [p["name"] for p in data["players"]],
            "rows": [{"label": r["label"], "kind": r["kind"], "halftime": r["kind"] != "round",
                      "current": i == current_row,
                      "cells": [c | {"evidence": app.evidence(c["turn"])} for c in r["cells"]]}
                     for i, r in enumerate(data["rows"])],
            "totals": [f"{p['score']} ({p['hits']}¶)" for p in data["players"]],
        },
        "turn": {
            "player": current.get("player"),
            "total": turn.get("total", 0),
            "bank_adds": live_turn.bank_total() if live_turn is not None else None,
            "options": turn.get("options", []),
            "best": {"points": best.points, "combos": list(best.combos)} if best is not None else None,
            "can_bank": bool(turn) and turn.get("state") != "over" and turn.get("bank_blocker") is None,
            "bank_blocker": turn.get("bank_blocker") if turn else
            ("throw first" if current.get("player") else None),
            "can_roll_asks": (current.get("ask") or {}).get("times", 0),
            "clock": _clock(current.get("clock"), game),
        },
        "throw": _throw(app.shown),
        "odds": turn.get("odds"),
        "colors": [{"name": c, "css": DIE_CSS.get(c, "#bdbdbd")}
                   for c in dict.fromkeys(game.ruleset.dice_colors)],
        "legend": legend(game.ruleset),
        "undo": _label(app.undo_label()),
        "redo": _label(app.redo_label()),
        "end_game": {"allowed": game.phase == "shaharazad?", "reason": None if game.phase == "shaharazad?"
                     else "the game ends by itself at the target"},
        "shaharazad": _shaharazad(game),
        "unfinished": [{"id": i, "variant": v, "players": p, "started": s}
                       for i, v, p, s in app.store.unfinished_games() if i != app.game_id],
        "review": app.review,
        "table": _table(app),
        "penalties": [{"name": n, "label": label} for n, label in
                      PENALTIES + ([CLOCK_PENALTY] if current.get("clock") else [])],
        "camera": {"status": app.live.camera, "message": app.live.message, "demo": app.demo},
        "hits_to_take": [{"player": p, "hits": n} for p, n in app.live.hits.items()],
        "log": [str(a) for a in game.log[-12:]],
        "summary": _summary(game) if game.over else None,
        "rolloff": app.rolloff.to_json() if app.rolloff is not None else None,
        "new_game": {
            "rulesets": [{"key": k, "label": label} for k, (label, _) in app.rulesets().items()],
            "registry": app.store.players(),
            "ruleset": ruleset_key(game.ruleset),
            "players": list(game.setup.players),
        },
    }


def legend(ruleset: Ruleset) -> list[dict[str, str]]:
    """What the marks on the sheet mean."""
    rules = ruleset.sheet
    out = [{"mark": rules.hit, "meaning": "a hit"}]
    if rules.hit != "¶":
        out.append({"mark": "¶", "meaning": "hits, in the totals"})
    if rules.optional_hit:
        out.append({"mark": rules.optional_hit, "meaning": "a hit the player may take"})
    out += [{"mark": mark, "meaning": HIT_SOURCES.get(source, f"{source} hit")}
            for source, mark in rules.marks.items()]
    return out


def _throw(shown: Shown | None) -> dict[str, Any] | None:
    if shown is None:
        return None
    who = f"{shown.player}'s " if shown.player else ""
    label = (f"{who}throw #{shown.key}" if shown.scored else f"{who}throw waiting to be scored")
    kept = [{"index": None, "kept": True, **_die(d)} for d in shown.seen.kept]
    thrown = [{"index": i, "kept": False, **_die(d)} for i, d in enumerate(shown.seen.thrown)]
    # the picture's address changes with every settle: a page never shows a stale one
    frame = f"/api/throw/{shown.key}.jpg?v={shown.serial}" if shown.jpeg else None
    return {"id": shown.key, "label": label, "player": shown.player, "scored": shown.scored,
            "reason": shown.reason, "frame": frame,
            "frame_size": list(shown.frame_size), "flags": list(shown.seen.flags), "dice": kept + thrown}


def _die(d: Any) -> dict[str, Any]:
    return {"value": d.value, "color": d.color, "status": d.status, "box": list(d.box)}


def _table(app: TableApp) -> dict[str, Any] | None:
    """The table region over the live picture, in the camera frame's pixels (None: no picture
    yet). `polygon` is None while the stream finds the region by itself."""
    size = app.live.frame_size
    if size is None:
        return None
    table = app.table.scaled(*size) if app.table is not None else None
    return {"frame_size": list(size), "polygon": [list(p) for p in table.polygon] if table else None}


def _label(text: str | None) -> dict[str, str] | None:
    return {"label": text} if text else None


def _shaharazad(game: Game) -> dict[str, Any] | None:
    """A12: after the game, a lower player past the target may ask the leader for a play-off."""
    if game.phase != "shaharazad?":
        return None
    leaders = game.leaders()
    return {"leader": leaders[0], "may_request": leaders[1:], "requested": game.playoff_request}


def ruleset_key(ruleset: Ruleset) -> str:
    """A variant by its name; house rules by a digest of their content (stable across restarts)."""
    data = ruleset.to_dict()
    if ruleset.name in variant_names() and data == load_variant(ruleset.name).to_dict():
        return f"variant:{ruleset.name}"
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:10]
    return f"house:{digest}"


def _clock(clock: dict[str, Any] | None, game: Game) -> dict[str, Any] | None:
    """A14's turn clock: seconds allowed, and since when (`with_clock` adds the seconds used)."""
    if clock is None:
        return None
    return {"limit_s": clock["limit_s"], "countdown_s": clock["countdown_s"],
            "since": clock.get("since") or game.setup.started}


def with_clock(state: dict[str, Any]) -> dict[str, Any]:
    """The state with its turn clock's seconds used counted now (the server's clock, so the
    page needs no synchronised time); the rest of the state is shared, not copied."""
    clock = state["turn"]["clock"]
    if clock is None:
        return state
    try:
        elapsed = max(0.0, (datetime.now() - datetime.fromisoformat(clock["since"])).total_seconds())
    except (TypeError, ValueError):
        elapsed = 0.0
    counted = {"limit_s": clock["limit_s"], "countdown_s": clock["countdown_s"],
               "elapsed_s": round(elapsed, 1)}
    return state | {"turn": state["turn"] | {"clock": counted}}


def _summary(game: Game) -> dict[str, Any]:
    """The end-of-game view: winners, scores, hits and G.H.A. (W19), and how each player played."""
    stats = add_game(TableStats(), game).players
    players = []
    for name in game.order:
        p = stats[name].to_json()
        players.append({"name": name, "score": game.players[name].score, "hits": game.hit_total(name),
                        **{k: p[k] for k in ("turns", "zonks", "zonk_rate", "average_turn", "best_turn")},
                        "faces": p["all_dice"]["faces"]})
    return {"text": "\n".join(sheet.summary(game)), "winners": game.winners,
            "finish_order": game.finish_order, "gha": game.gha(), "started": game.setup.started,
            "ended": game.last_at, "players": players}
