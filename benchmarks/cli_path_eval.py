"""Issue 34's measurement as its tester made it: through the commands a user runs.

For each seed an unkind game on a dark tray is written as an .mp4 (so the frames are
compressed, as a camera's are), with rune55's held-out faces when rune55 is present; then

    zonkcam calibrate GAME.mp4 -o table.json
    zonkcam replay GAME.mp4 --json                       # no table file
    zonkcam replay GAME.mp4 --json --table table.json    # calibrate's table file

run as separate processes with the active model, and each replay is scored against the
simulator's truth as `live_eval.py` scores the stream (exact throws, phantoms, false SPAZ,
recalls). calibrate's region is compared with the true floor (intersection over union) and its
warnings are counted. Seeds are fresh only once: say which you tuned on.

    python benchmarks/cli_path_eval.py --first-seed 80000 --games 3 --throws 8 --keep /tmp/cli
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from live_eval import audited_crops, frame_size, held_out_crops
from zonkcam.hardware.options import seed as seed_number
from zonkcam.vision.sim.scoring import Score, score
from zonkcam.vision.sim.simulator import SimConfig, Simulation, unkind

ZONKCAM = [sys.executable, "-m", "zonkcam.hardware.cli"]


@dataclass(frozen=True)
class Reported:
    """One event of `zonkcam replay --json`, as `score` reads a ThrowEvent."""

    line: dict

    @property
    def frame(self) -> int:
        return int(self.line["frame"])

    @property
    def flags(self) -> list[str]:
        return list(self.line["flags"])

    @property
    def latency_ms(self) -> float:
        return float(self.line["latency_ms"])

    def to_json(self) -> dict:
        return self.line


def run(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([*ZONKCAM, *argv], capture_output=True, text=True, timeout=3600)


def replay(video: Path, *extra: str) -> list[Reported]:
    done = run("replay", str(video), "--json", *extra)
    if done.returncode != 0:
        raise SystemExit(f"replay {video} {' '.join(extra)}: exit {done.returncode}: {done.stderr.strip()}")
    lines = [json.loads(x) for x in done.stdout.splitlines() if x.strip()]
    return [Reported(x) for x in lines if "summary" not in x]


def iou(a: list, b: list, size: tuple[int, int]) -> float:
    """Intersection over union of two polygons drawn on a frame of `size` (w, h)."""
    masks = []
    for poly in (a, b):
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillPoly(mask, [np.array(poly, np.int32)], 1)
        masks.append(mask.astype(bool))
    union = (masks[0] | masks[1]).sum()
    return float((masks[0] & masks[1]).sum() / union) if union else 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--first-seed", type=seed_number, default=80000)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--throws", type=int, default=8)
    ap.add_argument("--faces", choices=("heldout", "audited"), default="heldout",
                    help="rune55 held-out faces as labelled (live_eval's), or the audited photos' legible "
                         "dice only")
    ap.add_argument("--size", type=frame_size, default=(640, 480), help="WIDTHxHEIGHT (default: 640x480)")
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--die-px", type=int, default=34, help="a die's side in pixels (default: 34)")
    ap.add_argument("--keep", metavar="DIR", help="keep the videos, tables and replays here")
    args = ap.parse_args()

    width, height = args.size
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="cli_path_"))
    folder.mkdir(parents=True, exist_ok=True)
    crops = held_out_crops(args.first_seed) if args.faces == "heldout" else \
        audited_crops(args.first_seed, args.die_px)
    totals = {"no table": Score(), "calibrated table": Score()}
    regions = []
    for seed in range(args.first_seed, args.first_seed + args.games):
        config = SimConfig(seed=seed, throws=args.throws, width=width, height=height, fps=args.fps,
                           die_px=args.die_px)
        sim = Simulation(unkind(config), crops=crops)
        video = folder / f"game{seed}.mp4"
        sim.write_video(video)
        sim.write_truth(folder / f"game{seed}.truth.json")
        table = folder / f"game{seed}.table.json"
        done = run("calibrate", str(video), "-o", str(table))
        warnings = [x for x in done.stderr.splitlines() if x.startswith("warning")]
        truth_region = sim.truth["table"]
        found = json.loads(table.read_text()) if table.is_file() else None
        overlap = iou(found["polygon"], truth_region["polygon"], tuple(truth_region["frame_size"])) \
            if found else 0.0
        regions.append((seed, overlap, warnings))
        for name, extra in (("no table", ()), ("calibrated table", ("--table", str(table)))):
            events = replay(video, *extra)
            (folder / f"game{seed}.{name.replace(' ', '_')}.jsonl").write_text(
                "".join(json.dumps(e.line) + "\n" for e in events))
            result = score(events, sim.truth)  # type: ignore[arg-type]  # Reported reads as a ThrowEvent
            totals[name].add(result)
            print(f"seed {seed} {name}: {result.exact}/{result.throws} exact, {result.phantoms} phantom, "
                  f"{result.false_spaz} false SPAZ", file=sys.stderr)
            for miss in result.misses:
                print("   ", miss, file=sys.stderr)
        print(f"seed {seed} calibrate: IoU {overlap:.3f} with the true floor, {len(warnings)} warnings"
              + "".join(f"\n    {w}" for w in warnings), file=sys.stderr)
    print(json.dumps({
        "seeds": [args.first_seed, args.first_seed + args.games - 1], "throws": args.throws,
        "frames": f"{width}x{height} at {args.fps:g} fps, dice {args.die_px} px",
        "dice": f"rune55 {args.faces} faces" if crops else "drawn", "folder": str(folder),
        "calibrate": [{"seed": s, "iou": round(o, 3), "warnings": len(w)} for s, o, w in regions],
        **{name: total.to_json() for name, total in totals.items()}}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
