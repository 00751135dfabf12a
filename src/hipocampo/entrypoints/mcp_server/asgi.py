"""The MCP server over streamable HTTP: every request authenticated and bound to its own session.

A request names its tenant with its API key (``Authorization: Bearer hk_...``), its user with
``X-Hipocampo-User`` and, optionally, its thread (``X-Hipocampo-Thread``, default ``mcp``) and
agent (``X-Hipocampo-Agent``). Header values are UTF-8, optionally percent-encoded, and become
the same ids as in REST paths (:mod:`hipocampo.entrypoints.ids`). The SDK runs statelessly, so
any replica can answer any request and nothing about a caller outlives the request that
authenticated it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from ...agent.session import SessionConfig
from ...agent.tools import MemoryTools
from ...client import AsyncMemory
from ...domain.errors import WIRE_ERRORS, HipocampoError, InvalidInput, Unauthorized
from ...domain.tenancy import Principal
from ..ids import id_from_header
from .server import Caller, build_server, configured_session

USER_HEADER = "X-Hipocampo-User"
THREAD_HEADER = "X-Hipocampo-Thread"
AGENT_HEADER = "X-Hipocampo-Agent"
DEFAULT_THREAD = "mcp"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
_CALLER = "hipocampo.caller"  # where the authenticated caller rides in the ASGI scope

MemorySource = AsyncMemory | Callable[[], AsyncMemory]


class McpAsgiApp:
    """The MCP endpoint as an ASGI app, answering on whatever path it is routed to.

    Standalone (``uvicorn.run(app)``) it runs its own lifespan. Routed inside another app, that
    app's lifespan must enter :meth:`lifespan`, because a mounted app's own lifespan never runs.
    """

    def __init__(
        self,
        memory: MemorySource,
        *,
        template: SessionConfig | None = None,
        auth: bool = True,
        tenant_id: str = "default",
        allowed_hosts: list[str] | None = None,
    ) -> None:
        self._memory = memory if callable(memory) else lambda: memory
        self._template = template or SessionConfig(user_id="template", thread_id=DEFAULT_THREAD)
        self._auth = auth
        self._local = AsyncMemory.local_principal(tenant_id)
        server = build_server(self._caller, self._template)
        server.streamable_http_app(  # builds the session manager; its routing is ours
            stateless_http=True, json_response=True, transport_security=_security(allowed_hosts)
        )
        self.session_manager: StreamableHTTPSessionManager = server.session_manager
        self._own_lifespan = Starlette(lifespan=lambda _app: self.lifespan())

    def lifespan(self) -> AbstractAsyncContextManager[None]:
        """Run the SDK's session manager; enter it once, for as long as the app serves."""
        return self.session_manager.run()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._own_lifespan(scope, receive, send)
            return
        if scope["type"] != "http":
            return
        try:
            scope[_CALLER] = await self._authenticate(Headers(scope=scope))
        except (HipocampoError, ValidationError) as exc:
            await _refusal(exc)(scope, receive, send)
            return
        await self.session_manager.handle_request(scope, receive, send)

    async def _authenticate(self, headers: Headers) -> Caller:
        memory = self._memory()
        principal = await self._principal(memory, headers)
        if not headers.get(USER_HEADER):
            raise InvalidInput(f"the {USER_HEADER} header is required: the user whose memory to use")
        session = SessionConfig.model_validate(
            self._template.model_dump()
            | {
                "tenant_id": principal.tenant_id,
                "user_id": id_from_header("user_id", USER_HEADER, headers.get(USER_HEADER)),
                "thread_id": id_from_header("thread_id", THREAD_HEADER, headers.get(THREAD_HEADER)) or DEFAULT_THREAD,
                "agent_id": id_from_header("agent_id", AGENT_HEADER, headers.get(AGENT_HEADER)),
            }
        )
        return Caller(MemoryTools(memory, session), principal.tenant)

    async def _principal(self, memory: AsyncMemory, headers: Headers) -> Principal:
        if not self._auth:
            return self._local
        scheme, _, token = headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("missing API key: send Authorization: Bearer hk_...")
        principal = await memory.authenticate(token.strip())
        await memory.count_request(principal.tenant)  # the memory's limiter: shared with the API
        return principal

    @staticmethod
    def _caller(ctx: Context) -> Caller:
        request = ctx.request_context.request
        caller = getattr(request, "scope", {}).get(_CALLER)
        if caller is None:  # only McpAsgiApp reaches the session manager, so this is a bug
            raise RuntimeError("request reached the MCP server without an authenticated caller")
        return caller


def mcp_asgi_app(memory: MemorySource, **options: Any) -> McpAsgiApp:
    """The MCP endpoint of an HTTP service, to route at ``/mcp`` (see :class:`McpAsgiApp`).

    ``memory`` is the service's :class:`AsyncMemory`, or a function returning it (for apps that
    open it in their lifespan). ``options``: ``template`` (a :class:`SessionConfig` whose memory
    types and prompt every session shares), ``auth=False`` with ``tenant_id`` for a local
    service, and ``allowed_hosts`` (``Host`` values to accept, with DNS-rebinding protection;
    default: any). Requests count against the memory's rate limiter, which the API shares.
    """
    return McpAsgiApp(memory, **options)


async def serve_http(memory: AsyncMemory, *, host: str, port: int, path: str = "/mcp", **options: Any) -> None:
    """Serve the MCP endpoint at ``http://host:port/mcp`` until Ctrl-C or SIGTERM."""
    import uvicorn

    if host in LOOPBACK_HOSTS:
        options.setdefault("allowed_hosts", [f"{h}:*" for h in ("127.0.0.1", "localhost", "[::1]")])
    options.setdefault("template", configured_session(memory, "template", DEFAULT_THREAD))
    mcp = mcp_asgi_app(memory, **options)
    app = Starlette(routes=[Route(path, endpoint=mcp)], lifespan=lambda _app: mcp.lifespan())
    config = uvicorn.Config(app, host=host, port=port, log_level="info", lifespan="on", http="h11")  # as serve
    await uvicorn.Server(config).serve()


def _security(allowed_hosts: list[str] | None) -> TransportSecuritySettings:
    if not allowed_hosts:
        return TransportSecuritySettings(enable_dns_rebinding_protection=False)
    origins = [f"{scheme}://{h}" for h in allowed_hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(allowed_hosts=allowed_hosts, allowed_origins=origins)


_REFUSALS: list[tuple[type[Exception], int, str]] = [
    *WIRE_ERRORS,  # the REST service's statuses and codes, so both answer a mistake alike
    (ValidationError, 422, "invalid_input"),
]


def _refusal(exc: Exception) -> JSONResponse:
    """The HTTP service's error shape: ``{"error": code, "detail": message}``."""
    status, code = next(((s, c) for cls, s, c in _REFUSALS if isinstance(exc, cls)), (503, "unavailable"))
    headers: dict[str, str] = {}
    if isinstance(exc, Unauthorized):
        headers["WWW-Authenticate"] = 'Bearer realm="hipocampo"'
    retry_after = getattr(exc, "retry_after_seconds", None)
    if retry_after is not None:
        headers["Retry-After"] = str(max(1, math.ceil(retry_after)))
    detail = "; ".join(e["msg"] for e in exc.errors()) if isinstance(exc, ValidationError) else str(exc)
    return JSONResponse({"error": code, "detail": detail}, status_code=status, headers=headers)
