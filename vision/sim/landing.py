"""Where the throw simulator's dice go: the table's region, a die's tumble from the hand to
rest, free spots, a die against the wall, rolled off the table or out of the frame, leaning
(cocked), a kept die knocked by a thrown one, and a new die's face and colour. A mixin of
`Simulation`; every draw comes from its generator, in the script's order."""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.sim.config import SimConfig, SimDie


class NoRoom(RuntimeError):
    """The table has no free spot for a die: too many dice, or dice too big, for its size."""


# Where a spot's usual room (2 die sides from any die, 1 from the edge) is not to be found, as
# with big dice on a small table (a camera held low: 48-60 px in 640x480), dice come to rest
# nearer each other and the wall, as real ones do: (die sides between centres, the most margin)
# in turn. 1.45 sides apart no two squares overlap at any turn (the diagonal is 1.41); 0.56 of
# a margin (0.73 sides from the edge) keeps a die's corner on the table. Tried only where the
# usual draw fails, so every game that laid out before is drawn the same.
CLOSER = ((1.6, 0.8), (1.45, 0.56))
# Where even that leaves no room, the game is drawn again from its seed on a bigger tray (the
# tray fills more of the frame when the camera is lower): its margins to the frame's edge
# halved each time, up to this many times.
ROOMIER = 2


class DiceLanding:
    """The dice's geometry; the attributes below are `Simulation`'s."""

    config: SimConfig
    rng: np.random.Generator
    size: int
    surface: str
    polygon: list[tuple[int, int]]
    colors: list[str]
    crops: dict[int, list[np.ndarray]] | None
    _table: list[SimDie]
    _dice: int
    _set_colors: tuple[str, ...] | None
    _roomier: int

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
        kept_colors = Counter(d.color for d in kept if d.color is not None)
        left = list((Counter(self._set_colors) - kept_colors).elements())
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
        """A point on the region's edge with no die near it (nearer, where none is free:
        `CLOSER`)."""
        poly = np.asarray(self.polygon, np.float32)
        for apart in (2.0, *(a for a, _ in CLOSER)):
            for _ in range(200):
                i = int(self.rng.integers(len(poly)))
                a, b = poly[i], poly[(i + 1) % len(poly)]
                p = a + (b - a) * float(self.rng.uniform(0.2, 0.8))
                if self._free_spot(float(p[0]), float(p[1]), others=others, apart=apart):
                    return p
        raise NoRoom("no free spot along the table edge")

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
        """Rest a die cocked at the wall: close to the region's edge, one side face showing.

        Along the top and bottom walls the side shows toward the wall (a die propped on the
        wall's foot, tilted away from it); along the left and right walls it shows away from
        the wall (a die leaning against it). A real tray does both."""
        poly = np.asarray(self.polygon, np.float32)
        p = self._edge_spot(others)
        centre = poly.mean(axis=0)
        inward = (centre - p) / np.linalg.norm(centre - p)
        q = p + inward * 1.3 * self.size
        d.x, d.y = float(q[0]), float(q[1])
        # The sprite's side lies along its local +y; this angle turns +y to (ix, -iy) for an
        # inward direction (ix, iy): away from a left or right wall, toward a top or bottom one.
        d.angle = math.degrees(math.atan2(-inward[0], inward[1])) + 180
        # The side seen is one of the four round the top (neither it nor its opposite), from
        # the one draw it always was (the script stays as it was).
        around = [v for v in range(1, 7) if v not in (d.value, 7 - d.value)]
        d.status, d.side = "cocked", around[(int(self.rng.integers(1, 7)) - 1) % 4]

    def _random_spot(self, margin: float, others: list[SimDie] | None = None
                     ) -> tuple[float, float]:
        """A free spot `margin` die sides (and some) inside the region (nearer the dice and
        the edge, where none is free: `CLOSER`)."""
        contour = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        x1, y1 = contour.reshape(-1, 2).min(axis=0)
        x2, y2 = contour.reshape(-1, 2).max(axis=0)
        for apart, most in ((2.0, margin), *CLOSER):
            least = min(margin, most)
            for _ in range(2000):
                x, y = float(self.rng.uniform(x1, x2)), float(self.rng.uniform(y1, y2))
                if self._on_table(x, y, least) and \
                        self._free_spot(x, y, others=others, apart=apart):
                    return x, y
        raise NoRoom("no room left on the table for another die")

    def _on_table(self, x: float, y: float, margin: float) -> bool:
        """Whether (x, y) lies on the region, `margin` die sides (and some) from its edge."""
        contour = np.asarray(self.polygon, np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (x, y), True) >= margin * self.size * 1.3

    def _room(self, x: float, y: float, die: SimDie) -> bool:
        """Whether `die` can be pushed to (x, y): on the table, clear of the other dice."""
        return self._on_table(x, y, 1.0) and self._free_spot(x, y, ignore=die)

    def _free_spot(self, x: float, y: float, ignore: SimDie | None = None,
                   others: list[SimDie] | None = None, apart: float = 2.0) -> bool:
        """Whether (x, y) is more than `apart` die sides from every die on the table and in
        `others` (but `ignore`)."""
        dice = [d for d in self._table + (others or []) if d is not ignore]
        return all(math.hypot(d.x - x, d.y - y) > apart * self.size for d in dice)

    def _region(self) -> list[tuple[int, int]]:
        c, rng = self.config, self.rng
        inset = (0.13, 0.2) if self.surface in ("tray", "dark") else (0.08, 0.14)
        bigger = 0.5 ** self._roomier
        mx = c.width * float(rng.uniform(*inset)) * bigger
        my = c.height * float(rng.uniform(*inset)) * bigger
        centre = (c.width / 2 + float(rng.normal(0, 6)), c.height / 2 + float(rng.normal(0, 6)))
        box = ((centre[0], centre[1]), (c.width - 2 * mx, c.height - 2 * my),
               float(rng.uniform(-3, 3)))
        return [(round(x), round(y)) for x, y in cv2.boxPoints(box)]
