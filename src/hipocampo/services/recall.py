"""Recall: recent window + thread summary + relevant memories, rendered into a budgeted context.

Memories enter the context by relevance, not by leftover budget: a hit must clear the calibrated
relevance floor (``context_min_relevance``) and fall within the adaptive k (from the query's facets
and the score distribution); its neighbouring turns come along, and nothing else does. So an
unrelated question gets an (almost) empty memory section, and the token budget is a ceiling the
context rarely reaches, not a target it is filled to.
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
    turn_memory_id,
)
from ..domain.retrieval import subjects
from ..domain.retrieval.context import ContextPiece, render_context
from ..domain.retrieval.query import RecallQuery
from ..domain.retrieval.ranking import adaptive_k, relevance_floor
from ..domain.retrieval.recall import RecallResult, ScoredMemory
from ..domain.text import fold
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
SUBJECT_EXTRA = 3
"""Hits beyond k that speak of the subject a question asks about, kept per facet: ranking weighs
a question's words, and the memory that answers "when am I free?" may share none of them."""
OWN_EXTRA = 5
"""For a question about the user ("what's my job?", "onde eu moro?"), the user's own best-ranked
disclosures kept per facet beyond k, whatever their calibrated relevance: a small embedder's
cosines between a colloquial question and its answer sit where unrelated pairs do ("qual é meu
cargo?" and "entrei como analista de Y" at 0.09), and an empty context about the user's own job
is the worst answer recall can give."""
SMALL_STORE = 30
"""A user with at most this many memories (fewer than a search's candidates, so every one of them
was seen) has everything they said shown for a question about themselves, when it fits in
:data:`SMALL_CHARS`: every new user is one, and a few short lines cost little."""
SMALL_CHARS = 1600
"""About 400 tokens: what showing all of a small user's own lines may cost at most."""
K_LOW, K_HIGH, K_RATIO = 5, 20, 0.3
"""Recall's adaptive k (:func:`~hipocampo.domain.retrieval.ranking.adaptive_k`; per facet): looser than
search's 3-12 at half the best score, because the relevance floor already keeps unrelated memories
out and a question's evidence often ranks below its best hit (LoCoMo dev: context recall against
median tokens, budgets 500 to 2,000, is in docs/benchmarks.md)."""


K_WORDS, K_LOW_MAX = 1, 8
"""A question with more than :data:`K_WORDS` content words besides names gets one more hit in its k
floor per extra word, up to :data:`K_LOW_MAX`: a detailed question ("what did Caroline research
about adoption agencies?") has evidence ranked further down than its best hit, while a short one
("How is Ana doing?", "where do I work?") is answered by its first few hits and must stay lean."""


def k_low(query: str | RecallQuery) -> int:
    """The adaptive k's floor for ``query`` (:data:`K_LOW` to :data:`K_LOW_MAX`, by its words)."""
    q = RecallQuery.parse(query)
    words = [w for w in q.content_words if fold(w) not in q.folded_names]
    return min(K_LOW + max(len(words) - K_WORDS, 0), K_LOW_MAX)


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
    admit = None if anchored else (lambda m: relevance.get(m.id, 0.0) >= bar)
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


