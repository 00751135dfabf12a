"""services.retrieval.search over the in-memory adapters: hybrid fusion and its explanation,
filters, adaptive k, and degrading to keyword search when the dense side fails."""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

import numpy as np
import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.errors import IndexUnavailable, InvalidInput
from hipocampo.domain.model import MemoryKind, Scope
from hipocampo.domain.retrieval.ranking import adaptive_k, person_boost
from hipocampo.ports import VectorHit
from hipocampo.services.curation import remember
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import add_messages
from hipocampo.services.retrieval import SearchOptions, rank_candidates, search
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
DAY = timedelta(days=1)

ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}
"""The write/index/recall engine alone: no fact extraction or summaries in these tests."""


def run(scenario: Callable[[Deps], Awaitable[None]], **settings: Any) -> None:
    deps = build_memory_deps(Settings(**(ENGINE_ONLY | settings)), clock=FakeClock(T0))
    asyncio.run(scenario(deps))


async def indexed(deps: Deps) -> None:
    while await run_once(deps):
        pass


async def conversation(deps: Deps) -> None:
    """Two threads a day apart, and one saved fact."""
    await add_messages(
        deps,
        ALICE,
        "trip",
        [
            {"role": "user", "name": "Ana", "content": "My sister lives in Lisbon"},
            {"role": "assistant", "content": "Lisbon is lovely in spring"},
            {"role": "user", "name": "Ana", "content": "We will visit her in May"},
        ],
        at=T0 - 2 * DAY,
    )
    await add_messages(
        deps,
        ALICE,
        "food",
        [
            {"role": "user", "name": "Ana", "content": "I cooked a saffron risotto"},
            {"role": "assistant", "content": "Saffron risotto sounds delicious"},
        ],
        at=T0 - DAY,
    )
    await remember(deps, ALICE, "Ana's sister is called Rita and lives in Lisbon", memory_type="entity")
    await indexed(deps)


def contents(result) -> list[str]:
    return [h.memory.content for h in result.hits]


def test_hits_explain_their_fused_score_and_boosts() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        result = await search(deps, ALICE, "Where does Ana say her sister lives?", SearchOptions(k=5))
        assert result.degraded == []
        top = result.hits[0]
        assert top.memory.content == "My sister lives in Lisbon"
        e = top.explanation
        assert e.dense_score is not None and -1.0 <= e.dense_score <= 1.0 and e.dense_rank is not None
        assert e.keyword_score is not None and e.keyword_score > 0 and e.keyword_rank is not None
        assert {"sister", "live"} <= set(e.matched_terms)
        assert set(e.boosts) == {"recency", "importance", "validity"}  # what the learned ranker does not weigh
        speaker_boost, _ = person_boost({"Ana"}, "Ana", top.memory.content)
        assert speaker_boost > 1 and e.features["speaker"] == 1.0  # Ana is the speaker
        assert "fusion" in e.contributions and e.contributions["coverage"] > 0  # what moved it
        assert e.speech_act == "disclosure"
        assert e.matched_names == ["Ana"]
        assert 0.0 < e.relevance <= 1.0
        assert e.fused_score > 0
        assert top.score == pytest.approx(e.base_score * math.prod(e.boosts.values()))
        assert [h.score for h in result.hits] == sorted((h.score for h in result.hits), reverse=True)
        assert {"keyword_ms", "fetch_ms", "rerank_ms", "total_ms", "vector_ms"} <= set(result.timings_ms)

    run(scenario)


def test_a_memory_found_only_by_meaning_has_no_keyword_part() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        result = await search(deps, ALICE, "risottos", SearchOptions(k=10))  # stems match no term
        dense_only = [h for h in result.hits if h.explanation.keyword_score is None]
        assert dense_only
        for h in dense_only:
            e = h.explanation
            assert e.keyword_rank is None and e.matched_terms == [] and e.dense_score is not None

    run(scenario)


