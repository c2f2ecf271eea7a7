"""The throw simulator as a camera: the demo `zonkcam play` runs with no camera attached."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Protocol

import numpy as np
from zonkcam.hardware.cameras.base import BaseCamera, Frame


class DemoPlayerLike(Protocol):
    """Decides the demo's next throw (`vision.sim.simulator.ThrowPlan`), or None: not yet."""

    def next_throw(self, sim, t: float): ...


class DemoCamera(BaseCamera):
    """The throw simulator as a camera, played in real time (``realtime=False`` delivers frames
    as fast as asked for), on one table.

    With a ``player`` (`hardware.kiosk.demo.DemoPlayer`) it plays live: each throw is asked of the
    player once the last one has been played, so it can follow the game; while the player is
    not ready the table stays still. Without one, a long script of throws is drawn up front
    and played over again; ``keep_policy`` then plays the simulated player: given the values
    of a throw and an opaque state (0 at the start of a turn), it returns the indexes to set
    aside and the new state, or None to pick every die up (the turn is over)."""

    WAIT_S = 0.2  # still table shown while the player is not ready, before asking again

    def __init__(self, seed: int = 1, realtime: bool = True, throws: int = 100, dice: int = 5,
                 keep_policy: Callable | None = None, player: DemoPlayerLike | None = None) -> None:
        from zonkcam.vision.sim.simulator import SimConfig, Simulation

        self.name = "demo"
        self.realtime = realtime
        self.player = player
        if player is None:
            config = SimConfig(seed=seed, throws=throws, dice=dice, keep_policy=keep_policy)
        else:  # live: only the specials the player asks for, and no kept die nudged (a SPAZ)
            config = SimConfig(seed=seed, throws=0, dice=dice, p_off_table=0, p_cocked=0,
                               p_stacked=0, p_nudge=0)
        self.simulation = Simulation(config)
        self._frames: Iterator[tuple[float, np.ndarray]] | None = None
        self._offset = 0.0
        self._t = 0.0
        self._index = 0
        self._t0 = time.monotonic()

    @property
    def table(self):
        """The simulated table's region, as a calibration would find it."""
        from zonkcam.vision.table import TableConfig

        region = self.simulation.truth["table"]
        return TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])

    def read(self) -> Frame | None:
        t, image = self._live() if self.player is not None else self._scripted()
        self._t = t
        if self.realtime:
            delay = self._t - (time.monotonic() - self._t0)
            if delay > 0:
                time.sleep(delay)
        self._last = Frame(image, self._t, self._index)
        self._index += 1
        return self._last

    def _live(self) -> tuple[float, np.ndarray]:
        sim = self.simulation
        assert self.player is not None
        while (item := sim.next_frame()) is None:
            throw = self.player.next_throw(sim, self._t)
            if throw is None:
                sim.wait(self.WAIT_S)
            else:
                sim.extend(throw)
        return item

    def _scripted(self) -> tuple[float, np.ndarray]:
        while True:
            if self._frames is None:
                self._frames = self.simulation.frames()
                self._offset = self._t  # the script plays again from the start, same table
            item = next(self._frames, None)
            if item is not None:
                return self._offset + item[0], item[1]
            self._frames = None

