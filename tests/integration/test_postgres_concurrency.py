"""What Postgres must hold when many processes share one database: each with its own pool here,
as separate servers and workers would be. The contract suites cover the single-caller behaviour."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timezone

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.postgres.schema import migrate
from hipocampo.backends import open_storage
from hipocampo.domain.model import Job, NewMessage, Role, Scope
from hipocampo.ports import Storage, StoredResponse
from hipocampo.settings import Settings

ALICE = Scope("acme", "alice")
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)


@pytest.fixture
def url(pg_db_url: str) -> str:
    asyncio.run(migrate(pg_db_url))
    return pg_db_url


@asynccontextmanager
async def process(url: str) -> AsyncIterator[Storage]:
    """The storage as one more server or worker process opens it: its own connection pool."""
    storage = await open_storage(url, clock=FakeClock(T0), settings=Settings(db=url))
    try:
        yield storage
    finally:
        await storage.close()


def test_workers_on_many_pools_claim_every_job_exactly_once(url: str) -> None:
    async def main() -> None:
        async with process(url) as producer:
            jobs = [Job("index", {"n": i}, f"tenant{i % 7}", "u") for i in range(1500)]
            await producer.jobs.enqueue(jobs)

            async def worker() -> list[int]:
                mine: list[int] = []
                async with process(url) as storage:
                    while batch := await storage.jobs.claim(16, 60):
                        mine += [j.payload["n"] for j in batch]
                        await storage.jobs.complete([j.id for j in batch])
                return mine

            claimed = [n for ns in await asyncio.gather(*(worker() for _ in range(6))) for n in ns]
            assert sorted(claimed) == list(range(1500))  # none twice, none left behind
            stats = await producer.jobs.stats()
            assert (stats["pending"], stats["running"]) == (0, 0)

    asyncio.run(main())


def test_appends_to_one_thread_from_many_pools_get_consecutive_positions(url: str) -> None:
    async def main() -> None:
        async def writer(i: int) -> None:
            async with process(url) as storage:
                for k in range(10):
                    await storage.log.append(
                        ALICE, "t1", [NewMessage(Role.USER, f"w{i} m{k}"), NewMessage(Role.USER, f"w{i} m{k}b")], []
                    )

        await asyncio.gather(*(writer(i) for i in range(6)))
        async with process(url) as storage:
            stored = await storage.log.list_thread(ALICE, "t1")
            assert [m.seq for m in stored] == list(range(120))
            for first, second in zip(stored[::2], stored[1::2], strict=True):  # a batch stays together
                assert second.content == first.content + "b"
            assert await storage.tenants.memory_usage("acme") == 120

    asyncio.run(main())


def test_a_retry_racing_its_first_attempt_stores_the_message_once(url: str) -> None:
    async def main() -> None:
        async def send(thread: str) -> str:
            async with process(url) as storage:
                (m,) = await storage.log.append(ALICE, thread, [NewMessage(Role.USER, "hi", id="client-1")], [])
                return m.id

        ids = await asyncio.gather(*(send(f"t{i % 2}") for i in range(8)))  # even into another thread
        assert len(set(ids)) == 1
        async with process(url) as storage:
            assert await storage.log.count(ALICE) == 1
            assert await storage.tenants.memory_usage("acme") == 1

    asyncio.run(main())


def test_a_racing_put_of_the_same_key_waits_for_the_first_transaction(url: str) -> None:
    """What exactly-once idempotent writes rely on: the second request blocks on the key until
    the first commits, then sees it taken."""

    async def main() -> None:
        answer = StoredResponse("h1", 0, None, T0)
        async with process(url) as first, process(url) as second:
            async with first.uow.transaction():
                assert await first.idempotency.put("acme", "k1", answer, replace_before=T0)
                racer = asyncio.create_task(second.idempotency.put("acme", "k1", answer, replace_before=T0))
                await asyncio.sleep(0.3)
                assert not racer.done()  # blocked on the key's row
            assert await asyncio.wait_for(racer, 10) is False

            # When the first transaction rolls back instead, the waiting one gets the key.
            with pytest.raises(RuntimeError):
                async with first.uow.transaction():
                    assert await first.idempotency.put("acme", "k2", answer)
                    racer = asyncio.create_task(second.idempotency.put("acme", "k2", answer))
                    await asyncio.sleep(0.3)
                    assert not racer.done()
                    raise RuntimeError("the request failed")
            assert await asyncio.wait_for(racer, 10) is True

    asyncio.run(main())
