"""Subcommands for the dice models a table has installed: `zonkcam model ...`."""
from __future__ import annotations

import argparse
import datetime
import json

from zonkcam.hardware.options import CliError
from zonkcam.models.registry import Registry, RegistryError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("model", help="list, switch or roll back the dice model in use")
    actions = p.add_subparsers(dest="model_action", metavar="ACTION", required=True)
    a = actions.add_parser("list", help="installed models, the active one marked")
    a.add_argument("--json", action="store_true")
    a = actions.add_parser("use", help="make a model the active one")
    a.add_argument("name")
    actions.add_parser("rollback", help="go back to the model active before")
    a = actions.add_parser("add", help="install a model file (e.g. one trained on another machine)")
    a.add_argument("file", help="a dice .onnx file (its MODEL_CARD.md beside it is copied too)")
    a.add_argument("--name")
    a.add_argument("--use", action="store_true", help="also make it the active model")
    p.set_defaults(func=cmd_model)


def cmd_model(args: argparse.Namespace) -> int:
    registry = Registry()
    try:
        if args.model_action == "list":
            entries = registry.entries()
            if args.json:
                print(json.dumps([{"name": e.name, "path": str(e.path), "active": e.active,
                                   "created": e.created, "metrics": e.metrics} for e in entries]))
                return 0
            for e in entries:
                when = ""
                if e.created:
                    when = datetime.datetime.fromtimestamp(e.created).strftime("%Y-%m-%d %H:%M")
                metrics = ", ".join(f"{k} {v}" for k, v in e.metrics.items() if not isinstance(v, dict))
                print(f"{'*' if e.active else ' '} {e.name:<24} {when:<16} {metrics}")
        elif args.model_action == "use":
            registry.use(args.name)
            print(f"now using {args.name}")
        elif args.model_action == "rollback":
            print(f"now using {registry.rollback()}")
        elif args.model_action == "add":
            name = registry.add(args.file, name=args.name)
            if args.use:
                registry.use(name)
            print(f"installed {name}" + (" (in use)" if args.use else f"; `zonkcam model use {name}`"))
    except RegistryError as exc:
        raise CliError(str(exc)) from None
    return 0
