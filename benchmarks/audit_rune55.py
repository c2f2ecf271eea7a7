"""Sheets for auditing rune55's held-out labels by eye (issue 36, "audited subset").

Picks one photo per held-out photo group (near-duplicates share their labels, so one photo
a group covers the most distinct dice), in a seeded order, reads each with the shipped reader
(cached in a JSON file beside the sheets) and draws sheets of four photos, 640 px each:
label boxes in green, numbered `index:value` at their top left; the reader's dice in magenta,
value at their bottom right. A photo's corner says its file, group and whether reads and
labels disagree, so misses and extra dice stand out. What is seen goes into
models/rune55_audit.csv by hand (its format: models/rune55_audit.py).

    .venv/bin/python benchmarks/audit_rune55.py [--root ../shared/datasets/rune55]
        [--out build/audit_rune55] [--start 0] [--count 40] [--seed 36]
"""
from __future__ import annotations

import argparse
import csv
import json
import random
from pathlib import Path

import cv2
import numpy as np
from zonkcam.hardware.options import seed as seed_number
from zonkcam.models.rune55 import datasets_root, group_split
from zonkcam.models.yolo import Labelled
from zonkcam.vision.evaluate import match

SIDE = 640
GREEN, MAGENTA, WHITE = (0, 200, 0), (255, 0, 255), (255, 255, 255)


def one_per_group(root: Path, seed: int) -> list[tuple[str, Labelled]]:
    """(group, photo): the first photo of each held-out group by name, groups in a seeded order."""
    with open(root / "groups.csv", newline="", encoding="utf-8") as f:
        group_of = {(r["split"], r["file"]): r["group"] for r in csv.DictReader(f)}
    first: dict[str, Labelled] = {}
    for item in group_split(root, "heldout"):
        g = group_of[(item.image.parent.parent.name, item.image.name)]
        first.setdefault(g, item)
    groups = sorted(first, key=int)
    random.Random(seed).shuffle(groups)
    return [(g, first[g]) for g in groups]


def reads(items: list[tuple[str, Labelled]], cache: Path) -> dict[str, list[dict]]:
    """The shipped reader's dice per photo (value, box, centre), read once and cached."""
    known = json.loads(cache.read_text()) if cache.exists() else {}
    todo = [it for _, it in items if it.image.name not in known]
    if todo:
        from zonkcam.vision.read import Reader

        reader = Reader()
        for item in todo:
            r = reader.read(cv2.imread(str(item.image)))
            known[item.image.name] = [{"value": d.value, "box": list(d.box), "center": list(d.center),
                                       "confidence": round(d.confidence, 3)} for d in r.dice]
        cache.write_text(json.dumps(known))
    return known


def agree(item: Labelled, dice: list[dict], w: int, h: int) -> bool:
    """Every label matched by a read of its value and nothing extra (as `zonkcam eval` counts)."""
    from types import SimpleNamespace

    boxes = item.dice[:, 1:] * np.array([w, h, w, h], np.float32)
    ds = [SimpleNamespace(center=d["center"], confidence=d["confidence"]) for d in dice]
    pairs, _ = match(ds, boxes)  # type: ignore[arg-type]
    right = sum(dice[ds.index(d)]["value"] == int(item.dice[j, 0]) for d, j in pairs)
    return len(pairs) == len(boxes) == len(dice) == right


