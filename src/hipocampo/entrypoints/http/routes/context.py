"""The memory an agent injects before it answers, rendered exactly as the in-process agent does.

:class:`~hipocampo.agent.remote.RemoteAgentMemory` calls this route for its ``load_memory`` step,
so a LangGraph agent running elsewhere gets the context it would get next to the engine.
"""

from __future__ import annotations

import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....agent.context import MemoryFlags, load_context
from ....agent.session import SessionConfig
from ..errors import ERROR_RESPONSES
from ..responses import ContextOut
from ..schemas import ContextIn, UserIdPath
from ..security import Caller, Mem, service

router = APIRouter(prefix="/v1/users/{user_id}", tags=["recall"], responses=ERROR_RESPONSES)


@router.post("/context", response_model=ContextOut)
async def context(request: Request, user_id: UserIdPath, body: ContextIn, principal: Caller, mem: Mem) -> JSONResponse:
    """The agent's memory for ``query`` in ``thread_id``: the thread's summary and recent turns,
    the user's facts and relevant past conversation, each layer switched by ``flags``, rendered
    within the service's context budget. Empty when nothing is recalled."""
    start = time.perf_counter()
    session = SessionConfig(
        tenant_id=principal.tenant_id, user_id=user_id, thread_id=body.thread_id, agent_id=body.agent_id
    )
    flags = MemoryFlags(**body.flags.model_dump())
    text = await load_context(mem, session, body.query, flags)
    service(request).metrics.recall.labels("context").observe(time.perf_counter() - start)
    return JSONResponse({"context": text, "flags": flags.model_dump()})
