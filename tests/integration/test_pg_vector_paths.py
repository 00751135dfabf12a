"""Postgres vector search by both paths: the HNSW path finds what the exact path finds, honours the
same filters, and leaves no setting behind; each search takes the path its user's share of the
table makes cheaper, and an HNSW answer that comes back short is replaced by the exact one."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

import numpy as np
import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.postgres.vector_plan import PathCosts
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
            exact = PostgresVectorIndex(storage.uow, Settings(), path="exact")
            hnsw = PostgresVectorIndex(storage.uow, Settings(pg_ef_search=200), path="hnsw", fallback=False)
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
            hnsw = PostgresVectorIndex(storage.uow, Settings(), path="hnsw")
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


async def _users(storage, rng: np.random.Generator, sizes: dict[str, int]) -> None:
    """Users of the given sizes, their turns interleaved in the table as a live service writes them."""
    order = [user for user, n in sizes.items() for _ in range(n)]
    rng.shuffle(order)
    seen: dict[str, int] = {}
    items: dict[str, list[MemoryItem]] = {}
    for user in order:
        i = seen[user] = seen.get(user, -1) + 1
        items.setdefault(user, []).append(turn(f"{user}{i}", Scope("acme", user), "t1", i))
    await storage.memories.upsert([m for ms in items.values() for m in ms])
    for user, ms in items.items():
        await storage.vectors.upsert(Scope("acme", user), [(m.id, rng.standard_normal(DIM)) for m in ms], "fake/16")
    async with storage.uow.connection() as conn:
        await conn.execute("ANALYZE vectors")  # the table's size, as autovacuum would keep it


def test_a_large_share_goes_through_hnsw_and_a_small_one_exact_with_full_answers(pg_store: str) -> None:
    """A user holding a large share of the table is cheaper through the index; one holding a
    small share is not (the scan would visit many others' vectors per one of theirs). Costs
    are set so that this small table behaves as a large one would."""
    rng = np.random.default_rng(5)

    async def main() -> None:
        storage = await open_storage(pg_store, clock=FakeClock(T0), settings=Settings(db=pg_store))
        try:
            await _users(storage, rng, {"big": 400, "other": 1500, "small": 40})
            costs = PathCosts(exact_row_us=50.0)
            auto = PostgresVectorIndex(storage.uow, Settings(pg_exact_search_threshold=0), costs=costs)
            exact = PostgresVectorIndex(storage.uow, Settings(), path="exact")
            assert await auto.path_for(Scope("acme", "big"), 30) == "hnsw"
            assert await auto.path_for(Scope("acme", "small"), 30) == "exact"
            floor = PostgresVectorIndex(storage.uow, Settings(pg_exact_search_threshold=400), costs=costs)
            assert await floor.path_for(Scope("acme", "big"), 30) == "exact"  # at most the threshold: exact
            found = 0
            for _ in range(10):
                q = rng.standard_normal(DIM)
                got = await auto.search(Scope("acme", "big"), q, 30)
                want = await exact.search(Scope("acme", "big"), q, 30)
                assert len(got) == 30 and all(h.memory_id.startswith("big") for h in got)
                found += len({h.memory_id for h in got} & {h.memory_id for h in want})
                small = await auto.search(Scope("acme", "small"), q, 30)
                assert small == await exact.search(Scope("acme", "small"), q, 30)
            assert found / 300 >= 0.9
        finally:
            await storage.close()

    asyncio.run(main())


def test_a_short_hnsw_answer_is_replaced_by_the_exact_one(pg_store: str) -> None:
    """An index scan that gives up before finding k of a rare user's vectors must not make the
    search come back short: the exact answer is given instead, and the user goes exact."""
    rng = np.random.default_rng(6)

    async def main() -> None:
        storage = await open_storage(pg_store, clock=FakeClock(T0), settings=Settings(db=pg_store))
        try:
            await _users(storage, rng, {"rare": 25, "crowd": 2000})
            scope = Scope("acme", "rare")
            tiny_scan = {"max_scan_tuples": 50}
            bare = PostgresVectorIndex(storage.uow, Settings(), path="hnsw", fallback=False, **tiny_scan)
            hnsw = PostgresVectorIndex(storage.uow, Settings(), path="hnsw", **tiny_scan)
            exact = PostgresVectorIndex(storage.uow, Settings(), path="exact")
            q = rng.standard_normal(DIM)
            assert len(await bare.search(scope, q, 20)) < 20  # the index alone comes back short
            want = await exact.search(scope, q, 20)
            assert len(want) == 20
            assert await hnsw.search(scope, q, 20) == want
            assert await hnsw.search(scope, q, 20, exclude_thread="t9") == want  # and again, exact at once
            assert len(await hnsw.search(scope, q, 40)) == 25  # all the user has: short only when the user is
        finally:
            await storage.close()

    asyncio.run(main())


def _plan(url: str, sql: str, params: list[object]) -> str:
    import psycopg
    from pgvector.psycopg import register_vector

    with psycopg.connect(url) as conn:
        register_vector(conn)
        conn.execute("SET enable_seqscan = off")  # a table this small would be read whole
        return "\n".join(r[0] for r in conn.execute("EXPLAIN " + sql, params).fetchall())


@pytest.mark.parametrize("dim, covered", [(DIM, True), (1024, False)])
def test_the_exact_path_reads_a_users_vectors_from_its_covering_index_up_to_its_width(
    pg_store: str, dim: int, covered: bool
) -> None:
    """The claim of a dimension builds the covering index the exact path scans (no heap page per
    row); a vector too wide for a B-tree entry is stored and found all the same, from the table.
    A reset drops the index with the model."""
    from hipocampo.adapters.postgres.vector_sql import exact_search

    rng = np.random.default_rng(5)

    async def main() -> None:
        storage = await open_storage(pg_store, clock=FakeClock(T0), settings=Settings(db=pg_store))
        try:
            mine = [turn(f"a{i}", ALICE, "t0", i) for i in range(30)]
            await storage.memories.upsert(mine)
            await storage.vectors.upsert(ALICE, [(m.id, rng.standard_normal(dim)) for m in mine], f"fake/{dim}")
            q = rng.standard_normal(dim).astype(np.float32)
            hits = await PostgresVectorIndex(storage.uow, Settings(), path="exact").search(ALICE, q, 5)
            assert len(hits) == 5
            sql, params = exact_search(ALICE, q / np.linalg.norm(q), 5, None)
            plan = await asyncio.to_thread(_plan, pg_store, sql, list(params))
            assert (f"Index Only Scan using vectors_rows_{dim}" in plan) is covered, plan
            await storage.vectors.reset()
            indexes = await storage.uow.fetch_all(
                ("SELECT indexname FROM pg_indexes WHERE tablename = 'vectors' AND indexname LIKE 'vectors_rows%%'", ())
            )
            assert indexes == []
        finally:
            await storage.close()

    asyncio.run(main())
