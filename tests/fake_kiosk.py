"""A kiosk server over a scripted table, for browser tests of the page itself, and for looking
at the page by hand: ``python tests/fake_kiosk.py 8000`` then open http://127.0.0.1:8000/?kiosk=1

The table is a game of four in round 10: Ann's throw #12 is on the table, unscored, one die
cocked (Bank is blocked until it is corrected), Bob has a hit to take, the sheet has marks.
Every action posted is kept in the state (``actions``, ``corrections``) for the tests to read.

Switches: ``--lan`` serves every client as if from another machine on the LAN (actions need
the PIN 2468, entered through ``/api/unlock``); ``--scenario`` picks the table: ``rich`` (the
game above), ``shaharazad`` (the leader may be asked for one), ``minimal`` (the sparse state
of an older server).
"""
from __future__ import annotations

import argparse
import copy
import threading
import time
from collections import Counter

import cv2
import numpy as np
import uvicorn
from zonkcam.hardware.kiosk.web import Hub, Refused, create_app

PIN = "2468"
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
COLORS = [{"name": "red", "css": "#c62828"}, {"name": "green", "css": "#2e7d32"},
          {"name": "white", "css": "#f4f4f0"}]
BGR = {"red": (40, 40, 198), "green": (50, 125, 46), "white": (240, 244, 244)}
TARGET = 10000
FRAME = (640, 480)
LEGEND = [{"mark": "¶", "meaning": "a hit"}, {"mark": "(¶)", "meaning": "an optional hit"},
          {"mark": "»", "meaning": "a straight"}, {"mark": "«", "meaning": "the magic number"}]


def points(faces: list[int]) -> list[dict]:
    """This fake's scoring, enough to show options: three alike, single 1s and 5s."""
    counts = Counter(f for f in faces if f)
    options = []
    for face, n in sorted(counts.items()):
        if n >= 3:
            options.append({"points": 1000 if face == 1 else 100 * face, "combos": [f"three {face}s"]})
    for face, each in ((1, 100), (5, 50)):
        if 0 < counts[face] < 3:
            options.append({"points": each * counts[face], "combos": [f"{counts[face]}× {face}"]})
    options.sort(key=lambda o: -o["points"])
    for o in options:
        o["keep"], o["all_scored"] = [], False
    return options


def opening_game() -> dict:
    """Round 10 of a game of four: rounds 1-9 on the sheet, Ann's turn open with two 1s kept."""
    rows = []
    scores = dict.fromkeys(PLAYERS, 0)
    for n in range(1, 10):
        cells = []
        for i, name in enumerate(PLAYERS):
            gained = 0 if (n + i) % 4 == 0 else 350 + 50 * ((n * 7 + i * 3) % 9)
            scores[name] += gained
            text = "ZONK" if not gained else str(scores[name])
            if (n, i) in ((3, 1), (7, 1), (6, 3)):
                text += " ¶"
            if (n, i) == (5, 2):
                text = "» " + text
            cells.append({"text": text, "kind": "score" if gained else "zonk", "marks": [],
                          "turn": n * 4 + i, "evidence": [f"/api/evidence/{n * 4 + i}.jpg"]})
        rows.append({"label": str(n), "kind": "round", "halftime": False, "cells": cells})
        if n == 5:
            dash = {"text": "—", "kind": "dash", "marks": [], "turn": None, "evidence": []}
            rows.append({"label": "½", "kind": "halftime", "halftime": True, "cells": [dash] * 4})
    live = {"text": "", "kind": "live", "marks": [], "turn": 40, "evidence": []}
    rows.append({"label": "10", "kind": "round", "halftime": False, "cells": [live, None, None, None]})
    return {"scores": scores, "hits": {"Ann": 0, "Bob": 2, "Cy": 0, "Dee": 1}, "rows": rows, "round": 10,
            "current": 0, "kept": [(1, "red"), (1, "green")], "kept_points": 200,
            "throw": {"id": "12", "number": 12, "dice": [[4, "red", "ok"], [4, "green", "ok"],
                                                          [4, "white", "ok"], [None, "white", "cocked"]]},
            "summary": None, "shaharazad": None, "hits_to_take": [{"player": "Bob", "hits": 1}]}


