"""Recall: recent window + thread summary + relevant memories, rendered into a budgeted context."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict

from ..domain.context import ContextPiece, render_context
from ..domain.errors import InvalidInput
from ..domain.model import MemoryItem, MemoryKind, Message, Scope, message_from_dict, message_to_dict
from ..domain.ranking import adaptive_k
from ..domain.recall import RecallResult, ScoredMemory
from .deps import Deps
from .enrichment import enrich
from .ingest import recent_cache_key
from .retrieval import SearchOptions, rank_candidates
from .summaries import summary_memory_id

log = logging.getLogger(__name__)

NEIGHBOUR_RADIUS = 1
"""Turns shown around each hit in the context: an answer usually needs the turn it replies to."""


async def recent_messages(deps: Deps, scope: Scope, thread_id: str) -> list[Message]:
    """The last N messages of a thread, read through the cache.

    A cached window carries the thread's version (:meth:`MessageLog.thread_version`) as it was
    read *before* the messages, and is served only while the log still has that version: one
    indexed read, run alongside the cache read. So a write by any other process (a second server,
    the CLI, a process without Redis configured) shows at once, and a window whose invalidation
    failed (Redis down during a write) is never served once Redis is back. Windows of agent-only
    scopes (a filtered view of the thread) are read from the log, not cached.
    """
    n = deps.settings.recent_messages
    if n == 0:
        return []
    if scope.agent_only and scope.agent_id is not None:
        return await deps.log.recent(scope, thread_id, n)
    key, ttl = recent_cache_key(scope, thread_id), deps.settings.cache_ttl_seconds
    version, cached = await asyncio.gather(
        deps.log.thread_version(scope, thread_id), deps.cache.get(key, ttl_seconds=ttl)
    )
    if isinstance(cached, dict) and cached.get("version") == version and cached.get("limit") == n:
        return [message_from_dict(m) for m in cached["messages"]]
    messages = await deps.log.recent(scope, thread_id, n)  # after the version: never older than it
    window = {"version": version, "limit": n, "messages": [message_to_dict(m) for m in messages]}
    await deps.cache.set(key, window, ttl)
    return messages


async def recall(
    deps: Deps,
    scope: Scope,
    query: str,
    *,
    thread_id: str | None = None,
    options: SearchOptions | None = None,
    token_budget: int | None = None,
) -> RecallResult:
    opts = options or SearchOptions()
    opts.thread_id = thread_id
    budget = token_budget or deps.settings.context_token_budget
    if budget < 50:
        raise InvalidInput("token_budget must be at least 50")
    t0 = time.perf_counter()

    async def nothing() -> None:
        return None

    recent = await recent_messages(deps, scope, thread_id) if thread_id else []  # usually cached
    enrichment = await enrich(deps, query, recent)
    opts.keyword_extra, opts.dense_text = enrichment.keyword_extra, enrichment.dense_text
    summary_task = deps.summaries.get(scope, thread_id) if thread_id else nothing()
    ranked, summary = await asyncio.gather(rank_candidates(deps, scope, query, opts), summary_task)
    if summary is not None and thread_id is not None:  # already its own section: not twice
        own = summary_memory_id(scope, thread_id)
        ranked.hits = [h for h in ranked.hits if h.memory.id != own]
    k = opts.k if opts.k is not None else _adaptive(ranked.hits)
    hits = ranked.hits[:k]
    # Turns already in the recent window need not be repeated among the memories.
    in_window = {m.id for m in recent}
    t1 = time.perf_counter()
    pieces = await _pieces(deps, scope, ranked.hits, k, in_window)
    t2 = time.perf_counter()
    text, _, tokens = render_context(
        summary=summary,
        recent=recent,
        pieces=pieces,
        budget=budget,
        count=deps.tokenizer.count,
        truncate=deps.tokenizer.truncate,
        validity=ranked.validity,
    )
    _record_access(deps, scope, [h.memory.id for h in hits])
    timings = dict(ranked.timings_ms)
    timings["neighbours_ms"] = (t2 - t1) * 1000
    timings["render_ms"] = (time.perf_counter() - t2) * 1000
    timings["recall_ms"] = (time.perf_counter() - t0) * 1000
    return RecallResult(
        query=query,
        thread_id=thread_id,
        recent=recent,
        summary=summary,
        memories=hits,
        context=text,
        context_tokens=tokens,
        token_budget=budget,
        degraded=ranked.degraded,
        timings_ms=timings,
        enrichment=enrichment.notes,
        validity=ranked.validity,
    )


_background: set[asyncio.Task[None]] = set()  # strong references, so pending tasks are not collected


def _record_access(deps: Deps, scope: Scope, memory_ids: list[str]) -> None:
    """Count the recall in the background: a write must not sit on the read path."""
    if not memory_ids:
        return

    async def touch() -> None:
        try:
            await deps.memories.touch(scope, memory_ids, deps.clock.now())
        except Exception:  # losing an access count is acceptable; failing a recall is not
            log.warning("could not record access to %d memories", len(memory_ids), exc_info=True)

    task = asyncio.get_running_loop().create_task(touch())
    _background.add(task)
    task.add_done_callback(_background.discard)


async def settle() -> None:
    """Wait for this loop's background access writes (before closing the store)."""
    loop = asyncio.get_running_loop()
    pending = [t for t in _background if t.get_loop() is loop]
    if pending:
        await asyncio.gather(*pending, return_exceptions=True)


def _adaptive(hits: list[ScoredMemory]) -> int:
    return adaptive_k([h.score for h in hits])


async def _pieces(
    deps: Deps, scope: Scope, ranked: list[ScoredMemory], k: int, skip_messages: set[str]
) -> list[ContextPiece]:
    """Hits in rank order; the top ``k`` bring their neighbouring turns along."""
    # Neighbours are often candidates already; only the others are read from the store.
    by_pos: dict[tuple[str, int], MemoryItem] = {
        (h.memory.thread_id or "", h.memory.seq): h.memory
        for h in ranked
        if h.memory.kind is MemoryKind.TURN and h.memory.seq is not None
    }
    wanted: dict[str, set[int]] = defaultdict(set)
    for hit in ranked[:k]:
        m = hit.memory
        if m.kind is MemoryKind.TURN and m.thread_id is not None and m.seq is not None:
            for d in range(-NEIGHBOUR_RADIUS, NEIGHBOUR_RADIUS + 1):
                if d and m.seq + d >= 0 and (m.thread_id, m.seq + d) not in by_pos:
                    wanted[m.thread_id].add(m.seq + d)
    fetched = await asyncio.gather(*(deps.memories.neighbours(scope, t, sorted(s)) for t, s in wanted.items()))
    by_pos.update(((n.thread_id or "", n.seq or 0), n) for group in fetched for n in group)
    pieces: list[ContextPiece] = []
    for rank, hit in enumerate(ranked):
        m = hit.memory
        group = [m]
        if rank < k and m.kind is MemoryKind.TURN and m.seq is not None:
            group = [
                by_pos.get((m.thread_id or "", m.seq + d), m if d == 0 else None)
                for d in range(-NEIGHBOUR_RADIUS, NEIGHBOUR_RADIUS + 1)
            ]
        for item in group:
            if item is not None and not (set(item.source_message_ids) & skip_messages):
                pieces.append(ContextPiece(item, rank, date_notes=rank < k))
    return pieces

