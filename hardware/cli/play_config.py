"""`zonkcam play`'s config file: a table's options kept in TOML instead of one env-file string.

``$XDG_CONFIG_HOME/zonkcam/play.toml`` (``~/.config/zonkcam/play.toml``), or ``--config FILE``.
Its keys are play's long options without the dashes (``dice-set`` or ``dice_set``), each with
a value of the option's kind; a flag on the command line wins over the file::

    camera = "pi"
    table = "~/.config/zonkcam/table.json"
    dice-set = "~/.config/zonkcam/dice.json"
    players = ["Baldrick", "Biggles"]     # or "Baldrick,Biggles"
    button = 17
    lan = true
    evidence-days = 30

A key play does not have, or a value of the wrong kind, is a one-line error naming the key.
"""
from __future__ import annotations

import argparse
import os
import tomllib
from pathlib import Path
from typing import Any

from zonkcam.hardware.options import CliError

FILE_NAME = "play.toml"
NOT_KEYS = {"help", "config", "new"}  # --new starts one new game: in a file, every restart would


def default_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(base) / "zonkcam" / FILE_NAME


def defaults(args: argparse.Namespace) -> dict[str, Any]:
    """The config file's values as defaults for play's parser (`args.command_parser`), plus
    `config_keys`, the keys the file set; {} when there is no file at the default place."""
    given = args.config is not None
    path = Path(args.config).expanduser() if given else default_path()
    if not given and not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"--config {path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CliError(f"{path}: not TOML ({exc})") from None
    options = {a.dest: a for a in args.command_parser._actions
               if a.option_strings and a.dest not in NOT_KEYS and a.help is not argparse.SUPPRESS}
    values = {}
    for key, value in data.items():
        dest = key.replace("-", "_")
        if dest not in options:
            known = ", ".join(sorted(d.replace("_", "-") for d in options))
            raise CliError(f"{path}: unknown key {key!r} (play's keys: {known})")
        values[dest] = _value(path, key, value, options[dest])
    if "variant" in values and "rules" in values:
        raise CliError(f"{path}: 'variant' and 'rules' both set: keep one")
    return values | {"config_keys": tuple(values)}


def _value(path: Path, key: str, value: Any, action: argparse.Action) -> Any:
    """`value` as the option would take it from the command line, or a one-line error."""
    def wrong(expected: str) -> CliError:
        return CliError(f"{path}: {key} must be {expected}, not {value!r}")

    if action.nargs == 0:  # a switch: --lan, --gesture-bank/--no-gesture-bank
        if not isinstance(value, bool):
            raise wrong("true or false")
        return value
    if key.replace("-", "_") == "players" and isinstance(value, list):
        if not all(isinstance(name, str) for name in value):
            raise wrong("a list of names")
        value = ",".join(value)
    if action.type is not None:  # a bounded number: checked as its flag checks it
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise wrong("a number")
        try:
            assert callable(action.type)  # play's number options are typed by functions
            return action.type(str(value))
        except (argparse.ArgumentTypeError, ValueError) as exc:
            raise CliError(f"{path}: {key}: {exc}") from None
    if not isinstance(value, str):
        raise wrong("a string")
    if action.choices is not None and value not in action.choices:
        raise wrong(f"one of {', '.join(map(str, action.choices))}")
    return os.path.expanduser(value) if value.startswith("~") else value


def flags_win(args: argparse.Namespace) -> None:
    """--variant on the command line wins over the file's `rules` (which would otherwise win,
    as --rules does over --variant)."""
    keys = getattr(args, "config_keys", ())
    if "rules" in keys and "variant" not in keys and args.variant is not None:
        args.rules = None
