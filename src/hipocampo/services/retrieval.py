"""Two-stage hybrid search: dense + keyword candidates, fused, then reranked with explained boosts.

The dense side ranks twice (setting ``second_hop``): first on the query, then on the query moved
towards the stored vectors of its best hits, which lifts what shares a question's subject but
not its words. Every candidate is weighed on both signals: a keyword candidate the dense pool
missed gets its cosine from its stored vector. Neither step embeds anything.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from ..domain.errors import DimensionMismatch, IndexUnavailable, InvalidInput
from ..domain.limits import MAX_QUERY_CHARS as MAX_QUERY_CHARS  # the limit RecallQuery.parse enforces
from ..domain.model import MemoryItem, MemoryKind, Scope
from ..domain.retrieval import hops, lexicon, match, ranking
from ..domain.retrieval import relevance as calibrated
from ..domain.retrieval.query import RecallQuery
from ..domain.retrieval.recall import RecencyMode, ScoredMemory, SearchResult
from ..domain.retrieval.relevance_data import BACKGROUND, as_indexed
from ..domain.truth.validity import CLOSED_FACTS_LIMIT, Validity
from ..ports import Embedder, KeywordHit, VectorHit
from .deps import Deps
from .rerank import Signals, rerank

DENSE_WEIGHT = 0.4
"""Share of the dense score in the fusion; keyword search gets the rest: exact names and rare
words are strong evidence in conversations (measured: 0.4 > 0.5 > 0.6 on LoCoMo dev)."""


@dataclass
class SearchOptions:
    k: int | None = None  # None: adaptive, 3 to 12
    thread_id: str | None = None  # the current thread
    exclude_thread: bool = False  # search other threads only
    recency: RecencyMode | None = None
    min_relevance: float | None = None
    kinds: tuple[MemoryKind, ...] | None = None
    since: datetime | None = None
    until: datetime | None = None
    pool: int | None = None  # stage-1 candidates per index
    keyword_extra: str | None = None  # enrichment: more words for the keyword search
    dense_text: str | None = None  # enrichment: a passage to embed instead of the query (HyDE)
    second_hop: bool | None = None  # None: the setting (``second_hop``); see :class:`_Hop`


async def search(
    deps: Deps, scope: Scope, query: str | RecallQuery, options: SearchOptions | None = None
) -> SearchResult:
    """The best ``k`` memories for ``query`` (adaptive when ``k`` is None), explained. A text is
    checked and parsed here (:meth:`RecallQuery.parse`); recall hands its parsed query down."""
    opts = options or SearchOptions()
    q = RecallQuery.parse(query)
    if opts.k is not None and not 1 <= opts.k <= 200:
        raise InvalidInput("k must be between 1 and 200")
    s = deps.settings
    pool = opts.pool or s.candidate_pool
    exclude = opts.thread_id if opts.exclude_thread else None
    timings: dict[str, float] = {}
    degraded: list[str] = []

    t0 = time.perf_counter()
    dense_task = asyncio.create_task(_dense(deps, scope, q.text, pool, exclude, timings, opts.dense_text))
    closed_task = asyncio.create_task(_closed_facts(deps, scope))
    # Slang and the other languages' words for the query's everyday words (domain/retrieval/lexicon.py).
    extra = " ".join(filter(None, [opts.keyword_extra, " ".join(map(lexicon.tagged, q.expansions))]))
    keyword_query = f"{q.text} {extra}" if extra else q.text
    try:
        keyword_hits = await deps.keywords.search(scope, keyword_query, pool, exclude_thread=exclude)
    except Exception as exc:  # a damaged keyword index must not break recall: dense still works
        keyword_hits = []
        degraded.append(f"keyword index unavailable ({type(exc).__name__}: {exc}); run `hipocampo reindex`")
    timings["keyword_ms"] = (time.perf_counter() - t0) * 1000
    # Fetch the keyword candidates while the query is still being embedded (none when the index
    # read their rows with them).
    keyword_items = asyncio.create_task(_rows(deps, scope, keyword_hits))
    # And their stored vectors: those the dense pool misses are then scored without a read after it.
    keyword_vectors = asyncio.create_task(_stored(deps, scope, [h.memory_id for h in keyword_hits]))
    dense_hits, problem, background, qvec = await dense_task
    if problem:
        degraded.append(problem)
    if qvec is not None:
        dense_hits = _complete_dense(qvec, dense_hits, keyword_hits, await keyword_vectors)
    else:
        keyword_vectors.cancel()

    fused = ranking.score_fusion(
        {h.memory_id: h.score for h in dense_hits}, {h.memory_id: h.score for h in keyword_hits}, DENSE_WEIGHT
    )
    t1 = time.perf_counter()
    items = {m.id: m for m in await keyword_items}
    by_id = {h.memory_id: h for h in dense_hits}
    items.update(
        (m.id, m)
        for m in await _rows(deps, scope, [by_id.get(i) or VectorHit(i, 0.0) for i in fused if i not in items])
    )
    now = deps.clock.now()
    items = {i: m for i, m in items.items() if _wanted(m, opts, now)}
    closed, problem = await closed_task
    if problem:
        degraded.append(problem)
    validity = Validity.of(closed, now)
    timings["fetch_ms"] = (time.perf_counter() - t1) * 1000

    t2 = time.perf_counter()
    matches = await _match(deps, scope, qvec, items, dense_hits)
    memo: dict[str, Signals] = {}
    hits = rerank(
        deps, q, items, fused, dense_hits, keyword_hits, opts.recency, background, validity, matches=matches, memo=memo
    )
    timings["rerank_ms"] = (time.perf_counter() - t2) * 1000
    if qvec is not None and hits and (s.second_hop if opts.second_hop is None else opts.second_hop):
        t3 = time.perf_counter()
        hop = _Hop(deps, scope, q, opts, pool, background, validity, matches, memo)
        try:
            hits = await hop.run(qvec, hits, items, dense_hits, keyword_hits)
        except (IndexUnavailable, DimensionMismatch) as exc:  # a refinement: the first pass stands
            degraded.append(f"second hop skipped ({exc})")
        timings["hop_ms"] = (time.perf_counter() - t3) * 1000
    min_rel = s.min_relevance if opts.min_relevance is None else opts.min_relevance
    hits = [h for h in hits if h.explanation.relevance >= min_rel]
    k = opts.k if opts.k is not None else ranking.adaptive_k([h.score for h in hits], facets=q.facets)
    timings["total_ms"] = (time.perf_counter() - t0) * 1000
    return SearchResult(query=q.text, hits=hits[:k], degraded=degraded, timings_ms=timings, validity=validity)


def _complete_dense(
    qvec: np.ndarray,
    dense_hits: list[VectorHit],
    keyword_hits: list[KeywordHit],
    stored: dict[str, np.ndarray] | None,
) -> list[VectorHit]:
    """The query's closeness to the keyword candidates the dense pool missed, from their stored
    vectors (``stored``: read while the query was embedded; None if that read failed): fusion then
    weighs every candidate on both signals (absent, a memory counts as the farthest), and
    calibrated relevance sees its dense evidence too. No embedding."""
    known = {h.memory_id for h in dense_hits}
    missing = {h.memory_id for h in keyword_hits if h.memory_id not in known}
    if not missing or stored is None:  # without them the search stands: they are a refinement
        return dense_hits
    extra = [
        VectorHit(i, float(v @ qvec), vector=v) for i, v in stored.items() if i in missing and v.shape == qvec.shape
    ]
    return sorted([*dense_hits, *extra], key=lambda h: h.score, reverse=True)


async def _stored(deps: Deps, scope: Scope, memory_ids: list[str]) -> dict[str, np.ndarray] | None:
    """The stored vectors of ``memory_ids``, or None if the index cannot read them now."""
    try:
        return await deps.vectors.get(scope, memory_ids) if memory_ids else {}
    except Exception:  # dense scores of a few candidates are a refinement; the search stands without them
        return None


async def _rows(deps: Deps, scope: Scope, hits: Sequence[VectorHit | KeywordHit]) -> list[MemoryItem]:
    """The rows of ``hits``' memories in ``scope``, in the hits' order, as
    :meth:`~hipocampo.ports.MemoryStore.get_many` reads them: those an index handed back with its
    hits (Postgres reads them in the search's statement), the others read now (one round trip,
    none when every row came along)."""
    carried = {h.memory_id: h.memory for h in hits if h.memory is not None}
    wanted = [h.memory_id for h in hits if h.memory is None]
    read = {m.id: m for m in await deps.memories.get_many(scope, wanted)} if wanted else {}
    return [m for h in hits if (m := carried.get(h.memory_id) or read.get(h.memory_id)) is not None]


async def _vectors(
    deps: Deps, scope: Scope, memory_ids: Sequence[str], hits: Sequence[VectorHit]
) -> dict[str, np.ndarray]:
    """The stored vectors of ``memory_ids``: those ``hits`` carry, the others read now (none
    when every one came along)."""
    carried = {h.memory_id: h.vector for h in hits if h.vector is not None}
    out = {i: carried[i] for i in memory_ids if i in carried}
    rest = [i for i in memory_ids if i not in out]
    if rest:
        out.update(await deps.vectors.get(scope, rest))
    return out


async def _match(
    deps: Deps, scope: Scope, qvec: np.ndarray | None, items: dict[str, MemoryItem], hits: Sequence[VectorHit]
) -> dict[str, float]:
    """``learned_match`` of every candidate (:mod:`~hipocampo.domain.retrieval.match`), from the
    vectors the hits carry (the others read now); none when the shipped model was fitted on
    another embedder, or the vectors cannot be read (the ranking stands without it)."""
    model = match.default_match()
    if qvec is None or model is None or not model.applies_to(deps.embedder.name, len(qvec)):
        return {}
    try:
        vectors = await _vectors(deps, scope, list(items), hits)
    except Exception:  # a refinement: the other signals still rank
        return {}
    return match.values(model, qvec, vectors)


async def _closed_facts(deps: Deps, scope: Scope) -> tuple[list[MemoryItem], str | None]:
    """The user's closed facts (what marks outdated memories), read alongside the indexes."""
    try:
        return await deps.memories.closed_facts(scope, CLOSED_FACTS_LIMIT), None
    except Exception as exc:  # stale memories then go unmarked: worse, but not a failed recall
        return [], f"fact history unavailable ({type(exc).__name__}: {exc}); outdated memories are not marked"


