"""The demo at play: minutes of simulated demo play through the real pipeline (demo camera ->
throw stream -> table app), as fast as the machine goes; prints one JSON line.

    python benchmarks/demo_eval.py --variant wheaton --minutes 5 --seed 1
    python benchmarks/demo_eval.py --model /tmp/cand/dice.onnx   # a model file, not the registry's

Issue 32's target: at least 80 % of the demo's settled throws scored (a SPAZ is scored), none
refused by the game; the demo's on-purpose SPAZ and cocked dice are counted apart.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from zonkcam.hardware.kiosk.demo import play_offline
from zonkcam.hardware.options import seed as seed_number
from zonkcam.models.registry import Registry
from zonkcam.rules.ruleset import RulesetError, load_variant
from zonkcam.vision.model import DiceModel, ModelError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="wheaton")
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--seed", type=seed_number, default=1)
    ap.add_argument("--model", type=Path, default=None, metavar="FILE",
                    help="the face model to read with (default: the registry's active model)")
    args = ap.parse_args(argv)
    try:
        ruleset = load_variant(args.variant)
    except RulesetError as exc:
        print(exc, file=sys.stderr)
        return 2
    model = args.model or Registry().active_path()
    try:
        DiceModel(model)  # a missing or broken file is named here, not in a traceback mid-game
    except ModelError as exc:
        print(exc, file=sys.stderr)
        return 2
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as root:
        app, player = play_offline(ruleset, Path(root), model, minutes=args.minutes, seed=args.seed)
    tally = app.tally
    processed = sum(tally.values())
    game = app.game
    print(json.dumps({
        "variant": args.variant, "seed": args.seed, "minutes": args.minutes, "model": str(model),
        "throws": player.throws, "processed": processed, **{k: tally[k] for k in
                                                           ("scored", "spaz", "unread", "refused")},
        "scored_rate": round((tally["scored"] + tally["spaz"]) / max(processed, 1), 3),
        "on_purpose": player.on_purpose,
        "banked_turns": sum(1 for r in game.turns if r.outcome == "banked" and r.points > 0),
        "wall_s": round(time.perf_counter() - start, 1),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main())
