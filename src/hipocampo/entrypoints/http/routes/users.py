"""The tenant's users: list them, export one's whole memory, forget one."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....domain.errors import NotFound
from ..errors import ERROR_RESPONSES
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..responses import ForgetOut, UsersOut
from ..schemas import UserIdPath
from ..security import Caller, Mem, scope_of
from .threads import forget_or_404

router = APIRouter(prefix="/v1/users", tags=["users"], responses=ERROR_RESPONSES)


@router.get("", response_model=UsersOut)
async def list_users(principal: Caller, mem: Mem) -> JSONResponse:
    """Every user of the caller's tenant that has conversations or saved memories."""
    deps = mem.deps
    users = set(await deps.log.users(principal.tenant_id))
    # Users who only have facts saved directly have no thread: the memory store knows them.
    users.update(u for t, u in await deps.memories.scopes() if t == principal.tenant_id)
    return JSONResponse({"users": sorted(users)})


@router.get("/{user_id}/export", response_model=dict[str, Any])
async def export_user(user_id: UserIdPath, principal: Caller, mem: Mem) -> JSONResponse:
    """The user's whole memory as JSON: threads with messages and summaries, saved memories and
    what was learned from the messages."""
    data = await mem.export(user_id, tenant_id=principal.tenant_id)
    if not data["threads"] and not data["memories"] and not data["derived"]:
        raise NotFound(f"no memory for user {user_id!r}")
    return JSONResponse(data)


@router.delete("/{user_id}", response_model=ForgetOut, responses=CONFLICT)
async def forget_user(
    request: Request, user_id: UserIdPath, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Delete everything the tenant holds about this user: threads, memories, vectors, summaries."""
    scope = scope_of(principal, user_id)

    async def work() -> tuple[int, Any]:
        return 200, await forget_or_404(mem, scope, None)

    return await respond(request, principal, idempotency_key, work)
