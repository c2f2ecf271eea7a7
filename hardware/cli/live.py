"""Subcommands for live throws: `replay`, `calibrate`, `simulate` (docs/live.md)."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from zonkcam.hardware.options import (
    CliError,
    bounded,
    bounded_float,
    check_output,
    frame_rate,
    seed,
)
from zonkcam.models.registry import MODEL_HELP


def register(sub: argparse._SubParsersAction) -> None:
    """Add this area's subcommands to the `zonkcam` parser."""
    p = sub.add_parser("replay", help="turn a video or a folder of frames into throw events",
                       description="Play a video file or a folder of frames (sorted by name) "
                       "through rest detection, quorum reading and the kept-vs-thrown tracker.")
    p.add_argument("source", metavar="VIDEO_OR_FRAME_DIR")
    p.add_argument("--table", metavar="FILE", help="table calibration from `zonkcam calibrate`")
    p.add_argument("--fps", type=frame_rate, help="frame rate (default: the video's; 30 for folders)")
    p.add_argument("--json", action="store_true", help="JSON Lines: one per throw, then a summary")
    p.add_argument("--dice", type=bounded(1, 12), default=None,
                   help="dice in play, for `lost` (default: learned from the throws)")
    p.add_argument("--settle", type=bounded_float(0.05, 10), default=0.3,
                   help="still time before a settle, s")
    p.add_argument("--model", metavar="NAME|FILE", help=MODEL_HELP)
    p.add_argument("--reader", choices=("model", "drawn"), default="model",
                   help="`drawn`: the simulator's own reader, for simulated footage without a "
                   "model")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("calibrate", help="find the table region (or take one) and save it",
                       description="Find the table or tray region in a picture, the first "
                       "frame of a video or a folder of frames, or a still from a camera, or take "
                       "a given polygon; write the calibration file and an overlay picture to "
                       "check it by eye. With --camera pi the camera's exposure, white balance "
                       "and focus are fixed and saved too, and `zonkcam play --table FILE` uses them.")
    p.add_argument("source", metavar="IMAGE|VIDEO|FRAME_DIR", nargs="?")
    p.add_argument("--camera", metavar="pi|usb:N",
                   help="take the picture from this camera instead of a file")
    p.add_argument("--polygon", help="the region as x1,y1,x2,y2,... (or x1,y1,x2,y2 for a box)")
    p.add_argument("--keep-zone", help="where kept dice are slid, as x1,y1,x2,y2,...")
    p.add_argument("-o", "--out", dest="output", default="table.json", metavar="FILE",
                   help="calibration file to write")
    p.add_argument("--output", dest="output", default=argparse.SUPPRESS, help=argparse.SUPPRESS)  # before 0.2
    p.add_argument("--overlay", help="picture to write with the region drawn on the frame")
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("simulate", help="generate simulated throw footage and its ground truth",
                       description="Write a video (.mp4 or .avi) or a frame folder of a "
                       "simulated game of throws, plus OUT's truth (.truth.json) and table "
                       "calibration (.table.json) beside it.")
    p.add_argument("output", metavar="OUT", help="video file (.mp4/.avi) or a folder for frames")
    p.add_argument("--seed", type=seed, default=0)
    p.add_argument("--throws", type=bounded(1, 10_000), default=10)
    p.add_argument("--dice", type=bounded(1, 12), default=6)
    p.add_argument("--fps", type=frame_rate, default=30.0)
    p.add_argument("--surface", choices=("random", "mat", "tray", "dark"), default="random",
                   help="dark: a dark tray, its floor shaded along the wall, on a bright or a "
                   "dark table")
    p.add_argument("--unkind", action="store_true",
                   help="as a real table plays: sleeves that blend in, dice held in view after "
                   "pick-ups, kept dice knocked by thrown ones, dice against the wall")
    p.add_argument("--crops", metavar="RUNE55_DIR",
                   help="cut real die faces from a rune55 folder instead of drawing them")
    p.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    from zonkcam.vision.sim.simulator import SimConfig, Simulation, unkind

    out = Path(args.output)
    if out.suffix and out.suffix.lower() not in (".mp4", ".avi"):
        raise CliError(f"{out}: give a .mp4 or .avi file, or a folder for frames")
    if out.suffix:
        check_output(out, "OUTPUT")
    elif not out.parent.is_dir():
        raise CliError(f"{out}: no such folder {out.parent}")
    try:
        config = SimConfig(seed=args.seed, throws=args.throws, dice=args.dice, fps=args.fps,
                           surface=args.surface, crops=args.crops)
        sim = Simulation(unkind(config, dark=False) if args.unkind else config)
    except (FileNotFoundError, RuntimeError) as exc:
        raise CliError(str(exc)) from None
    stem = out.parent / out.stem if out.suffix else out / "throws"
    try:
        if out.suffix:
            sim.write_video(out)
        else:
            sim.write_frames(out)
        truth = Path(f"{stem}.truth.json")
        table = Path(f"{stem}.table.json")
        sim.write_truth(truth)
        table.write_text(json.dumps(sim.truth["table"]) + "\n")
    except OSError as exc:
        raise CliError(f"cannot write {out}: {exc}", 1) from None
    print(f"{out}: {len(sim)} frames, {len(sim.truth['throws'])} throws; truth {truth}, "
          f"table {table}", file=sys.stderr)
    return 0


