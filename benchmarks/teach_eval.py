"""Teach zonkcam a new set from a few photos, and measure it on photos it was never taught (issue 37).

The proxy of a table's own dice: real rune55 photos (`../shared/datasets/rune55`, held-out photo
groups), or drawn tables without it, whose sixes get a painted emblem and whose ones a painted
skull, pips covered by the die's own body colour, feathered, blurred and noised to sit in the
photo. The loop is the user's: `zonkcam capture --stills` on the taught photos, a simulated
person on the review queue (answers from the labels; every tap counted as the page needs it),
`zonkcam train`, then the old and new model's whole recognizer on never-taught photos:

- new faces (emblem sixes, skull ones) read right, of those in the photos;
- pip faces (2-5) read right, on the same photos;
- forgetting: plain dice (the same photo source, unpainted) read right, and drawn pip dice;
- a person's review: dice to look at per photo, taps per photo.

    .venv/bin/python benchmarks/teach_eval.py [--source rune55|drawn] [--teach 10] [--test 40]
                                              [--epochs N] [--seed 0] [--base rune55] [--keep DIR]
                                              [--misses MODEL]
"""
from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from zonkcam.hardware.options import bounded
from zonkcam.hardware.options import seed as seed_number
from zonkcam.models.thin_faces import MIN_EXAMPLES

sys.path.insert(0, str(Path(__file__).resolve().parent))
from new_faces import CUSTOM, Truth, paint_face, with_new_faces


def rune55_root() -> Path:
    from zonkcam.models.rune55 import datasets_root

    return datasets_root() / "rune55"


def usable(source: str) -> str:
    """`source`, or "drawn" (said on stderr) where rune55 is asked for and not there."""
    if source == "rune55" and not (rune55_root() / "groups.csv").is_file():
        print(f"teach_eval: no {rune55_root()} (ZONKCAM_DATASETS): drawn tables instead", file=sys.stderr)
        return "drawn"
    return source


@dataclass
class Photo:
    name: str
    image: np.ndarray
    truth: Truth


# ------------------------------------------------------------------------------ the photos

def rune55_photos(n_teach: int, n_test: int, seed: int, per_face: int = MIN_EXAMPLES
                  ) -> tuple[list[Photo], list[Photo], list[Photo]]:
    """Taught and never-taught photos from rune55's held-out groups (whole groups apart: a group
    holds copies of one photo), and plain photos of other groups (the forgetting check). The
    taught photos are those a person following docs/teach.md keeps: while a new face has shown
    fewer than `per_face` times, a photo without it goes to the never-taught ones instead (a
    person throws again); 0: the photos in their drawn order."""
    from zonkcam.models.rune55 import group_split

    with open(rune55_root() / "groups.csv", newline="") as f:
        groups = {row["file"]: row["group"] for row in csv.DictReader(f)}
    by_group: dict[str, list] = {}
    for item in group_split(rune55_root(), "heldout"):
        by_group.setdefault(groups[item.image.name], []).append(item)
    rng = np.random.default_rng(seed)
    order = [g for g in sorted(by_group, key=int)]
    rng.shuffle(order)

    def photo(item, paint: bool) -> Photo | None:
        image = cv2.imread(str(item.image))
        h, w = image.shape[:2]
        truth = [(cx * w, cy * h, min(bw * w, bh * h), int(v)) for v, cx, cy, bw, bh in item.dice]
        if paint and not any(v in CUSTOM for *_, v in truth):
            return None
        shown = with_new_faces(image, truth, rng) if paint else image
        return Photo(item.image.stem[:40], shown, truth)

    def teaches(p: Photo) -> bool:
        shown = Counter(v for t in teach for *_, v in t.truth if v in CUSTOM)
        short = {v for v in CUSTOM if shown[v] < per_face}
        return not short or any(v in short for *_, v in p.truth)

    teach: list[Photo] = []
    test: list[Photo] = []
    plain: list[Photo] = []
    for g in order:  # one photo of a group: its copies are near-duplicates
        want: list[Photo] | None = teach if len(teach) < n_teach else test if len(test) < n_test else plain
        if want is plain and len(plain) >= n_test:
            break
        for item in by_group[g]:
            if (p := photo(item, want is not plain)) is not None:
                if want is teach and not teaches(p):
                    want = test if len(test) < n_test else None  # painted: not a plain photo
                if want is not None:
                    want.append(p)
                break
    return teach, test, plain


