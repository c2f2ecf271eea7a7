"""Rulesets: a variant's point values, thresholds and options, loaded from TOML.

Every variant is a ruleset file (`rules/variants/NAME.toml`); a table's house rules are
another such file, usually written as ``base = "wheaton"`` plus the keys it changes.
Parsing is strict so a typo is caught when the file is loaded, not mid-game: an unknown
key or a value of the wrong type raises `RulesetError` naming the key.
"""
from __future__ import annotations

import dataclasses
import tomllib
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from zonkcam.rules.gamerules import GameRules, HitRules, SheetRules
from zonkcam.rules.hooks import NAMES as HOOK_NAMES

FACES = (1, 2, 3, 4, 5, 6)


class RulesetError(ValueError):
    """A ruleset file that cannot be used; the message names the file and the bad key."""


@dataclass(frozen=True)
class Straight:
    faces: tuple[int, ...]
    points: int
    name: str = "straight"
    unbreakable: bool = False  # classic's Straw Hat: only all of it may be kept


@dataclass(frozen=True)
class Scoring:
    singles: dict[int, int] = field(default_factory=lambda: {1: 100, 5: 50})
    # of_a_kind[n][face - 1]: points for n matching dice thrown together. A count with no
    # entry is not a combination; its extra dice can only score as singles.
    of_a_kind: dict[int, tuple[int, ...]] = field(
        default_factory=lambda: {3: (1000, 200, 300, 400, 500, 600)}
    )
    straights: tuple[Straight, ...] = ()
    colored_pairs: int = 0  # detroit: bonus when each die matches its colour mate


@dataclass(frozen=True)
class TurnRules:
    hot_dice: Literal["mandatory", "optional"] = "mandatory"
    open_minimum: int = 0  # a player's first banked turn must reach this (dial in / open)
    stop_minimum: int = 0  # once open: bank only with this many points this turn ...
    stop_min_dice: int = 0  # ... or with at least this many dice scored this turn
    # classic's reading of its sample hand (C10): dice set aside earlier combine with dice
    # kept later until all have scored (a kept 1 and two thrown 1s make three 1s).
    combine_kept: bool = False
    # classic's sample sheet (C10) banks a Straw Hat at 1000: the hot dice of a straight may
    # stay instead of being thrown again.
    bank_after_straight: bool = False


@dataclass(frozen=True)
class Names:
    """The words a variant writes on its sheet."""

    zonk: str = "ZONK"  # nothing on the first throw of a turn
    bloades: str = "ZONK"  # nothing on a later throw
    vanna: str = "ZONK"  # nothing after every die had scored and all were thrown again
    hot_dice: str = "HOT DICE"  # every die has scored
    spaz: str = "SPAZ"
    open: str = "OPEN"
    # penalties a person calls, and a turn lost to an earlier penalty
    space: str = "SPACE"
    dealer_spaz: str = "DEALER SPAZ"
    miscall: str = "MISCALL"
    foul: str = "FOUL"
    clock: str = "TIME"
    skipped: str = "LOST TURN"


SpazReason = Literal["off_table", "knocked", "stacked", "lost", "dropped", "called"]
SPAZ_REASONS: tuple[str, ...] = typing.get_args(SpazReason)


@dataclass(frozen=True)
class SpazRules:
    counts_as_zonk: bool = False  # classic, detroit: a spaz is scored as a zonk
    skip_turns: dict[str, int] = field(default_factory=dict)  # reason -> further turns lost
    ignore: tuple[str, ...] = ()  # reasons that do not end the turn (albany: knocked dice)


