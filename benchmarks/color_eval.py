"""Colour naming, per colour (issue 36): drawn dice of many looks under many lights, and byler's
real photos where ../shared is present.

    .venv/bin/python benchmarks/color_eval.py [--per 60] [--byler ../shared/datasets/byler]

Each die is measured as the reader measures it (`colors.body_lab` on the face patch at the
die's true place and size, white balance from the whole picture) and named:
- default palette: drawn dice of every palette colour, opaque, translucent and marbled, on
  four tables, under a colour cast of ±15 % per channel and exposure 0.75-1.2;
- calibrated sets: three tables' own sets (translucent casino dice, ivory/white/yellow,
  marbled and purple) measured as `calibrate-dice` does (a row of each colour three times, the
  median body and the bodies' two modes of each, `calibrate.from_bodies`; the table's light;
  five such calibrations, the throws shared among them),
  then thrown under that light give or take 10 % exposure and 4 % cast;
- the same sets through the whole reader (`--through-reader`): each row calibrated as
  `zonkcam calibrate-dice` does it (`calibrate.calibrate`, the reader's boxes, saved and loaded
  as a dice-set file), each throw read by a reader given that file; dice it misses not counted;
- byler (real photos, colours from benchmarks/byler_colors.csv): the default palette, and a
  set calibrated on the even photos (as calibrate-dice: the median body and the modes of each
  colour), named on the odd ones; `--swap`: calibrated on the odd photos, named on the even.
  `--byler-set OUT` saves that set and the odd photos' names, for the whole reader:
  zonkcam eval ../shared/datasets/byler/train --colors benchmarks/byler_colors.csv \
      --dice-set OUT --files OUT.odd.txt
  byler's "white" is white or ivory (its labels' own definition), so the default palette's
  "ivory" counts right for it; the line after each default-palette table says how many
  (the strict figure, ivory wrong, is that less them).
A die not named (its colour unreadable) counts as wrong.
"""
from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np
from zonkcam.hardware.options import seed as seed_number
from zonkcam.vision.calibrate import from_bodies
from zonkcam.vision.colors import DiceSet, body_lab, white_balance_gains
from zonkcam.vision.evaluate import load_colors, match
from zonkcam.vision.faces import patch_at
from zonkcam.vision.sim.colour_dice import DieLook, draw_look, lit
from zonkcam.vision.sim.drawn import background