def drawn_photos(n_teach: int, n_test: int, seed: int, width: int = 640, height: int = 480,
                 dice: int = 6) -> tuple[list[Photo], list[Photo], list[Photo]]:
    """Drawn tables (`vision.sim.drawn`), the same painting: taught, never taught, plain."""
    from zonkcam.vision.sim.drawn import BODY_BGR, render_scene

    rng = np.random.default_rng(seed)
    out: list[list[Photo]] = [[], [], []]
    for part, n in enumerate((n_teach, n_test, n_test)):
        while len(out[part]) < n:
            kind = str(rng.choice(["felt", "wood", "paper"]))
            image, drawn = render_scene(rng, width, height, n=dice, kind=kind,
                                        colors=("white", "red", "blue", "black"))
            truth = [(d.cx, d.cy, d.box[2] - d.box[0], d.value) for d in drawn]
            if part < 2:
                if not any(v in CUSTOM for *_, v in truth):
                    continue
                for d in drawn:
                    if d.value in CUSTOM:
                        pips = (20, 20, 20) if d.color in ("white", "yellow") else (235, 235, 235)
                        paint_face(image, d.cx, d.cy, d.box[2] - d.box[0], d.value, rng, d.angle,
                                   np.array(BODY_BGR[d.color], np.float32), np.array(pips, np.float32))
            out[part].append(Photo(f"{part}-{len(out[part]):03d}", image, truth))
    return out[0], out[1], out[2]


# ------------------------------------------------------------------------ reading, reviewing

def near(truth: Truth, x: float, y: float) -> tuple[float, float, float, int] | None:
    best = min(truth, key=lambda d: math.hypot(d[0] - x, d[1] - y), default=None)
    return best if best is not None and math.hypot(best[0] - x, best[1] - y) < 0.5 * best[2] else None


def score(model: Path, photos: list[Photo]) -> dict[str, tuple[int, int]]:
    """(right, of) for the new faces, the pip faces and all dice, and (found, of) for all dice:
    the whole recognizer reads each photo; a die is found when a read die lies on it (the
    issue's read recall), right when that die has its value."""
    from zonkcam.vision.read import Reader

    reader = Reader(model)
    right: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    for p in photos:
        reading = reader.read(p.image)
        for cx, cy, size, value in p.truth:
            kind = "new" if value in CUSTOM else "pips"
            d = min(reading.dice, key=lambda d: math.hypot(d.center[0] - cx, d.center[1] - cy), default=None)
            on_it = d is not None and math.hypot(d.center[0] - cx, d.center[1] - cy) < 0.5 * size
            for k in (kind, "all"):
                seen[k] += 1
                right[k] += on_it and d is not None and d.value == value
            right["found"] += on_it
    return {k: (right[k], seen[k]) for k in ("new", "pips", "all")} | {"found": (right["found"], seen["all"])}


MISS_KINDS = ("right", "misread", "unreadable", "read as no die", "dropped by the reader", "not proposed")


def raw_proposals(reader, image: np.ndarray) -> list:
    """Every proposal the proposer makes of a picture at the reader's scales (320 px up to the
    picture's own, and the close-up canvas), before the classifier or any of the reader's rules."""
    from zonkcam.vision import scales
    from zonkcam.vision.proposals import Proposal, decode, proposer_input

    long_side, side, out = max(image.shape[:2]), reader.proposer_side, []
    sides = [(side, 1)]
    while 2 * side <= max(2 * reader.proposer_side, min(long_side, scales.ZOOM_SIDE_MAX)):
        side *= 2
        sides.append((side, 1))
    for side, canvas in [*sides, (scales.CLOSE_UP_SIDE, scales.CLOSE_UP_CANVAS)]:
        grey01, scale, _ = proposer_input(image, side)
        pad = 0
        if canvas > 1:
            grey01, pad = scales.on_canvas(grey01, side, canvas)
        heat, geometry = reader.model.propose(grey01)
        out += [Proposal(p.cx - pad / scale, p.cy - pad / scale, p.w, p.h, p.score)
                for p in decode(heat, geometry, scale, reader.model.stride, reader.heat_threshold)]
    return out


