"""Export: games (one line per player of each finished game), players and standings, as CSV or
JSON (`/export/games.csv`, `/export/players.json`, ...; `?season=N` for one season)."""
from __future__ import annotations

import csv
import io
import json
from typing import Any

from starlette.responses import Response
from zonkcam.hardware.league import matches
from zonkcam.hardware.league.db import League, LeagueError

GAME_FIELDS = ["season", "night", "match", "round", "game", "player", "team", "score", "hits", "won", "ended"]
PLAYER_FIELDS = ["player", "team", "games", "wins", "points", "hits", "mean_score"]
STANDING_FIELDS = ["team", "matches", "match_wins", "games", "game_wins", "points", "hits"]


def rows(league: League, what: str, season: int | None) -> tuple[list[str], list[dict[str, Any]]]:
    if what == "games":
        lines = matches.game_lines(league, season)
        return GAME_FIELDS, [{k: _plain(line[k]) for k in GAME_FIELDS} for line in lines]
    if what == "players":
        return PLAYER_FIELDS, players(league, season)
    if what == "standings":
        return STANDING_FIELDS, matches.standings(league, season)
    raise LeagueError(f"no export {what!r}: games, players or standings", 404)


def players(league: League, season: int | None) -> list[dict[str, Any]]:
    teams = {p: t["team"] for t in league.teams() for p in t["players"]}
    def empty(player: str, team: str | None) -> dict[str, Any]:
        return {"player": player, "team": team, "games": 0, "wins": 0, "points": 0, "hits": 0}

    out = {p: empty(p, t) for p, t in teams.items()}
    for line in matches.game_lines(league, season):
        row = out.setdefault(line["player"], empty(line["player"], line["team"]))
        row["games"] += 1
        row["wins"] += int(line["won"])
        row["points"] += line["score"]
        row["hits"] += line["hits"]
    for row in out.values():
        row["mean_score"] = round(row["points"] / row["games"]) if row["games"] else None
    return sorted(out.values(), key=lambda r: (-r["points"], r["player"]))


def export(league: League, what: str, fmt: str, season: int | None) -> Response:
    fields, data = rows(league, what, season)
    name = f"league-{what}.{fmt}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    if fmt == "json":
        return Response(json.dumps(data, indent=1), media_type="application/json", headers=headers)
    if fmt != "csv":
        raise LeagueError(f"no format {fmt!r}: csv or json", 404)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=fields, extrasaction="ignore")
    writer.writeheader()
    for row in data:
        writer.writerow({k: _cell(v) for k, v in row.items()})
    return Response(buffer.getvalue(), media_type="text/csv", headers=headers)


def _cell(value: Any) -> Any:
    """A spreadsheet must not run a name as a formula (CSV injection)."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@"):
        return "'" + value
    return value


def _plain(value: Any) -> Any:
    return value.isoformat(timespec="seconds") if hasattr(value, "isoformat") else value
