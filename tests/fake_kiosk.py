"""A kiosk server over a scripted table, for browser tests of the page itself."""
from __future__ import annotations

import sys

import cv2
import numpy as np
import uvicorn
from zonkcam.hardware.web import ActionError, Hub, create_app


class ScriptedTable:
    def __init__(self) -> None:
        self.banked = False
        self.corrections: list[dict] = []

    def state(self) -> dict:
        total = "400" if self.banked else ""
        return {
            "game": {"variant": "wheaton", "title": "Wheaton College 5-Dice Zonk"},
            "sheet": {
                "players": ["Baldrick", "Biggles"],
                "rows": [{"cells": [{"text": "BLOADES", "evidence": "/api/evidence/1.jpg"},
                                    {"text": total}]}],
                "totals": ["0", total or "0"],
            },
            "turn": {"player": "Baldrick" if self.banked else "Biggles", "total": 0 if self.banked else 400,
                     "can_bank": not self.banked, "bank_blocker": None,
                     "options": [{"points": 400, "combos": ["three 4s"]}], "can_roll_asks": 0},
            "odds": {
                "dice": 2, "zonk_chance": 0.444, "bank_value": 400, "throw_value": 380.5, "advice": "bank"
            },
            "dice": [{"value": 4, "color": "red", "box": [10, 10, 50, 50], "status": "ok"}],
            "frame_size": [320, 240],
            "colors": ["red", "white"],
            "penalties": [{"name": "space", "label": "SPACE"}],
            "corrections": self.corrections,
        }

    def act(self, action: dict) -> dict:
        if action["action"] == "bank":
            if self.banked:
                raise ActionError("nothing to bank")
            self.banked = True
        elif action["action"] == "correct":
            self.corrections.append(action)
        hub.publish("state", self.state())
        return {"ok": True}

    def frame_jpeg(self) -> bytes:
        return cv2.imencode(".jpg", np.full((240, 320, 3), 90, np.uint8))[1].tobytes()

    def evidence_jpeg(self, throw_id: str) -> bytes | None:
        return self.frame_jpeg() if throw_id == "1" else None


hub = Hub()

if __name__ == "__main__":
    port, host = int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "127.0.0.1"
    uvicorn.run(create_app(ScriptedTable(), hub, pin="2468"), host=host, port=port, log_level="warning")
