"""The background worker: claim indexing jobs, embed in batches, write indexes, complete jobs.

The memory rows, their keyword and vector entries and the jobs' completion commit in one
transaction, and memory ids are derived from message ids, so a worker killed at any point leaves
either nothing or everything; the job's lease then expires, another worker retries it, and each
acknowledged message ends up indexed exactly once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from datetime import timedelta

import numpy as np

from ..domain.model import Job, MemoryItem, MemoryKind, Message, Scope, embedding_text, turn_memory_id
from .deps import Deps
from .ingest import INDEX_JOB, INDEX_MEMORIES_JOB

log = logging.getLogger(__name__)


def turn_memory(message: Message) -> MemoryItem:
    return MemoryItem(
        id=turn_memory_id(message.id),
        scope=message.scope,
        kind=MemoryKind.TURN,
        content=message.content,
        created_at=message.created_at,
        thread_id=message.thread_id,
        source_message_ids=[message.id],
        metadata=dict(message.metadata),
        name=message.name,
        role=message.role,
        seq=message.seq,
    )


def embed_in_batches(deps: Deps, texts: list[str]) -> np.ndarray:
    size = deps.settings.embed_batch_size
    parts = [deps.embedder.embed_documents(texts[i : i + size]) for i in range(0, len(texts), size)]
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
    for (tenant, user), idx in by_scope.items():
        scope = Scope(tenant, user)
        await deps.keywords.upsert(scope, [(items[i].id, items[i].index_text) for i in idx])
        await deps.vectors.upsert(scope, [(items[i].id, vectors[i]) for i in idx], deps.embedder.name)


async def process_jobs(deps: Deps, jobs: list[Job]) -> None:
    """Index what ``jobs`` name (new messages, or saved/edited memories) and complete them, atomically."""
    items: list[MemoryItem] = []
    for job in jobs:
        scope = Scope(job.tenant_id, job.user_id)
        if job.kind == INDEX_JOB:
            items += [turn_memory(m) for m in await deps.log.get_many(scope, job.payload.get("message_ids") or [])]
        else:
            items += await deps.memories.get_many(scope, job.payload.get("memory_ids") or [])
    vectors = await asyncio.to_thread(embed_in_batches, deps, await embedding_texts(deps, items))
    async with deps.uow.transaction():
        # What was forgotten while we were embedding stays forgotten.
        alive = await _still_there(deps, items)
        keep = [i for i, item in enumerate(items) if item.id in alive]
        if keep:
            await index_items(deps, [items[i] for i in keep], vectors[keep])
        await deps.jobs.complete([j.id for j in jobs if j.id is not None])


async def _still_there(deps: Deps, items: list[MemoryItem]) -> set[str]:
    alive: set[str] = set()
    by_scope: dict[tuple[str, str], list[MemoryItem]] = defaultdict(list)
    for item in items:
        by_scope[(item.scope.tenant_id, item.scope.user_id)].append(item)
    for (tenant, user), group in by_scope.items():
        scope = Scope(tenant, user)
        turns = {i.source_message_ids[0]: i.id for i in group if i.kind is MemoryKind.TURN}
        alive |= {turns[m.id] for m in await deps.log.get_many(scope, list(turns))}
        others = [i.id for i in group if i.kind is not MemoryKind.TURN]
        alive |= {m.id for m in await deps.memories.get_many(scope, others)}
    return alive


async def run_once(deps: Deps) -> int:
    """One worker round; returns how many jobs it finished (done or failed)."""
    s = deps.settings
    jobs = await deps.jobs.claim(s.worker_batch_size, s.job_lease_seconds, kinds=[INDEX_JOB, INDEX_MEMORIES_JOB])
    if not jobs:
        return 0
    try:
        await process_jobs(deps, jobs)
    except Exception as exc:  # isolate the poison job: retry each alone before failing it
        if len(jobs) == 1:
            await _fail(deps, jobs[0], exc)
        else:
            for job in jobs:
                try:
                    await process_jobs(deps, [job])
                except Exception as single_exc:
                    await _fail(deps, job, single_exc)
    return len(jobs)


async def _fail(deps: Deps, job: Job, exc: Exception) -> None:
    s = deps.settings
    error = f"{type(exc).__name__}: {exc}"
    if job.attempts >= s.job_max_attempts:
        log.error("job %s is dead after %d attempts: %s", job.id, job.attempts, error)
        await deps.jobs.fail(job.id, error, retry_at=None)  # type: ignore[arg-type]
    else:
        delay = s.job_backoff_seconds * 2 ** max(job.attempts - 1, 0)
        log.warning("job %s failed (attempt %d), retrying in %.1fs: %s", job.id, job.attempts, delay, error)
        await deps.jobs.fail(job.id, error, retry_at=deps.clock.now() + timedelta(seconds=delay))  # type: ignore[arg-type]


class Worker:
    """Drains the job queue until stopped. Run one in-process, or many as separate processes."""

    def __init__(self, deps: Deps) -> None:
        self._deps = deps
        self._wake = asyncio.Event()
        self._stopping = False

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            try:
                done = await run_once(self._deps)
            except Exception:  # the queue itself failed (e.g. database locked too long): keep going
                log.exception("worker round failed")
                done = 0
            if done == 0 and not self._stopping:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self._deps.settings.worker_poll_seconds)
                except asyncio.TimeoutError:
                    pass


async def wait_idle(deps: Deps, timeout: float | None = None, worker: Worker | None = None) -> dict[str, int]:
    """Wait until no job is pending or running (dead letters do not count). Returns queue stats."""
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    while True:
        stats = await deps.jobs.stats()
        if stats.get("pending", 0) + stats.get("running", 0) == 0:
            return stats
        if deadline is not None and loop.time() > deadline:
            raise TimeoutError(f"jobs still waiting after {timeout}s: {stats}")
        if worker is not None:
            worker.wake()
        await asyncio.sleep(0.02)