def _frames(source: Path, fps: float | None) -> tuple[Iterator, float]:
    """(t, frame) pairs from a video or a folder of images, and the frame rate used."""
    import cv2
    from zonkcam.vision.imageio import ImageError, pictures_in

    if source.is_dir():
        try:
            files = pictures_in(source)
        except ImageError as exc:
            raise CliError(str(exc)) from None
        rate = fps or 30.0

        def from_folder() -> Iterator:
            for i, f in enumerate(files):
                frame = cv2.imread(str(f), cv2.IMREAD_COLOR)
                if frame is None:
                    raise CliError(f"{f}: not a readable image")
                yield i / rate, frame

        return from_folder(), rate
    if not source.exists():
        raise CliError(f"{source}: no such file or folder")
    cap = cv2.VideoCapture(str(source))
    ok, first = cap.read() if cap.isOpened() else (False, None)
    if not ok:
        cap.release()
        raise CliError(f"{source}: not a video this build of OpenCV can read")
    rate = fps or cap.get(cv2.CAP_PROP_FPS) or 30.0
    if not 0 < rate < 1000:
        rate = 30.0

    def from_video() -> Iterator:
        frame, i = first, 0
        try:
            while frame is not None:
                yield i / rate, frame
                ok, frame = cap.read()
                frame = frame if ok else None
                i += 1
        finally:
            cap.release()

    return from_video(), rate


def cmd_replay(args: argparse.Namespace) -> int:
    import cv2
    from zonkcam.vision.stream import ThrowStream
    from zonkcam.vision.table import TableConfig, TableConfigError

    cv2.setNumThreads(1)
    try:
        table = TableConfig.load(args.table) if args.table else None
    except TableConfigError as exc:
        raise CliError(str(exc)) from None
    reader = _reader(args)
    frames, rate = _frames(Path(args.source), args.fps)
    from zonkcam.vision.motion import MotionConfig

    stream = ThrowStream(reader, table, motion=MotionConfig(settle_s=args.settle),
                         dice_count=args.dice)
    for t, frame in frames:
        try:
            event = stream.feed(frame, t)
        except ValueError as exc:  # frames of changing size
            raise CliError(f"{args.source}: {exc}") from None
        if event is None:
            continue
        if args.json:
            print(json.dumps(event.to_json()), flush=True)
        else:
            def show(dice: list) -> str:
                return " ".join(f"{d.value or '?'}{'' if d.status == 'ok' else '/' + d.status}"
                                for d in dice) or "-"

            print(f"{event.t:8.2f}s  thrown {show(event.thrown)}  kept {show(event.kept)}  "
                  f"removed {show(event.removed)}  {' '.join(event.flags)}", flush=True)
    if stream.stats.frames == 0:
        raise CliError(f"{args.source}: no frames")
    summary = dict(stream.stats.to_json(), fps=round(rate, 3),
                   duration_s=round(stream.stats.frames / rate, 2))
    if args.json:
        print(json.dumps({"summary": summary}))
    else:
        print(f"{summary['throws']} throws in {summary['frames']} frames "
              f"({summary['duration_s']} s); median latency beyond settle "
              f"{summary['latency_ms_median']} ms", file=sys.stderr)
    return 0


