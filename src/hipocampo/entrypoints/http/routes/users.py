"""The tenant's users: list them, export one's whole memory, forget one."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ....client import Record, json_line
from ....domain.errors import WIRE_ERRORS, HipocampoError, NotFound
from ..errors import ERROR_RESPONSES
from ..heavy import SlotStream
from ..idempotent import CONFLICT, IdempotencyKey, respond
from ..responses import ForgetOut, UsersOut
from ..schemas import UserIdPath
from ..security import Caller, Mem, scope_of, service
from .threads import forget_or_404

log = logging.getLogger("hipocampo.http")
CHUNK_BYTES = 64 * 1024
"""Export lines are sent in chunks of about this size: one send per line would cost more than the
line, one send for everything would hold the whole export in memory."""

router = APIRouter(prefix="/v1/users", tags=["users"], responses=ERROR_RESPONSES)


@router.get("", response_model=UsersOut)
async def list_users(principal: Caller, mem: Mem) -> JSONResponse:
    """Every user of the caller's tenant that has conversations or saved memories."""
    return JSONResponse({"users": await mem.list_users(tenant_id=principal.tenant_id)})


class ExportStream(SlotStream):
    media_type = "application/x-ndjson"


# The route's media type would otherwise be documented for its JSON errors too.
_JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {
        "description": response["description"],
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
    }
    for status, response in ERROR_RESPONSES.items()
}


@router.get(
    "/{user_id}/export",
    response_class=ExportStream,
    status_code=200,
    responses={200: {"description": "JSON Lines: one record per line, of the types listed above."}, **_JSON_ERRORS},
)
async def export_user(request: Request, user_id: UserIdPath, principal: Caller, mem: Mem) -> ExportStream:
    """The user's whole memory, streamed as JSON Lines (`application/x-ndjson`): one JSON object
    per line with a `type`: `export` (first), `thread` (with its summary), `message`, `memory`
    (`origin`: `saved` or `derived`), `history` (changes to facts), and `end` (last, with the
    counts). A stream without `end` was cut short; a failure midway ends it with an `error` line.
    `hipocampo import` reads the file back. At most `HIPOCAMPO_MAX_HEAVY_REQUESTS` exports, user
    metrics run at once per tenant; past that, 503 `busy` with `Retry-After`. A client that takes
    nothing for `HIPOCAMPO_STREAM_IDLE_SECONDS` (30 s by default) has its stream cut."""
    scope = scope_of(principal, user_id)
    heavy = service(request).heavy
    release = heavy.acquire(principal.tenant_id)
    try:
        if not await mem.user_exists(scope):
            raise NotFound(f"no memory for user {user_id!r}")
    except BaseException:
        release()
        raise
    return ExportStream(_ndjson(mem.export_records(scope)), release, heavy.idle_seconds)


async def _ndjson(records: AsyncIterator[Record]) -> AsyncIterator[bytes]:
    """Records as JSON Lines in chunks. The status (200) is sent before the first chunk, so a
    failure midway can only end the stream: with an ``error`` line, and no ``end`` line."""
    buffer: list[str] = []
    size = 0
    try:
        async for record in records:
            line = json_line(record)
            buffer.append(line)
            size += len(line)
            if size >= CHUNK_BYTES:
                yield "".join(buffer).encode()
                buffer, size = [], 0
    except HipocampoError as exc:
        log.warning("export stopped: %s: %s", type(exc).__name__, exc)
        code = next((c for cls, _, c in WIRE_ERRORS if isinstance(exc, cls)), "unavailable")
        buffer.append(json_line({"type": "error", "error": code, "detail": str(exc)}))
    except Exception:
        log.exception("export failed")
        buffer.append(json_line({"type": "error", "error": "internal_error", "detail": "the export failed; logged"}))
    finally:
        await records.aclose()  # type: ignore[attr-defined]
    yield "".join(buffer).encode()


@router.delete("/{user_id}", response_model=ForgetOut, responses=CONFLICT)
async def forget_user(
    request: Request, user_id: UserIdPath, principal: Caller, mem: Mem, idempotency_key: IdempotencyKey = None
) -> JSONResponse:
    """Delete everything the tenant holds about this user: threads, memories, vectors, summaries.
    Deletions have their own `HIPOCAMPO_MAX_HEAVY_REQUESTS` slots per tenant: they never wait
    behind an export."""
    scope = scope_of(principal, user_id)

    async def work() -> tuple[int, Any]:
        async with service(request).heavy.slot(principal.tenant_id, "erase"):
            return 200, await forget_or_404(mem, scope, None)

    return await respond(request, principal, idempotency_key, work)
