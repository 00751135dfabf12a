"""The conversation memory endpoints (``/api/v1/memory``), over the same services as ``/v1``.

A conversation is a thread; the user comes in the query string because these paths have no
place for it. ``/search`` is declared before ``/{conversation_id}`` so it is never taken for an id.
``POST /search`` takes the same parameters in a JSON body, which keeps what the user asked out of
URLs (and so out of proxies' and servers' access logs); ``GET /search`` stays for older clients.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from ....domain.limits import MAX_QUERY_CHARS
from ....domain.model import message_to_dict
from ..errors import ERROR_RESPONSES
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..responses import ConversationOut, ForgetOut, SearchOut
from ..schemas import MAX_SEQ, ConversationIdPath, MemorySearchIn, ThreadIdQuery, UserIdQuery
from ..security import Caller, Mem, scope_of
from .threads import forget_or_404

router = APIRouter(prefix="/api/v1/memory", tags=["conversation memory"], responses=ERROR_RESPONSES)


@router.get("/search", response_model=SearchOut)
async def search_memories(
    user_id: UserIdQuery,
    principal: Caller,
    mem: Mem,
    query: Annotated[str, Query(min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for.")],
    k: Annotated[int | None, Query(ge=1, le=200, description="How many; default adaptive.")] = None,
    conversation_id: ThreadIdQuery = None,
) -> JSONResponse:
    """Semantic (hybrid) search over the user's memories of every conversation. Prefer `POST`:
    a query string ends up in the logs of every proxy on the way."""
    result = await mem.search(user_id, query, tenant_id=principal.tenant_id, k=k, thread_id=conversation_id)
    return JSONResponse(result.to_dict())


@router.post("/search", response_model=SearchOut)
async def search_memories_post(body: MemorySearchIn, principal: Caller, mem: Mem) -> JSONResponse:
    """The same search, its parameters in a JSON body rather than in the URL."""
    result = await mem.search(
        body.user_id, body.query, tenant_id=principal.tenant_id, k=body.k, thread_id=body.conversation_id
    )
    return JSONResponse(result.to_dict())


@router.get("/{conversation_id}", response_model=ConversationOut)
async def get_conversation(
    conversation_id: ConversationIdPath,
    user_id: UserIdQuery,
    principal: Caller,
    mem: Mem,
    after_seq: Annotated[int, Query(ge=-1, le=MAX_SEQ, description="Messages after this position.")] = -1,
    limit: Annotated[int, Query(ge=1, le=1000, description="Page size.")] = 100,
) -> JSONResponse:
    """The conversation's history: its messages (oldest first, paged) and its rolling summary."""
    scope = scope_of(principal, user_id)
    page, next_after = await mem.thread_page(
        scope, conversation_id, after_seq=after_seq, limit=limit, what="conversation"
    )
    summary = await mem.thread_summary(scope, conversation_id)
    return JSONResponse(
        {
            "conversation_id": conversation_id,
            "user_id": user_id,
            "summary": summary.content if summary else None,
            "messages": [message_to_dict(m) for m in page],
            "next_after_seq": next_after,
        }
    )


@router.delete("/{conversation_id}", response_model=ForgetOut, responses=CONFLICT)
async def delete_conversation(
    request: Request,
    conversation_id: ConversationIdPath,
    user_id: UserIdQuery,
    principal: Caller,
    mem: Mem,
    idempotency_key: IdempotencyKey = None,
) -> JSONResponse:
    """Delete the conversation: its messages, summary, memories and vectors."""
    scope = scope_of(principal, user_id)

    async def work() -> tuple[int, Any]:
        return 200, await forget_or_404(mem, scope, conversation_id)

    return await respond(request, principal, idempotency_key, work)
