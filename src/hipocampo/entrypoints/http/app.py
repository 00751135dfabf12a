"""The HTTP service's composition: one FastAPI app over one :class:`~hipocampo.AsyncMemory`.

``create_app(memory)`` serves a memory the caller opened and will close (tests, embedding the
API in another app). ``create_app(settings=...)`` opens the memory itself when the server starts
and closes it, worker included, when the server stops (``hipocampo serve``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI

from ... import __version__
from ...client import AsyncMemory
from ...settings import Settings
from . import errors
from .access_log import drop_query_strings
from .errors import CatchAll
from .heavy import HeavyLimit
from .hosts import HostGuard, default_allowed_hosts
from .limits import BodySizeLimit
from .mcp_mount import MCP_PATH, mcp_mount
from .metrics import Metrics, RequestTimer
from .routes import admin, chat, compat, context, health, memories, search, stored_users, threads, tools, users
from .security import ServiceState, admin_principal
from .ui import PATH as UI_PATH
from .ui import create_ui

DESCRIPTION = """\
Long-term memory for LLM agents: write conversation turns, recall what matters.

**Authentication.** Every `/v1` and `/api/v1` route needs an API key of a tenant, as
`Authorization: Bearer hk_...` or `X-API-Key: hk_...` (create one with
`hipocampo tenants create acme && hipocampo keys create --tenant acme`). The tenant always comes
from the key: user ids are namespaced inside it, and another tenant's ids answer 404.

**Retries.** Writes accept an `Idempotency-Key` header: a retry with the same key and body
returns the first answer (header `Idempotent-Replayed: true`). Messages that carry an `id` are
deduplicated per user even without it.

**Errors** are `{"error": code, "detail": message}` with 400, 401, 403, 404, 409, 413, 421 (a
`Host` the server does not answer for), 422, 429 or 503 (the store cannot take writes, or the
server is busy; both with `Retry-After`).

**MCP.** With the `mcp` extra, `/mcp` serves the same memory tools over the Model Context Protocol
(streamable HTTP): the same API key, the user in `X-Hipocampo-User`.
"""


def create_app(
    memory: AsyncMemory | None = None,
    *,
    settings: Settings | None = None,
    auth: bool | None = None,
    metrics_public: bool | None = None,
    max_request_bytes: int | None = None,
    local_tenant: str = "default",
    chat_model: Any = None,
    allowed_hosts: Sequence[str] | None = None,
) -> FastAPI:
    """The service over ``memory``, or over a memory opened from ``settings`` at start-up.

    ``auth``, ``metrics_public`` and ``max_request_bytes`` default to the settings' values. Without
    auth every request acts as an admin of ``local_tenant``. ``chat_model`` (a LangChain chat model)
    answers ``/v1/chat``; by default the one ``HIPOCAMPO_LLM`` configures. With the MCP SDK
    installed, ``/mcp`` serves the memory tools over MCP (streamable HTTP) in the same auth mode.
    ``allowed_hosts``: the ``Host`` values answered (see :mod:`.hosts`); default: the settings'
    ``allowed_hosts``, else the default for ``http_host`` and the auth mode.
    """
    s = memory.settings if memory is not None else (settings or Settings())
    metrics = Metrics()
    state = ServiceState(
        memory=memory,
        auth=(s.auth == "keys") if auth is None else auth,
        metrics=metrics,
        local_tenant=local_tenant,
        chat_model=chat_model,
        heavy=HeavyLimit(s.max_heavy_requests, s.stream_idle_seconds),
    )
    if allowed_hosts is None:
        allowed_hosts = s.allowed_hosts or default_allowed_hosts(s.http_host, state.auth)

    mcp = mcp_mount(state)
    ui = create_ui(state, sessions_per_tenant=s.ui_sessions_per_tenant)  # the web inspector, at /ui

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with AsyncExitStack() as stack:
            if state.memory is None:  # else the caller's: they close it
                state.memory = await AsyncMemory.open(settings=s)
                stack.push_async_callback(close_memory)
            if mcp is not None:
                await stack.enter_async_context(mcp.lifespan())
            await stack.enter_async_context(ui.state.sampler.running())
            yield

    async def close_memory() -> None:
        opened, state.memory = state.memory, None
        if opened is not None:
            await opened.close()

    app = FastAPI(
        title="hipocampo",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        openapi_tags=[
            {"name": "threads", "description": "Write and read conversation turns."},
            {"name": "recall", "description": "What an agent reads before it answers."},
            {"name": "memories", "description": "Facts: save, list, edit, delete, history."},
            {"name": "users", "description": "The tenant's users: list, export, forget."},
            {"name": "agent tools", "description": "get/save/update/delete_memory for remote agents."},
            {"name": "chat", "description": "One turn with the ready memory-backed agent (extra: langgraph)."},
            {"name": "conversation memory", "description": "`/api/v1/memory`: conversations by id."},
            {"name": "admin", "description": "Tenant metrics; admin keys only."},
            {"name": "operations", "description": "Health, readiness and Prometheus metrics."},
        ],
    )
    app.state.hipocampo = state
    errors.install(app)
    # Added innermost first: the timer sees every answer, the 500s of CatchAll and the 413s too.
    # The host guard is outermost: a request for another host reaches nothing, /mcp included.
    app.add_middleware(BodySizeLimit, max_bytes=max_request_bytes or s.max_request_bytes)
    app.add_middleware(CatchAll)
    app.add_middleware(RequestTimer, metrics=metrics)
    app.add_middleware(HostGuard, allowed=list(allowed_hosts))

    public = s.metrics_public if metrics_public is None else metrics_public
    app.include_router(health.router)
    app.add_api_route(
        "/metrics",
        health.metrics,
        methods=["GET"],
        tags=["operations"],
        dependencies=[] if public else [Depends(admin_principal)],
        responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format."}},
    )
    for module in (threads, memories, search, context, users, stored_users, tools, chat, compat, admin):
        app.include_router(module.router)
    if mcp is not None:  # authenticates and rate-limits its own requests; JSON-RPC, not in the schema
        app.add_route(MCP_PATH, mcp, include_in_schema=False)  # type: ignore[arg-type]  # an ASGI app, not a handler
    # HTML pages with their own sessions, CSRF and CSP; not in the API schema, and tested for
    # isolation by tests/e2e/test_ui_*.py rather than the API's route-by-route isolation test.
    app.mount(UI_PATH, ui)
    return app


def from_environment() -> FastAPI:
    """For process managers: ``uvicorn --factory hipocampo.entrypoints.http.app:from_environment``.
    Settings come from ``HIPOCAMPO_*`` (``HIPOCAMPO_HTTP_HOST`` should name the address uvicorn
    listens on, for the default allowed hosts); the store opens when the server starts. uvicorn
    has configured its logging by now, so the access log's query strings can be dropped here."""
    drop_query_strings()
    return create_app(settings=Settings())
