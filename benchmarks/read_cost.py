"""What a read of a camera still costs, and where the time goes (issue 36: read ÷ decode ≤ 1.0
on an 8 MP still).

    python benchmarks/read_cost.py [--count N] [--sizes 40,60,100] [--dice 6] [--touching N]
                                   [--pi-tray N] [--parts] [--model M]

Draws 8 MP (3280x2464) stills of `--dice` dice of each size (`vision.sim.drawn`, four tables),
and with `--touching N` also N of `scale_eval`'s `touching` proxy (rune55 dice 60-120 px pushed
together on a dark tray; needs ../shared/datasets/rune55), with `--pi-tray N` N of its `pi-tray`
proxy (`benchmarks/pi_tray.py`: 5-8 rune55 dice of one size, 80-140 px, pairs touching, on the
Pi camera's 8 MP dark tray, the still the issue's target was set on; dice cut from the first
`POOL` `tune` photos), reads each once to warm up and then timed, and prints per kind of
still: read ÷ JPEG decode (median of the stills' ratios) in CPU time (`time.process_time`)
and in wall time, the read's median CPU ms, the whole views shrunk (their sides; "regions":
the focus's), the proposer's calls and the megapixels it saw, classifier calls and crops, and
the share of the read spent in each stage (shrinking the still, the proposer, cutting crops,
the classifier, the rest). The decode and the read run in this one process on one thread
(onnxruntime, OpenCV and OMP), each still's decode the median of `DECODES`: on a shared
machine CPU time is the steadier figure (wall time counts the waits for a core), and one
decode timed alone moved its ratio by up to 30 %.
No wall-clock figure here is a test: the tests count passes (tests/test_vision_cost.py).
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread, as the reader's onnxruntime

import argparse
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import cv2
import numpy as np
from zonkcam.hardware.options import bounded, bounded_float, seed
from zonkcam.vision import read as read_module
from zonkcam.vision.model import ModelError
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.drawn import render_scene

STILL = (3280, 2464)
DECODES = 5  # each still's JPEG decode timed this many times, the median taken
POOL = 60  # `--pi-tray`: the `tune` photos its dice are cut from


class Meter:
    """Counts and times the reader's costly leaves while installed (`metered`)."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = defaultdict(float)
        self.calls: Counter[str] = Counter()
        self.crops = 0
        self.pixels = 0  # the proposer's input, summed
        self.sides: list[int] = []  # the sides of the whole views shrunk

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.ms[name] += (time.perf_counter() - t0) * 1000
                self.calls[name] += 1
        return timed