async def rank_candidates(deps: Deps, scope: Scope, query: str | RecallQuery, options: SearchOptions) -> SearchResult:
    """Like :func:`search` but returns every reranked candidate (for context filling)."""
    full = SearchOptions(**{**options.__dict__, "k": 200})
    return await search(deps, scope, query, full)


@dataclass
class _Hop:
    """The second dense hop (:mod:`~hipocampo.domain.retrieval.hops`): the query moved towards the
    stored vectors of its best first hits, and the candidates reranked on the moved query.

    The moved query re-scores the candidates the first pass already holds (the dense pool and the
    keyword pool, whose vectors came with them): no second vector search, no embedding, at most
    one read of vectors an index did not hand back. A second search from the moved query found
    little the first pool lacked, at a second scan's cost (on Postgres, as much as the first
    search). Measured on LoCoMo dev (R@10 / context recall): no hop 0.772 / 0.830, a second
    search 0.794 / 0.832, re-scoring the first candidates 0.791 / 0.838.

    The moved query's cosines rank (fusion); the query's own cosines stay what calibrated
    relevance and the explanation report, and what the first pass read of each candidate (its
    signals, its learned match) is reused.
    """

    deps: Deps
    scope: Scope
    query: RecallQuery
    opts: SearchOptions
    pool: int
    background: calibrated.Background | None
    validity: Validity
    matches: dict[str, float]  # the first pass's: the same query, the same candidates
    memo: dict[str, Signals]  # the first pass's signals of each candidate

    async def run(
        self,
        qvec: np.ndarray,
        hits: list[ScoredMemory],
        items: dict[str, MemoryItem],
        dense_hits: list[VectorHit],
        keyword_hits: list[KeywordHit],
    ) -> list[ScoredMemory]:
        deps, scope = self.deps, self.scope
        candidates = list(dict.fromkeys([*(h.memory_id for h in dense_hits), *(h.memory_id for h in keyword_hits)]))
        stored = await _vectors(deps, scope, candidates, dense_hits)
        seeds = [h.memory.id for h in hits[: hops.FEEDBACK_HITS]]
        moved = hops.rocchio(qvec, [stored[i] for i in seeds if i in stored], hops.FEEDBACK_WEIGHT)
        second = [VectorHit(i, score, vector=stored[i]) for i, score in hops.nearest(moved, stored, self.pool)]
        # The moved query's list replaces the first one in the fusion: a first-pass dense
        # candidate the moved query no longer ranks was close to the words, not to the subject.
        # Measured on LoCoMo dev (R@10, turns / full layer): replacing 76.4 / 77.6, scoring every
        # candidate on the moved query 75.7 / 75.6; keeping each memory's better score of the two
        # lost as well.
        fused = ranking.score_fusion(
            {h.memory_id: h.score for h in second}, {h.memory_id: h.score for h in keyword_hits}, DENSE_WEIGHT
        )
        wanted = {i: m for i, m in items.items() if i in fused}
        return rerank(
            deps,
            self.query,
            wanted,
            fused,
            dense_hits,
            keyword_hits,
            self.opts.recency,
            self.background,
            self.validity,
            ranking_dense=second,
            matches=self.matches,
            memo=self.memo,
        )


