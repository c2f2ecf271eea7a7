"""Which Host names the league answers to: this machine's (an IP address, localhost, its own name:
the kiosk's guard, `web.own_host`) and the DNS names its admin allows (`serve --allowed-hosts`).

A page whose domain was pointed at the league (DNS rebinding) sends its own name and is refused
(421); an online league behind a reverse proxy is reached by its public name, which must be
allowed by name (`league.example.org`) or by domain (`*.example.org`: its subdomains only)."""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from zonkcam.hardware.kiosk.web import own_host

_LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_NAME = re.compile(rf"(\*\.)?{_LABEL}(\.{_LABEL})*")


def allowed_hosts(text: str | None) -> tuple[str, ...]:
    """`--allowed-hosts` as names (lower case); ValueError names the first that is not a DNS name."""
    names = tuple(n.strip().lower().rstrip(".") for n in (text or "").split(",") if n.strip())
    for name in names:
        if len(name) > 253 or not _NAME.fullmatch(name):
            raise ValueError(f"{name!r} is not a DNS name (league.example.org, or *.example.org)")
    return names


def host_allowed(host_header: str | None, allowed: Iterable[str]) -> bool:
    """Whether a request's Host is this machine's or one of the allowed names."""
    try:
        if own_host(host_header):
            return True
        host = (urlsplit(f"//{host_header or ''}").hostname or "").rstrip(".")
    except ValueError:  # a malformed bracket or port: no name at all
        return False
    return bool(host) and any(host == name or (name.startswith("*.") and host.endswith(name[1:]))
                              for name in allowed)


class LeagueHostsOnly:
    """ASGI middleware: a request whose Host is neither this machine's nor allowed gets 421."""

    def __init__(self, app: Any, allowed: Iterable[str] = ()) -> None:
        self.app, self.allowed = app, tuple(allowed)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if not host_allowed(host, self.allowed):
                refusal = JSONResponse({"error": "not this league's address (serve --allowed-hosts)"},
                                       status_code=421)
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)
