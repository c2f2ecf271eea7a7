"""Reading dice from one picture: the recognizer's public API.

    from zonkcam.vision.read import Reader
    reader = Reader()                      # the shipped model, default colours
    reading = reader.read(image_bgr)       # or read(image_bgr, table=[(x, y), ...])
    for die in reading.dice: print(die.value, die.color, die.status)

Pipeline: the proposer finds die centres and sizes on a ~320-px grey copy of the picture; each
candidate is cut from the full-resolution picture as a rotation-normalised crop of its top face;
the classifier reads value 1..6 or "not a pip die" (dropped); the colour is named from the
face's body pixels (`vision.colors`).
"""
from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from zonkcam.vision import scales, sides
from zonkcam.vision.candidates import Candidate
from zonkcam.vision.colors import DiceSet, body_lab, white_balance_gains
from zonkcam.vision.dice import Die, Reading, Status, box_growth
from zonkcam.vision.faces import colour_views, face_angle, patch_at, upright
from zonkcam.vision.model import DiceModel, ModelError
from zonkcam.vision.proposals import (
    HEAT_THRESHOLD,
    NMS_FRACTION,
    PEAKS_APART,
    PROPOSER_SIDE,
    Proposal,
    apart,
    decode,
    proposer_input,
)
from zonkcam.vision.silhouette import Silhouette, blobs, silhouette

__all__ = ["Candidate", "ModelError", "Reader", "TableError"]

REJECT_THRESHOLD = 0.5  # a crop at least this likely "not a pip die" is dropped
VALUE_THRESHOLD = 0.5  # a value read less surely than this is reported `unreadable`
# A die read less surely than this gets a second look: crops at these multiples of the proposed
# size (the proposer's size is often off for large dice, seen with their sides) are read too
# and the surest read is kept. Chosen on rune55's `tune` groups.
SECOND_LOOK_BELOW = 0.9
SECOND_LOOK_SCALES = (0.65, 1.2, 2.0)
# A rejected candidate the proposer is fairly sure of gets a second look too (its size is the
# usual culprit: a die proposed at half or twice its size reads as "not a die"); it is taken
# back only on a sure read, and not beside a die already read. Scales and thresholds chosen on
# the `tune` groups: against the former second look (unsure dice only, at 0.8, 1.2, 1.5 and
# 2×) 32 more dice read right and 5 fewer misread of 1,414, one more false die, 8% more crops.
# A die proposed at a size out of line with the picture's other dice (the proposer sized it by a
# neighbour, or by a pip) is read again at their median size. On the `tune` groups: one more
# exact picture of 350 (2 more dice read right); on drawn throws, misread dice 18 of 1,372 -> 13.
OUT_OF_LINE = (0.7, 1.45)
TYPICAL_SIZE_FROM = 3  # dice read at the first look needed for a median size to go by
SECOND_LOOK_REJECTED_SCORE = 0.3
SECOND_LOOK_REJECTED_SURE = 0.9
# 1.3: a taught picture face the proposer boxes at 0.7-0.9 of its size reads "not a die" there
# (issue 37's rune55 proxy: 70 -> 73 of 84 new faces read right with the taught model; the
# shipped model's figures there, on the audited held-out photos and on 120 `tune` photos alike)
SECOND_LOOK_REJECTED_SCALES = (0.5, 1.3, 2.0)
# A die found under this share of the median size of the picture's dice (three or more read)
# is dropped: dice at one distance from a camera are alike in size, and a speck on the table,
# read again at the dice's size, passes for a one (a dot on a plain face). On the 200 byler
# photos 16 of 26 false dice, none real; on the `tune` groups as many exact pictures as
# before (0.55 cost one).
LEAST_OF_TYPICAL = 0.5
# ... and, read unsurely, over this multiple of it: the grain of a table seen at a zoom that
# shows small dice passes for a die of two or three times their size (issue 36's phone photos).
MOST_OF_TYPICAL = 2.5
EDGE_FRACTION = 0.35  # a centre closer than this × die size to the table edge crosses it
# Overhead cameras only: a die whose silhouette is this near a square, and within these
# multiples of a die's size (the median of the dice read, from three; else its proposed size),
# is read again at the square (its top face seen from above). Chosen on drawn throws (seeds
# 2000-2019): 0.7-1.3 read 9 dice of 1,265 wrong, 0.5-1.5 read 4, without the square 11.
SQUARE_ASPECT = 1.15
SQUARE_SIZES = (0.5, 1.5)
PIPS_TO_DIE = 1.6  # a die's size for a pip's box the proposer made (measured 20-21 px for 34)
# Overhead cameras only: what stands out from the table around each die, in a square this many
# dice across, is matched with the dice read. A thing with no die read in it that covers at
# least `LEAST_DIE` of a die's table (the median of things holding one die) and less than
# `TWO_DICE`, or one die read in a thing covering `TWO_DICE` dice's worth or more, is a die the
# proposer missed or merged with its neighbour (a cocked die leaning on a die), and is read at
# its centre. From the shapes: a cocked die covers about 1.4 dice's worth of table, one leaning
# on a die 2.4, a stack 1.2-1.6.
BLOB_WINDOW = 3.0
LEAST_DIE = 0.5
TWO_DICE = 1.9


