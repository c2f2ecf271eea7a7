"""The table app behind `zonkcam play`: camera -> live throws -> game -> display.

The camera thread feeds every frame to the throw stream (vision); each settled throw becomes
typed game actions (`umpire`), recorded in the game database before they take effect (the
store); the web display only reads `state()` and sends actions through `act()`.

A throw the game cannot take (a cocked or unread die, the wrong number of dice, an illegal
keep) is not scored: it stays on the page as the throw waiting to be scored, with the reason,
and a tapped die is entered into that throw, which is then scored. A correction always names
the throw it is about (its number in the log, or the waiting throw's key), so it can never
land on another throw.

A new game can be started from the display; its order of play may come from a roll-off read
by the same camera (`rolloff`): while it runs, settled throws are dice for the order, not
scores. When the camera is lost, the display says so; when it comes back the throw stream
starts afresh, so a throw half-seen before the gap is never completed by frames after it.
"""
from __future__ import annotations

import itertools
import json
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np
from zonkcam.hardware.cameras import Camera, CameraError
from zonkcam.hardware.kiosk import view
from zonkcam.hardware.kiosk.page_actions import PAGE_ACTIONS
from zonkcam.hardware.kiosk.rolloff import RollOff, RollOffError, game_start
from zonkcam.hardware.kiosk.umpire import Seen, Unread, actions_for
from zonkcam.hardware.kiosk.web import Hub, Refused
from zonkcam.hardware.store import Store
from zonkcam.models.captures import CaptureSet
from zonkcam.rules.actions import (
    ActionError,
    AnyAction,
    Bank,
    Correct,
    Spaz,
    Throw,
    Undo,
    describe,
    effective,
)
from zonkcam.rules.banners import kinds_and_banners, new_hits
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.odds import odds_table
from zonkcam.rules.ruleset import Ruleset, RulesetError, ruleset_from_dict, variant_names
from zonkcam.rules.turn import IllegalAction
from zonkcam.vision.dice import Die
from zonkcam.vision.table import TableConfig

log = logging.getLogger(__name__)
_SERIALS = itertools.count(1)

FRAME_EVERY_S = 0.2  # the display's live picture: five frames a second is plenty
FRAME_WIDTH = 960


class ThrowEventLike(Protocol):  # read-only: vision's ThrowEvent is frozen
    @property
    def thrown(self) -> list[Die]: ...

    @property
    def kept(self) -> list[Die]: ...

    @property
    def flags(self) -> list[str]: ...

    @property
    def quorum(self) -> bool: ...


class ThrowStreamLike(Protocol):
    expecting: bool
    last_image: np.ndarray | None  # the picture the last event was read from
    last_unread: list[Die]  # die-shaped things in it not read as pip dice (kept by capture)

    def feed(self, frame: np.ndarray, t: float,
             full: Callable[[], np.ndarray] | None = None) -> ThrowEventLike | None: ...


# A fresh throw stream for this many dice: after a camera gap, and when a game or roll-off starts.
StreamFactory = Callable[[int], ThrowStreamLike]


@dataclass
class Shown:
    """The settled throw on the page: its dice, drawn over the very frame they were read from."""

    key: str  # the log number of its action once scored; "p<N>" while it waits to be scored
    player: str | None
    seen: Seen
    jpeg: bytes
    frame_size: tuple[int, int]
    reason: str | None = None  # why it is not scored (None: scored)
    capture: str | None = None  # its frame in the capture set, when capturing
    at_log: int = 0  # the game's log length when it settled: a waiting throw is for that game only
    serial: int = field(default_factory=lambda: next(_SERIALS))  # this settle, among all

    @property
    def scored(self) -> bool:
        return self.reason is None


@dataclass
class Live:
    """What the camera side last saw; read by the display."""

    jpeg: bytes | None = None
    frame_size: tuple[int, int] | None = None  # the camera's frames, before shrinking for the page
    camera: str = "starting"
    message: str = ""
    sent_at: float = 0.0
    hits: dict[str, int] = field(default_factory=dict)  # to take now: the last hits given


