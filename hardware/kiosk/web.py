"""The display's web server: pages, a pushed event stream, and the scorekeeper's actions.

The web layer only reads state and sends actions (Frigate's shape): the running table app
implements `Table`; `Hub` fans its updates out to every open page and to any program
following the JSON event stream at ``/api/events`` (server-sent events).

Access: without ``--lan`` the server listens on localhost only. With it, anyone on the LAN
may watch (the spectator view), but actions from another machine need the PIN shown on the
kiosk's own screen.
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import json
import re
import secrets
import socket
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any, Protocol
from urllib.parse import urlsplit

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

LOCAL_HOSTS = {"127.0.0.1", "::1"}
KEEPALIVE_S = 15.0
SEND_TIMEOUT_S = 30.0  # a page that takes no data for this long is gone
MAX_BODY = 16_384  # bytes of one action: the largest real one is a few hundred
MAX_STREAMS = 64  # open event streams (pages), well under the 1,024 files a service may hold


class Refused(ValueError):
    """An action of the page that the table refuses (the game's rules, a malformed log line, or
    the page's own checks: `TableApp.act` turns `IllegalAction` and `rules.actions.ActionError`
    into it); the message is shown to the scorekeeper."""


class Table(Protocol):
    """What the web layer needs from the running app."""

    def state(self) -> dict[str, Any]: ...

    def act(self, action: dict[str, Any]) -> dict[str, Any]: ...

    def frame_jpeg(self) -> bytes | None: ...

    def evidence_jpeg(self, throw_id: str) -> bytes | None: ...

    def throw_jpeg(self, key: str) -> bytes | None: ...

    def stats(self) -> dict[str, Any]: ...


class Hub:
    """Fan-out of updates to subscribers; `publish` may be called from any thread."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._queues: set[asyncio.Queue[tuple[str, Any]]] = set()

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def publish(self, kind: str, data: Any) -> None:
        if self._loop is None or self._loop.is_closed():
            return
        self._loop.call_soon_threadsafe(self._put, kind, data)

    def _put(self, kind: str, data: Any) -> None:
        for q in list(self._queues):
            if q.qsize() > 100:  # a stalled client: drop its backlog, keep the latest
                while not q.empty():
                    q.get_nowait()
            q.put_nowait((kind, data))

    async def subscribe(self) -> AsyncIterator[tuple[str, Any]]:
        q: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._queues.add(q)
        try:
            while True:
                try:
                    yield await asyncio.wait_for(q.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield ("keepalive", None)
        finally:
            self._queues.discard(q)

    @property
    def subscribers(self) -> int:
        return len(self._queues)


def new_pin() -> str:
    """Six digits. At the most `PinGuard` lets through (20 wrong PINs a minute from all
    addresses together), guessing one takes 17 days on average; from one address, months."""
    return f"{secrets.randbelow(1_000_000):06d}"


def lan_address() -> str:
    """This machine's address on the LAN, as a phone would reach it. Connecting a UDP socket
    only picks the route (nothing is sent); without one, the mDNS name a Pi answers to."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("10.254.254.254", 9))
        address = probe.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return f"{socket.gethostname()}.local"


def qr_svg(text: str) -> str:
    """A QR code of `text` as an SVG element (dark on white, with its quiet zone)."""
    import segno

    return segno.make(text, error="m").svg_inline(omitsize=True, dark="#000", light="#fff")


# A Host header: a name or IPv4 address, or an IPv6 address in brackets; then maybe a port.
HOST_HEADER = re.compile(r"(?:\[(?P<ip6>[0-9A-Fa-f:.]{2,45})\]|(?P<name>[A-Za-z0-9._-]{1,253}))"
                         r"(?::[0-9]{1,5})?")


def host_of(host_header: str | None) -> str:
    """The host a Host header names (lower case); `ValueError` for a header that is missing or
    not a host (``[bad``, ``a:b:c``, spaces, non-ASCII), which the server answers with 400."""
    found = HOST_HEADER.fullmatch(host_header or "")
    if found is None:
        raise ValueError("malformed Host header")
    if found["ip6"] is not None:
        ipaddress.IPv6Address(found["ip6"])  # ValueError when it is none
        return found["ip6"].lower()
    return found["name"].lower()


def own_host(host_header: str | None) -> bool:
    """Whether a request's Host names this machine: an IP address, localhost, or this machine's
    name. A web page whose domain name was pointed at the kiosk (DNS rebinding) sends its own
    name, and must read no state and send no action. A malformed header names nothing."""
    try:
        host = host_of(host_header)
    except ValueError:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    name = socket.gethostname().lower()
    return host in ("localhost", name, f"{name}.local")


class OwnHostOnly:
    """ASGI middleware: a request whose Host is not this machine's (see `own_host`) gets 421,
    one with no Host or a malformed one 400; but for /healthz, which tells nothing a page of
    another name could misuse, so that a monitor may ask by any name the kiosk has."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] != "/healthz":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            refusal = None
            try:
                host_of(host)
            except ValueError:
                refusal = JSONResponse({"error": "malformed Host header"}, status_code=400)
            else:
                if not own_host(host):
                    refusal = JSONResponse({"error": "not this kiosk's address"}, status_code=421)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


# What a hostile page may not do with ours: frame it to steal taps, run script it injected,
# send the PIN-bearing address to another site, or have a sniffed response taken for a page.
# Styles may be inline (review.html's <style>, the server-made QR code); scripts may not.
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
     b"form-action 'self'; frame-ancestors 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """ASGI middleware: `SECURITY_HEADERS` on every HTTP response (the kiosk, the review page
    and the league's pages)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, with_headers)


class PinGuard:
    """Wrong PINs, counted per client address and in all. After `limit` misses within
    `window_s` an address is locked out, for twice as long each time it comes back for more
    (up to an hour); after `total_limit` misses from all addresses together, every address is,
    so that many addresses guess no faster than a few."""

    def __init__(self, limit: int = 5, window_s: float = 60.0, total_limit: int = 20,
                 max_lock_s: float = 3600.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window_s, self.total_limit = limit, window_s, total_limit
        self.max_lock_s, self.clock = max_lock_s, clock
        self._misses: dict[str, list[float]] = {}
        self._until: dict[str, float] = {}  # address (or "*": all) -> locked until
        self._strikes: dict[str, int] = {}  # lockouts so far, for the backoff

    def locked(self, client: str) -> bool:
        now = self.clock()
        return max(self._until.get(client, 0.0), self._until.get("*", 0.0)) > now

    def miss(self, client: str) -> None:
        now = self.clock()
        recent = [t for t in self._misses.get(client, []) if now - t < self.window_s] + [now]
        self._misses[client] = recent
        if len(recent) >= self.limit:
            self._lock(client, now)
        everyone = [t for k, ts in self._misses.items() for t in ts if now - t < self.window_s]
        if len(everyone) >= self.total_limit:
            self._until["*"] = now + self.window_s
        if len(self._misses) > 10_000:  # addresses seen once and gone: forget them
            self._misses = {k: ts for k, ts in self._misses.items() if now - ts[-1] < self.window_s}

    def _lock(self, client: str, now: float) -> None:
        strikes = self._strikes.get(client, 0)
        self._strikes[client] = strikes + 1
        self._until[client] = now + min(self.window_s * 2 ** strikes, self.max_lock_s)
        self._misses[client] = []


def _netloc(url: str) -> str | None:
    """The host and port of a URL (an Origin header), None if it is malformed."""
    try:
        return urlsplit(url).netloc
    except ValueError:  # "http://[bad": an origin no page of the kiosk sends
        return None


class Access:
    """Who may act: the kiosk's own screen always; another machine with the PIN (None: no
    LAN), never a page of another origin, and never after too many wrong PINs."""

    def __init__(self, pin: str | None, guard: PinGuard | None = None) -> None:
        self.pin = pin
        self.guard = guard or PinGuard()

    @staticmethod
    def is_local(request: Request) -> bool:
        return request.client is not None and request.client.host in LOCAL_HOSTS

    def may_act(self, request: Request) -> bool:
        if self.is_local(request):
            return True
        given = request.headers.get("x-zonkcam-pin", "")
        return self.pin is not None and hmac.compare_digest(given, self.pin)

    def refused(self, request: Request) -> Response | None:
        """Why an action from this client is refused, or None. Actions are JSON: a page of
        another origin cannot send JSON without asking first (CORS), and its Origin is checked."""
        client = request.client.host if request.client else "?"
        origin = request.headers.get("origin")
        if origin is not None and _netloc(origin) != request.headers.get("host"):
            return JSONResponse({"error": "actions come from the kiosk's own pages"}, status_code=403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "actions are JSON (Content-Type: application/json)"},
                                status_code=415)
        if self.guard.locked(client):
            return JSONResponse({"error": "too many wrong PINs: wait, then try again"},
                                status_code=429)
        if self.may_act(request):
            return None
        if request.headers.get("x-zonkcam-pin"):
            self.guard.miss(client)
            return JSONResponse({"error": "wrong PIN"}, status_code=403)
        return JSONResponse({"error": "actions from the LAN need the kiosk's PIN"}, status_code=403)


def create_app(table: Table, hub: Hub, pin: str | None = None, extra_routes: list | None = None,
               access: Access | None = None) -> Starlette:
    """The web app; ``pin`` is required from non-local clients for actions (None: no LAN);
    ``access`` instead shares one PIN guard with other routes. ``extra_routes`` are mounted
    too (the review page of captured dice, when capturing)."""
    kiosk = Kiosk(table, hub, access or Access(pin))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.bind(asyncio.get_running_loop())
        yield

    return Starlette(routes=[*kiosk.routes(), *(extra_routes or [])], lifespan=lifespan,
                     middleware=[Middleware(SecurityHeaders), Middleware(OwnHostOnly)])


class Kiosk:
    """The routes: pages and their files, the state and its stream, actions, pictures."""

    def __init__(self, table: Table, hub: Hub, access: Access) -> None:
        self.table, self.hub, self.access = table, hub, access
        self.static = resources.files("zonkcam.hardware.kiosk").joinpath("static")
        self.started = time.monotonic()

    def routes(self) -> list[Route]:
        return [
            Route("/", self.page),
            Route("/spectator", self.page),
            Route("/stats", self.stats_page),
            Route("/static/{name}", self.asset),
            Route("/api/state", self.state),
            Route("/api/events", self.events),
            Route("/api/stats", self.stats),
            Route("/api/action", self.action, methods=["POST"]),
            Route("/api/frame.jpg", self.frame),
            Route("/api/evidence/{throw_id}.jpg", self.evidence),
            Route("/api/throw/{key}.jpg", self.throw_frame),
            Route("/api/unlock", self.unlock, methods=["POST"]),
            Route("/api/pairing", self.pairing),
            Route("/healthz", self.healthz),
        ]

    async def healthz(self, request: Request) -> Response:
        """For a monitor (systemd, a phone, Uptime Kuma): always 200 while the server answers;
        `ok` is false while the camera is lost or ended. No PIN, no game, nothing secret, so
        any origin may read it. A table without `health()` (a test's) reports its camera unknown."""
        health = getattr(self.table, "health", None)
        found = health() if health is not None else {"camera": "unknown", "frame_age_s": None}
        body = {"ok": found["camera"] not in ("lost", "ended"),
                "uptime_s": round(time.monotonic() - self.started, 1)} | found
        return JSONResponse(body, headers={"Cache-Control": "no-store", "Access-Control-Allow-Origin": "*"})

    # --- pages ----------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        return FileResponse(str(self.static.joinpath("index.html")))

    async def stats_page(self, request: Request) -> Response:
        return FileResponse(str(self.static.joinpath("stats.html")))

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        path = self.static.joinpath(name)
        if "/" in name or name.startswith(".") or not path.is_file():
            return Response("not found", status_code=404)
        return FileResponse(str(path))

    # --- the state, pushed and asked for ---------------------------------------------------

    def with_access(self, data: dict[str, Any], request: Request) -> dict[str, Any]:
        # Never the PIN: the kiosk's own screen asks /api/pairing for it.
        return data | {"access": {
            "can_act": self.access.may_act(request),
            "local": self.access.is_local(request),
            "lan": self.access.pin is not None,
        }}

    async def state(self, request: Request) -> Response:
        return JSONResponse(self.with_access(self.table.state(), request))

    async def events(self, request: Request) -> Response:
        if self.hub.subscribers >= MAX_STREAMS:  # each holds a connection: keep some for the kiosk
            return JSONResponse({"error": "too many pages open"}, status_code=503)

        async def stream() -> AsyncIterator[dict[str, str]]:
            yield {"event": "state", "data": json.dumps(self.with_access(self.table.state(), request))}
            async for kind, data in self.hub.subscribe():
                if kind == "keepalive":  # sse-starlette sends its own pings
                    continue
                if kind == "state":
                    data = self.with_access(data, request)
                yield {"event": kind, "data": json.dumps(data)}

        # sse-starlette: the framing, a ping every KEEPALIVE_S, a stream ended when its page
        # goes or the server is stopped (at SIGTERM, not after uvicorn's graceful timeout), and
        # a stalled page dropped after SEND_TIMEOUT_S.
        return EventSourceResponse(stream(), ping=KEEPALIVE_S, send_timeout=SEND_TIMEOUT_S,
                                   headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})

    async def stats(self, request: Request) -> Response:
        # Every game is replayed from its log: off the event loop.
        return JSONResponse(await asyncio.to_thread(self.table.stats))

    # --- acting ---------------------------------------------------------------------------

    async def unlock(self, request: Request) -> Response:
        """The PIN typed on a phone, checked before the page shows its controls."""
        return self.access.refused(request) or JSONResponse({"ok": True})

    async def pairing(self, request: Request) -> Response:
        """The PIN and a QR code of the page's LAN address with it, for the kiosk's own screen:
        a phone that scans it is unlocked. Another origin cannot read this (no CORS), a page
        under another name is refused by its Host, and other machines get 403."""
        if not self.access.is_local(request):
            return JSONResponse({"error": "the PIN is shown on the kiosk only"}, status_code=403)
        pin = self.access.pin
        if pin is None:
            return JSONResponse({"error": "not on the LAN: start with --lan"}, status_code=404)
        url = f"http://{lan_address()}:{request.url.port or 80}/#pin={pin}"
        return JSONResponse({"pin": pin, "url": url, "qr_svg": qr_svg(url)},
                            headers={"Cache-Control": "no-store"})

    async def action(self, request: Request) -> Response:
        if (no := self.access.refused(request)) is not None:
            return no
        body = await read_json(request)
        if isinstance(body, Response):
            return body
        if not isinstance(body, dict) or not isinstance(body.get("action"), str):
            return JSONResponse({"error": 'expected {"action": NAME, ...}'}, status_code=400)
        try:
            result = await asyncio.to_thread(self.table.act, body)
        except Refused as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        return JSONResponse(result)

    # --- pictures -------------------------------------------------------------------------

    async def frame(self, request: Request) -> Response:
        jpeg = self.table.frame_jpeg()
        if jpeg is None:
            return Response("no frame yet", status_code=404)
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})

    async def evidence(self, request: Request) -> Response:
        jpeg = self.table.evidence_jpeg(request.path_params["throw_id"])
        if jpeg is None:
            return Response("no such throw", status_code=404)
        return Response(jpeg, media_type="image/jpeg")

    async def throw_frame(self, request: Request) -> Response:
        jpeg = self.table.throw_jpeg(request.path_params["key"])
        if jpeg is None:
            return Response("no such throw on the table", status_code=404)
        return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


async def read_json(request: Request) -> Any:
    """The request's JSON, read no further than `MAX_BODY` bytes; or the refusal to send."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            return JSONResponse({"error": f"an action is at most {MAX_BODY} bytes"}, status_code=413)
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
        return JSONResponse({"error": "the action must be a JSON object"}, status_code=400)


def serve(app: Starlette, host: str, port: int) -> None:
    """Serve `app` (the kiosk's, the league's) until SIGTERM or Ctrl-C. uvicorn's own log says
    warnings only; open event streams never end by themselves, so a stop waits 1 s for them."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
