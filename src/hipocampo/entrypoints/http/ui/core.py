"""What every inspector page shares: templates, the signed-in viewer, CSRF checks, security
headers and HTML error pages.

Why server-rendered Jinja2 with a little JavaScript: the inspector reads and edits what the
service already computes, so the server renders it once; there is no build step, nothing for the
browser to fetch from elsewhere, and the templates and two small static files ship inside the
wheel as package data. Jinja2 escapes every value (autoescape on), which is what keeps memory
text inert: a ``<script>`` a user once typed is shown, never run. Charts are SVG drawn by the
server (:mod:`.charts`), so no chart library and no inline script or style is needed, and the
Content-Security-Policy can forbid both.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

import jinja2
from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates
from starlette.datastructures import FormData, UploadFile
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ....client import AsyncMemory
from ....domain.errors import (
    WIRE_ERRORS,
    Forbidden,
    HipocampoError,
    InvalidInput,
    NotFound,
    QuotaExceeded,
    Unauthorized,
)
from ....domain.model import Scope as MemoryScope
from ....domain.tenancy import Principal
from ..security import ServiceState, actor_of
from .sessions import FailedSignIns, Session, SessionStore

log = logging.getLogger("hipocampo.http")
HERE = Path(__file__).parent
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


def _when(value: datetime | None) -> str:
    return "" if value is None else f"{value:%Y-%m-%d %H:%M}"


def _seg(value: str) -> str:
    """An id as one URL path segment (``/`` and ``?`` included)."""
    return quote(value, safe="")


def link(request: Request, name: str, **params: str) -> str:
    """The path of an inspector route, each id quoted as one path segment (Starlette's
    ``url_for`` inserts values as they are, so an id with ``#`` or ``?`` would cut the link).
    A path, not a whole URL: behind a proxy the host the server sees may not be the browser's.
    Names are looked up in the inspector's own routes (``request.url_for`` would search the
    service's first, where ``retrieval.recall`` is an API route)."""
    path = request.app.router.url_path_for(name, **{k: _seg(str(v)) for k, v in params.items()})
    return str(request.scope.get("root_path", "")).rstrip("/") + path  # root_path: the mount's, "/ui"


@jinja2.pass_context
def _link(context: Any, name: str, **params: str) -> str:
    return link(context["request"], name, **params)


def make_templates() -> Jinja2Templates:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = _when
    env.filters["seg"] = _seg
    env.globals["link"] = _link
    return Jinja2Templates(env=env)


class SecurityHeaders:
    """Every inspector answer gets the CSP and friends; pages (not static files) are not cached,
    since they show a signed-in user's memory."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = scope.get("path", "").startswith(("/static/", "/ui/static/"))

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + HEADERS
                if not static:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, with_headers)


@dataclass
class UI:
    """The inspector's shared parts, on ``app.state.ui``."""

    service: ServiceState
    sessions: SessionStore
    templates: Jinja2Templates
    failed_sign_ins: FailedSignIns = field(default_factory=FailedSignIns)

    @property
    def memory(self) -> AsyncMemory:
        if self.service.memory is None:
            raise RuntimeError("the memory store is not open yet")
        return self.service.memory

    def page(self, request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
        session = self.sessions.get(request)
        viewer = getattr(request.state, "viewer", None)
        return self.templates.TemplateResponse(
            request,
            name,
            {
                "viewer": viewer,
                "csrf": session.csrf if session else "",
                "notices": session.take_notices() if session else [],
                **context,
            },
            status_code=status,
        )


def ui_of(request: Request) -> UI:
    return request.app.state.ui


class SignInNeeded(Exception):
    """No session, an ended one, or a key no longer valid: go to the sign-in page."""


@dataclass
class Viewer:
    """Who looks: the session and the principal its key authenticates as, on this request."""

    session: Session
    principal: Principal
    mem: AsyncMemory

    @property
    def tenant_id(self) -> str:
        return self.principal.tenant_id

    @property
    def is_admin(self) -> bool:
        return self.principal.is_admin

    def scope(self, user_id: str) -> MemoryScope:
        """The user, inside the key's tenant. A user key's session shows its one user: another
        user id answers 404, like an id the tenant does not have."""
        if self.session.user_id is not None and user_id != self.session.user_id:
            raise NotFound(f"no user {user_id!r}")
        return MemoryScope(self.tenant_id, user_id)

    @property
    def actor(self) -> str:
        """Who a change made here is recorded as, in a memory's history: the inspector and the
        key's public id (never its secret), so an admin can tell whose session edited a fact."""
        return actor_of(self.principal, "inspector")

    def require_admin(self) -> None:
        if not self.is_admin:
            raise Forbidden("this page needs an admin key of the tenant")


async def current_viewer(request: Request) -> Viewer:
    """Authenticate the session's key as an API request would, and count it against the
    tenant's rate limit."""
    ui = ui_of(request)
    session = ui.sessions.get(request)
    if session is None or not session.signed_in:
        raise SignInNeeded()
    if ui.service.auth:
        try:
            principal = await ui.memory.authenticate(session.token)
        except Unauthorized:
            ui.sessions.end(session)
            raise SignInNeeded() from None
        try:
            await ui.memory.count_request(principal.tenant)
        except QuotaExceeded:
            ui.service.metrics.rejected.labels("rate_limited").inc()
            raise
    else:
        principal = ui.memory.local_principal(ui.service.local_tenant)
    viewer = Viewer(session, principal, ui.memory)
    request.state.viewer = viewer
    return viewer


Looker = Annotated[Viewer, Depends(current_viewer)]


async def checked_form(request: Request, viewer: Looker) -> FormData:
    """The POSTed form, after its CSRF token matched the session's (403 otherwise) and with no
    file in it (422: every inspector form is text)."""
    form = await request.form()
    if not viewer.session.csrf_ok(form.get("csrf")):
        raise Forbidden("the form's security token is missing or stale: reload the page and try again")
    for name, value in form.multi_items():
        if isinstance(value, UploadFile):
            raise InvalidInput(f"{name}: the inspector's forms take text, not a file")
    return form


def form_text(form: FormData, name: str) -> str:
    """A form field's text ("" when absent). A file posted in its place (multipart) is refused
    with a 422: stored as it came, a fact's text would read ``UploadFile(filename=...)``."""
    value = form.get(name, "")
    if isinstance(value, UploadFile):
        raise InvalidInput(f"{name}: the inspector's forms take text, not a file")
    return value


Form = Annotated[FormData, Depends(checked_form)]


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


async def sign_in_needed(request: Request, exc: Exception) -> Response:
    return redirect(link(request, "login"))


async def error_page(request: Request, exc: Exception) -> Response:
    """A HipocampoError as an HTML page with the API's status: another tenant's ids are a 404
    page, exactly like ids that do not exist."""
    status = next((s for cls, s, _ in WIRE_ERRORS if isinstance(exc, cls)), 503)
    headers = {}
    if isinstance(exc, QuotaExceeded) and exc.retry_after_seconds is not None:
        headers["Retry-After"] = str(max(1, round(exc.retry_after_seconds)))
    response = ui_of(request).page(request, "error.html", status, status_code=status, detail=str(exc))
    response.headers.update(headers)
    return response


async def validation_page(request: Request, exc: Exception) -> Response:
    from ..errors import describe_validation

    detail = describe_validation(list(getattr(exc, "errors", list)()))
    return ui_of(request).page(request, "error.html", 422, status_code=422, detail=detail)


async def http_page(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    detail = "no such page" if status == 404 else str(getattr(exc, "detail", "error"))
    return ui_of(request).page(request, "error.html", status, status_code=status, detail=detail)


ERROR_HANDLERS: dict[Any, Any] = {SignInNeeded: sign_in_needed, HipocampoError: error_page}
