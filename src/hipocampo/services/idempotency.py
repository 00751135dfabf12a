"""Idempotent writes: a request retried with the same ``Idempotency-Key`` gets the first answer.

A write, its key and its answer commit together, so a retry after a crash either replays the
answer or performs the write exactly once. A successful (2xx) answer is kept for a day; a failure
releases the key, so the client can retry for real.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from ..domain.errors import Conflict, InvalidInput
from ..ports import PENDING_STATUS, StoredResponse
from .deps import Deps

KEEP = timedelta(hours=24)
"""How long an answer is replayed; older entries are ignored and purged."""
PENDING_LEASE = timedelta(minutes=2)
"""A reservation older than this belongs to a request that died (a crash): the key is free again."""
PURGE_EVERY_SECONDS = 3600.0
MAX_KEY_CHARS = 200

IN_PROGRESS = "a request with this idempotency key is still being processed; retry later"


def request_hash(method: str, path: str, body: bytes) -> str:
    """Fingerprint of a request, to tell a retry from another request reusing the key."""
    h = hashlib.sha256()
    for part in (method.upper().encode(), path.encode(), bytes(body)):
        h.update(len(part).to_bytes(8, "big"))  # length-prefixed: ("ab", "c") differs from ("a", "bc")
        h.update(part)
    return h.hexdigest()


async def run_once(
    deps: Deps,
    tenant_id: str,
    key: str,
    req_hash: str,
    work: Callable[[], Awaitable[tuple[int, Any]]],
    *,
    atomic: bool = True,
) -> tuple[int, Any, bool]:
    """Run ``work`` (which answers ``(status, json-able body)``) once per tenant and key.

    Returns ``(status, body, replayed)``. The same key with the same ``req_hash`` replays the
    stored answer without running ``work``; with another hash it raises :class:`Conflict`, as it
    does while the first request is still running. Only 2xx answers are stored.

    ``atomic`` (the default, for writes to the stores): the key, the work's writes and the answer
    are one transaction, so a crash at any point leaves either all of them or none, and a retry
    either replays the answer or performs the write exactly once. A racing request with the same
    key waits for the first one's transaction and then replays its answer.

    ``atomic=False`` is for work that must not hold a write transaction open while it runs (a
    chat turn waits on an LLM): the key is reserved in its own transaction first and the answer
    stored after. A crash in between leaves a reservation that expires after
    :data:`PENDING_LEASE`, after which a retry runs the work again: at least once, not exactly
    once, which is the price of not blocking every writer while a model thinks.
    """
    _check_key(key)
    if atomic:
        async with deps.uow.transaction():
            found = await _reserve(deps, tenant_id, key, req_hash)
            if found is not None:
                return found.status_code, found.body, True
            status, body = await work()
            if 200 <= status < 300:
                await deps.idempotency.replace(tenant_id, key, StoredResponse(req_hash, status, body, deps.clock.now()))
            else:
                await deps.idempotency.delete(tenant_id, key)
    else:
        found = await _reserve(deps, tenant_id, key, req_hash)
        if found is not None:
            return found.status_code, found.body, True
        try:
            status, body = await work()
            if 200 <= status < 300:
                await deps.idempotency.replace(tenant_id, key, StoredResponse(req_hash, status, body, deps.clock.now()))
            else:
                await deps.idempotency.delete(tenant_id, key)
        except BaseException:
            await deps.idempotency.delete(tenant_id, key)
            raise
    await _purge_now_and_then(deps, deps.clock.now())
    return status, body, False


async def _reserve(deps: Deps, tenant_id: str, key: str, req_hash: str) -> StoredResponse | None:
    """Take the key for this request (None), or return the stored answer to replay.

    Raises :class:`Conflict` for another request with the key, or while its first request runs.
    Inside a transaction the reservation is the transaction's first write, so on a database with
    row locks a racing request blocks here until the first commits (then replays) or rolls back
    (then runs).
    """
    store = deps.idempotency
    now = deps.clock.now()
    for _ in range(2):  # a second look only when another request reserved the key under us
        existing = await store.get(tenant_id, key)
        replace_before = now - KEEP
        if existing is not None and existing.created_at >= replace_before:
            if existing.request_hash != req_hash:
                raise Conflict("idempotency key reused with a different request")
            if not existing.pending:
                return existing
            if existing.created_at >= now - PENDING_LEASE:
                raise Conflict(IN_PROGRESS)
            # Take over the dead request's reservation, and only that one.
            replace_before = existing.created_at + timedelta(milliseconds=1)
        reservation = StoredResponse(req_hash, PENDING_STATUS, None, now)
        if await store.put(tenant_id, key, reservation, replace_before=replace_before):
            return None
    raise Conflict(IN_PROGRESS)


def _check_key(key: str) -> None:
    if not isinstance(key, str) or not 1 <= len(key) <= MAX_KEY_CHARS or not key.isprintable():
        raise InvalidInput(f"an idempotency key is 1 to {MAX_KEY_CHARS} printable characters")


async def _purge_now_and_then(deps: Deps, now: datetime) -> None:
    # Expired entries are already ignored; deleting them only keeps the table small, so once an
    # hour per process is plenty.
    marker = "idempotency:purged"
    if await deps.cache.get(marker) is None:
        await deps.cache.set(marker, True, PURGE_EVERY_SECONDS)
        await deps.idempotency.purge(now - KEEP)
