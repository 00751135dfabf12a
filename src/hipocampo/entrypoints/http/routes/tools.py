"""Seed 002's memory tools over HTTP, for agents that run elsewhere.

Each call names the session (user, thread, agent) it runs in; the tenant is always the key's.
A model's mistake (unknown id, bad type, empty text) is a 200 with ``success: false`` and an
``error_message`` the model can act on, exactly as the in-process tools answer.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....agent.session import SessionConfig
from ....agent.tools import GetMemoryResult, MemoryTools, WriteResult
from ....client import AsyncMemory
from ....domain.tenancy import Principal
from ....services import tenancy
from ..errors import ERROR_RESPONSES
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..schemas import DeleteMemoryCall, GetMemoryCall, SaveMemoryCall, ToolSession, UpdateMemoryCall
from ..security import Caller, Mem

router = APIRouter(prefix="/v1/tools", tags=["agent tools"], responses=ERROR_RESPONSES)


def session_fields(session: ToolSession) -> dict[str, Any]:
    """:class:`SessionConfig` fields of a request's session (the tenant is added by the caller)."""
    fields: dict[str, Any] = session.model_dump(exclude={"memory_types"}, exclude_none=True)
    types = session.memory_types
    if types is not None:  # descriptions left empty get the built-in ones
        fields["memory_types"] = (
            {t.value: d for t, d in types.items()} if isinstance(types, dict) else {t.value: "" for t in types}
        )
    return fields


def bind(mem: AsyncMemory, principal: Principal, session: ToolSession) -> MemoryTools:
    """The tools of a session forced into the caller's tenant."""
    return MemoryTools(mem, SessionConfig(tenant_id=principal.tenant_id, **session_fields(session)))


@router.post("/get_memory", response_model=GetMemoryResult)
async def get_memory(body: GetMemoryCall, principal: Caller, mem: Mem) -> JSONResponse:
    """Find memories: ``semantic`` ranks them against ``query``; ``chronological`` lists the newest."""
    a = body.arguments
    result = await bind(mem, principal, body.session).get_memory(a.mode, a.query, a.memory_type, a.limit)
    return JSONResponse(result.model_dump(mode="json"))


@router.post("/save_memory", response_model=WriteResult, responses=CONFLICT)
async def save_memory(
    request: Request, body: SaveMemoryCall, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Save a durable fact about the user, of one of the session's memory types."""
    tools = bind(mem, principal, body.session)

    async def work() -> tuple[int, Any]:
        # A look first, so a tenant over its quota gets a 429 as from any write route; the save
        # itself enforces the quota exactly (a race lost there is a tool result with the reason).
        await tenancy.check_memory_quota(mem.deps, principal.tenant, adding=1)
        result = await tools.save_memory(body.arguments.content, body.arguments.memory_type)
        return 200, result.model_dump(mode="json")

    return await respond(request, principal, idempotency_key, work)


@router.post("/update_memory", response_model=WriteResult, responses=CONFLICT)
async def update_memory(
    request: Request, body: UpdateMemoryCall, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Replace a memory's content (the old text stays in its history)."""
    tools = bind(mem, principal, body.session)

    async def work() -> tuple[int, Any]:
        result = await tools.update_memory(body.arguments.memory_id, body.arguments.new_content)
        return 200, result.model_dump(mode="json")

    return await respond(request, principal, idempotency_key, work)


@router.post("/delete_memory", response_model=WriteResult, responses=CONFLICT)
async def delete_memory(
    request: Request, body: DeleteMemoryCall, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Delete one of the user's memories for good."""
    tools = bind(mem, principal, body.session)

    async def work() -> tuple[int, Any]:
        result = await tools.delete_memory(body.arguments.memory_id)
        return 200, result.model_dump(mode="json")

    return await respond(request, principal, idempotency_key, work)