def test_exclude_thread_searches_the_other_threads_only() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        everywhere = await search(deps, ALICE, "Lisbon", SearchOptions(k=20))
        assert "trip" in {h.memory.thread_id for h in everywhere.hits}
        elsewhere = await search(deps, ALICE, "Lisbon", SearchOptions(k=20, thread_id="trip", exclude_thread=True))
        assert elsewhere.hits
        assert "trip" not in {h.memory.thread_id for h in elsewhere.hits}
        # A thread id alone only says which thread is current; it excludes nothing.
        current = await search(deps, ALICE, "Lisbon", SearchOptions(k=20, thread_id="trip"))
        assert contents(current) == contents(everywhere)

    run(scenario)


def test_kinds_filter() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        facts = await search(deps, ALICE, "Lisbon sister", SearchOptions(kinds=(MemoryKind.FACT,)))
        assert contents(facts) == ["Ana's sister is called Rita and lives in Lisbon"]
        turns = await search(deps, ALICE, "Lisbon sister", SearchOptions(k=20, kinds=(MemoryKind.TURN,)))
        assert turns.hits and all(h.memory.kind is MemoryKind.TURN for h in turns.hits)

    run(scenario)


def test_since_and_until_filter_by_when_it_was_said_or_when_its_event_happens() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)  # trip two days ago, food yesterday, the fact now
        query = "Lisbon risotto sister saffron"
        recent = await search(deps, ALICE, query, SearchOptions(k=20, since=T0 - DAY))
        # "We will visit her in May" was said two days ago, but its event (May) is still to come
        assert {h.memory.content for h in recent.hits if h.memory.thread_id == "trip"} == {"We will visit her in May"}
        assert all((h.memory.event_end or h.memory.created_at) >= T0 - DAY for h in recent.hits)
        older = await search(deps, ALICE, query, SearchOptions(k=20, until=T0 - DAY))
        assert older.hits and {h.memory.thread_id for h in older.hits} == {"trip"}
        assert "We will visit her in May" not in {h.memory.content for h in older.hits}
        window = await search(deps, ALICE, query, SearchOptions(k=20, since=T0 - DAY, until=T0))
        assert window.hits and {h.memory.thread_id for h in window.hits} == {"food"}

    run(scenario)


def test_min_relevance_drops_weak_hits() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        query = "saffron risotto"
        everything = await search(deps, ALICE, query, SearchOptions(k=20, min_relevance=0.0))
        strong = await search(deps, ALICE, query, SearchOptions(k=20, min_relevance=0.5))
        assert 0 < len(strong.hits) < len(everything.hits)
        assert all(h.explanation.relevance >= 0.5 for h in strong.hits)
        weak = {h.memory.id for h in everything.hits if h.explanation.relevance < 0.5}
        assert weak and not weak & {h.memory.id for h in strong.hits}

    run(scenario)


def test_min_relevance_defaults_to_the_setting() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        result = await search(deps, ALICE, "saffron risotto", SearchOptions(k=20))
        assert result.hits and all(h.explanation.relevance >= 0.5 for h in result.hits)

    run(scenario, min_relevance=0.5)


def test_adaptive_k_keeps_between_3_and_12_hits() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", [f"note {i} about the garden and plants" for i in range(30)])
        await indexed(deps)
        result = await search(deps, ALICE, "garden")
        assert 3 <= len(result.hits) <= 12
        every = await rank_candidates(deps, ALICE, "garden", SearchOptions())
        assert len(every.hits) == 30
        assert len(result.hits) == adaptive_k([h.score for h in every.hits])
        given = await search(deps, ALICE, "garden", SearchOptions(k=20))
        assert len(given.hits) == 20  # a k given is not cut

    run(scenario)


def test_adaptive_k_returns_what_there_is_below_3() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", ["only one memory"])
        await indexed(deps)
        assert len((await search(deps, ALICE, "memory")).hits) == 1

    run(scenario)


