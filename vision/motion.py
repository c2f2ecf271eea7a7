"""Motion and rest: the cheap per-frame path that decides when the dice are at rest.

Every frame is shrunk to a small grey image (160 px wide by default) and compared with the
previous one. The scene is *moving* while enough pixels change, *settled* once it has been still
for `settle_s`. Robustness comes from what the comparison ignores:

- sensor noise: area downscaling averages it away, and a pixel only counts above `threshold`
  grey levels;
- lighting flicker and exposure drift: the frame is gain-matched to the one it is compared with,
  so a global brightness change is not motion;
- slow creep (a die rolling to a stop): each frame is also compared with the first frame of the
  still period, so sub-threshold changes cannot add up unseen.

A hand hovering over the table trembles, so it keeps the scene moving; the settle that follows it
finds nothing new and `throws` reports no throw.

It also tells whether *rolling* was seen in a moving spell: something the size of a die moving
on its own for frames in a row, not attached to an arm reaching in from the frame edge. Thrown
dice tumble free; dice that were placed or slid by hand never do (`not_thrown`), and a passing
shadow or a hand nudging a die frees only scattered bits. Once the stream knows the dice's size
(`die_side`), a free object must also be no bigger than a die in flight: a hand in a dark sleeve
over a dark table is not joined to the frame's edge in the picture, and a player holding or
shaking dice picked up is no roll (issue 34's phantom throws after pick-ups). A die seen rolling when none
lands was thrown off the table (`throws`), if it was also seen free near the frame's edge in
frames in a row, nearer it each time, or once, come from just beyond that reach (`leaving`): a
die leaves the picture only across it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

State = Literal["moving", "still"]


@dataclass(frozen=True, slots=True)
class MotionConfig:
    width: int = 160  # analysis width in pixels; height keeps the aspect ratio
    threshold: int = 12  # grey levels (0..255) a pixel must change by to count
    min_pixels: int = 4  # changed pixels (in the small image) that make a frame "moving"
    settle_s: float = 0.3  # still time before the scene counts as settled
    rolling_frames: int = 2  # frames in a row with a free-moving object make a spell "rolling"
    min_free_pixels: int = 20  # its moving pixels, at least (a die at 640x480: some 60)
    # with the dice's size known, a free object is a die only up to this many dice's area (a
    # die tumbling at 1.3 times its size with its shadow, dilated: about 3; the simulator's
    # hand, 6 or more; a real hand, tens), this many sides long and this many wide at least
    # (a sleeve's edge sliding over a grained table frees strips a third of a die wide)
    die_area: float = 4.5
    die_long: float = 3.0
    die_wide: float = 0.8
    edge_reach: float = 1.5  # die sides from the frame's edge: a die there may be leaving it
    track: float = 2.0  # die sides a die leaving moves from one frame to the next, at most
    hand_gap: float = 1.0  # die sides round a hand (anything larger than a die) where a
    # die-sized thing is a piece of it: its shadow sliding over a die, a finger
    at_rest: float = 0.7  # die sides round a die at rest at the last settle where a die-sized
    # change is that die covered or uncovered: an arm in a sleeve of the table's colour
    # sweeping over it, a hand taking it
    rest_spot: float = 0.8  # die sides round a die at rest at the last settle whose change
    # from that settle alone (not motion) joins no object: the place of a die picked up


@dataclass(frozen=True, slots=True)
class MotionUpdate:
    """What one frame told the detector."""

    moving: bool  # this frame differs from the last one (or from the start of the still period)
    settled: bool  # the scene has just come to rest: fires once per still period
    changed_pixels: int
    rolling: bool  # free motion (not an arm from the edge) was seen since the last settle
    last_motion_t: float  # time of the last moving frame
    leaving: bool = False  # ...and a free die nearing the frame's edge, in frames in a row


class RestDetector:
    """Per-frame state machine: moving → (still for `settle_s`) → settled, once per still period.

    Feed frames in time order with `update(frame, t)`; `t` is in seconds. The detector starts in
    the moving state, so the first still period after start-up also produces a settle.
    """

    def __init__(self, config: MotionConfig | None = None) -> None:
        self.config = config or MotionConfig()
        self.state: State = "moving"
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None  # first frame of the current still period
        self._reference: np.ndarray | None = None  # the scene at the last settle
        self._size: tuple[int, int] | None = None
        self._last_motion_t: float | None = None
        self._free_run = 0  # frames in a row with free motion, up to now
        self._rolling = False  # a run of `rolling_frames` seen since the last settle
        self._leaving = False  # a free die seen near the frame's edge since the last settle
        self._near_run = 0  # frames in a row with a free die nearing the frame's edge, up to now
        self._near_gap = np.inf  # its box's distance from the edge in the last frame (small px)
        self._near_at: tuple[float, float] | None = None  # and its centre (small px)
        self._free_last: list[tuple[float, float, float]] = []  # the last frame's free dice
        # (centre, their box's distance from the edge; small px)
        self._arm_last: list[tuple[int, int, int, int, float]] = []  # the last frame's pieces
        # of an arm (box, and its centre's distance from the nearest hand; small px)
        self._border: np.ndarray | None = None
        self.die_side: float | None = None  # the dice's side in the small image's pixels
        self._resting = np.zeros((0, 2), np.float32)  # dice at rest, in the small image
        self._spots: np.ndarray | None = None  # 0 round them (`rest_spot`), else 255

    def set_die_side(self, side: float, width: int) -> None:
        """The dice's face side, `side` px in frames `width` px wide (the stream's reads)."""
        if self._size is not None:
            self.die_side = side * self._size[0] / width
            self._spots = None

    def set_resting(self, centres: list[tuple[float, float]], width: int) -> None:
        """Where the dice lay at the last settle, in frames `width` px wide."""
        if self._size is not None:
            self._resting = np.asarray(centres, np.float32).reshape(-1, 2) * (self._size[0] / width)
            self._spots = None

    def small(self, frame: np.ndarray) -> np.ndarray:
        """The frame as the small grey image the detector works on."""
        h, w = frame.shape[:2]
        if self._size is None:
            sw = min(self.config.width, w)
            self._size = (sw, max(1, round(h * sw / w)))
        small = cv2.resize(frame, self._size, interpolation=cv2.INTER_AREA)
        if small.ndim == 3:
            small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
        return small

    def update(self, frame: np.ndarray, t: float) -> MotionUpdate:
        cur = self.small(frame)
        if self._prev is None:
            self._prev = self._anchor = self._reference = cur
            self._last_motion_t = t
            return MotionUpdate(True, False, 0, False, t, False)
        assert self._anchor is not None and self._last_motion_t is not None  # set with the first
        changed, mask = self._changed(cur, self._prev)
        if changed < self.config.min_pixels:
            changed, mask = self._changed(cur, self._anchor)
        moving = changed >= self.config.min_pixels
        self._prev = cur
        settled = False
        # a run of frames, not scattered ones: a shadow's or a hand's edge breaks off in bits
        free, near, objects = self._free_motion(cur, mask) if moving else (False, [], [])
        self._free_run = self._free_run + 1 if free else 0
        self._rolling |= self._free_run >= self.config.rolling_frames
        # in frames in a row, nearer the edge each time, as a die rolling out is: a piece of a
        # sleeve unlike the table shows near the edge in one frame here and there, and a hand
        # coming in by a sleeve that does not show grows away from the edge
        nearing = self._nearing(near)
        self._near_run = self._near_run + 1 if nearing else int(bool(near))
        self._leaving |= self._near_run >= self.config.rolling_frames or self._outrunning(near)
        self._free_last = objects
        if moving:
            self.state = "moving"
            self._anchor = cur
            self._last_motion_t = t
        elif self.state == "moving" and t - self._last_motion_t >= self.config.settle_s - 1e-6:
            self.state = "still"
            settled = True
        rolling, leaving = self._rolling, self._rolling and self._leaving
        if settled:
            self._reference = cur
            self._free_run, self._rolling, self._leaving, self._near_run = 0, False, False, 0
            self._free_last, self._arm_last = [], []
            self._near_gap, self._near_at = np.inf, None
        return MotionUpdate(moving, settled, changed, rolling, self._last_motion_t, leaving)

    def _nearing(self, near: list[tuple[float, float, float]]) -> bool:
        """Whether one of the free things `near` the frame's edge (centre x, y and its box's
        distance from the edge, small px) is the one nearest it in the last frame, moved no more than
        `track` die sides, and nearer the edge by half a pixel: one die leaving, not two
        things each in one frame (a hand's fingertips coming in one after another)."""
        last_at, last_gap = self._near_at, self._near_gap
        reach = self.config.track * self._side()
        same = [n for n in near if last_at is not None
                and np.hypot(n[0] - last_at[0], n[1] - last_at[1]) <= reach]
        x, y, gap = min(same or near, key=lambda n: n[2], default=(0.0, 0.0, np.inf))
        self._near_at, self._near_gap = ((x, y) if near else None), gap
        return bool(same) and gap < last_gap - 0.5 and last_at is not None and \
            self._inward(last_at, (x, y))

    def _inward(self, was: tuple[float, float], now: tuple[float, float]) -> bool:
        """Whether a thing's centre went from `was` to `now` nearer the frame's edge (small
        px): a die rolling out moves whole; a hand's shadow growing in by the edge, free of it
        by a pixel, brings its side by the edge nearer it while its centre goes away (76008
        t3: taken for a die leaving, a stack thrown then was reported `spaz, lost`)."""
        assert self._size is not None  # set by the first frame
        w, h = self._size

        def gap(x: float, y: float) -> float:
            return min(x, y, w - x, h - y)

        return gap(*now) < gap(*was)

    def _side(self) -> float:
        """The dice's side (small px), or a twentieth of the frame's width before a settle has
        sized them: a die leaving is followed from where it was a frame before, never from a
        die far off (77008 t0, the game's first throw: a die bouncing into the edge's reach
        was taken for one 28 small px away come nearer, a stack thrown then `spaz, lost`)."""
        assert self._size is not None  # set by the first frame
        return self.die_side or self._size[0] / 20

    def _outrunning(self, near: list[tuple[float, float, float]]) -> bool:
        """Whether one of the free things `near` the frame's edge is a free thing of the last
        frame, moved no more than `track` die sides, that came nearer the edge by half a pixel
        since from within twice `edge_reach` of it: a die thrown hard crosses the reach in one
        frame, and is near the edge in that frame only (73004 t4: 14 then 8 small px from it,
        the reach 12.8; then out of the picture). Dice rest that near the picture's edge only
        off the table."""
        assert self._size is not None  # set by the first frame
        track = self.config.track * self._side()
        wide = 2 * self.config.edge_reach * self._side()
        return any(np.hypot(x - px, y - py) <= track and gap < last - 0.5 and last < wide
                   and self._inward((px, py), (x, y))
                   for x, y, gap in near for px, py, last in self._free_last)

    def _arm_pieces(self, stats: np.ndarray, centroids: np.ndarray, hand: np.ndarray,
                    by_hand: np.ndarray, strips: np.ndarray, free: np.ndarray) -> np.ndarray:
        """Which things are pieces of an arm: by a hand, a strip, or a free die-sized thing
        over a piece of the last frame come no farther from the nearest large hand than half
        a side: a sleeve showing by the edge while the hand picks dice up (84015, 84019 t3: a
        roll seen during a pick-up, a phantom `spaz, lost` and a false `knocked`); a die
        thrown flies away from the hand."""
        assert self.die_side is not None
        side = self.die_side
        big = hand & (stats[:, 4] > self.config.die_area * side**2)
        big[0] = False
        arm = by_hand | strips
        if not big.any():
            self._arm_last = []
            return arm
        dist = np.linalg.norm(centroids[:, None, :] - centroids[big][None], axis=2).min(axis=1)
        x, y, w, h = (stats[:, i] for i in range(4))
        for i in np.flatnonzero(free & ~arm):
            arm[i] = any(x[i] < px + pw and px < x[i] + w[i] and y[i] < py + ph and py < y[i] + h[i]
                         and dist[i] <= d + 0.5 * side for px, py, pw, ph, d in self._arm_last)
        self._arm_last = [(int(x[i]), int(y[i]), int(w[i]), int(h[i]), float(dist[i]))
                          for i in np.flatnonzero(arm)]
        return arm

    def _tracked(self, smeared: np.ndarray, centroids: np.ndarray) -> np.ndarray:
        """Which of the `smeared` things (moving, free of the edge and of the dice at rest, a
        die's length and width but over its area, or a die's size by a thing larger) lie within
        `track` of a free thing of the last frame: a die thrown fast, its places in two frames
        joined into one thing over a die's area, or going past a hand, followed on toward the
        edge (74004 t3: a die free at 23 small px from the edge, then 277-283 px in area, 4.8
        sides', until it touched the edge). They count for a die leaving only, never for a
        roll: a hand's piece is followed only from a die-sized free thing."""
        if not smeared.any() or not self._free_last or self.die_side is None:
            return np.zeros_like(smeared)
        last = np.asarray([(x, y) for x, y, _ in self._free_last], np.float64)
        gaps = np.linalg.norm(centroids[:, None, :] - last[None], axis=2).min(axis=1)
        return smeared & (gaps <= self.config.track * self.die_side)

    def _changed(self, cur: np.ndarray, ref: np.ndarray) -> tuple[int, np.ndarray]:
        """Pixels that changed between two small frames, after matching their overall gain."""
        diff = cv2.absdiff(self._gain_matched(cur, ref), ref)
        _, mask = cv2.threshold(diff, self.config.threshold, 255, cv2.THRESH_BINARY)
        return cv2.countNonZero(mask), mask

    @staticmethod
    def _gain_matched(cur: np.ndarray, ref: np.ndarray) -> np.ndarray:
        m_cur, m_ref = float(cur.mean()), float(ref.mean())
        if m_cur < 1.0 or abs(m_ref / m_cur - 1.0) < 0.01:
            return cur
        return cv2.convertScaleAbs(cur, alpha=m_ref / m_cur)

    def _rest_spots(self, shape: tuple[int, ...]) -> np.ndarray | None:
        """Mask (small px, 0/255) that leaves out the places of the dice at rest at the last
        settle (`rest_spot` die sides round each), or None before the dice's size is known.
        Where a die was picked up, the picture differs from that settle until the next: a die
        thrown past it merged with it (and with its neighbours' places) into a thing larger
        than a die, taken for a hand, and the throw that followed a held pick-up for a nudge
        (71010 t3). What moves there is still seen, by the frame-to-frame change."""
        if self.die_side is None or not len(self._resting):
            return None
        if self._spots is None or self._spots.shape != shape[:2]:
            spots = np.full(shape[:2], 255, np.uint8)
            r = max(1, round(self.config.rest_spot * self.die_side))
            for x, y in self._resting:
                cv2.circle(spots, (round(float(x)), round(float(y))), r, 0, -1)
            self._spots = spots
        return self._spots

    def _free_motion(self, cur: np.ndarray, motion: np.ndarray
                     ) -> tuple[bool, list[tuple[float, float, float]],
                                list[tuple[float, float, float]]]:
        """(something die-like moves that is not connected to the frame edge, the centre and
        its box's distance from the frame's edge of each such thing within `edge_reach` of it,
        and of every such thing, in small px).

        Objects are the union of what moved this frame and what differs from the scene at the
        last settle (the whole hand and arm, not only its moving fingertips). An object touching
        the frame edge is an arm reaching in; one that does not is a free-moving die, unless
        it is not of a die's size (`die_area`, `die_long`, `die_wide`: a hand whose sleeve
        does not show, or strips of a sleeve's edge), lies by a thing larger (`hand_gap`:
        the hand's shadow sliding over a die at rest, a finger) or where a die lay at rest
        (`at_rest`: an arm sweeping over it). A thing over a die's area only, or a die's size
        by a thing larger, followed from a free die of the last frame (`_tracked`), is a die for
        the edge's lists alone.
        """
        assert self._reference is not None
        c = self.config
        _, fg = self._changed(cur, self._reference)
        spots = self._rest_spots(fg.shape)
        if spots is not None:
            fg = cv2.bitwise_and(fg, spots)
        objects = cv2.dilate(cv2.bitwise_or(fg, motion), np.ones((3, 3), np.uint8))
        n, labels, stats, centroids = cv2.connectedComponentsWithStats(objects, connectivity=8)
        if n <= 1:
            return False, [], []
        if self._border is None or self._border.shape != labels.shape:
            self._border = np.ones(labels.shape, bool)
            self._border[1:-1, 1:-1] = False
        at_edge = np.zeros(n, bool)
        at_edge[np.unique(labels[self._border])] = True
        free = (np.bincount(labels[motion > 0], minlength=n) >= c.min_free_pixels) & ~at_edge
        free[0] = False
        x, y, w, h, area = (stats[:, i] for i in range(5))
        side = self.die_side
        smeared = np.zeros(n, bool)
        if side:
            compact = (np.maximum(w, h) <= c.die_long * side) & (np.minimum(w, h) >= c.die_wide * side)
            die_like = (area <= c.die_area * side**2) & compact
            away = np.ones(n, bool)  # from every die at rest
            if len(self._resting):
                gaps = np.linalg.norm(centroids[:, None, :] - self._resting[None], axis=2)
                away = gaps.min(axis=1) > c.at_rest * side
            smeared = free & compact & ~die_like & away
            free &= die_like & away
            hand = ~die_like
            hand[0] = False
            by_hand = np.zeros(n, bool)
            if free.any() and hand.any():
                k = 2 * round(c.hand_gap * side) + 1
                near_hand = cv2.dilate(hand[labels].astype(np.uint8), np.ones((k, k), np.uint8))
                by_hand = free & (np.bincount(labels[near_hand > 0], minlength=n) > 0)
                free &= ~by_hand
                # a die flying out past a hand held by the edge (90002 t2: free of it until a
                # frame before it left; a die short, none seen leaving, no throw reported)
                smeared |= by_hand
            if hand.any():
                strips = ~compact & (area <= c.die_area * side**2) & ~at_edge
                arm = self._arm_pieces(stats, centroids, hand, by_hand, strips, free)
                smeared |= arm & free
                free &= ~arm
            else:
                self._arm_last = []
        reach = c.edge_reach * self._side()
        tracked = free | self._tracked(smeared, centroids)
        cx, cy = centroids[tracked].T
        # how far its side nearest the frame's edge lies from it: a die rolling out moves that
        # side on toward the edge; a hand going out over a part of the table of its colour,
        # shown only where it covers the tray, shrinks to a die's size by a line that stays
        # put (taken for a die leaving, it made a phantom `spaz, lost`)
        gap = np.minimum(np.minimum(x[tracked], labels.shape[1] - x[tracked] - w[tracked]),
                         np.minimum(y[tracked], labels.shape[0] - y[tracked] - h[tracked]))
        things = [(float(a), float(b), float(g)) for a, b, g in zip(cx, cy, gap, strict=True)]
        return bool(free.any()), [o for o in things if o[2] < reach], things
