"""Memories under ids the caller chooses: what a key-value store built on hipocampo needs.

Unlike :func:`~hipocampo.services.curation.remember`, a put here overwrites the memory with the same
id, and indexes it before returning (a key-value store is searched right after a write, so the
background worker would be too late).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import numpy as np

from ..domain.model import HistoryEntry, HistoryEvent, MemoryItem, MemoryKind, Scope
from ..domain.values import check_metadata, check_text
from .deps import Deps
from .indexing import embed_in_batches, index_items
from .quota import enforce_memory_quota

ACTOR = "api"


async def put_keyed(
    deps: Deps,
    item: MemoryItem,
    *,
    index: bool = True,
    parts: Sequence[MemoryItem] = (),
    drop: Sequence[str] = (),
) -> MemoryItem:
    """Insert ``item`` or replace the memory with its id; returns it as stored.

    An existing memory keeps its ``created_at``; ``updated_at`` becomes now. With ``index`` the
    memory is embedded and written to both indexes in the same transaction; without, it is stored
    only (found by id and by listing, never by search) and any index entries it had are removed.

    ``parts`` are memories of the item's scope indexed in the same transaction, each under its own
    vector (an item searched by several texts, each scored on its own, as LangGraph indexes each
    field of a value); they take the item's ``created_at``. ``drop``: ids of memories deleted in
    that transaction (parts of the item's previous version that it no longer has).
    """
    for memory in (item, *parts):  # the rule of every stored text and metadata (domain.values)
        check_text("a stored value's text", memory.content)
        check_metadata("a stored value", memory.metadata)
    now = deps.clock.now()
    existing = await deps.memories.get_many(item.scope, [item.id])
    old = existing[0] if existing else None
    if old is not None:
        item.created_at = old.created_at
        item.access_count, item.last_accessed = old.access_count, old.last_accessed
    item.updated_at = now
    if any(p.scope != item.scope for p in parts):
        raise ValueError("an item's parts belong to its scope")
    for p in parts:
        p.created_at, p.updated_at = item.created_at, now
    indexed = ([item] if index else []) + list(parts)
    vectors = np.zeros((0, deps.embedder.dim), dtype=np.float32)
    if indexed:
        vectors = await asyncio.to_thread(embed_in_batches, deps, [m.index_text for m in indexed])
    event = HistoryEntry(
        item.id,
        HistoryEvent.ADD if old is None else HistoryEvent.UPDATE,
        now,
        None if old is None else old.content,
        item.content,
        ACTOR,
        None if old is None else "replaced",
    )
    async with deps.uow.transaction():
        if not index:
            await deps.memories.upsert([item])
            await deps.keywords.delete(item.scope, [item.id])
            await deps.vectors.delete(item.scope, [item.id])
        if indexed:
            await index_items(deps, indexed, vectors)
        if drop:
            await deps.memories.delete(item.scope, drop)
        await deps.memories.add_history(item.scope, [event])
        await enforce_memory_quota(deps, item.scope.tenant_id)
    return item


async def get_keyed(deps: Deps, scope: Scope, memory_ids: Sequence[str]) -> list[MemoryItem]:
    """The memories with these ids in the scope (missing ids are left out)."""
    return await deps.memories.get_many(scope, memory_ids)


async def delete_keyed(deps: Deps, scope: Scope, memory_ids: Sequence[str]) -> int:
    """Delete the memories and their index entries (they free the tenant's quota); returns how many."""
    if not memory_ids:
        return 0
    async with deps.uow.transaction():
        return await deps.memories.delete(scope, memory_ids)


async def renew(deps: Deps, items: Sequence[MemoryItem]) -> None:
    """Store changed metadata or expiry of memories whose text is unchanged: the indexes stay."""
    if items:
        async with deps.uow.transaction():
            await deps.memories.upsert(list(items))


async def facts(deps: Deps, scope: Scope, *, page: int = 500) -> AsyncIterator[MemoryItem]:
    """Every fact of the scope, newest first, a page at a time."""
    offset = 0
    while True:
        batch = await deps.memories.list(scope, kind=MemoryKind.FACT, limit=page, offset=offset)
        for item in batch:
            yield item
        if len(batch) < page:
            return
        offset += page
