"""services.retrieval's second dense hop and completed dense scores, over the in-memory adapters
with an embedder whose geometry the test chooses (so what each search finds is known)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any

import numpy as np
import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.model import Scope
from hipocampo.domain.retrieval.recall import SearchResult
from hipocampo.services.ingest import add_messages
from hipocampo.services.retrieval import SearchOptions, search
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
QUERY = "which pastime"  # shares no word with any memory: the keyword side finds nothing


def unit(*xs: float) -> np.ndarray:
    v = np.zeros(6, dtype=np.float32)
    v[: len(xs)] = xs
    return v / np.linalg.norm(v)


# Axis 0: what the question asks; 1: the subject the user talks about; 2, 3: other subjects.
VECTORS = {
    "pastime": unit(1, 0),
    "rowing": unit(0.8, 0.6),  # found by the question, and about the subject
    "regatta": unit(0.7, 0.714),  # the same
    "canoe": unit(0.47, 0.883),  # about the subject, a little farther from the question than...
    "weather": unit(0.5, 0, 0.866),  # ...this, which is about something else
    "taxes": unit(0.1, 0, 0, 0.995),
}
OTHER = unit(0, 0, 0, 0, 0, 1)  # any other text (the relevance calibration background)


class TableEmbedder:
    """Each text embeds to the vector of the key word it contains: a geometry set by the test."""

    name = "table-6"
    dim = 6

    def _vector(self, text: str) -> np.ndarray:
        return next((v for k, v in VECTORS.items() if k in text.lower()), OTHER)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, 6), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._vector(text)


CONTENTS = {
    "rowing": "Rowing on the river every Saturday morning keeps me sane",
    "regatta": "Our club regatta was cancelled because of the storm",
    "canoe": "Bought a second hand canoe from a neighbour down the street",
    "weather": "The weather has been grey and cold for weeks now",
    "taxes": "Filed my taxes late again and paid a small fine",
}


class CountingVectors:
    """The in-memory vector index, counting its searches (the hop must not search again)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.searches = 0

    async def search(self, *args: Any, **kwargs: Any) -> Any:
        self.searches += 1
        return await self.inner.search(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def run_search(second_hop: bool, pool: int = 4) -> tuple[SearchResult, dict[str, np.ndarray], int]:
    async def scenario() -> tuple[SearchResult, dict[str, np.ndarray], int]:
        deps = build_memory_deps(
            Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False),
            embedder=TableEmbedder(),
            clock=FakeClock(T0),
        )
        for key, content in CONTENTS.items():  # one thread each: no neighbour support
            await add_messages(deps, ALICE, key, [{"role": "user", "content": content}], at=T0)
        while await run_once(deps):
            pass
        counting = CountingVectors(deps.vectors)
        deps = replace(deps, vectors=counting)
        result = await search(deps, ALICE, QUERY, SearchOptions(k=10, pool=pool, second_hop=second_hop))
        stored = await deps.vectors.get(ALICE, [h.memory.id for h in result.hits])
        return result, stored, counting.searches

    return asyncio.run(scenario())


def found(result: SearchResult) -> list[str]:
    return [h.memory.thread_id or "" for h in result.hits]


def test_the_first_search_alone_ranks_what_shares_only_the_subject_below_another_subject() -> None:
    result, _, _ = run_search(second_hop=False)
    assert found(result)[:3] == ["rowing", "regatta", "weather"]
    assert "hop_ms" not in result.timings_ms


def test_the_second_hop_lifts_it_from_the_first_hits_vectors_without_searching_again() -> None:
    result, _, searches = run_search(second_hop=True)
    names = found(result)
    assert names[:2] == ["rowing", "regatta"]
    assert "canoe" in names
    assert "weather" not in names or names.index("canoe") < names.index("weather")
    assert "hop_ms" in result.timings_ms
    assert searches == 1


def test_the_second_hop_ranks_only_what_the_first_pass_found() -> None:
    result, _, _ = run_search(second_hop=True, pool=3)  # the canoe is outside the first dense pool
    assert "canoe" not in found(result)


def test_reported_dense_scores_are_the_querys_own_cosines_whichever_search_found_the_memory() -> None:
    result, stored, _ = run_search(second_hop=True)
    q = VECTORS["pastime"]
    for hit in result.hits:
        assert hit.explanation.dense_score == pytest.approx(float(stored[hit.memory.id] @ q), abs=1e-5)


def test_the_setting_switches_the_hop_when_the_options_do_not_say() -> None:
    async def scenario(flag: bool) -> SearchResult:
        deps = build_memory_deps(
            Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False, second_hop=flag),
            embedder=TableEmbedder(),
            clock=FakeClock(T0),
        )
        await add_messages(deps, ALICE, "rowing", [{"role": "user", "content": CONTENTS["rowing"]}], at=T0)
        while await run_once(deps):
            pass
        return await search(deps, ALICE, QUERY, SearchOptions(k=5))

    assert "hop_ms" in asyncio.run(scenario(True)).timings_ms
    assert "hop_ms" not in asyncio.run(scenario(False)).timings_ms


def test_keyword_candidates_outside_the_dense_pool_get_their_dense_score_from_the_stored_vector() -> None:
    async def scenario() -> SearchResult:
        deps = build_memory_deps(
            Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False),
            embedder=TableEmbedder(),
            clock=FakeClock(T0),
        )
        for key, content in CONTENTS.items():
            await add_messages(deps, ALICE, key, [{"role": "user", "content": content}], at=T0)
        while await run_once(deps):
            pass
        # "fine" is a word of the taxes turn only, which is far from the query in vector space.
        return await search(deps, ALICE, "which pastime fine", SearchOptions(k=10, pool=1, second_hop=False))

    result = asyncio.run(scenario())
    taxes = next(h for h in result.hits if h.memory.thread_id == "taxes")
    assert taxes.explanation.keyword_rank == 1
    assert taxes.explanation.dense_score == pytest.approx(float(VECTORS["taxes"] @ VECTORS["pastime"]), abs=1e-5)
