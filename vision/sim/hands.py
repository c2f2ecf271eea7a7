"""The throw simulator's player between throws: a hand's path in from the frame's edge,
picking dice up (and nudging a kept one), holding the dice in view before the throw, and the
disturbances that are no throw (a hand hovering, the light changing, a shadow passing, the
table nudged). A mixin of `Simulation`: each appends the frames it plays to the script."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
from zonkcam.vision.sim.config import Frame, Hand, SimConfig, SimDie

LIVE_DRIFT = 6  # live play: px the table's nudges may move it, in all, each way


class HandMoves:
    """The hand's moves; the attributes below are `Simulation`'s."""

    config: SimConfig
    rng: np.random.Generator
    size: int
    polygon: list[tuple[int, int]]
    truth: dict
    _frames: list[Frame]
    _table: list[SimDie]
    _gain: float
    _offset: tuple[int, int]
    _live: bool

    if TYPE_CHECKING:  # `Simulation`'s and the other mixins' (not defined here: the MRO finds them)
        @property
        def _frame_no(self) -> int: ...
        def _still(self, **kw) -> Frame: ...
        def _room(self, x: float, y: float, die: SimDie) -> bool: ...
        def _edge_spot(self, others: list[SimDie]) -> np.ndarray: ...
        def _random_spot(self, margin: float, others: list[SimDie] | None = None
                         ) -> tuple[float, float]: ...

    def _edge_point(self, side: int | None = None) -> tuple[float, float]:
        w, h = self.config.width, self.config.height
        side = int(self.rng.integers(4)) if side is None else side
        u = float(self.rng.uniform(0.25, 0.75))
        return [(u * w, h + 40), (u * w, -40), (-40, u * h), (w + 40, u * h)][side]

    def _hand_path(self, points: list[tuple[float, float]], seconds: float,
                   edge: tuple[float, float]) -> list[Hand]:
        n = max(2, round(seconds * self.config.fps))
        out = []
        for i in range(n):
            u = i / (n - 1) * (len(points) - 1)
            j = min(int(u), len(points) - 2)
            f = u - j
            x = points[j][0] + (points[j + 1][0] - points[j][0]) * f
            y = points[j][1] + (points[j + 1][1] - points[j][1]) * f
            out.append(Hand(edge, x + float(self.rng.normal(0, 1.0)),
                            y + float(self.rng.normal(0, 1.0))))
        return out

    def _pick_up(self, removed: list[SimDie], nudge: SimDie | None) -> bool:
        """A hand visits each die to pick up (it vanishes under the hand), maybe nudges a kept
        die (True if it did: there was room to push it), and leaves."""
        nudged = False
        edge = self._edge_point()
        pos = edge
        targets = [d for d in removed if d.status != "lost"]
        for d in targets:
            for hand in self._hand_path([pos, (d.x, d.y)], 0.3, edge):
                self._frames.append(self._still(hands=[hand]))
            self._table = [o for o in self._table if o is not d]
            for hand in self._hand_path([(d.x, d.y)] * 2, 0.15, edge):
                self._frames.append(self._still(hands=[hand]))
            pos = (d.x, d.y)
        self._table = [d for d in self._table if d.status != "lost"]
        if nudge is not None:
            s = self.size
            a = float(self.rng.uniform(0, 2 * math.pi))
            push = float(self.rng.uniform(0.7, 1.3)) * s
            dx, dy = math.cos(a) * push, math.sin(a) * push
            if not self._room(nudge.x + dx, nudge.y + dy, nudge):
                dx, dy = -dx, -dy
            if self._room(nudge.x + dx, nudge.y + dy, nudge):  # a kept die stays on the table
                start = (nudge.x - math.cos(a) * s, nudge.y - math.sin(a) * s)
                for hand in self._hand_path([pos, start], 0.3, edge):
                    self._frames.append(self._still(hands=[hand]))
                x0, y0, a0 = nudge.x, nudge.y, nudge.angle
                spin = float(self.rng.uniform(-20, 20))
                steps = self._hand_path([start, (start[0] + dx, start[1] + dy)], 0.3, edge)
                for i, hand in enumerate(steps):
                    f = (i + 1) / len(steps)
                    nudge.x, nudge.y, nudge.angle = x0 + dx * f, y0 + dy * f, a0 + spin * f
                    self._frames.append(self._still(hands=[hand]))
                pos = (nudge.x, nudge.y)
                nudged = True
        for hand in self._hand_path([pos, edge], 0.35, edge):
            self._frames.append(self._still(hands=[hand]))
        return nudged

    def _hold(self) -> None:
        """The dice picked up held in view before the throw: a hand comes back over the table
        or beside it, holds them 1-3 s (trembling, or shaking them), and leaves."""
        rng, s, c = self.rng, self.size, self.config
        edge = self._edge_point()
        if rng.random() < 0.5:
            spot = self._random_spot(margin=1.0)
        else:  # beside the table: over the surround, a little way from the region's edge
            p = self._edge_spot([])
            centre = np.asarray(self.polygon, np.float32).mean(axis=0)
            out = (p - centre) / np.linalg.norm(p - centre)
            q = p + out * 1.5 * s
            spot = (float(np.clip(q[0], s, c.width - s)), float(np.clip(q[1], s, c.height - s)))
        seconds = float(rng.uniform(1.0, 3.0))
        amp = float(rng.choice([0.0, rng.uniform(0.1, 0.3) * s]))  # 0: held, trembling
        hz = float(rng.uniform(3, 5))
        path = self._hand_path([edge, spot], 0.4, edge)
        n = round(seconds * c.fps)
        for i in range(n):
            wobble = amp * math.sin(2 * math.pi * hz * i / c.fps)
            path += self._hand_path([(spot[0] + wobble, spot[1] + 0.5 * wobble)] * 2, 1 / c.fps,
                                    edge)[:1]
        path += self._hand_path([spot, edge], 0.4, edge)
        start = self._frame_no
        for hand in path:
            self._frames.append(self._still(hands=[hand]))
        self.truth["disturbances"].append({"kind": "hold", "frame": start,
                                           "end_frame": self._frame_no})

    def _disturb(self) -> None:
        kind = ("hover", "light", "shadow", "table_nudge")[int(self.rng.integers(4))]
        start = self._frame_no
        fps = self.config.fps
        if kind == "hover":
            edge = self._edge_point()
            x, y = self._random_spot(margin=2.0)
            path = self._hand_path([edge, (x, y)], 0.4, edge)
            path += self._hand_path([(x, y), (x + 6, y - 4), (x, y)], float(self.rng.uniform(0.5,
                                    1.2)), edge)
            path += self._hand_path([(x, y), edge], 0.4, edge)
            for hand in path:
                self._frames.append(self._still(hands=[hand]))
        elif kind == "light":
            target = float(np.clip(self._gain * self.rng.choice([0.82, 0.88, 1.12, 1.18]),
                                   0.75, 1.25))
            ramp = round(float(self.rng.choice([0.0, 1.0])) * fps)
            g0 = self._gain
            for i in range(1, ramp + 1):
                self._gain = g0 + (target - g0) * i / ramp
                self._frames.append(self._still())
            self._gain = target
        elif kind == "shadow":
            w, h = self.config.width, self.config.height
            n = round(1.5 * fps)
            y = float(self.rng.uniform(0.3, 0.7)) * h
            for i in range(n):
                self._frames.append(self._still(shadow=(-300 + (w + 600) * i / (n - 1), y)))
        else:
            dx, dy = (int(v) for v in self.rng.integers(-4, 5, 2))
            self._offset = (self._offset[0] + dx, self._offset[1] + dy)
            if self._live:  # hours of nudges must not walk the table off its calibration
                ox, oy = (min(max(v, -LIVE_DRIFT), LIVE_DRIFT) for v in self._offset)
                self._offset = (ox, oy)
        self.truth["disturbances"].append({"kind": kind, "frame": start,
                                           "end_frame": self._frame_no})
