"""How a model reads dice whose pips are not drawn the usual way (other people's sets).

    python benchmarks/pip_styles.py [--model M] [--count 300] [--seed 11]

Draws `--count` single dice per style (`vision.sim.drawn`, a random body colour on felt, wood,
paper or a dark floor, any angle) in the patches the reader cuts, reads them with the
classifier alone (the reader's reject threshold, no second look) and prints per style the share
read right, the share rejected as "not a die" and the ones read right. The styles are real
sets' (`vision.sim.drawn.Pips`): small or big pips, set wide or tight, pips as rings, a big one
pip (a third of the face across), a big red one on a light die, a ring round the one. The
training recipe draws pips this way too (`models.crops.varied_pips`), but from its own random
stream: a fixed set of styles, not its draws.
"""
from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np
from zonkcam.hardware.options import seed as seed_number
from zonkcam.models.crops import reader_crops
from zonkcam.vision.faces import PATCH, PATCH_MARGIN
from zonkcam.vision.model import DiceModel, ModelError
from zonkcam.vision.sim.drawn import BODY_BGR, RED_PIP, DrawnDie, Pips, background, draw_die

STYLES = {
    "default": Pips(),
    "small pips": Pips(radius=0.06),
    "big pips": Pips(radius=0.12),
    "wide": Pips(spread=0.31),
    "tight": Pips(spread=0.22),
    "rings": Pips(radius=0.1, ring=0.035),
    "big one": Pips(one_radius=0.17),
    "big red one": Pips(one_radius=0.15, one_bgr=RED_PIP),
    "ringed one": Pips(one_ring=0.14),
}


def patches(pips: Pips, count: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """`count` grey patches of one die each (values 1-6 at random) drawn with `pips`."""
    side = PATCH / PATCH_MARGIN
    out, values = [], []
    for i in range(count):
        image = background(rng, PATCH, PATCH, ("felt", "wood", "paper", "dark")[i % 4])
        # a red one shows on a light body only
        bodies = ["white", "yellow"] if pips.one_bgr else list(BODY_BGR)
        value = int(rng.integers(1, 7))
        draw_die(image, DrawnDie(value, str(rng.choice(bodies)), PATCH / 2, PATCH / 2,
                                 side * rng.uniform(0.92, 1.05), rng.uniform(0, 90)), pips=pips)
        image = cv2.GaussianBlur(image, (0, 0), rng.uniform(0.3, 1.0))
        out.append(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        values.append(value)
    return np.stack(out), np.array(values)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", help="an .onnx model file (default: the shipped model)")
    ap.add_argument("--count", type=int, default=300, help="dice per style (1 or more)")
    ap.add_argument("--seed", type=seed_number, default=11)
    args = ap.parse_args()
    if args.count < 1:
        ap.error(f"--count {args.count}: give 1 or more dice a style")
    try:
        model = DiceModel(args.model)
    except ModelError as exc:
        print(f"pip_styles: {exc}", file=sys.stderr)
        return 2
    reject = model.reject_threshold if model.reject_threshold is not None else 0.3
    print(f"{model.path}: {args.count} drawn dice a style, the classifier alone "
          f"(reject at {reject})")
    print("| style | read right | rejected | ones read right |")
    print("|---|---|---|---|")
    for name, pips in STYLES.items():
        faces, values = patches(pips, args.count, np.random.default_rng(args.seed))
        probs = model.classify(reader_crops(faces, model.crop, model.crop_margin))
        read = np.where(probs[:, 0] >= reject, 0, np.argmax(probs[:, 1:], 1) + 1)
        right = read == values
        ones = right[values == 1]
        print(f"| {name} | {right.mean():.3f} | {(read == 0).mean():.3f} | "
              f"{f'{ones.mean():.3f}' if len(ones) else '— (no ones drawn)'} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
