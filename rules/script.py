"""Game scripts: a whole game as text, one action per line (`zonkcam game play`).

    variant wheaton                  # optional header lines, before the first action
    players Baldrick,Biggles,Quean,Whoremaster
    started 2002-03-13 12:44 EST
    set hits.sympathy = [3]          # any ruleset key, TOML value
    magic 2 3 3 5 5
    Baldrick throw 1 5 2 3 6
    ...
    correct 7 Baldrick throw 1 5 2 3 4   # in a script, 7 is the script's line number

The first line that cannot be played stops the script: `ScriptError` has its line number.
"""
from __future__ import annotations

import dataclasses
import shlex
import tomllib
from dataclasses import dataclass
from datetime import datetime

from zonkcam.rules.actions import ActionError, AnyAction, Correct, Undo, parse_action
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.ruleset import Ruleset, RulesetError, load_variant, with_option
from zonkcam.rules.turn import IllegalAction

HEADERS = ("variant", "players", "started", "set")


class ScriptError(ValueError):
    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Script:
    setup: GameSetup
    actions: tuple[tuple[int, str], ...]  # (line number, text) of each action line


def parse_script(text: str, ruleset: Ruleset | None = None, players: tuple[str, ...] = ()) -> Script:
    """Header lines and action lines; ``ruleset``/``players`` from the command line win."""
    options: list[tuple[int, str, object]] = []
    variant: Ruleset | None = None
    started = zone = ""
    actions: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word in HEADERS and not actions:
            try:
                if word == "variant":
                    variant = load_variant(rest)
                elif word == "players":
                    players = players or tuple(p.strip() for p in rest.split(",") if p.strip())
                elif word == "started":
                    started, zone = _started(rest)
                else:
                    key, eq, value = rest.partition("=")
                    if not eq:
                        raise ValueError("set KEY = VALUE")
                    options.append((number, key.strip(), tomllib.loads(f"v = {value.strip()}")["v"]))
            except (RulesetError, ValueError, tomllib.TOMLDecodeError) as exc:
                raise ScriptError(number, str(exc)) from None
            continue
        actions.append((number, line))
    chosen = ruleset or variant or load_variant("wheaton")
    for number, option, setting in options:
        try:
            chosen = with_option(chosen, option, setting)
        except RulesetError as exc:
            raise ScriptError(number, str(exc)) from None
    if not players:
        raise ScriptError(1, "no players: a 'players A,B,...' line or --players")
    try:
        setup = GameSetup(chosen, tuple(players), started, zone)
    except IllegalAction as exc:
        raise ScriptError(1, str(exc)) from None
    return Script(setup, tuple(actions))


def play_script(script: Script) -> Game:
    """Play every action; the first illegal one raises `ScriptError` with its line number."""
    game = Game(script.setup)
    log: list[AnyAction] = []
    seq_of_line: dict[int, int] = {}
    for number, line in script.actions:
        try:
            action = parse_action(line, script.setup.players)
            if isinstance(action, Correct):  # scripts name the line to correct, the log its number
                if action.target not in seq_of_line:
                    raise ActionError(f"line {action.target} is not an action of this script")
                action = dataclasses.replace(action, target=seq_of_line[action.target])
            if isinstance(action, Undo | Correct):
                log.append(action)
                game = Game.replay(script.setup, log, new=1)  # the correction is checked as taken now
            else:
                action = game.normalize(action)
                game.apply(action)
                log.append(action)
                game.log = list(log)
        except (ActionError, IllegalAction) as exc:
            raise ScriptError(number, str(exc)) from None
        seq_of_line[number] = len(log)
    return game


def _started(text: str) -> tuple[str, str]:
    """``2002-03-13 12:44 EST`` -> ("2002-03-13T12:44", "EST")."""
    words = shlex.split(text)
    if len(words) < 2:
        raise ValueError("started DATE TIME [ZONE], e.g. started 2002-03-13 12:44 EST")
    when = datetime.fromisoformat(f"{words[0]}T{words[1]}")
    return when.isoformat(timespec="minutes"), " ".join(words[2:])
