"""zonkcam.rules — the pure-Python scoring engine; variants are data.

    >>> from zonkcam.rules import Scorer, load_variant, make_dice
    >>> Scorer(load_variant("wheaton")).score(make_dice([1, 2, 3, 4, 5])).best.points
    150

No numpy, no OpenCV, no I/O beyond reading ruleset files.
"""
from zonkcam.rules.dice import DieFace, make_dice, parse_die
from zonkcam.rules.ruleset import Ruleset, RulesetError, load_ruleset, load_variant, resolve
from zonkcam.rules.scoring import Option, Scorer, ThrowScore
from zonkcam.rules.turn import IllegalAction, Turn

__all__ = [
    "DieFace",
    "IllegalAction",
    "Option",
    "Ruleset",
    "RulesetError",
    "Scorer",
    "ThrowScore",
    "Turn",
    "load_ruleset",
    "load_variant",
    "make_dice",
    "parse_die",
    "resolve",
]
