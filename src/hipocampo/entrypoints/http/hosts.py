"""Which ``Host`` the service answers for: the defence against DNS rebinding.

A web page can make a browser send requests to ``127.0.0.1`` under its own domain name (by
pointing that name at the loopback address after the page loaded). The browser then lets the page
read the answers, so a service without keys on a developer's laptop (``serve --no-auth``) would
hand a user's memory to any web site. Such requests still carry the attacker's name in ``Host``,
so refusing unknown names (``421 Misdirected Request``) stops them, on every route, ``/mcp``
included.

Patterns: ``*`` (any host), ``name`` (any port), ``name:port``, ``*.example.com`` (subdomains),
IPv6 addresses in brackets (``[::1]``). Defaults (:func:`default_allowed_hosts`): the loopback
names when the service listens on a loopback address; otherwise any host when API keys are
required (a rebinding page has no key), and only the loopback names plus the listening address
when they are not.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import error_response

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")
WILDCARD_BINDS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address a server binds to) is only reachable from this machine."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def default_allowed_hosts(bind_host: str, auth: bool) -> list[str]:
    """The hosts to answer for when ``HIPOCAMPO_ALLOWED_HOSTS`` is not set."""
    if is_loopback(bind_host):
        return list(LOOPBACK_NAMES)
    if auth:
        return ["*"]
    named = [] if bind_host in WILDCARD_BINDS else [f"[{bind_host}]" if ":" in bind_host else bind_host]
    return [*LOOPBACK_NAMES, *named]


def split_host(value: str) -> tuple[str, str | None]:
    """``"Example.com:8765"`` -> ``("example.com", "8765")``; ``"[::1]"`` -> ``("[::1]", None)``."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        if end < 0:
            return value, None
        host, rest = value[: end + 1], value[end + 1 :]
        return host, rest[1:] if rest.startswith(":") else None
    host, colon, port = value.rpartition(":")
    if colon and (port.isdigit() or port == "*"):
        return host.rstrip("."), port
    return value.rstrip("."), None


def host_allowed(host_header: str, allowed: Sequence[str]) -> bool:
    """Whether a request's ``Host`` value matches one of the ``allowed`` patterns."""
    if "*" in allowed:
        return True
    host, port = split_host(host_header)
    if not host:
        return False
    for pattern in allowed:
        want_host, want_port = split_host(pattern)
        if want_port not in (None, "*") and want_port != port:
            continue
        if want_host == host or (want_host.startswith("*.") and host.endswith(want_host[1:])):
            return True
    return False


class HostGuard:
    """ASGI middleware, outermost: requests whose ``Host`` is not allowed get 421 and go no further."""

    def __init__(self, app: ASGIApp, allowed: Sequence[str]) -> None:
        self.app = app
        self.allowed = [h.strip() for h in allowed if h.strip()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or "*" in self.allowed:
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "")
        if host_allowed(host, self.allowed):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        detail = (
            f"this server does not answer for host {host[:100]!r} (DNS-rebinding protection); its operator can "
            "allow it with HIPOCAMPO_ALLOWED_HOSTS or `hipocampo serve --allowed-host`"
        )
        await error_response(421, "misdirected_request", detail)(scope, receive, send)
