"""`zonkcam capture`: save every settled throw with the recognizer's labels, for retraining.

`--camera` is a stream (a camera, a video, a folder of video frames): a throw is saved once it
settles. `--stills DIR` is a folder of photos (a phone's): each photo is one scene, saved as it
is read (`hardware.cameras.stills`).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zonkcam.hardware.options import CliError, bounded, bounded_float, frame_rate
from zonkcam.models.registry import MODEL_HELP


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("capture", help="save settled throws as a labelled dataset (YOLO + JSON)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--camera", default="demo",
                        help="pi, usb:N, a video file, a folder of video frames, or demo")
    source.add_argument("--stills", type=Path, metavar="DIR",
                        help="a folder of photos (a phone's): each photo is saved as one scene")
    p.add_argument("-o", "--out", required=True, type=Path, metavar="DIR",
                   help="the dataset folder (created if needed)")
    p.add_argument("--max-gb", type=bounded_float(0.001, 100_000), default=2.0,
                   help="size cap; the oldest unreviewed frames are pruned first")
    p.add_argument("--table", metavar="FILE", help="table calibration from `zonkcam calibrate`")
    p.add_argument("--dice-set", metavar="FILE", help="dice colours from `zonkcam calibrate-dice`")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.add_argument("--throws", type=bounded(1, 1_000_000), help="stop after this many settled throws")
    p.add_argument("--fps", type=frame_rate, help="frame rate of a video file or frame folder")
    p.set_defaults(func=cmd_capture)


def cmd_capture(args: argparse.Namespace) -> int:
    from zonkcam.hardware.cameras import CameraError, open_camera
    from zonkcam.models.captures import CaptureSet
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.model import ModelError
    from zonkcam.vision.progress import Progress
    from zonkcam.vision.read import Reader
    from zonkcam.vision.stream import ThrowStream
    from zonkcam.vision.table import TableConfig, TableConfigError

    if args.out.exists() and not args.out.is_dir():
        raise CliError(f"--out {args.out}: not a folder")
    if args.stills is not None:
        return _capture_stills(args)
    try:
        model = resolve_model(args.model)
        # The Pi camera opens as `zonkcam play` opens it: with the table file's fixed
        # exposure, white balance and focus, so captured throws look like played ones.
        table = TableConfig.load(args.table) if args.table else None
        camera = open_camera(args.camera, args.fps, realtime=False,  # the demo runs flat out
                             controls=table.camera if table else None)
        reader = Reader(model, dice_set=args.dice_set, overhead=True)
        table = table or getattr(camera, "table", None)
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
    bar = Progress(args.throws, "capture", unit="throws", every=1)
    try:
        while (frame := camera.read()) is not None:
            event = stream.feed(frame.image, frame.t, full=camera.still)
            if event is None:
                continue
            assert stream.last_image is not None  # an event is decided from reads
            dice = [*event.kept, *event.thrown]
            name = captures.add(stream.last_image, dice, model=str(model), rejected=stream.last_unread)
            captures.fill_looks(reader.model, [name])  # what orders the review queue
            saved += 1
            unsure = sum(d["flagged"] for d in captures.meta(name)["dice"])
            flagged += unsure
            bar.step(f"{flagged} dice flagged for review")
            if args.throws and saved >= args.throws:
                break
    except CameraError as exc:
        raise CliError(str(exc), 1) from None
    finally:
        camera.close()
        bar.close()
    print(f"{saved} throws saved in {args.out}, {flagged} dice flagged for review")
    if not saved and Path(args.camera).is_dir():
        print(f"(a folder of separate photos? `zonkcam capture --stills {args.camera}` saves each "
              "one; --camera takes a folder as video frames)", file=sys.stderr)
    return 0


def _capture_stills(args: argparse.Namespace) -> int:
    """Each photo of --stills read and saved as one scene, with the dice it could not read."""
    from zonkcam.hardware.cameras.stills import StillsError, still_files, stills
    from zonkcam.models.captures import CaptureSet
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.imageio import ImageError
    from zonkcam.vision.model import ModelError
    from zonkcam.vision.progress import Progress
    from zonkcam.vision.read import Reader

    if args.table or args.throws or args.fps:
        raise CliError("--table, --throws and --fps are for a camera stream, not --stills "
                       "(each photo is framed on its own)")
    try:
        model = resolve_model(args.model)
        reader = Reader(model, dice_set=args.dice_set)  # photos are taken from any angle
        n_files = len(still_files(args.stills))
        captures = CaptureSet(args.out, max_bytes=int(args.max_gb * 1024**3))
    except (ModelError, RegistryError, StillsError) as exc:
        raise CliError(str(exc)) from None
    except OSError as exc:
        raise CliError(f"--out {args.out}: cannot make a dataset folder there ({exc.strerror})") from None
    saved = dice = flagged = 0
    unreadable: list[str] = []
    bar = Progress(n_files, "capture", unit="photos")
    for path, image in stills(args.stills):
        if isinstance(image, ImageError):
            unreadable.append(path.name)
            print(f"skipped {image}", file=sys.stderr)
            bar.step()
            continue
        reading = reader.read(image)
        name = captures.add(image, reading.dice, model=str(model), rejected=reading.rejected, still=True)
        captures.fill_looks(reader.model, [name])
        meta = captures.meta(name)
        saved += 1
        dice += len(reading.dice)
        flagged += sum(d["flagged"] for d in meta["dice"])
        bar.step(f"{path.name}: {len(reading.dice)} dice read")
    bar.close()
    if not saved:
        raise CliError(f"--stills {args.stills}: none of its {n_files} photos could be read", 1)
    skipped = f", {len(unreadable)} unreadable skipped" if unreadable else ""
    unread = sum(len(captures.meta(n)["dice"]) for n in captures.names()[-saved:]) - dice
    print(f"{saved} photos, {dice} dice saved in {args.out} (and {unread} die-like spots it could not "
          f"read; {flagged} to look at in zonkcam review{skipped})")
    return 0
