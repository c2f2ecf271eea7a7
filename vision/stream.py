"""From a stream of frames to throw events: motion → read with a quorum → kept vs thrown.

    stream = ThrowStream(Reader(overhead=True), table=TableConfig.load("table.json"))
    for index, (t, frame) in enumerate(frames):
        event = stream.feed(frame, t)
        if event:
            print(event.to_json())

`reader` is anything with `.read(image_bgr, table=polygon_or_None, size=px_or_None) ->
Reading` (the recognizer, or a stand-in in tests; `size` is the dice's side, once a settle of
three or more has told it); one that also has `.read_at(image_bgr, points, size, table)` (the
recognizer) reads dice it missed where the picture changed since the last settle. A camera
with a small stream for motion and a full-resolution one for reading (the Pi camera's lores
and main) passes `full=camera.still` to `feed`: motion runs on the small frames, dice are
read from full-resolution pictures, and events are in their pixels.
At a settle the quorum's reads are checked for what only a camera looking down can tell
(cocked dice, stacks, dice read twice, dice off the table), held against the last settle where
the picture has not changed, and completed where it has (dice the recognizer missed); a kept
die no longer where and as it lay was knocked. docs/live.md ("How it decides") has each rule.

Latency is measured on a live clock: frame `i` arrives at its time `t`, work is done one frame
at a time, and an event is out when the work that produced it ends. A replay therefore reports
what a camera at the file's frame rate would have seen on this machine.
"""
from __future__ import annotations

import statistics
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np
from zonkcam.vision.changed_spots import changed_spots
from zonkcam.vision.cocked import mark_cocked
from zonkcam.vision.dice import Die, Reading, reading_order
from zonkcam.vision.geometry import TWICE, count_dice, die_size, mark_geometry
from zonkcam.vision.leaning import apart, cocked_beside, judge_spots, leaning_read_twice
from zonkcam.vision.motion import MotionConfig, MotionUpdate, RestDetector
from zonkcam.vision.on_table import placed_as_outlined
from zonkcam.vision.parted import cocked_within, read_apart, unparted, wide
from zonkcam.vision.quorum import called_cocked, cocked_or_flat, vote
from zonkcam.vision.reread import faint_read_again, tops_read_again, unreadable_read_again, unsure_read_again
from zonkcam.vision.stacked import mark_stacked, unread_stacks
from zonkcam.vision.table import Polygon, TableConfig, find_table, region_warnings, widened
from zonkcam.vision.throws import FLAGS, ThrowEvent, ThrowTracker
from zonkcam.vision.unchanged import Look, face_unchanged, face_uncovered, uncovered, where_it_lay

UNMOVED = 0.95  # correlation of a kept die's picture where it lay, then and now, at least
UNMOVED_SHIFT = 2.0  # px it is best found off where it lay, less
LATELY_S = 0.5  # s before the rolling began that a die seen where it lay was there lately: a
# hand pushing a kept die covers it a few frames before the push; one picking a die up, holding
# it and throwing it, a second or more
LARGEST = 0.25  # of the picture's shorter side: a read whose box is wider is no die (a camera
# that shows a tray of dice with the table round it shows a die far smaller)


class DiceReader(Protocol):
    def read(self, image: np.ndarray, table: Polygon | None = None,
             size: float | None = None) -> Reading: ...


@dataclass(slots=True)
class StreamStats:
    frames: int = 0
    settles: int = 0
    throws: int = 0
    ignored: int = 0  # throw-like settles while no throw was expected
    low_confidence: int = 0  # settles accepted without a quorum
    reads: int = 0
    motion_s: float = 0.0
    read_ms: list[float] = field(default_factory=list)
    latency_ms: list[float] = field(default_factory=list)
    flags: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)

    def to_json(self) -> dict:
        def med(xs: list[float]) -> float | None:
            return round(statistics.median(xs), 1) if xs else None

        return {
            "frames": self.frames,
            "settles": self.settles,
            "throws": self.throws,
            "ignored_throws": self.ignored,
            "low_confidence": self.low_confidence,
            "reads": self.reads,
            "outcomes": dict(self.outcomes),
            "flags": {f: self.flags[f] for f in FLAGS if self.flags[f]},
            "motion_ms_per_frame": round(1000 * self.motion_s / max(1, self.frames), 3),
            "read_ms_median": med(self.read_ms),
            "latency_ms_median": med(self.latency_ms),
            "latency_ms_max": round(max(self.latency_ms), 1) if self.latency_ms else None,
        }