@pytest.mark.parametrize(
    ("query", "options", "error"),
    [
        ("", None, "must not be empty"),
        ("   ", None, "must not be empty"),
        ("x" * 4001, None, "limit is 4000"),
        ("ok", SearchOptions(k=0), "k must be"),
        ("ok", SearchOptions(k=201), "k must be"),
    ],
)
def test_bad_queries_are_refused(query: str, options: SearchOptions | None, error: str) -> None:
    async def scenario(deps: Deps) -> None:
        with pytest.raises(InvalidInput, match=error):
            await search(deps, ALICE, query, options)

    run(scenario)


class UnavailableVectorIndex:
    """A vector index that cannot be read (a corrupt file, a server down)."""

    async def search(
        self, scope: Scope, query: np.ndarray, k: int, *, exclude_thread: str | None = None
    ) -> list[VectorHit]:
        raise IndexUnavailable("the vector file is corrupt")


class BrokenQueryEmbedder:
    """Embeds documents, but every query fails (a model server that went away)."""

    def __init__(self) -> None:
        self._inner = FakeEmbedder()
        self.name, self.dim = self._inner.name, self._inner.dim

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        raise ConnectionError("embedding server unreachable")


def assert_keyword_only(result) -> None:
    """The results of searching "saffron" with no dense side: exactly the keyword matches."""
    assert set(contents(result)) == {
        "I cooked a saffron risotto",
        "Saffron risotto sounds delicious",
    }
    for h in result.hits:
        e = h.explanation
        assert (e.dense_score, e.dense_rank) == (None, None)
        assert e.keyword_score is not None and e.matched_terms == ["saffron"]


def test_an_unavailable_vector_index_degrades_to_keyword_search() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        broken = dataclasses.replace(deps, vectors=UnavailableVectorIndex())
        result = await search(broken, ALICE, "saffron")
        assert_keyword_only(result)
        (problem,) = result.degraded
        assert problem.startswith("vector index unavailable") and "corrupt" in problem
        assert "keyword search only" in problem

    run(scenario)


def test_a_failing_embedder_degrades_to_keyword_search() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        broken = dataclasses.replace(deps, embedder=BrokenQueryEmbedder())
        result = await search(broken, ALICE, "saffron")
        assert_keyword_only(result)
        (problem,) = result.degraded
        assert problem.startswith("embedder failed (ConnectionError: embedding server unreachable)")

    run(scenario)


def test_a_dimension_mismatch_degrades_too() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        other = dataclasses.replace(deps, embedder=FakeEmbedder(dim=32))  # the index holds 64 dims
        result = await search(other, ALICE, "saffron")
        assert_keyword_only(result)
        assert "reindex" in result.degraded[0]

    run(scenario)


def test_other_users_memories_are_never_found() -> None:
    async def scenario(deps: Deps) -> None:
        await conversation(deps)
        bob = Scope("acme", "bob")
        assert (await search(deps, bob, "Lisbon sister saffron")).hits == []

    run(scenario)


def test_a_fact_never_outranks_the_turn_it_came_from() -> None:
    async def scenario(deps: Deps) -> None:
        await add_messages(
            deps, ALICE, "t", [{"role": "user", "content": "I'm allergic to peanuts, so no satay for me"}], at=T0
        )
        await indexed(deps)
        hits = (await search(deps, ALICE, "what is the user allergic to?", SearchOptions(k=10))).hits
        facts = [h for h in hits if h.memory.kind is MemoryKind.FACT]
        turn = next(h for h in hits if h.memory.kind is MemoryKind.TURN)
        assert facts, "extraction wrote the allergy"
        for fact in facts:
            assert fact.score < turn.score
            assert fact.score == pytest.approx(
                fact.explanation.base_score * math.prod(fact.explanation.boosts.values())
            )

    run(scenario, extraction=True)
