"""Game-level rules of a ruleset: how hits are earned, how rounds run, how the sheet is written.

These are the `[game]`, `[hits]` and `[sheet]` sections of a ruleset file, parsed as strictly
as the rest (`zonkcam.rules.ruleset`). Every reading of an ambiguous seed is one of these keys.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class GameRules:
    # W3: one die each, highest first, ties throw again; C9: the highest chooses first or last
    # (with 2-3 players; 4+ play in seating order); "seating": the order the players are listed.
    order: Literal["highest", "choose", "seating"] = "highest"
    # "first": whoever reaches the target wins at once; "round": the round is finished first
    # (albany: bonus round, rebuttal, shaharazad); "all": players finish one by one (detroit, D7).
    end: Literal["first", "round", "all"] = "first"
    magic_number: bool = False  # W2: the scorekeeper throws a magic number at the start
    five_ones_win: bool = False  # W5: five 1s in one throw wins the game at once
    halftime: int = 0  # W15: the HALFTIME SHOW starts when a player first reaches this (0: none)
    bonus_rounds: tuple[int, ...] = ()  # A9: a bonus round for each player reaching one of these
    rebuttal: int = 0  # A11: players with at least this many get a rebuttal turn (0: none)
    league: bool = False  # albany league play: no rebuttal (A11), the turn clock runs (A14)
    turn_clock: tuple[int, ...] = ()  # A14 seconds: first throw, later throws, countdown
    shaharazad: int = 0  # A12: target of the play-off between players past the target (0: none)
    shaharazad_open: tuple[int, ...] = (200, 50)  # first opening minimum, then + this per seat
    ask_to_roll: bool = False  # W17: the next player asks "Can I roll?" once per hit
    game_rules: bool = False  # D8: a six-die zonk (not the game's first) lets the player make one
    permanent_rules: bool = False  # D8: six of a kind earns a permanent rule, voted at game start


@dataclass(frozen=True)
class HitRules:
    """Which hits (bong hits, B's) a variant gives; scores are the player's recorded total."""

    thousand: bool = True  # each thousand mark the score reaches or passes (W11, A7, C6, D4)
    five_hundred: bool = False  # W12: the score ends in 500
    squares: tuple[int, ...] = ()  # W13: landing on one of these
    specials: tuple[int, ...] = ()  # A7 flair numbers, C6 special numbers: landing on one
    magic_scores: tuple[int, ...] = ()  # W14: landing on one is a magic hit (9950)
    magic_number: bool = False  # W14: throwing the magic number: every player gets a hit
    straight: bool = False  # W6, Z4
    devil: bool = False  # W7
    social: bool = False  # A1: four of a kind, every player gets a hit
    courtesy: bool = False  # A4: the thrower gives it to any player
    colors: bool = False  # Z4 COLORS
    train_wreck: bool = False  # Z4: a zonk with every die thrown
    slim_pickins: bool = False  # Z4
    opening: bool = False  # Z4: opening (a first banked turn)
    turn_thousand: bool = False  # Z4: each 1000 the turn total reaches, kept even if it zonks
    throw_thousand: bool = False  # D4: one B per 1000 scored in a single throw
    full_zonk: bool = False  # D5: six-die zonk
    zonk_count: int = 0  # D5: every n-th zonk of a player (0: none)
    zonk_streak: int = 0  # Z4: n zonks in a row, none of the first n-1 with hits (0: none)
    first_to: tuple[int, ...] = ()  # A7, Z4: the first player to reach each of these
    winner: bool = False  # A7, Z4
    finish: bool = False  # D7: reaching the target
    most_zonks: bool = False  # A7: at the end, the player(s) with the most zonks
    fewest_hits: bool = False  # Z4 (optional): at the end, the player(s) with the fewest hits
    three_in_three: bool = False  # A8
    integrity: bool = False  # W16 HIT INTEGRITY
    halftime: bool = False  # W15 the HALFTIME HIT
    bonus: bool = False  # A9 the bonus round hit
    # A10, C7: scoreless turns in a row before each optional sympathy hit; the last gap repeats
    sympathy: tuple[int, ...] = ()
    # A10: albany's sympathy hits are offered, not earned (no total counts them); classic's
    # (C7, seed 002:32) are hits like any other
    sympathy_optional: bool = True
    lost_on_zonk: tuple[str, ...] = ()  # sources lost when the turn does not bank (Z4)


@dataclass(frozen=True)
class SheetRules:
    """How the score sheet is written (W18, C10)."""

    # "total": a banked cell shows the new total ("» 500 ¶¶¶"); "running": the turn's points
    # and the total ("(+800) 800", classic).
    style: Literal["total", "running"] = "total"
    hit: str = "*"  # one per hit, right of the score
    hit_gap: str = ""  # between the score and the hits
    optional_hit: str = "(*)"  # a hit the player may take (sympathy, A10)
    # marks left of the score, by hit source, in this order
    marks: dict[str, str] = field(default_factory=dict)
    dash: str = "-------"  # W15: a turn that goes elsewhere (halftime show)
    row_label: str = ""  # "Round {words} Total" (classic), "Round {n}"; empty: no labels
    label_straights: bool = False  # C10: a turn that was one straight is written by its name
    header: bool = True  # start time (and the magic number) above the names