def _reader(args: argparse.Namespace):
    if args.reader == "drawn":
        from zonkcam.vision.sim.reader import DrawnDiceReader

        return DrawnDiceReader()
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.model import ModelError
    from zonkcam.vision.read import Reader

    try:
        return Reader(resolve_model(args.model), overhead=True)
    except RegistryError as exc:
        raise CliError(str(exc)) from None
    except ModelError as exc:
        raise CliError(f"{exc} (for simulated footage, --reader drawn needs no model)") \
            from None


def cmd_calibrate(args: argparse.Namespace) -> int:
    from zonkcam.vision.imageio import ImageError, check_writable, write_image
    from zonkcam.vision.table import (
        TableConfig,
        TableConfigError,
        draw_overlay,
        find_table,
        parse_polygon,
        region_warnings,
        resting_spots,
    )

    if (args.source is None) == (args.camera is None):
        raise CliError("give a picture or video file, or --camera pi|usb:N (one of them)")
    check_output(args.output, "--out")
    if args.overlay:
        try:
            check_writable(check_output(args.overlay, "--overlay"))
        except ImageError as exc:
            raise CliError(f"--overlay: {exc}") from None
    controls, stills = None, []
    if args.camera:
        image, controls = _camera_still(args.camera)
    else:
        image, stills = _calibration_picture(Path(args.source))
    h, w = image.shape[:2]
    try:
        polygon = parse_polygon(args.polygon) if args.polygon else find_table(image)
        keep = parse_polygon(args.keep_zone) if args.keep_zone else None
    except TableConfigError as exc:
        raise CliError(str(exc)) from None
    config = TableConfig((w, h), polygon, keep, controls)
    warnings = region_warnings(polygon, (w, h), image, resting_spots(stills))
    for text in warnings:
        print(f"warning: {text}", file=sys.stderr)
    try:
        config.save(args.output)
        if args.overlay:
            write_image(args.overlay, draw_overlay(image, config, warnings))
    except (OSError, ImageError) as exc:
        raise CliError(f"cannot write: {exc}", 1) from None
    how = "given" if args.polygon else "found"
    print(f"{args.output}: table region {how}, {len(polygon)} corners"
          + ("; camera exposure, white balance and focus saved" if controls else "")
          + (f"; overlay {args.overlay}" if args.overlay else ""), file=sys.stderr)
    return 0


STILLS_S = 180  # s of a video looked through for dice at rest (calibrate's warnings)


def _calibration_picture(source: Path) -> tuple:
    """The picture a table region is found in, and the stills of a video or frame folder (the
    first frame and where dice came to rest) that `region_warnings` checks it against."""
    from zonkcam.vision.imageio import FOREIGN_SUFFIXES, PICTURE_SUFFIXES, ImageError, decode, read_bytes

    if source.is_file():
        try:
            return decode(source, read_bytes(source)), []
        except ImageError as exc:
            if source.suffix.lower() in PICTURE_SUFFIXES + FOREIGN_SUFFIXES:
                raise CliError(str(exc)) from None
    elif not source.is_dir():
        raise CliError(f"{source}: no such file or folder")
    stills = _still_frames(source)  # a video or a folder of frames
    return stills[0], stills


def _still_frames(source: Path) -> list:
    """The video's first frame and one of each still spell after it (`RestDetector`'s
    settles) in its first `STILLS_S` seconds: where dice came to rest."""
    from zonkcam.vision.motion import RestDetector

    frames, _ = _frames(source, None)
    detector = RestDetector()
    stills: list = []
    for t, frame in frames:
        if t > STILLS_S:
            break
        if detector.update(frame, t).settled or not stills:
            stills.append(frame)
    return stills


def _camera_still(spec: str):
    """A full-resolution picture from a live camera once its automatic controls have settled,
    and (Pi camera) the exposure, gains and focus it was fixed at."""
    from zonkcam.hardware.cameras import CameraError, is_live
    from zonkcam.hardware.cli.play import open_source

    if not is_live(spec):
        raise CliError(f"--camera {spec}: expected pi or usb:N (for footage, give the file)")
    try:
        camera = open_source(spec, None)()
        try:
            for _ in range(30):  # about a second: a USB camera's auto exposure settles
                camera.read()
            return camera.still(), getattr(camera, "controls", None)
        finally:
            camera.close()
    except CameraError as exc:
        raise CliError(str(exc)) from None
