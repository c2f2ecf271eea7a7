"""The table app behind `zonkcam play`: camera -> live throws -> game -> display.

The camera thread feeds every frame to the throw stream (vision); each settled throw becomes
game actions (rules), recorded in the game database before they take effect (the store); the
web display only reads `state()` and sends actions through `act()`.

From a throw event to actions, the camera's view is checked against the game, which is the
authority: the dice set aside are the last throw's dice that were not picked up; picking up
every die is hot dice when all of them scored, or (with gesture banking) "bank" when the turn
may be banked; a die off the table, lost, stacked or knocked is a spaz. A throw the game
cannot accept (the wrong number of dice, an illegal keep, an unreadable die) is not scored:
the display says why and the scorekeeper corrects it. Nothing is guessed into the score.

A new game can be started from the display; its order of play may come from a roll-off read
by the same camera (`rolloff`): while it runs, settled throws are dice for the order, not
scores. When the camera is lost, the display says so; when it comes back the throw stream
starts afresh, so a throw half-seen before the gap is never completed by frames after it.
"""
from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from zonkcam.hardware.banners import banners, new_hits
from zonkcam.hardware.cameras import Camera, CameraError
from zonkcam.hardware.rolloff import RollOff, RollOffError
from zonkcam.hardware.stats import TableStats, add_game, from_store
from zonkcam.hardware.store import Store
from zonkcam.hardware.web import ActionError, Hub
from zonkcam.models.captures import CaptureSet
from zonkcam.rules import sheet
from zonkcam.rules.actions import ActionError as LineError
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.odds import odds_table, turn_odds
from zonkcam.rules.ruleset import Ruleset, RulesetError, load_variant, ruleset_from_dict, variant_names
from zonkcam.rules.turn import IllegalAction
from zonkcam.vision.dice import Die

# Throw-event flags that end the turn as a spaz, with the reason the rules know them by.
SPAZ_FLAGS = {"spaz": "off_table", "lost": "lost", "stacked": "stacked", "knocked": "knocked"}
PENALTIES = [("space", "SPACE"), ("dealer-spaz", "DEALER SPAZ"), ("miscall", "Miscalled score"),
             ("foul", "League foul (this turn and N more lost)"), ("next", "Lose the next N turns")]
TURNS_LOST = {"foul", "next"}  # penalties that take a number of further turns (A13, A15)
CLOCK_PENALTY = ("clock", "Turn clock ran out")  # A14, offered when the game runs the clock
FRAME_EVERY_S = 0.2  # the display's live picture: five frames a second is plenty
FRAME_WIDTH = 960


class ThrowEventLike(Protocol):
    thrown: list[Die]
    kept: list[Die]
    removed: list[Die]
    flags: list[str]
    quorum: bool


class ThrowStreamLike(Protocol):
    expecting: bool
    last_image: np.ndarray | None  # the picture the last event was read from
    last_unread: list[Die]  # die-shaped things in it not read as pip dice (kept by capture)

    def feed(self, frame: np.ndarray, t: float,
             full: Callable[[], np.ndarray] | None = None) -> ThrowEventLike | None: ...


# A fresh throw stream for this many dice: after a camera gap, and when a game or roll-off starts.
StreamFactory = Callable[[int], ThrowStreamLike]


@dataclass
class Live:
    """What the camera side last saw; read by the display."""

    dice: list[Die] = field(default_factory=list)  # the kept dice, then the last throw's
    kept: int = 0  # how many of `dice` were kept from earlier throws
    frame_size: tuple[int, int] | None = None
    jpeg: bytes | None = None
    camera: str = "starting"
    message: str = ""
    sent_at: float = 0.0
    hits: dict[str, int] = field(default_factory=dict)  # to take now: the last hits given