def chosen(
    hits: list[ScoredMemory], query: str | RecallQuery, floor: float, k: int | None = None, *, raise_floor: bool = True
) -> tuple[list[ScoredMemory], bool, float]:
    """The hits that earned a place, whether the query anchors them, and the relevance floor used.

    A hit needs calibrated relevance at or above ``floor`` (unless ``raise_floor`` is False,
    raised near the best hit's: :func:`~hipocampo.domain.retrieval.ranking.relevance_floor`), except the
    top-ranked hit when it shares a word or a name with the query (coverage counts every query
    word alike, so one rare word that matched weighs little); then the first ``k`` of those are kept
    (adaptive when ``k`` is None: from the query's facets, the score distribution and whether any
    hit shares a word, a name or an asked subject with the query,
    :func:`~hipocampo.domain.retrieval.ranking.adaptive_k`), and, with an adaptive k, up to
    :data:`SUBJECT_EXTRA` per facet of the next ones that speak of the subject the question asks
    about ("when am I free?" and a memory about availability). An explicit ``k`` is a cap, not a
    quota: a hit under the floor is never shown to make up the number.
    """
    q = RecallQuery.parse(query)
    if raise_floor:
        floor = relevance_floor([h.explanation.relevance for h in hits], floor)
    cleared = _unrestated([h for h in hits if h.explanation.relevance >= floor])
    top = hits[0].explanation if hits else None
    if top is not None and top.relevance < floor and (top.matched_terms or top.matched_names):
        # Ranked first on the query's own words: "peanut" in "Can I order the chicken satay with
        # peanut sauce?" is one word of five, so the allergy's calibrated relevance is low.
        cleared.insert(0, hits[0])
    asked = q.subjects

    def on_subject(h: ScoredMemory) -> bool:
        return bool(subjects.subject_relevance(asked, h.memory.content))

    anchored = any(h.explanation.matched_terms or h.explanation.matched_names or on_subject(h) for h in cleared)
    if k is not None:
        return _with_their_facts(cleared[:k], hits), anchored, floor
    facets = q.facets
    k = adaptive_k([h.score for h in cleared], k_low(q), K_HIGH, K_RATIO, facets=facets, anchored=anchored)
    extra = [h for h in cleared[k:] if on_subject(h)][: SUBJECT_EXTRA * facets] if asked and anchored else []
    picked = cleared[:k] + extra
    if q.about_user:  # the user's own disclosures, even where cosines say nothing
        seen = {h.memory.id for h in picked}
        unique = _unrestated(hits)
        own = [h for h in unique if h.memory.id not in seen and _own(h)]
        said = [h for h in unique if h.memory.id not in seen and _said(h)]
        if len(hits) <= SMALL_STORE and sum(len(h.memory.content) for h in said) <= SMALL_CHARS:
            own = said
        picked += own[: OWN_EXTRA * facets] if own is not said else own
        anchored = anchored or bool(own)
    return _with_their_facts(picked, hits), anchored, floor


MATCHED_FACTS = 3
"""Most current facts let in beside the chosen hits for sharing a word or a name with the query."""


def _with_their_facts(picked: list[ScoredMemory], hits: list[ScoredMemory]) -> list[ScoredMemory]:
    """``picked`` plus the current facts drawn from its turns, and up to :data:`MATCHED_FACTS`
    current facts that share a word or a name with the query. Such a fact takes no slot of the
    adaptive k but still goes in: the Known facts section is where the agent reads what is true now,
    with its history ("Updated since" lines), and a fact is one short line. "Can I order the satay
    with peanut sauce?" must show "Ana is allergic to peanuts" even when the turn that said it ranks
    first and the learned scores leave room for one hit."""
    chosen_ids = {h.memory.id for h in picked}
    facts = [h for h in hits if h.memory.kind is MemoryKind.FACT and h.current and h.memory.id not in chosen_ids]
    restating = [h for h in facts if any(turn_memory_id(s) in chosen_ids for s in h.memory.source_message_ids)]
    seen = chosen_ids | {h.memory.id for h in restating}
    matched = [
        h for h in facts if h.memory.id not in seen and (h.explanation.matched_terms or h.explanation.matched_names)
    ]
    return picked + restating + matched[:MATCHED_FACTS]


def _unrestated(hits: list[ScoredMemory]) -> list[ScoredMemory]:
    """``hits`` without the facts whose source turn ranks above them: such a fact restates that
    turn (ranking keeps it below it), and a slot or a line spent on it shows nothing new."""
    above: set[str] = set()
    out = []
    for h in hits:
        m = h.memory
        if (
            m.kind is MemoryKind.FACT
            and m.source_message_ids
            and all(turn_memory_id(s) in above for s in m.source_message_ids)
        ):
            continue
        if m.kind is MemoryKind.TURN and h.current:  # an outdated turn may source a current fact
            above.add(m.id)
        out.append(h)
    return out


def _said(hit: ScoredMemory) -> bool:
    """Anything the user said that is not filler (a request may hold a fact: "suggest a trip from
    Chicago"), or a memory derived from it; current only."""
    m = hit.memory
    if not hit.current or m.kind is MemoryKind.SUMMARY:
        return False
    if m.kind is not MemoryKind.TURN:
        return True
    return m.role is not None and m.role.value == "user" and hit.explanation.speech_act != "filler"


def _own(hit: ScoredMemory) -> bool:
    """What the user said about themselves: a disclosure turn of theirs, or a fact or consolidated
    memory (extraction keeps only what users say of themselves and their world); current only."""
    m = hit.memory
    if not hit.current:
        return False
    if m.kind in (MemoryKind.FACT, MemoryKind.CONSOLIDATED):
        return True
    return (
        m.kind is MemoryKind.TURN
        and m.role is not None
        and m.role.value == "user"
        and (hit.explanation.speech_act == "disclosure")
    )


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