def where_missed(model: Path, photos: list[Photo]) -> dict[str, dict[str, int]]:
    """Each die of `photos` by what the whole reader made of it (new faces and pip faces apart):
    right; misread (a die read there, another value); unreadable; read as no die (a candidate
    there the classifier rejected); dropped by the reader (the proposer proposed it at some scale,
    nothing is left there); not proposed. Also how the classifier alone reads each die's crop cut
    at its labelled box ("crop right": what a perfect proposer would give) and, where that read is
    wrong, what it took the face for ("crop 6 as 1"; 0 is "no die")."""
    from zonkcam.vision.faces import face_angle, patch_at, upright
    from zonkcam.vision.read import Reader

    reader = Reader(model)
    out: dict[str, Counter] = {"new": Counter(), "pips": Counter()}
    for p in photos:
        cands = reader.candidates(p.image)
        raw = raw_proposals(reader, p.image)
        grey = cv2.cvtColor(p.image, cv2.COLOR_BGR2GRAY)
        for cx, cy, size, value in p.truth:
            kind = "new" if value in CUSTOM else "pips"
            at = [c for c in cands if math.hypot(c.proposal.cx - cx, c.proposal.cy - cy) < 0.5 * size]
            dice = [c for c in at if not reader.rejects(c)]
            if dice:
                c = min(dice, key=lambda c: math.hypot(c.proposal.cx - cx, c.proposal.cy - cy))
                miss = ("right" if c.value == value else "misread") if c.probs[c.value] >= \
                    reader.value_threshold else "unreadable"
            elif at:
                miss = "read as no die"
            elif any(math.hypot(q.cx - cx, q.cy - cy) < 0.5 * size for q in raw):
                miss = "dropped by the reader"
            else:
                miss = "not proposed"
            out[kind][miss] += 1
            patch = patch_at(grey, cx, cy, size)
            crop = upright(patch, face_angle(patch), reader.model.crop, reader.model.crop_margin)
            probs = reader.model.classify(crop[None].astype(np.float32) / 255)[0]
            read = 0 if probs[0] >= reader.reject_threshold else int(np.argmax(probs[1:])) + 1
            out[kind]["crop right"] += bool(read == value and probs[1:].max() >= reader.value_threshold)
            out[kind][f"crop {value} as {read}"] += read != value  # what a new face is taken for
            out[kind]["n"] += 1
    return {k: dict(v) for k, v in out.items()}


def group_default(group: str) -> object:
    """The answer a section's "select all" gives: "right" for sure reads, "not a die" for junk."""
    from zonkcam.models.captures import NOT_A_DIE

    return {"sure": "confirm", "junk": NOT_A_DIE}.get(group)


def review(captures, truth: dict[str, Truth]) -> dict[str, int]:
    """A person works through the review page, answering from the labels; returns the dice looked
    at and the taps made. The page's sections: likely misreads (each selected, then one tap per
    answer), sure reads ("select all", a tap to leave out each wrong one, "right"), table junk
    ("select all", leave out the real dice, "not a die"); then each frame's missed dice (open the
    frame, tap the die, then its face)."""
    from zonkcam.models.captures import NOT_A_DIE

    queue = captures.review_queue()
    looked, taps = len(queue), 0
    answers: dict[str, dict[object, list]] = {"misread": {}, "sure": {}, "junk": {}}
    for item in queue:
        d = captures.meta(item.name)["dice"][item.die]
        x1, y1, x2, y2 = d["box"]
        die = near(truth[item.name], (x1 + x2) / 2, (y1 + y2) / 2)
        too_big = die is not None and max(x2 - x1, y2 - y1) > 1.6 * die[2]
        answer: object = "bad_crop" if too_big else die[3] if die else NOT_A_DIE
        if group_default(item.group) == "confirm" and answer == item.value:
            answer = "confirm"
        answers[item.group].setdefault(answer, []).append(item)
    for group, by_answer in answers.items():
        if not by_answer:
            continue
        default = group_default(group)
        odd = [(a, items) for a, items in by_answer.items() if a != default]
        if default is None:  # each crop selected, one tap per answer
            taps += sum(len(items) for _, items in odd) + len(odd)
        else:  # select all, leave out the odd ones, one tap for the rest; then the odd ones
            taps += 2 + sum(len(items) for _, items in odd) * 2 + len(odd)
        for answer, items in by_answer.items():
            for item in items:
                if answer == "bad_crop":
                    captures.dismiss(item.name, item.die, "bad_crop")
                else:
                    captures.correct(item.name, item.die, value=item.value if answer == "confirm" else answer)
    missed = 0
    for name in captures.names():
        meta = captures.meta(name)
        for cx, cy, size, value in truth[name]:
            if not any(near([(cx, cy, size, value)], (d["box"][0] + d["box"][2]) / 2,
                            (d["box"][1] + d["box"][3]) / 2) for d in meta["dice"]):
                captures.correct(name, captures.add_die(name, cx, cy), value=value)
                missed += 1
    frames_with_missed = sum(any(d.get("added") for d in captures.meta(n)["dice"]) for n in captures.names())
    taps += frames_with_missed * 2 + missed * 2  # open, close; tap the die, its face
    return {"looked": looked + missed, "taps": taps, "missed": missed}


