"""The extractive summary reuses the vectors the index holds for folded turns: only what was
never indexed (and the previous summary's own lines) is embedded again."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import numpy as np

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import Scope
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import add_messages
from hipocampo.services.summaries import SummaryPolicy, maybe_summarize
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ALICE = Scope("acme", "alice")
POLICY = SummaryPolicy(threshold=20, keep_recent=10, max_tokens=500, window=200)  # threshold-driven folds
PLACES = ("Lisbon", "Porto", "Braga", "Faro", "Coimbra", "Évora")


class Counting(FakeEmbedder):
    def __init__(self) -> None:
        super().__init__()
        self.documents: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.documents += texts
        return super().embed_documents(texts)


def make_deps(embedder: Counting) -> Deps:
    settings = Settings(embedder="fake", tokenizer="chars", extraction=False, summaries=False)
    return build_memory_deps(settings, embedder=embedder, clock=FakeClock())


TURNS = [f"We will meet Sofia in {PLACES[i % 6]} on day {i} to book the hotel." for i in range(30)]


def test_folding_indexed_turns_embeds_none_of_them() -> None:
    embedder = Counting()

    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ALICE, "t1", TURNS)
        while await run_once(deps):  # the worker indexes every turn once
            pass
        embedder.documents.clear()
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert summary is not None and "Sofia" in summary.content
        assert embedder.documents == []  # the folded turns' stored vectors stood in

    asyncio.run(scenario(make_deps(embedder)))


def test_turns_not_indexed_yet_are_embedded_as_before() -> None:
    async def summarize(index_first: bool) -> tuple[str, list[str]]:
        embedder = Counting()
        deps = make_deps(embedder)
        await add_messages(deps, ALICE, "t1", TURNS)
        if index_first:
            while await run_once(deps):
                pass
        embedder.documents.clear()
        summary = await maybe_summarize(deps, ALICE, "t1", POLICY)
        assert summary is not None
        return summary.content, embedder.documents

    reused, embedded_none = asyncio.run(summarize(index_first=True))
    fresh, embedded = asyncio.run(summarize(index_first=False))
    assert embedded_none == [] and set(embedded) == set(TURNS[:20])  # the fallback: each folded turn
    assert "Sofia" in fresh and reused.splitlines()[0].startswith("[")
