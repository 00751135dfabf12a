"""One chat turn with the ready agent (``POST /chat``): recall, answer, remember.

Answering with a model needs the ``langgraph`` extra (without it such a request gets a 503 saying
what to install); with no model configured the turn still shows the memory it would inject.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....agent.session import SessionConfig
from ..errors import BODY_SHAPES, ERROR_RESPONSES, example_body
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..responses import ChatOut, ErrorOut
from ..schemas import ChatIn
from ..security import Caller, Mem, service
from .tools import session_fields

router = APIRouter(tags=["chat"], responses=ERROR_RESPONSES)
_DOC: dict[str, Any] = {
    "response_model": ChatOut,
    "responses": {**CONFLICT, 503: {"model": ErrorOut, "description": "The chat model failed or is not installed."}},
}


@router.post("/v1/chat", **_DOC)
async def chat(
    request: Request, body: ChatIn, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Answer ``message`` as the memory-backed agent: recalled memory goes into the system prompt,
    the model may call the memory tools, and both turns are stored. Without a configured chat
    model (``HIPOCAMPO_LLM``) the answer is null, ``notice`` says how to configure one, and the
    user's turn is stored all the same."""
    from ....agent.chat import chat_model_from_config, run_chat

    fields = session_fields(body.session, mem, principal.tenant_id)
    if fields.get("system_prompt") is None:
        fields.pop("system_prompt", None)
    session = SessionConfig(tenant_id=principal.tenant_id, **fields)
    state = service(request)
    if state.chat_model is None and mem.settings.llm:  # built once per app, not per request
        state.chat_model, _ = chat_model_from_config(mem.settings)  # None: run_chat explains why
    chat_model = state.chat_model

    async def work() -> tuple[int, Any]:
        await mem.check_memory_quota(principal.tenant, adding=2)
        reply = await run_chat(mem, session, body.message, chat_model=chat_model)
        return 200, reply.model_dump(mode="json")

    # Without a model the turn is a plain write: exactly once. A model's answer takes seconds, too
    # long to hold the write transaction open, so that path reserves the key instead.
    return await respond(request, principal, idempotency_key, work, atomic=chat_model is None)


router.add_api_route("/chat", chat, methods=["POST"], include_in_schema=False, **_DOC)
BODY_SHAPES["/v1/chat"] = BODY_SHAPES["/chat"] = example_body(ChatIn)
