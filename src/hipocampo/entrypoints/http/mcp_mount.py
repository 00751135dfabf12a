"""The MCP endpoint inside the HTTP service: ``/mcp`` speaks streamable HTTP over the service's
store, with its rate limits and authentication mode (``hipocampo[mcp]``; without it, no ``/mcp``).

The endpoint authenticates each request itself (API key, ``X-Hipocampo-User``), so the API's
auth dependency never sees it; it stays out of the OpenAPI schema, being JSON-RPC, not REST.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from starlette.types import Receive, Scope, Send

from ...domain.errors import ConfigurationError
from .errors import error_response
from .security import ServiceState

if TYPE_CHECKING:
    from ...client import AsyncMemory

log = logging.getLogger("hipocampo.http")

MCP_PATH = "/mcp"


class McpMount:
    """The ASGI endpoint routed at ``/mcp``. The service's lifespan enters :meth:`lifespan`, which
    builds a fresh MCP app each time: the SDK's session manager runs once per instance, and a
    service may be started more than once (tests do)."""

    def __init__(self, build: Callable[[], Any]) -> None:
        self._build = build
        self._app: Any = None

    @asynccontextmanager
    async def lifespan(self) -> AsyncIterator[None]:
        app = self._build()
        async with app.lifespan():
            self._app = app
            try:
                yield
            finally:
                self._app = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self._app is None:  # only before start-up or after shutdown
            await error_response(503, "unavailable", "the MCP endpoint is not running")(scope, receive, send)
            return
        await self._app(scope, receive, send)


def mcp_mount(state: ServiceState) -> McpMount | None:
    """The ``/mcp`` endpoint sharing ``state``'s memory (and so its rate limits) and auth mode, or ``None`` (with one
    log line) when the MCP SDK is not installed."""
    try:
        from ..mcp_server import configured_session, mcp_asgi_app
        from ..mcp_server.asgi import DEFAULT_THREAD
    except (ConfigurationError, ImportError):
        log.info("no MCP endpoint at %s: the MCP SDK is not installed (pip install 'hipocampo[mcp]')", MCP_PATH)
        return None

    def memory() -> AsyncMemory:
        if state.memory is None:  # the service's lifespan opens it before it serves
            raise RuntimeError("the memory store is not open yet")
        return state.memory

    def build() -> Any:
        return mcp_asgi_app(
            memory,
            template=configured_session(memory(), "template", DEFAULT_THREAD),
            auth=state.auth,
            tenant_id=state.local_tenant,
        )

    return McpMount(build)
