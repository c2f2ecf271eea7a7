"""`zonkcam league serve`: the league's JSON API and pages (starlette, as the kiosk's).

Spectators read everything (`GET`). The admin edits (teams, seasons, nights, draws, tables'
games) after logging in with the password: a session cookie, HttpOnly and SameSite=Strict.
A kiosk reads its table's game and sends its events with its table's name and token
(`X-Zonkcam-Table`, `Authorization: Bearer ...`). Writes are JSON; another origin is refused,
and so is a Host that is neither this machine's nor allowed (`hosts`: DNS rebinding); wrong
secrets are counted per address and locked out with a growing backoff."""
from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route
from zonkcam.hardware.kiosk.web import SecurityHeaders, read_json
from zonkcam.hardware.league import export, matches, pages, sync
from zonkcam.hardware.league.auth import COOKIE, SESSION_S, Guard, password_matches
from zonkcam.hardware.league.db import League, LeagueError, Unavailable
from zonkcam.hardware.league.hosts import LeagueHostsOnly
from zonkcam.hardware.league.results import Replays


def create_app(league: League, guard: Guard | None = None, allowed_hosts: tuple[str, ...] = ()) -> Starlette:
    """The league's app; `allowed_hosts`: DNS names it answers to besides this machine's own."""
    api = Api(league, guard or Guard())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        league.close()

    return Starlette(routes=api.routes(), lifespan=lifespan,
                     middleware=[Middleware(SecurityHeaders),
                                 Middleware(LeagueHostsOnly, allowed=allowed_hosts)])


async def _call(fn: Callable[..., Any], *args: Any) -> Any:
    return await asyncio.to_thread(fn, *args)


def _int(request: Request, key: str) -> int:
    text = request.path_params.get(key) or request.query_params.get(key) or ""
    if not text.isdigit() or len(text) > 9:
        raise LeagueError(f"{key}: expected a number", 400)
    return int(text)


