"""Reading memory the way an agent does: ranked search, and recall with the rendered context."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..errors import ERROR_RESPONSES
from ..responses import RecallOut, SearchOut
from ..schemas import RecallIn, SearchIn, UserIdPath
from ..security import Caller, Mem, service

router = APIRouter(prefix="/v1/users/{user_id}", tags=["recall"], responses=ERROR_RESPONSES)


@router.post("/search", response_model=SearchOut)
async def search(request: Request, user_id: UserIdPath, body: SearchIn, principal: Caller, mem: Mem) -> JSONResponse:
    """Ranked, explained memories for ``query`` across the user's threads."""
    start = time.perf_counter()
    result = await mem.search(
        user_id,
        body.query,
        tenant_id=principal.tenant_id,
        agent_id=body.agent_id,
        agent_only=body.agent_only,
        k=body.k,
        thread_id=body.thread_id,
        exclude_thread=body.exclude_thread,
        recency=body.recency,
        min_relevance=body.min_relevance,
        kinds=body.kinds,
        since=body.since,
        until=body.until,
    )
    service(request).metrics.recall.labels("search").observe(time.perf_counter() - start)
    return JSONResponse(result.to_dict())


@router.post("/recall", response_model=RecallOut)
async def recall(request: Request, user_id: UserIdPath, body: RecallIn, principal: Caller, mem: Mem) -> JSONResponse:
    """What an agent needs before it answers: the thread's recent turns and summary, and the
    relevant memories of every thread, rendered into ``retrieval.context`` within ``token_budget``."""
    start = time.perf_counter()
    result = await mem.recall(
        user_id,
        body.thread_id,
        body.query,
        tenant_id=principal.tenant_id,
        agent_id=body.agent_id,
        agent_only=body.agent_only,
        k=body.k,
        token_budget=body.token_budget,
        recency=body.recency,
        exclude_current_thread=body.exclude_current_thread,
        min_relevance=body.min_relevance,
        since=body.since,
        until=body.until,
        include_recent=body.include_recent,
    )
    service(request).metrics.recall.labels("recall").observe(time.perf_counter() - start)
    return JSONResponse(result.to_dict())
