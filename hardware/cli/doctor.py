"""`zonkcam doctor`: what is wrong with this table's setup, one line per check, each with a fix.

Camera, model, the kiosk's port and display, GPIO, disk, versions, the game database and the
play config file. Every line is OK, WARN or FAIL; any FAIL makes the exit status 1. A check
that breaks is a FAIL line saying so, never a traceback. Nothing is changed: the database is
opened read-only (an old one is upgraded by `play`, not here).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import sqlite3
import struct
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from zonkcam.hardware.options import port

OK, WARN, FAIL = "OK", "WARN", "FAIL"
DISK_FAIL_MB, DISK_WARN_MB = 200, 1000  # a day of play writes a few MB; the SD card must not fill
READ_SEED = 1  # the drawn scene the model must read: six white dice on felt, values 1 3 3 5 5 6


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    message: str
    fix: str = ""

    def line(self) -> str:
        fix = f"  -> {self.fix}" if self.fix and self.status != OK else ""
        return f"{self.status:<4}  {self.name:<9} {self.message}{fix}"


@dataclass
class Context:
    """What the checks share: the options, and a running zonkcam found on the port."""

    args: argparse.Namespace
    serving: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="check this table's setup: camera, model, display, GPIO, disk, "
                       "versions, game database (exit 1 on any FAIL)",
                       description="One line per check, OK, WARN or FAIL, with what to do about it. "
                       "Safe while zonkcam play runs: its camera and port are then reported as in use.")
    p.add_argument("--camera", metavar="pi|usb:N|VIDEO|DIR",
                   help="the camera to open and read a frame from (default: as play finds one)")
    p.add_argument("--model", metavar="NAME|FILE", help="the dice model to load (default: the active model)")
    p.add_argument("--port", type=port, default=8080, help="the kiosk's port")
    p.add_argument("--db", help="the game database "
                   "(default: $ZONKCAM_DB or ~/.local/share/zonkcam/zonkcam.db)")
    p.add_argument("--config", metavar="FILE", help="play's config file (default: the one play reads)")
    p.add_argument("--json", action="store_true", help="one JSON object: every check and the verdict")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    checks = run_checks(Context(args))
    failed = any(c.status == FAIL for c in checks)
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [c.__dict__ for c in checks]}, indent=2))
    else:
        for check in checks:
            print(check.line(), flush=True)
        counts = {s: sum(c.status == s for c in checks) for s in (OK, WARN, FAIL)}
        print(f"{counts[OK]} OK, {counts[WARN]} WARN, {counts[FAIL]} FAIL")
    return 1 if failed else 0


# In this order: the port before the camera, as a running zonkcam holds the camera and says how
# its camera is. Each is `check_NAME` below.
CHECKS = ("versions", "platform", "port", "camera", "model", "display", "gpio", "disk", "database",
          "config")


def run_checks(ctx: Context) -> list[Check]:
    checks = []
    for name in CHECKS:
        step: Callable[[Context], Check] = globals()[f"check_{name}"]
        try:
            checks.append(step(ctx))
        except Exception as exc:  # a check that breaks is a finding, not a traceback
            checks.append(Check(name, FAIL, f"the check itself failed: {type(exc).__name__}: {exc}",
                                "report this with `zonkcam doctor` output"))
    return checks


# --- versions and platform ------------------------------------------------------------------

def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def check_versions(ctx: Context) -> Check:
    found = {"python": platform.python_version(), "zonkcam": _version("zonkcam") or "?"}
    missing = []
    for name, module in (("numpy", "numpy"), ("opencv", "cv2"), ("onnxruntime", "onnxruntime")):
        try:
            found[name] = __import__(module).__version__
        except Exception as exc:  # ImportError, or a wheel that does not load on this CPU/OS
            missing.append(f"{name} ({type(exc).__name__}: {exc})")
    text = ", ".join(f"{k} {v}" for k, v in found.items())
    if missing:
        return Check("versions", FAIL, f"{text}; cannot import {'; '.join(missing)}",
                     "reinstall: pip install --force-reinstall zonkcam (on a Pi: hardware/pi/setup.sh)")
    from zonkcam.hardware.cameras import on_raspberry_pi

    if on_raspberry_pi() and int(found["numpy"].split(".")[0]) >= 2:
        return Check("versions", WARN, f"{text}; NumPy 2 on a Pi",
                     "apt's picamera2 is built for NumPy 1: pip install 'numpy<2' (setup.sh pins it)")
    return Check("versions", OK, text)


def check_platform(ctx: Context) -> Check:
    machine = platform.machine()
    bits = struct.calcsize("P") * 8
    text = f"{platform.system()} {machine}, {bits}-bit Python"
    if bits == 32 or machine in ("armv6l", "armv7l"):
        return Check("platform", FAIL, text + ": OpenCV and onnxruntime have no 32-bit ARM wheels",
                     "install 64-bit Raspberry Pi OS (Bookworm)")
    return Check("platform", OK, text)


# --- the kiosk's port, the camera, the model ---------------------------------------------------

def _healthz(port_number: int) -> dict[str, Any] | None:
    """The running zonkcam's /healthz on this port, or None if what answers is not one."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port_number}/healthz", timeout=3) as reply:
            body = json.loads(reply.read(4096))
    except (OSError, ValueError):
        return None
    return body if isinstance(body, dict) and "uptime_s" in body else None


