"""Read-your-writes indexing (``AsyncMemory.index_now``, what the agent's save tool runs) beside
the worker indexing the same memories, on Postgres: many rounds, both transactions at once on
the same rows, and never a deadlock.

The hand-rolled version this replaced read the memory ``FOR SHARE`` and rewrote its row, as the
worker does: two share locks on one row, each waiting to upgrade, and Postgres aborted one as a
deadlock (seen as a 503 from a tool route). ``services.read_your_writes`` only reads the row and
writes the index entries in the worker's order (docs/reliability.md, "one lock order").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from engines import create_pg_database

from hipocampo import AsyncMemory
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.adapters.postgres.schema import migrate
from hipocampo.domain.model import Scope
from hipocampo.services.indexing import process_jobs
from hipocampo.testing import deps_of

ROUNDS = 40
PER_ROUND = 6
OPTIONS = {"worker": "external", "extraction": False, "summaries": False, "consolidation": False}


@pytest.fixture
def pg_store(pg_url: str) -> Iterator[str]:
    url, drop = create_pg_database(pg_url, prefix="hipo_index_now")
    try:
        asyncio.run(migrate(url))
        yield url
    finally:
        drop()


def test_index_now_and_the_worker_on_the_same_rows_never_deadlock(
    pg_store: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> None:
        writer = await AsyncMemory.open(pg_store, embedder=FakeEmbedder(), **OPTIONS)
        worker = await AsyncMemory.open(pg_store, embedder=FakeEmbedder(), **OPTIONS)  # its own pool
        try:
            for r in range(ROUNDS):
                items = [
                    await writer.remember("ana", f"round {r} fact {i}: the locker code is {r * 100 + i}")
                    for i in range(PER_ROUND)
                ]
                jobs = await deps_of(worker).jobs.claim(100, 60)
                assert jobs, "each save queues an indexing job"
                # The worker's transaction and the saves' own ones, at the same time, on the same rows.
                results = await asyncio.gather(
                    process_jobs(deps_of(worker), jobs), *(writer.index_now(item) for item in items)
                )
                assert results[1:] == [True] * PER_ROUND, f"round {r}: an index-now failed"
                ids = [item.id for item in items]
                assert set(await deps_of(writer).keywords.lengths(Scope("default", "ana"), ids)) == set(ids)
                assert set(await deps_of(writer).vectors.get(Scope("default", "ana"), ids)) == set(ids)
            assert await deps_of(writer).vectors.count(Scope("default", "ana")) == ROUNDS * PER_ROUND
        finally:
            await writer.close()
            await worker.close()

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
    assert not [r for r in caplog.records if "deadlock" in r.getMessage().lower() or r.exc_info]