class TableApp:
    def __init__(self, store: Store, game_id: int, hub: Hub, evidence_dir: Path, *,
                 gesture_bank: bool = False, captures: CaptureSet | None = None, model: str = "",
                 on_message: Callable[[str], None] = print, house_rules: dict[str, Ruleset] | None = None,
                 demo: bool = False) -> None:
        self.store, self.game_id, self.hub = store, game_id, hub
        self.evidence_root = evidence_dir
        self.evidence_dir = evidence_dir / str(game_id)
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        self.gesture_bank = gesture_bank
        self.house_rules = house_rules or {}  # house-rules files the server was given, by label
        # The demo's simulated player throws every die even for the roll-off: its leftmost die counts.
        self.demo = demo
        self.rolloff: RollOff | None = None
        self._pending: Ruleset | None = None  # the ruleset of the game the roll-off is for
        self._restart_stream = False
        self.captures, self.model = captures, model  # every settled throw saved for retraining
        self._capture: str | None = None  # the last throw's captured frame
        self.on_message = on_message
        self.live = Live()
        self.colors: list[str] = []
        self._lock = threading.RLock()
        odds_table(self.game.ruleset).values(opened=True)  # solve once now, not mid-turn

    @property
    def game(self) -> Game:
        return self.store.game(self.game_id)

    # --- the camera side ----------------------------------------------------------------

    def run(self, camera: Camera, stream: ThrowStreamLike, stop: threading.Event,
            make_stream: StreamFactory | None = None) -> None:
        """Feed frames until the camera ends or `stop` is set."""
        generation = getattr(camera, "generation", 0)
        self.live.camera = "ok"
        self.publish_state()
        while not stop.is_set():
            try:
                frame = camera.read()
            except CameraError as exc:
                self.live.camera, self.live.message = "lost", str(exc)
                self.publish_state()
                return
            if frame is None:
                self.live.camera, self.live.message = "ended", f"{camera.name}: no more frames"
                self.publish_state()
                return
            if getattr(camera, "generation", 0) != generation:  # reconnected: start afresh
                generation = camera.generation  # type: ignore[attr-defined]
                self._restart_stream = True
                self.live.camera = "ok"
                self.live.dice = []
                self._say("camera back; throw again if dice moved while it was away")
                self.publish_state()
            if self._restart_stream and make_stream is not None:
                self._restart_stream = False
                stream = make_stream(1 if self.rolloff is not None else self.game.ruleset.dice)
            try:
                stream.expecting = self.expecting_throw()
                # motion on the camera's frames, dice read at full resolution (the Pi's
                # main stream; the frame itself elsewhere)
                event = stream.feed(frame.image, frame.t, full=camera.still)
                if event is not None:
                    assert stream.last_image is not None  # an event is decided from reads
                    self.on_throw(event, stream.last_image, stream.last_unread)
                self._send_frame(frame.image)
            except Exception as exc:  # keep the table running; the display shows what broke
                self._say(f"error on frame {frame.index}: {type(exc).__name__}: {exc}")
                self.publish_state()

    def camera_status(self, message: str) -> None:
        """What a reconnecting camera reports from inside its retry loop (`cameras.Reconnecting`)."""
        if message.startswith("camera lost"):
            self.live.camera, self.live.dice = "lost", []
        self._say(message)
        self.publish_state()

    def expecting_throw(self) -> bool:
        with self._lock:
            if self.rolloff is not None:
                return True
            game = self.game
            return not game.over and game.current is not None

    def on_throw(self, event: ThrowEventLike, image: np.ndarray, unread: Sequence[Die] = ()) -> None:
        """Turn one settled throw into game actions, or say why it was not scored. `unread`:
        die-shaped things in `image` not read as pip dice, saved with a capture for review."""
        self.live.dice, self.live.kept = [*event.kept, *event.thrown], len(event.kept)
        self.live.frame_size = (image.shape[1], image.shape[0])
        if self.rolloff is not None:
            with self._lock:
                self._rolloff_throw(event)
            self.publish_state()
            return
        if self.captures is not None:
            self._capture = self.captures.add(image, self.live.dice, self.model, rejected=unread)
        with self._lock:
            try:
                self._score_throw(event, image)
            except (IllegalAction, LineError) as exc:
                self._say(f"throw not scored: {exc}")
        self.publish_state()

    def _rolloff_throw(self, event: ThrowEventLike) -> None:
        """One die for the order of play; flags about dice in play do not apply to it."""
        assert self.rolloff is not None
        if "cocked" in event.flags:
            self._say("roll-off: a die is cocked: throw again")
            return
        dice = sorted(event.thrown, key=lambda d: d.box[0])
        if not dice or dice[0].value is None or (len(dice) > 1 and not self.demo):
            self._say(f"roll-off: {self.rolloff.up}, throw one die (tap Enter to type it)")
            return
        self._rolloff_value(dice[0].value)

    def _score_throw(self, event: ThrowEventLike, image: np.ndarray) -> None:
        game = self.game
        player = game.current
        if player is None:
            raise IllegalAction("no game is waiting for a throw")
        if "cocked" in event.flags or "not_thrown" in event.flags:
            what = "a die is cocked" if "cocked" in event.flags else "the dice were placed, not thrown"
            raise IllegalAction(f"{what}: throw again")
        rec = game.live
        turn = rec.turn if rec is not None else None
        if turn is not None and turn.state == "keep":
            assert turn.last is not None
            thrown_before = Counter(d.value for d in turn.last.dice)
            kept = thrown_before - Counter(d.value for d in event.removed)
            if kept:
                self._record(f"{player} keep {' '.join(map(str, sorted(kept.elements())))}")
            elif any(o.all_scored for o in turn.last.options) and len(event.thrown) == game.ruleset.dice:
                self._record(f"{player} keep {' '.join(str(d.value) for d in turn.last.dice)}")
            elif self.gesture_bank and turn.bank_blocker() is None:
                self._record(f"{player} bank")
                self._say(f"{player} banked (all dice picked up)")
                player = self.game.current
                if player is None:
                    return
            else:
                raise IllegalAction("every die was picked up, but at least one scoring die must stay")
        reasons = [SPAZ_FLAGS[f] for f in event.flags if f in SPAZ_FLAGS]
        if reasons:
            self._record(f"{player} spaz {reasons[0]}")
            self._save_evidence(player, image)
            self._say(f"{player}: SPAZ ({', '.join(event.flags)})")
            return
        if any(d.value is None for d in event.thrown):
            raise IllegalAction("a die could not be read: tap it to enter its value")
        tokens = [f"{d.color}:{d.value}" if d.color and self.game.ruleset.dice_colors else str(d.value)
                  for d in event.thrown]
        self._record(f"{player} throw {' '.join(tokens)}")
        self._save_evidence(player, image)
        self._say("" if event.quorum else "low confidence reading: check the dice")

    def _record(self, line: str) -> Game:
        before = self.game
        after = self.store.record(self.game_id, line)
        verb = after.log[-1].verb
        if verb not in ("undo", "correct"):  # an undone zonk is no news
            for text in banners(before, after):
                self.hub.publish("banner", {"text": text})
            hits = new_hits(before, after)
            if hits or verb == "throw":  # shown until the next throw gives none
                self.live.hits = hits
        return after

    def _rolloff_value(self, value: int) -> None:
        assert self.rolloff is not None and self._pending is not None
        try:
            player = self.rolloff.throw(value)
        except RollOffError as exc:
            raise ActionError(str(exc)) from None
        order = self.rolloff.order
        if order is None:
            again = " (a tie: throw again)" if not self.rolloff.rounds[-1] else ""
            self._say(f"roll-off: {player} threw {value}{again}; {self.rolloff.up} next")
            return
        self._say(f"roll-off: {player} threw {value}; {order[0]} goes first")
        self._start_game(self._pending, order)

    def _start_game(self, ruleset: Ruleset, players: tuple[str, ...]) -> None:
        try:
            game_id = self.store.new_game(GameSetup(ruleset, players))
        except IllegalAction as exc:
            raise ActionError(str(exc)) from None
        self.game_id, self.rolloff, self._pending = game_id, None, None
        self.evidence_dir = self.evidence_root / str(game_id)
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        self.live.dice, self._capture, self._restart_stream = [], None, True
        odds_table(ruleset).values(opened=True)

    def _save_evidence(self, player: str, image: np.ndarray) -> None:
        """The frame a throw was read from, kept as TURN-N.jpg (N-th throw of that turn)."""
        turn = max(r.id for r in self.game.turns if r.player == player)
        n = len(self._evidence(turn)) + 1
        cv2.imwrite(str(self.evidence_dir / f"{turn}-{n}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 85])

    def _evidence(self, turn: int | None) -> list[str]:
        if turn is None:
            return []
        files = sorted(self.evidence_dir.glob(f"{turn}-*.jpg"), key=lambda p: int(p.stem.split("-")[1]))
        return [f"/api/evidence/{p.stem}.jpg" for p in files]

    def _send_frame(self, image: np.ndarray) -> None:
        now = time.monotonic()
        if now - self.live.sent_at < FRAME_EVERY_S:
            return
        self.live.sent_at = now
        h, w = image.shape[:2]
        if w > FRAME_WIDTH:
            image = cv2.resize(image, (FRAME_WIDTH, round(h * FRAME_WIDTH / w)), interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            self.live.jpeg = jpeg.tobytes()
            self.live.frame_size = self.live.frame_size or (w, h)
            self.hub.publish("frame", {"t": now})

    def _say(self, message: str) -> None:
        self.live.message = message
        if message:
            self.on_message(message)

    # --- the display side (web.Table) ---------------------------------------------------

    def state(self) -> dict[str, Any]:
        with self._lock:
            game = self.game
            data = sheet.to_json(game, odds=turn_odds)
            log = game.log
        current = data["current"] or {}
        turn = current.get("turn") or {}
        return {
            "game": {"id": self.game_id, "variant": data["variant"], "title": data["title"],
                     "phase": data["phase"], "header": data["header"]},
            "sheet": {
                "players": [p["name"] for p in data["players"]],
                "rows": [{"label": r["label"], "halftime": r["kind"] != "round",
                          "cells": [c | {"evidence": self._evidence(c["turn"])} for c in r["cells"]]}
                         for r in data["rows"]],
                "totals": [f"{p['score']} ({p['hits']}¶)" for p in data["players"]],
            },
            "turn": {
                "player": current.get("player"),
                "total": turn.get("total", 0),
                "options": turn.get("options", []),
                "can_bank": bool(turn) and turn.get("state") != "over" and turn.get("bank_blocker") is None,
                "bank_blocker": turn.get("bank_blocker"),
                "can_roll_asks": (current.get("ask") or {}).get("times", 0),
                "clock": _clock(current.get("clock"), game),
            },
            "odds": turn.get("odds"),
            "dice": [d.to_json() for d in self.live.dice],
            "frame_size": list(self.live.frame_size) if self.live.frame_size else None,
            "colors": self.colors or list(dict.fromkeys(game.ruleset.dice_colors)),
            "penalties": [{"name": n, "label": label} for n, label in
                          PENALTIES + ([CLOCK_PENALTY] if current.get("clock") else [])],
            "camera": {"status": self.live.camera, "message": self.live.message, "demo": self.demo},
            "hits_to_take": [{"player": p, "hits": n} for p, n in self.live.hits.items()],
            "log": [str(a) for a in log[-12:]],
            "summary": _summary(game) if game.over else None,
            "rolloff": self.rolloff.to_json() if self.rolloff is not None else None,
            "new_game": {
                "rulesets": [{"key": k, "label": label} for k, (label, _) in self.rulesets().items()],
                "registry": self.store.players(),
                "ruleset": _ruleset_key(game.ruleset),
                "players": list(game.setup.players),
            },
            "game_json": data,
        }

    def rulesets(self) -> dict[str, tuple[str, Ruleset | None]]:
        """The rulesets a new game may use, by key: the variants, the house-rules files the server
        was given, and house rules kept with earlier games in the store (None: load when chosen)."""
        out: dict[str, tuple[str, Ruleset | None]] = {
            f"variant:{name}": (name, None) for name in variant_names()}
        for label, ruleset in self.house_rules.items():
            out.setdefault(_ruleset_key(ruleset), (label, ruleset))
        rows = self.store.db.execute("SELECT ruleset, MAX(id) FROM games GROUP BY ruleset ORDER BY 2 DESC")
        for text, game_id in rows.fetchall():
            try:
                ruleset = ruleset_from_dict(json.loads(text), f"game {game_id}")
            except (ValueError, RulesetError):
                continue
            key = _ruleset_key(ruleset)
            if key not in out:
                out[key] = (f"{ruleset.title or ruleset.name} (house rules of game {game_id})", ruleset)
        return out

    def publish_state(self) -> None:
        self.hub.publish("state", self.state())

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        name = action["action"]
        with self._lock:
            game = self.game
            player = game.current
            try:
                if name == "bank":
                    self._record(f"{player} bank")
                elif name == "undo":
                    self._record("undo")
                elif name == "penalty":
                    self._record(_penalty_line(action, player, game.order))
                elif name == "end_game":
                    self._record("end")
                elif name == "correct":
                    self._correct(action)
                elif name == "new_game":
                    self._new_game(action)
                elif name == "rolloff_throw":
                    if self.rolloff is None:
                        raise ActionError("no roll-off is going on")
                    value = action.get("value")
                    self._rolloff_value(int(value) if isinstance(value, str) and value.isdigit() else value)
                elif name == "cancel_rolloff":
                    self.rolloff, self._pending = None, None
                    self._restart_stream = True
                    self._say("roll-off cancelled")
                else:
                    raise ActionError(f"unknown action {name!r}")
            except (IllegalAction, LineError) as exc:
                raise ActionError(str(exc)) from None
        self.publish_state()
        return {"ok": True}

    def _new_game(self, action: dict[str, Any]) -> None:
        """A new game: a ruleset (variant or house rules), players in seating order, and the
        order of play as given or from a roll-off. An unfinished game is left as it is in the
        store (the game log only ends games by the rules); the newest unfinished game is the
        one resumed."""
        choices = self.rulesets()
        key = action.get("ruleset")
        if key not in choices:
            raise ActionError(f"unknown ruleset {key!r}; choose one of: {', '.join(choices)}")
        label, ruleset = choices[key]
        if ruleset is None:
            ruleset = load_variant(label)
        players = action.get("players")
        if isinstance(players, str):
            players = players.split(",")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ActionError("players must be a list of names (or one comma-separated string)")
        names = tuple(p.strip() for p in players if p.strip())
        try:
            GameSetup(ruleset, names)  # names are checked before any roll-off starts
        except IllegalAction as exc:
            raise ActionError(str(exc)) from None
        order = action.get("order", "given")
        if order == "given":
            self.rolloff = None
            self._start_game(ruleset, names)
            self._say(f"new game: {ruleset.name}, {', '.join(names)}")
        elif order == "rolloff":
            try:
                self.rolloff = RollOff(names)
            except RollOffError as exc:
                raise ActionError(str(exc)) from None
            self._pending, self.live.dice, self._restart_stream = ruleset, [], True
            self._say(f"roll-off for the order of play: {names[0]}, throw one die")
        else:
            raise ActionError(f"order must be 'given' or 'rolloff', not {order!r}")

    def _correct(self, action: dict[str, Any]) -> None:
        """A tapped die: rewrite the last recorded throw with its new value or colour."""
        log = self.game.log
        seq = next((i + 1 for i in range(len(log) - 1, -1, -1) if log[i].verb == "throw"), None)
        if seq is None:
            raise ActionError("no throw to correct yet")
        throw = log[seq - 1]
        tapped = action.get("die")
        if not isinstance(tapped, int) or tapped < 0:
            raise ActionError(f"no die {tapped!r} to correct")
        die = tapped - self.live.kept if self.live.dice else tapped  # page index -> throw index
        if die < 0:
            raise ActionError("that die was kept from an earlier throw: undo back to that throw")
        if die >= len(throw.args):
            raise ActionError(f"the last throw has no die {tapped}")
        color, _, value = throw.args[die].rpartition(":")
        if "value" in action:
            value = str(action["value"])
        if "color" in action:
            color = str(action["color"])
        args = [*throw.args]
        args[die] = f"{color}:{value}" if color else value
        self._record(f"correct {seq} {throw.player} throw {' '.join(args)}")
        if self.captures is not None and self._capture is not None and self.live.dice:
            value = action.get("value")
            self.captures.correct(self._capture, tapped, value=int(value) if value else None,
                                  color=action.get("color"))
        self.live.dice = []

    def frame_jpeg(self) -> bytes | None:
        return self.live.jpeg

    def stats(self) -> dict[str, Any]:
        with self._lock:  # the store's connection is shared with the camera thread
            return from_store(self.store).to_json()

    def evidence_jpeg(self, throw_id: str) -> bytes | None:
        turn, _, n = throw_id.partition("-")
        if not (turn.isdigit() and n.isdigit()):
            return None
        path = self.evidence_dir / f"{throw_id}.jpg"
        return path.read_bytes() if path.is_file() else None


def _ruleset_key(ruleset: Ruleset) -> str:
    """A variant by its name; house rules by a digest of their content (stable across restarts)."""
    data = ruleset.to_dict()
    if ruleset.name in variant_names() and data == load_variant(ruleset.name).to_dict():
        return f"variant:{ruleset.name}"
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:10]
    return f"house:{digest}"


def _clock(clock: dict[str, Any] | None, game: Game) -> dict[str, Any] | None:
    """A14's turn clock as the display counts it down: seconds allowed and already used (the
    server's clock, so the page needs no synchronised time)."""
    if clock is None:
        return None
    since = clock.get("since") or game.setup.started
    try:
        elapsed = max(0.0, (datetime.now() - datetime.fromisoformat(since)).total_seconds())
    except (TypeError, ValueError):
        elapsed = 0.0
    return {"limit_s": clock["limit_s"], "countdown_s": clock["countdown_s"], "elapsed_s": round(elapsed, 1)}


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


def _penalty_line(action: dict[str, Any], current: str | None, players: list[str]) -> str:
    """`PLAYER penalty KIND [N]`: on the player named (default: the one throwing)."""
    kind = _word(action, "penalty")
    who = action.get("player") or current
    if who not in players:
        raise ActionError(f"no player {who!r} in this game")
    turns = action.get("turns")
    if turns in (None, "", 0) or kind not in TURNS_LOST:
        return f"{who} penalty {kind}"
    if not isinstance(turns, int) or not 0 < turns <= 20:
        raise ActionError(f"turns lost must be a whole number from 1 to 20, not {turns!r}")
    return f"{who} penalty {kind} {turns}"


def _word(action: dict[str, Any], key: str) -> str:
    value = action.get(key)
    if not isinstance(value, str) or not value.replace("-", "").isalnum():
        raise ActionError(f"{key} must be a word, not {value!r}")
    return value
