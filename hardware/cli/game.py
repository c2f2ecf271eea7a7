"""Subcommands of the game layer: `zonkcam game new|sheet|play|act|throw|...`.

A game lives in the database (`--db FILE`, else ``$ZONKCAM_DB``, else
``~/.local/share/zonkcam/zonkcam.db``); every command works on its unfinished game, so a
game survives the command, the kiosk and the power. `game play` replays a script in memory,
or into the database with ``--db`` (``--resume`` carries on a script that was cut off).
"""
from __future__ import annotations

import argparse
import json
import shlex
import tomllib
from pathlib import Path
from typing import Any

from zonkcam.hardware.cli.rules import add_ruleset_arguments, ruleset_from
from zonkcam.hardware.options import CliError, game_id
from zonkcam.rules import sheet
from zonkcam.rules.actions import ActionError, parse_action
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.ruleset import Ruleset, RulesetError, with_option
from zonkcam.rules.script import ScriptError, parse_script, play_script
from zonkcam.rules.turn import IllegalAction


def register(sub: argparse._SubParsersAction) -> None:
    game = sub.add_parser("game", help="play a game: players, hits, the score sheet (kept in a database)")
    commands = game.add_subparsers(dest="game_command", metavar="ACTION", required=True)

    p = _command(commands, "new", "start a game (the unfinished one is left as it is)")
    add_ruleset_arguments(p)
    p.add_argument("--players", required=True, help="Zonk names in seating order: A,B,C")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="change one ruleset key for this game, e.g. hits.sympathy=[3]")
    p.add_argument("--started",
                   help="start time written on the sheet (default: now), e.g. '2002-03-13 12:44 EST'")
    p.set_defaults(func=cmd_new)

    p = _command(commands, "sheet", "print the score sheet of the unfinished (or given) game")
    p.add_argument("--game", type=game_id, help="a game id (see game archive)")
    p.set_defaults(func=cmd_sheet)

    p = _command(commands, "play", "replay a game script and print the final sheet")
    p.add_argument("script", type=Path, help="one action per line ('-' reads standard input)")
    add_ruleset_arguments(p)
    p.add_argument("--players", help="Zonk names in seating order (else the script's 'players' line)")
    p.add_argument("--resume", action="store_true",
                   help="with --db: carry on the unfinished game, skipping the actions it already has")
    p.add_argument("--echo", action="store_true", help="print each action once it is stored")
    p.set_defaults(func=cmd_play)

    p = _command(commands, "act", "record one action: 'Baldrick throw 1 5 2 3 6', 'undo', ...")
    p.add_argument("line", nargs="+", help="the action as a script line")
    p.set_defaults(func=cmd_act)

    for verb, what, nargs in (("throw", "dice as thrown", "+"), ("keep", "dice set aside", "+"),
                              ("bank", None, 0), ("spaz", "reason (off_table, dropped, ...)", "?"),
                              ("penalty", "space, dealer-spaz, miscall, clock, foul N, next N", "+")):
        p = _command(commands, verb, f"record a {verb} for the player whose turn it is (or --player)")
        if nargs:
            p.add_argument("words", nargs=nargs, default=[], metavar="ARG", help=what)
        p.add_argument("--player", help="who (default: whose turn it is)")
        p.set_defaults(func=cmd_verb, verb=verb)

    p = _command(commands, "undo", "take back the last action (X3)")
    p.set_defaults(func=cmd_act, line=["undo"])
    p = _command(commands, "correct", "replace action SEQ (see game log) and recompute after it (X3)")
    p.add_argument("seq", type=game_id)
    p.add_argument("words", nargs="+", metavar="ACTION", help="the corrected action")
    p.set_defaults(func=cmd_correct)

    p = _command(commands, "log", "list the actions of the game with their numbers")
    p.add_argument("--game", type=game_id)
    p.set_defaults(func=cmd_log)
    p = _command(commands, "archive", "finished games: start, end, scores, hits, G.H.A. (the Zonk File)")
    p.set_defaults(func=cmd_archive)
    p = _command(commands, "players", "every Zonk name ever played (names are for all time)")
    p.set_defaults(func=cmd_players)


def _command(commands: argparse._SubParsersAction, name: str, text: str) -> argparse.ArgumentParser:
    p = commands.add_parser(name, help=text, description=text)
    p.add_argument("--db", type=Path, help="the game database (default: $ZONKCAM_DB or "
                                           "~/.local/share/zonkcam/zonkcam.db)")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    return p


def _store(args: argparse.Namespace):
    from zonkcam.hardware.store import Store  # sqlite only for the commands that use it

    return Store(args.db)


def _current(store, game_id: int | None = None) -> int:
    game_id = game_id or store.unfinished()
    if game_id is None:
        raise CliError("no unfinished game; start one with: zonkcam game new --players A,B", 1)
    return game_id


def _show(game: Game, as_json: bool) -> None:
    if as_json:
        print(json.dumps(sheet.to_json(game, _odds())))
    else:
        print(sheet.render_text(game), end="")