async def _dense(
    deps: Deps,
    scope: Scope,
    query: str,
    pool: int,
    exclude: str | None,
    timings: dict[str, float],
    passage: str | None = None,
) -> tuple[list[VectorHit], str | None, calibrated.Background | None, np.ndarray | None]:
    t = time.perf_counter()
    try:
        if passage is None:
            qvec: np.ndarray = await asyncio.to_thread(deps.embedder.embed_query, query)
        else:  # HyDE: a hypothetical answer is embedded like the memories it should find
            qvec = (await asyncio.to_thread(deps.embedder.embed_documents, [passage]))[0]
    except Exception as exc:  # a broken embedder must not break recall: keyword search still works
        return [], f"embedder failed ({type(exc).__name__}: {exc}); keyword search only", None, None
    timings["query_embed_ms"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    try:
        hits = await deps.vectors.search(scope, qvec, pool, exclude_thread=exclude)
    except (IndexUnavailable, DimensionMismatch) as exc:
        return [], f"vector index unavailable ({exc}); keyword search only", None, None
    timings["vector_ms"] = (time.perf_counter() - t) * 1000
    return hits, None, calibrated.Background.of(await _background_vectors(deps.embedder) @ qvec), qvec


_BACKGROUNDS: weakref.WeakKeyDictionary[Embedder, np.ndarray] = weakref.WeakKeyDictionary()


async def _background_vectors(embedder: Embedder) -> np.ndarray:
    """The calibration background embedded by ``embedder``, once per embedder instance (40 short
    texts: one batch, then a matrix product per query)."""
    vectors = _BACKGROUNDS.get(embedder)
    if vectors is None:
        vectors = await asyncio.to_thread(embedder.embed_documents, [as_indexed(t) for t in BACKGROUND])
        try:
            _BACKGROUNDS[embedder] = vectors
        except TypeError:  # an embedder that cannot be weakly referenced: embedded again next time
            pass
    return vectors


def _wanted(m: MemoryItem, opts: SearchOptions, now: datetime) -> bool:
    if not m.is_current(now):  # superseded, retracted or expired
        return False
    if opts.kinds and m.kind not in opts.kinds:
        return False
    when = m.event_start or m.created_at  # a dated event counts by when it happened
    if opts.since and (m.event_end or when) < opts.since:
        return False
    if opts.until and when >= opts.until:
        return False
    return True
