"""Issue 4's targets on simulated throws the tests do not use (seeds 1000 and up).

    python benchmarks/live_eval.py --games 20 --throws 12 --reader drawn
    python benchmarks/live_eval.py --reader model      # the recognizer (needs a model)
    python benchmarks/live_eval.py --reader truth      # perfect reads: the stream logic alone
    python benchmarks/live_eval.py --reader found      # the recognizer, each face's value right
    python benchmarks/live_eval.py --reader model --model /tmp/cand/dice.onnx  # a candidate
    python benchmarks/live_eval.py --motion-only       # just the motion path's frames/s
    python benchmarks/live_eval.py --unkind            # issue 34's table: dark tray, sleeves,
                                                       # holds, knocks, dice against the wall
    python benchmarks/live_eval.py --no-table          # no table file: the stream finds it
    python benchmarks/live_eval.py --die-px 24 --fps 15 --frame 1280x960  # another camera

Dice are faces cut from rune55's held-out photo groups (real faces the recognizer never
trained on) when ../shared/datasets/rune55 is present and the reader is `model`, `found` or `truth`
(`--crops auto`, the default); drawn dice otherwise, or with `--crops none`. The `drawn`
reader only reads drawn dice. `--faces audited` cuts them only from the audited held-out
photos' legible dice, labels corrected (the held-out pool holds faces labelled wrong).

Frames go from the simulator straight into `ThrowStream` (no video encoding), one core
(OpenCV and onnxruntime threads set to 1). Prints one JSON object: exact-throw rate, phantom
events, SPAZ and lost recall, false SPAZ, false cocked dice (a die the truth has flat reported
cocked), median latency beyond the settle window, and the motion path's frames per second at
640x480.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
from zonkcam.hardware.options import bounded, bounded_float
from zonkcam.hardware.options import seed as seed_number
from zonkcam.vision.dice import Die, Reading
from zonkcam.vision.motion import RestDetector
from zonkcam.vision.sim.landing import NoRoom
from zonkcam.vision.sim.scoring import Score, score
from zonkcam.vision.sim.simulator import (
    FACE_OVERSIZE,
    SimConfig,
    Simulation,
    load_rune55_crops,
    unkind,
)
from zonkcam.vision.stream import ThrowStream
from zonkcam.vision.table import TableConfig


class TruthReader:
    """Reads the simulator's own scene description of the frame being fed: perfect reads."""

    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.index = 0

    def read(self, image: np.ndarray, table=None, size=None) -> Reading:
        spec = self.sim._frames[self.index]
        s = self.sim.size
        ox, oy = spec.offset
        dice = []
        for d in spec.dice:
            if d.status in ("under", "lost"):
                continue
            x, y, half = d.x + ox, d.y + oy, s * d.scale * 0.7
            box = (round(x - half), round(y - half), round(x + half), round(y + half))
            dice.append(Die(None if d.status == "cocked" else d.value, d.color, 1.0, 1.0, box,
                            (x, y), d.angle % 90, d.status))
        h, w = image.shape[:2]
        return Reading(w, h, dice, list(table or []), 0.0)


class FoundReader:
    """The recognizer, with each die it reads that lies on a die of the simulator's scene
    given that die's value: what the stream makes of real faces when every face is read
    right (dice missed, proposed twice, cocked, stacked or off the table stay the
    recognizer's). Separates the live layer's misses from the classifier's."""

    def __init__(self, sim: Simulation, reader) -> None:
        self.sim, self.reader = sim, reader
        self.index = 0

    def read(self, image: np.ndarray, *args, **kwargs) -> Reading:
        reading = self.reader.read(image, *args, **kwargs)
        return replace(reading, dice=[self._valued(d) for d in reading.dice])

    def read_at(self, *args, **kwargs) -> list[Die]:
        return [self._valued(d) for d in self.reader.read_at(*args, **kwargs)]

    def _valued(self, die: Die) -> Die:
        if die.status not in ("ok", "unreadable", "stacked", "off_table"):
            return die
        spec = self.sim._frames[self.index]
        ox, oy = spec.offset
        near = [(float(np.hypot(die.center[0] - d.x - ox, die.center[1] - d.y - oy)), d)
                for d in spec.dice if d.status in ("ok", "stacked", "off_table")]
        gap, d = min(near, key=lambda n: n[0], default=(np.inf, None))
        if gap > 0.5 * self.sim.size:
            return die
        return replace(die, value=d.value, status="ok" if die.status == "unreadable" else die.status)


