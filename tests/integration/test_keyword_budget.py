"""Keyword search over a user with more matching documents than a search scores (SQLite and
Postgres): the rarest terms' documents are always scored, the answer stays within the budget,
and other users' documents neither count against it nor show up."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.postgres.keywords import PostgresKeywordIndex
from hipocampo.adapters.sqlite.keywords import SqliteKeywordIndex
from hipocampo.backends import open_storage
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.settings import Settings

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
ALICE = Scope("acme", "alice")
GLOBEX = Scope("globex", "bob")
BUDGET = 6


def turn(memory_id: str, scope: Scope, text: str, seq: int) -> MemoryItem:
    return MemoryItem(
        id=memory_id,
        scope=scope,
        kind=MemoryKind.TURN,
        content=text,
        created_at=T0,
        thread_id="t1",
        seq=seq,
        role=Role.USER,
    )


DOCS = {
    **{f"coffee-{i}": f"morning coffee number {i} with milk" for i in range(20)},
    "zanzibar-1": "the trip to Zanzibar with coffee",
    "zanzibar-2": "Zanzibar beaches were lovely",
    "tea": "a cup of green tea",
}


@pytest.fixture(params=["sqlite", "postgresql"])
def searching(request: pytest.FixtureRequest, tmp_path) -> Callable:
    """``searching(scenario)``: run ``scenario(index, exact)`` on a store holding ``DOCS`` for alice
    (and many coffee documents of another tenant), with a budgeted index and a normal one."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'kw.db'}"
        index_class: type = SqliteKeywordIndex
    else:
        from engines import create_pg_database

        from hipocampo.adapters.postgres.schema import migrate

        url, drop = create_pg_database(request.getfixturevalue("pg_url"))
        request.addfinalizer(drop)
        asyncio.run(migrate(url))
        index_class = PostgresKeywordIndex

    def run(scenario: Callable) -> None:
        async def main() -> None:
            storage = await open_storage(url, clock=FakeClock(T0), settings=Settings(db=url))
            try:
                items = [turn(mid, ALICE, text, i) for i, (mid, text) in enumerate(DOCS.items())]
                noise = [turn(f"g{i}", GLOBEX, "coffee and Zanzibar coffee", i) for i in range(40)]
                await storage.memories.upsert(items + noise)
                await storage.keywords.upsert(ALICE, [(m.id, m.content) for m in items])
                await storage.keywords.upsert(GLOBEX, [(m.id, m.content) for m in noise])
                await scenario(index_class(storage.uow, budget=BUDGET), storage.keywords)
            finally:
                await storage.close()

        asyncio.run(main())

    return run


def test_the_rarest_terms_documents_are_always_scored(searching: Callable) -> None:
    async def scenario(index, exact) -> None:
        hits = await index.search(ALICE, "coffee in Zanzibar", 50)
        ids = [h.memory_id for h in hits]
        assert ids[:2] == ["zanzibar-1", "zanzibar-2"]  # both rare-term documents, first
        assert len(ids) == BUDGET and len(set(ids)) == BUDGET  # filled up to the budget, no more
        assert all(mid in DOCS for mid in ids)
        assert ids[2:] == [mid for mid in ids[2:] if mid.startswith("coffee-")]
        assert [h.memory_id for h in await exact.search(ALICE, "coffee in Zanzibar", 2)] == ids[:2]

    searching(scenario)


def test_common_terms_alone_give_a_budget_of_their_documents(searching: Callable) -> None:
    async def scenario(index, exact) -> None:
        hits = await index.search(ALICE, "coffee", 50)
        assert len(hits) == BUDGET
        assert {h.memory_id for h in hits} <= {mid for mid in DOCS if "coffee" in DOCS[mid]}
        assert len(await exact.search(ALICE, "coffee", 50)) == 21
        assert [h.memory_id for h in await index.search(ALICE, "green tea", 50)] == ["tea"]  # few: exact

    searching(scenario)
