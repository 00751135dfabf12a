"""SQLite's keyword budget is spent on what the searcher may see: an excluded thread full of
matching documents, or superseded ones, do not crowd out the documents the search is for."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.sqlite.keywords import SqliteKeywordIndex
from hipocampo.backends import open_storage
from hipocampo.domain.model import MemoryItem, MemoryKind, Role, Scope
from hipocampo.settings import Settings

T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)
ALICE = Scope("acme", "alice")


def turn(memory_id: str, thread_id: str, text: str, seq: int, **extra) -> MemoryItem:
    return MemoryItem(
        id=memory_id,
        scope=ALICE,
        kind=MemoryKind.TURN,
        content=text,
        created_at=T0,
        thread_id=thread_id,
        seq=seq,
        role=Role.USER,
        **extra,
    )


def test_hidden_documents_do_not_use_up_the_budget(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'kw.db'}"

    async def main() -> None:
        storage = await open_storage(url, clock=FakeClock(T0), settings=Settings(db=url))
        try:
            older = [turn(f"old-{i}", "t1", f"coffee with milk {i}", i) for i in range(3)]
            current = [turn(f"now-{i}", "t2", f"coffee at noon {i}", i) for i in range(20)]
            stale = [turn(f"stale-{i}", "t3", f"coffee, once {i}", i, valid_to=T0) for i in range(20)]
            await storage.memories.upsert(older + current + stale)
            await storage.keywords.upsert(ALICE, [(m.id, m.content) for m in older + current + stale])
            index = SqliteKeywordIndex(storage.uow, budget=5)
            hits = await index.search(ALICE, "coffee", 10, exclude_thread="t2")
            assert sorted(h.memory_id for h in hits) == ["old-0", "old-1", "old-2"]
        finally:
            await storage.close()

    asyncio.run(main())
