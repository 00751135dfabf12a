"""Safe retries of writes: with an ``Idempotency-Key`` header a write runs at most once per key and
tenant; a retry gets the first answer again, marked ``Idempotent-Replayed: true``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Header, Request
from fastapi.responses import JSONResponse

from ...domain.tenancy import Principal
from .responses import ErrorOut
from .security import memory

Work = Callable[[], Awaitable[tuple[int, Any]]]

CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {
        "model": ErrorOut,
        "description": "Idempotency-Key reused with another request, or its first request is still running.",
    }
}
"""Documented on every route that takes an ``Idempotency-Key``."""

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="Any unique string per logical write (a UUID). Retrying with the same key and body returns "
        "the first answer without writing again; the same key with another body is a 409.",
    ),
]


async def respond(
    request: Request, principal: Principal, key: str | None, work: Work, *, atomic: bool = True
) -> JSONResponse:
    """Run ``work`` (which returns ``(status, body)``), once per idempotency key when one is given.

    ``atomic=False`` for work that waits on an LLM (see :meth:`AsyncMemory.run_once`)."""
    if key is None:
        status, body = await work()
        return JSONResponse(body, status_code=status)
    path = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    mem = memory(request)
    req_hash = mem.request_hash(request.method, path, await request.body())
    status, body, replayed = await mem.run_once(principal.tenant_id, key, req_hash, work, atomic=atomic)
    return JSONResponse(body, status_code=status, headers={"Idempotent-Replayed": "true"} if replayed else None)
