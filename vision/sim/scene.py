"""The throw simulator's drawing: the table (a mat, a tray, a dark tray with its shaded wall,
a lamp's gradient), the dice (drawn, or real faces; cocked, stacked), the hands and sleeves,
passing shadows, flicker and sensor noise. A mixin of `Simulation`: it draws what the script
(`zonkcam.vision.sim.simulator`) put in a `Frame`, using no randomness of its own."""
from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
from zonkcam.vision.sim.config import (
    DARK_RIMS,
    PALETTE,
    PIPS,
    SKIN,
    SURFACES,
    WALL_SHADE,
    WALL_STRIP,
    Frame,
    Hand,
    SimConfig,
    SimDie,
)

BACKGROUNDS = 8  # table pictures cached (one per nudged position)


class SceneDrawing:
    """Renders a `Frame`; the attributes below are `Simulation`'s."""

    config: SimConfig
    surface: str
    around: tuple[int, int, int]
    polygon: list[tuple[int, int]]
    size: int
    crops: dict[int, list[np.ndarray]] | None
    _background: dict[tuple[int, int], np.ndarray]
    _sprites: dict[tuple, tuple[np.ndarray, np.ndarray]]
    _noise: list[np.ndarray]

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
        poly = np.asarray(self.polygon, np.int32) + np.asarray(offset, np.int32)
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
            # The side is the same die's: its body and pips, a real face's taken from the top.
            body, pip = PALETTE[d.color or "white"] if not self.crops else _face_colours(real)
            side_face = _draw_face(s, d.side, body, pip, self.config.dice_style,
                                   shaded=not self.crops)  # a photo's colours are lit already
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

    def _contrasting_colors(self) -> list[str]:
        """Dice colours that stand out from both the region and its surroundings."""
        def lab(bgr: tuple[int, int, int]) -> np.ndarray:
            px = np.array([[bgr]], np.uint8)
            return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(float)

        surf = [lab(c) for c in (SURFACES[self.surface][0], self.around)]
        return [name for name, (body, _) in PALETTE.items()
                if all(np.linalg.norm(lab(body) - s) > 45 for s in surf)]


def _draw_face(s: int, value: int, body: tuple[int, int, int], pip: tuple[int, int, int],
               style: str = "pips", shaded: bool = True) -> np.ndarray:
    face = np.empty((s, s, 3), np.uint8)
    face[:] = body
    if shaded:
        shade = np.linspace(1.04, 0.92, s, dtype=np.float32)
        face = np.clip(face * shade[:, None, None] * shade[None, :, None] ** 0.5, 0, 255
                       ).astype(np.uint8)
    if style != "pips" and value in (1, 6):
        from zonkcam.vision.sim.drawn import draw_symbol

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
    a: np.ndarray = cv2.warpAffine(alpha, mm, size, flags=cv2.INTER_AREA).astype(np.float32) / 255
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


def _face_colours(face: np.ndarray) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """A real face's body and pip colours (BGR): the median of its inner square (away from the
    rounded corners), and the median of the 5 % of that square farthest from it (the pips; the
    body again on a face with none). The photos hold no other face of the die a face was cut
    from, so its side is drawn in these."""
    h, w = face.shape[:2]
    inner = face[round(0.15 * h):round(0.85 * h), round(0.15 * w):round(0.85 * w)]
    px = inner.reshape(-1, 3).astype(np.float32)
    body = np.median(px, axis=0)
    far = np.linalg.norm(px - body, axis=1)
    pip = np.median(px[far >= np.percentile(far, 95)], axis=0)
    b, p = [round(float(v)) for v in body], [round(float(v)) for v in pip]
    return (b[0], b[1], b[2]), (p[0], p[1], p[2])