HERE = Path(__file__).resolve().parent
BYLER = HERE.parent.parent / "shared" / "datasets" / "byler"
TABLES = ("felt", "wood", "paper", "dark")
RETRIES = 8
ROW_TIMES = 2  # through the reader, each colour twice in the row: 18 dice ~48 px were 15-20 dice
CALIBRATIONS = 5  # each set calibrated this many times (new dice rows), its throws shared out
PALETTE_NAME = {"navy": "blue", "plum": "purple"}  # byler's own names, as the palette has them
EITHER = {"white": ("white", "ivory")}  # byler's white is white or ivory (byler_colors.csv)
DARK_PIPS = (25, 25, 25)
WHITE = DieLook("white", (236, 236, 232), pip_rgb=DARK_PIPS)
IVORY = DieLook("ivory", (236, 224, 196), pip_rgb=DARK_PIPS)
PALETTE_LOOKS = [
    WHITE, IVORY,
    DieLook("yellow", (235, 205, 40), pip_rgb=DARK_PIPS), DieLook("orange", (235, 115, 30)),
    DieLook("red", (190, 30, 40)), DieLook("red", (200, 20, 30), "translucent"),
    DieLook("maroon", (110, 35, 50), "marbled", swirl_rgb=(60, 20, 30)), DieLook("pink", (240, 125, 170)),
    DieLook("purple", (95, 45, 130)), DieLook("purple", (120, 40, 170), "translucent"),
    DieLook("blue", (35, 70, 170)), DieLook("blue", (20, 60, 200), "translucent"),
    DieLook("teal", (20, 130, 125)), DieLook("green", (40, 140, 70)),
    DieLook("green", (30, 170, 70), "translucent"), DieLook("brown", (125, 80, 40), "marbled",
                                                             swirl_rgb=(200, 160, 80)),
    DieLook("grey", (140, 140, 140)), DieLook("black", (35, 35, 38)),
]
CALIBRATED_SETS = {  # a table, its light (BGR gains, exposure), its dice
    "casino": ("felt", (1.0, 1.0, 1.0), 1.0, [
        DieLook("red", (210, 20, 30), "translucent"), DieLook("blue", (20, 60, 210), "translucent"),
        DieLook("green", (30, 170, 70), "translucent"), DieLook("purple", (120, 40, 170), "translucent"),
        WHITE, DieLook("black", (35, 35, 38))]),
    "ivory": ("wood", (0.9, 1.0, 1.1), 0.9, [  # a warm lamp
        WHITE, IVORY,
        DieLook("yellow", (235, 205, 40), pip_rgb=DARK_PIPS), DieLook("orange", (235, 115, 30)),
        DieLook("red", (190, 30, 40)), DieLook("brown", (125, 80, 40), "marbled", swirl_rgb=(200, 160, 80))]),
    "marbled": ("dark", (1.1, 1.0, 0.92), 1.1, [  # a cool light on a dark tray
        DieLook("purple", (95, 45, 130), "marbled", swirl_rgb=(230, 230, 230)),
        DieLook("blue", (35, 70, 170), "marbled", swirl_rgb=(20, 20, 20)),
        DieLook("pink", (240, 125, 170)),
        DieLook("teal", (20, 130, 125), "marbled", swirl_rgb=(200, 230, 220)),
        DieLook("grey", (140, 140, 140)), DieLook("maroon", (110, 35, 50), "translucent")]),
}


def throw(rng: np.random.Generator, looks: list[DieLook], table: str, gains: tuple[float, ...],
          exposure: float, size: float) -> tuple[np.ndarray, list[tuple[DieLook, float, float]]]:
    """One picture of `looks` in a row (apart, turned at random) and where each lies."""
    w, h = int(size * 1.7 * len(looks) + size), int(size * 2.6)
    image = background(rng, w, h, table)
    placed = []
    for i, look in enumerate(looks):
        cx, cy = size + i * 1.7 * size + rng.uniform(-0.2, 0.2) * size, h / 2 + rng.uniform(-0.3, 0.3) * size
        draw_look(image, look, int(rng.integers(1, 7)), cx, cy, size, rng.uniform(0, 90), rng)
        placed.append((look, cx, cy))
    return lit(image, gains, exposure, rng), placed


def measured(image: np.ndarray, placed, size: float) -> list[tuple[str, np.ndarray]]:
    gains = white_balance_gains(image)
    return [(look.name, body_lab(patch_at(image, cx, cy, size), gains)) for look, cx, cy in placed]


def tally(rows: list[tuple[str, str, str | None]]) -> dict[str, tuple[int, int, Counter]]:
    out: dict[str, tuple[int, int, Counter]] = {}
    for key, truth, got in rows:
        n, ok, wrong = out.get(key, (0, 0, Counter()))
        out[key] = (n + 1, ok + (got == truth), wrong + (Counter() if got == truth else Counter([got])))
    return out


def report(title: str, rows: list[tuple[str, str, str | None]]) -> None:
    t = tally(rows)
    n, ok = sum(v[0] for v in t.values()), sum(v[1] for v in t.values())
    print(f"\n{title}: {ok}/{n} = {ok / max(n, 1):.3f}")
    for key, (k, right, wrong) in sorted(t.items()):
        misses = ", ".join(f"{name or 'unnamed'} {c}" for name, c in wrong.most_common(3))
        print(f"  {key:24s} {right / k:.3f}  ({right}/{k}){'  ' + misses if misses else ''}")
    if either := sum(key in EITHER and truth != EITHER[key][0] for key, truth, _ in rows):
        print(f"  (of them, {either} byler white dice named ivory, counted right: strict "
              f"{ok - either}/{n} = {(ok - either) / max(n, 1):.3f})")


