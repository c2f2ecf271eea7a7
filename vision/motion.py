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
shadow or a hand nudging a die frees only scattered bits. A die seen rolling when none lands
was thrown off the table (`throws`).
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


@dataclass(frozen=True, slots=True)
class MotionUpdate:
    """What one frame told the detector."""

    moving: bool  # this frame differs from the last one (or from the start of the still period)
    settled: bool  # the scene has just come to rest: fires once per still period
    changed_pixels: int
    rolling: bool  # free motion (not an arm from the edge) was seen since the last settle
    last_motion_t: float  # time of the last moving frame


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
        self._border: np.ndarray | None = None

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
            return MotionUpdate(True, False, 0, False, t)
        changed, mask = self._changed(cur, self._prev)
        if changed < self.config.min_pixels:
            changed, mask = self._changed(cur, self._anchor)
        moving = changed >= self.config.min_pixels
        self._prev = cur
        settled = False
        # a run of frames, not scattered ones: a shadow's or a hand's edge breaks off in bits
        self._free_run = self._free_run + 1 if moving and self._is_free_motion(cur, mask) else 0
        self._rolling |= self._free_run >= self.config.rolling_frames
        if moving:
            self.state = "moving"
            self._anchor = cur
            self._last_motion_t = t
        elif self.state == "moving" and t - self._last_motion_t >= self.config.settle_s - 1e-6:
            self.state = "still"
            settled = True
        rolling = self._rolling
        if settled:
            self._reference = cur
            self._free_run, self._rolling = 0, False
        return MotionUpdate(moving, settled, changed, rolling, self._last_motion_t)

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

    def _is_free_motion(self, cur: np.ndarray, motion: np.ndarray) -> bool:
        """True when something moves that is not connected to the frame edge.

        Objects are the union of what moved this frame and what differs from the scene at the
        last settle (the whole hand and arm, not only its moving fingertips). An object touching
        the frame edge is an arm reaching in; one that does not is a free-moving die.
        """
        assert self._reference is not None
        _, fg = self._changed(cur, self._reference)
        objects = cv2.dilate(cv2.bitwise_or(fg, motion), np.ones((3, 3), np.uint8))
        n, labels = cv2.connectedComponents(objects, connectivity=8)
        if n <= 1:
            return False
        if self._border is None or self._border.shape != labels.shape:
            self._border = np.ones(labels.shape, bool)
            self._border[1:-1, 1:-1] = False
        at_edge = np.zeros(n, bool)
        at_edge[np.unique(labels[self._border])] = True
        moving_per_label = np.bincount(labels[motion > 0], minlength=n)
        free = moving_per_label[1:][~at_edge[1:]]
        return bool((free >= self.config.min_free_pixels).any())
