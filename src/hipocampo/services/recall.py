"""Recall: recent window + thread summary + relevant memories, rendered into a budgeted context.

Memories enter the context by relevance, not by leftover budget: a hit must clear the calibrated
relevance floor (``context_min_relevance``) and fall within the adaptive k (the rules are
:mod:`hipocampo.domain.retrieval.choice`); its neighbouring turns come along, and nothing else
does. So an unrelated question gets an (almost) empty memory section, and the token budget is a
ceiling the context rarely reaches, not a target it is filled to.

The query is parsed once, here (:class:`~hipocampo.domain.retrieval.query.RecallQuery`): the
enrichment, both ranking passes and the choice read the same answers from it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Callable

from ..domain.errors import InvalidInput
from ..domain.model import (
    MemoryItem,
    MemoryKind,
    Message,
    Scope,
    message_from_dict,
    message_to_dict,
)

# The choice's rules, also read from here as recall has always named them (``as``: re-exported).
from ..domain.retrieval.choice import K_LOW as K_LOW
from ..domain.retrieval.choice import K_LOW_MAX as K_LOW_MAX
from ..domain.retrieval.choice import SUBJECT_EXTRA as SUBJECT_EXTRA
from ..domain.retrieval.choice import chosen
from ..domain.retrieval.choice import k_low as k_low
from ..domain.retrieval.context import ContextPiece, render_context
from ..domain.retrieval.query import RecallQuery
from ..domain.retrieval.recall import RecallResult, ScoredMemory
from .deps import Deps
from .enrichment import enrich
from .ingest import recent_cache_key
from .retrieval import SearchOptions, rank_candidates
from .summaries import summary_memory_id

log = logging.getLogger(__name__)

NEIGHBOUR_RADIUS = 1
"""Turns shown around each hit in the context: an answer usually needs the turn it replies to."""
NEIGHBOUR_HITS = 8
"""Only the best hits bring their neighbours: further down, a line spent on another hit finds
more than two spent around it (measured on LoCoMo dev: at the same tokens, hits beat neighbours)."""
UNANCHORED_NEIGHBOUR_RELEVANCE = 0.6
"""What a neighbour needs on its own when its hit shares nothing with the question: that hit is
already doubtful, and closeness near 0.5 is chance; 0.6 is what agents filter on."""


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
    include_recent: bool = True,
) -> RecallResult:
    """The budgeted context for ``query``: the thread's summary and recent window, and the
    memories chosen by relevance. ``include_recent=False`` leaves the window out of the context
    (and of the result) for a caller that already sends those turns to its model; they are still
    not repeated among the memories."""
    opts = options or SearchOptions()
    opts.thread_id = thread_id
    budget = token_budget or deps.settings.context_token_budget
    if budget < 50:
        raise InvalidInput("token_budget must be at least 50")
    q = RecallQuery.parse(query)  # read once: enrichment, both ranking passes and the choice share it
    t0 = time.perf_counter()

    async def nothing() -> None:
        return None

    recent = await recent_messages(deps, scope, thread_id) if thread_id else []  # usually cached
    enrichment = await enrich(deps, q, recent)
    opts.keyword_extra, opts.dense_text = enrichment.keyword_extra, enrichment.dense_text
    summary_task = deps.summaries.get(scope, thread_id) if thread_id else nothing()
    ranked, summary = await asyncio.gather(rank_candidates(deps, scope, q, opts), summary_task)
    if summary is not None and thread_id is not None:  # already its own section: not twice
        own = summary_memory_id(scope, thread_id)
        ranked.hits = [h for h in ranked.hits if h.memory.id != own]
    if opts.min_relevance is None:
        hits, anchored, floor = chosen(ranked.hits, q, deps.settings.context_min_relevance, opts.k)
    else:  # the caller's own floor, as given
        hits, anchored, floor = chosen(ranked.hits, q, opts.min_relevance, opts.k, raise_floor=False)
    # Turns already in the recent window need not be repeated among the memories.
    in_window = {m.id for m in recent}
    t1 = time.perf_counter()
    # Without an anchor in the query's words, a neighbour must stand on its own relevance too.
    relevance = {h.memory.id: h.explanation.relevance for h in ranked.hits}
    bar = max(floor, UNANCHORED_NEIGHBOUR_RELEVANCE)
    admit: Callable[[MemoryItem], bool] | None = None
    if not anchored:  # a world question's one doubtful line comes alone (domain/retrieval/choice.py)
        admit = (lambda m: relevance.get(m.id, 0.0) >= bar) if q.about_user else (lambda m: False)
    pieces = await _pieces(deps, scope, hits, ranked.hits, in_window, admit)
    if not include_recent:
        recent = []
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
        query=q.text,
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
        pieces=pieces,
    )


def rerender(deps: Deps, result: RecallResult, token_budget: int) -> tuple[str, int]:
    """``result``'s context rendered again within another budget: the same memories, summary and
    window, without searching again (the benchmark compares budgets this way)."""
    text, _, tokens = render_context(
        summary=result.summary,
        recent=result.recent,
        pieces=result.pieces,
        budget=token_budget,
        count=deps.tokenizer.count,
        truncate=deps.tokenizer.truncate,
        validity=result.validity,
    )
    return text, tokens


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


async def _pieces(
    deps: Deps,
    scope: Scope,
    hits: list[ScoredMemory],
    ranked: list[ScoredMemory],
    skip_messages: set[str],
    admit: Callable[[MemoryItem], bool] | None = None,
) -> list[ContextPiece]:
    """The chosen ``hits`` in rank order, then the neighbouring turns of the first
    :data:`NEIGHBOUR_HITS` (the question a turn answers, the reply it got). Neighbours come only
    with a hit, so they never bring in a conversation of their own; ``ranked`` (every candidate)
    saves reading the ones it holds.

    The pieces are what the context may show; :func:`render_context` keeps them within the
    budget (hits before neighbours, the best first), so at a small budget the context shows part of
    :attr:`RecallResult.memories` and their neighbours, never something outside them.
    """
    # Neighbours are often candidates already; only the others are read from the store.
    by_pos: dict[tuple[str, int], MemoryItem] = {
        (h.memory.thread_id or "", h.memory.seq): h.memory
        for h in ranked
        if h.memory.kind is MemoryKind.TURN and h.memory.seq is not None
    }
    wanted: dict[str, set[int]] = defaultdict(set)
    for hit in hits[:NEIGHBOUR_HITS]:
        m = hit.memory
        if m.kind is MemoryKind.TURN and m.thread_id is not None and m.seq is not None:
            for d in range(-NEIGHBOUR_RADIUS, NEIGHBOUR_RADIUS + 1):
                if d and m.seq + d >= 0 and (m.thread_id, m.seq + d) not in by_pos:
                    wanted[m.thread_id].add(m.seq + d)
    fetched = await deps.memories.neighbours_of(scope, {t: sorted(s) for t, s in wanted.items()})
    by_pos.update(((n.thread_id or "", n.seq or 0), n) for n in fetched)
    pieces: list[ContextPiece] = []
    around: list[ContextPiece] = []  # after every hit: at a small budget a hit beats a neighbour
    for rank, hit in enumerate(hits):
        m = hit.memory
        if not set(m.source_message_ids) & skip_messages:
            pieces.append(ContextPiece(m, rank))
        if rank >= NEIGHBOUR_HITS or m.kind is not MemoryKind.TURN or m.seq is None:
            continue
        for d in range(-NEIGHBOUR_RADIUS, NEIGHBOUR_RADIUS + 1):
            near = by_pos.get((m.thread_id or "", m.seq + d)) if d else None
            if near is not None and not set(near.source_message_ids) & skip_messages and (admit is None or admit(near)):
                around.append(ContextPiece(near, rank))
    return pieces + around
