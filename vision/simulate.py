"""The throw simulator: synthetic camera footage of Zonk throws, with the ground truth.

Real video of thrown dice is not available, so the live-throw code is tested on footage this
module composes. It plays a game's worth of throws on a table seen from above:

- a surface: a felt ``mat`` on a wooden table, or a ``tray`` with a rim; the mat or tray floor is
  the table region (`truth["table"]`);
- dice drawn with OpenCV in named colours (chosen to stand out from the surface), or cut from
  rune55 photos when a crops folder is given (real faces, grey, colour unknown);
- each throw: a hand reaches in from the edge, releases the dice, they tumble (face, spin and
  height changing), roll out and come to rest; kept dice stay where they are;
- between throws a hand picks up the dice that are thrown again, and sometimes nudges a kept die;
  a pause usually follows (the player shaking the dice) but not always;
- special throws: a die rolling off the table (resting outside the region, crossing its edge, or
  leaving the frame by an edge away from the thrower's hand), a cocked die (leaning on the
  tray wall: its top face and one side seen), a stacked die (one die resting on another);
- disturbances that must not become throws: a hand hovering, a light step or ramp, a shadow
  passing over, the table nudged; plus flicker and sensor noise on every frame;
- as a real table plays (issue 34; `unkind`, off by default): a ``dark`` tray (its floor
  shaded along the wall, a lamp's gradient, a black wall or a lit rim, on a bright or a dark
  table), arms in sleeves of the table's colour, dice held in view after a pick-up, kept dice
  knocked a little by thrown ones (truth `knocked`), dice resting against the wall.

Deterministic given the seed: the whole script is drawn from one `numpy.random.Generator`, and
rendering uses no other randomness.

    sim = Simulation(SimConfig(seed=7, throws=12))
    for t, frame in sim.frames():
        ...
    sim.truth  # {"throws": [...], "disturbances": [...], "table": {...}, ...}

`write_video` / `write_frames` save the footage; `zonkcam simulate` is the command line.

Live play (the kiosk's demo) scripts no throw up front: each is decided when the last one has
been played and scored, so the simulated player can follow the game. Only the specials the
decision asks for happen, and frames are dropped once played, so hours of play stay small:

    sim = Simulation(SimConfig(seed=7, throws=0))
    sim.extend(ThrowPlan(fresh=True, dice=5, colors=("white",) * 5))
    while (item := sim.next_frame()) is not None:
        ...  # then `extend` with the next throw, or `wait` for more still frames
"""
from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

