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
from collections.abc import Iterator
from dataclasses import asdict, replace
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision.sim.config import (
    DARK_RIMS,
    DARK_SURROUND,
    FACE_OVERSIZE,
    PALETTE,
    PIPS,
    SKIN,
    SPECIALS,
    SURFACES,
    WALL_SHADE,
    WALL_STRIP,
    Frame,
    Hand,
    SimConfig,
    SimDie,
    ThrowPlan,
    unkind,
)
from zonkcam.vision.sim.crops import load_rune55_crops
from zonkcam.vision.sim.hands import LIVE_DRIFT, HandMoves
from zonkcam.vision.sim.landing import ROOMIER, DiceLanding, NoRoom
from zonkcam.vision.sim.scene import BACKGROUNDS, SceneDrawing

__all__ = [
    "BACKGROUNDS", "DARK_RIMS", "DARK_SURROUND", "FACE_OVERSIZE", "LIVE_DRIFT", "LIVE_KEEP", "PALETTE",
    "PIPS", "SKIN", "SPECIALS", "SURFACES", "WALL_SHADE", "WALL_STRIP", "Frame", "Hand", "SimConfig",
    "SimDie", "Simulation", "ThrowPlan", "load_rune55_crops", "unkind",
]
LIVE_KEEP = 100  # live play: throws and disturbances kept in `truth` (the latest)


class Simulation(SceneDrawing, HandMoves, DiceLanding):
    """A scripted game of throws; `frames()` renders it, `truth` describes it. The script and
    live play are here; the hand's moves (`sim.hands`), where dice land (`sim.landing`)
    and the drawing (`sim.scene`) are mixed in."""

    def __init__(self, config: SimConfig | None = None,
                 crops: dict[int, list[np.ndarray]] | None = None) -> None:
        """`crops`: real die faces per value (`load_rune55_crops`), loaded once for many
        games; default: cut from `config.crops` when that is set, else drawn dice."""
        self.config = c = config or SimConfig()
        self._roomier = 0  # times the tray was drawn bigger for the dice (`ROOMIER`)
        while True:
            try:
                self._lay_out(c, crops)
                break
            except NoRoom:  # the game again from its first draw, on a bigger tray
                if self._roomier == ROOMIER:
                    raise
                self._roomier += 1
        self._background: dict[tuple[int, int], np.ndarray] = {}
        self._sprites: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        noise_rng = np.random.default_rng(c.seed + 1)
        self._noise = [
            noise_rng.normal(0, 2.0, (c.height, c.width, 3)).clip(-8, 8).astype(np.float32)
            for _ in range(4)]

    def _lay_out(self, c: SimConfig, crops: dict[int, list[np.ndarray]] | None) -> None:
        """The table, the dice and the script, all from the seed's first draw."""
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

    # ----- rendering --------------------------------------------------------------------

    def frames(self) -> Iterator[tuple[float, np.ndarray]]:
        """(time in seconds, BGR frame) for every frame of the script."""
        for i, spec in enumerate(self._frames, self._dropped):
            yield i / self.config.fps, self.render(i, spec)

    def __len__(self) -> int:
        return self._frame_no

    # ----- output -----------------------------------------------------------------------

    def write_truth(self, path: str | Path) -> None:
        config = {k: v for k, v in asdict(self.config).items() if k != "keep_policy"}
        data = dict(self.truth, config=config)
        Path(path).write_text(json.dumps(data, indent=1) + "\n")

    def write_video(self, path: str | Path) -> None:
        """An .mp4 (mp4v) or .avi (MJPG) video of the whole script."""
        path = Path(path)
        fourcc = cv2.VideoWriter.fourcc(*("MJPG" if path.suffix.lower() == ".avi" else "mp4v"))
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
