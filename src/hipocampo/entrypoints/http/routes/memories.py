"""A user's memories: save facts directly, list, read, edit, delete, and see their history."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse

from ....domain.model import MemoryKind
from ....domain.retrieval.recall import memory_to_dict
from ..errors import ERROR_RESPONSES
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..responses import HistoryOut, MemoryOut, MemoryPage
from ..schemas import TYPE_RULE, IsoTime, MemoryIdPath, RememberIn, ThreadIdQuery, UpdateMemoryIn, UserIdPath
from ..security import Caller, Mem, actor_of, scope_of

router = APIRouter(prefix="/v1/users/{user_id}/memories", tags=["memories"], responses=ERROR_RESPONSES)


@router.post("", status_code=201, response_model=MemoryOut, responses=CONFLICT)
async def remember(
    request: Request,
    user_id: UserIdPath,
    body: RememberIn,
    principal: Caller,
    mem: Mem,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Save a fact directly (what an agent's ``save_memory`` tool does); it is indexed in the
    background. Counts against the tenant's stored-memories quota."""
    scope = scope_of(principal, user_id, body.agent_id)

    async def work() -> tuple[int, Any]:
        item = await mem.remember(
            user_id,
            body.content,
            memory_type=body.memory_type,
            importance=body.importance,
            tenant_id=scope.tenant_id,
            agent_id=scope.agent_id,
            thread_id=body.thread_id,
            metadata=body.metadata,
            expires_at=body.expires_at,
            actor=actor_of(principal),
        )
        return 201, memory_to_dict(item)

    return await respond(request, principal, idempotency_key, work)


@router.get("", response_model=MemoryPage)
async def list_memories(
    user_id: UserIdPath,
    principal: Caller,
    mem: Mem,
    kind: Annotated[MemoryKind | None, Query(description="Only this kind.")] = None,
    memory_type: Annotated[
        str | None, Query(min_length=1, max_length=40, description=f"Only facts of this type: {TYPE_RULE}.")
    ] = None,
    thread_id: ThreadIdQuery = None,
    since: Annotated[IsoTime | None, Query(description="Created at or after (ISO-8601).")] = None,
    until: Annotated[IsoTime | None, Query(description="Created before (ISO-8601).")] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="Page size.")] = 100,
    offset: Annotated[int, Query(ge=0, le=10_000_000, description="Memories to skip.")] = 0,
    current_only: Annotated[bool, Query(description="Leave out superseded, retracted and expired memories.")] = False,
) -> JSONResponse:
    """The user's memories, newest first (empty for a user the tenant does not have)."""
    scope = scope_of(principal, user_id)
    page = await mem.list(
        user_id,
        tenant_id=scope.tenant_id,
        kind=kind,
        memory_type=memory_type,
        thread_id=thread_id,
        since=since,
        until=until,
        limit=limit,
        offset=offset,
        current_only=current_only,
    )
    next_offset = offset + len(page) if len(page) == limit else None
    return JSONResponse({"memories": [memory_to_dict(m) for m in page], "next_offset": next_offset})


@router.get("/{memory_id}", response_model=MemoryOut)
async def get_memory(user_id: UserIdPath, memory_id: MemoryIdPath, principal: Caller, mem: Mem) -> JSONResponse:
    """One memory, with its provenance."""
    item = await mem.get(user_id, memory_id, tenant_id=principal.tenant_id)
    return JSONResponse(memory_to_dict(item))


@router.patch("/{memory_id}", response_model=MemoryOut, responses=CONFLICT)
async def update_memory(
    request: Request,
    user_id: UserIdPath,
    memory_id: MemoryIdPath,
    body: UpdateMemoryIn,
    principal: Caller,
    mem: Mem,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Edit a fact's text, type or importance; the old text stays in its history. Turns mirror
    the log and cannot be edited (422): delete them instead."""

    async def work() -> tuple[int, Any]:
        item = await mem.update(
            user_id,
            memory_id,
            body.content,
            tenant_id=principal.tenant_id,
            memory_type=body.memory_type,
            importance=body.importance,
            actor=actor_of(principal),
        )
        return 200, memory_to_dict(item)

    return await respond(request, principal, idempotency_key, work)


@router.delete("/{memory_id}", response_model=MemoryOut, responses=CONFLICT)
async def delete_memory(
    request: Request,
    user_id: UserIdPath,
    memory_id: MemoryIdPath,
    principal: Caller,
    mem: Mem,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Delete a memory for good (a turn leaves the log too); answers with what was deleted."""

    async def work() -> tuple[int, Any]:
        return 200, memory_to_dict(await mem.delete(user_id, memory_id, tenant_id=principal.tenant_id))

    return await respond(request, principal, idempotency_key, work)


@router.get("/{memory_id}/history", response_model=HistoryOut)
async def memory_history(user_id: UserIdPath, memory_id: MemoryIdPath, principal: Caller, mem: Mem) -> JSONResponse:
    """Every change to the memory, oldest first: added, mentioned again, superseded, retracted."""
    entries = await mem.history(user_id, memory_id, tenant_id=principal.tenant_id)
    return JSONResponse({"memory_id": memory_id, "history": jsonable_encoder([asdict(e) for e in entries])})