def motion_fps(frames: list[np.ndarray]) -> float:
    detector = RestDetector()
    for i, f in enumerate(frames[:10]):
        detector.update(f, i / 30)
    start = time.perf_counter()
    for i, f in enumerate(frames):
        detector.update(f, (i + 10) / 30)
    return len(frames) / (time.perf_counter() - start)


def make_reader(kind: str, sim: Simulation, model: str | None = None):
    if kind == "truth":
        return TruthReader(sim)
    if kind == "found":
        return FoundReader(sim, make_reader("model", sim, model))
    if kind == "drawn":
        from zonkcam.vision.sim.reader import DrawnDiceReader

        return DrawnDiceReader()
    from zonkcam.models.registry import Registry
    from zonkcam.vision.read import Reader

    return Reader(model or Registry().active_path(), overhead=True)


def held_out_crops(seed: int, die_px: int = SimConfig().die_px) -> dict[int, list[np.ndarray]] | None:
    """Die faces from rune55's held-out photo groups, or None when rune55 is absent."""
    from zonkcam.models.rune55 import datasets_root, group_split

    root = datasets_root() / "rune55"
    if not (root / "groups.csv").exists():
        print(f"rune55 not found at {root}: drawn dice", file=sys.stderr)
        return None
    images = [item.image for item in group_split(root, "heldout")]
    crops = load_rune55_crops(root, np.random.default_rng(seed), images=images,
                              min_side=FACE_OVERSIZE * die_px)
    print(f"dice: faces cut from rune55's held-out groups ({sum(map(len, crops.values()))} "
          f"crops)", file=sys.stderr)
    return crops


def audited_crops(seed: int, die_px: int = SimConfig().die_px) -> dict[int, list[np.ndarray]] | None:
    """Die faces of the audited held-out photos' legible dice only (labels corrected), or None
    when rune55 is absent: the held-out pool holds faces labelled wrong (a ring-pip die showing
    one ring, labelled 5), which score the reader against a wrong truth."""
    from zonkcam.models.rune55 import datasets_root
    from zonkcam.models.rune55_audit import audited_heldout

    root = datasets_root() / "rune55"
    if not (root / "groups.csv").exists():
        print(f"rune55 not found at {root}: drawn dice", file=sys.stderr)
        return None
    items = audited_heldout(root)
    crops = load_rune55_crops(root, np.random.default_rng(seed), images=[it.image for it in items],
                              min_side=FACE_OVERSIZE * die_px,
                              labels={it.image: it.dice for it in items})
    print(f"dice: faces cut from rune55's audited held-out photos ({sum(map(len, crops.values()))} "
          f"crops)", file=sys.stderr)
    return crops


