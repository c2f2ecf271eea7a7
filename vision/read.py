"""Reading dice from one picture: the recognizer's public API.

    from zonkcam.vision.read import Reader
    reader = Reader()                      # the shipped model, default colours
    reading = reader.read(image_bgr)       # or read(image_bgr, table=[(x, y), ...])
    for die in reading.dice: print(die.value, die.color, die.status)

Pipeline: the proposer finds die centres and sizes on a ~320-px grey copy of the picture; each
candidate is cut from the full-resolution picture as a rotation-normalised crop of its top face;
the classifier reads value 1..6 or "not a pip die" (dropped); the colour is named from the
face's body pixels (`vision.colors`).

Each stage is a module of its own: `crop_reader` (cutting and judging a crop), `scales` (dice too
small or too large for the proposer), `second_look` (a doubtful read read again at other sizes),
`missed` and `squares` (overhead cameras: dice the proposer missed or merged, the square a flat
die shows), `sides` (photos at a slant: a die read at its side face), `turned` (photos: a
doubtful die that a turn of its crop reads as no die is clutter), `die_sizes` (dice alike in size,
one read per die), `regions` (a still's zoom looks only round the dice already read), `merged`
(a big still's views merged die by die) and
`on_table` (the table polygon, dice off it).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from functools import cache, partial
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision import scales, sides, touching, turned
from zonkcam.vision.big_boxes import reproposed
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.colors import DiceSet, body_lab, white_balance_gains
from zonkcam.vision.crop_reader import REJECT_THRESHOLD, VALUE_THRESHOLD, CropReader
from zonkcam.vision.dice import Die, Reading, Status
from zonkcam.vision.die_sizes import (
    MERGED_QUANTILE,
    alike_in_size,
    die_size,
    one_per_die,
    seen_size,
)
from zonkcam.vision.merged import View, merged
from zonkcam.vision.missed import at_known_size, with_missed
from zonkcam.vision.model import ModelError
from zonkcam.vision.on_table import TableError, place, table_polygon
from zonkcam.vision.proposals import (
    HEAT_THRESHOLD,
    NMS_FRACTION,
    PEAKS_APART,
    PROPOSER_SIDE,
    Proposal,
    decode,
    proposer_input,
)
from zonkcam.vision.regions import regions, view_cells
from zonkcam.vision.second_look import read_looked
from zonkcam.vision.squares import square, squared

# The first view of a big still (320 px) is read lightly (`second_look`'s `light`): its rejected
# candidates get no second look, and its unsure dice none in the colour greys. It shows an 8 MP
# still at a tenth of its size (80-140-px dice at 8-14 px), where what it rejects is grain or a
# die boxed with its neighbours, and a read taken back there at other crop sizes made that view
# count dice it did not see, so the 1280-px zoom that reads pairs apart did not run (issue 36
# round 12: scale_eval's seed 37 stills 1-6 false dice fewer a proxy, pi-tray 9 dice more
# found; read_cost's pi-tray stills 200 -> 168 crops). Without the colour greys there, 360
# cached pi-tray, pi-drawn and touching stills read the same, ~3 % less CPU.
FIRST_VIEW_LIGHT = True

# REJECT_THRESHOLD and VALUE_THRESHOLD: the defaults a model without its own is read with
__all__ = ["REJECT_THRESHOLD", "VALUE_THRESHOLD", "Candidate", "ModelError", "Reader", "TableError"]


class Reader(CropReader):
    """Finds every pip die in a picture and reads its value and colour.

    `model_path`: an .onnx file made by `python -m zonkcam.models.train` (default: the shipped
    `models/dice.onnx`); `dice_set`: a file from `zonkcam calibrate-dice` (default: the
    palette of `colors.DEFAULT_RGB`); `dice_colors`: the colours of the set in play (a game's
    rules' `dice_colors`, or `use_colors` later): a die is named only one of them, or None where
    none fits. `overhead`: the camera looks straight down on the
    table (the live stream), so a die lying flat shows a square top face: each die is read
    again at the square its silhouette makes, where it makes one. The proposer, working on
    grey, can centre a die that barely stands out from the table in grey (green on green
    felt) a third of a die off, or size it by its pips. Raises `ModelError` for a missing or
    bad model and `colors.DiceSetError` for a bad dice-set file, or a colour of `dice_colors` that
    neither the file nor the default palette has.
    """

    def __init__(self, model_path: str | Path | None = None,
                 dice_set: str | Path | None = None, threads: int = 1,
                 overhead: bool = False, dice_colors: Collection[str] = ()) -> None:
        super().__init__(model_path, threads)
        self.overhead = overhead
        self.top_faces = not overhead  # photos at a slant: a die read at a side face is read at its top
        # photos: a doubtful die that a turn of its crop shows is not one is rejected (clutter)
        self.every_side = not overhead
        # a still's die boxed two or three dice long, where the caller does not know the dice's size,
        # is read again at the typical die's size where its dice can lie (`vision.touching`)
        self.part_touching = True
        # a big still's views merged die by die (`vision.merged`), not the one reading most dice
        # surely kept whole: steadier on a heaped bowl saved again, but it lost touching dice on
        # the pi-tray and tiny proxies (benchmarks/README.md, issue 36, "phone's heap, round 3")
        self.merged_views = False
        self.all_colors = DiceSet.load(dice_set) if dice_set is not None else DiceSet.default()
        self.dice_set = self.all_colors.restricted(dice_colors)
        self.proposer_side = PROPOSER_SIDE
        self.heat_threshold = self.model.heat_threshold or HEAT_THRESHOLD

    def use_colors(self, dice_colors: Collection[str]) -> list[str]:
        """Name dice only by these colours from now on (a new game's set; none: every colour
        of the dice-set file or palette). Returns the colours that have no reference (neither
        the file nor the palette names them): those are left out, and dice of that colour go
        unnamed or take the nearest colour of the set (with none left, every colour is used)."""
        default = DiceSet.default().colors
        known = [c for c in dice_colors if c in self.all_colors.colors or c in default]
        self.dice_set = self.all_colors.restricted(known)
        return sorted({c for c in dice_colors if c not in known})

    def read(self, image_bgr: np.ndarray, table: list[tuple[int, int]] | None = None,
             size: float | None = None) -> Reading:
        """Every die in a BGR (or grey) uint8 picture. `table`: polygon in pixels, None = frame.
        `size`: the dice's side in px where the caller knows it (a live table's, from its
        settles), for pictures with too few dice to tell it (`die_sizes.typical_size`)."""
        start = time.perf_counter()
        image = _as_bgr(image_bgr)
        h, w = image.shape[:2]
        polygon = table_polygon(table, w, h)
        dice, rejected = [], []
        found = self.candidates(image, size)
        clutter = turned.not_dice(found, self.model.classify, self.rejects) if self.every_side else set()
        for i, c in enumerate(found):
            if self.rejects(c) or i in clutter:  # a picture die, a mark, half a die, clutter
                rejected.append(_rejected(c))
            else:
                dice.append(self.die(c))
        if table is not None:
            dice = [place(d, polygon) for d in dice]
            rejected = [d for d in rejected if place(d, polygon).status != "off_table"]
        elapsed = (time.perf_counter() - start) * 1000
        return Reading(w, h, dice, polygon, elapsed, rejected)

    def read_at(self, image_bgr: np.ndarray, points: Sequence[tuple[float, float]], size: float,
                table: list[tuple[int, int]] | None = None) -> list[Die]:
        """The dice lying at `points` (px) in a picture of dice `size` px across: for places
        where something die-sized is known to have come (the live stream's changed spots) that
        the proposer did not find. Each is read at its silhouette's square when an overhead
        camera sees one there, else at the point; one read "not a pip die" gives none."""
        if not points:
            return []
        image = _as_bgr(image_bgr)
        h, w = image.shape[:2]
        at = [Proposal(x, y, size, size, 0.0) for x, y in points]
        if self.overhead:  # the square's centre, at the given size (as `squares.squared` keeps it)
            at = [Proposal(q.cx, q.cy, size, size, 0.0)
                  if (q := square(image, p, [], size)) is not None else p for p in at]
        found = read_looked(self, image, at, [white_balance_gains(image)] * len(at), size)
        dice = [self.die(c) for c in found if not self.rejects(c)]
        if table is not None:
            polygon = table_polygon(table, w, h)
            dice = [place(d, polygon) for d in dice]
        return dice

    def candidates(self, image: np.ndarray, size: float | None = None) -> list[Candidate]:
        """Every proposal above `heat_threshold` with its crop's class probabilities, from the
        picture at the scale where its dice are of a size the proposer finds (`_zoomed`), and
        with the dice a pass at a quarter of that scale reads whole where the first took their
        pips for dice (`_close_up`; both in `vision.scales`). A big still's die size by all its
        views (`die_sizes.seen_size`) parts its touching dice and keeps its dice from specks."""
        found, seen = self._zoomed(image, size)
        found = scales.without_pips(self._close_up(image, found, size), self.unsure,
                                    self.rejects)
        if self.overhead:
            found = squared(self, image, with_missed(self, image, found, size), size)
            found = at_known_size(self, image, found, size)  # a die boxed far over the dice's size
        elif self.top_faces:  # a die seen at a slant, read at its side face: its top (issue 36)
            found = sides.top_faces(image, found, self._read_patches, self.rejects,
                                    self._at_top(image, found, size))
        still = self.part_touching and self._unsized_still(image, size)
        if still:
            found = touching.parted(self, image, found, self._size_quantile, seen)  # boxed as one
            found = touching.read_whole(self, image, found)  # a die boxed at a pip or two
            found = touching.read_twice(self, image, found)  # one die, two reads
        found = alike_in_size(found, self.rejects, self.unsure, self.overhead, seen)
        # after the speck rule: a box's dice proposed at their size can be boxed under the others
        return reproposed(image, found, seen, self.rejects, self.unsure,
                          self._regions_read) if still else found

    @property
    def _size_quantile(self) -> float:
        """Of a big still's dice read surely, the share of sizes a die's size lies over
        (`die_sizes.die_size`): the least, or where views are merged the fifth (`MERGED_QUANTILE`)."""
        return MERGED_QUANTILE if self.merged_views else 0.0

    def _unsized_still(self, image: np.ndarray, size: float | None) -> bool:
        """A still over twice the proposer's side whose dice's size the caller does not know
        (a live table's reader knows it): where the still-only passes run."""
        return size is None and max(image.shape[:2]) > 2 * self.proposer_side

    def _at_top(self, image: np.ndarray, found: list[Candidate], size: float | None
                ) -> Callable[[Proposal], bool] | None:
        """For a still (over twice the proposer's side, its dice's size unknown) with dice read
        surely: whether a die's outline says it is read at its top (`touching.read_at_top`)."""
        typical = touching.sure_size(found, self.rejects, self.unsure)
        if typical is None or not self._unsized_still(image, size):
            return None
        dice = [(c.proposal.cx, c.proposal.cy) for c in found if not self.rejects(c)]
        return partial(touching.read_at_top, image, size=typical, dice=dice)

    def _zoomed(self, image: np.ndarray, size: float | None
                ) -> tuple[list[Candidate], float | None]:
        """The candidates of the proposal that reads the most dice surely, of proposals at
        `proposer_side` and at twice, four and eight times that resolution, while
        `scales.zoom_again` says so; a big still's (`capped`), those of all its views merged die
        by die (`_focused`). A still's zoom past a proposal that read dice surely at a size the
        proposer finds (`scales.seen_enough`) proposes only the regions round those dice: the
        whole 8 MP still at 1280 px costs about three decodes (issue 36). A big still's views
        give few rejected candidates a second look (`capped`), its first view none
        (`FIRST_VIEW_LIGHT`). With the candidates, a big still's die size by all its
        views (`die_sizes.seen_size`; None for other pictures)."""
        long_side = max(image.shape[:2])
        side = self.proposer_side
        # a big still's views read few of the rejected candidates again (its grain proposes many)
        capped = self._unsized_still(image, size)
        passes = {side: self._candidates_at(image, side, size, capped=capped,
                                            light=FIRST_VIEW_LIGHT and capped)}
        looked: dict[int, list[tuple[int, int, int, int]] | None] = {side: None}
        while scales.zoom_again(passes, long_side, self.proposer_side, size is not None,
                                self.rejects, self.unsure):
            last, side = passes[side], 2 * side
            near_only = (size is None and long_side > scales.ZOOM_GROWS_TO
                         and side > 2 * self.proposer_side and scales.seen_enough(
                             last, side // 2, image.shape[1], image.shape[0], self.rejects,
                             self.unsure))
            passes[side] = self._candidates_at(image, side, size, near=last if near_only else None,
                                               capped=capped)
            # where this view looked, for the merge only (`merged_views`, off by default)
            looked[side] = regions(last, image.shape[1], image.shape[0], self.rejects,
                                   scales.FOCUS_MARGIN) if near_only and self.merged_views else None
        best = max(passes, key=lambda k: scales.how_well(
            passes[k], k, self.rejects, self.unsure, larger_first=size is None))
        if not capped:
            return passes[best], None
        views = [View(passes[k], looked[k], k / long_side)  # finest first
                 for k in sorted(passes, reverse=True)] if self.merged_views else []
        found, focused = self._focused(image, passes[best], best, views)
        if self.merged_views:  # its dice are boxed by every view already (`_size_quantile`)
            return found, None
        return found, seen_size([*passes.values(), focused], self.rejects, self.unsure)

    def _focused(self, image: np.ndarray, found: list[Candidate], side: int, views: list[View]
                 ) -> tuple[list[Candidate], list[Candidate]]:
        """`found` (a proposal at `side` px), or a proposal of the regions round its dice at the
        scale where they show `scales.FOCUS_DIE` px (`scales.focus`) where that reads more dice
        surely: touching dice seen ~30 px across can make one ridge of heat (an 8 MP still's
        six dice read at 1280 px), at ~60 px they are two. A region holding one die read surely
        is not proposed again, unless it measures two dice long (`touching.two_long`: a pair
        seen ~36 px can be boxed and read as one die): its die stays as read (`scales.lone`).
        With `views` (`merged_views`), the focus is one view more and the views' dice are
        merged die by die (`merged`) instead. Also returns the focus's own candidates."""
        h, w = image.shape[:2]
        size = die_size(found, self.rejects, self.unsure, self._size_quantile)
        dice = [(c.proposal.cx, c.proposal.cy) for c in found if not self.rejects(c)]
        two = None if size is None else partial(touching.two_long, image, size=size, dice=dice)
        where = scales.focus(found, w, h, side, self.rejects, self.unsure, two)
        if not where and not views:
            return found, []
        focused = self._regions_read(image, where) if where else []
        if views:
            scale = min((n / max(x1 - x0, y1 - y0) for (x0, y0, x1, y1), n in where), default=1.0)
            views = [View(focused, [box for box, _ in where], scale), *views] if where else views
            return merged(views, self.rejects, self.unsure) + [
                c for c in found if self.rejects(c)], focused
        seen = [c for c in found if not self.rejects(c) and not any(
            scales.within_box(c.proposal, box) for box, _ in where)] + focused
        well = partial(scales.how_well, rejects=self.rejects, unsure=self.unsure)
        return seen if well(seen, 0)[0] > well(found, 0)[0] else found, focused

    def _regions_read(self, image: np.ndarray,
                      where: Sequence[tuple[tuple[int, int, int, int], int]]) -> list[Candidate]:
        """The candidates of proposals of regions (x0, y0, x1, y1) of the picture, each scaled
        to its side in px, read in one batch."""
        proposals: list[Proposal] = []
        gains: list[np.ndarray] = []
        for (x0, y0, x1, y1), region_side in where:
            near, small = self._proposals_at(image[y0:y1, x0:x1], region_side)
            proposals += [replace(p, cx=p.cx + x0, cy=p.cy + y0) for p in near]
            gains += [white_balance_gains(small)] * len(near) if near else []
        return self._read_proposals(image, proposals, gains, None)

    def _close_up(self, image: np.ndarray, found: list[Candidate], size: float | None
                  ) -> list[Candidate]:
        """`found`, with the dice a proposal of the picture shrunk onto a plain canvas reads
        whole in place of their pips, where the dice read are large in the picture and could
        be one die's pips, or the picture is smaller than the proposer's view
        (`scales.wants_close_up`)."""
        long_side = max(image.shape[:2])
        if size is not None or not scales.wants_close_up(found, long_side, self.proposer_side,
                                                         self.rejects, self.unsure):
            return found  # a caller that knows the dice's size (a live table) needs none
        # only a die of `CLOSE_UP_LEAST` of the picture can take others' places
        # (`scales.whole_die`): the close-up's smaller proposals are not read (~4 ms a picture)
        close = whole = self._candidates_at(image, scales.CLOSE_UP_SIDE, size,
                                            canvas=scales.CLOSE_UP_CANVAS,
                                            least=scales.CLOSE_UP_LEAST * long_side)
        # the 160-px view costs a proposal: read at most once, and only when asked
        middle = cache(lambda: self._candidates_at(image, scales.MIDDLE_SIDE, size))
        crop = long_side < self.proposer_side
        if crop and not any(scales.whole_die(c, long_side, self.unsure, self.rejects)
                            for c in whole):
            whole = middle()
        found = scales.whole_dice(found, whole, long_side, self.unsure, self.rejects, middle)
        if not crop:
            return found
        return scales.in_a_crop(found, close, image.shape[1], image.shape[0], self.unsure,
                                self.rejects)

    def _candidates_at(self, image: np.ndarray, side: int, size: float | None,
                       canvas: int = 1, near: Sequence[Candidate] | None = None,
                       capped: bool = False, least: float = 0.0, light: bool = False
                       ) -> list[Candidate]:
        """The candidates of a proposal on the picture scaled to `side` px (in the middle of a
        plain canvas `canvas` times as large); `near`: of the regions of that view round these
        dice only (`vision.regions`), proposed as in the whole view; `capped`: with few rejected
        candidates read again (`second_look`), `light`: none, nor colour greys; `least`: of the
        proposals at least that size (px) only."""
        cells = None if not near else view_cells(image, regions(
            near, image.shape[1], image.shape[0], self.rejects, scales.FOCUS_MARGIN), side)
        if near and cells is not None:
            scale = side / max(image.shape[:2])
            proposals = [p for grey01, x0, y0 in cells
                         for p in self._proposed(grey01, scale, x0, y0)]
            gains = [near[0].gains] * len(proposals)  # the view before's: the same highlights
            return self._read_proposals(image, proposals, gains, size, capped, light)
        proposals, small = self._proposals_at(image, side, canvas)
        proposals = [p for p in proposals if p.size >= least]
        gains = [white_balance_gains(small)] * len(proposals) if proposals else []
        return self._read_proposals(image, proposals, gains, size, capped, light)

    def _proposals_at(self, image: np.ndarray, side: int, canvas: int = 1
                      ) -> tuple[list[Proposal], np.ndarray]:
        """The proposals on the picture scaled to `side` px (in the middle of a plain canvas
        `canvas` times as large), in the picture's pixels, and the scaled colour picture."""
        grey01, scale, small = proposer_input(image, side)
        pad = 0
        if canvas > 1:
            grey01, pad = scales.on_canvas(grey01, side, canvas)
        return self._proposed(grey01, scale, -pad, -pad), small

    def _proposed(self, grey01: np.ndarray, scale: float, x0: int, y0: int) -> list[Proposal]:
        """The proposals in the proposer's input `grey01`, a view of the picture scaled by
        `scale` whose top left lies at (x0, y0) of the view, in the picture's pixels."""
        heat, geometry = self.model.propose(grey01)
        return [replace(p, cx=p.cx + x0 / scale, cy=p.cy + y0 / scale)
                for p in decode(heat, geometry, scale, self.model.stride, self.heat_threshold,
                                NMS_FRACTION if self.overhead else PEAKS_APART)]

    def _read_proposals(self, image: np.ndarray, proposals: list[Proposal],
                        gains: list[np.ndarray], size: float | None,
                        capped: bool = False, light: bool = False) -> list[Candidate]:
        """Proposals cut from the picture and read in one batch (each with the white balance
        `gains` of the view it was proposed in), given their second look, one read per die."""
        return one_per_die(read_looked(self, image, proposals, gains, size, capped,
                                       light=light), self.rejects)

    def die(self, c: Candidate) -> Die:
        """The die a candidate is read as: its value (none, `unreadable`, where read less
        surely than `value_threshold`), colour (of the set in play), box and angle."""
        value = c.value
        confidence = float(c.probs[value])
        status: Status = "ok" if confidence >= self.value_threshold else "unreadable"
        color, color_conf = self.dice_set.name_of(body_lab(c.patch, c.gains))
        return Die(value if status == "ok" else None, color, confidence, color_conf,
                   c.box, (c.proposal.cx, c.proposal.cy), c.angle, status)


def _rejected(c: Candidate) -> Die:
    """A candidate read as "not a pip die", kept for review (no colour: nobody asked)."""
    return Die(None, None, float(c.probs[1:].max()), 0.0, c.box,
               (c.proposal.cx, c.proposal.cy), c.angle, "unreadable")


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3):
        raise TypeError("image must be a uint8 numpy array (H, W) or (H, W, 3)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise TypeError(f"image must have 1, 3 or 4 channels, not {image.shape[2]}")
    return image
