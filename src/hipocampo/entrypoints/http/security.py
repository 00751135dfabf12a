"""Who is calling: API keys, the admin role, and the per-tenant request rate.

A key travels as ``Authorization: Bearer hk_...`` or ``X-API-Key: hk_...``. The tenant of every
request comes from the key and nothing else: no route takes a tenant from the URL or the body.
With ``auth="none"`` (a local, single-tenant deployment) every request is the local principal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ...client import AsyncMemory, WriteProbe
from ...domain.errors import Forbidden, QuotaExceeded, Unauthorized
from ...domain.model import Scope
from ...domain.tenancy import Principal
from .heavy import HeavyLimit
from .metrics import Metrics


@dataclass
class ServiceState:
    """What the routes share, kept on ``app.state.hipocampo``. ``memory`` is set once the
    lifespan opened it (or at once, when the caller passed an open one)."""

    memory: AsyncMemory | None
    auth: bool
    metrics: Metrics
    local_tenant: str = "default"  # who every request is when auth is off
    chat_model: Any = None  # a LangChain chat model for /v1/chat; None: the one the settings configure
    write_probe: WriteProbe = field(default_factory=WriteProbe)  # /readyz: does the store take writes?
    heavy: HeavyLimit = field(default_factory=HeavyLimit)  # exports, user metrics, forgetting a user


def service(request: Request) -> ServiceState:
    return request.app.state.hipocampo


def memory(request: Request) -> AsyncMemory:
    mem = service(request).memory
    if mem is None:  # only between process start and the end of the lifespan's start-up
        raise RuntimeError("the memory store is not open yet")
    return mem


_bearer = HTTPBearer(auto_error=False, description="`Authorization: Bearer hk_<id>_<secret>`")
_api_key = APIKeyHeader(name="X-API-Key", auto_error=False, description="The same key, in its own header.")


async def current_principal(
    request: Request,
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    api_key: Annotated[str | None, Depends(_api_key)],
) -> Principal:
    """Authenticate the request's key and count it against its tenant's rate limit."""
    state = service(request)
    if not state.auth:
        principal = memory(request).local_principal(state.local_tenant)
    else:
        token = bearer.credentials if bearer is not None else api_key
        try:
            principal = await memory(request).authenticate(token)
        except Unauthorized:
            state.metrics.rejected.labels("unauthorized").inc()
            raise
        try:
            await memory(request).count_request(principal.tenant)
        except QuotaExceeded:
            state.metrics.rejected.labels("rate_limited").inc()
            raise
    request.state.principal = principal
    return principal


async def admin_principal(principal: Annotated[Principal, Depends(current_principal)]) -> Principal:
    if not principal.is_admin:
        raise Forbidden("this route needs an admin key of the tenant")
    return principal


async def is_admin(request: Request) -> bool:
    """Whether the request carries a valid admin key (always, with auth off), for public routes
    that show operators more: nothing is counted, and a missing or wrong key is just a no."""
    state = service(request)
    if not state.auth:
        return True
    header = request.headers.get("authorization", "")
    token = header[7:].strip() if header[:7].lower() == "bearer " else request.headers.get("x-api-key")
    if not token or state.memory is None:
        return False
    try:
        return (await state.memory.authenticate(token)).is_admin
    except Unauthorized:
        return False


Caller = Annotated[Principal, Depends(current_principal)]
AdminCaller = Annotated[Principal, Depends(admin_principal)]
Mem = Annotated[AsyncMemory, Depends(memory)]


def scope_of(principal: Principal, user_id: str, agent_id: str | None = None, agent_only: bool = False) -> Scope:
    """The caller's user: always inside the key's tenant."""
    return Scope(principal.tenant_id, user_id, agent_id, agent_only)


def actor_of(principal: Principal, via: str = "api") -> str:
    """Who a change is recorded as in a memory's history: the entry point and the key's public
    id (never its secret), so a tenant can tell which key edited a fact."""
    return f"{via}, key {principal.key_id}" if principal.key_id else via
