"""Subcommands of the recognizer: `read`, `eval`, `calibrate-dice`.

OpenCV and onnxruntime are imported inside the handlers so other subcommands stay instant.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from zonkcam.hardware.options import CliError, bounded, check_output
from zonkcam.models.registry import MODEL_HELP


def register(sub: argparse._SubParsersAction) -> None:
    """Add this area's subcommands to the `zonkcam` parser."""
    p = sub.add_parser("read", help="find the dice in pictures and read their values and colours",
                       description="One JSON object per picture, one per line (JSON Lines).")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines on stdout (the default output is a short text line)")
    p.add_argument("--table", default="full", metavar="auto|full|x1,y1,x2,y2,...",
                   help="table region: full frame (default), auto-detected, or a polygon "
                        "(4 numbers = a box); dice off it are reported off_table")
    p.add_argument("--dice-set", type=Path, metavar="FILE", help="colours from calibrate-dice")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.add_argument("--annotate", type=Path, metavar="OUT",
                   help="write each picture with boxes drawn: a file for one picture, "
                        "else a folder")
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("eval", help="score the recognizer on a labelled YOLO folder",
                       description="Precision, recall, value accuracy, exact images, confusion "
                                   "and timing on a YOLO folder (images/, labels/; class 0..5 "
                                   "= value 1..6). For rune55 use --split heldout to measure on "
                                   "photo groups held out of training.")
    p.add_argument("dataset", type=Path, metavar="DATASET")
    p.add_argument("--split", metavar="NAME",
                   help="heldout|tune|fit: rune55 photo-group split (DATASET holds groups.csv); "
                        "audited: held-out photos with labels audited by eye "
                        "(models/rune55_audit.csv); any other name: the subfolder DATASET/NAME")
    p.add_argument("--files", type=Path, metavar="LIST",
                   help="evaluate only the image file names listed (one per line)")
    p.add_argument("--limit", type=bounded(1, 10_000_000), default=0, metavar="N",
                   help="first N images only")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.add_argument("--colors", type=Path, metavar="CSV",
                   help="colour labels (image,line,color) for a breakdown by colour, e.g. "
                        "benchmarks/byler_colors.csv")
    p.add_argument("--dice-set", type=Path, metavar="FILE",
                   help="name colours from this calibrated set (zonkcam calibrate-dice)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("calibrate-dice", help="learn a dice set's colours from one picture",
                       description="Lay the set out in a row, left to right in the order of "
                                   "--colors, under the table's light, take one picture, and "
                                   "run this. The dice-set file it writes names colours for "
                                   "`read --dice-set`.")
    p.add_argument("image", metavar="IMAGE")
    p.add_argument("--colors", required=True, metavar="NAME,NAME,...",
                   help="the dice's colours, left to right (e.g. red,red,white,white,green)")
    p.add_argument("-o", "--out", type=Path, default=Path("dice-set.json"), metavar="FILE",
                   help="dice set file to write")
    p.add_argument("--name", default=None, help="the set's name (default: the file's stem)")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.set_defaults(func=cmd_calibrate_dice)


def _reader(model: str | None, dice_set: Path | None = None):
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.colors import DiceSetError
    from zonkcam.vision.read import ModelError, Reader

    try:
        return Reader(resolve_model(model), dice_set)
    except RegistryError as exc:
        raise CliError(str(exc)) from exc
    except ModelError as exc:
        raise CliError(str(exc)) from exc
    except DiceSetError as exc:
        raise CliError(str(exc), 2) from exc


def _table(spec: str, image) -> list[tuple[int, int]] | None:
    """None for the full frame; a polygon for `auto` or `x1,y1,...`."""
    if spec == "full":
        return None
    if spec == "auto":
        try:
            from zonkcam.vision.table import find_table
        except ImportError:
            return None
        return find_table(image)
    from zonkcam.vision.table import TableConfigError, parse_polygon

    try:
        polygon = parse_polygon(spec)
    except TableConfigError as exc:
        raise CliError(f"--table: expected auto, full or x1,y1,x2,y2,...: {exc}") from None
    xs, ys = [x for x, _ in polygon], [y for _, y in polygon]
    area = 0.5 * abs(sum(xs[i - 1] * ys[i] - xs[i] * ys[i - 1] for i in range(len(xs))))
    if area < 1:
        raise CliError(f"--table: the polygon {spec} is empty (it encloses no area)")
    return polygon


