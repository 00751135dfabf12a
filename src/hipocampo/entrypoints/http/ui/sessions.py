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
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.requests import Request
from starlette.responses import Response

from ....domain.errors import QuotaExceeded

COOKIE = "hipocampo_ui"
PATH = "/ui"
IDLE_SECONDS = 2 * 3600.0
"""A session unused this long ends."""
MAX_SECONDS = 12 * 3600.0
"""A session ends this long after sign-in, used or not."""
MAX_SESSIONS = 10_000
"""Sessions before sign-in kept at most; past it the least recently used go first (a flood of
sign-in pages cannot grow the process without bound)."""
SESSIONS_PER_TENANT = 1_000
"""Signed-in sessions kept at most per tenant (``HIPOCAMPO_UI_SESSIONS_PER_TENANT``); past it the
tenant's least recently used go first. Per tenant, so that one key holder signing in again and
again can only sign out its own tenant's people, never another tenant's."""


@dataclass
class Session:
    id: str
    csrf: str
    created: float
    seen: float
    token: str | None = None  # the API key; None before sign-in (and with auth off)
    tenant_id: str | None = None  # the key's tenant, once signed in
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

    Sessions before sign-in (a sign-in page's CSRF token) and signed-in ones are kept apart:
    anyone can open sign-in pages by the thousand (up to :data:`MAX_SESSIONS`), and that must only
    push out other unsigned sessions, never sign people out. Signed-in sessions are kept per
    tenant, each tenant up to ``per_tenant``: only a key can sign in, and a tenant's key holders
    can only push out their own tenant's sessions. The tenants are those of the store, so the
    whole stays bounded."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, per_tenant: int = SESSIONS_PER_TENANT) -> None:
        self._pending: OrderedDict[str, Session] = OrderedDict()
        self._signed: dict[str, OrderedDict[str, Session]] = {}  # by tenant
        self._tenant_of: dict[str, str] = {}  # signed-in session id -> its tenant
        self._now = clock
        self.per_tenant = per_tenant

    def get(self, request: Request) -> Session | None:
        sid = request.cookies.get(COOKIE)
        if not sid:
            return None
        tenant = self._tenant_of.get(sid)
        store = self._pending if tenant is None else self._signed[tenant]
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
        session = self._fresh()
        self._add(self._pending, session, MAX_SESSIONS)
        return session

    def sign_in(self, token: str | None, user_id: str | None, *, tenant_id: str) -> Session:
        """A new signed-in session (a new id: one planted before sign-in is worth nothing)."""
        session = self._fresh()
        session.token, session.signed_in, session.user_id, session.tenant_id = token, True, user_id, tenant_id
        self._tenant_of[session.id] = tenant_id
        for dropped in self._add(self._signed.setdefault(tenant_id, OrderedDict()), session, self.per_tenant):
            self._tenant_of.pop(dropped.id, None)
        return session

    def end(self, session: Session) -> None:
        self._pending.pop(session.id, None)
        tenant = self._tenant_of.pop(session.id, None)
        if tenant is not None:
            signed = self._signed[tenant]
            signed.pop(session.id, None)
            if not signed:
                del self._signed[tenant]

    def _fresh(self) -> Session:
        now = self._now()
        return Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32), now, now)

    @staticmethod
    def _add(store: OrderedDict[str, Session], session: Session, limit: int) -> list[Session]:
        """Add ``session``; the least recently used ones it pushed out."""
        store[session.id] = session
        dropped = []
        while len(store) > limit:
            dropped.append(store.popitem(last=False)[1])
        return dropped


FAILED_SIGN_INS = 10
"""Failed sign-ins one client address may make in :data:`FAILED_WINDOW_SECONDS`; past them, every
sign-in from it gets 429 until the window moves on."""
FAILED_WINDOW_SECONDS = 60.0


class FailedSignIns:
    """Failed sign-ins by client address, over the last minute.

    A sign-in with a valid key counts against its tenant's rate limit, as any request does; an
    unknown key has no tenant to count against, so its address is counted instead. Past the limit
    the address is refused before its key is even looked up, right keys included (trying them
    all is what the limit is for). Behind a proxy every client shares the proxy's address: the
    limit then holds for all of them together. Addresses kept are bounded, oldest dropped."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, max_addresses: int = MAX_SESSIONS) -> None:
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._now = clock
        self._max_addresses = max_addresses

    def check(self, address: str) -> None:
        """:class:`QuotaExceeded` (429, with ``Retry-After``) while ``address`` is over the limit."""
        failures = self._recent(address)
        if len(failures) >= FAILED_SIGN_INS:
            wait = failures[0] + FAILED_WINDOW_SECONDS - self._now()
            raise QuotaExceeded(
                f"{len(failures)} failed sign-ins from this address in the last minute; wait a minute and try again",
                max(1.0, wait),
            )

    def record(self, address: str) -> None:
        self._recent(address).append(self._now())
        self._failures.move_to_end(address)
        while len(self._failures) > self._max_addresses:
            self._failures.popitem(last=False)

    def _recent(self, address: str) -> deque[float]:
        failures = self._failures.setdefault(address, deque())
        while failures and failures[0] <= self._now() - FAILED_WINDOW_SECONDS:
            failures.popleft()
        return failures


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
