"""One picture from the camera exactly as `zonkcam play` sees it: for `zonkcam calibrate-dice`.

    python -m zonkcam.hardware.cameras.pi_still --table ~/.config/zonkcam/table.json -o row.jpg

The camera is opened the way play opens it (`cameras.camera_opener`): the same sensor mode and
stream, and the table file's fixed exposure, white balance and focus. A picture from
`rpicam-still` would be taken with automatic white balance at another resolution, so the
colours named from it would not be the colours play sees. Stop `zonkcam play` first: one
program at a time holds the camera.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
from zonkcam.hardware.cameras import CameraError, camera_opener, is_live
from zonkcam.vision.table import TableConfig, TableConfigError

WARM_UP_FRAMES = 10  # frames read before the picture: the fixed controls take a few to apply


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m zonkcam.hardware.cameras.pi_still", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--table", type=Path, metavar="FILE",
                   help="table file from `zonkcam calibrate --camera pi` (its camera controls)")
    p.add_argument("--camera", default="pi", help="pi or usb:N (default: pi)")
    p.add_argument("-o", "--out", type=Path, required=True, metavar="FILE", help="a .jpg or .png")
    args = p.parse_args(argv)
    if not is_live(args.camera):
        return _fail(f"--camera {args.camera}: expected pi or usb:N")
    if args.out.suffix.lower() not in (".jpg", ".jpeg", ".png"):
        return _fail(f"--out {args.out}: give a .jpg or .png file")
    if not args.out.parent.is_dir():
        return _fail(f"--out {args.out}: no folder {args.out.parent}")
    try:
        controls = TableConfig.load(args.table).camera if args.table else None
        camera = camera_opener(args.camera, controls=controls)()
    except (CameraError, TableConfigError) as exc:
        return _fail(str(exc))
    if args.table and not controls:
        print(f"{args.table} holds no camera controls (calibrated from a file?): the camera's "
              "automatic controls were fixed where they settled instead", file=sys.stderr)
    try:
        for _ in range(WARM_UP_FRAMES):
            camera.read()
        image = camera.still()
    except CameraError as exc:
        return _fail(str(exc), 1)
    finally:
        camera.close()
    if not cv2.imwrite(str(args.out), image):
        return _fail(f"--out {args.out}: could not be written", 1)
    print(f"{args.out}: {image.shape[1]}x{image.shape[0]}, as zonkcam play sees the table")
    return 0


def _fail(message: str, status: int = 2) -> int:
    print(f"pi_still: error: {message}", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
