"""Operations on whole users and indexes: export, forget, reindex, doctor."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..backends import local_size
from ..domain.model import MemoryItem, MemoryKind, Scope
from ..domain.urls import redact
from . import export
from .deps import Deps
from .indexing import embed_in_batches, embedding_texts, index_items, turn_memory
from .ingest import recent_cache_key

Progress = Callable[[int, int], None]  # (done, total)


async def export_user(deps: Deps, scope: Scope) -> dict[str, Any]:
    """A user's whole memory as one JSON-ready document (see :func:`export.export_document`);
    the HTTP service and the CLI stream :func:`export.export_records` instead."""
    return await export.export_document(deps, scope)


async def forget(deps: Deps, scope: Scope, thread_id: str | None = None) -> dict[str, int]:
    """Delete a thread, or a whole user, with every derived row and vector."""
    # Messages before memories: a worker indexing them holds them (Postgres: FOR SHARE) until it
    # has written their turn memories, which the memory delete, coming after, then sees.
    async with deps.uow.transaction():
        if thread_id is not None:
            messages = await deps.log.delete_thread(scope, thread_id)
            memories = await deps.memories.delete_thread(scope, thread_id)
            await deps.summaries.delete_thread(scope, thread_id)
            threads = [thread_id]
        else:
            threads = await deps.log.threads(scope)
            messages = await deps.log.delete_user(scope)
            memories = await deps.memories.delete_user(scope)
            await deps.summaries.delete_user(scope)
    for t in threads:
        await deps.cache.delete(recent_cache_key(scope, t))
    return {"messages": messages, "memories": memories, "threads": len(threads)}


async def reindex(deps: Deps, progress: Progress | None = None, batch: int = 256) -> dict[str, int]:
    """Rebuild the keyword and vector indexes from the log (turns) and the memory table (the rest)."""
    total = max(await deps.log.count(), await deps.memories.count())  # for progress only
    await deps.vectors.reset()
    await deps.keywords.reset()
    done = 0
    cursor = 0
    while rows := await deps.log.iter_all(after_rowid=cursor, limit=batch):
        cursor = rows[-1][0]
        items = [turn_memory(m) for _, m in rows]
        done += await _index(deps, items)
        if progress:
            progress(done, total)
    for scope in await _all_scopes(deps):
        offset = 0
        while page := await deps.memories.list(scope, limit=batch, offset=offset):
            offset += len(page)
            items = [m for m in page if m.kind is not MemoryKind.TURN]
            done += await _index(deps, items)
            if progress:
                progress(done, total)
    return {"indexed": done, "embedder": deps.embedder.name, "dim": deps.embedder.dim}  # type: ignore[dict-item]


async def _index(deps: Deps, items: list[MemoryItem]) -> int:
    if not items:
        return 0
    vectors = await asyncio.to_thread(embed_in_batches, deps, await embedding_texts(deps, items))
    async with deps.uow.transaction():
        await index_items(deps, items, vectors)
    return len(items)


async def _all_scopes(deps: Deps) -> list[Scope]:
    # Users who only have saved facts have no thread: ask the memory store, not the log.
    return [Scope(t, u) for t, u in await deps.memories.scopes()]


async def doctor(deps: Deps) -> dict[str, Any]:
    """Health of the store: coverage, backlog, dead letters, embedder/index agreement."""
    messages = await deps.log.count()
    memories = await deps.memories.count()
    info = await deps.vectors.info()
    jobs = await deps.jobs.stats()
    dead = await deps.jobs.dead(limit=5)
    problems: list[str] = []
    models = info.get("models", {})
    if models and (deps.embedder.name not in models or models[deps.embedder.name] != deps.embedder.dim):
        problems.append(
            f"the index holds vectors from {models} but the configured embedder is "
            f"{deps.embedder.name} ({deps.embedder.dim} dims): run `hipocampo reindex`"
        )
    if info["vectors"] < memories and jobs.get("pending", 0) + jobs.get("running", 0) == 0:
        problems.append(
            f"{memories - info['vectors']} memories have no vector and no job is queued: run `hipocampo reindex`"
        )
    if jobs.get("dead", 0):
        problems.append(
            f"{jobs['dead']} jobs are dead letters: see below; `hipocampo doctor --retry-dead` requeues them"
        )
    return {
        "database": redact(deps.settings.db),
        "database_bytes": local_size(deps.settings.db),
        # HIPOCAMPO_VECTORS: memories indexed before a switch count as missing here until a reindex.
        "vector_index": redact(deps.settings.vectors) if deps.settings.vectors else "database",
        "messages": messages,
        "memories": memories,
        "vectors": info["vectors"],
        "vector_coverage": round(info["vectors"] / memories, 4) if memories else 1.0,
        "index_models": models,
        "embedder": {"name": deps.embedder.name, "dim": deps.embedder.dim},
        "jobs": jobs,
        "dead_letters": [{"id": j.id, "kind": j.kind, "attempts": j.attempts, "error": j.last_error} for j in dead],
        "problems": problems,
        "ok": not problems,
    }