def panel(group: str, item: Labelled, dice: list[dict], side: int = SIDE,
          layout: dict | None = None) -> np.ndarray:
    """The photo cropped to its dice (labels and reads, with a margin), scaled to `side`;
    `layout` gets the crop (x0, y0, scale, photo width, height) to map sheet points back."""
    img = cv2.imread(str(item.image))
    h, w = img.shape[:2]
    ok = agree(item, dice, w, h)
    lab = [((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)
           for _, cx, cy, bw, bh in item.dice]
    allb = np.array(lab + [d["box"] for d in dice] or [(0, 0, w, h)], np.float32)
    x0, y0 = max(0, int(allb[:, 0].min()) - 30), max(0, int(allb[:, 1].min()) - 30)
    x1, y1 = min(w, int(allb[:, 2].max()) + 30), min(h, int(allb[:, 3].max()) + 30)
    s = min(side / max(x1 - x0, y1 - y0), 4.0)
    if layout is not None:
        layout.update(x0=x0, y0=y0, s=s, w=w, h=h)
    crop = img[y0:y1, x0:x1]
    crop = cv2.resize(crop, (round(crop.shape[1] * s), round(crop.shape[0] * s)),
                      interpolation=cv2.INTER_CUBIC)
    out = np.zeros((side, side, 3), np.uint8)
    out[:crop.shape[0], :crop.shape[1]] = crop[:side, :side]

    def at(x: float, y: float) -> tuple[int, int]:
        return round((x - x0) * s), round((y - y0) * s)

    for d in dice:
        (a, b), (c, e) = at(*d["box"][:2]), at(*d["box"][2:])
        cv2.rectangle(out, (a, b), (c, e), MAGENTA, 1)
        cv2.putText(out, str(d["value"] or "?"), (c - 8, e + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.6, MAGENTA, 2)
    for i, (v, (a, b, c, e)) in enumerate(zip(item.dice[:, 0], lab, strict=True)):
        cv2.rectangle(out, at(a, b), at(c, e), GREEN, 1)
        x, y = at(a, b)
        cv2.putText(out, f"{i}:{int(v)}", (x, max(y - 3, 14)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, GREEN, 2)
    tag = f"{item.image.name[:22]} g{group} {len(item.dice)}L/{len(dice)}R {'ok' if ok else 'DIFF'}"
    cv2.putText(out, tag, (4, side - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.5, WHITE if ok else (0, 0, 255), 1)
    return out


def small(item: Labelled, dice: list[dict]) -> bool:
    """Dice too small to check four to a sheet: the photo gets a sheet of its own."""
    if not len(item.dice):
        return False
    d = item.dice
    span = max(np.ptp(d[:, 1]) + d[:, 3].max(), np.ptp(d[:, 2]) + d[:, 4].max())
    return float(np.median(item.dice[:, 3:].max(1)) / max(span, 1e-3)) * SIDE < 60


VIEW = 1280 / 1092  # sheets are shown 1092 px wide: boxes in the notes are in those pixels
HEADER = """# Rune55 dataset, Roboflow Universe, CC BY 4.0: corrections to its held-out labels (issue 36)
# Audited by eye from benchmarks/audit_rune55.py sheets; format and loader: models/rune55_audit.py
# file: split/name; label: line of its YOLO label file from 0; value 1..6; cx,cy,w,h: box 0..1
file,group,action,label,value,cx,cy,w,h
"""


def write_csv(notes: Path, out: Path) -> None:
    """Notes to the audit CSV. A note: `N ok`, `N v LABEL VALUE`, `N i LABEL`, `N d LABEL`,
    `N a VALUE x1 y1 x2 y2` or `N ib x1 y1 x2 y2` (boxes in the shown sheet's pixels)."""
    folder = notes.parent
    order_lines = (folder / "order.csv").read_text().splitlines()
    order = {n: (f, g) for n, f, g in (line.split(",") for line in order_lines)}
    layout = json.loads((folder / "layout.json").read_text())
    lines = []
    for note in notes.read_text().splitlines():
        if not note.strip() or note.startswith("#"):
            continue
        n, act, *rest = note.split()
        rest = rest or [""]
        f, g = order[n]
        row = {"ok": ["ok", "", ""], "v": ["value", rest[0], rest[-1]], "i": ["ignore", rest[0], ""],
               "d": ["drop", rest[0], ""], "a": ["add", "", rest[0]], "ib": ["ignore", "", ""]}[act]
        box = ["", "", "", ""]
        if act in ("a", "ib"):
            L = layout[n]
            x1, y1, x2, y2 = ((float(v) * VIEW - (L["ox"] if k % 2 == 0 else L["oy"])) / L["s"]
                              + (L["x0"] if k % 2 == 0 else L["y0"]) for k, v in enumerate(rest[-4:]))
            box = [f"{(x1 + x2) / 2 / L['w']:.4f}", f"{(y1 + y2) / 2 / L['h']:.4f}",
                   f"{(x2 - x1) / L['w']:.4f}", f"{(y2 - y1) / L['h']:.4f}"]
        lines.append(",".join([f, g, *row, *box]))
    out.write_text(HEADER + "\n".join(sorted(lines, key=lambda r: (r.split(",")[0], r.split(",")[2] == "ok")))
                   + "\n")
    print(f"{len({r.split(',')[0] for r in lines})} photos, {len(lines)} rows -> {out}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=datasets_root() / "rune55")
    ap.add_argument("--out", type=Path, default=Path("build/audit_rune55"))
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=seed_number, default=36)
    ap.add_argument("--notes", type=Path, help="turn these notes (see write_csv) into --csv, and stop")
    ap.add_argument("--csv", type=Path,
                    default=Path(__file__).resolve().parent.parent / "models" / "rune55_audit.csv")
    args = ap.parse_args()
    if args.notes:
        write_csv(args.notes, args.csv)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    items = one_per_group(args.root, args.seed)[args.start:args.start + args.count]
    dice = reads(items, args.out / "reads.json")
    with open(args.out / "order.csv", "a", encoding="utf-8") as f:
        for n, (g, it) in enumerate(items, args.start):
            f.write(f"{n},{it.image.parent.parent.name}/{it.image.name},{g}\n")
    numbered = list(enumerate(items, args.start))
    layouts: dict[str, dict] = {}
    for n, (g, it) in numbered:  # small dice: a sheet of their own, twice the size
        if small(it, dice[it.image.name]):
            layouts[str(n)] = {"ox": 0, "oy": 0}
            cv2.imwrite(str(args.out / f"solo_{n:04d}.png"),
                        panel(g, it, dice[it.image.name], 2 * SIDE, layouts[str(n)]))
    rest = [(n, g, it) for n, (g, it) in numbered if not small(it, dice[it.image.name])]
    for k in range(0, len(rest), 4):
        for q, (n, _, _) in enumerate(rest[k:k + 4]):
            layouts[str(n)] = {"ox": SIDE * (q % 2), "oy": SIDE * (q // 2)}
        tiles = [panel(g, it, dice[it.image.name], SIDE, layouts[str(n)]) for n, g, it in rest[k:k + 4]]
        tiles += [np.zeros((SIDE, SIDE, 3), np.uint8)] * (4 - len(tiles))
        sheet = np.vstack([np.hstack(tiles[:2]), np.hstack(tiles[2:])])
        name = f"sheet_{rest[k][0]:04d}_" + "_".join(str(r[0]) for r in rest[k:k + 4]) + ".png"
        cv2.imwrite(str(args.out / name), sheet)
    old = json.loads((args.out / "layout.json").read_text()) if (args.out / "layout.json").exists() else {}
    (args.out / "layout.json").write_text(json.dumps(old | layouts))
    print(f"{len(items)} photos -> {args.out}")


if __name__ == "__main__":
    main()
