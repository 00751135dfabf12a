"""Conversation threads: write turns, page through them, list and forget threads."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ....client import AsyncMemory
from ....domain.errors import NotFound
from ....domain.model import Scope, message_to_dict
from ..errors import ERROR_RESPONSES
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..responses import ForgetOut, MessagePage, MessagesOut, ThreadsOut
from ..schemas import MAX_SEQ, AddMessagesIn, ThreadIdPath, UserIdPath
from ..security import Caller, Mem, scope_of

router = APIRouter(prefix="/v1/users/{user_id}/threads", tags=["threads"], responses=ERROR_RESPONSES)


@router.post(
    "/{thread_id}/messages",
    status_code=201,
    response_model=MessagesOut,
    responses=CONFLICT,
)
async def add_messages(
    request: Request,
    user_id: UserIdPath,
    thread_id: ThreadIdPath,
    body: AddMessagesIn,
    principal: Caller,
    mem: Mem,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Write turns durably; embedding, fact extraction and summaries follow in the background.

    Messages that carry an ``id`` already stored for this user are returned as stored, not
    written again, so a retried request is safe even without an ``Idempotency-Key``.
    """
    scope = scope_of(principal, user_id, body.agent_id)

    async def work() -> tuple[int, Any]:
        stored = await mem.add(
            user_id,
            thread_id,
            [m.model_dump(exclude_none=True) for m in body.messages],
            tenant_id=scope.tenant_id,
            agent_id=scope.agent_id,
            metadata=body.metadata,
        )
        return 201, {"messages": [message_to_dict(m) for m in stored]}

    return await respond(request, principal, idempotency_key, work)


@router.get("/{thread_id}/messages", response_model=MessagePage)
async def list_messages(
    user_id: UserIdPath,
    thread_id: ThreadIdPath,
    principal: Caller,
    mem: Mem,
    after_seq: Annotated[int, Query(ge=-1, le=MAX_SEQ, description="Messages after this position; -1: all.")] = -1,
    limit: Annotated[int, Query(ge=1, le=1000, description="Page size.")] = 100,
) -> JSONResponse:
    """A page of the thread's messages, oldest first."""
    page, next_after = await mem.thread_page(scope_of(principal, user_id), thread_id, after_seq=after_seq, limit=limit)
    return JSONResponse({"messages": [message_to_dict(m) for m in page], "next_after_seq": next_after})


@router.get("", response_model=ThreadsOut)
async def list_threads(user_id: UserIdPath, principal: Caller, mem: Mem) -> JSONResponse:
    """The user's threads (empty for a user the tenant does not have)."""
    threads = await mem.threads(user_id, tenant_id=principal.tenant_id)
    return JSONResponse({"user_id": user_id, "threads": threads})


@router.delete("/{thread_id}", response_model=ForgetOut, responses=CONFLICT)
async def forget_thread(
    request: Request,
    user_id: UserIdPath,
    thread_id: ThreadIdPath,
    principal: Caller,
    mem: Mem,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Delete the thread with its messages, summary, memories and vectors."""
    scope = scope_of(principal, user_id)

    async def work() -> tuple[int, Any]:
        return 200, await forget_or_404(mem, scope, thread_id)

    return await respond(request, principal, idempotency_key, work)


async def forget_or_404(mem: AsyncMemory, scope: Scope, thread_id: str | None) -> dict[str, int]:
    """Forget a thread (or the user); 404 when there was nothing to forget."""
    counts = await mem.forget_in(scope, thread_id)
    if counts["messages"] == 0 and counts["memories"] == 0:
        what = f"thread {thread_id!r}" if thread_id is not None else "memory"
        raise NotFound(f"no {what} for user {scope.user_id!r}")
    return counts