class TableError(ValueError):
    """A table polygon that cannot be used (fewer than 3 points, or no area)."""


class Reader:
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
        self.model = DiceModel(model_path, threads=threads)
        self.overhead = overhead
        self.top_faces = not overhead  # photos at a slant: a die read at a side face is read at its top
        self.all_colors = DiceSet.load(dice_set) if dice_set is not None else DiceSet.default()
        self.dice_set = self.all_colors.restricted(dice_colors)
        self.proposer_side = PROPOSER_SIDE
        self.heat_threshold = self.model.heat_threshold or HEAT_THRESHOLD
        self.reject_threshold = self.model.reject_threshold or REJECT_THRESHOLD
        self.value_threshold = self.model.value_threshold or VALUE_THRESHOLD

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
        settles), for pictures with too few dice to tell it (`_typical_size`)."""
        start = time.perf_counter()
        image = _as_bgr(image_bgr)
        h, w = image.shape[:2]
        polygon = _table_polygon(table, w, h)
        dice, rejected = [], []
        for c in self.candidates(image, size):
            if self._rejects(c):  # a picture die, a mark, half a die
                rejected.append(_rejected(c))
            else:
                dice.append(self._die(c))
        if table is not None:
            dice = [_place(d, polygon) for d in dice]
            rejected = [d for d in rejected if _place(d, polygon).status != "off_table"]
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
        if self.overhead:  # the square's centre, at the given size (as `_squared` keeps it)
            at = [Proposal(q.cx, q.cy, size, size, 0.0)
                  if (q := _square(image, p, [], size)) is not None else p for p in at]
        looks = [self._look(image, p) for p in at]
        probs = self.model.classify(np.stack([crop for crop, _, _ in looks]))
        gains = white_balance_gains(image)
        found = self._second_look(image, [
            Candidate(p, angle, pr, patch, gains, crop)
            for p, (crop, patch, angle), pr in zip(at, looks, probs, strict=True)], size)
        dice = [self._die(c) for c in found if not self._rejects(c)]
        if table is not None:
            polygon = _table_polygon(table, w, h)
            dice = [_place(d, polygon) for d in dice]
        return dice

    def candidates(self, image: np.ndarray, size: float | None = None) -> list[Candidate]:
        """Every proposal above `heat_threshold` with its crop's class probabilities, from the
        picture at the scale where its dice are of a size the proposer finds (`_zoomed`), and
        with the dice a pass at a quarter of that scale reads whole where the first took their
        pips for dice (`_close_up`; both in `vision.scales`)."""
        found = self._zoomed(image, size)
        found = scales.without_pips(self._close_up(image, found, size), self._unsure,
                                    self._rejects)
        if self.overhead:
            found = self._squared(image, self._parted(image, found, size), size)
        elif self.top_faces:  # a die seen at a slant, read at its side face: its top (issue 36)
            found = sides.top_faces(image, found, self._read_patches, self._rejects)
        return self._alike_in_size(found)

    def _zoomed(self, image: np.ndarray, size: float | None) -> list[Candidate]:
        """The candidates of the proposal that reads the most dice surely, of proposals at
        `proposer_side` and at twice, four and eight times that resolution, while
        `scales.zoom_again` says so."""
        long_side = max(image.shape[:2])
        side = self.proposer_side
        passes = {side: self._candidates_at(image, side, size)}
        while scales.zoom_again(passes, long_side, self.proposer_side, size is not None,
                                self._rejects, self._unsure):
            side *= 2
            passes[side] = self._candidates_at(image, side, size)
        best = max(passes, key=lambda k: scales.how_well(
            passes[k], k, self._rejects, self._unsure, larger_first=size is None))
        if size is not None or long_side <= 2 * self.proposer_side:
            return passes[best]
        return self._focused(image, passes[best], best)

    def _focused(self, image: np.ndarray, found: list[Candidate], side: int) -> list[Candidate]:
        """`found` (a proposal at `side` px), or a proposal of the region round its dice at the
        scale where they show `scales.FOCUS_DIE` px (`scales.focus`) where that reads more dice
        surely: touching dice seen ~30 px across can make one ridge of heat (an 8 MP still's
        six dice read at 1280 px), at ~60 px they are two."""
        h, w = image.shape[:2]
        where = scales.focus(found, w, h, side, self._rejects)
        if where is None:
            return found
        (x0, y0, x1, y1), focus_side = where
        near = [replace(c, proposal=replace(c.proposal, cx=c.proposal.cx + x0,
                                            cy=c.proposal.cy + y0))
                for c in self._candidates_at(image[y0:y1, x0:x1], focus_side, None)]
        well = partial(scales.how_well, rejects=self._rejects, unsure=self._unsure)
        return near if well(near, 0)[0] > well(found, 0)[0] else found

    def _close_up(self, image: np.ndarray, found: list[Candidate], size: float | None
                  ) -> list[Candidate]:
        """`found`, with the dice a proposal of the picture shrunk onto a plain canvas reads
        whole in place of their pips, where the dice read are large in the picture."""
        long_side = max(image.shape[:2])
        if size is not None or not scales.wants_close_up(found, long_side, self.proposer_side,
                                                         self._rejects):
            return found  # a caller that knows the dice's size (a live table) needs none
        whole = self._candidates_at(image, scales.CLOSE_UP_SIDE, size,
                                    canvas=scales.CLOSE_UP_CANVAS)
        return scales.whole_dice(found, whole, long_side, self._unsure, self._rejects,
                                 lambda: self._candidates_at(image, scales.MIDDLE_SIDE, size))

    def _candidates_at(self, image: np.ndarray, side: int, size: float | None,
                       canvas: int = 1) -> list[Candidate]:
        """The candidates of a proposal on the picture scaled to `side` px (in the middle of a
        plain canvas `canvas` times as large)."""
        grey01, scale, small = proposer_input(image, side)
        pad = 0
        if canvas > 1:
            grey01, pad = scales.on_canvas(grey01, side, canvas)
        heat, geometry = self.model.propose(grey01)
        proposals = [Proposal(p.cx - pad / scale, p.cy - pad / scale, p.w, p.h, p.score)
                     for p in decode(heat, geometry, scale, self.model.stride,
                                     self.heat_threshold,
                                     NMS_FRACTION if self.overhead else PEAKS_APART)]
        if not proposals:
            return []
        looks = [self._look(image, p) for p in proposals]
        probs = self.model.classify(np.stack([crop for crop, _, _ in looks]))
        gains = white_balance_gains(small)
        found = [Candidate(p, angle, pr, patch, gains, crop)
                 for p, (crop, patch, angle), pr in zip(proposals, looks, probs, strict=True)]
        return self._one_per_die(self._second_look(image, found, size))

    def _look(self, image: np.ndarray, p: Proposal) -> tuple[np.ndarray, np.ndarray, float]:
        """The classifier's crop (float, 0..1) of a proposal, its colour patch and the angle."""
        patch = patch_at(image, p.cx, p.cy, p.size)
        grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
        angle = face_angle(grey)
        return self._crop(grey, angle), patch, angle

    def _read_patches(self, patches: Sequence[np.ndarray]) -> list[tuple[np.ndarray, float, np.ndarray]]:
        """Each colour patch (framed as `patch_at` frames a die) read: its class probabilities,
        face angle and classifier crop, in one batch."""
        greys = [cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) for p in patches]
        angles = [face_angle(g) for g in greys]
        crops = [self._crop(g, a) for g, a in zip(greys, angles, strict=True)]
        return list(zip(self.model.classify(np.stack(crops)), angles, crops, strict=True))

    def _crop(self, grey_patch: np.ndarray, angle: float) -> np.ndarray:
        """A grey patch turned upright into the classifier's float crop (0..1)."""
        crop = upright(grey_patch, angle, self.model.crop, self.model.crop_margin)
        return crop.astype(np.float32) / 255.0

    def _second_look(self, image: np.ndarray, found: list[Candidate], size: float | None
                     ) -> list[Candidate]:
        """Unsure dice, dice proposed at a size out of line with the picture's others, and
        rejected candidates the proposer is fairly sure of, read again at other crop sizes, in
        one batch. A die keeps its surest read that is not a reject; a rejected one comes back
        only on a sure read. Each keeps the proposer's box: a crop that reads better is not a
        better box (a small die in twice its size of crop can pass for a one), and captured
        labels keep the size the reader's first look will cut again."""
        typical = self._typical_size(found, size)

        def scales(c: Candidate) -> tuple[float, ...]:
            """Multiples of the proposed size to read the candidate at again."""
            if self._rejects(c):
                sure = c.proposal.score >= SECOND_LOOK_REJECTED_SCORE
                return SECOND_LOOK_REJECTED_SCALES if sure else ()
            out = SECOND_LOOK_SCALES if self._unsure(c) else ()
            if typical is not None and not (
                    OUT_OF_LINE[0] <= c.proposal.size / typical <= OUT_OF_LINE[1]):
                out += (typical / c.proposal.size,)
            return out

        again = [(i, k) for i, c in enumerate(found) if (k := scales(c))]
        if not again:
            return found
        # (candidate, the proposal looked at, crop, patch, angle)
        looks: list[tuple[int, Proposal, np.ndarray, np.ndarray, float]] = []
        for i, ks in again:
            c, p = found[i], found[i].proposal
            for k in ks:
                q = Proposal(p.cx, p.cy, p.w * k, p.h * k, p.score)
                looks.append((i, q, *self._look(image, q)))
            if self._unsure(c):
                # the face turned half round: the same value, and a second opinion
                looks.append((i, p, np.ascontiguousarray(c.crop[::-1, ::-1]), c.patch, c.angle))
            if self._unsure(c) or self._rejects(c):
                looks += [(i, p, self._crop(view, c.angle), c.patch, c.angle)
                          for view in colour_views(c.patch)]
        probs = self.model.classify(np.stack([crop for _, _, crop, _, _ in looks]))
        dice = [c.proposal for c in found if not self._rejects(c)]
        out = list(found)
        for (i, q, _, patch, angle), pr in zip(looks, probs, strict=True):
            if pr[0] >= self.reject_threshold:
                continue
            surer = pr[1:].max() > out[i].probs[1:].max()
            if self._rejects(found[i]):
                # a proposal beside a die, seen at twice its size, can show that die: take it
                # back only if no die read at the first look lies within `apart`'s 0.6 of a die
                surer = surer and pr[1:].max() >= SECOND_LOOK_REJECTED_SURE and all(
                    apart(q, p) for p in dice)
            if surer:
                out[i] = Candidate(found[i].proposal, angle, pr, patch, found[i].gains,
                                   found[i].crop)
        return out

    def _squared(self, image: np.ndarray, found: list[Candidate], size: float | None
                 ) -> list[Candidate]:
        """Each die whose silhouette against the table is a square of about a die's size, read
        again at that square; that reading and colour patch are kept unless it reads "not
        a die", and of two dice whose squares coincide (two pips of a two, each proposed as a
        die) one is kept. The box becomes the square's (turned as the die is), so that a die
        proposed at a pip in one frame and at its middle in the next lies in one place, at a
        die's size: the stream measures dice by their boxes (the proposer's sizes: a median 1.11
        times the dice's, p95 1.35, on simulated throws; the squares': 1.00, p95 1.01). In a
        photo taken at a slant a silhouette holds a side as well, so only overhead cameras get
        this (on rune55's `tune` photos: exact pictures 0.649 -> 0.631)."""
        dice = [i for i, c in enumerate(found) if not self._rejects(c)]
        typical = self._typical_size(found, size)
        squares: dict[int, Proposal] = {}
        for i in dice:
            p = found[i].proposal
            others = [(found[j].proposal.cx, found[j].proposal.cy) for j in dice if j != i]
            # whole, or else cut off where another die is nearer: a die read twice, at two of
            # its pips, is cut in two halves that can pass for small squares; at the typical
            # size, or else at its own or a die's when the typical is a pip's (most dice
            # proposed at their pips: seed 13006, throw 5, a blue two read as a one)
            # and, where the caller knows the dice's size (a live table's), of about that: a
            # die and one leaning on it made a square 1.8 dice wide (seed 32012, throw 1)
            sizes = dict.fromkeys((typical or p.size, p.size, PIPS_TO_DIE * (typical or p.size)))
            q = next((q for at in sizes for near in ([], others)
                      if (q := _square(image, p, near, at)) is not None
                      and (size is None or _of_size(q.w, size))), None)
            if q is not None:
                squares[i] = q
        if not squares:
            return found
        looks = [(i, *self._look(image, q)) for i, q in squares.items()]  # (die, crop, patch, angle)
        probs = self.model.classify(np.stack([crop for _, crop, _, _ in looks]))
        out = list(found)
        for (i, _, patch, angle), pr in zip(looks, probs, strict=True):
            if pr[0] < self.reject_threshold:
                c = found[i]
                p, q = c.proposal, squares[i]
                box = q.w * box_growth(angle)
                out[i] = Candidate(Proposal(q.cx, q.cy, box, box, p.score), angle, pr, patch,
                                   c.gains, c.crop)
        return self._one_per_die(out, [squares.get(i, c.proposal) for i, c in enumerate(out)],
                                 first=squares.keys())

    def _parted(self, image: np.ndarray, found: list[Candidate], size: float | None
                ) -> list[Candidate]:
        """`found` with dice the proposer missed or merged read where the table shows them.
        Near each die read, a thing standing out from the table with no die read in it is read
        at its centre; a die read in a thing two dice big is read again at each half of it; a
        die read between things (the proposer's centre for two dice) is read at them instead.
        A new read is kept unless it reads "not a die" or lies on a die already read; a die
        read again keeps its first read when none of its new ones is kept."""
        dice = [i for i, c in enumerate(found) if not self._rejects(c)]
        typical = self._typical_size(found, size)
        if typical is None:
            return found
        centres = {i: (found[i].proposal.cx, found[i].proposal.cy) for i in dice}
        near: dict[int, list[tuple[Silhouette, list[int]]]] = {}  # die: (thing, dice in it)
        for i in dice:
            near[i] = [(b, [j for j in dice if cv2.pointPolygonTest(
                b.contour, b.in_patch(*centres[j]), False) >= 0])
                for b in blobs(image, centres[i], typical, BLOB_WINDOW)]
        ones = [b.area for things in near.values() for b, inside in things if len(inside) == 1]
        if len(ones) < 2:
            return found
        unit = float(np.median(ones))
        new: list[tuple[int | None, Proposal]] = []  # (the die read again, or None; where)
        for i, things in near.items():
            score = found[i].proposal.score
            own = next(((b, inside) for b, inside in things if i in inside), None)
            loose = [b.centroid() for b, inside in things  # bigger than two dice: no die
                     if not inside and LEAST_DIE * unit <= b.area < TWO_DICE * unit]
            # things beside a die read in none are what it stands for; else they are new dice
            new += [(i if own is None else None, Proposal(x, y, typical, typical, score))
                    for x, y in loose]
            if own is not None and own[1] == [i] and own[0].area >= TWO_DICE * unit:
                new += [(i, Proposal(x, y, typical, typical, score))
                        for x, y in own[0].halves()]
        if not new:
            return found
        looks = [self._look(image, q) for _, q in new]
        probs = self.model.classify(np.stack([crop for crop, _, _ in looks]))
        again = {i for i, _ in new if i is not None}
        kept = [found[i].proposal for i in dice if i not in again]
        out = [c for i, c in enumerate(found) if i not in again]
        taken: set[int] = set()
        gains = found[dice[0]].gains  # the picture's white balance: one for all its candidates
        for (i, q), (crop, patch, angle), pr in zip(new, looks, probs, strict=True):
            if pr[0] < self.reject_threshold and all(apart(q, k, typical) for k in kept):
                kept.append(q)
                out.append(Candidate(q, angle, pr, patch, gains, crop))
                taken.add(i)
        out += [found[i] for i in again - taken]
        return out

    def _typical_size(self, found: list[Candidate], known: float | None) -> float | None:
        """The median proposed size of the dice read, once there are enough to go by, else
        the size the caller `known` (a live table's dice: 26016, throw 11, a lone die
        proposed at 2.4 times its size, seen as a square only at the dice's size)."""
        sizes = [c.proposal.size for c in found if not self._rejects(c)]
        return float(np.median(sizes)) if len(sizes) >= TYPICAL_SIZE_FROM else known

    def _alike_in_size(self, found: list[Candidate]) -> list[Candidate]:
        """Without the dice under `LEAST_OF_TYPICAL` of the picture's median die size, once
        three or more are read (after `_squared`: a die proposed at a pip has its square's
        size by then), nor, in photos, those read unsurely over `MOST_OF_TYPICAL` of it
        (overhead, a die leaning on a die is boxed bigger; a die read surely is a die, however
        big the proposer boxed it: a picture face is often boxed at 2-4 times its size)."""
        typical = self._typical_size(found, None)
        if typical is None:
            return found
        most = np.inf if self.overhead else MOST_OF_TYPICAL * typical
        return [c for c in found if self._rejects(c) or LEAST_OF_TYPICAL * typical
                <= c.proposal.size <= (most if self._unsure(c) else np.inf)]

    def _one_per_die(self, found: list[Candidate], at: list[Proposal] | None = None,
                     first: Collection[int] = ()) -> list[Candidate]:
        """Of two dice read closer than `apart` allows for the picture's median die size, the
        one the proposer was surer of. `decode` already keeps proposals apart by their own
        sizes, but a die proposed at half its size can hold two proposals, and both read.
        `at`: where each candidate was read, when not at its proposal; `first`: candidates
        (indices) kept before the others, as read where they are seen better."""
        at = at or [c.proposal for c in found]
        dice = sorted((i for i, c in enumerate(found) if not self._rejects(c)),
                      key=lambda i: (i not in first, -found[i].proposal.score))
        if len(dice) < 2:
            return found
        size = float(np.median([at[i].size for i in dice]))
        kept: list[int] = []
        for i in dice:
            if all(apart(at[i], at[k], size) for k in kept):
                kept.append(i)
        return [c for i, c in enumerate(found) if self._rejects(c) or i in kept]

    def _unsure(self, c: Candidate) -> bool:
        """A die (not rejected) read less surely than `SECOND_LOOK_BELOW`."""
        return not self._rejects(c) and c.probs[1:].max() < SECOND_LOOK_BELOW

    def _rejects(self, c: Candidate) -> bool:
        """The classifier took this candidate for "not a pip die"."""
        return bool(c.probs[0] >= self.reject_threshold)

    def _die(self, c: Candidate) -> Die:
        value = c.value
        confidence = float(c.probs[value])
        status: Status = "ok" if confidence >= self.value_threshold else "unreadable"
        color, color_conf = self.dice_set.name_of(body_lab(c.patch, c.gains))
        return Die(value if status == "ok" else None, color, confidence, color_conf,
                   c.box, (c.proposal.cx, c.proposal.cy), c.angle, status)


