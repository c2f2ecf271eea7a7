"""The `zonkcam` command: one subcommand per job, each defined beside the code it drives.

Each command group is one module of this package (the review page's is `kiosk.review`) with
``register(subparsers)``, which adds its subcommands and sets ``func`` on each; a handler
returns an exit status or raises `CliError` for a clear one-line message. Heavy imports
(OpenCV, onnxruntime) happen inside handlers so that `zonkcam score` stays instant.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn, TypeVar

from zonkcam.hardware.cli import capture, doctor, game, league, live, models, play, rules, train, vision
from zonkcam.hardware.kiosk import review
from zonkcam.hardware.options import CliError
from zonkcam.hardware.store import StoreError


class HelpFormatter(argparse.HelpFormatter):
    """Every option's default in its help as "(default: X)", unless the help already says what
    the default is or there is none worth saying (no value, off, a required positional)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or not worth_saying(action):
            return action.help
        return f"{text} (default: %(default)s)".lstrip()


def worth_saying(action: argparse.Action) -> bool:
    """Whether an option's default says something (not: none, off, hidden, a positional)."""
    if action.help is argparse.SUPPRESS or action.default is argparse.SUPPRESS or action.default is False:
        return False
    return action.default not in (None, [], "") and bool(action.option_strings)


ActionT = TypeVar("ActionT", bound=argparse.Action)


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error said in one line that points at --help (the full usage
    text buries the one thing that was wrong), and defaults shown in every command's help (the
    subcommands' parsers are made by this class too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def _add_action(self, action: ActionT) -> ActionT:
        if action.help is None and worth_saying(action):  # argparse shows no help, not even a default
            action.help = "(default: %(default)s)"
        return super()._add_action(action)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def version() -> str:
    try:
        return metadata.version("zonkcam")
    except metadata.PackageNotFoundError:  # run from a tree that was never installed
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="zonkcam",
        description="Hands-free scorer for the dice game Zonk.",
    )
    parser.add_argument("--version", action="version", version=f"zonkcam {version()}")
    parser.add_argument("--log-level", choices=LOG_LEVELS, default="info",
                        help="what the running table reports on stderr (journald on a Pi)")
    parser.add_argument("-v", "--verbose", action="store_const", dest="log_level", const="debug",
                        help="the same as --log-level debug")
    # Not required: a bare `zonkcam` prints the help instead of a usage error (see main).
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (play, rules, game, vision, live, models, capture, train, review, league, doctor):
        module.register(sub)
    return parser


# Our own messages say what went wrong with a file; OpenCV's and FFmpeg's native ones repeat it
# as noise (a user may still turn them on by setting these before running zonkcam).
LOG_LEVELS = ("debug", "info", "warning", "error")
QUIET_NATIVE_LOGS = {"OPENCV_LOG_LEVEL": "OFF", "OPENCV_FFMPEG_LOGLEVEL": "-8"}


def main(argv: Sequence[str] | None = None) -> int:
    for name, value in QUIET_NATIVE_LOGS.items():
        os.environ.setdefault(name, value)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # A bare `zonkcam` is someone asking what it does: the help, on stdout so that it pages.
        # Still status 2, as for any missing argument: a script whose command word came out
        # empty must not pass for one that ran.
        parser.print_help()
        return 2
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    try:
        if (config := getattr(args, "config_defaults", None)) is not None:
            # A command's config file (play.toml): its values become the command's defaults
            # and the command line is read again over them, so that a flag wins.
            args.command_parser.set_defaults(**config(args))
            args = parser.parse_args(argv)
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"zonkcam {args.command}: error: {exc}", file=sys.stderr)
        return exc.status
    except StoreError as exc:  # the game database: not one, or a game it cannot give back
        print(f"zonkcam {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0