class ThrowStream:
    """Feeds frames through motion detection, quorum reading and the throw tracker."""

    def __init__(self, reader: DiceReader, table: TableConfig | None = None, *,
                 motion: MotionConfig | None = None, quorum: int = 3, max_reads: int = 6,
                 dice_count: int | None = None, find: bool = True,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        """`find`: with no `table`, take the region `table.find_table` finds in the first
        still picture, if it looks right (`region_warnings`); without one no die is off it."""
        self.reader = reader
        self.table = table
        self._find = find and table is None
        self.motion = RestDetector(motion)
        self.tracker = ThrowTracker(table, dice_count=dice_count)
        self.quorum = quorum
        self.max_reads = max(quorum, max_reads)
        self.clock = clock
        self.stats = StreamStats()
        self._early: deque[list[Die]] = deque(maxlen=quorum)  # reads before the settle
        self._reads: list[list[Die]] | None = None  # set while a settle awaits its quorum
        self._rolled = False
        self._left = False  # a die rolling was seen near the frame's edge
        self._last_motion_t = 0.0
        self._busy_until = -np.inf
        self._last_t = -np.inf  # the last frame's time
        self._index = -1
        self._size: tuple[int, int] | None = None
        self.last_image: np.ndarray | None = None  # the last picture read: a throw's evidence
        self._pictures: deque[np.ndarray] = deque(maxlen=quorum)  # the last read since a motion
        self.last_unread: list[Die] = []  # die-shaped things in it not read as pip dice (capture)
        self._settled: tuple[np.ndarray, list[Die]] | None = None  # the last settle's picture, dice
        self._side: float | None = None  # the dice's face side (px), from a settle of 3 or more
        self._cocked_values: dict[tuple[float, float], int] = {}  # centre: value read, this settle
        self._looks: dict[Die, Look] = {}  # dice on the table or picked up: as last read
        # dice of the last settle seen where they lay since the rolling began (None: not told,
        # the frames fed are not the pictures read)
        self._stayed: list[Die] | None = []
        # the frames of the motion before the rolling began (time, picture), the last `LATELY_S`,
        # and the dice of the last settle seen where they lay in them or since
        self._unrolled: deque[tuple[float, np.ndarray]] = deque(maxlen=32)
        self._lately: list[Die] = []
        self._before_roll: list[np.ndarray] = []  # those frames, kept until the settle

    @property
    def expecting(self) -> bool:
        """Whether a throw is expected now (set by the app layer); others are not reported."""
        return self.tracker.expecting

    @expecting.setter
    def expecting(self, value: bool) -> None:
        self.tracker.expecting = value

    def feed(self, frame: np.ndarray, t: float,
             full: Callable[[], np.ndarray] | None = None) -> ThrowEvent | None:
        """Process the next frame, taken at stream time `t` seconds. `full`, if given, returns
        the same moment at full resolution; it is called only when dice are read."""
        self._index += 1
        h, w = frame.shape[:2]
        if self._size is None:
            self._size = (w, h)
        elif self._size != (w, h):
            raise ValueError(f"frame {self._index} is {w}x{h}, earlier frames were "
                             f"{self._size[0]}x{self._size[1]}")
        start = self.clock()
        update = self.motion.update(frame, t)
        self.stats.frames += 1
        self.stats.motion_s += self.clock() - start
        event = None
        # the frames are the pictures read where no `full` is given, or one of their size is
        # (a camera whose still is the frame: the demo's); a small stream's are not
        here = full is None or (self.last_image is not None and frame.shape == self.last_image.shape)
        if update.moving and update.rolling:
            self._watch(frame, here, t)
        elif update.moving and here:
            self._unrolled.append((t, frame))
        if update.moving:
            self._early.clear()
            self._pictures.clear()
            self._reads = None
            self._cocked_values.clear()
        elif self._reads is not None:
            self._reads.append(self._read(full() if full else frame))
            event = self._try_decide(t)
        elif update.settled or (self.motion.state == "moving" and self._kept(t, update)):
            # Frames in the second half of the still window are read as they come, so the
            # quorum is mostly done by the time the settle fires.
            self._early.append(self._read(full() if full else frame))
            if update.settled:
                self._reads = list(self._early)
                self._early.clear()
                self._rolled, self._last_motion_t = update.rolling, update.last_motion_t
                self._left = update.leaving
                event = self._try_decide(t)
        end = max(t, self._busy_until) + (self.clock() - start)
        self._busy_until, self._last_t = end, t
        if event is not None:
            latency = 1000 * (end - self._last_motion_t - self.motion.config.settle_s)
            event = replace(event, latency_ms=latency)
            self.stats.latency_ms.append(latency)
        return event

    def _kept(self, t: float, update: MotionUpdate) -> bool:
        """Whether the frame at `t`, still since `update.last_motion_t`, is read before the
        settle: in the window's second half, and among the `quorum` frames up to the one the
        settle fires at (half a frame's leeway), whose reads the quorum keeps; one read before
        them only delayed the settle's decision (at 30 fps, two reads of five)."""
        settle, gap = self.motion.config.settle_s, t - self._last_t
        return t - update.last_motion_t >= settle / 2 and \
            t + (self.quorum - 0.5) * gap >= update.last_motion_t + settle

    def _watch(self, frame: np.ndarray, read_here: bool, t: float = 0.0) -> None:
        """Note the dice of the last settle that `frame` shows where they lay, as they lay
        (`Look.still_in`), while dice roll: a kept die a thrown die knocks lies there until it
        is hit; one picked up is gone before the throw (`ThrowTracker.settle`'s `stayed`).
        Only where the frames are the pictures read (`read_here`), whose pixels the looks
        are in; a few dice a frame, each until it is seen. At the first rolling frame, the
        frames of the `LATELY_S` before it are looked at too (`_lately`)."""
        if not read_here:
            self._stayed = None
        if self._stayed is None:
            return
        late = [f for s, f in self._unrolled if s >= t - LATELY_S]
        self._unrolled.clear()
        self._before_roll = late or self._before_roll
        for d in self.tracker.on_table:
            look = self._looks.get(d)
            if look is None or any(d is s for s in self._stayed):
                continue
            if look.still_in(frame):
                self._stayed.append(d)
                self._lately.append(d)
            elif all(d is not s for s in self._lately) and \
                    any(look.seen_at(f, look.center) for f in reversed(late)):
                self._lately.append(d)

    def _stayed_put(self, old: Die) -> bool | None:
        """Whether die `old` was seen where it lay since the rolling began (None where that
        cannot be told)."""
        if self._stayed is None or old not in self._looks:
            return None
        return any(old is s for s in self._stayed)

    def _seen_lately(self, old: Die) -> bool:
        """Whether die `old` was seen where it lay `LATELY_S` before the rolling began or
        since (True where that cannot be told): one a hand pushes is covered a few frames before
        it moves; one picked up and held was gone long before the throw."""
        return self._stayed is None or old not in self._looks or \
            any(old is s for s in self._lately)

    def _placed_before(self, new: Die) -> bool:
        """Whether a frame of the `LATELY_S` before the rolling began shows die `new` where
        and as it lies now: it lay there before anything rolled (a kept die a hand picking
        others up pushed there, then went out and came back with the dice held), so it was
        not thrown."""
        assert self._settled is not None
        look = Look.of(self._settled[0], new, self._side or die_size([new])) \
            if self._before_roll else None
        return look is not None and any(look.seen_at(f, new.center)
                                        for f in reversed(self._before_roll))

    def _read(self, image: np.ndarray) -> list[Die]:
        start = self.clock()
        if self._find:
            self._find_table(image)
        table = None
        if self.table is not None:  # the calibration, in the pixels of the pictures read
            table = self.tracker.table = self.table.scaled(image.shape[1], image.shape[0])
        polygon = table.polygon if table else None
        reading = self.reader.read(image, polygon, self._side)
        # before the dice's size is known (`mark_geometry`'s `WIDEST`), the reader can take a
        # patch of the table holding the dice for the picture's one die (centred among them,
        # in most pictures of a quorum, which then loses a die): such a picture is read again
        # at the size of the dice read since the motion stopped
        largest = LARGEST * min(image.shape[:2])
        if any(wide(d) > largest for d in reading.dice):
            since = [d for read in (*self._early, *(self._reads or [])) for d in read]
            if self._side is None and since:
                reading = self.reader.read(image, polygon, die_size(since))
            reading = replace(reading, dice=[d for d in reading.dice if wide(d) <= largest])
        self.last_image, self.last_unread = image, reading.rejected
        self._pictures.append(image)
        self.stats.read_ms.append(1000 * (self.clock() - start))
        self.stats.reads += 1
        # the camera looks straight down: a top face that is not square is a cocked die
        dice = mark_cocked(image, reading.dice, die_size(reading.dice))
        self._cocked_values |= {d.center: r.value for d, r in zip(dice, reading.dice, strict=True)
                                if d.status == "cocked" and r.value is not None}
        return mark_geometry(dice, table, self._side)

    def _find_table(self, image: np.ndarray) -> None:
        """The table region found in the first still picture, if it looks right; widened by
        what it may lie inside the floor's edge (`found_margin`: a die flush against the wall
        crossed it, 74018 t5, a false SPAZ; no die rests in a wall)."""
        self._find = False
        h, w = image.shape[:2]
        polygon = find_table(image)
        if not region_warnings(polygon, (w, h), image):
            self.table = TableConfig((w, h), widened(polygon, (w, h)))

    def _try_decide(self, t: float) -> ThrowEvent | None:
        assert self._reads is not None
        if len(self._reads) < min(self.quorum, 2):
            return None
        quorum = self._reads[-self.quorum:]
        dice, agreed = vote(quorum)
        if not agreed and len(self._reads) < self.max_reads:
            return None
        self._reads = None
        dice = self._cocked_or_flat(dice, quorum)
        # the vote can keep two dice read in different pictures that no one read has together
        dice = mark_geometry(dice, self.tracker.table, self._side)
        assert self.last_image is not None  # set by the reads
        dice = placed_as_outlined(dice, self.last_image, self.tracker.table,
                                  self._side or die_size(dice))
        dice = self._settled_dice(dice, quorum)
        self.stats.settles += 1
        self.stats.low_confidence += not agreed
        outcome = self.tracker.settle(dice, self._rolled, alike=self._alike, left=self._left,
                                      shifted=self._shifted, stayed=self._stayed_put,
                                      lately=self._seen_lately, placed=self._placed_before)
        self._stayed = [] if self._stayed is not None else None
        self._lately, self._before_roll = [], []
        self._unrolled.clear()
        self._remember(self.tracker.on_table)
        assert self.last_image is not None
        self.motion.set_resting([d.center for d in self.tracker.on_table],
                                self.last_image.shape[1])
        self.stats.outcomes[outcome.kind] += 1
        if outcome.kind == "ignored":
            self.stats.ignored += 1
        if outcome.kind != "throw":
            return None
        self.stats.throws += 1
        self.stats.flags.update(outcome.flags)
        return ThrowEvent(t=t, frame=self._index, thrown=outcome.thrown, kept=outcome.kept,
                          removed=outcome.removed, flags=outcome.flags, quorum=agreed)

    def _cocked_or_flat(self, dice: list[Die], quorum: list[list[Die]]) -> list[Die]:
        """The voted `dice`, each read cocked in some of the `quorum`'s pictures and flat in
        others, decided again on their mean (`quorum.cocked_or_flat`)."""
        return cocked_or_flat(dice, quorum, self._pictures, self._side or die_size(dice))

    def _alike(self, old: Die, new: Die) -> bool:
        """Whether the settled picture shows die `old`, as it was last read, where `new` lies
        (the tracker's check that a die after a roll is one that lay there; see `Look`)."""
        assert self._settled is not None
        look = self._looks.get(old)
        return look is None or look.seen_at(self._settled[0], new.center)

    def _shifted(self, old: Die) -> bool:
        """Whether the settled picture no longer shows die `old` exactly where and as it lay
        (`UNMOVED`): a kept die a thrown die knocked, however little."""
        assert self._settled is not None
        look, side = self._looks.get(old), self._side or die_size([old])
        # what a die thrown onto it covers of it is no knock (`uncovered`)
        if look is None or (look := uncovered(look, self._settled[1], side)) is None:
            return False
        same, off = where_it_lay(look, self._settled[0], side)
        return same < UNMOVED or off >= UNMOVED_SHIFT

    def _remember(self, dice: list[Die]) -> None:
        """How the settled dice look, and still those picked up since the last throw."""
        assert self._settled is not None
        image, side = self._settled[0], self._side or die_size(dice)
        looks = {d: look for d in self.tracker.removed if (look := self._looks.get(d))}
        self._looks = looks | {d: look for d in dice
                               if (look := Look.of(image, d, side)) is not None}

    def _settled_dice(self, dice: list[Die], quorum: list[list[Die]]) -> list[Die]:
        """The quorum's dice checked against the last settle (`_in_place`), with dice missing from the
        count for one hidden under another (`vision.stacked`); kept for the next settle to check against."""
        image = self.last_image
        assert image is not None  # set by the reads
        before = self._settled[1] if self._settled is not None else []
        dice = self._in_place(dice, image)
        dice = self._with_missed(dice, image)
        dice = self._unsure_read_again(dice, image, before)
        if len(dice) >= 3:  # dice of a set are one size: a few read far off it do not move it
            self._side = die_size(dice)
            self.motion.set_die_side(self._side, image.shape[1])
        if self.tracker.dice_count is not None:
            missing = self.tracker.dice_count - count_dice(dice)
            dice = leaning_read_twice(dice, -missing, self._side or die_size(dice), image)
            # a stack forms only when dice are thrown, and a die lying as it lay at the last
            # settle (`_in_place`) was judged then: between a pick-up and a throw dice are
            # missing from the count, and a die by a dark tray's shaded wall passed for a stack
            if self._rolled:
                marked = mark_stacked(image, dice, die_size(dice), missing, not self._left,
                                      called_cocked(dice, quorum, self._side or die_size(dice)))
                dice = [d if any(d is b for b in before) else m
                        for d, m in zip(dice, marked, strict=True)]
            # a die on top of another lies flat: one the cocked test took keeps the value read
            dice = [replace(d, value=self._cocked_values.get(d.center))
                    if d.status == "stacked" and d.value is None else d for d in dice]
        dice = self._tops_read_again(dice, quorum)
        self._settled = (image, dice)
        return dice

    def _tops_read_again(self, dice: list[Die], quorum: list[list[Die]]) -> list[Die]:
        """Stacked dice read again at their top die's face, if the reader can read at a place
        (`reread.tops_read_again`)."""
        read_at = getattr(self.reader, "read_at", None)
        if read_at is None or not any(d.status == "stacked" for d in dice):
            return dice
        return tops_read_again(dice, quorum, self._pictures, read_at, self._side or die_size(dice))

    def _unsure_read_again(self, dice: list[Die], image: np.ndarray, before: list[Die]
                           ) -> list[Die]:
        """Dice read unsure or `unreadable`, other than those lying as at the last settle
        (`before`), read again, if the reader can read at a place (`vision.reread`)."""
        read_at = getattr(self.reader, "read_at", None)
        if read_at is None:
            return dice
        table = self.tracker.table
        polygon, side = table.polygon if table else None, self._side or die_size(dice)
        dice = unsure_read_again(dice, image, read_at, side, polygon, before)
        dice = unreadable_read_again(dice, list(self._pictures), read_at, side, polygon, before)
        return faint_read_again(dice, list(self._pictures), read_at, side, polygon, before)

    def _with_missed(self, dice: list[Die], image: np.ndarray) -> list[Die]:
        """`dice` with those the recognizer did not find where the picture changed since the
        last settle, beside the dice read then and now (`vision.changed_spots`): a silhouette on the
        table that the cocked test calls cocked (the recognizer often misses a shortened
        face), else what the reader reads there, if it can read at a place (`read_at`) and
        finds a die lying flat (a die across the table's edge is often proposed at twice its
        size, or not at all). A spot within `LEAN_REACH` of a cocked die read is that die's
        side; one within `APART` of another die read (`LEAN_REACH` if the spot looks cocked)
        is part of that die, which is cocked if the spot looks cocked (the recognizer read its
        top face, or the sliver of a stack whose top die is the spot). A die read as cocked that is
        square when cut off from a spot beside it lies flat after all (`leaning.flat_apart`), and the
        spot is a die of its own; so is a cocked spot beside a die read flat that, cut off
        from it, shows a whole face (`leaning.whole_apart`). With dice short of the count after a
        roll and none seen leaving (`short`), a die lies unread: a spot of two dice touching is
        split, each part cut off from the other, and any spot beside a die lying whole is one
        leaning on it (a die of its own, cocked, whatever the test says); a die read over two
        dice touching is read again apart, kept whole if it held one die (`vision.parted`)."""
        if self._settled is None or self._settled[0].shape != image.shape:
            return dice
        before_image, before = self._settled
        side = self._side or die_size(before + dice)
        table = self.tracker.table
        short = self._rolled and not self._left and self.tracker.short(dice)  # see the docstring
        read_at, polygon = getattr(self.reader, "read_at", None), table.polygon if table else None
        dice, split = read_apart(dice, image, side, polygon, read_at if short else None)
        spots = changed_spots(before_image, image, side, [d.center for d in before + dice], short)
        parted, spots = cocked_within(spots, [d.box for d in split], image, side, dice)
        dice, found, elsewhere = judge_spots(spots, dice, image, side, polygon,
                                             self._cocked_values, short)
        if read_at is not None and elsewhere:
            read = read_at(image, elsewhere, side, polygon)
            lying = [d for d in read if apart(d, dice, side)]
            found += mark_geometry(lying, table, side) + unread_stacks(  # a top face read as no die
                image, dice + found + lying, elsewhere, read, side, short and self.tracker.dice_count)
            dice = cocked_beside(dice, lying, image, side)
        return sorted(unparted(dice + found + parted, split), key=reading_order)

    _cocked_beside = staticmethod(cocked_beside)

    def _in_place(self, dice: list[Die], image: np.ndarray) -> list[Die]:
        """The quorum's dice, checked against the last settle's where the picture has not
        changed since (`unchanged`): nothing moves, takes away or brings a die without changing
        the picture where it lies, while the recognizer's reading of a die can differ from one
        settle to the next. So where the picture is as it was:

        - a die read within `TWICE` die sizes of one of the last settle is that die, and keeps
          its reading then (a kept die read as a five at the throw and a four after it would
          look picked up and thrown again);
        - a die read where none was is not new: the recognizer missed it then, or reads part
          of a die as one now (a pip of a two as a one), and it is left out, as it was then;
        - a die of the last settle not read now is still there: the recognizer missed it this
          time (a red die on green felt is about the felt's grey), and it keeps its reading;
          what the dice read cover of its face is left out (`face_uncovered`), and a die read
          anew beside it, whose silhouette merged with it, is tested for cocked again.
        """
        if self._settled is None or self._settled[0].shape != image.shape:
            return dice
        before_image, before = self._settled
        size = self._side or die_size(before + dice)

        def near(d: Die, others: list[Die]) -> Die | None:
            gaps = [(np.hypot(d.center[0] - o.center[0], d.center[1] - o.center[1]), i)
                    for i, o in enumerate(others)]
            gap, i = min(gaps, default=(np.inf, -1))
            return others[i] if gap <= TWICE * size else None

        def still(d: Die) -> bool:
            return face_unchanged(before_image, image, d.center, size)

        out: list[Die] = []
        for d in dice:
            if not still(d):
                out.append(d)
            elif (same := near(d, before)) is not None and all(same is not o for o in out):
                out.append(same)
        kept = [b for b in before if near(b, dice) is None and
                face_uncovered(before_image, image, b.center, size, dice)]
        marked = cocked_beside(out, kept, image, size)  # 77005 t2: a die leaning on it
        out = [d if any(d is b for b in before) else m for d, m in zip(out, marked, strict=True)]
        return sorted(out + kept, key=reading_order)
