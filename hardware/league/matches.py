"""Matches: the draw of each round into games (`draw`), games offered to tables, and what the
league shows of them (a match, the live games, standings, a player's history)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from psycopg.types.json import Jsonb
from zonkcam.hardware.league import draw
from zonkcam.hardware.league.db import DB, League, LeagueError, returned, ruleset_for

GAME_COLUMNS = ("g.id, r.number AS round, g.number, t.name AS table_name, g.players, g.status, g.result,"
                " g.problem, g.started, g.ended, r.match_id")
GAME_FROM = " FROM games g JOIN rounds r ON r.id = g.round_id LEFT JOIN tables t ON t.id = g.table_id"


def new_match(league: League, night_id: int, present: Mapping[str, Sequence[str]],
              tables: Sequence[str] = ()) -> dict[str, Any]:
    """A match of three teams on a match night: round 1 drawn (L2) and offered to `tables`."""
    if len(set(tables)) != len(tables):
        raise LeagueError("round 1's games are played at separate tables (L2): a table is named twice")
    try:
        games = draw.first_round({t: list(p) for t, p in present.items()})
    except draw.DrawError as exc:
        raise LeagueError(str(exc)) from None
    with league.tx() as db:
        season = db.execute("SELECT s.variant, s.options FROM match_nights n JOIN seasons s"
                            " ON s.id = n.season_id WHERE n.id = %s", (night_id,)).fetchone()
        if season is None:
            raise LeagueError(f"no match night {night_id}", 404)
        ruleset = ruleset_for(season["variant"], season["options"])
        members = _members(db, present)
        match_id = returned(db.execute("INSERT INTO matches (night_id) VALUES (%s) RETURNING id",
                                       (night_id,)))["id"]
        for seat, (team, players) in enumerate(present.items()):
            db.execute("INSERT INTO match_teams (match_id, team_id, seat, present) VALUES (%s, %s, %s, %s)",
                       (match_id, members[team][0], seat, Jsonb(list(players))))
        round_id = _new_round(db, match_id, 1)
        for number, players in enumerate(games, 1):
            table = tables[number - 1] if number <= len(tables) else None
            _new_game(db, round_id, number, players, ruleset, members, table)
    return match_view(league, match_id)


def second_round(league: League, match_id: int, table: str | None = None) -> dict[str, Any]:
    """Round 2 drawn from round 1's results (L3), offered to `table`."""
    with league.tx() as db:
        db.execute("SELECT id FROM matches WHERE id = %s FOR UPDATE", (match_id,))
        teams = [r["name"] for r in db.execute(
            "SELECT t.name FROM match_teams m JOIN teams t ON t.id = m.team_id WHERE m.match_id = %s"
            " ORDER BY m.seat", (match_id,))]
        if not teams:
            raise LeagueError(f"no match {match_id}", 404)
        rounds = {r["number"]: r["id"] for r in db.execute(
            "SELECT number, id FROM rounds WHERE match_id = %s", (match_id,))}
        if 2 in rounds:
            raise LeagueError(f"match {match_id}'s second round is already drawn", 409)
        waiting = returned(db.execute("SELECT count(*) AS n FROM games WHERE round_id = %s"
                                      " AND status <> 'over'", (rounds[1],)))["n"]
        if waiting:
            raise LeagueError(f"{waiting} first-round game(s) of match {match_id} not over yet", 409)
        lines = [draw.Played(r["player"], r["team"], r["score"], r["hits"]) for r in db.execute(
            "SELECT p.name AS player, t.name AS team, x.score, x.hits FROM results x"
            " JOIN games g ON g.id = x.game_id JOIN game_players gp ON gp.game_id = g.id"
            " AND gp.player_id = x.player_id JOIN players p ON p.id = x.player_id"
            " JOIN teams t ON t.id = x.team_id WHERE g.round_id = %s ORDER BY g.number, gp.seat",
            (rounds[1],))]
        try:
            players = draw.second_round(teams, lines)
        except draw.DrawError as exc:
            raise LeagueError(str(exc)) from None
        first = returned(db.execute("SELECT ruleset FROM games WHERE round_id = %s LIMIT 1", (rounds[1],)))
        members = _members(db, {t: [line.player for line in lines if line.team == t] for t in teams})
        round_id = _new_round(db, match_id, 2)
        _new_game(db, round_id, 1, players, first["ruleset"], members, table)
    return match_view(league, match_id)


