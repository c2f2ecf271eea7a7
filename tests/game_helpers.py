"""Helpers for the game tests: play scripts (files in tests/games/ or inline text)."""
from __future__ import annotations

from pathlib import Path

from zonkcam.rules import sheet
from zonkcam.rules.game import Game
from zonkcam.rules.script import parse_script, play_script

GAMES = Path(__file__).parent / "games"


def script(*names: str) -> str:
    return "".join((GAMES / f"{n}.zonk").read_text() for n in names)


def play(text: str, variant: str | None = None, players: str | None = None) -> Game:
    head = (f"variant {variant}\n" if variant else "") + (f"players {players}\n" if players else "")
    return play_script(parse_script(head + text))


def texts(game: Game) -> list[list[str]]:
    return [r.texts for r in sheet.rows(game)]


def hits(game: Game, player: str, source: str | None = None) -> int:
    return sum(1 for h in game.hits if h.player == player and not h.optional
               and (source is None or h.source == source))


def sources(game: Game, player: str) -> list[str]:
    return [h.source for h in game.hits if h.player == player]
