"""What every subcommand module shares."""
from __future__ import annotations

import argparse
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any


class CliError(Exception):
    """A problem the user can fix; printed as one line, never a traceback."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def bounded(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high` (a port, a count of turns...)."""
    return _within(int, "a whole number", low, high)


def bounded_float(low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` to `high` (a frame rate, seconds, GB...)."""
    return _within(float, "a number", low, high)


def _within(convert: Callable[[str], Any], noun: str, low: float, high: float) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {noun}") from None
        if not low <= value <= high:  # NaN is in no range
            raise argparse.ArgumentTypeError(f"{text} is not from {low} to {high}")
        return value

    return parse


port = bounded(1, 65535)
frame_rate = bounded_float(1, 240)  # a video file's or frame folder's rate: a camera's, not a typo
seed = bounded(0, 2**32 - 1)
game_id = bounded(1, 2**62)


def check_output(path: str | Path, option: str) -> Path:
    """An output file's folder must exist before any work is done (and the name is no folder)."""
    path = Path(path)
    if path.is_dir():
        raise CliError(f"{option} {path}: is a folder; give a file name")
    if not path.parent.is_dir():
        raise CliError(f"{option} {path}: no such folder {path.parent}")
    return path


def check_port(host: str, port: int) -> None:
    """A server's port must be free before any work is done (uvicorn would only log it)."""
    with socket.socket() as s:
        # as the server itself will: a port left in TIME_WAIT by a crash is free to take again
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            raise CliError(f"cannot listen on {host}:{port} ({exc.strerror}); try --port N") from None