def frame_size(text: str) -> tuple[int, int]:
    """WIDTHxHEIGHT, each 64..4096 px."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not WIDTHxHEIGHT: {text!r}") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"{text}: each side 64 to 4096 px")
    return w, h


def _seeds(text: str) -> set[int]:
    try:
        return {int(s) for s in text.split(",")}
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of seeds: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=bounded(1, 10_000), default=20)
    parser.add_argument("--throws", type=bounded(1, 1_000), default=12)
    parser.add_argument("--first-seed", type=seed_number, default=1000)
    parser.add_argument("--reader", choices=("drawn", "model", "found", "truth"), default="drawn")
    parser.add_argument("--crops", choices=("auto", "none"), default="auto",
                        help="auto: rune55 held-out faces when present (model, found and "
                             "truth readers); none: drawn dice")
    parser.add_argument("--faces", choices=("heldout", "audited"), default="heldout",
                        help="rune55 held-out faces as labelled, or the audited held-out photos' "
                             "legible dice only, labels corrected (cli_path_eval's --faces)")
    parser.add_argument("--model", default=None, metavar="FILE",
                        help="the model file the model and found readers use (default: the "
                             "registry's active model): a candidate, without making it active")
    parser.add_argument("--motion-only", action="store_true")
    parser.add_argument("--unkind", action="store_true",
                        help="a dark tray, sleeves, holds after pick-ups, knocks, dice against "
                             "the wall (simulate.unkind)")
    parser.add_argument("--no-table", action="store_true",
                        help="no table file: the stream finds the region itself")
    camera = SimConfig()
    parser.add_argument("--die-px", type=bounded(12, 200), default=camera.die_px,
                        help=f"the dice's side in the frame, px (default {camera.die_px})")
    parser.add_argument("--fps", type=bounded_float(5, 120), default=camera.fps,
                        help=f"the camera's frame rate (default {camera.fps:g})")
    parser.add_argument("--frame", type=frame_size, default=(camera.width, camera.height),
                        metavar="WxH", help=f"the frame's size (default {camera.width}x{camera.height})")
    parser.add_argument("--verbose", action="store_true", help="print each miss to stderr")
    parser.add_argument("--only", type=_seeds, default=None, metavar="SEED,...",
                        help="run only these games of the set (the faces are still cut as for "
                             "the whole set, from --first-seed): one game's misses again")
    args = parser.parse_args(argv)
    if args.model is not None and not Path(args.model).is_file():
        parser.error(f"--model {args.model}: no such model file")  # one line, not a traceback
    cv2.setNumThreads(1)

    def config(seed: int, throws: int) -> SimConfig:
        plain = SimConfig(seed=seed, throws=throws, die_px=args.die_px, fps=args.fps,
                          width=args.frame[0], height=args.frame[1])
        return unkind(plain) if args.unkind else plain

    try:
        sample = Simulation(config(args.first_seed, 3))
    except NoRoom as e:
        parser.error(f"--die-px {args.die_px} on a {args.frame[0]}x{args.frame[1]} frame: "
                     f"the simulator's {e}")
    frames = [f for _, f in sample.frames()][:300]
    fps = motion_fps(frames)
    if args.motion_only:
        print(json.dumps({"motion_fps_640x480": round(fps, 1)}))
        return 0

    pool = held_out_crops if args.faces == "heldout" else audited_crops
    crops = pool(args.first_seed, args.die_px) if args.crops == "auto" and args.reader != "drawn" else None
    total = Score()
    reads_ms: list[float] = []
    seeds = [args.first_seed + g for g in range(args.games)]
    skipped: list[int] = []
    for g, seed in enumerate(seeds):
        if args.only is not None and seed not in args.only:
            continue
        try:
            sim = Simulation(config(seed, args.throws), crops=crops)
        except NoRoom as e:  # dice too big even for a bigger tray (--die-px 200): no game
            print(f"game {g + 1}/{args.games} seed {seed}: skipped, the simulator's {e}", file=sys.stderr)
            skipped.append(seed)
            continue
        region = sim.truth["table"]
        table = None if args.no_table else \
            TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])
        reader = make_reader(args.reader, sim, args.model)
        stream = ThrowStream(reader, table, dice_count=sim.config.dice)
        events = []
        for i, (t, frame) in enumerate(sim.frames()):
            if isinstance(reader, TruthReader | FoundReader):
                reader.index = i
            event = stream.feed(frame, t)
            if event is not None:
                events.append(event)
        result = score(events, sim.truth)
        total.add(result)
        reads_ms += stream.stats.read_ms
        print(f"game {g + 1}/{args.games} seed {sim.config.seed}: {result.exact}/"
              f"{result.throws} exact, {result.phantoms} phantom", file=sys.stderr)
        if args.verbose:
            for miss in result.misses:
                print("   ", miss, file=sys.stderr)
    out = dict(total.to_json(), reader=args.reader, games=args.games, unkind=args.unkind,
               table="found by the stream" if args.no_table else "given",
               dice=f"rune55 {args.faces} faces" if crops else "drawn",
               seeds=[args.first_seed, args.first_seed + args.games - 1],
               camera=f"{args.frame[0]}x{args.frame[1]}, {args.fps:g} fps, {args.die_px}-px dice",
               only=sorted(args.only) if args.only else None, skipped=skipped, model=args.model,
               read_ms_median=round(float(np.median(reads_ms)), 1) if reads_ms else None,
               motion_fps_640x480=round(fps, 1))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