# BGR body colour and pip colour of the drawn dice; names follow the recognizer's default set.
PALETTE: dict[str, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    "white": ((232, 234, 236), (25, 25, 25)),
    "red": ((45, 40, 190), (240, 240, 240)),
    "green": ((70, 150, 30), (240, 240, 240)),
    "blue": ((170, 80, 25), (240, 240, 240)),
    "black": ((32, 32, 32), (235, 235, 235)),
    "yellow": ((40, 205, 235), (25, 25, 25)),
}
# (region surface, surroundings) in BGR for each surface kind.
SURFACES = {
    "mat": ((52, 92, 38), (70, 105, 150)),  # green felt mat on a mid-brown wooden table
    "tray": ((95, 52, 30), (60, 95, 135)),  # navy felt tray on wood; the rim is darker wood
    # a dark tray (issue 34): near-black floor; round it a bright table or a dark one
    "dark": ((40, 38, 36), (150, 172, 196)),
}
DARK_SURROUND = (34, 32, 30)  # the dark table a dark tray may sit on (a sleeve vanishes on it)
DARK_RIMS = ((4, 4, 5), (70, 70, 76))  # a black wall, or one whose top catches the lamp
WALL_STRIP = 0.9  # die sides: the strip along a dark tray's wall that its wall shades
WALL_SHADE = 0.6  # of the floor's light, at the wall
PIPS = {
    1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
SKIN = (120, 150, 205)
# Real faces are cut from photos of dice at least this many times the simulated die's size.
FACE_OVERSIZE = 1.5
SPECIALS = ("off_table", "cocked", "stacked")
LIVE_KEEP = 100  # live play: throws and disturbances kept in `truth` (the latest)
LIVE_DRIFT = 6  # live play: px the table's nudges may move it, in all, each way
BACKGROUNDS = 8  # table pictures cached (one per nudged position)


@dataclass(frozen=True, slots=True)
class SimConfig:
    seed: int = 0
    throws: int = 10
    dice: int = 6
    width: int = 640
    height: int = 480
    fps: float = 30.0
    die_px: int = 34  # die side in pixels
    surface: str = "random"  # mat, tray, or random per seed
    crops: str | None = None  # a rune55 folder: use its real die faces instead of drawn ones
    dice_style: str = "pips"  # or "star-logo": a star for the one, a logo for the six (synthetic.py)
    # Chances per throw of the special cases (at most one special throw case per throw).
    p_off_table: float = 0.12
    p_cocked: float = 0.08
    p_stacked: float = 0.08
    p_nudge: float = 0.12  # a kept die nudged while dice are picked up
    p_disturbance: float = 0.35  # a hover, light change, passing shadow or table nudge
    p_no_pause: float = 0.2  # picked up and thrown in one go, no settle in between
    # The simulated player: (values thrown, state) -> (indexes of those dice to set aside, new
    # state), or None to pick every die up (a new turn). State is 0 at a turn's start. Without
    # one, a random non-empty part of the throw is kept.
    keep_policy: Callable[[list[int], object], tuple[list[int], object] | None] | None = None
    # A real table's unkindness (issue 34), all off by default (`unkind` turns them on); off,
    # they draw nothing from the seed's generator, so earlier seeds script what they did.
    sleeve: bool = False  # arms in sleeves of the surround's colour: no arm joins a hand to
    # the frame's edge in the picture
    p_hold: float = 0.0  # after a pick-up: the hand holds the dice in view 1-3 s, shaking
    p_knock: float = 0.0  # a thrown die knocks a kept die 0.1-0.5 of a side and turns it
    p_wall: float = 0.0  # a thrown die comes to rest flat against the tray's wall


def unkind(config: SimConfig, dark: bool = True) -> SimConfig:
    """`config` as unkind as a real table: a dark tray (with `dark`), sleeves, holds after
    pick-ups, knocks and dice against the wall."""
    return replace(config, surface="dark" if dark else config.surface, sleeve=True,
                   p_hold=0.6, p_knock=0.3, p_wall=0.2)


@dataclass(frozen=True, slots=True)
class ThrowPlan:
    """The next throw of live play (`Simulation.extend`), decided once the last one is played."""

    keep: tuple[int, ...] = ()  # indexes into `last_thrown` set aside beside the dice kept before;
    # the other dice of the last throw are picked up and thrown again
    fresh: bool = False  # pick every die up (a new turn, hot dice) and throw the whole set
    special: str | None = None  # off_table, cocked or stacked: the throw goes wrong this way
    dice: int | None = None  # a fresh throw: the set's size (default: as before)
    colors: tuple[str, ...] | None = None  # a fresh throw: the set's colours (PALETTE names), one
    # per die; default: as before (at first, a colour drawn per die)


@dataclass(slots=True)
class SimDie:
    value: int
    color: str | None
    x: float
    y: float
    angle: float
    status: str = "ok"  # ok, cocked, stacked, off_table, and "under" for the die below a stack
    scale: float = 1.0
    side: int = 0  # cocked: the face value seen on the leaning side
    crop: int = 0  # index of the rune55 crop used for this face

    def truth(self) -> dict:
        return {"value": None if self.status == "cocked" else self.value, "color": self.color,
                "status": self.status}


@dataclass(slots=True)
class Hand:
    edge: tuple[float, float]
    x: float
    y: float


@dataclass(slots=True)
class Frame:
    """What one frame shows."""

    dice: list[SimDie]
    hands: list[Hand] = field(default_factory=list)
    gain: float = 1.0
    shadow: tuple[float, float] | None = None  # centre of a large passing shadow
    offset: tuple[int, int] = (0, 0)  # table nudges so far


class Simulation:
    """A scripted game of throws; `frames()` renders it, `truth` describes it."""

    def __init__(self, config: SimConfig | None = None,
                 crops: dict[int, list[np.ndarray]] | None = None) -> None:
        """`crops`: real die faces per value (`load_rune55_crops`), loaded once for many
        games; default: cut from `config.crops` when that is set, else drawn dice."""
        self.config = c = config or SimConfig()
        self.rng = np.random.default_rng(c.seed)
        self.surface = c.surface if c.surface != "random" else ("mat", "tray")[c.seed % 2]
        # a dark tray sits on a bright table or, every other seed, on a dark one
        self.around = DARK_SURROUND if self.surface == "dark" and c.seed % 2 else \
            SURFACES[self.surface][1]
        self.size = c.die_px
        self.polygon = self._region()
        self.colors = self._contrasting_colors()
        if crops is None and c.crops:
            crops = load_rune55_crops(Path(c.crops), self.rng, min_side=FACE_OVERSIZE * c.die_px)
        self.crops = crops
        self._frames: list[Frame] = []
        self._dropped = 0  # frames played and forgotten (live play)
        self._played = 0  # frames `next_frame` has given
        self._live = False  # throws are added by `extend`
        self._dice = c.dice  # dice in the set
        self._set_colors: tuple[str, ...] | None = None  # None: a colour drawn for each die
        self._state: object = 0  # the keep policy's state
        self._table: list[SimDie] = []
        self._kept: list[SimDie] = []  # set aside this turn
        self._last_thrown: list[SimDie] = []
        self._gain = 1.0
        self._offset = (0, 0)
        self.truth: dict = {
            "seed": c.seed, "fps": c.fps, "width": c.width, "height": c.height,
            "surface": self.surface, "die_px": c.die_px,
            "table": {"frame_size": [c.width, c.height],
                      "polygon": [list(p) for p in self.polygon], "keep_zone": None},
            "throws": [], "disturbances": [],
        }
        self._script()
        self.truth["frames"] = self._frame_no
        self._background: dict[tuple[int, int], np.ndarray] = {}
        self._sprites: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        noise_rng = np.random.default_rng(c.seed + 1)
        self._noise = [
            noise_rng.normal(0, 2.0, (c.height, c.width, 3)).clip(-8, 8).astype(np.float32)
            for _ in range(4)]

    # ----- the script -------------------------------------------------------------------

    def _script(self) -> None:
        self._rest(0.6)
        for k in range(self.config.throws):
            self._next_throw(k, None)

    @property
    def _frame_no(self) -> int:
        """The number of the next frame scripted (frames dropped count)."""
        return self._dropped + len(self._frames)

    def _next_throw(self, k: int, throw: ThrowPlan | None) -> None:
        """Pick up, pause and throw: as `throw` decides (live), else as the script draws."""
        c, rng = self.config, self.rng
        if throw is None:
            keep = None
            if self._last_thrown and all(d.status == "ok" for d in self._table):
                keep, self._state = self._choose_keep(self._state)
        else:
            keep = None if throw.fresh else [self._last_thrown[i] for i in sorted(set(throw.keep))]
            if throw.fresh:
                self._dice = throw.dice or self._dice
                self._set_colors = throw.colors or self._set_colors
        if keep is None:
            self._kept, self._state = [], 0
        elif len(keep) == len(self._last_thrown):
            self._kept = []  # hot dice: every die is picked up, the turn goes on
        else:
            self._kept += keep
        removed = [d for d in self._table if all(d is not kd for kd in self._kept)]
        nudge = False
        if self._table:
            nudge = bool(self._kept) and rng.random() < c.p_nudge
            nudge = self._pick_up(removed, self._kept[0] if nudge else None)
            if c.p_hold and rng.random() < c.p_hold:
                self._hold()
            if nudge or rng.random() >= c.p_no_pause:
                self._rest(float(rng.uniform(0.5, 1.0)))
                if rng.random() < c.p_disturbance:
                    self._disturb()
                    self._rest(float(rng.uniform(0.5, 0.8)))
        self._throw(k, list(self._kept), removed, knocked=nudge, throw=throw)

    def _choose_keep(self, state: object) -> tuple[list[SimDie] | None, object]:
        """The dice of the last throw the player sets aside (None: pick everything up)."""
        thrown = self._last_thrown
        if self.config.keep_policy is not None:
            choice = self.config.keep_policy([d.value for d in thrown], state)
            if choice is None:
                return None, 0
            indexes, state = choice
            return [thrown[i] for i in sorted(set(indexes))], state
        if len(thrown) < 2 or self.rng.random() < 0.25:
            return None, 0
        n = int(self.rng.integers(1, len(thrown)))
        return [thrown[int(i)] for i in sorted(self.rng.permutation(len(thrown))[:n])], state

    # ----- live play ---------------------------------------------------------------------

    def extend(self, throw: ThrowPlan) -> None:
        """Script one more throw, as decided now; its frames follow those scripted so far."""
        if throw.special not in (None, *SPECIALS):
            raise ValueError(f"unknown special throw {throw.special!r} ({', '.join(SPECIALS)})")
        self._live = True
        self._next_throw(self._throw_no, throw)
        self._forget()

    def wait(self, seconds: float) -> None:
        """More still frames: the table as it is, for this long."""
        self._rest(seconds)
        self.truth["frames"] = self._frame_no

    def next_frame(self) -> tuple[float, np.ndarray] | None:
        """(time in seconds, BGR frame) of the next frame not yet played, then forgotten; None
        when every frame scripted has been played (`extend` or `wait` for more)."""
        i = self._played - self._dropped
        if i >= len(self._frames):
            return None
        self._played += 1
        frame = self.render(self._played - 1, self._frames[i])
        if i >= 300:  # forget played frames now and then, not one by one
            del self._frames[:i]
            self._dropped += i
        return (self._played - 1) / self.config.fps, frame

    @property
    def last_thrown(self) -> list[SimDie]:
        """The dice of the last throw, as they lie (indexes for `ThrowPlan.keep`)."""
        return [replace(d) for d in self._last_thrown]

    @property
    def kept(self) -> list[SimDie]:
        """The dice set aside this turn (since every die was last picked up)."""
        return [replace(d) for d in self._kept]

    @property
    def _throw_no(self) -> int:
        throws = self.truth["throws"]
        return throws[-1]["index"] + 1 if throws else 0

    def _forget(self) -> None:
        """Live play keeps only the latest of its truth: memory stays bounded over hours."""
        for key in ("throws", "disturbances"):
            del self.truth[key][:-LIVE_KEEP]
        self.truth["frames"] = self._frame_no

    def _rest(self, seconds: float) -> None:
        for _ in range(round(seconds * self.config.fps)):
            self._frames.append(self._still())

    def _still(self, **kw) -> Frame:
        return Frame([replace(d) for d in self._table if d.status != "lost"], gain=self._flicker(),
                     offset=self._offset, **kw)

    def _flicker(self) -> float:
        return self._gain * float(1 + self.rng.normal(0, 0.004))

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

    def _throw(self, k: int, kept: list[SimDie], removed: list[SimDie], knocked: bool,
               throw: ThrowPlan | None = None) -> None:
        c, rng, s = self.config, self.rng, self.size
        n = self._dice - len(kept)
        if throw is None:
            r = rng.random()
            special = ("off_table" if r < c.p_off_table else
                       "cocked" if r < c.p_off_table + c.p_cocked else
                       "stacked" if r < c.p_off_table + c.p_cocked + c.p_stacked and n >= 2
                       else None)
        else:
            special = throw.special if throw.special != "stacked" or n >= 2 else None
        colors = self._colors_left(kept, n)
        finals: list[SimDie] = []
        for i in range(n):
            x, y = self._random_spot(margin=1.0, others=finals)
            finals.append(self._new_die(x, y, colors[i] if colors else None))
        if c.p_wall and rng.random() < c.p_wall and (special is None or n >= 3):
            self._against_wall(finals[0], finals[1:])
        if special == "off_table":
            self._send_off_table(finals[-1], finals[:-1])
        elif special == "cocked":
            self._make_cocked(finals[-1], finals[:-1])
        elif special == "stacked":
            top, under = finals[-1], finals[-2]
            a = float(rng.uniform(0, 2 * math.pi))
            top.x, top.y = under.x + 0.4 * s * math.cos(a), under.y + 0.4 * s * math.sin(a)
            top.status, top.scale, under.status = "stacked", 1.1, "under"
        # The throwing hand comes in from the player's edge and lets go near it. A die thrown
        # out of the frame flies away from the hand, so it leaves by another edge of the frame
        # (one leaving by the player's own edge would pass under the arm, unseen by any camera).
        side = self._away_from(int(rng.integers(4)), finals[-1] if special == "off_table" else None)
        edge = self._edge_point(side)
        w, h = c.width, c.height
        release = (min(max(edge[0], 60), w - 60), min(max(edge[1], 60), h - 60))
        reach = self._hand_path([edge, release], 0.3, edge)
        for hand in reach:
            self._frames.append(self._still(hands=[hand]))
        durations = [float(rng.uniform(0.6, 1.2)) for _ in finals]
        paths = [self._tumble(d, release, t) for d, t in zip(finals, durations, strict=True)]
        leave = self._hand_path([release, edge], 0.35, edge)
        start = self._frame_no
        length = max(len(p) for p in paths)
        knock = self._knock(kept, finals) if kept and c.p_knock and rng.random() < c.p_knock \
            else None
        for i in range(length):
            moving = [p[min(i, len(p) - 1)] for p in paths]
            hands = [leave[i]] if i < len(leave) else []
            if knock is not None:  # a thrown die hits it late in its roll: 3 frames of push
                die, (dx, dy, turn), (x0, y0, a0) = knock
                f = min(max(i - round(0.6 * length) + 1, 0), 3) / 3
                die.x, die.y, die.angle = x0 + dx * f, y0 + dy * f, a0 + turn * f
            frame = self._still(hands=hands)
            frame.dice += sorted((d for d in moving if d.status != "lost"),
                                 key=lambda d: d.status == "stacked")
            self._frames.append(frame)
        # At rest once nothing in sight changes: a die that flew out of the frame stops
        # changing the picture the frame after its last one in sight.
        rest_frame = start + max(len(leave) + 1, *(self._last_change(p) + 1 for p in paths))
        self._table += finals
        self._last_thrown = [d for d in finals if d.status not in ("under", "lost")]
        flags = []
        shown = [d for d in finals if d.status not in ("under", "lost")]
        if any(d.status in ("off_table", "lost") for d in finals):
            flags.append("spaz")
        if any(d.status == "lost" for d in finals):
            flags.append("lost")
        if knocked or knock is not None:
            flags.append("knocked")
        flags += [st for st in ("cocked", "stacked") if any(d.status == st for d in finals)]
        self.truth["throws"].append({
            "index": k, "frame": rest_frame, "t": round(rest_frame / c.fps, 3),
            "thrown": [d.truth() for d in shown],
            "kept": [d.truth() for d in kept],
            "removed": [d.truth() for d in removed if d.status not in ("lost", "under")],
            "flags": flags, "special": special,
        })
        self._rest(float(rng.uniform(1.0, 1.4)))

    def _knock(self, kept: list[SimDie], finals: list[SimDie]
               ) -> tuple[SimDie, tuple[float, float, float], tuple[float, float, float]] | None:
        """A kept die a thrown die will knock: (it, its push (dx, dy, turn), where it lay);
        None when no kept die has room to move."""
        rng, s = self.rng, self.size
        die = kept[int(rng.integers(len(kept)))]
        push = float(rng.uniform(0.1, 0.5)) * s
        a = float(rng.uniform(0, 2 * math.pi))
        turn = float(rng.choice([-1, 1]) * rng.uniform(2, 8))
        others = [d for d in self._table + finals if d is not die and d.status != "lost"]
        for sign in (1, -1):
            dx, dy = sign * push * math.cos(a), sign * push * math.sin(a)
            x, y = die.x + dx, die.y + dy
            if self._on_table(x, y, 0.5) and \
                    all(math.hypot(d.x - x, d.y - y) > 1.6 * s for d in others):
                return die, (dx, dy, turn), (die.x, die.y, die.angle)
        return None

    def _against_wall(self, d: SimDie, others: list[SimDie]) -> None:
        """Rest a die flat against the wall: a side along it, a hair off it."""
        poly = np.asarray(self.polygon, np.float32)
        centre = poly.mean(axis=0)
        for _ in range(200):
            i = int(self.rng.integers(len(poly)))
            a, b = poly[i], poly[(i + 1) % len(poly)]
            p = a + (b - a) * float(self.rng.uniform(0.2, 0.8))
            inward = np.array([a[1] - b[1], b[0] - a[0]]) / np.linalg.norm(b - a)
            if np.dot(inward, centre - p) < 0:
                inward = -inward
            q = p + inward * 0.58 * self.size
            if self._free_spot(float(q[0]), float(q[1]), others=others):
                break
        else:
            return  # no room along the wall: it rests where it was going to
        d.x, d.y = float(q[0]), float(q[1])
        d.angle = -math.degrees(math.atan2(inward[1], inward[0])) % 90 + \
            float(self.rng.uniform(-3, 3))

    def _away_from(self, side: int, d: SimDie | None) -> int:
        """`side` (as `_edge_point` numbers them), or, if die `d` left the frame by that edge,
        the next side it did not leave by (no extra draw: the script stays as it was)."""
        if d is None or d.status != "lost":
            return side
        w, h = self.config.width, self.config.height
        beyond = [d.y > h, d.y < 0, d.x < 0, d.x > w]  # bottom, top, left, right
        while beyond[side]:
            side = (side + 1) % 4
        return side

    def _last_change(self, path: list[SimDie]) -> int:
        """Index of the last frame in which a die on `path` changes the picture: its last
        frame, or the one it vanishes in (out of the frame, or gone for the last stretch of
        a die lost)."""
        w, h, s = self.config.width, self.config.height, self.size
        seen = [i for i, d in enumerate(path)
                if d.status != "lost" and -s < d.x < w + s and -s < d.y < h + s]
        if seen and seen[-1] == len(path) - 1:
            return len(path) - 1
        return seen[-1] + 1 if seen else 0

    def _colors_left(self, kept: list[SimDie], n: int) -> list[str] | None:
        """The colours of the `n` dice thrown: the set's, less those of the dice kept, in a
        random order (None: no set, a colour is drawn for each die)."""
        if self._set_colors is None or self.crops:
            return None
        left = list((Counter(self._set_colors) - Counter(d.color for d in kept)).elements())
        if len(left) != n:
            raise ValueError(f"{len(self._set_colors)} colours for a set of {self._dice} dice")
        return [left[int(i)] for i in self.rng.permutation(n)]

    def _new_die(self, x: float, y: float, color: str | None = None) -> SimDie:
        value = int(self.rng.integers(1, 7))
        if self.crops:
            crop = int(self.rng.integers(len(self.crops[value])))
            return SimDie(value, None, x, y, float(self.rng.uniform(0, 90)), crop=crop)
        color = color or str(self.rng.choice(self.colors))
        return SimDie(value, color, x, y, float(self.rng.uniform(0, 90)))

    def _tumble(self, final: SimDie, release: tuple[float, float], seconds: float
                ) -> list[SimDie]:
        """Frames of one die flying from the release point, tumbling, and rolling to rest."""
        n = max(3, round(seconds * self.config.fps))
        rng = self.rng
        x0 = release[0] + float(rng.normal(0, 8))
        y0 = release[1] + float(rng.normal(0, 8))
        wobble = float(rng.normal(0, 0.25)) * self.size
        spin = float(rng.uniform(360, 900))
        out = []
        face = int(rng.integers(1, 7))
        for i in range(n):
            u = (i + 1) / n
            ease = 1 - (1 - u) ** 2.2
            nx, ny = -(final.y - y0), final.x - x0
            norm = math.hypot(nx, ny) or 1.0
            side = wobble * math.sin(math.pi * ease)
            x = x0 + (final.x - x0) * ease + side * nx / norm
            y = y0 + (final.y - y0) * ease + side * ny / norm
            if u < 0.75:
                if i % 3 == 0:
                    face = int(rng.integers(1, 7))
                height = abs(math.sin(3 * math.pi * u)) * (1 - u)
                out.append(replace(final, value=face, status="ok", x=x, y=y,
                                   angle=final.angle + spin * (1 - ease),
                                   scale=1 + 0.3 * height))
            else:
                out.append(replace(final, x=x, y=y, angle=final.angle + spin * (1 - ease)))
        out[-1] = replace(final)
        return out

    def _edge_spot(self, others: list[SimDie]) -> np.ndarray:
        """A point on the region's edge with no die near it."""
        poly = np.asarray(self.polygon, np.float32)
        for _ in range(200):
            i = int(self.rng.integers(len(poly)))
            a, b = poly[i], poly[(i + 1) % len(poly)]
            p = a + (b - a) * float(self.rng.uniform(0.2, 0.8))
            if self._free_spot(float(p[0]), float(p[1]), others=others):
                return p
        raise RuntimeError("no free spot along the table edge")

    def _send_off_table(self, d: SimDie, others: list[SimDie]) -> None:
        """Move a die's resting place outside the region: beyond its edge, across it, or out
        of the frame."""
        s, w, h = self.size, self.config.width, self.config.height
        how = self.rng.choice(["outside", "across", "lost"], p=[0.4, 0.2, 0.4])
        poly = np.asarray(self.polygon, np.float32)
        edge_pt = self._edge_spot(others)
        centre = poly.mean(axis=0)
        out = (edge_pt - centre) / np.linalg.norm(edge_pt - centre)
        if how == "lost":  # rolled at a throw's pace until two dice past the frame's edge
            p = edge_pt + out * (self._to_frame_edge(edge_pt, out) + 2 * s)
            d.status = "lost"
        else:
            dist = 0.1 * s if how == "across" else 1.6 * s
            p = edge_pt + out * dist
            if how == "outside" and not (s < p[0] < w - s and s < p[1] < h - s):
                p = edge_pt + out * 0.1 * s  # no room outside: it rests across the edge
            d.status = "off_table"
        d.x, d.y = float(p[0]), float(p[1])

    def _to_frame_edge(self, p: np.ndarray, direction: np.ndarray) -> float:
        """Distance from `p` (in the frame) along `direction` to the frame's edge."""
        w, h = self.config.width, self.config.height
        reach = [(limit - p[i]) / direction[i] for i, limit in ((0, 0), (0, w), (1, 0), (1, h))
                 if direction[i] and (limit - p[i]) / direction[i] > 0]
        return float(min(reach))

    def _make_cocked(self, d: SimDie, others: list[SimDie]) -> None:
        """Rest a die leaning on the wall: close to the region's edge, side face toward it."""
        poly = np.asarray(self.polygon, np.float32)
        p = self._edge_spot(others)
        centre = poly.mean(axis=0)
        inward = (centre - p) / np.linalg.norm(centre - p)
        q = p + inward * 1.3 * self.size
        d.x, d.y = float(q[0]), float(q[1])
        # Lean direction is the face's local +y axis turned to point at the wall.
        d.angle = math.degrees(math.atan2(-inward[0], inward[1])) + 180
        d.status, d.side = "cocked", int(self.rng.integers(1, 7))

    def _random_spot(self, margin: float, others: list[SimDie] | None = None
                     ) -> tuple[float, float]:
        contour = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        x1, y1 = contour.reshape(-1, 2).min(axis=0)
        x2, y2 = contour.reshape(-1, 2).max(axis=0)
        for _ in range(2000):
            x, y = float(self.rng.uniform(x1, x2)), float(self.rng.uniform(y1, y2))
            if self._on_table(x, y, margin) and self._free_spot(x, y, others=others):
                return x, y
        raise RuntimeError("no room left on the table for another die")

    def _on_table(self, x: float, y: float, margin: float) -> bool:
        """Whether (x, y) lies on the region, `margin` die sides (and some) from its edge."""
        contour = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (x, y), True) >= margin * self.size * 1.3

    def _room(self, x: float, y: float, die: SimDie) -> bool:
        """Whether `die` can be pushed to (x, y): on the table, clear of the other dice."""
        return self._on_table(x, y, 1.0) and self._free_spot(x, y, ignore=die)

    def _free_spot(self, x: float, y: float, ignore: SimDie | None = None,
                   others: list[SimDie] | None = None) -> bool:
        dice = [d for d in self._table + (others or []) if d is not ignore]
        return all(math.hypot(d.x - x, d.y - y) > 2.0 * self.size for d in dice)

    def _region(self) -> list[tuple[int, int]]:
        c, rng = self.config, self.rng
        inset = (0.13, 0.2) if self.surface in ("tray", "dark") else (0.08, 0.14)
        mx = c.width * float(rng.uniform(*inset))
        my = c.height * float(rng.uniform(*inset))
        centre = (c.width / 2 + float(rng.normal(0, 6)), c.height / 2 + float(rng.normal(0, 6)))
        box = ((centre[0], centre[1]), (c.width - 2 * mx, c.height - 2 * my),
               float(rng.uniform(-3, 3)))
        return [(round(x), round(y)) for x, y in cv2.boxPoints(box)]

    def _contrasting_colors(self) -> list[str]:
        """Dice colours that stand out from both the region and its surroundings."""
        def lab(bgr: tuple[int, int, int]) -> np.ndarray:
            px = np.uint8([[bgr]])
            return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(float)

        surf = [lab(c) for c in (SURFACES[self.surface][0], self.around)]
        return [name for name, (body, _) in PALETTE.items()
                if all(np.linalg.norm(lab(body) - s) > 45 for s in surf)]

    # ----- rendering --------------------------------------------------------------------

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """(time in seconds, BGR frame) for every frame of the script."""
        for i, spec in enumerate(self._frames, self._dropped):
            yield i / self.config.fps, self.render(i, spec)

    def __len__(self) -> int:
        return self._frame_no

    def render(self, index: int, spec: Frame) -> np.ndarray:
        frame = self._surface(spec.offset).copy()
        ox, oy = spec.offset
        dice = [replace(d, x=d.x + ox, y=d.y + oy) for d in spec.dice]
        for d in dice:
            self._draw_die_shadow(frame, d)
        for d in sorted(dice, key=lambda d: d.status == "stacked"):
            self._draw_die(frame, d)
        for hand in spec.hands:
            self._draw_hand(frame, hand)
        if spec.shadow is not None:
            self._draw_passing_shadow(frame, spec.shadow)
        noisy = frame.astype(np.float32) * np.float32(spec.gain) + self._noise[index % 4]
        return np.clip(noisy, 0, 255).astype(np.uint8)

    def _surface(self, offset: tuple[int, int]) -> np.ndarray:
        if offset in self._background:
            return self._background[offset]
        if len(self._background) >= BACKGROUNDS:  # drawn again alike if it is needed again
            del self._background[next(iter(self._background))]
        c = self.config
        region, around = SURFACES[self.surface][0], self.around
        rng = np.random.default_rng(c.seed + 2)
        img = np.empty((c.height, c.width, 3), np.uint8)
        img[:] = around
        grain = cv2.resize(rng.normal(0, 1, (c.height // 8, 4)).astype(np.float32),
                           (c.width, c.height), interpolation=cv2.INTER_CUBIC)
        img = np.clip(img + 10 * grain[..., None], 0, 255).astype(np.uint8)
        poly = np.asarray(self.polygon, np.int32) + np.int32(offset)
        if self.surface == "tray":
            cv2.polylines(img, [poly], True, tuple(int(v * 0.55) for v in around), 8)
        elif self.surface == "dark":
            cv2.polylines(img, [poly], True, DARK_RIMS[c.seed // 2 % 2], 12)
        cv2.fillPoly(img, [poly], region)
        if self.surface == "dark":
            img = self._wall_shade(img, poly)
        fuzz = cv2.GaussianBlur(rng.normal(0, 1, (c.height, c.width)).astype(np.float32),
                                (0, 0), 1.5)
        yy, xx = np.mgrid[0:c.height, 0:c.width].astype(np.float32)
        vignette = 1 - 0.18 * (((xx - c.width / 2) / c.width) ** 2
                               + ((yy - c.height / 2) / c.height) ** 2) * 2
        if self.surface == "dark":  # a lamp to one side: a gradient across the table
            vignette *= 0.85 + 0.3 * (xx / c.width if c.seed % 4 < 2 else yy / c.height)
        out = (img.astype(np.float32) + 6 * fuzz[..., None]) * vignette[..., None]
        self._background[offset] = np.clip(out, 0, 255).astype(np.uint8)
        return self._background[offset]

    def _wall_shade(self, img: np.ndarray, poly: np.ndarray) -> np.ndarray:
        """A dark tray's floor, shaded along its wall: `WALL_SHADE` of the light at the wall,
        all of it `WALL_STRIP` die sides in (the wall keeps the lamp off)."""
        floor = np.zeros(img.shape[:2], np.uint8)
        cv2.fillPoly(floor, [poly], 255)
        inward = cv2.distanceTransform(floor, cv2.DIST_L2, 5) / (WALL_STRIP * self.size)
        light = np.where(floor > 0, WALL_SHADE + (1 - WALL_SHADE) * np.minimum(inward, 1), 1)
        return np.clip(img * light[..., None], 0, 255).astype(np.uint8)

    def _sprite(self, d: SimDie) -> tuple[np.ndarray, np.ndarray]:
        """An upright die image (BGR) and its alpha, drawn at 4x the die size for smooth edges."""
        key = (d.value, d.color, d.status, d.side, d.crop)
        if key in self._sprites:
            return self._sprites[key]
        s = self.size * 4
        if self.crops:
            real = self.crops[d.value][d.crop % len(self.crops[d.value])]
            face = cv2.resize(real, (s, s))
        else:
            body, pip = PALETTE[d.color or "white"]
            face = _draw_face(s, d.value, body, pip, self.config.dice_style)
        if d.status == "cocked":
            # Leaning 40°: the top face shortened, one side face below it, darker.
            lean = math.radians(40)
            top = cv2.resize(face, (s, round(s * math.cos(lean))))
            body, pip = PALETTE[d.color or "white"]
            side_face = (_draw_face(s, d.side, body, pip, self.config.dice_style) if not self.crops else
                         cv2.resize(_alike(self.crops[d.side], real), (s, s)))
            side = (cv2.resize(side_face, (s, round(s * math.sin(lean)))) * 0.6).astype(np.uint8)
            face = np.vstack([top, side])
        img = np.zeros((face.shape[0] + 8, s + 8, 3), np.uint8)
        alpha = np.zeros(img.shape[:2], np.uint8)
        img[4:-4, 4:-4] = face
        _rounded_rect(alpha, 4, 4, s + 3, face.shape[0] + 3, s // 7)
        # The die below a stack lies in the top die's shadow; the top one is nearer the light.
        if d.status == "under":
            img = (img * 0.6).astype(np.uint8)
        elif d.status == "stacked":
            img = np.clip(img * 1.1 + 10, 0, 255).astype(np.uint8)
        self._sprites[key] = (img, alpha)
        return img, alpha

    def _place(self, d: SimDie, shape: tuple[int, int]) -> np.ndarray:
        h, w = shape
        m = cv2.getRotationMatrix2D((w / 2, h / 2), d.angle, d.scale / 4)
        m[0, 2] += d.x - w / 2
        m[1, 2] += d.y - h / 2
        return m

    def _draw_die(self, frame: np.ndarray, d: SimDie) -> None:
        img, alpha = self._sprite(d)
        m = self._place(d, alpha.shape)
        _blend(frame, img, alpha, m, 1.0)

    def _draw_die_shadow(self, frame: np.ndarray, d: SimDie) -> None:
        _, alpha = self._sprite(d)
        m = self._place(d, alpha.shape)
        lift = (d.scale - 1) * 8
        m[0, 2] += 2 + 3 * lift
        m[1, 2] += 3 + 4 * lift
        _blend(frame, None, alpha, m, 0.3, blur=5)

    def _draw_hand(self, frame: np.ndarray, hand: Hand) -> None:
        s = self.size
        mask = np.zeros(frame.shape[:2], np.uint8)
        ex, ey = hand.edge
        ang = math.atan2(hand.y - ey, hand.x - ex)
        arm = np.zeros_like(mask)
        cv2.line(arm, (round(ex), round(ey)), (round(hand.x), round(hand.y)), 255,
                 round(1.6 * s))
        if self.config.sleeve:  # a sleeve of the surround's colour, no shadow of its own
            self._draw_sleeve(frame, arm)
        else:
            mask |= arm
        cv2.ellipse(mask, (round(hand.x), round(hand.y)), (round(1.3 * s), round(1.0 * s)),
                    math.degrees(ang), 0, 360, 255, -1)
        for f in (-0.6, -0.2, 0.2, 0.6):
            fx = hand.x + math.cos(ang) * 1.9 * s - math.sin(ang) * f * s
            fy = hand.y + math.sin(ang) * 1.9 * s + math.cos(ang) * f * s
            cv2.line(mask, (round(hand.x), round(hand.y)), (round(fx), round(fy)), 255,
                     round(0.33 * s))
        # Pixels change only near the hand and its shadow: working there alone gives the same
        # picture for a fraction of the work (live play renders every frame as it is shown).
        shadow, (x, y, w, h) = _blurred_box(np.roll(mask, (round(0.5 * s), round(0.35 * s)),
                                                    axis=(0, 1)), 6)
        box = frame[y:y + h, x:x + w]
        box[:] = (box * (1 - 0.35 * (shadow.astype(np.float32) / 255)[..., None])).astype(np.uint8)
        soft, (x, y, w, h) = _blurred_box(mask, 4)
        shade = 0.85 + 0.15 * soft.astype(np.float32) / 255
        skin = np.empty((h, w, 3), np.uint8)
        skin[:] = SKIN
        skin = (skin * shade[..., None]).astype(np.uint8)
        np.copyto(frame[y:y + h, x:x + w], skin, where=(mask[y:y + h, x:x + w] > 0)[..., None])

    def _draw_sleeve(self, frame: np.ndarray, arm: np.ndarray) -> None:
        if not arm.any():
            return
        x, y, w, h = cv2.boundingRect(arm)
        sleeve = np.empty((h, w, 3), np.uint8)
        sleeve[:] = self.around
        np.copyto(frame[y:y + h, x:x + w], sleeve, where=(arm[y:y + h, x:x + w] > 0)[..., None])

    def _draw_passing_shadow(self, frame: np.ndarray, centre: tuple[float, float]) -> None:
        h, w = frame.shape[:2]
        yy, xx = np.ogrid[0:h, 0:w]
        d2 = ((xx - centre[0]) / 260) ** 2 + ((yy - centre[1]) / 200) ** 2
        shade = 1 - 0.3 * np.exp(-d2 * 2).astype(np.float32)
        frame[:] = (frame * shade[..., None]).astype(np.uint8)

    # ----- output -----------------------------------------------------------------------

    def write_truth(self, path: str | Path) -> None:
        config = {k: v for k, v in asdict(self.config).items() if k != "keep_policy"}
        data = dict(self.truth, config=config)
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    def write_video(self, path: str | Path) -> None:
        """An .mp4 (mp4v) or .avi (MJPG) video of the whole script."""
        path = Path(path)
        fourcc = cv2.VideoWriter_fourcc(*("MJPG" if path.suffix.lower() == ".avi" else "mp4v"))
        c = self.config
        writer = cv2.VideoWriter(str(path), fourcc, c.fps, (c.width, c.height))
        if not writer.isOpened():
            raise OSError(f"cannot write video {path}")
        try:
            for _, frame in self.frames():
                writer.write(frame)
        finally:
            writer.release()

    def write_frames(self, folder: str | Path, ext: str = "jpg") -> None:
        """One image per frame, named frame_000000.jpg, ... (sorted by name = time order)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for i, (_, frame) in enumerate(self.frames()):
            cv2.imwrite(str(folder / f"frame_{i:06d}.{ext}"), frame)


def _draw_face(s: int, value: int, body: tuple[int, int, int], pip: tuple[int, int, int],
               style: str = "pips") -> np.ndarray:
    face = np.empty((s, s, 3), np.uint8)
    face[:] = body
    shade = np.linspace(1.04, 0.92, s, dtype=np.float32)
    face = np.clip(face * shade[:, None, None] * shade[None, :, None] ** 0.5, 0, 255
                   ).astype(np.uint8)
    if style != "pips" and value in (1, 6):
        from zonkcam.vision.synthetic import draw_symbol

        draw_symbol(face, value, s / 2, s / 2, s, 0.0, pip, body, style)
        return face
    for px, py in PIPS[value]:
        cx, cy = round(s / 2 + px * 0.27 * s), round(s / 2 + py * 0.27 * s)
        cv2.circle(face, (cx, cy), round(0.09 * s), pip, -1, cv2.LINE_AA)
    return face


def _blurred_box(mask: np.ndarray, sigma: float) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """`cv2.GaussianBlur(mask, (0, 0), sigma)` of an 8-bit mask, only in a box around its
    non-zero pixels (outside, the blur is zero), and that box (x, y, w, h). The crop blurred is
    two kernel radii wider than them: where it ends inside the picture it reflects only zeros,
    so every value is the whole picture's blur."""
    r = (round(sigma * 3 * 2 + 1) | 1) // 2  # OpenCV's kernel radius for 8-bit pictures
    x, y, w, h = cv2.boundingRect(mask)
    x1, y1 = max(x - 2 * r, 0), max(y - 2 * r, 0)
    x2, y2 = min(x + w + 2 * r, mask.shape[1]), min(y + h + 2 * r, mask.shape[0])
    return cv2.GaussianBlur(mask[y1:y2, x1:x2], (0, 0), sigma), (x1, y1, x2 - x1, y2 - y1)


def _rounded_rect(mask: np.ndarray, x1: int, y1: int, x2: int, y2: int, r: int) -> None:
    cv2.rectangle(mask, (x1 + r, y1), (x2 - r, y2), 255, -1)
    cv2.rectangle(mask, (x1, y1 + r), (x2, y2 - r), 255, -1)
    for cx, cy in ((x1 + r, y1 + r), (x2 - r, y1 + r), (x1 + r, y2 - r), (x2 - r, y2 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)


def _blend(frame: np.ndarray, img: np.ndarray | None, alpha: np.ndarray, m: np.ndarray,
           strength: float, blur: int = 0) -> None:
    """Warp a sprite by `m` into the frame (only the box it lands in); None darkens instead."""
    h, w = frame.shape[:2]
    corners = np.array([[0, 0, 1], [alpha.shape[1], 0, 1], [0, alpha.shape[0], 1],
                        [alpha.shape[1], alpha.shape[0], 1]], np.float64) @ m.T
    pad = blur + 2
    x1, y1 = np.floor(corners.min(axis=0)).astype(int) - pad
    x2, y2 = np.ceil(corners.max(axis=0)).astype(int) + pad
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, w), min(y2, h)
    if x2 <= x1 or y2 <= y1:
        return
    mm = m.copy()
    mm[0, 2] -= x1
    mm[1, 2] -= y1
    size = (x2 - x1, y2 - y1)
    a = cv2.warpAffine(alpha, mm, size, flags=cv2.INTER_AREA).astype(np.float32) / 255
    if blur:
        a = cv2.GaussianBlur(a, (blur | 1, blur | 1), 0)
    roi = frame[y1:y2, x1:x2].astype(np.float32)
    a = a[..., None] * strength
    if img is None:
        out = roi * (1 - a)
    else:
        src = cv2.warpAffine(img, mm, size, flags=cv2.INTER_AREA).astype(np.float32)
        out = roi * (1 - a) + src * a
    frame[y1:y2, x1:x2] = out.astype(np.uint8)


def _alike(faces: list[np.ndarray], face: np.ndarray) -> np.ndarray:
    """The face of `faces` nearest `face` in mean colour: a real die's side is of its body's
    colour, and the photos hold no other face of the die a face was cut from."""
    mean = np.array(cv2.mean(face)[:3])
    return min(faces, key=lambda f: float(np.abs(np.array(cv2.mean(f)[:3]) - mean).sum()))


def load_rune55_crops(root: Path, rng: np.random.Generator, per_value: int = 40,
                      images: list[Path] | None = None,
                      min_side: float = 24) -> dict[int, list[np.ndarray]]:
    """Square crops of labelled dice from rune55, a few dozen per face value: from `images`
    (each with its YOLO label file in the `labels` folder beside `images`), default all of
    `train/`; only faces at least `min_side` px across.

    A simulation passes 1.5 times its die size (`FACE_OVERSIZE`): each face is then shrunk to
    the die, as a camera's lens shows a die that size, never blown up from a blurred few pixels.
    """
    if images is None:
        images = [p.parent.parent / "images" / (p.stem + ".jpg")
                  for p in sorted((root / "train" / "labels").glob("*.txt"))]
    if not images:
        raise FileNotFoundError(f"no images to cut die faces from (rune55 at {root})")
    crops: dict[int, list[np.ndarray]] = {v: [] for v in range(1, 7)}
    for i in rng.permutation(len(images)):
        if all(len(c) >= per_value for c in crops.values()):
            break
        path = images[int(i)].parent.parent / "labels" / (images[int(i)].stem + ".txt")
        image = cv2.imread(str(images[int(i)])) if path.exists() else None
        if image is None:
            continue
        h, w = image.shape[:2]
        for line in path.read_text().split("\n"):
            parts = line.split()
            if len(parts) != 5:
                continue
            value = int(parts[0]) + 1
            cx, cy, bw, bh = (float(v) for v in parts[1:])
            side = max(bw * w, bh * h) * 0.8  # the label box holds the die; its face is smaller
            x1, y1 = round(cx * w - side / 2), round(cy * h - side / 2)
            x2, y2 = x1 + round(side), y1 + round(side)
            if value in crops and len(crops[value]) < per_value and side >= min_side and \
                    x1 >= 0 and y1 >= 0 and x2 <= w and y2 <= h and 0.8 < bw * w / (bh * h) < 1.25:
                crops[value].append(image[y1:y2, x1:x2].copy())
    if any(not c for c in crops.values()):
        raise FileNotFoundError(f"{root} has too few labelled dice to cut crops from")
    return crops
