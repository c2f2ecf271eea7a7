"""The read time at 640² (issue 36: "read, 640², one core ≤ 10 ms median"), and where it goes.

    python benchmarks/read_time.py [--start 0] [--count 400] [--model M] [--drawn] [--passes]

`Reader.read` on rune55's held-out photos (640x640; the first `--count` of `group_split`'s
`heldout`, in its order, from `--start`) where `$ZONKCAM_DATASETS` has them, else on drawn
640x640 tables of 2-5 dice 100-220 px across (`--drawn` forces these). Timed in CPU time
(`time.process_time`, onnxruntime and OpenCV on one thread), since the machine may be shared:
wall time is the same on an idle core. Printed: pictures, median and 95th-percentile ms.
`--passes` also splits each picture's time among the reader's passes (wrapped, so the total
reads a little higher): the proposal at each side (320 px first; `x4`: the close-up's canvas),
the side looks (`sides.top_faces`), the close-up (`Reader._close_up`, with the views it asks
for, which are counted under their sides too), and naming each die (`Reader.die`: its colour),
with how many pictures made each.
Compare two trees by running each on the same pictures, interleaved (before 0-199, after 0-199,
before 200-399, ...), with the machine's load noted.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import cv2
import numpy as np
from zonkcam.vision import read as read_module
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.drawn import render_scene

SIDE = 640


def rune55_pictures(start: int, count: int) -> list[np.ndarray] | None:
    """rune55's held-out photos `start`..`start + count`, or None where the dataset is missing."""
    from zonkcam.models.rune55 import datasets_root, group_split

    root = datasets_root() / "rune55"
    if not (root / "groups.csv").is_file():
        return None
    items = group_split(root, "heldout")[start:start + count]
    pictures = [cv2.imread(str(item.image)) for item in items]
    return [p for p in pictures if p is not None]


def drawn_pictures(start: int, count: int) -> list[np.ndarray]:
    """Drawn 640x640 tables, seeds `start`..: 2-5 dice 100-220 px across."""
    out = []
    for seed in range(start, start + count):
        rng = np.random.default_rng(seed)
        kind = str(rng.choice(["felt", "wood", "paper", "dark"]))
        image, _ = render_scene(rng, SIDE, SIDE, n=int(rng.integers(2, 6)),
                                size=float(rng.uniform(100, 220)), kind=kind)
        out.append(image)
    return out


class Passes:
    """CPU time and calls of the reader's passes, by name, while installed on a reader."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = defaultdict(float)
        self.pictures: dict[str, set[int]] = defaultdict(set)
        self.picture = 0

    def timed(self, name: str | Callable[..., str], fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            key = name(*args, **kwargs) if callable(name) else name
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                self.ms[key] += (time.process_time() - start) * 1000
                self.pictures[key].add(self.picture)
        return wrapper

    @contextmanager
    def installed(self, reader: Reader) -> Iterator[None]:
        """The reader's passes timed (on this reader; `sides.top_faces` on every reader) while
        in the block."""
        def view(image: np.ndarray, side: int, size: float | None, canvas: int = 1,
                 *args: Any, **kwargs: Any) -> str:
            return f"proposal at {side} px" + (f" x{canvas}" if canvas > 1 else "")

        top_faces = read_module.sides.top_faces
        reader._candidates_at = self.timed(view, reader._candidates_at)  # type: ignore[method-assign]
        reader._close_up = self.timed("close-up (with its views)", reader._close_up)  # type: ignore[method-assign]
        reader.die = self.timed("naming dice (Reader.die)", reader.die)  # type: ignore[method-assign]
        read_module.sides.top_faces = self.timed("side looks (sides.top_faces)", top_faces)  # type: ignore[attr-defined]
        try:
            yield
        finally:
            read_module.sides.top_faces = top_faces  # type: ignore[attr-defined]
            for name in ("_candidates_at", "_close_up", "die"):
                vars(reader).pop(name, None)

    def rows(self, pictures: int) -> Iterator[str]:
        for key in sorted(self.ms, key=lambda k: -self.ms[k]):
            yield (f"  {key}: {self.ms[key] / pictures:.2f} ms a picture "
                   f"({len(self.pictures[key])} of {pictures} pictures)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--model", help="an .onnx model file (default: the shipped model)")
    ap.add_argument("--drawn", action="store_true", help="drawn tables, even where rune55 is here")
    ap.add_argument("--passes", action="store_true", help="split the time among the passes")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    pictures = None if args.drawn else rune55_pictures(args.start, args.count)
    source = "rune55 held-out photos"
    if pictures is None:
        pictures, source = drawn_pictures(args.start, args.count), "drawn 640x640 tables"
    if not pictures:
        raise SystemExit("read_time: no pictures")
    reader = Reader(args.model, threads=1)
    reader.read(pictures[0])  # the first run's setup is no picture's
    passes = Passes()
    times = []
    with passes.installed(reader) if args.passes else nullcontext():
        for k, image in enumerate(pictures):
            passes.picture = k
            start = time.process_time()
            reader.read(image)
            times.append((time.process_time() - start) * 1000)
    times.sort()
    print(f"read_time: {source} {args.start}-{args.start + len(pictures)}, {len(pictures)} "
          f"pictures, CPU ms one thread: median {statistics.median(times):.2f}, "
          f"p95 {times[min(len(times) - 1, int(0.95 * len(times)))]:.1f}, "
          f"mean {statistics.fmean(times):.2f}")
    if args.passes:
        print(f"where it goes (passes wrapped; ms a picture, of all {len(pictures)}):")
        for row in passes.rows(len(pictures)):
            print(row)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
