"""What a Raspberry Pi (or any box) does with zonkcam's per-frame and per-throw work, one core.

    python benchmarks/pi_bench.py                # on the Pi: ~/.local/share/zonkcam/venv/bin/python
    python benchmarks/pi_bench.py --games 1 --json

Prints, with the machine it ran on:
- read ms: the shipped dice model (`Reader`, as the live stream calls it) on a 640x640 frame and
  on an 8 MP (3280x2464) frame, median and max over several reads;
- motion fps: the per-frame motion path (`RestDetector`) on 640x480 frames;
- live latency beyond the settle window: simulated games through `ThrowStream` with the real
  model, the time from the dice coming to rest (plus `settle_s`) to the throw being decided,
  reads included (docs/live.md).

Frames come from the throw simulator (drawn dice), so no dataset is needed. OpenCV and
onnxruntime are held to one thread, as `zonkcam play` runs them. Report the printed lines
with your Pi model, OS and cooling in an issue.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import cv2
import numpy as np
import onnxruntime
from zonkcam.hardware.options import seed as seed_number
from zonkcam.models.registry import Registry
from zonkcam.vision.motion import RestDetector
from zonkcam.vision.read import Reader
from zonkcam.vision.sim.simulator import SimConfig, Simulation
from zonkcam.vision.stream import ThrowStream
from zonkcam.vision.table import TableConfig

EIGHT_MP = (3280, 2464)  # Camera Module 2's full frame; Module 3's is 4608x2592 (12 MP)


def machine() -> str:
    """The board (a Pi names itself in the device tree) or the CPU, and the OS."""
    for path in ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model"):
        try:
            with open(path, "rb") as f:
                board = f.read().rstrip(b"\0").decode(errors="replace")
                break
        except OSError:
            continue
    else:
        board = _cpu_name() or platform.processor() or "unknown CPU"
    return f"{board}, {platform.machine()}, {platform.system()} {platform.release()}"


def _cpu_name() -> str | None:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def settled_frame(seed: int) -> np.ndarray:
    """A simulated table with dice at rest: the last frame of a one-throw game."""
    frames = [f for _, f in Simulation(SimConfig(seed=seed, throws=1, dice=6)).frames()]
    return frames[-1]


def time_reads(reader: Reader, image: np.ndarray, n: int) -> dict:
    dice = len(reader.read(image).dice)  # also the warm-up: onnxruntime's first run allocates
    times = []
    for _ in range(n):
        start = time.perf_counter()
        reader.read(image)
        times.append(1000 * (time.perf_counter() - start))
    return {"median": round(statistics.median(times), 1), "max": round(max(times), 1), "n": n,
            "dice": dice}


def motion_fps(seed: int, frames: int = 300) -> float:
    clip = [f for _, f in Simulation(SimConfig(seed=seed, throws=3)).frames()][:frames]
    detector = RestDetector()
    for i, f in enumerate(clip[:10]):
        detector.update(f, i / 30)
    start = time.perf_counter()
    for i, f in enumerate(clip):
        detector.update(f, (i + 10) / 30)
    return len(clip) / (time.perf_counter() - start)


def live_latency(reader: Reader, games: int, throws: int, first_seed: int) -> dict:
    latencies: list[float] = []
    decided = 0
    for g in range(games):
        sim = Simulation(SimConfig(seed=first_seed + g, throws=throws))
        region = sim.truth["table"]
        table = TableConfig(tuple(region["frame_size"]), [tuple(p) for p in region["polygon"]])
        stream = ThrowStream(reader, table, dice_count=sim.config.dice)
        for t, frame in sim.frames():
            if stream.feed(frame, t) is not None:
                decided += 1
        latencies += stream.stats.latency_ms
    return {"median_ms": round(statistics.median(latencies), 1) if latencies else None,
            "max_ms": round(max(latencies), 1) if latencies else None,
            "throws_decided": decided, "games": games, "seeds": [first_seed, first_seed + games - 1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reads", type=int, default=20, help="reads timed per 640x640 frame")
    parser.add_argument("--big-reads", type=int, default=5, help="reads timed per 8 MP frame")
    parser.add_argument("--games", type=int, default=3, help="simulated games for the latency")
    parser.add_argument("--throws", type=int, default=6, help="throws per game")
    parser.add_argument("--first-seed", type=seed_number, default=3800)
    parser.add_argument("--json", action="store_true", help="one JSON object only")
    args = parser.parse_args()
    cv2.setNumThreads(1)

    model = Registry().active_path()
    reader = Reader(model, threads=1, overhead=True)
    frame = settled_frame(args.first_seed)
    # 640x640: the 640x480 table padded (dice at their simulated 34 px); 8 MP: the same table
    # scaled up, dice some 170 px across (big enough that the reader skips its zoomed look)
    square = cv2.copyMakeBorder(frame, 80, 80, 0, 0, cv2.BORDER_REPLICATE)
    big = cv2.resize(frame, EIGHT_MP, interpolation=cv2.INTER_LINEAR)
    out = {
        "machine": machine(),
        "python": platform.python_version(),
        "onnxruntime": onnxruntime.__version__, "opencv": cv2.__version__, "numpy": np.__version__,
        "model": os.path.basename(str(model)),
        "read_ms_640x640": time_reads(reader, square, args.reads),
        "read_ms_3280x2464": time_reads(reader, big, args.big_reads),
        "motion_fps_640x480": round(motion_fps(args.first_seed), 1),
        "latency_beyond_settle": live_latency(reader, args.games, args.throws, args.first_seed),
    }
    if args.json:
        print(json.dumps(out))
        return 0
    lat = out["latency_beyond_settle"]
    print(f"machine      {out['machine']}")
    print(f"software     Python {out['python']}, onnxruntime {out['onnxruntime']}, "
          f"OpenCV {out['opencv']}, NumPy {out['numpy']}; model {out['model']}; one thread")
    for key, label in (("read_ms_640x640", "640x640"), ("read_ms_3280x2464", "3280x2464")):
        r = out[key]
        print(f"read         {label:<10} median {r['median']:7.1f} ms, max {r['max']:7.1f} ms "
              f"({r['n']} reads, {r['dice']} dice)")
    print(f"motion       {out['motion_fps_640x480']:.0f} frames/s at 640x480")
    print(f"live         latency beyond the settle window: median {lat['median_ms']} ms, "
          f"max {lat['max_ms']} ms ({lat['throws_decided']} throws, {lat['games']} simulated games)")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
