"""The league's pages: plain HTML made on the server (every value escaped), refreshed every few
seconds on league night; the admin page is a few forms that post JSON to the API."""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from starlette.responses import HTMLResponse
from zonkcam.hardware.league import matches
from zonkcam.hardware.league.db import League

HERE = Path(__file__).resolve().parent
STYLE = """body{font-family:sans-serif;margin:1em auto;max-width:72em;padding:0 1em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .6em;text-align:left}
nav a{margin-right:1em}.over{color:#666}.problem{color:#b00}form{margin:.6em 0}
input{margin:.1em .3em}"""


def _page(title: str, body: str, refresh: bool = True) -> HTMLResponse:
    meta = '<meta http-equiv="refresh" content="5">' if refresh else ""
    return HTMLResponse(
        f"<!doctype html><html><head><meta charset=utf-8><title>{escape(title)}</title>{meta}"
        f"<meta name=viewport content='width=device-width'><style>{STYLE}</style></head><body>"
        f"<nav><a href='/'>League</a><a href='/admin'>Admin</a>{EXPORTS}</nav>"
        f"<h1>{escape(title)}</h1>{body}</body></html>")


EXPORTS = "".join(f"<a href='/export/{w}.{f}'>{w}.{f}</a>" for w in ("standings", "games", "players")
                  for f in ("csv", "json"))


def _table(head: list[str], rows: list[list[str]]) -> str:
    """`rows` cells are HTML already (escape values with `_e`)."""
    if not rows:
        return "<p>none yet</p>"
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    trs = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{trs}</table>"


def _e(value: Any) -> str:
    return escape("" if value is None else str(value))


def _player(name: str) -> str:
    return f"<a href='/players/{quote(name, safe='')}'>{_e(name)}</a>"


def _scores(game: dict) -> str:
    result = game.get("result") or {}
    scores, hits = result.get("scores", {}), result.get("hits", {})
    parts = [f"{_player(p)} {_e(scores.get(p, 0))} ({_e(hits.get(p, 0))} hits)" for p in game["players"]]
    up = result.get("current")
    return ", ".join(parts) + (f"; up: {_e(up)}" if up and game["status"] != "over" else "")


def _game_row(g: dict) -> list[str]:
    status = _e(g["status"]) + (f" <span class=problem>{_e(g['problem'])}</span>" if g.get("problem") else "")
    winners = ", ".join(map(_e, (g.get("result") or {}).get("winners", [])))
    return [f"<a href='/games/{g['id']}'>{g['id']}</a>", _e(g["round"]), _e(g["table_name"] or "-"), status,
            _scores(g), winners]


GAME_HEAD = ["game", "round", "table", "status", "scores", "winners"]
STANDING_HEAD = ["team", "matches", "match wins", "games", "game wins", "points", "hits"]


def home(league: League) -> HTMLResponse:
    tables = [[_e(t["name"]), _e(t["game"] or "-"), _e(t["status"] or "free"),
               _e(t["last_seen"].isoformat(timespec="seconds") if t["last_seen"] else "never")]
              for t in league.tables()]
    live = [_game_row(g) for g in matches.live(league)]
    ms = [[f"<a href='/matches/{m['match']}'>{m['match']}</a>", _e(m["season"]), _e(m["night"]),
           _e(", ".join(m["teams"]))] for m in matches.matches(league)]
    standing = [[_e(s["team"]), _e(s["matches"]), _e(s["match_wins"]), _e(s["games"]), _e(s["game_wins"]),
                 _e(s["points"]), _e(s["hits"])] for s in matches.standings(league)]
    teams = [[_e(t["team"]), ", ".join(_player(p) for p in t["players"])] for t in league.teams()]
    body = (f"<h2>Tables</h2>{_table(['table', 'game', 'status', 'last seen'], tables)}"
            f"<h2>Games to play and live</h2>{_table(GAME_HEAD, live)}"
            f"<h2>Matches</h2>{_table(['match', 'season', 'night', 'teams'], ms)}"
            f"<h2>Standings</h2>{_table(STANDING_HEAD, standing)}"
            f"<h2>Teams</h2>{_table(['team', 'roster'], teams)}")
    return _page("League night", body)


def match(league: League, match_id: int) -> HTMLResponse:
    view = matches.match_view(league, match_id)
    teams = [[_e(t["team"]), ", ".join(_player(p) for p in t["present"])] for t in view["teams"]]
    games = [_game_row(g) for g in view["games"]]
    body = (f"<p>{_e(view['night']['name'])}</p><h2>Teams present</h2>{_table(['team', 'present'], teams)}"
            f"<h2>Draw</h2>{_table(GAME_HEAD, games)}")
    return _page(f"Match {match_id}", body)


def game(league: League, game_id: int) -> HTMLResponse:
    from zonkcam.hardware.league.sync import events_of

    g = matches.game_view(league, game_id)
    events = [[_e(e["seq"]), _e(e["at"]), _e(e["line"])] for e in events_of(league, game_id)]
    body = f"{_table(GAME_HEAD, [_game_row(g)])}<h2>Events</h2>{_table(['seq', 'at', 'action'], events)}"
    return _page(f"Game {game_id}", body, refresh=g["status"] != "over")


def player(league: League, name: str) -> HTMLResponse:
    h = matches.player_history(league, name)
    rows = [[_e(g["season"]), _e(g["night"]), f"<a href='/matches/{g['match']}'>{g['match']}</a>",
             _e(g["round"]), f"<a href='/games/{g['game']}'>{g['game']}</a>", _e(g["score"]), _e(g["hits"]),
             "won" if g["won"] else ""] for g in h["games"]]
    summary = (f"<p>team {_e(h['team'] or '-')}: {h['played']} games, {h['wins']} won, {h['points']} points,"
               f" {h['hits']} hits ({_e(h['hits_per_game'])} a game), mean score {_e(h['mean_score'])},"
               f" best {_e(h['best_score'])}, {h['second_rounds']} second round(s)</p>")
    head = ["season", "night", "match", "round", "game", "score", "hits", ""]
    return _page(name, summary + _table(head, rows), refresh=False)


def admin(league: League) -> HTMLResponse:
    """The admin's forms (admin.html): each posts JSON to the API, which checks the session."""
    body = (HERE / "admin.html").read_text("utf-8")
    seasons = ", ".join(f"{s['id']}: {_e(s['name'])}" for s in league.seasons()) or "none"
    return _page("League admin", body.replace("{seasons}", seasons), refresh=False)