@dataclass(frozen=True)
class Ruleset:
    name: str
    title: str = ""
    dice: int = 5
    dice_colors: tuple[str, ...] = ()  # the set's colours, die by die, when the rules need them
    target: int = 10_000
    hooks: tuple[str, ...] = ()  # named rule hooks in `zonkcam.rules.hooks`
    scoring: Scoring = field(default_factory=Scoring)
    turn: TurnRules = field(default_factory=TurnRules)
    names: Names = field(default_factory=Names)
    spaz: SpazRules = field(default_factory=SpazRules)
    game: GameRules = field(default_factory=GameRules)  # rounds, order, the end of the game
    hits: HitRules = field(default_factory=HitRules)
    sheet: SheetRules = field(default_factory=SheetRules)
    source: str = ""  # where it was loaded from

    def to_dict(self) -> dict[str, Any]:
        return _plain(dataclasses.asdict(self))


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


# --- loading --------------------------------------------------------------------------


def variant_names() -> list[str]:
    folder = resources.files("zonkcam.rules.variants")
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load_variant(name: str) -> Ruleset:
    """The bundled ruleset of a variant, e.g. ``load_variant("wheaton")``."""
    return _build(_variant_data(name), f"variant {name!r}")


def load_ruleset(path: str | Path) -> Ruleset:
    """A ruleset file; ``base = "VARIANT"`` at its top starts from that variant's values."""
    path = Path(path)
    where = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RulesetError(f"{where}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesetError(f"{where}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{where}: not valid TOML: {exc}") from None
    name = data.get("name", path.stem)  # house rules are named by their file, not their base
    if "base" in data:
        base = data["base"]
        if not isinstance(base, str):
            raise RulesetError(f"{where}: key 'base' must be a variant name")
        try:
            data = _merge(_variant_data(base), data)
        except RulesetError as exc:
            raise RulesetError(f"{where}: key 'base': {exc}") from None
    data["name"] = name
    data["source"] = where
    return _build(data, where)


def ruleset_from_dict(data: dict[str, Any], where: str = "stored ruleset") -> Ruleset:
    """A ruleset from `Ruleset.to_dict()` output (a game keeps its ruleset this way)."""
    return _build(dict(data), where)


def with_option(ruleset: Ruleset, key: str, value: Any) -> Ruleset:
    """The ruleset with one dotted key changed (``"hits.sympathy", [3]``), checked like a file."""
    data = ruleset.to_dict()
    *parents, last = key.split(".")
    node = data
    for part in parents:
        if not isinstance(node.get(part), dict):
            raise RulesetError(f"{ruleset.name}: unknown key {key!r}")
        node = node[part]
    if last not in node and not last.isdigit():  # a point table may gain a face
        raise RulesetError(f"{ruleset.name}: unknown key {key!r}")
    node[last] = value
    return _build(data, ruleset.name)


def resolve(variant: str | None = None, rules_file: str | Path | None = None) -> Ruleset:
    """The ruleset chosen on a command line: ``--rules FILE`` wins over ``--variant``."""
    if rules_file is not None:
        return load_ruleset(rules_file)
    return load_variant(variant or "wheaton")


def _build(data: dict[str, Any], where: str) -> Ruleset:
    ruleset = Ruleset(**_parse(data, Ruleset, where, "", skip={"base"}))
    for problem in _problems(ruleset):
        raise RulesetError(f"{where}: {problem}")
    return ruleset


def _problems(rs: Ruleset):
    """What makes a well-typed ruleset unplayable, one message per problem."""
    if not 1 <= rs.dice <= 6:
        yield f"key 'dice' must be 1 to 6, not {rs.dice}"
    if rs.dice_colors and len(rs.dice_colors) != rs.dice:
        yield f"key 'dice_colors' names {len(rs.dice_colors)} colours for {rs.dice} dice"
    for hook in rs.hooks:
        if hook not in HOOK_NAMES:
            yield f"key 'hooks': unknown hook {hook!r} (known: {', '.join(sorted(HOOK_NAMES))})"
    for face in rs.scoring.singles:
        if face not in FACES:
            yield f"key 'scoring.singles.{face}' is not a face 1-6"
    for n, table in rs.scoring.of_a_kind.items():
        if not 3 <= n <= 6:
            yield f"key 'scoring.of_a_kind.{n}': only 3 to 6 of a kind can be scored"
        if len(table) != 6:
            yield f"key 'scoring.of_a_kind.{n}' needs 6 values (faces 1-6), has {len(table)}"
    for i, s in enumerate(rs.scoring.straights):
        if not s.faces or any(f not in FACES for f in s.faces) or len(set(s.faces)) != len(s.faces):
            yield f"key 'scoring.straights[{i}].faces' must be distinct faces 1-6"
        elif len(s.faces) > rs.dice:
            yield f"key 'scoring.straights[{i}].faces' needs more dice than the set has"
    for reason in [*rs.spaz.skip_turns, *rs.spaz.ignore]:
        if reason not in SPAZ_REASONS:
            yield f"key 'spaz': unknown reason {reason!r} (known: {', '.join(SPAZ_REASONS)})"


def _variant_data(name: str) -> dict[str, Any]:
    names = variant_names()
    if name not in names:
        raise RulesetError(f"unknown variant {name!r} (known: {', '.join(names)})")
    text = resources.files("zonkcam.rules.variants").joinpath(f"{name}.toml").read_text("utf-8")
    data = tomllib.loads(text)
    data["source"] = f"variant {name}"
    return data


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _parse(data: Any, cls: type, where: str, path: str, skip: frozenset | set = frozenset()):
    """Check ``data`` against dataclass ``cls`` and return its constructor arguments."""
    if not isinstance(data, dict):
        raise RulesetError(f"{where}: key {path!r} must be a table")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{path}.{key}" if path else key
        if key in skip:
            continue
        if key not in known:
            raise RulesetError(f"{where}: unknown key {dotted!r}")
        out[key] = _convert(value, hints[key], where, dotted)
    required = [f.name for f in dataclasses.fields(cls) if f.name not in out and f.name not in skip
                and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    if required:
        keys = ", ".join(repr(f"{path}.{k}" if path else k) for k in required)
        raise RulesetError(f"{where}: missing key {keys}")
    return out


def _convert(value: Any, hint: Any, where: str, path: str) -> Any:
    origin = typing.get_origin(hint)

    def bad(expected: str) -> RulesetError:
        return RulesetError(f"{where}: key {path!r} must be {expected}, not {value!r}")

    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return hint(**_parse(value, hint, where, path))
    if hint is Any:
        return value
    if hint in _SCALARS:
        for expected, ok in _SCALARS[hint]:
            if not ok(value):
                raise bad(expected)
        return value
    if origin is Literal:
        if value not in typing.get_args(hint):
            raise bad("one of " + ", ".join(repr(a) for a in typing.get_args(hint)))
        return value
    if origin is tuple:
        if not isinstance(value, list):
            raise bad("a list")
        item = typing.get_args(hint)[0]
        return tuple(_convert(v, item, where, f"{path}[{i}]") for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise bad("a table")
        return _convert_table(value, hint, where, path)
    if origin in (types.UnionType, typing.Union):
        raise bad("set")  # not used by the schema
    raise TypeError(f"ruleset schema: unsupported type {hint!r} at {path}")  # a bug, not input


# A scalar hint's checks, in order: (what the message says it must be, the check). A bool is
# an int in Python, so an int must not be a bool; the schema has no negative counts or points.
_SCALARS: dict[Any, tuple[tuple[str, Callable[[Any], bool]], ...]] = {
    bool: (("true or false", lambda v: isinstance(v, bool)),),
    int: (("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
          ("zero or more", lambda v: v >= 0)),
    str: (("a string", lambda v: isinstance(v, str)),),
}


def _convert_table(value: dict[Any, Any], hint: Any, where: str, path: str) -> dict[Any, Any]:
    key_hint, value_hint = typing.get_args(hint)
    out = {}
    for k, v in value.items():
        key = k
        if key_hint is int:
            if not str(k).isdigit():
                raise RulesetError(f"{where}: key {path}.{k!r} must be a number")
            key = int(k)
        out[key] = _convert(v, value_hint, where, f"{path}.{k}")
    return out
