"""What the page's buttons do: one function per action of `POST /api/action`.

Each takes the table app and the action's JSON object, records what it means in the game (or
changes what the page shows), and returns the line the message bar says; `Refused` says
why not. `TableApp.act` runs them under the app's lock and publishes the state after.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from zonkcam.hardware.kiosk.rolloff import RollOff, RollOffError
from zonkcam.hardware.kiosk.umpire import Unread
from zonkcam.hardware.kiosk.web import Refused
from zonkcam.rules.actions import Action, Bank, Correct, Penalty, Throw, Undo, describe, effective
from zonkcam.rules.dice import DieFace, set_color
from zonkcam.rules.game import Game, GameSetup
from zonkcam.rules.ruleset import Ruleset, load_variant
from zonkcam.rules.turn import IllegalAction
from zonkcam.vision.table import TableConfig

if TYPE_CHECKING:
    from zonkcam.hardware.kiosk.app import Shown, TableApp

TURNS_LOST = {"foul", "next"}  # penalties that take a number of further turns (A13, A15)


def _bank(app: TableApp, action: dict[str, Any]) -> str:
    app.record(Bank(None))
    return ""


def _penalize(app: TableApp, action: dict[str, Any]) -> str:
    game = app.game
    app.record(_penalty(action, game.current, game.order))
    return ""


def _end_game(app: TableApp, action: dict[str, Any]) -> str:
    app.record(Action("end"))
    return ""


def _play_off(app: TableApp, action: dict[str, Any]) -> str:
    app.record(_playoff(action["action"], action, app.game))
    return ""


def _rolloff_throw(app: TableApp, action: dict[str, Any]) -> str:
    if app.rolloff is None:
        raise Refused("no roll-off is going on")
    value = action.get("value")
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise Refused(f"{value!r} is not a face value 1-6")
    app.rolloff_value(value)
    return ""


def _cancel_rolloff(app: TableApp, action: dict[str, Any]) -> str:
    app.rolloff, app.pending_ruleset = None, None
    app.restart_stream = True
    return "roll-off cancelled"


def _undo(app: TableApp, action: dict[str, Any]) -> str:
    standing = effective(app.game.log, app.game.setup.players)
    if not standing:
        raise Refused("nothing to undo")
    seq, undone = standing[-1]
    if undone.verb in ("roll", "goes"):  # the game would wait for a die the kiosk no longer asks for
        raise Refused("the order of play is settled: start a new game to throw for it again")
    app.record(Undo())
    app.redo_stack.append(undone)
    app.live.hits = {}  # the hits to take were the undone action's
    if app.shown is not None and app.shown.key == str(seq):
        app.shown = None  # the throw on the page no longer stands
    return f"took back: {describe(undone)}"


def _redo(app: TableApp, action: dict[str, Any]) -> str:
    if not app.redo_stack:
        raise Refused("nothing to redo")
    redone = app.redo_stack[-1]
    app.record(redone.stamped(None), redo=True)
    app.redo_stack.pop()
    return f"done again: {describe(redone)}"


def _new_game(app: TableApp, action: dict[str, Any]) -> str:
    """A new game: a ruleset (variant or house rules), players in seating order, and the
    order of play as given or from a roll-off. An unfinished game is left as it is in the
    store (the game log only ends games by the rules) and can be resumed."""
    choices = app.rulesets()
    key = action.get("ruleset")
    if not isinstance(key, str) or key not in choices:
        raise Refused(f"unknown ruleset {key!r}; choose one of: {', '.join(choices)}")
    label, ruleset = choices[key]
    if ruleset is None:
        ruleset = load_variant(label)
    players = action.get("players")
    if isinstance(players, str):
        players = players.split(",")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise Refused("players must be a list of names (or one comma-separated string)")
    names = tuple(p.strip() for p in players if p.strip())
    try:
        GameSetup(ruleset, names)  # names are checked before any roll-off starts
    except IllegalAction as exc:
        raise Refused(str(exc)) from None
    order = action.get("order", "given")
    left = app.game_id if not app.game.over else None
    if order == "given":
        app.rolloff = None
        app.start_game(ruleset, names)
        return (f"new game: {ruleset.name}, {', '.join(names)}"
                + (f" (game {left} left unfinished: resume it from New game)" if left else ""))
    if order == "rolloff":
        try:
            app.rolloff = RollOff(names)
        except RollOffError as exc:
            raise Refused(str(exc)) from None
        app.pending_ruleset, app.shown, app.restart_stream = ruleset, None, True
        return f"roll-off for the order of play: {names[0]}, throw one die"
    raise Refused(f"order must be 'given' or 'rolloff', not {order!r}")


def _resume(app: TableApp, action: dict[str, Any]) -> str:
    game_id = action.get("game")
    unfinished = {g[0] for g in app.store.unfinished_games()}
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id not in unfinished:
        raise Refused(f"no unfinished game {game_id!r} to resume")
    app.rolloff, app.pending_ruleset = None, None
    app.switch_to(game_id)
    return f"resumed game {game_id}: {', '.join(app.game.order)}"


def _set_table(app: TableApp, action: dict[str, Any]) -> str:
    """The table region as the scorekeeper dragged its corners on the live picture: used
    from the next throw on, and saved for the next start."""
    if app.live.frame_size is None:
        raise Refused("no picture from the camera yet to set the table region on")
    width, height = app.live.frame_size
    points = action.get("polygon")
    if not (isinstance(points, list) and 3 <= len(points) <= 16 and all(
            isinstance(p, list) and len(p) == 2 and all(
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= limit
                for v, limit in zip(p, (width, height), strict=True)) for p in points)):
        raise Refused(f"the region is 3 to 16 corners [x, y] inside the {width}x{height} picture")
    polygon = [(round(x), round(y)) for x, y in points]
    old = app.table.scaled(width, height) if app.table is not None else None
    app.table = TableConfig((width, height), polygon, old.keep_zone if old else None,
                             old.camera if old else None)
    app.restart_stream = True
    if app.table_path is None:
        return "table region set (until the kiosk restarts)"
    try:
        app.table.save(app.table_path)
    except OSError as exc:
        raise Refused(f"table region set, not saved to {app.table_path}: {exc.strerror}") from None
    return f"table region set and saved to {app.table_path}"


def _correct(app: TableApp, action: dict[str, Any]) -> str:
    """A tapped die of a named throw: the waiting throw is scored with it; a scored throw
    is corrected in the log (by its number), never another one."""
    key = action.get("throw")
    if isinstance(key, int) and not isinstance(key, bool):
        key = str(key)
    if not isinstance(key, str) or not key:
        raise Refused("say which throw to correct (its number)")
    index = action.get("die")
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise Refused(f"no die {index!r} to correct")
    value, color = _entered(action, app.game.ruleset)
    shown = app.shown
    if shown is not None and shown.key == key and not shown.scored:
        message = _score_entered(app, shown, index, value, color)
    else:
        message = _correct_logged(app, key, index, value, color)
    if shown is not None and shown.key == key and shown.capture and app.captures is not None:
        app.captures.correct(shown.capture, len(shown.seen.kept) + index, value=value, color=color)
    return message


def _score_entered(app: TableApp, shown: Shown, index: int, value: int | None, color: str | None) -> str:
    if index >= len(shown.seen.thrown):
        raise Refused(f"the throw waiting to be scored has no die {index}")
    if len(app.game.log) != shown.at_log:  # a bank, an undo...: it would score for someone else
        raise Refused("the game has moved on since that throw: throw again")
    shown.seen = shown.seen.with_die(index, value, color)
    try:
        app.score(shown)
    except Unread as exc:
        shown.reason = str(exc)
        return f"die {index + 1} entered; {exc}"
    return f"throw {shown.key} scored with die {index + 1} entered"


def _correct_logged(app: TableApp, key: str, index: int, value: int | None, color: str | None) -> str:
    if not key.isdigit():
        raise Refused(f"throw {key} is no longer waiting to be scored")
    seq = int(key)
    game = app.game
    old = dict(effective(game.log, game.setup.players)).get(seq)
    if not isinstance(old, Throw):
        raise Refused(f"action {seq} is not a throw that stands")
    if index >= len(old.dice):
        raise Refused(f"throw {seq} has no die {index}")
    die = DieFace(value or old.dice[index].value, color or old.dice[index].color)
    app.record(Correct(seq, index, die))
    shown = app.shown
    if shown is not None and shown.key == key and index < len(shown.seen.thrown):
        shown.seen = shown.seen.with_die(index, value, color)
    return f"{old.player}'s throw {seq}: die {index + 1} is now {die}"


def _entered(action: dict[str, Any], ruleset: Ruleset) -> tuple[int | None, str | None]:
    """The face and/or colour a person entered for a die."""
    value, color = action.get("value"), action.get("color")
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6):
        raise Refused(f"a die shows 1 to 6, not {value!r}")
    try:  # a colour name, and one of the set's (the rules' own check, as `score` and `game`)
        color = set_color(color, ruleset.dice_colors, ruleset.name)
    except ValueError as exc:
        raise Refused(str(exc)) from None
    if value is None and color is None:
        raise Refused("enter the die's face or colour")
    return value, color


def _penalty(action: dict[str, Any], current: str | None, players: list[str]) -> Penalty:
    """A penalty on the player named (default: the one throwing)."""
    kind = action.get("penalty")
    if not isinstance(kind, str):
        raise Refused(f"penalty must be a word, not {kind!r}")
    who = action.get("player") or current
    if not isinstance(who, str) or who not in players:
        raise Refused(f"no player {who!r} in this game")
    turns = action.get("turns")
    if turns in (None, "", 0) or kind not in TURNS_LOST:
        turns = 0
    elif isinstance(turns, bool) or not isinstance(turns, int) or not 0 < turns <= 20:
        raise Refused(f"turns lost must be a whole number from 1 to 20, not {turns!r}")
    return Penalty(who, kind, turns)


def _playoff(name: str, action: dict[str, Any], game: Game) -> Action:
    """A12: a lower player past the target requests a shaharazad; the leader accepts or declines."""
    if name == "shaharazad":
        who = action.get("player")
        if not isinstance(who, str) or who not in game.order:
            raise Refused(f"no player {who!r} in this game")
        return Action("shaharazad", who)
    leaders = game.leaders()
    if not leaders:
        raise Refused("nobody has reached the target")
    return Action(name, leaders[0])


PAGE_ACTIONS: dict[str, Callable[[TableApp, dict[str, Any]], str]] = {
    "bank": _bank, "undo": _undo, "redo": _redo, "penalty": _penalize, "end_game": _end_game,
    "shaharazad": _play_off, "accept": _play_off, "decline": _play_off, "correct": _correct,
    "new_game": _new_game, "resume": _resume, "table": _set_table, "rolloff_throw": _rolloff_throw,
    "cancel_rolloff": _cancel_rolloff,
}