class TableApp:
    def __init__(self, store: Store, game_id: int, hub: Hub, evidence_dir: Path, *,
                 gesture_bank: bool = False, captures: CaptureSet | None = None, model: str = "",
                 on_message: Callable[[str], None] = log.info, house_rules: dict[str, Ruleset] | None = None,
                 demo: bool = False, review: bool = False, table: TableConfig | None = None,
                 table_path: Path | None = None) -> None:
        self.store, self.game_id, self.hub = store, game_id, hub
        self.evidence_root = evidence_dir
        self.evidence_dir = evidence_dir / str(game_id)
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        self.gesture_bank = gesture_bank
        self.house_rules = house_rules or {}  # house-rules files the server was given, by label
        # The demo's simulated player throws every die even for the roll-off: its leftmost die counts.
        self.demo, self.review = demo, review
        # The table region the throw stream judges "off the table" by (None: found by itself),
        # and the file a region set on the page is saved to.
        self.table, self.table_path = table, table_path
        self.rolloff: RollOff | None = None
        self.pending_ruleset: Ruleset | None = None  # the ruleset of the game the roll-off is for
        self.restart_stream = False
        self.captures, self.model = captures, model  # every settled throw saved for retraining
        self.on_message = on_message
        self.live = Live()
        self.shown: Shown | None = None
        self.tally: Counter[str] = Counter()  # settled throws: scored, spaz, unread, refused
        self.redo_stack: list[AnyAction] = []  # what undo took back, the latest last
        self.lock = threading.RLock()  # the camera thread and the page's actions take turns
        # The page's state, built once per change (`publish_state`), so that pages asking for it
        # neither rebuild it nor wait while an action is being recorded.
        self._state: dict[str, Any] | None = None
        self._rulesets: dict[str, tuple[str, Ruleset | None]] | None = None
        odds_table(self.game.ruleset).values(opened=True)  # solve once now, not mid-turn

    @property
    def game(self) -> Game:
        return self.store.game(self.game_id)

    @property
    def pending(self) -> Shown | None:
        """The last settled throw, when it is waiting to be scored."""
        shown = self.shown
        return shown if shown is not None and not shown.scored else None

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
                self.restart_stream = True
                self.live.camera = "ok"
                self.say("camera back; throw again if dice moved while it was away")
                self.publish_state()
            if self.restart_stream and make_stream is not None:
                self.restart_stream = False
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
                log.exception("error on frame %s", frame.index)
                self.say(f"error on frame {frame.index}: {type(exc).__name__}: {exc}")
                self.publish_state()

    def camera_status(self, message: str) -> None:
        """What a reconnecting camera reports from inside its retry loop (`cameras.Reconnecting`)."""
        if message.startswith("camera lost"):
            self.live.camera = "lost"
        self.say(message)
        self.publish_state()

    def expecting_throw(self) -> bool:
        with self.lock:
            if self.rolloff is not None:
                return True
            game = self.game
            return not game.over and game.current is not None

    def on_throw(self, event: ThrowEventLike, image: np.ndarray, unread: Sequence[Die] = ()) -> None:
        """Turn one settled throw into game actions, or keep it on the page with the reason it
        was not scored. `unread`: die-shaped things in `image` not read as pip dice, saved with
        a capture for review."""
        seen = Seen(tuple(event.thrown), tuple(event.kept), tuple(event.flags))
        if self.rolloff is not None:
            with self.lock:
                self._rolloff_throw(seen)
            self.publish_state()
            return
        capture = None
        if self.captures is not None:
            capture = self.captures.add(image, [*seen.kept, *seen.thrown], self.model, rejected=unread)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        with self.lock:
            game = self.game
            self.shown = Shown(f"p{sum(self.tally.values()) + 1}", game.current, seen,
                               jpeg.tobytes() if ok else b"", (image.shape[1], image.shape[0]),
                               capture=capture, at_log=len(game.log))
            try:
                self.score(self.shown)
            except Unread as exc:
                self.tally["unread"] += 1
                self.shown.reason = str(exc)
                self.say(f"throw not scored: {exc}")
            except (IllegalAction, ActionError) as exc:
                self.tally["refused"] += 1
                self.shown.reason = f"{exc}"
                self.say(f"throw not scored: {exc}; throw again, or tap a misread die")
            else:
                self.tally["spaz" if isinstance(self.game.log[-1], Spaz) else "scored"] += 1
                if not event.quorum:
                    self.say("low confidence reading: check the dice")
        self.publish_state()

    def score(self, shown: Shown) -> None:
        """Record what the throw stands for; the shown throw takes the number of its action."""
        game = self.game
        player = game.current
        actions = actions_for(shown.seen, game, gesture_bank=self.gesture_bank,
                              colors=bool(game.ruleset.dice_colors))
        game = self.record(*actions)
        shown.key, shown.reason = str(len(game.log)), None
        shown.player = game.log[-1].player
        said = [f"{player} banked (all dice picked up)"] if isinstance(actions[0], Bank) else []
        if isinstance(actions[-1], Spaz):
            said.append(f"{shown.player}: SPAZ ({', '.join(shown.seen.flags)})")
        self.say("; ".join(said))  # nothing to say clears what an earlier throw said
        self._save_evidence(shown)

    def _rolloff_throw(self, seen: Seen) -> None:
        """One die for the order of play; flags about dice in play do not apply to it."""
        assert self.rolloff is not None
        if "cocked" in seen.flags:
            self.say("roll-off: a die is cocked: throw again")
            return
        dice = sorted(seen.thrown, key=lambda d: d.box[0])
        if not dice or dice[0].value is None or (len(dice) > 1 and not self.demo):
            self.say(f"roll-off: {self.rolloff.up}, throw one die (tap Enter to type it)")
            return
        self.rolloff_value(dice[0].value)

    def record(self, *actions: AnyAction, redo: bool = False) -> Game:
        before = self.game
        after = self.store.record(self.game_id, *actions)
        if not (redo or isinstance(actions[-1], Undo)):
            self.redo_stack.clear()  # a new action: what was undone stays undone
        if not isinstance(actions[-1], Undo | Correct):  # an undone zonk is no news
            for kind, text in kinds_and_banners(before, after):
                self.hub.publish("banner", {"text": text, "kind": kind})
            hits = new_hits(before, after)
            if hits:
                self.hub.publish("sound", {"kind": "hit"})
            if hits or any(isinstance(a, Throw) for a in actions):  # shown until a throw gives none
                self.live.hits = hits
        return after

    def rolloff_value(self, value: int) -> None:
        assert self.rolloff is not None and self.pending_ruleset is not None
        try:
            player = self.rolloff.throw(value)
        except RollOffError as exc:
            raise Refused(str(exc)) from None
        order = self.rolloff.order
        if order is None:
            again = " (a tie: throw again)" if not self.rolloff.rounds[-1] else ""
            self.say(f"roll-off: {player} threw {value}{again}; {self.rolloff.up} next")
            return
        self.say(f"roll-off: {player} threw {value}; {order[0]} goes first")
        self.start_game(self.pending_ruleset, *game_start(self.rolloff, self.pending_ruleset.game.order))

    def start_game(self, ruleset: Ruleset, players: tuple[str, ...], first: Sequence[AnyAction] = ()) -> None:
        """A new game of `players` in seating order; `first`: its first log lines (a roll-off's)."""
        try:
            game_id = self.store.new_game(GameSetup(ruleset, players))
            if first:
                self.store.record(game_id, *first)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        self.rolloff, self.pending_ruleset = None, None
        self.switch_to(game_id)

    def switch_to(self, game_id: int) -> None:
        self.game_id = game_id
        self.evidence_dir = self.evidence_root / str(game_id)
        self.evidence_dir.mkdir(parents=True, exist_ok=True)
        self.shown, self.restart_stream = None, True
        self.redo_stack.clear()
        self._rulesets = None  # a new game keeps its house rules: offered from now on
        odds_table(self.game.ruleset).values(opened=True)

    def _save_evidence(self, shown: Shown) -> None:
        """The frame a throw was read from, kept as TURN-N.jpg (N-th throw of that turn)."""
        player = shown.player
        turns = [r.id for r in self.game.turns if r.player == player]
        if not turns or not shown.jpeg:
            return
        n = len(self.evidence(turns[-1])) + 1
        (self.evidence_dir / f"{turns[-1]}-{n}.jpg").write_bytes(shown.jpeg)

    def evidence(self, turn: int | None) -> list[str]:
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
        if self.live.frame_size != (w, h):  # the camera's frame: what the table region is drawn in
            self.live.frame_size = (w, h)
            self._state = None
        if w > FRAME_WIDTH:
            image = cv2.resize(image, (FRAME_WIDTH, round(h * FRAME_WIDTH / w)), interpolation=cv2.INTER_AREA)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        if ok:
            self.live.jpeg = jpeg.tobytes()
            self.hub.publish("frame", {"t": now})

    def say(self, message: str) -> None:
        """A line for the display's message bar (and the log)."""
        self.live.message = message
        if message:
            self.on_message(message)

    # --- the display side (web.Table) ---------------------------------------------------

    def state(self) -> dict[str, Any]:
        state = self._state  # one read: a page never waits on an action being recorded
        if state is None:
            with self.lock:
                state = self._state = view.page_state(self)
        return view.with_clock(state)

    def rulesets(self) -> dict[str, tuple[str, Ruleset | None]]:
        """The rulesets a new game may use, by key: the variants, the house-rules files the server
        was given, and house rules kept with earlier games in the store (None: load when chosen).
        Worked out again only when a game is started (the only way a new one is kept)."""
        if self._rulesets is None:
            self._rulesets = self._find_rulesets()
        return self._rulesets

    def _find_rulesets(self) -> dict[str, tuple[str, Ruleset | None]]:
        out: dict[str, tuple[str, Ruleset | None]] = {
            f"variant:{name}": (name, None) for name in variant_names()}
        for label, ruleset in self.house_rules.items():
            out.setdefault(view.ruleset_key(ruleset), (label, ruleset))
        for text, game_id in self.store.house_rulesets():
            try:
                ruleset = ruleset_from_dict(json.loads(text), f"game {game_id}")
            except (ValueError, RulesetError):
                continue
            key = view.ruleset_key(ruleset)
            if key not in out:
                out[key] = (f"{ruleset.title or ruleset.name} (house rules of game {game_id})", ruleset)
        return out

    def publish_state(self) -> None:
        with self.lock:
            self._state = None
            state = self.state()
        self.hub.publish("state", state)

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """One action from the display (`page_actions`); the answer's `message` says what it did."""
        name = action["action"]
        handler = PAGE_ACTIONS.get(name)
        if handler is None:
            raise Refused(f"unknown action {name!r}")
        with self.lock:
            try:
                message = handler(self, action)
            except (IllegalAction, ActionError) as exc:
                raise Refused(str(exc)) from None
            pending = self.pending
            if pending is not None and len(self.game.log) != pending.at_log:
                self.shown = None  # the game moved on: that throw will not be scored
            if message:
                self.say(message)
        self.publish_state()
        return {"ok": True, "message": message}

    def undo_label(self) -> str | None:
        """What undo would take back (the last action that stands), or None."""
        standing = effective(self.game.log, self.game.setup.players)
        return describe(standing[-1][1]) if standing else None

    def redo_label(self) -> str | None:
        return describe(self.redo_stack[-1]) if self.redo_stack else None

    def health(self) -> dict[str, Any]:
        """/healthz: the camera's state and the age of its last frame sent to the page (so to
        within FRAME_EVERY_S; None before the first)."""
        sent = self.live.sent_at
        age = round(time.monotonic() - sent, 2) if sent else None
        return {"camera": self.live.camera, "frame_age_s": age}

    def frame_jpeg(self) -> bytes | None:
        return self.live.jpeg

    def throw_jpeg(self, key: str) -> bytes | None:
        shown = self.shown
        return shown.jpeg if shown is not None and shown.key == key else None

    def stats(self) -> dict[str, Any]:
        with self.lock:  # the store's connection is shared with the camera thread
            return self.store.stats().to_json()

    def evidence_jpeg(self, throw_id: str) -> bytes | None:
        turn, _, n = throw_id.partition("-")
        if not (turn.isdigit() and n.isdigit()):
            return None
        path = self.evidence_dir / f"{throw_id}.jpg"
        return path.read_bytes() if path.is_file() else None
