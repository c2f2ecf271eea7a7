"""`zonkcam capture`: save every settled throw with the recognizer's labels, for retraining."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zonkcam.hardware.cli_common import CliError, bounded, bounded_float, frame_rate
from zonkcam.models.registry import MODEL_HELP


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("capture", help="save settled throws as a labelled dataset (YOLO + JSON)")
    p.add_argument("--camera", default="demo",
                   help="pi, usb:N, a video file, a folder of frames, or demo")
    p.add_argument("--out", required=True, type=Path, metavar="DIR",
                   help="the dataset folder (created if needed)")
    p.add_argument("--max-gb", type=bounded_float(0.001, 100_000), default=2.0,
                   help="size cap; the oldest unreviewed frames are pruned first (default 2)")
    p.add_argument("--table", metavar="FILE", help="table calibration from `zonkcam calibrate`")
    p.add_argument("--dice-set", metavar="FILE", help="dice colours from `zonkcam calibrate-dice`")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.add_argument("--throws", type=bounded(1, 1_000_000), help="stop after this many settled throws")
    p.add_argument("--fps", type=frame_rate, help="frame rate of a video file or frame folder")
    p.set_defaults(func=cmd_capture)


def cmd_capture(args: argparse.Namespace) -> int:
    from zonkcam.hardware.cameras import CameraError, DemoCamera, open_camera
    from zonkcam.models.captures import CaptureSet
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.model import ModelError
    from zonkcam.vision.read import Reader
    from zonkcam.vision.stream import ThrowStream
    from zonkcam.vision.table import TableConfig, TableConfigError

    if args.out.exists() and not args.out.is_dir():
        raise CliError(f"--out {args.out}: not a folder")
    try:
        model = resolve_model(args.model)
        camera = (DemoCamera(realtime=False) if args.camera == "demo"
                  else open_camera(args.camera, args.fps))
        reader = Reader(model, dice_set=args.dice_set, overhead=True)
        table = TableConfig.load(args.table) if args.table else getattr(camera, "table", None)
    except (CameraError, ModelError, RegistryError, TableConfigError) as exc:
        raise CliError(str(exc)) from None
    try:
        captures = CaptureSet(args.out, max_bytes=int(args.max_gb * 1024**3))
    except OSError as exc:
        camera.close()
        raise CliError(f"--out {args.out}: cannot make a dataset folder there ({exc.strerror})",
                       1) from None
    stream = ThrowStream(reader, table)
    saved = flagged = 0
    try:
        for frame in camera:
            event = stream.feed(frame.image, frame.t, full=camera.still)
            if event is None:
                continue
            assert stream.last_image is not None  # an event is decided from reads
            dice = [*event.kept, *event.thrown]
            name = captures.add(stream.last_image, dice, model=str(model), rejected=stream.last_unread)
            saved += 1
            unsure = sum(d["flagged"] for d in captures.meta(name)["dice"])
            flagged += unsure
            print(f"\r{saved} throws saved, {flagged} dice flagged for review", end="", file=sys.stderr)
            if args.throws and saved >= args.throws:
                break
    except CameraError as exc:
        raise CliError(str(exc), 1) from None
    finally:
        camera.close()
        print(file=sys.stderr)
    print(f"{saved} throws saved in {args.out}, {flagged} dice flagged for review")
    return 0
