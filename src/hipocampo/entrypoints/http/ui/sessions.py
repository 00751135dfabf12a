"""Sign-in sessions of the web inspector, kept on the server.

Why server-side: the browser holds only a random session id (an HttpOnly, SameSite=Strict cookie
scoped to ``/ui``), never the API key, not even encrypted. The key stays in this process's memory
so that every page authenticates again through :func:`hipocampo.services.tenancy.authenticate`,
exactly as an API request does: a revoked key or a disabled tenant ends its sessions at once.
The cost: sessions live in one process, so they end when ``hipocampo serve`` restarts (sign in
again) and are not shared between replicas (a balancer in front of several needs sticky sessions
for ``/ui``). The standard library's ``secrets`` is all this needs; a session library would add a
dependency to hold a dict.

Every session, signed in or not, carries a CSRF token that each form sends back in a hidden field
and every POST must match (:meth:`Session.csrf_ok`); signing in replaces the session (a new id and
a new token), so an id planted before sign-in is worth nothing after it.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response

COOKIE = "hipocampo_ui"
PATH = "/ui"
IDLE_SECONDS = 2 * 3600.0
"""A session unused this long ends."""
MAX_SECONDS = 12 * 3600.0
"""A session ends this long after sign-in, used or not."""
MAX_SESSIONS = 10_000
"""Sessions kept at most; past it the least recently used go first (a flood of sign-in pages
cannot grow the process without bound)."""


@dataclass
class Session:
    id: str
    csrf: str
    created: float
    seen: float
    token: str | None = None  # the API key; None before sign-in (and with auth off)
    signed_in: bool = False
    user_id: str | None = None  # the one user a user key's session shows; None: the tenant's (admin)
    notices: list[str] = field(default_factory=list)  # for the next page: "Fact deleted."

    def csrf_ok(self, sent: object) -> bool:
        return isinstance(sent, str) and hmac.compare_digest(sent.encode(), self.csrf.encode())

    def flash(self, text: str) -> None:
        self.notices.append(text)

    def take_notices(self) -> list[str]:
        taken, self.notices = self.notices, []
        return taken


class SessionStore:
    """In-memory sessions, least recently used first; ``clock`` for tests.

    Sessions before sign-in (a sign-in page's CSRF token) and signed-in ones are kept apart, each
    up to :data:`MAX_SESSIONS`: anyone can open sign-in pages by the thousand, and that must only
    push out other unsigned sessions, never sign people out."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._pending: OrderedDict[str, Session] = OrderedDict()
        self._signed: OrderedDict[str, Session] = OrderedDict()
        self._now = clock

    def get(self, request: Request) -> Session | None:
        sid = request.cookies.get(COOKIE)
        if not sid:
            return None
        store = self._signed if sid in self._signed else self._pending
        session = store.get(sid)
        if session is None:
            return None
        now = self._now()
        if now - session.seen > IDLE_SECONDS or now - session.created > MAX_SECONDS:
            self.end(session)
            return None
        session.seen = now
        store.move_to_end(session.id)
        return session

    def new(self) -> Session:
        """A session before sign-in: a CSRF token for the sign-in form."""
        return self._add(self._pending, self._fresh())

    def sign_in(self, token: str | None, user_id: str | None) -> Session:
        """A new signed-in session (a new id: one planted before sign-in is worth nothing)."""
        session = self._fresh()
        session.token, session.signed_in, session.user_id = token, True, user_id
        return self._add(self._signed, session)

    def end(self, session: Session) -> None:
        self._pending.pop(session.id, None)
        self._signed.pop(session.id, None)

    def _fresh(self) -> Session:
        now = self._now()
        return Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), now, now)

    @staticmethod
    def _add(store: OrderedDict[str, Session], session: Session) -> Session:
        store[session.id] = session
        while len(store) > MAX_SESSIONS:
            store.popitem(last=False)
        return session


def set_cookie(request: Request, response: Response, session: Session) -> None:
    response.set_cookie(
        COOKIE,
        session.id,
        path=PATH,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
        max_age=int(MAX_SECONDS),
    )


def clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="strict", secure=request.url.scheme == "https")