def cmd_read(args: argparse.Namespace) -> int:
    from zonkcam.vision.annotate import annotate
    from zonkcam.vision.imageio import ImageError, check_writable, decode, read_bytes, write_image
    from zonkcam.vision.read import TableError

    if args.table not in ("auto", "full"):
        _table(args.table, None)  # a malformed polygon is a usage error before any work
    if args.annotate and len(args.images) == 1:
        try:
            check_writable(check_output(args.annotate, "--annotate"))
        except ImageError as exc:
            raise CliError(f"--annotate: {exc}") from None
    reader = _reader(args.model, args.dice_set)
    if args.annotate and len(args.images) > 1:
        try:
            args.annotate.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CliError(f"--annotate: cannot make the folder {args.annotate}: {exc.strerror}",
                           1) from None
    status = 0
    for name in args.images:
        try:
            image = decode(name, read_bytes(name))
        except ImageError as exc:
            status = 2
            print(f"zonkcam read: {exc}", file=sys.stderr)
            if args.json:  # the record keeps its place in the lines; as text, stderr says it once
                _emit(args, {"image": name, "width": None, "height": None, "elapsed_ms": None,
                             "table": [], "spaz": False, "dice": [], "error": str(exc)})
            continue
        try:
            reading = reader.read(image, _table(args.table, image))
        except TableError as exc:
            raise CliError(f"--table: {exc}") from exc
        _emit(args, reading.to_json(name))
        if args.annotate:
            out = args.annotate / f"{Path(name).stem}.jpg" if len(args.images) > 1 \
                else args.annotate
            try:
                write_image(out, annotate(image, reading))
            except ImageError as exc:
                raise CliError(f"--annotate: {exc}", 1) from None
    return status


def _emit(args: argparse.Namespace, record: dict) -> None:
    if args.json:
        print(json.dumps(record), flush=True)
        return
    dice = " ".join(f"{d['value'] or '?'}{'/' + d['color'] if d['color'] else ''}"
                    + ("" if d["status"] == "ok" else f"({d['status']})") for d in record["dice"])
    print(f"{record['image']}: {len(record['dice'])} dice {dice}".rstrip(), flush=True)


def cmd_eval(args: argparse.Namespace) -> int:
    from zonkcam.vision import evaluate
    from zonkcam.vision.imageio import decode

    items = _labelled(args)
    try:
        colors = evaluate.load_colors(args.colors) if args.colors else None
    except ValueError as exc:
        raise CliError(str(exc)) from None
    reader = _reader(args.model, args.dice_set)
    tally = evaluate.run(items, reader.read, decode, len(items), colors=colors)
    summary = {"dataset": str(args.dataset), "split": args.split, "model": str(reader.model.path)}
    summary |= tally.summary()
    print(json.dumps(summary) if args.json else evaluate.format_summary(summary))
    return 0


def _labelled(args: argparse.Namespace) -> Sequence:
    """The labelled pictures `eval` is asked for, every label file checked first."""
    from zonkcam.models.rune55 import GROUP_SPLITS, group_split
    from zonkcam.models.yolo import LabelError, Labelled, yolo_folder

    root = args.dataset
    if not root.is_dir():
        raise CliError(f"{root}: no such folder")
    try:
        if args.split in GROUP_SPLITS:
            if not (root / "groups.csv").exists():
                raise CliError(f"--split {args.split} needs {root}/groups.csv (rune55)")
            items: Sequence[Labelled] = group_split(root, args.split)
        elif args.split == "audited":
            from zonkcam.models.rune55_audit import audited_heldout

            if not (root / "groups.csv").exists():
                raise CliError(f"--split audited needs {root}/groups.csv (rune55)")
            items = audited_heldout(root)
        else:
            items = yolo_folder(root / args.split if args.split else root)
    except (FileNotFoundError, LabelError) as exc:
        raise CliError(str(exc)) from None
    if args.files:
        try:
            listed = args.files.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CliError(f"--files {args.files}: cannot read a list of names ({exc})") from None
        wanted = {Path(line.strip()).name for line in listed if line.strip()}
        items = [it for it in items if it.image.name in wanted]
    if args.limit:
        items = items[:args.limit]
    if not items:
        raise CliError(f"{root}: no labelled images to evaluate")
    return items


def cmd_calibrate_dice(args: argparse.Namespace) -> int:
    from zonkcam.vision.calibrate import CalibrationError, calibrate
    from zonkcam.vision.colors import COLOR_NAME
    from zonkcam.vision.imageio import ImageError, decode, read_bytes

    names = [n.strip().lower() for n in args.colors.split(",")]
    if bad := [n for n in names if not COLOR_NAME.fullmatch(n)]:
        raise CliError(f"--colors: {bad[0]!r} is not a colour name (a word: red, white, "
                       "dark-blue), in {args.colors!r}")
    check_output(args.out, "--out")
    try:
        image = decode(args.image, read_bytes(args.image))
    except ImageError as exc:
        raise CliError(str(exc)) from exc
    reader = _reader(args.model)
    try:
        dice_set = calibrate(reader, image, names, args.name or args.out.stem)
    except CalibrationError as exc:
        raise CliError(str(exc), 1) from exc
    try:
        dice_set.save(args.out)
    except OSError as exc:
        raise CliError(f"cannot write {args.out}: {exc.strerror}", 1) from None
    for name, lab in dice_set.colors.items():
        print(f"{name}: Lab {[round(v) for v in lab]}", file=sys.stderr)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0