@contextmanager
def metered(reader: Reader, meter: Meter) -> Iterator[None]:
    """The reader's shrinking, proposer, crop cutting and classifier timed into `meter`."""
    model = reader.model
    propose, classify, look = model.propose, model.classify, reader.look
    shrink = read_module.proposer_input

    def counted_propose(grey01: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        meter.pixels += grey01.size
        return propose(grey01)

    def counted_classify(crops: np.ndarray) -> np.ndarray:
        meter.crops += len(crops)
        return classify(crops)

    def counted_shrink(image: np.ndarray, side: int, *rest: Any) -> Any:
        meter.sides.append(side)
        return shrink(image, side, *rest)

    model.propose = meter.wrap("proposer", counted_propose)  # type: ignore[method-assign]
    model.classify = meter.wrap("classifier", counted_classify)  # type: ignore[method-assign]
    reader.look = meter.wrap("crops", look)  # type: ignore[method-assign]
    read_module.proposer_input = meter.wrap("shrink", counted_shrink)  # type: ignore[assignment]
    try:
        yield
    finally:
        model.propose, model.classify = propose, classify  # type: ignore[method-assign]
        del reader.look
        read_module.proposer_input = shrink


def drawn_stills(count: int, size: float, dice: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    kinds = ("felt", "wood", "paper", "dark")
    return [render_scene(rng, *STILL, n=dice, size=size, kind=kinds[i % 4])[0]
            for i in range(count)]


def touching_stills(count: int, seed: int) -> list[np.ndarray]:
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from scale_eval import touching  # a benchmark beside this one
    from zonkcam.models.rune55 import datasets_root, group_split

    root = datasets_root() / "rune55"
    if not (root / "groups.csv").is_file():
        print(f"read_cost: --touching {count} skipped: no rune55 at {root} (set ZONKCAM_DATASETS "
              "to the folder holding rune55, or put shared/ beside the checkout)", file=sys.stderr)
        return []
    items = [it for it in group_split(root, "tune") if len(it.dice)]
    rng = np.random.default_rng(seed)
    out = []
    for it in items[:count]:
        image = cv2.imread(str(it.image))
        if image is not None:
            out.append(touching(image, it.dice, rng)[0])
    if len(out) < count:
        print(f"read_cost: --touching {count}: {len(out)} stills made ({root}: "
              f"{len(items)} tune photos with dice, {min(count, len(items)) - len(out)} unreadable)",
              file=sys.stderr)
    return out


def pi_tray_stills(count: int, seed: int) -> list[np.ndarray]:
    """`count` of `scale_eval`'s `pi-tray` stills, their dice cut from the `tune` photos."""
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    import pi_tray  # benchmarks beside this one
    from scale_eval import cut_pool
    from zonkcam.models.rune55 import datasets_root, group_split

    root = datasets_root() / "rune55"
    if not (root / "groups.csv").is_file():
        print(f"read_cost: --pi-tray {count} skipped: no rune55 at {root}", file=sys.stderr)
        return []
    pool = cut_pool([it for it in group_split(root, "tune") if len(it.dice)][:POOL])
    rng = np.random.default_rng(seed)
    return [pi_tray.rune55_still(pool, rng)[0] for _ in range(count)] if pool else []


def timed(f: Callable[[], Any]) -> tuple[float, float]:
    """CPU and wall seconds of one call of `f`."""
    c0, w0 = time.process_time(), time.perf_counter()
    f()
    return time.process_time() - c0, time.perf_counter() - w0


def measure(reader: Reader, stills: list[np.ndarray]) -> dict[str, Any]:
    ratios, wall_ratios, reads, metered_ms = [], [], [], []
    meter = Meter()
    for still in stills:
        encoded = cv2.imencode(".jpg", still, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
        reader.read(still)  # warm up (caches, the allocator)
        decodes = [timed(partial(cv2.imdecode, encoded, cv2.IMREAD_COLOR)) for _ in range(DECODES)]
        cpu, wall = timed(partial(reader.read, still))
        reads.append(cpu * 1000)
        ratios.append(cpu / float(np.median([c for c, _ in decodes])))
        wall_ratios.append(wall / float(np.median([w for _, w in decodes])))
        with metered(reader, meter):  # the shares: of this read's wall time
            metered_ms.append(reader.read(still).elapsed_ms)
    n = len(stills)
    total = sum(metered_ms)
    shares = {k: v / total for k, v in meter.ms.items()}
    shares["rest"] = 1 - sum(shares.values())
    return {"stills": n, "ratio": float(np.median(ratios)),
            "wall_ratio": float(np.median(wall_ratios)), "read_ms": float(np.median(reads)),
            "proposer_calls": meter.calls["proposer"] / n, "proposer_mp": meter.pixels / n / 1e6,
            "views": Counter(meter.sides),
            "classifier_calls": meter.calls["classifier"] / n, "crops": meter.crops / n,
            "shares": shares}


def parts(reader: Reader, still: np.ndarray) -> None:
    """The cost of each part of a proposal of a still, by the view's side: shrinking the whole
    still to it (area-averaged, as `proposer_input` does from a quarter up; bilinear), and the
    proposer on it; and the JPEG decode of the still (medians of 5, ms)."""
    def ms(f: Callable[[], Any]) -> float:
        f()
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            f()
            runs.append((time.perf_counter() - t0) * 1000)
        return float(np.median(runs))

    encoded = cv2.imencode(".jpg", still, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
    print(f"decode {ms(lambda: cv2.imdecode(encoded, cv2.IMREAD_COLOR)):.1f} ms")
    h, w = still.shape[:2]
    print("| side | shrink, area | shrink, bilinear | proposer |\n|---|---|---|---|")
    for side in (320, 640, 1280, 2560):
        size = (round(w * side / max(h, w)), round(h * side / max(h, w)))
        grey01 = read_module.proposer_input(still, side)[0]
        area = ms(lambda s=size: cv2.resize(still, s, interpolation=cv2.INTER_AREA))
        linear = ms(lambda s=size: cv2.resize(still, s, interpolation=cv2.INTER_LINEAR))
        propose = ms(lambda g=grey01: reader.model.propose(g))
        print(f"| {side} | {area:.1f} | {linear:.1f} | {propose:.1f} |")


def die_sides(text: str) -> list[float]:
    """An argparse type: drawn dice's sides, px, comma-separated (8 to 1000 each)."""
    parse = bounded_float(8, 1000)
    return [parse(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=bounded(0, 1000), default=6, help="drawn stills of each size")
    ap.add_argument("--sizes", type=die_sides, default="40,60,100", help="drawn dice's sides, px")
    ap.add_argument("--dice", type=bounded(1, 60), default=6)
    ap.add_argument("--touching", type=bounded(0, 1000), default=0, help="touching-proxy stills (rune55)")
    ap.add_argument("--pi-tray", type=bounded(0, 1000), default=0, help="pi-tray-proxy stills (rune55)")
    ap.add_argument("--seed", type=seed, default=36)
    ap.add_argument("--parts", action="store_true", help="also time each part of a proposal by side")
    ap.add_argument("--model", help="an .onnx model file (default: the shipped model)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        reader = Reader(args.model, threads=1)
    except ModelError as e:
        ap.error(str(e))
    if args.parts:
        parts(reader, drawn_stills(1, 100.0, args.dice, args.seed)[0])
    kinds = {f"drawn {s:g} px": drawn_stills(args.count, s, args.dice, args.seed) for s in args.sizes}
    if args.touching:
        kinds["touching 60-120 px"] = touching_stills(args.touching, args.seed)
    if args.pi_tray:
        kinds["pi-tray 80-140 px"] = pi_tray_stills(args.pi_tray, args.seed)
    print("| still | n | read ÷ decode, CPU (wall) | read CPU ms | whole views shrunk (sides) | "
          "proposer calls (MP) | classifier calls | crops | shrink | proposer | crops cut | "
          "classifier | rest |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, stills in kinds.items():
        if not stills:
            continue
        m = measure(reader, stills)
        views = m["views"]
        sides = ", ".join(f"{k}×{v / m['stills']:.1f}" for k, v in sorted(views.items())
                          if k in (320, 640, 1280, 2560))
        other = sum(v for k, v in views.items() if k not in (320, 640, 1280, 2560)) / m["stills"]
        sides += f", regions ×{other:.1f}" if other else ""
        sh = m["shares"]
        print(f"| {name} | {m['stills']} | {m['ratio']:.2f} ({m['wall_ratio']:.2f}) | "
              f"{m['read_ms']:.0f} | "
              f"{sum(views.values()) / m['stills']:.1f} ({sides}) | {m['proposer_calls']:.1f} "
              f"({m['proposer_mp']:.2f}) | {m['classifier_calls']:.1f} | {m['crops']:.0f} | "
              + " | ".join(f"{100 * sh.get(k, 0):.0f} %" for k in
                           ("shrink", "proposer", "crops", "classifier", "rest")) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
