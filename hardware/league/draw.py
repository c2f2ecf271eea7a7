"""The draw of a match's rounds and the standings (seed 001's match rules, L1-L3): pure functions.

A match is three teams (the seed's "games of three, one player from each team"). Round 1 is as
many games as the team with the fewest players present can fill, at least two; each game seats
one player of each team, and the teams take turns sitting first. Round 2 is one game: from each
team its player with the most hits in round 1 (the seed's "highest HSI"), plus the next best
player of the team with the highest first-round total.

Ties (the seed is silent): most hits, then the higher score, then the earlier listed player;
for the team total, the higher total, then more hits, then the team listed first.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

ROSTER_MIN, ROSTER_MAX = 4, 7  # L1
PRESENT_MIN = 2  # L1: a team needs 2 players to play a match
TEAMS_PER_MATCH = 3  # L2: games of three, one player from each team
FIRST_ROUND_MIN_GAMES = 2  # L2


class DrawError(ValueError):
    """A draw the match rules do not allow; the message says why."""


def check_roster(team: str, players: Sequence[str]) -> None:
    """L1: a roster holds 4 to 7 distinct players."""
    if len(set(players)) != len(players):
        raise DrawError(f"team {team}: a player is listed twice")
    if not ROSTER_MIN <= len(players) <= ROSTER_MAX:
        raise DrawError(f"team {team}: a roster holds {ROSTER_MIN}-{ROSTER_MAX} players, got {len(players)}")


def first_round(present: Mapping[str, Sequence[str]]) -> list[tuple[str, ...]]:
    """The games of round 1 (L2), each one player per team, in team order rotated per game.

    `present`: team -> the players present, in the captain's order (the first ones play)."""
    if len(present) != TEAMS_PER_MATCH:
        raise DrawError(f"a match is {TEAMS_PER_MATCH} teams (games of three), got {len(present)}")
    for team, players in present.items():
        if len(players) < PRESENT_MIN:
            raise DrawError(f"team {team} has {len(players)} player(s) present; a team needs "
                            f"{PRESENT_MIN} to play a match")
    everyone = [p for players in present.values() for p in players]
    if len(set(everyone)) != len(everyone):
        raise DrawError("a player is present for two teams")
    games = min(len(players) for players in present.values())
    assert games >= FIRST_ROUND_MIN_GAMES
    teams = list(present)
    drawn = []
    for g in range(games):
        seats = teams[g % len(teams):] + teams[:g % len(teams)]  # each team sits first in turn
        drawn.append(tuple(present[t][g] for t in seats))
    return drawn


@dataclass(frozen=True)
class Played:
    """One player's line of a finished first-round game."""

    player: str
    team: str
    score: int
    hits: int


def _rank(line: Played, order: dict[str, int]) -> tuple[int, int, int]:
    return (-line.hits, -line.score, order[line.player])


def second_round(teams: Sequence[str], lines: Sequence[Played]) -> tuple[str, ...]:
    """Round 2's players (L3): each team's most hits, then one more from the best team total."""
    order = {line.player: i for i, line in enumerate(lines)}
    by_team: dict[str, list[Played]] = {t: [] for t in teams}
    for line in lines:
        if line.team not in by_team:
            raise DrawError(f"{line.player} played for {line.team}, not in this match")
        by_team[line.team].append(line)
    for team, played in by_team.items():
        if len(played) < PRESENT_MIN:
            raise DrawError(f"team {team} has {len(played)} first-round result(s); round 2 needs every "
                            "first-round game over")
    ranked = {t: sorted(p, key=lambda line: _rank(line, order)) for t, p in by_team.items()}
    picked = [ranked[t][0].player for t in teams]
    totals = {t: (sum(p.score for p in by_team[t]), sum(p.hits for p in by_team[t])) for t in teams}
    best = min(teams, key=lambda t: (-totals[t][0], -totals[t][1], teams.index(t)))
    picked.append(ranked[best][1].player)
    return tuple(picked)


@dataclass
class Standing:
    team: str
    matches: int = 0
    match_wins: int = 0
    games: int = 0
    game_wins: int = 0
    points: int = 0
    hits: int = 0
    players: set[str] = field(default_factory=set)

    def to_json(self) -> dict:
        return {"team": self.team, "matches": self.matches, "match_wins": self.match_wins,
                "games": self.games, "game_wins": self.game_wins, "points": self.points,
                "hits": self.hits}


@dataclass(frozen=True)
class GameLine:
    """One player's line of a finished game, as the standings count it."""

    match: int
    round: int
    game: int
    player: str
    team: str
    score: int
    hits: int
    won: bool


def standings(teams: Sequence[str], lines: Sequence[GameLine]) -> list[Standing]:
    """The table: a match is won by the team of round 2's winner (shared on a tie); ordered by
    match wins, then games won, then points, then hits, then name."""
    table = {t: Standing(t) for t in teams}
    matches: dict[int, set[str]] = {}
    games: dict[tuple[str, int], None] = {}
    won: set[tuple[int, str]] = set()  # (match, team): a team wins a match once
    for line in lines:
        row = table.setdefault(line.team, Standing(line.team))
        matches.setdefault(line.match, set()).add(line.team)
        games[(line.team, line.game)] = None
        row.points += line.score
        row.hits += line.hits
        row.game_wins += line.won
        if line.won and line.round == 2:
            won.add((line.match, line.team))
    for _, team in won:
        table[team].match_wins += 1
    for team, _ in games:
        table[team].games += 1
    for members in matches.values():
        for team in members:
            table[team].matches += 1
    return sorted(table.values(),
                  key=lambda s: (-s.match_wins, -s.game_wins, -s.points, -s.hits, s.team))
