"""Counts behind quotas and metrics: MemoryStore.count_tenant and VectorIndex.count."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from hipocampo.domain.model import MemoryKind, MemoryType, Scope

ALICE = Scope("acme", "alice")
VECTOR_ENGINES = pytest.mark.parametrize(  # the storage backends and the engines HIPOCAMPO_VECTORS names
    "backend", ["sqlite", "memory", "postgresql", "chroma", "chroma-http", "duckdb"], indirect=True
)
BOB = Scope("acme", "bob")
ALICE_GLOBEX = Scope("globex", "alice")


def test_count_tenant_counts_every_user_of_the_tenant(run: Callable, memory: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.memories.count_tenant("acme") == 0
        await s.memories.upsert(
            [
                memory("m1", ALICE),
                memory("m2", ALICE, kind=MemoryKind.FACT, memory_type=MemoryType.PREFERENCE),
                memory("m3", BOB),
                memory("m4", ALICE_GLOBEX),
            ]
        )
        assert await s.memories.count_tenant("acme") == 3
        assert await s.memories.count_tenant("globex") == 1
        await s.memories.delete(ALICE, ["m1"])
        assert await s.memories.count_tenant("acme") == 2

    run(scenario)


@VECTOR_ENGINES
def test_vector_count_per_scope_and_kind(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        assert await s.vectors.count(ALICE) == 0
        items = [
            memory("t1", ALICE, seq=0),
            memory("t2", ALICE, seq=1),
            memory("f1", ALICE, kind=MemoryKind.FACT, memory_type=MemoryType.GOAL),
            memory("t3", ALICE, seq=2),  # stored, not yet indexed
            memory("b1", BOB, seq=0),
        ]
        await s.memories.upsert(items)
        await s.vectors.upsert(ALICE, [("t1", vec(1, 0)), ("t2", vec(0, 1)), ("f1", vec(1, 1))], "m")
        await s.vectors.upsert(BOB, [("b1", vec(1, 0))], "m")
        assert await s.vectors.count(ALICE) == 3
        assert await s.vectors.count(ALICE, kind=MemoryKind.TURN) == 2
        assert await s.vectors.count(ALICE, kind=MemoryKind.FACT) == 1
        assert await s.vectors.count(ALICE, kind=MemoryKind.SUMMARY) == 0
        assert await s.vectors.count(BOB, kind=MemoryKind.TURN) == 1
        assert await s.vectors.count(ALICE_GLOBEX) == 0
        await s.memories.delete(ALICE, ["t1"])
        assert await s.vectors.count(ALICE, kind=MemoryKind.TURN) == 1

    run(scenario)


@VECTOR_ENGINES
def test_vector_count_of_an_agent_only_scope(run: Callable, memory: Callable, vec: Callable) -> None:
    async def scenario(s) -> None:
        mine, shared, other = Scope("acme", "alice", "bot"), ALICE, Scope("acme", "alice", "other")
        await s.memories.upsert([memory("a", mine), memory("s", shared), memory("o", other)])
        await s.vectors.upsert(ALICE, [("a", vec(1, 0)), ("s", vec(0, 1)), ("o", vec(1, 1))], "m")
        assert await s.vectors.count(ALICE) == 3
        assert await s.vectors.count(Scope("acme", "alice", "bot", agent_only=True)) == 2

    run(scenario)
