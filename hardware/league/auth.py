"""Who may do what in the league: spectators read; a table's kiosk sends its games' events with
the token `zonkcam league add-table` gave it; the admin (a password) edits teams and draws.

Only hashes are stored: a table token is 32 random bytes, so SHA-256 of it is enough; the admin
password is a person's, so it is stretched with scrypt. Every compare is constant-time. Wrong
tokens and passwords count against the client's address with `web.PinGuard`'s lockouts (the
kiosk's own backoff, reused), and the Host and Origin guards are the kiosk's too (`web`).
Nothing here logs a secret: tokens and passwords appear in no message and no exception."""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from zonkcam.hardware.kiosk.web import Access, PinGuard

SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}  # 16 MiB, ~50 ms a check: slow for a guesser, fine for a login
SESSION_S = 12 * 3600
COOKIE = "zonkcam_league"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored_hash)


def password_hash(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, dklen=32, **SCRYPT)
    return "scrypt$" + base64.b64encode(salt).decode() + "$" + base64.b64encode(digest).decode()


def password_matches(password: str, stored: str) -> bool:
    try:
        kind, salt, digest = stored.split("$")
        expected = base64.b64decode(digest)
        got = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt), dklen=32, **SCRYPT)
    except ValueError:
        return False
    return kind == "scrypt" and hmac.compare_digest(got, expected)


class _SameOrigin(Access):
    """The kiosk's `Access.refused` checks for a request already let in: Origin, JSON, lockout."""

    def may_act(self, request: Request) -> bool:
        return True


class Guard:
    """The league's gates: `precheck(request, ...)` says why a write is refused, or None.

    Two lockouts, both `web.PinGuard`'s growing backoff per address: the admin's password, which
    a person chose, also locks every address after 20 misses a minute from all of them; table
    tokens (256 random bits, past guessing) only per address, so that wrong tokens sent from
    anywhere cannot hold back every kiosk's events."""

    def __init__(self, admin: PinGuard | None = None, tables: PinGuard | None = None) -> None:
        self.gates = {
            "admin": _SameOrigin(None, admin or PinGuard(limit=5, window_s=60.0, total_limit=20)),
            "table": _SameOrigin(None, tables or PinGuard(limit=5, window_s=60.0, total_limit=10 ** 9)),
        }
        self.sessions: dict[str, float] = {}  # admin session id -> expiry (monotonic)

    def backoff(self, who: str = "admin") -> PinGuard:
        return self.gates[who].guard

    def precheck(self, request: Request, who: str = "admin") -> Response | None:
        """Another origin, not JSON, or a client locked out after wrong secrets."""
        return self.gates[who].refused(request)

    def locked(self, request: Request, who: str) -> bool:
        return self.backoff(who).locked(request.client.host if request.client else "?")

    def miss(self, request: Request, what: str, who: str = "admin") -> Response:
        self.backoff(who).miss(request.client.host if request.client else "?")
        return JSONResponse({"error": f"wrong {what}"}, status_code=403)

    # --- the admin's session --------------------------------------------------------------

    def new_session(self) -> str:
        now = time.monotonic()
        self.sessions = {k: t for k, t in self.sessions.items() if t > now}
        session = secrets.token_urlsafe(32)
        self.sessions[session] = now + SESSION_S
        return session

    def is_admin(self, request: Request) -> bool:
        given = request.cookies.get(COOKIE, "")
        now = time.monotonic()
        return any(hmac.compare_digest(given, s) and t > now for s, t in list(self.sessions.items()))