def assign(league: League, game_id: int, table: str | None) -> None:
    """Offer a game to a table (None: to none)."""
    with league.tx() as db:
        table_id = _table_id(db, table) if table else None
        done = db.execute("UPDATE games SET table_id = %s WHERE id = %s AND status <> 'over' RETURNING id",
                          (table_id, game_id)).fetchone()
        if done is None:
            raise LeagueError(f"no game {game_id} still to play", 404)


def assignment(league: League, table_id: int) -> dict[str, Any] | None:
    """The game a table is to play now: its earliest one not over."""
    return league.one(
        "SELECT g.id AS game, g.players, g.ruleset, r.number AS round, r.match_id AS match FROM games g"
        " JOIN rounds r ON r.id = g.round_id WHERE g.table_id = %s AND g.status <> 'over'"
        " ORDER BY r.number, g.id LIMIT 1", (table_id,))


# --- what the league shows ------------------------------------------------------------------

def match_view(league: League, match_id: int) -> dict[str, Any]:
    teams = league.all("SELECT t.name AS team, m.present FROM match_teams m JOIN teams t ON t.id = m.team_id"
                       " WHERE m.match_id = %s ORDER BY m.seat", (match_id,))
    if not teams:
        raise LeagueError(f"no match {match_id}", 404)
    games = league.all(f"SELECT {GAME_COLUMNS}{GAME_FROM} WHERE r.match_id = %s ORDER BY r.number, g.number",
                       (match_id,))
    night = league.one("SELECT n.id, n.name, n.season_id FROM matches m JOIN match_nights n"
                       " ON n.id = m.night_id WHERE m.id = %s", (match_id,))
    return {"match": match_id, "night": night, "teams": teams, "games": [_game(g) for g in games]}


def matches(league: League) -> list[dict[str, Any]]:
    return league.all(
        "SELECT m.id AS match, n.name AS night, s.name AS season, array_agg(t.name ORDER BY mt.seat) AS teams"
        " FROM matches m JOIN match_nights n ON n.id = m.night_id JOIN seasons s ON s.id = n.season_id"
        " JOIN match_teams mt ON mt.match_id = m.id JOIN teams t ON t.id = mt.team_id"
        " GROUP BY m.id, n.name, s.name ORDER BY m.id")


def game_view(league: League, game_id: int) -> dict[str, Any]:
    row = league.one(f"SELECT {GAME_COLUMNS}, (SELECT count(*) FROM events e WHERE e.game_id = g.id)"
                     f" AS events{GAME_FROM} WHERE g.id = %s", (game_id,))
    if row is None:
        raise LeagueError(f"no game {game_id}", 404)
    return _game(row)


def live(league: League) -> list[dict[str, Any]]:
    rows = league.all(f"SELECT {GAME_COLUMNS}{GAME_FROM} WHERE g.status <> 'over' ORDER BY t.name, g.id")
    return [_game(g) for g in rows]


def game_lines(league: League, season_id: int | None = None) -> list[dict[str, Any]]:
    """One line per player of every finished game (of a season), for standings and exports."""
    where = "WHERE n.season_id = %s" if season_id is not None else ""
    return league.all(
        "SELECT r.match_id AS match, r.number AS round, g.id AS game, p.name AS player, t.name AS team,"
        " x.score, x.hits, x.won, g.ended, n.name AS night, s.name AS season"
        " FROM results x JOIN games g ON g.id = x.game_id JOIN rounds r ON r.id = g.round_id"
        " JOIN matches m ON m.id = r.match_id JOIN match_nights n ON n.id = m.night_id"
        " JOIN seasons s ON s.id = n.season_id JOIN players p ON p.id = x.player_id"
        f" JOIN teams t ON t.id = x.team_id {where} ORDER BY g.id, x.score DESC",
        (season_id,) if season_id is not None else ())


