"""`zonkcam calibrate`'s region against the simulator's true floor, at every frame size.

For each seed, surface (a dark tray as issue 34's unkind table, a tray, a mat) and frame size,
the first frame of a simulated game is calibrated (`find_table`, `region_warnings`) and its
region compared with the true floor by intersection over union. A region under 0.9 of it is
bad; a bad region with no warning is the failure that matters (dice off the tray not SPAZ, or
dice on it SPAZ, with nothing said). `--noise` adds a camera's noise (grey levels, one sigma).

    python benchmarks/calibrate_eval.py --first-seed 83000 --seeds 12 --noise 10
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict

import numpy as np
from cli_path_eval import iou
from zonkcam.hardware.options import seed as seed_number
from zonkcam.vision.sim.simulator import SimConfig, Simulation, unkind
from zonkcam.vision.table import find_table, region_warnings

SIZES = {"640x480": (640, 480, 34), "1280x720": (1280, 720, 56), "1920x1080": (1920, 1080, 80)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first-seed", type=seed_number, default=82000)
    ap.add_argument("--seeds", type=int, default=12)
    ap.add_argument("--noise", type=float, default=0.0, help="camera noise, grey levels (default: 0)")
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--json", metavar="FILE", help="write every case here")
    args = ap.parse_args()
    if unknown := set(args.sizes.split(",")) - set(SIZES):
        ap.error(f"--sizes: {', '.join(sorted(unknown))} not among {', '.join(SIZES)}")
    cases = []
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for surface in ("dark", "tray", "mat"):
            for size in args.sizes.split(","):
                w, h, die = SIZES[size]
                config = SimConfig(seed=seed, throws=1, width=w, height=h, die_px=die, surface=surface)
                sim = Simulation(unkind(config) if surface == "dark" else config)
                frame = next(iter(sim.frames()))[1]
                if args.noise:
                    noise = np.random.default_rng(seed).normal(0, args.noise, frame.shape)
                    frame = np.clip(frame + noise, 0, 255).astype(np.uint8)
                found = find_table(frame)
                cases.append({"seed": seed, "surface": surface, "size": size,
                              "iou": round(iou(found, sim.truth["table"]["polygon"], (w, h)), 3),
                              "warnings": region_warnings(found, (w, h), frame)})
    groups = defaultdict(list)
    for case in cases:
        groups[(case["surface"], case["size"])].append(case)
    print(f"seeds {args.first_seed}-{args.first_seed + args.seeds - 1}, noise {args.noise:g}")
    print("| surface | frame | mean IoU | bad (< 0.9) | bad, no warning | good, warned |")
    print("|---|---|---|---|---|---|")
    for (surface, size), group in sorted(groups.items()):
        bad = [c for c in group if c["iou"] < 0.9]
        print(f"| {surface} | {size} | {np.mean([c['iou'] for c in group]):.3f} | {len(bad)} | "
              f"{sum(not c['warnings'] for c in bad)} | "
              f"{sum(c['iou'] >= 0.9 and bool(c['warnings']) for c in group)} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(cases, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