def _square(image: np.ndarray, p: Proposal, others: list[tuple[float, float]],
            size: float) -> Proposal | None:
    """The square a die's silhouette makes (`others`: the other dice's centres; `size`: a
    die's size, px), as a proposal; None when the silhouette is not near a square of about
    that size."""
    found = silhouette(image, (p.cx, p.cy), size, others)
    if found is None:
        return None
    (x, y), (w, h), _ = cv2.minAreaRect(found.contour)
    side = (w + h) / 2 / found.scale
    if max(w, h) > SQUARE_ASPECT * min(w, h) or not _of_size(side, size):
        return None
    return Proposal(*found.in_picture(x, y), side, side, p.score)


def _of_size(side: float, size: float) -> bool:
    """Whether a square of `side` px is a die's of `size` px (`SQUARE_SIZES`)."""
    return SQUARE_SIZES[0] <= side / size <= SQUARE_SIZES[1]


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


def _table_polygon(table: list[tuple[int, int]] | None, w: int, h: int) -> list[tuple[int, int]]:
    if table is None:
        return [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]
    polygon = [(round(x), round(y)) for x, y in table]
    if len(polygon) < 3 or cv2.contourArea(np.array(polygon, np.float32)) < 1.0:
        raise TableError(f"the table polygon {polygon} is empty (needs 3+ points and an area)")
    return polygon


def _place(die: Die, polygon: list[tuple[int, int]]) -> Die:
    """Mark a die `off_table` when its centre is outside the polygon or its face crosses the edge."""
    contour = np.array(polygon, np.float32).reshape(-1, 1, 2)
    dist = cv2.pointPolygonTest(contour, (float(die.center[0]), float(die.center[1])), True)
    size = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
    if dist < EDGE_FRACTION * size:
        return Die(die.value, die.color, die.confidence, die.color_confidence, die.box,
                   die.center, die.angle, "off_table")
    return die
