"""Postgres vector search by both paths: the HNSW path (users above the exact-search threshold)
finds what the exact path finds, honours the same filters, and leaves no setting behind."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import numpy as np
import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.postgres.vectors import PostgresVectorIndex
from hipocampo.backends import open_storage
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.settings import Settings

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
ALICE = Scope("acme", "alice")
BOB = Scope("acme", "bob")
DIM = 16


def turn(memory_id: str, scope: Scope, thread_id: str, seq: int) -> MemoryItem:
    return MemoryItem(
        id=memory_id,
        scope=scope,
        kind=MemoryKind.TURN,
        content=memory_id,
        created_at=T0,
        thread_id=thread_id,
        seq=seq,
        role=Role.USER,
    )


@pytest.fixture
def pg_store(pg_url: str):
    from engines import create_pg_database

    from hipocampo.adapters.postgres.schema import migrate

    url, drop = create_pg_database(pg_url)
    asyncio.run(migrate(url))
    yield url
    drop()


def test_the_hnsw_path_finds_what_the_exact_path_finds(pg_store: str) -> None:
    rng = np.random.default_rng(3)

    async def main() -> None:
        storage = await open_storage(pg_store, clock=FakeClock(T0), settings=Settings(db=pg_store))
        try:
            sales = Scope("acme", "alice", agent_id="sales")
            mine = [turn(f"a{i}", sales if i % 3 == 0 else ALICE, f"t{i % 4}", i) for i in range(60)]
            others = [turn(f"b{i}", BOB, "t0", i) for i in range(300)]
            await storage.memories.upsert(mine + others)
            await storage.vectors.upsert(ALICE, [(m.id, rng.standard_normal(DIM)) for m in mine], "fake/16")
            await storage.vectors.upsert(BOB, [(m.id, rng.standard_normal(DIM)) for m in others], "fake/16")
            exact = PostgresVectorIndex(storage.uow, Settings(pg_exact_search_threshold=10_000))
            hnsw = PostgresVectorIndex(storage.uow, Settings(pg_exact_search_threshold=0, pg_ef_search=200))
            found = wanted = 0
            for scope, exclude in (
                (ALICE, None),
                (ALICE, "t1"),
                (Scope("acme", "alice", "sales", agent_only=True), None),
            ):
                for _ in range(10):
                    q = rng.standard_normal(DIM)
                    want = await exact.search(scope, q, 10, exclude_thread=exclude)
                    got = await hnsw.search(scope, q, 10, exclude_thread=exclude)
                    assert [h.score for h in got] == sorted((h.score for h in got), reverse=True)
                    assert all(h.memory_id.startswith("a") for h in got)  # never another user's
                    if exclude:
                        assert not {h.memory_id for h in got} & {m.id for m in mine if m.thread_id == exclude}
                    if scope.agent_only:
                        assert {h.memory_id for h in got} <= {m.id for m in mine if m.scope.agent_id in (None, "sales")}
                    found += len({h.memory_id for h in got} & {h.memory_id for h in want})
                    wanted += len(want)
                    scores = {h.memory_id: h.score for h in want}
                    for h in got:
                        if h.memory_id in scores:
                            assert h.score == pytest.approx(scores[h.memory_id], abs=1e-5)
            assert found / wanted >= 0.95
        finally:
            await storage.close()

    asyncio.run(main())


def test_the_hnsw_settings_do_not_outlive_the_search(pg_store: str) -> None:
    async def main() -> None:
        storage = await open_storage(pg_store, clock=FakeClock(T0), settings=Settings(db=pg_store))
        try:
            await storage.memories.upsert([turn(f"a{i}", ALICE, "t1", i) for i in range(5)])
            await storage.vectors.upsert(ALICE, [(f"a{i}", np.eye(DIM)[i]) for i in range(5)], "fake/16")
            hnsw = PostgresVectorIndex(storage.uow, Settings(pg_exact_search_threshold=0))
            db = storage.uow
            async with db.transaction(), db.connection() as conn:
                hits = await hnsw.search(ALICE, np.eye(DIM)[2], 3)
                assert hits[0].memory_id == "a2"
                cur = await conn.execute(
                    "SELECT current_setting('enable_sort') AS sort, current_setting('hnsw.iterative_scan') AS scan"
                )
                assert await cur.fetchone() == {"sort": "on", "scan": "off"}
        finally:
            await storage.close()

    asyncio.run(main())
