"""Subcommands of the scoring core: `score` and `variants`."""
from __future__ import annotations

import argparse
import json

from zonkcam.hardware.options import CliError
from zonkcam.rules.dice import DieFace, check_colors, parse_die
from zonkcam.rules.ruleset import Ruleset, RulesetError, load_variant, resolve, variant_names
from zonkcam.rules.scoring import Scorer


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score one throw: every legal keep, the best first")
    add_ruleset_arguments(p)
    p.add_argument("dice", nargs="+", metavar="DIE",
                   help="face values 1-6 (or colour:face), by spaces or commas: 1 5 5 or 1,5,5")
    p.add_argument("--colors", help="one colour per die, comma-separated (e.g. red,red,white)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("variants", help="list the bundled variants with points and options")
    p.add_argument("--json", action="store_true", help="print the rulesets as JSON")
    p.add_argument("--show", metavar="NAME", help="print NAME's ruleset file (copy it for house rules)")
    p.set_defaults(func=cmd_variants)


class NotVariant(argparse.Action):
    """`-v` after a command: it meant --variant before 0.2; now a one-line pointer."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        parser.error("-v no longer means --variant: write --variant NAME "
                     "(zonkcam -v COMMAND ... logs verbosely)")


def add_ruleset_arguments(p: argparse.ArgumentParser) -> None:
    group = p.add_mutually_exclusive_group()
    # No -v: that is --verbose (`zonkcam -v COMMAND`), as everywhere else; the old short
    # spelling is caught and pointed at --variant.
    group.add_argument("--variant", help=f"one of: {', '.join(variant_names())} (default: wheaton)")
    p.add_argument("-v", action=NotVariant, nargs=0, help=argparse.SUPPRESS)
    group.add_argument("--rules", metavar="FILE", help="a ruleset file (house rules)")


def ruleset_from(args: argparse.Namespace) -> Ruleset:
    try:
        return resolve(args.variant, args.rules)
    except RulesetError as exc:
        raise CliError(str(exc)) from None


def cmd_score(args: argparse.Namespace) -> int:
    ruleset = ruleset_from(args)
    dice = _dice(args.dice, args.colors, ruleset)
    score = Scorer(ruleset).score(dice)
    best = score.best
    if args.json:
        print(json.dumps({
            "variant": ruleset.name,
            "dice": [{"value": d.value, "color": d.color} for d in dice],
            "best": best.to_json() if best else None,
            "options": [o.to_json() for o in score.options],
            "zonk": score.zonk,
            "events": [e.to_json() for e in score.events],
        }))
        return 0
    print(f"{ruleset.name}: {' '.join(str(d) for d in dice)}")
    if score.zonk:
        print(f"nothing scores: {ruleset.names.zonk}")
    for i, option in enumerate(score.options):
        kept = " ".join(str(dice[k].value) for k in option.keep)
        flags = f"  ({ruleset.names.hot_dice}: every die scored)" if option.all_scored else ""
        lead = "best" if i == 0 else "    "
        print(f"{lead} {option.points:>6}  keep {kept:<11}  {' + '.join(option.combos)}{flags}")
    for event in score.events:
        details = ", ".join(f"{k}={v}" for k, v in event.to_json().items() if k != "type")
        print(f"event: {event.type}" + (f" ({details})" if details else ""))
    return 0


def _dice(tokens: list[str], colors: str | None, ruleset: Ruleset) -> list[DieFace]:
    try:
        # "1,5,5" as "1 5 5": the way a throw is written down
        dice = [parse_die(t) for token in tokens for t in token.split(",")]
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if len(dice) > ruleset.dice:
        raise CliError(f"{ruleset.name} is played with {ruleset.dice} dice, got {len(dice)}")
    if colors is not None:
        names = [c.strip().lower() for c in colors.split(",")]
        if len(names) != len(dice) or not all(names):
            raise CliError(f"--colors names {len(names)} colours for {len(dice)} dice")
        dice = [DieFace(d.value, c) for d, c in zip(dice, names, strict=True)]
    try:  # a name outside the set (red,green,gren) would score as a colour of its own
        check_colors(dice, ruleset.dice_colors, ruleset.name)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    return dice


def cmd_variants(args: argparse.Namespace) -> int:
    if args.show:
        try:
            load_variant(args.show)
        except RulesetError as exc:
            raise CliError(str(exc)) from None
        from importlib import resources

        path = resources.files("zonkcam.rules.variants").joinpath(f"{args.show}.toml")
        print(path.read_text("utf-8"), end="")
        return 0
    rulesets = [load_variant(n) for n in variant_names()]
    if args.json:
        print(json.dumps([r.to_dict() for r in rulesets], indent=2))
        return 0
    for r in rulesets:
        s, t = r.scoring, r.turn
        print(f"{r.name}: {r.title}")
        colors = f" ({', '.join(r.dice_colors)})" if r.dice_colors else ""
        print(f"  {r.dice} dice{colors}, target {r.target}")
        print("  singles: " + ", ".join(f"{f} = {p}" for f, p in s.singles.items()))
        for n, table in s.of_a_kind.items():
            print(f"  {n} of a kind: " + ", ".join(f"{f}s {p}" for f, p in enumerate(table, 1)))
        for st in s.straights:
            extra = ", unbreakable" if st.unbreakable else ""
            print(f"  {st.name} {'-'.join(map(str, st.faces))}: {st.points}{extra}")
        if s.colored_pairs:
            print(f"  colored pairs: +{s.colored_pairs}")
        rules = [f"{r.names.hot_dice.lower()} {t.hot_dice}"]
        if t.open_minimum:
            rules.append(f"{r.names.open.lower()} {t.open_minimum}")
        if t.stop_minimum or t.stop_min_dice:
            rules.append(f"stop with {t.stop_minimum} or {t.stop_min_dice} dice scored")
        print("  turn: " + "; ".join(rules))
        if r.hooks:
            print("  hooks: " + ", ".join(r.hooks))
    return 0
