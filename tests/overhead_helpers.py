"""Helpers for the overhead checks on live throws: dice drawn on felt, seen from above."""
from __future__ import annotations

import cv2
import numpy as np
from zonkcam.vision.dice import Die

SIDE = 36


def table(w: int = 240, h: int = 200) -> np.ndarray:
    rng = np.random.default_rng(0)
    felt = np.full((h, w, 3), (40, 110, 40), np.float32) + rng.normal(0, 4, (h, w, 1))
    return np.clip(felt, 0, 255).astype(np.uint8)


def put(image: np.ndarray, cx: float, cy: float, angle: float, lean: float = 0.0,
        shade: float = 1.0, scale: float = 1.0, body: int = 235) -> None:
    """A die at (cx, cy) turned by `angle`; leaning by `lean` degrees, its top face is
    shortened by cos(lean) and its side, 0.6 times as bright, of sin(lean) shows below it.
    `shade` darkens it (a die in another's shadow); `scale` enlarges it (a die nearer the
    camera). `body`: the grey of a face; a white die (the default) shows a black one, a dark
    die four white pips, which fill most of two rows of the top face."""
    side_px = round(SIDE * scale)
    top = round(side_px * np.cos(np.radians(lean)))
    side = round(side_px * np.sin(np.radians(lean)))
    sprite = np.full((top + side, side_px, 3), body, np.uint8)
    sprite[top:] = round(0.6 * body)
    if body > 128:
        cv2.circle(sprite, (side_px // 2, top // 2), 4, (20, 20, 20), -1)
    else:
        for x in (0.3, 0.7):
            for y in (0.3, 0.7):
                cv2.circle(sprite, (round(x * side_px), round(y * top)), side_px // 7,
                           (250, 250, 250), -1)
    paste_turned(image, (sprite * shade).astype(np.uint8), cx, cy, angle)


def paste_turned(image: np.ndarray, sprite: np.ndarray, cx: float, cy: float,
                 angle: float) -> None:
    """Paint `sprite` onto `image`, its middle at (cx, cy), turned by `angle` degrees."""
    h, w = sprite.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    m[:, 2] += (cx - w / 2, cy - h / 2)
    size = image.shape[1::-1]
    warped = cv2.warpAffine(sprite, m, size)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, size)
    image[mask > 127] = warped[mask > 127]


def die(cx: float, cy: float, value: int = 1) -> Die:
    half = SIDE * 0.7
    return Die(value, "white", 0.9, 0.9, (round(cx - half), round(cy - half),
               round(cx + half), round(cy + half)), (cx, cy), 0.0, "ok")


def recognised_throws(**special: float):
    """Three simulated throws (seed 101, no disturbances) read by the shipped model through
    the stream: (events, score). `special`: the chances of special throws, e.g. p_cocked=1."""
    from zonkcam.vision.read import Reader
    from zonkcam.vision.sim.scoring import score
    from zonkcam.vision.sim.simulator import SimConfig, Simulation
    from zonkcam.vision.stream import ThrowStream
    from zonkcam.vision.table import TableConfig

    chances = {"p_off_table": 0, "p_cocked": 0, "p_stacked": 0, **special}
    config = SimConfig(seed=101, throws=3, p_disturbance=0, p_nudge=0, **chances)
    sim = Simulation(config)
    region = sim.truth["table"]
    table = TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])
    stream = ThrowStream(Reader(), table, dice_count=config.dice)
    events = [e for t, f in sim.frames() if (e := stream.feed(f, t))]
    return events, score(events, sim.truth)