def check_port(ctx: Context) -> Check:
    number = ctx.args.port
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as play binds it
        try:
            s.bind(("127.0.0.1", number))
            return Check("port", OK, f"{number} is free for the kiosk")
        except OSError:
            pass
    ctx.serving = _healthz(number)
    if ctx.serving is None:
        return Check("port", FAIL, f"{number} is taken by a program that is not zonkcam",
                     f"see which with `ss -ltnp 'sport = :{number}'`, or play --port N")
    up = ctx.serving.get("uptime_s", 0)
    return Check("port", OK, f"zonkcam is serving on {number} (up {up:.0f} s)")


def check_camera(ctx: Context) -> Check:
    if ctx.serving is not None and ctx.args.camera is None:
        state, age = ctx.serving.get("camera"), ctx.serving.get("frame_age_s")
        text = f"in use by the running zonkcam: {state}"
        text += f", last frame {age} s ago" if age is not None else ""
        if not ctx.serving.get("ok", True):
            return Check("camera", FAIL, text, "journalctl --user -u zonkcam says why; check the cable")
        return Check("camera", OK, text)
    from zonkcam.hardware.cameras import (
        CameraError,
        camera_opener,
        detect_camera,
        on_raspberry_pi,
        picamera2_problem,
    )

    spec = ctx.args.camera or detect_camera()
    if spec == "demo":
        problem = picamera2_problem() if on_raspberry_pi() else None
        if problem:
            return Check("camera", FAIL, problem, "then run zonkcam doctor again")
        return Check("camera", WARN, "no camera found: play would run the demo",
                     "connect a camera (`rpicam-hello --list-cameras` lists what a Pi sees), "
                     "or name one with --camera")
    try:
        camera = camera_opener(spec)()
    except CameraError as exc:
        return Check("camera", FAIL, str(exc), "check the cable and that no other program holds it")
    try:
        frame = camera.read()
    except CameraError as exc:
        return Check("camera", FAIL, f"{spec}: opened, but {exc}", "check the cable; try another camera")
    finally:
        camera.close()
    if frame is None:
        return Check("camera", FAIL, f"{spec}: opened, but gave no frame", "check the cable")
    h, w = frame.image.shape[:2]
    return Check("camera", OK, f"{spec}: a {w}x{h} frame read")


def check_model(ctx: Context) -> Check:
    import numpy as np
    from zonkcam.models.registry import RegistryError, resolve_model
    from zonkcam.vision.model import ModelError
    from zonkcam.vision.read import Reader
    from zonkcam.vision.sim.drawn import render_scene

    try:
        path = resolve_model(ctx.args.model)
        reader = Reader(path)
    except (RegistryError, ModelError) as exc:
        return Check("model", FAIL, str(exc), "zonkcam model list; zonkcam model use shipped")
    image, drawn = render_scene(np.random.default_rng(READ_SEED), 640, 480, n=6, size=70, kind="felt",
                                colors=("white",))
    want = sorted(d.value for d in drawn)
    got = sorted(d.value for d in reader.read(image).dice if d.value is not None)
    right = len(want) - len(_missing(want, got))
    text = f"{path.name} ({path.parent}) read {right} of {len(want)} drawn dice"
    if right < len(want) - 1:
        return Check("model", WARN, f"{text}: {got} for {want}",
                     "zonkcam model rollback, or zonkcam model use shipped")
    return Check("model", OK, text)


def _missing(want: list[int], got: list[int]) -> list[int]:
    return list((Counter(want) - Counter(got)).elements())  # in `want`'s order


# --- display, GPIO, disk ------------------------------------------------------------------------