class ScriptedTable:
    def __init__(self, scenario: str = "rich") -> None:
        self.scenario = scenario
        self.g = opening_game()
        if scenario == "shaharazad":
            self.g["shaharazad"] = {"leader": "Cy", "may_request": ["Ann", "Bob", "Dee"], "requested": None}
        self.actions: list[dict] = []
        self.corrections: list[dict] = []
        # (label, before, after): what undo takes back; the last thing done was Ann's throw
        before = copy.deepcopy(self.g) | {"throw": None}
        self.done: list[tuple[str, dict, dict]] = [("Ann's throw #12", before, copy.deepcopy(self.g))]
        self.undone: list[tuple[str, dict, dict]] = []

    # -- the state the page renders ------------------------------------------------------------

    def state(self) -> dict:
        if self.scenario == "minimal":
            return self.minimal_state()
        g = self.g
        player = PLAYERS[g["current"]] if not g["summary"] else None
        thr = g["throw"]
        faces = [d[0] for d in thr["dice"]] if thr else []
        blocked = thr is not None and any(d[2] != "ok" for d in thr["dice"])
        options = points(faces) if thr else []
        # the options here never share a die: the best keep is all of them
        best = {"points": sum(o["points"] for o in options),
                "combos": [c for o in options for c in o["combos"]]} if options else None
        adds = g["kept_points"] + best["points"] if best else None
        return {
            "game": {"id": 3, "variant": "colors6", "title": "Zonk Dice Game Rules (Bong Hits, Colors)",
                     "phase": "shaharazad?" if g["shaharazad"] else "play", "round": g["round"],
                     "target": TARGET, "header": "8:15 p.m. 5/3/2024 MAGIC NO. 2-3-3-5-5"},
            "players": [{"name": n, "score": g["scores"][n], "hits": g["hits"][n], "current": n == player,
                         "to_target": max(0, TARGET - g["scores"][n])} for n in PLAYERS],
            "sheet": {"players": PLAYERS, "rows": g["rows"],
                      "totals": [f"{g['scores'][n]} ({g['hits'][n]}¶)" for n in PLAYERS]},
            "turn": {"player": player, "total": g["kept_points"], "bank_adds": adds,
                     "can_bank": bool(best) and not blocked,
                     "bank_blocker": f"die {faces.index(None) + 1} is cocked: tap it to set it, or re-throw"
                     if blocked else None,
                     "options": options, "best": best,
                     "can_roll_asks": 0, "clock": {"limit_s": 180, "countdown_s": 10, "elapsed_s": 25}},
            "throw": thr and {
                "id": thr["id"], "label": f"{player}'s throw #{thr['number']}", "player": player,
                "scored": not blocked, "reason": "a die is cocked (not flat)" if blocked else None,
                "frame": f"/api/throw/{thr['id']}.jpg", "frame_size": list(FRAME),
                "dice": [{"index": None, "value": v, "color": c, "status": "ok", "box": None, "kept": True}
                         for v, c in g["kept"]]
                + [{"index": i, "value": v, "color": c, "status": s, "box": box(i), "kept": False}
                   for i, (v, c, s) in enumerate(thr["dice"])]},
            "odds": thr and {"dice": 2, "zonk_chance": 0.444, "throw_value": 380.5, "bank_value": adds,
                             "advice": "bank"},
            "colors": COLORS,
            "legend": LEGEND,
            "undo": {"label": self.done[-1][0]} if self.done else None,
            "redo": {"label": self.undone[-1][0]} if self.undone else None,
            "end_game": {"allowed": not g["summary"], "reason": None},
            "shaharazad": g["shaharazad"],
            "unfinished": [{"id": 2, "variant": "wheaton", "players": ["Ann", "Bob"],
                            "started": "2024-04-26 21:02"}],
            "review": True,
            "camera": {"status": "ok", "message": "watching the table", "demo": False},
            "hits_to_take": g["hits_to_take"],
            "log": [a["action"] for a in self.actions[-12:]],
            "summary": g["summary"],
            "rolloff": None,
            "new_game": {"rulesets": [{"key": "variant:colors6", "label": "colors6"},
                                      {"key": "variant:wheaton", "label": "wheaton"}],
                         "registry": [*PLAYERS, "Eve"], "ruleset": "variant:colors6", "players": PLAYERS},
            "penalties": [{"name": "space", "label": "SPACE"}, {"name": "foul", "label": "Foul"},
                          {"name": "next", "label": "Lose next turns"}],
            "actions": self.actions,
            "corrections": self.corrections,
        }

    def minimal_state(self) -> dict:
        """What an older server sent: no throw, round, players, undo or access details."""
        return {
            "game": {"variant": "wheaton", "title": "Wheaton College 5-Dice Zonk"},
            "sheet": {"players": ["Baldrick", "Biggles"],
                      "rows": [{"cells": [{"text": "BLOADES", "evidence": "/api/evidence/1.jpg"},
                                          {"text": ""}]}],
                      "totals": ["0", "0"]},
            "turn": {"player": "Biggles", "total": 400, "can_bank": True, "bank_blocker": None,
                     "options": [{"points": 400, "combos": ["three 4s"]}], "can_roll_asks": 0},
            "odds": {"dice": 2, "zonk_chance": 0.444, "bank_value": 400, "throw_value": 380.5,
                     "advice": "bank"},
            "dice": [{"value": 4, "color": "red", "box": [10, 10, 50, 50], "status": "ok"}],
            "frame_size": [320, 240], "colors": ["red", "white"],
            "penalties": [{"name": "space", "label": "SPACE"}],
            "actions": self.actions, "corrections": self.corrections,
        }

    # -- actions ------------------------------------------------------------------------------

    def act(self, action: dict) -> dict:
        self.actions.append(action)
        name = action["action"]
        result: dict = {"ok": True}
        if name == "undo":
            if not self.done:
                raise Refused("nothing to undo")
            label, before, after = self.done.pop()
            self.undone.append((label, before, after))
            self.g = copy.deepcopy(before)
            result["message"] = f"Took back: {label}"
        elif name == "redo":
            if not self.undone:
                raise Refused("nothing to redo")
            label, before, after = self.undone.pop()
            self.done.append((label, before, after))
            self.g = copy.deepcopy(after)
            result["message"] = f"Done again: {label}"
        elif name == "banner":  # for tests: what the live reader announces
            hub.publish("banner", {k: action[k] for k in ("text", "kind") if k in action})
        elif name in ("bank", "correct", "end_game", "shaharazad", "accept", "decline"):
            before = copy.deepcopy(self.g)
            label = getattr(self, name)(action)
            self.done.append((label, before, copy.deepcopy(self.g)))
            self.undone.clear()
        elif name not in ("penalty", "new_game", "resume"):  # those are only recorded
            raise Refused(f"unknown action {name!r}")
        hub.publish("state", self.state())
        return result

    def bank(self, action: dict) -> str:
        s = self.state()["turn"]
        if not s["can_bank"]:
            raise Refused(s["bank_blocker"] or "nothing to bank")
        g, player = self.g, PLAYERS[self.g["current"]]
        g["scores"][player] += s["bank_adds"]
        g["rows"][-1]["cells"][g["current"]] = {"text": str(g["scores"][player]), "kind": "score",
                                                "marks": [], "turn": 40, "evidence": ["/api/evidence/40.jpg"]}
        g["current"] = (g["current"] + 1) % len(PLAYERS)
        g["throw"], g["kept"], g["kept_points"] = None, [], 0
        hub.publish("banner", {"text": f"{player} banks {s['bank_adds']}", "kind": "bank"})
        return f"{player} bank"

    def correct(self, action: dict) -> str:
        thr = self.g["throw"]
        if thr is None or action.get("throw") != thr["id"]:
            raise Refused("that throw is no longer on the table")
        self.corrections.append(action)
        die = thr["dice"][action["die"]]
        if "value" in action:
            die[0], die[2] = int(action["value"]), "ok"
        if "color" in action:
            die[1] = action["color"]
        return f"{PLAYERS[self.g['current']]} correct {thr['id']} die {action['die'] + 1}"

    def end_game(self, action: dict) -> str:
        g = self.g
        ranked = sorted(PLAYERS, key=lambda n: -g["scores"][n])
        g["summary"] = {"winners": ranked[:1], "finish_order": [], "gha": 0.75, "started": "2024-05-03 20:15",
                        "ended": "2024-05-03 22:40",
                        "players": [{"name": n, "score": g["scores"][n], "hits": g["hits"][n], "turns": 9,
                                     "zonks": 2, "zonk_rate": 2 / 9, "average_turn": 500, "best_turn": 900}
                                    for n in PLAYERS]}
        g["throw"] = None
        return "end"

    def shaharazad(self, action: dict) -> str:
        self.g["shaharazad"]["requested"] = action["player"]
        return f"{action['player']} shaharazad"

    def accept(self, action: dict) -> str:
        self.g["shaharazad"] = None
        return "accept"

    decline = accept

    # -- pictures -----------------------------------------------------------------------------

    def frame_jpeg(self) -> bytes:
        """The live picture: the felt, the dice somewhere else by now."""
        image = felt()
        shift = int(time.monotonic() * 40) % 200
        for i, (value, color, _) in enumerate((self.g["throw"] or {"dice": []})["dice"]):
            x1, y1, x2, y2 = box(i)
            draw_die(image, (x1 + shift, y1 + 60, x2 + shift, y2 + 60), value or 6, color)
        return cv2.imencode(".jpg", image)[1].tobytes()

    def throw_jpeg(self, throw_id: str) -> bytes | None:
        """The still this throw was read from, the dice where their boxes say."""
        thr = self.g["throw"]
        if thr is None or thr["id"] != throw_id:
            return None
        image = felt()
        for i, (value, color, status) in enumerate(thr["dice"]):
            draw_die(image, box(i), value or 3, color, tilt=status != "ok")
        return cv2.imencode(".jpg", image)[1].tobytes()

    def evidence_jpeg(self, throw_id: str) -> bytes | None:
        return cv2.imencode(".jpg", felt())[1].tobytes() if throw_id.isdigit() else None