def standings(league: League, season_id: int | None = None) -> list[dict[str, Any]]:
    teams = [t["team"] for t in league.teams()]
    lines = [draw.GameLine(r["match"], r["round"], r["game"], r["player"], r["team"], r["score"], r["hits"],
                           r["won"]) for r in game_lines(league, season_id)]
    return [s.to_json() for s in draw.standings(teams, lines)]


def player_history(league: League, name: str) -> dict[str, Any]:
    player = league.one("SELECT p.name, t.name AS team FROM players p LEFT JOIN teams t ON t.id = p.team_id"
                        " WHERE p.name = %s", (name,))
    if player is None:
        raise LeagueError(f"no player {name}", 404)
    games = [line for line in game_lines(league) if line["player"] == name]
    played = len(games)
    return {**player, "games": games, "played": played, "wins": sum(g["won"] for g in games),
            "points": sum(g["score"] for g in games), "hits": sum(g["hits"] for g in games),
            "mean_score": round(sum(g["score"] for g in games) / played) if played else None,
            "best_score": max((g["score"] for g in games), default=None),
            "hits_per_game": round(sum(g["hits"] for g in games) / played, 2) if played else None,
            "second_rounds": sum(g["round"] == 2 for g in games)}


# --- inside a transaction -------------------------------------------------------------------

def _members(db: DB, present: Mapping[str, Sequence[str]]) -> dict[str, tuple[int, dict]]:
    """team -> (team id, {player: player id}), every player checked to be on that team's roster."""
    found = {}
    for team, players in present.items():
        row = db.execute("SELECT id FROM teams WHERE name = %s", (team,)).fetchone()
        if row is None:
            raise LeagueError(f"no team {team}", 404)
        roster = {r["name"]: r["id"] for r in db.execute("SELECT id, name FROM players WHERE team_id = %s",
                                                         (row["id"],))}
        strangers = [p for p in players if p not in roster]
        if strangers:
            raise LeagueError(f"not on team {team}'s roster: {', '.join(strangers)}")
        found[team] = (row["id"], roster)
    return found


def _new_round(db: DB, match_id: int, number: int) -> int:
    return returned(db.execute("INSERT INTO rounds (match_id, number) VALUES (%s, %s) RETURNING id",
                               (match_id, number)))["id"]


def _new_game(db: DB, round_id: int, number: int, players: Sequence[str],
              ruleset: dict, members: dict[str, tuple[int, dict]], table: str | None) -> int:
    table_id = _table_id(db, table) if table else None
    game_id = returned(db.execute("INSERT INTO games (round_id, number, table_id, players, ruleset)"
                                  " VALUES (%s, %s, %s, %s, %s) RETURNING id",
                                  (round_id, number, table_id, Jsonb(list(players)), Jsonb(ruleset))))["id"]
    team_of = {p: (team_id, roster[p]) for team_id, roster in members.values() for p in roster}
    for seat, player in enumerate(players):
        team_id, player_id = team_of[player]
        db.execute("INSERT INTO game_players (game_id, seat, player_id, team_id) VALUES (%s, %s, %s, %s)",
                   (game_id, seat, player_id, team_id))
    return game_id


def _table_id(db: DB, name: str) -> int:
    row = db.execute("SELECT id FROM tables WHERE name = %s", (name,)).fetchone()
    if row is None:
        raise LeagueError(f"no table {name}: add it with `zonkcam league add-table {name}`", 404)
    return row["id"]


def _game(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for key in ("started", "ended"):
        if out.get(key) is not None:
            out[key] = out[key].isoformat(timespec="seconds")
    return out
