"""What a search hit carries besides its id and score (``VectorHit.vector`` and ``.memory``,
``KeywordHit.memory``): when an index hands them back, they are exactly what the memory store
and the vector index read for that id in the searcher's scope, so recall may use them instead of
reading again. Postgres carries them (one statement per search); the others may not."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import numpy as np
import pytest

from hipocampo.domain.model import MemoryKind, MemoryType, Scope

pytestmark = pytest.mark.parametrize(
    "backend", ["sqlite", "memory", "postgresql", "chroma", "duckdb", "plugin"], indirect=True
)

ALICE = Scope("acme", "alice")
ALICE_SALES = Scope("acme", "alice", "sales", agent_only=True)
MODEL = "fake/3"


def test_carried_rows_and_vectors_equal_what_the_stores_read(
    run: Callable, memory: Callable, vec: Callable, backend
) -> None:
    async def scenario(s) -> None:
        items = [
            memory(
                "fact",
                ALICE,
                "Alice is allergic to peanuts",
                kind=MemoryKind.FACT,
                memory_type=MemoryType.CRITICAL_INFO,
                importance=0.9,
                source_message_ids=["msg_1"],
                metadata={"confidence": 0.8, "tags": ["saúde"]},
                name="Alice",
                updated_at=s.clock.now() + timedelta(days=1),
            ),
            memory("turn", ALICE, "peanut sauce for dinner", thread_id="t1", seq=3),
            memory("sales", Scope("acme", "alice", "sales"), "peanut deal", thread_id="t2", seq=0),
            memory("support", Scope("acme", "alice", "support"), "peanut ticket", thread_id="t3", seq=0),
        ]
        await s.memories.upsert(items)
        vectors = {"fact": vec(1, 0, 0), "turn": vec(1, 1, 0), "sales": vec(0, 1, 0), "support": vec(0, 1, 1)}
        for item in items:
            await s.vectors.upsert(item.scope, [(item.id, vectors[item.id])], MODEL)
        await s.keywords.upsert(ALICE, [(i.id, i.content) for i in items if i.scope.agent_id is None])
        await s.keywords.upsert(Scope("acme", "alice", "sales"), [("sales", "peanut deal")])
        await s.keywords.upsert(Scope("acme", "alice", "support"), [("support", "peanut ticket")])
        for scope in (ALICE, ALICE_SALES):
            dense = await s.vectors.search(scope, vec(1, 0.5, 0.2), 10)
            keyword = await s.keywords.search(scope, "peanut", 10)
            assert dense and keyword
            for hit in [*dense, *keyword]:
                if hit.memory is not None:
                    assert [hit.memory] == await s.memories.get_many(scope, [hit.memory_id])
            for hit in dense:
                if hit.vector is not None:
                    stored = (await s.vectors.get(scope, [hit.memory_id]))[hit.memory_id]
                    assert hit.vector.dtype == np.float32 and np.array_equal(hit.vector, stored)
            if backend.url.startswith("postgresql") and not backend.vectors:  # read in the search's statement
                assert all(h.memory is not None and h.vector is not None for h in dense)
                assert all(h.memory is not None for h in keyword)
        seen = {h.memory_id for h in await s.vectors.search(ALICE_SALES, vec(0, 1, 1), 10)}
        assert "support" not in seen and "sales" in seen

    run(scenario)
