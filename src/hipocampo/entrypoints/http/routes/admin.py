"""The tenant's admin routes (admin keys only): usage and memory metrics."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ....domain.errors import NotFound
from ..errors import ERROR_RESPONSES
from ..schemas import UserIdPath
from ..security import AdminCaller, Mem, scope_of, service

router = APIRouter(
    prefix="/v1/admin",
    tags=["admin"],
    responses={**ERROR_RESPONSES, 403: {**ERROR_RESPONSES[401], "description": "A user key on an admin route."}},
)


@router.get("/metrics", response_model=dict[str, Any])
async def tenant_metrics(principal: AdminCaller, mem: Mem) -> JSONResponse:
    """The tenant's totals: users, threads, messages, memories by kind and type, quotas and usage."""
    return JSONResponse(await mem.tenant_metrics(principal.tenant_id))


@router.get("/users/{user_id}/metrics", response_model=dict[str, Any])
async def user_metrics(
    request: Request,
    user_id: UserIdPath,
    principal: AdminCaller,
    mem: Mem,
    gap_days: Annotated[int, Query(ge=1, le=3650, description="Days of silence that end a session.")] = 7,
) -> JSONResponse:
    """One user's engagement and memory: conversations, activity, facts by type, access. Heavy:
    with exports, at most `HIPOCAMPO_MAX_HEAVY_REQUESTS` run at once per tenant, past that 503
    `busy` with `Retry-After`."""
    scope = scope_of(principal, user_id)
    async with service(request).heavy.slot(principal.tenant_id):
        if not await mem.user_exists(scope):
            raise NotFound(f"no memory for user {user_id!r}")
        return JSONResponse(await mem.user_metrics(scope, gap_days=gap_days))
