"""The agent memory tools over HTTP, for agents that run elsewhere.

Each call names the session (user, thread, agent) it runs in; the tenant is always the key's.
A model's mistake (unknown id, bad type, empty text) is a 200 with ``success: false`` and an
``error_message`` the model can act on, exactly as the in-process tools answer. A tenant over its
memory quota is not the model's mistake: ``save_memory`` answers it with the 429 every write
route answers, whenever the refusal comes (see :class:`_QuotaRaised`).

The body is ``{"session": {...}, "arguments": {...}}``; a body of another shape gets a 422 that
shows the expected one (:data:`~..errors.BODY_SHAPES`).
"""

from __future__ import annotations

from typing import Any, cast

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....agent.session import SessionConfig
from ....agent.tools import GetMemoryResult, MemoryTools, WriteResult
from ....client import MEMORY_TYPE_DESCRIPTIONS, AsyncMemory
from ....domain.errors import InvalidInput, QuotaExceeded
from ....domain.model import Scope
from ....domain.tenancy import Principal
from ..errors import BODY_SHAPES, ERROR_RESPONSES, example_body
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..schemas import DeleteMemoryCall, GetMemoryCall, SaveMemoryCall, ToolSession, UpdateMemoryCall
from ..security import Caller, Mem

router = APIRouter(prefix="/v1/tools", tags=["agent tools"], responses=ERROR_RESPONSES)


def session_fields(session: ToolSession, mem: AsyncMemory, tenant_id: str) -> dict[str, Any]:
    """:class:`SessionConfig` fields of a request's session (the tenant is added by the caller),
    with its memory types checked (:func:`session_memory_types`)."""
    fields: dict[str, Any] = session.model_dump(exclude={"memory_types"}, exclude_none=True)
    scope = Scope(tenant_id, session.user_id, session.agent_id)
    fields["memory_types"] = session_memory_types(mem, scope, session.memory_types)
    return fields


def session_memory_types(mem: AsyncMemory, scope: Scope, named: list[str] | dict[str, str] | None) -> dict[str, str]:
    """The memory types of a session: those it names, each a built-in type or a custom one
    ``HIPOCAMPO_MEMORY_TYPES`` configures (anything else: :class:`InvalidInput`, a 422 naming the
    types accepted), else the agent's configured ones. A description left empty is the configured
    one: a custom type is only usable with the description that tells a model what it is for."""
    agent = mem.memory_types_for(scope)
    if named is None:
        return dict(agent)
    custom = mem.custom_memory_types()
    asked = named if isinstance(named, dict) else dict.fromkeys(named, "")
    unknown = [name for name in asked if name not in MEMORY_TYPE_DESCRIPTIONS and name not in custom]
    if unknown:
        accepted = [*MEMORY_TYPE_DESCRIPTIONS, *custom]
        hint = "" if custom else "; custom types are configured in HIPOCAMPO_MEMORY_TYPES"
        raise InvalidInput(
            f"session.memory_types: unknown memory type {', '.join(map(repr, unknown))}; "
            f"accepted: {', '.join(accepted)}{hint}"
        )
    return {
        name: desc or agent.get(name) or custom.get(name) or MEMORY_TYPE_DESCRIPTIONS[name]
        for name, desc in asked.items()
    }


def bind(mem: AsyncMemory, principal: Principal, session: ToolSession) -> MemoryTools:
    """The tools of a session forced into the caller's tenant."""
    fields = session_fields(session, mem, principal.tenant_id)
    return MemoryTools(mem, SessionConfig(tenant_id=principal.tenant_id, **fields))


class _QuotaRaised(Exception):
    """A :class:`QuotaExceeded` carried past the tool's ``except HipocampoError`` (which turns
    errors into ``success: false`` results for a model), so the route answers it as a 429."""


class _QuotaPassesThrough:
    """The memory as the HTTP ``save_memory`` tool sees it: ``remember`` raises a quota refusal
    as :class:`_QuotaRaised`; everything else is the memory's own. Without it the refusal was a
    429 when the route's early look caught it and a 200 with ``success: false`` when a racing
    save took the last slot between that look and the write (the write's own exact check)."""

    def __init__(self, mem: AsyncMemory) -> None:
        self._mem = mem

    def __getattr__(self, name: str) -> Any:
        return getattr(self._mem, name)

    async def remember(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await self._mem.remember(*args, **kwargs)
        except QuotaExceeded as exc:
            raise _QuotaRaised(exc) from exc


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
    """Save a durable fact about the user, of one of the session's memory types. A tenant over its
    memory quota gets 429 `quota_exceeded`, as from any write route (never a 200 with
    `success: false`)."""
    tools = bind(cast(AsyncMemory, _QuotaPassesThrough(mem)), principal, body.session)

    async def work() -> tuple[int, Any]:
        await mem.check_memory_quota(principal.tenant, adding=1)  # before any work
        try:
            result = await tools.save_memory(body.arguments.content, body.arguments.memory_type)
        except _QuotaRaised as raised:
            raise raised.args[0] from None  # the write's exact check: a race lost, the same 429
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


_CALLS: dict[str, type[Any]] = {
    "get_memory": GetMemoryCall,
    "save_memory": SaveMemoryCall,
    "update_memory": UpdateMemoryCall,
    "delete_memory": DeleteMemoryCall,
}
for _name, _model in _CALLS.items():
    BODY_SHAPES[f"{router.prefix}/{_name}"] = example_body(_model)