def palette_truth(colour: str, got: str | None) -> str:
    """What the default palette should call byler's `colour`, given what it did call it."""
    return got if got is not None and got in EITHER.get(colour, ()) else PALETTE_NAME.get(colour, colour)


def drawn_default(per: int, seed: int, bodies: list | None = None) -> list[tuple[str, str, str | None]]:
    """Each die named by the default palette; `bodies` gets (key, colour, body) of each."""
    rng = np.random.default_rng(seed)
    palette, rows = DiceSet.default(), []
    for _ in range(per // 3):
        order = list(rng.permutation(len(PALETTE_LOOKS)))
        for part in (order[:6], order[6:12], order[12:]):
            looks = [PALETTE_LOOKS[i] for i in part]
            size = float(rng.uniform(28, 70))
            gains = tuple(float(g) for g in rng.uniform(0.85, 1.15, 3))
            image, placed = throw(rng, looks, str(rng.choice(TABLES)), gains,
                                  float(rng.uniform(0.75, 1.2)), size)
            for (look, _, _), (truth, lab) in zip(placed, measured(image, placed, size), strict=True):
                rows.append((f"{truth} ({look.look})", truth, palette.name_of(lab)[0]))
                if bodies is not None:
                    bodies.append((f"{truth} ({look.look})", truth, lab))
    return rows


def outside_the_set(bodies: list, seed: int) -> list[tuple[str, None, str | None]]:
    """`drawn_default`'s dice named against three other colours of the palette (a game's set
    without the die's colour): right when not named (issue 36: never a colour outside the set;
    where none fits, unreadable). Its own generator: the other figures keep their draws."""
    rng, names, sets = np.random.default_rng(seed), sorted(DiceSet.default().colors), {}
    rows = []
    for key, truth, lab in bodies:
        pick = tuple(sorted(rng.choice([n for n in names if n != truth], 3, replace=False)))
        dice_set = sets.setdefault(pick, DiceSet.default().restricted(pick))
        rows.append((key, None, dice_set.name_of(lab)[0]))
    return rows


def inside_the_set(bodies: list, seed: int) -> list[tuple[str, str, str | None]]:
    """The same dice named against their own colour and two others of the palette (a game's
    set with the die's colour): what leaving colours out costs the dice that are in."""
    rng, names, sets = np.random.default_rng(seed + 1), sorted(DiceSet.default().colors), {}
    rows = []
    for key, truth, lab in bodies:
        pick = tuple(sorted([truth, *rng.choice([n for n in names if n != truth], 2, replace=False)]))
        dice_set = sets.setdefault(pick, DiceSet.default().restricted(pick))
        rows.append((key, truth, dice_set.name_of(lab)[0]))
    return rows


def drawn_calibrated(per: int, seed: int) -> list[tuple[str, str, str | None]]:
    rng = np.random.default_rng(seed)
    rows = []
    for (set_name, (table, gains, exposure, looks)), k in itertools.product(
            CALIBRATED_SETS.items(), range(CALIBRATIONS)):
        size = 48.0  # calibrate-dice's row: each colour's die three times (red,red,red,...)
        image, placed = throw(rng, [x for x in looks for _ in range(3)], table, gains, exposure, size)
        samples = defaultdict(list)
        for name, lab in measured(image, placed, size):
            samples[name].append(lab)
        dice_set = from_bodies(set_name, samples)
        for _ in range(per // CALIBRATIONS + (k < per % CALIBRATIONS)):
            shuffled = [looks[i] for i in rng.permutation(len(looks))]
            size = float(rng.uniform(28, 70))
            g = tuple(float(x) * float(rng.uniform(0.96, 1.04)) for x in gains)
            image, placed = throw(rng, shuffled, table, g, exposure * float(rng.uniform(0.9, 1.1)), size)
            for (look, _, _), (truth, lab) in zip(placed, measured(image, placed, size), strict=True):
                rows.append((f"{set_name}: {truth} ({look.look})", truth, dice_set.name_of(lab)[0]))
    return rows


def drawn_through_reader(per: int, seed: int) -> list[tuple[str, str, str | None]]:
    """`drawn_calibrated`'s sets and lights, calibrated and read by the whole reader."""
    from zonkcam.vision.calibrate import CalibrationError, calibrate
    from zonkcam.vision.read import Reader

    rng, rows, reader, missed, retried = np.random.default_rng(seed), [], Reader(), 0, 0
    folder = Path(tempfile.mkdtemp())
    for (set_name, (table, gains, exposure, looks)), k in itertools.product(
            CALIBRATED_SETS.items(), range(CALIBRATIONS)):
        row = [x for x in looks for _ in range(ROW_TIMES)]  # as a player lays them out, ~64 px
        for _ in range(RETRIES):  # the reader found more or fewer dice: the row laid out again
            image, _ = throw(rng, row, table, gains, exposure, 64.0)
            try:
                calibrate(reader, image, [x.name for x in row], set_name).save(folder / "set.json")
                break
            except CalibrationError:
                retried += 1
        else:
            continue
        named = Reader(dice_set=folder / "set.json")
        for _ in range(per // CALIBRATIONS + (k < per % CALIBRATIONS)):
            shuffled = [looks[i] for i in rng.permutation(len(looks))]
            size = float(rng.uniform(28, 70))
            g = tuple(float(x) * float(rng.uniform(0.96, 1.04)) for x in gains)
            image, placed = throw(rng, shuffled, table, g, exposure * float(rng.uniform(0.9, 1.1)), size)
            dice = named.read(image).dice
            for look, cx, cy in placed:
                near = [d for d in dice if np.hypot(d.center[0] - cx, d.center[1] - cy) < size / 2]
                if not near:
                    missed += 1
                    continue
                rows.append((f"{set_name}: {look.name} ({look.look})", look.name, near[0].color))
    print(f"\n(through the reader: {missed} dice missed, not counted; {retried} rows laid out again)")
    return rows


def byler(root: Path, save: Path | None = None, swap: bool = False) -> dict[str, list] | None:
    """Rows per way of measuring: at the labelled boxes, and through the whole reader.
    `swap`: calibrate on the odd photos and name the even ones (a fresh check)."""
    labels = HERE / "byler_colors.csv"
    if not (root / "train" / "images").is_dir():
        return None
    colours = load_colors(labels)
    stems = sorted({stem for stem, _ in colours})
    pictures = []  # (image number, stem, picture, label boxes in px)
    for k, stem in enumerate(stems):
        image = cv2.imread(str(root / "train" / "images" / f"{stem}.jpg"))
        if image is not None:
            h, w = image.shape[:2]
            rows = np.loadtxt(root / "train" / "labels" / f"{stem}.txt", ndmin=2)
            pictures.append((k, stem, image, rows[:, 1:] * np.array([w, h, w, h])))
    found = []  # (image number, colour, body Lab at the label box)
    for k, stem, image, boxes in pictures:
        gains = white_balance_gains(image)
        for i, (cx, cy, bw, bh) in enumerate(boxes):
            if (colour := colours.get((stem, i))) is not None:
                size = 0.85 * max(bw, bh)  # the label box holds the die's sides too
                found.append((k, colour, body_lab(patch_at(image, cx, cy, size), gains)))
    palette, cal = DiceSet.default(), int(swap)
    at_labels = from_bodies("byler", {c: [lab for k, cc, lab in found if cc == c and k % 2 == cal]
                                      for c in sorted({c for _, c, _ in found})})
    even, odd = ("odd", "even") if swap else ("even", "odd")
    out = {"byler photos at the labelled boxes, default palette":
           [(c, palette_truth(c, got), got) for _, c, lab in found
            for got in [palette.name_of(lab)[0]]],
           f"byler photos at the labelled boxes, calibrated on the {even} photos, named on the {odd}":
           [(c, c, at_labels.name_of(lab)[0]) for k, c, lab in found if k % 2 != cal]}
    return out | through_reader(pictures, colours, save, cal)


def through_reader(pictures: list, colours: dict, save: Path | None, cal: int = 0) -> dict[str, list]:
    """The reader's own names (default palette); and a set calibrated as `calibrate-dice`
    measures it (each die the reader found on the even photos, at its box; `cal` 1: the odd)
    named by a reader given that set, on the other photos. Dice the reader missed are not
    counted."""
    from zonkcam.vision.read import Reader

    def found(reader: Reader, odd: int | None):
        for k, stem, image, boxes in pictures:
            if odd is None or k % 2 == odd:
                dice = reader.read(image).dice
                for d, j in match(dice, boxes)[0]:
                    if (colour := colours.get((stem, j))) is not None:
                        yield k, image, d, colour

    default_rows, samples = [], defaultdict(list)
    for k, image, d, colour in found(Reader(), None):
        default_rows.append((colour, palette_truth(colour, d.color), d.color))
        if k % 2 == cal:  # as vision/calibrate.py cuts it
            size = max(d.box[2] - d.box[0], d.box[3] - d.box[1])
            samples[colour].append(body_lab(patch_at(image, d.center[0], d.center[1], size),
                                            white_balance_gains(image)))
    path = save or Path(tempfile.mkdtemp()) / "byler.json"
    from_bodies("byler", dict(sorted(samples.items()))).save(path)
    if save is not None:  # for `zonkcam eval --dice-set SAVE --files SAVE.odd.txt`
        Path(f"{save}.odd.txt").write_text("".join(f"{stem}.jpg\n" for k, stem, _, _ in pictures
                                                   if k % 2 != cal))
    calibrated, photos = Reader(dice_set=path), ("even", "odd")[cal]
    return {"byler photos through the reader, default palette": default_rows,
            f"byler photos through the reader, set calibrated through it on the {photos} photos":
            [(colour, colour, d.color) for _, _, d, colour in found(calibrated, 1 - cal)]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per", type=int, default=60, help="drawn dice per colour and look")
    ap.add_argument("--seed", type=seed_number, default=0)
    ap.add_argument("--byler", type=Path, default=BYLER)
    ap.add_argument("--byler-set", type=Path, metavar="OUT",
                    help="save byler's set calibrated on the even photos, and OUT.odd.txt")
    ap.add_argument("--swap", action="store_true",
                    help="byler: calibrate on the odd photos, name the even (the fresh check)")
    ap.add_argument("--byler-only", action="store_true", help="skip the drawn dice")
    ap.add_argument("--through-reader", action="store_true",
                    help="also the drawn calibrated sets through the whole reader (calibrate-dice's way)")
    a = ap.parse_args()
    if not a.byler_only:
        bodies: list = []
        report("drawn, default palette (any light)", drawn_default(a.per, a.seed, bodies))
        report("drawn, default palette, a set of 3 other colours (right: not named)",
               outside_the_set(bodies, a.seed))
        report("drawn, default palette, a set of its own colour and 2 others",
               inside_the_set(bodies, a.seed))
        report("drawn, calibrated sets (the table's light)", drawn_calibrated(a.per, a.seed + 1))
        if a.through_reader:
            report("drawn, calibrated sets through the whole reader",
                   drawn_through_reader(a.per, a.seed + 2))
    real = byler(a.byler, a.byler_set, a.swap)
    if real is None:
        print(f"\nbyler: skipped ({a.byler} not found)", file=sys.stderr)
        return 0
    for title, rows in real.items():
        report(title, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