class Api:
    def __init__(self, league: League, guard: Guard) -> None:
        self.league, self.guard = league, guard
        self.replays = Replays()

    def routes(self) -> list[Route]:
        read = [
            ("/", lambda r: pages.home(self.league)),
            ("/matches/{match}", lambda r: pages.match(self.league, _int(r, "match"))),
            ("/players/{name}", lambda r: pages.player(self.league, r.path_params["name"])),
            ("/games/{game}", lambda r: pages.game(self.league, _int(r, "game"))),
            ("/admin", lambda r: pages.admin(self.league)),
            ("/api/teams", lambda r: self.league.teams()), ("/api/seasons", lambda r: self.league.seasons()),
            ("/api/tables", lambda r: self.league.tables()),
            ("/api/matches", lambda r: matches.matches(self.league)),
            ("/api/matches/{match}", lambda r: matches.match_view(self.league, _int(r, "match"))),
            ("/api/live", lambda r: matches.live(self.league)),
            ("/api/games/{game}", lambda r: matches.game_view(self.league, _int(r, "game"))),
            ("/api/games/{game}/events", lambda r: sync.events_of(self.league, _int(r, "game"))),
            ("/api/standings", lambda r: matches.standings(self.league, self._season(r))),
            ("/api/players/{name}", lambda r: matches.player_history(self.league, r.path_params["name"])),
            ("/export/{what}.{fmt}", lambda r: export.export(self.league, r.path_params["what"],
                                                             r.path_params["fmt"], self._season(r))),
        ]
        admin = [
            ("/api/teams", self.save_team), ("/api/seasons", self.add_season),
            ("/api/nights", self.add_night),
            ("/api/matches", self.new_match), ("/api/matches/{match}/round2", self.round_two),
            ("/api/games/{game}/table", self.assign),
        ]
        return [
            *(Route(path, self._reader(fn)) for path, fn in read),
            *(Route(path, self._admin(fn), methods=["POST"]) for path, fn in admin),
            Route("/admin.js", self.admin_script),
            Route("/api/login", self.login, methods=["POST"]),
            Route("/api/logout", self.logout, methods=["POST"]),
            Route("/api/kiosk/assignment", self.kiosk_assignment),
            Route("/api/kiosk/games/{game}/events", self.kiosk_events, methods=["POST"]),
        ]

    @staticmethod
    def _season(request: Request) -> int | None:
        return _int(request, "season") if request.query_params.get("season") else None

    # --- reading ----------------------------------------------------------------------------

    @staticmethod
    def _reader(fn: Callable[[Request], Any]) -> Callable:
        async def endpoint(request: Request) -> Response:
            try:
                result = await _call(fn, request)
            except (LeagueError, Unavailable) as exc:
                return _error(exc)
            return result if isinstance(result, Response) else JSONResponse(jsonable(result))
        return endpoint

    # --- the admin --------------------------------------------------------------------------

    async def admin_script(self, request: Request) -> Response:
        return FileResponse(str(pages.HERE / "admin.js"), media_type="text/javascript")

    async def login(self, request: Request) -> Response:
        if (no := self.guard.precheck(request)) is not None:
            return no
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        password = body.get("password") if isinstance(body, dict) else None
        try:
            stored = await _call(self.league.admin_hash)
        except Unavailable as exc:
            return _error(exc)
        if stored is None:
            return JSONResponse({"error": "no admin password set: `zonkcam league password`"},
                                status_code=403)
        if not isinstance(password, str) or not await _call(password_matches, password, stored):
            return self.guard.miss(request, "password")
        response = JSONResponse({"ok": True})
        response.set_cookie(COOKIE, self.guard.new_session(), max_age=SESSION_S, httponly=True,
                            samesite="strict")
        return response

    async def logout(self, request: Request) -> Response:
        if (no := self.guard.precheck(request)) is not None:
            return no
        self.guard.sessions.pop(request.cookies.get(COOKIE, ""), None)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    def _admin(self, fn: Callable[[Request, Any], Any]) -> Callable:
        async def endpoint(request: Request) -> Response:
            if (no := self.guard.precheck(request)) is not None:
                return no
            if not self.guard.is_admin(request):
                return JSONResponse({"error": "only the league's admin edits: log in"}, status_code=401)
            body = await read_json(request)
            if isinstance(body, Response):
                return body
            if not isinstance(body, dict):
                return JSONResponse({"error": "expected a JSON object"}, status_code=400)
            try:
                return JSONResponse(jsonable(await _call(fn, request, body)))
            except (LeagueError, Unavailable) as exc:
                return _error(exc)
        return endpoint

    def save_team(self, request: Request, body: dict) -> Any:
        players = body.get("players")
        if not isinstance(players, list):
            raise LeagueError('expected {"name": TEAM, "players": [NAMES]}')
        return self.league.save_team(body.get("name"), players)

    def add_season(self, request: Request, body: dict) -> Any:
        options = body.get("options", {})
        if not isinstance(options, dict):
            raise LeagueError("options: expected an object of ruleset keys")
        variant = str(body.get("variant", "albany"))
        return {"season": self.league.add_season(body.get("name"), variant, options)}

    def add_night(self, request: Request, body: dict) -> Any:
        return {"night": self.league.add_night(_body_int(body, "season"), body.get("name"))}

    def new_match(self, request: Request, body: dict) -> Any:
        present, tables = body.get("present"), body.get("tables", [])
        if not isinstance(present, dict) or not all(isinstance(p, list) for p in present.values()) \
                or not isinstance(tables, list):
            raise LeagueError('expected {"night": N, "present": {TEAM: [PLAYERS]}, "tables": [NAMES]}')
        return matches.new_match(self.league, _body_int(body, "night"), present, tables)

    def round_two(self, request: Request, body: dict) -> Any:
        return matches.second_round(self.league, _int(request, "match"), body.get("table"))

    def assign(self, request: Request, body: dict) -> Any:
        matches.assign(self.league, _int(request, "game"), body.get("table"))
        return {"ok": True}

    # --- the kiosks -------------------------------------------------------------------------

    async def _table(self, request: Request) -> int | Response:
        if self.guard.locked(request, "table"):
            return JSONResponse({"error": "too many wrong tokens: wait, then try again"}, status_code=429)
        name = request.headers.get("x-zonkcam-table", "")
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        if not name or scheme.lower() != "bearer" or not token:
            return JSONResponse({"error": "a kiosk sends its table's name and token"}, status_code=401)
        try:
            table_id = await _call(self.league.table_for, name, token)
        except Unavailable as exc:
            return _error(exc)
        return table_id if table_id is not None else self.guard.miss(request, "table or token", "table")

    async def kiosk_assignment(self, request: Request) -> Response:
        table_id = await self._table(request)
        if isinstance(table_id, Response):
            return table_id
        try:
            game = await _call(matches.assignment, self.league, table_id)
        except Unavailable as exc:
            return _error(exc)
        if game is None:
            return JSONResponse({"error": "no game for this table yet"}, status_code=404)
        return JSONResponse(jsonable(game))

    async def kiosk_events(self, request: Request) -> Response:
        if (no := self.guard.precheck(request, "table")) is not None:
            return no
        table_id = await self._table(request)
        if isinstance(table_id, Response):
            return table_id
        body = await read_json(request)  # the kiosk's size limit: a batch is a few KB
        if isinstance(body, Response):
            return body
        try:
            events = sync.parse_events(body)
            done = await _call(sync.add_events, self.league, self.replays, _int(request, "game"),
                               table_id, events)
        except (LeagueError, Unavailable) as exc:
            return _error(exc)
        return JSONResponse(done)


def _body_int(body: dict, key: str) -> int:
    value = body.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise LeagueError(f"{key}: expected a number")
    return value


def _error(exc: Exception) -> Response:
    status = exc.status if isinstance(exc, LeagueError) else 503
    return JSONResponse({"error": str(exc)}, status_code=status)


def jsonable(value: Any) -> Any:
    """Rows as JSON: dates as ISO text."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value