# ---------------------------------------------------------------------------------- the loop

def photos_of(source: str, teach: int, test: int, seed: int, per_face: int = MIN_EXAMPLES
              ) -> tuple[list[Photo], list[Photo], list[Photo]]:
    """Taught, never-taught and plain photos of `source` (as `usable` says it)."""
    if source == "rune55":
        return rune55_photos(teach, test, seed, per_face)
    return drawn_photos(teach, test, seed)


def run(work: Path, source: str = "rune55", teach: int = 10, test: int = 40, epochs: int | None = None,
        seed: int = 0, base_dice: int = 600, threads: int = 1, base: str | None = None,
        per_face: int = MIN_EXAMPLES) -> dict:
    """The whole loop in `work`; returns the figures."""
    from zonkcam.hardware.cli import main
    from zonkcam.models.captures import CaptureSet
    from zonkcam.models.finetune import FinetuneConfig, finetune
    from zonkcam.models.registry import shipped_model

    source = usable(source)
    taught, never, plain = photos_of(source, teach, test, seed, per_face)
    folder = work / "phone"
    folder.mkdir(parents=True, exist_ok=True)
    for p in taught:
        cv2.imwrite(str(folder / f"{p.name}.jpg"), p.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    t0 = time.time()
    if main(["capture", "--stills", str(folder), "--out", str(work / "cap"),
             "--model", str(shipped_model())]):
        raise SystemExit("capture failed")
    captures = CaptureSet(work / "cap", max_bytes=None)
    # capture names frames by the clock, in the photos' order (sorted by file name)
    truth = dict(zip(captures.names(), [p.truth for p in sorted(taught, key=lambda p: p.name)], strict=True))
    t_capture = time.time() - t0
    person = review(captures, truth)
    t1 = time.time()
    metrics = finetune(FinetuneConfig(datasets=[work / "cap"], out=work / "model", epochs=epochs, seed=seed,
                                      threads=threads, register=False, base_dice=base_dice,
                                      base=base))
    t_train = time.time() - t1
    old, new = shipped_model(), work / "model" / "model.onnx"
    before, after = score(old, never), score(new, never)
    plain_before, plain_after = score(old, plain), score(new, plain)
    pct = lambda rt: round(100 * rt[0] / max(1, rt[1]), 1)  # noqa: E731
    return {
        "source": source, "taught_photos": len(taught), "test_photos": len(never), "plain_photos": len(plain),
        "taught_new_faces": {str(v): sum(d[3] == v for p in taught for d in p.truth) for v in CUSTOM},
        "thin_faces": metrics["thin_faces"],
        "new_faces": {"n": after["new"][1], "before": pct(before["new"]), "after": pct(after["new"])},
        "pip_faces": {"n": after["pips"][1], "before": pct(before["pips"]), "after": pct(after["pips"])},
        "plain_dice": {"n": plain_after["all"][1], "before": pct(plain_before["all"]),
                       "after": pct(plain_after["all"])},
        "plain_dice_found": {"n": plain_after["found"][1], "before": pct(plain_before["found"]),
                             "after": pct(plain_after["found"])},
        "base_data": metrics["base_data"],
        "drawn_pip_dice": {"n": metrics["base_eval_dice"],
                           "before": round(100 * metrics["before"]["base"], 1),
                           "after": round(100 * metrics["after"]["base"], 1)},
        "held_back": {"labels": metrics["held_back_labels"], "before": metrics["before"]["held_back"],
                      "after": metrics["after"]["held_back"]},
        "review": {"dice_per_photo": round(person["looked"] / len(taught), 1),
                   "taps_per_photo": round(person["taps"] / len(taught), 1),
                   "missed_added": person["missed"]},
        "seconds": {"capture": round(t_capture), "train": round(t_train)},
    }


def print_misses(model: Path, source: str, teach: int, test: int, seed: int, per_face: int) -> int:
    """`--misses`: the never-taught photos' dice by what each model's reader made of them."""
    from zonkcam.models.registry import shipped_model

    _, never, _ = photos_of(usable(source), teach, test, seed, per_face)
    for name, path in (("shipped", shipped_model()), (str(model), model)):
        for kind, counts in where_missed(path, never).items():
            parts = ", ".join(f"{k} {counts.get(k, 0)}" for k in (*MISS_KINDS, "crop right"))
            wrong = ", ".join(f"{k[5:]} {v}" for k, v in sorted(counts.items())
                              if k.startswith("crop ") and k != "crop right" and v)
            print(f"{name} {kind} (n={counts['n']}): {parts}; crop read wrong (0: no die): {wrong or 'none'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", choices=("rune55", "drawn"), default="rune55")
    ap.add_argument("--teach", type=bounded(1, 1_000), default=10)
    ap.add_argument("--test", type=bounded(1, 1_000), default=40)
    ap.add_argument("--epochs", type=bounded(1, 1_000), help="zonkcam train's --epochs (default: its own)")
    ap.add_argument("--seed", type=seed_number, default=0)
    ap.add_argument("--threads", type=bounded(1, 256), default=1)
    ap.add_argument("--base", help="zonkcam train's --base (rune55, a YOLO folder; default: drawn dice)")
    ap.add_argument("--per-face", type=bounded(0, 100), default=MIN_EXAMPLES,
                    help="rune55: teach photos until each new face shows this often, as docs/teach.md "
                         "asks (0: the photos as drawn)")
    ap.add_argument("--keep", type=Path, help="work here (kept) instead of a temporary folder")
    ap.add_argument("--misses", type=Path, metavar="MODEL",
                    help="no loop: where the shipped model and MODEL (a taught one) miss the dice of the "
                         "never-taught photos (proposer, classifier, the reader's rules)")
    args = ap.parse_args(argv)
    from zonkcam.models.finetune import TrainError
    from zonkcam.vision.model import ModelError

    try:  # a bad model file or base data: one line, not a traceback
        if args.misses:
            return print_misses(args.misses, args.source, args.teach, args.test, args.seed, args.per_face)
        with tempfile.TemporaryDirectory() as tmp:
            work = args.keep or Path(tmp)
            figures = run(work, args.source, args.teach, args.test, args.epochs, args.seed,
                          threads=args.threads, base=args.base, per_face=args.per_face)
    except (ModelError, TrainError) as e:
        ap.error(str(e))
    f = figures
    print(json.dumps(f, indent=1), file=sys.stderr)
    shown = ", ".join(f"{n} {v}s" for v, n in f["taught_new_faces"].items())
    print(f"{f['source']}: taught {f['taught_photos']} photos ({shown}); "
          f"never-taught {f['test_photos']} photos")
    for key, label in (("new_faces", "new faces (emblem 6, skull 1)"), ("pip_faces", "pip faces"),
                       ("plain_dice", "plain dice, other photos"),
                       ("plain_dice_found", "  found (read recall)"),
                       ("drawn_pip_dice", f"base data ({f['base_data']})")):
        print(f"{label:32s} {f[key]['before']:5.1f}% -> {f[key]['after']:5.1f}%  (n={f[key]['n']})")
    r = f["review"]
    print(f"review: {r['dice_per_photo']} dice to look at per photo, {r['taps_per_photo']} taps per photo "
          f"({r['missed_added']} missed dice added); capture {f['seconds']['capture']} s, "
          f"train {f['seconds']['train']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