def check_display(ctx: Context) -> Check:
    from zonkcam.hardware.cameras import on_raspberry_pi

    runtime = Path(os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}")
    sockets = sorted(p.name for p in runtime.glob("wayland-*") if not p.name.endswith(".lock"))
    if sockets:
        return Check("display", OK, f"Wayland display {', '.join(sockets)} for the kiosk's browser")
    if os.environ.get("DISPLAY"):
        return Check("display", OK, f"X display {os.environ['DISPLAY']} for the kiosk's browser")
    if not on_raspberry_pi():
        return Check("display", OK, "no desktop here: open the page in any browser")
    return Check("display", WARN, "no desktop session for this user: the kiosk's browser has no screen",
                 "sudo raspi-config: System Options > Boot / Auto Login > Desktop Autologin; reboot")


def check_gpio(ctx: Context) -> Check:
    from zonkcam.hardware.cameras import on_raspberry_pi

    if not on_raspberry_pi():
        return Check("gpio", OK, "not a Raspberry Pi: no bank button (skipped)")
    missing = [m for m in ("gpiozero", "lgpio") if not _importable(m)]
    if missing:
        return Check("gpio", WARN, f"cannot import {', '.join(missing)}: --button would not work",
                     "sudo apt install python3-gpiozero python3-lgpio (a venv with --system-site-packages)")
    return Check("gpio", OK, "gpiozero and lgpio import: --button GPIO works")


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except Exception:  # not installed, or no pin factory for this board
        return False
    return True


def _db_path(ctx: Context) -> Path:
    from zonkcam.hardware.store import default_path

    return Path(ctx.args.db).expanduser() if ctx.args.db else default_path()


def check_disk(ctx: Context) -> Check:
    folder = _db_path(ctx).parent
    existing = next(p for p in (folder, *folder.parents) if p.exists())
    free_mb = shutil.disk_usage(existing).free / 1e6
    evidence = folder / "evidence"
    used_mb = sum(p.stat().st_size for p in evidence.glob("*/*.jpg")) / 1e6 if evidence.is_dir() else 0.0
    text = f"{free_mb:,.0f} MB free in {existing}; evidence pictures {used_mb:,.0f} MB"
    if free_mb < DISK_FAIL_MB:
        return Check("disk", FAIL, text, "free space: play --evidence-mb N keeps fewer pictures")
    if free_mb < DISK_WARN_MB:
        return Check("disk", WARN, text, "free some space, or play --evidence-mb N")
    return Check("disk", OK, text)


# --- the game database and the config file ----------------------------------------------------

def check_database(ctx: Context) -> Check:
    from zonkcam.hardware.store import SCHEMA_VERSION, inspect

    path = _db_path(ctx)
    if not path.exists():
        return Check("database", OK, f"none yet at {path} (made by the first game)")
    if path.is_dir():
        return Check("database", FAIL, f"{path} is a folder", "give --db the database's file name")
    try:
        found = inspect(path)
    except sqlite3.Error as exc:
        return Check("database", FAIL, f"{path}: not a game database zonkcam can read ({exc})",
                     "move it aside (play starts a new one), or give --db")
    integrity, version = found.integrity, found.version
    text = f"{path}: schema {version}, {found.games} games ({found.unfinished} unfinished)"
    if integrity != "ok":
        return Check("database", FAIL, f"{text}; integrity check: {integrity}",
                     f"stop zonkcam, then: sqlite3 {path} '.recover' | sqlite3 recovered.db")
    if version > SCHEMA_VERSION:
        return Check("database", FAIL, f"{text}, from a newer zonkcam (this one knows {SCHEMA_VERSION})",
                     "update zonkcam")
    if version < SCHEMA_VERSION:
        return Check("database", WARN, f"{text}; upgraded to schema {SCHEMA_VERSION} when play opens it",
                     "nothing to do: back it up first if you like")
    return Check("database", OK, text + ", integrity ok")


def check_config(ctx: Context) -> Check:
    from zonkcam.hardware.cli import build_parser, play_config
    from zonkcam.hardware.options import CliError

    play = build_parser().parse_args(["play"] + (["--config", ctx.args.config] if ctx.args.config else []))
    path = Path(ctx.args.config).expanduser() if ctx.args.config else play_config.default_path()
    try:
        values = play_config.defaults(play)
    except CliError as exc:
        return Check("config", FAIL, str(exc), "fix that key (zonkcam play --help lists them)")
    if not values:
        return Check("config", OK, f"no {path}: play runs on its flags")
    keys = ", ".join(k.replace("_", "-") for k in values["config_keys"])
    return Check("config", OK, f"{path}: {keys}")


__all__ = ["FAIL", "OK", "WARN", "Check", "register", "run_checks"]