def _odds():
    """The odds for the live turn (X2), when the odds module is there."""
    try:
        from zonkcam.rules.odds import turn_odds
    except ImportError:
        return None
    return turn_odds


def _options(ruleset: Ruleset, settings: list[str]) -> Ruleset:
    for setting in settings:
        key, eq, value = setting.partition("=")
        if not eq:
            raise CliError(f"--set {setting!r}: expected KEY=VALUE")
        try:
            ruleset = with_option(ruleset, key.strip(), tomllib.loads(f"v = {value.strip()}")["v"])
        except tomllib.TOMLDecodeError as exc:
            raise CliError(f"--set {setting!r}: {exc}") from None
        except RulesetError as exc:
            raise CliError(str(exc)) from None
    return ruleset


def cmd_new(args: argparse.Namespace) -> int:
    ruleset = _options(ruleset_from(args), args.set)
    players = tuple(p.strip() for p in args.players.split(",") if p.strip())
    started = zone = ""
    if args.started:
        try:
            script = parse_script(f"started {args.started}\n", ruleset, players)
        except ScriptError as exc:
            raise CliError(f"--started: {exc.reason}") from None
        started, zone = script.setup.started, script.setup.zone
    store = _store(args)
    try:
        game_id = store.new_game(GameSetup(ruleset, players, started, zone))
    except IllegalAction as exc:
        raise CliError(str(exc)) from None
    game = store.game(game_id)
    if not args.json:
        print(f"game {game_id} ({ruleset.name}) in {store.path}")
        for rule in game.setup.permanent_rules:
            print(f"permanent rule {rule.id} by {rule.owner}: {rule.text} (vote {rule.id} PLAYER yes|no)")
    _show(game, args.json)
    return 0


def cmd_sheet(args: argparse.Namespace) -> int:
    store = _store(args)
    game_id = args.game or store.unfinished() or (store.archive()[-1].id if store.archive() else None)
    _show(store.game(_current(store, game_id)), args.json)
    return 0


def cmd_act(args: argparse.Namespace) -> int:
    store = _store(args)
    game_id = _current(store)
    line = " ".join(args.line) if len(args.line) > 1 else args.line[0]
    try:
        game = store.record(game_id, line)
    except (ActionError, IllegalAction) as exc:
        raise CliError(str(exc)) from None
    _show(game, args.json)
    return 0


def cmd_verb(args: argparse.Namespace) -> int:
    words = [args.verb, *getattr(args, "words", [])]
    args.line = [shlex.join([args.player, *words] if args.player else words)]
    return cmd_act(args)


def cmd_correct(args: argparse.Namespace) -> int:
    args.line = [shlex.join(["correct", str(args.seq), *args.words])]
    return cmd_act(args)


def cmd_log(args: argparse.Namespace) -> int:
    store = _store(args)
    for seq, action in enumerate(store.log(_current(store, args.game)), start=1):
        print(f"{seq:4}  {action.at or '':19}  {action}")
    return 0


def cmd_archive(args: argparse.Namespace) -> int:
    games = _store(args).archive()
    if args.json:
        print(json.dumps([g.__dict__ for g in games]))
        return 0
    for g in games:
        scores = ", ".join(f"{p} {s} ({g.result['hits'][p]} hits)" for p, s in g.result["scores"].items())
        won = ", ".join(g.result["winners"] or g.result["finish_order"])
        print(f"game {g.id} {g.variant} {g.started} - {g.ended}: {scores}; G.H.A. {g.result['gha']}; {won}")
    return 0


def cmd_players(args: argparse.Namespace) -> int:
    names = _store(args).players()
    print(json.dumps(names) if args.json else "\n".join(names))
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    try:
        text = args.script.read_text(encoding="utf-8") if str(args.script) != "-" else _stdin()
    except UnicodeDecodeError:
        raise CliError(f"{args.script}: not a text file (a game script is UTF-8 text)") from None
    except OSError as exc:
        raise CliError(f"{args.script}: {exc.strerror}") from None
    ruleset = ruleset_from(args) if (args.variant or args.rules) else None
    players = tuple(p.strip() for p in args.players.split(",")) if args.players else ()
    try:
        script = parse_script(text, ruleset, players)
        game = play_script(script) if args.db is None else _play_into_store(args, script)
    except ScriptError as exc:
        raise CliError(f"{args.script}: {exc}") from None
    _show(game, args.json)
    return 0


def _play_into_store(args: argparse.Namespace, script: Any) -> Game:
    """Record the script's actions one by one (each committed before the next is read)."""
    store = _store(args)
    game_id = store.unfinished() if args.resume else None
    if game_id is None:
        game_id = store.new_game(script.setup)
    done = len(store.log(game_id))
    game = store.game(game_id)
    for number, line in script.actions[done:]:
        try:
            game = store.record(game_id, parse_action(line, script.setup.players))
        except (ActionError, IllegalAction) as exc:
            raise ScriptError(number, str(exc)) from None
        if args.echo:
            print(f"{number}: {game.log[-1]}", flush=True)
    return game


def _stdin() -> str:
    import sys

    return sys.stdin.read()