def box(i: int) -> list[int]:
    x, y = 90 + 130 * i, 170 + (40 if i % 2 else 0)
    return [x, y, x + 80, y + 80]


def felt() -> np.ndarray:
    return np.full((FRAME[1], FRAME[0], 3), (40, 90, 30), np.uint8)


def draw_die(image: np.ndarray, b: list[int] | tuple, value: int, color: str, tilt: bool = False) -> None:
    x1, y1, x2, y2 = b
    size = x2 - x1
    if tilt:  # a cocked die: drawn as a rhombus, its face unreadable
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        pts = np.array([[cx, y1], [x2, cy], [cx, y2], [x1, cy]], np.int32)
        cv2.fillPoly(image, [pts], BGR[color])
        return
    cv2.rectangle(image, (x1, y1), (x2, y2), BGR[color], -1)
    ink = (20, 20, 20) if color == "white" else (250, 250, 250)
    spots = {1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8]}
    for s in spots[value]:
        centre = (x1 + size * (1 + 2 * (s % 3)) // 6, y1 + size * (1 + 2 * (s // 3)) // 6)
        cv2.circle(image, centre, size // 10, ink, -1)


def as_lan(app):
    """Every request as if from another machine: the server's own PIN rules then apply."""
    async def lan(scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            scope = {**scope, "client": ("192.0.2.7", 50000)}
        await app(scope, receive, send)
    return lan


def tick_frames() -> None:
    """The live picture's `frame` events, slower than a camera's: enough to show it updating."""
    while True:
        time.sleep(0.5)
        hub.publish("frame", None)


hub = Hub()

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("port", type=int)
    parser.add_argument("host", nargs="?", default="127.0.0.1")
    parser.add_argument("--lan", action="store_true", help="treat every client as another machine on the LAN")
    parser.add_argument("--scenario", choices=["rich", "shaharazad", "minimal"], default="rich")
    args = parser.parse_args()
    table = ScriptedTable(args.scenario)
    app = create_app(table, hub, pin=PIN)
    threading.Thread(target=tick_frames, daemon=True).start()
    # Open pages hold their event streams: a test's server stops without waiting for them.
    uvicorn.run(as_lan(app) if args.lan else app, host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=1)
