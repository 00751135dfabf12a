"""The worker when the store itself fails (a Postgres restart, a failover): the round stops and
gives its jobs back without counting an attempt, instead of failing them one by one until they
die; a job whose own work fails while the store is up is still retried and dead-lettered."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from hipocampo.adapters.clock import FakeClock
from hipocampo.domain.errors import StorageUnavailable
from hipocampo.domain.model import Scope, turn_memory_id
from hipocampo.services.deps import Deps
from hipocampo.services.ingest import add_messages
from hipocampo.services.worker import run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ANA = Scope("acme", "ana")
ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}


class Outage:
    """Makes the vector index (``writes``) and the write probe (``store``) fail while set."""

    def __init__(self, deps: Deps) -> None:
        self.store = self.writes = False
        self.probes = 0
        upsert, probe = deps.vectors.upsert, deps.uow.probe_write

        async def failing_upsert(*args: Any, **kwargs: Any) -> None:
            if self.writes:
                raise StorageUnavailable("the database is unavailable (AdminShutdown)", retry_after_seconds=2)
            await upsert(*args, **kwargs)

        async def failing_probe() -> None:
            self.probes += 1
            if self.store:
                raise StorageUnavailable("the database is unavailable (OperationalError)", retry_after_seconds=2)
            await probe()

        deps.vectors.upsert = failing_upsert  # type: ignore[method-assign]
        deps.uow.probe_write = failing_probe  # type: ignore[method-assign]


def make_deps(**settings: Any) -> Deps:
    return build_memory_deps(Settings(**(ENGINE_ONLY | settings)), clock=FakeClock())


def test_a_round_that_meets_a_store_outage_gives_its_jobs_back_without_counting_an_attempt() -> None:
    async def scenario() -> None:
        deps = make_deps(job_max_attempts=1)  # one counted failure would kill a job
        outage = Outage(deps)
        stored = [m for i in range(3) for m in await add_messages(deps, ANA, f"t{i}", [f"message {i}"])]
        outage.store = outage.writes = True
        with pytest.raises(StorageUnavailable):
            await run_once(deps)
        assert outage.probes == 1  # one probe, not one failure per job of the group
        stats = await deps.jobs.stats()
        assert (stats["pending"], stats["running"], stats.get("dead", 0)) == (3, 0, 0)
        claimed = await deps.jobs.claim(10, 60)
        assert [(j.attempts, j.last_error) for j in claimed] == [(1, None)] * 3  # nothing was counted
        await deps.jobs.release(claimed)

        outage.store = outage.writes = False  # the store is back: the same jobs succeed
        assert await run_once(deps) == 3
        assert len(await deps.memories.get_many(ANA, [turn_memory_id(m.id) for m in stored])) == 3
        assert (await deps.jobs.stats())["pending"] == 0

    asyncio.run(scenario())


def test_a_job_that_fails_while_the_store_is_up_still_counts_its_attempts() -> None:
    async def scenario() -> None:
        deps = make_deps(job_max_attempts=1)
        outage = Outage(deps)
        await add_messages(deps, ANA, "t", ["a message whose write keeps failing"])
        outage.writes = True  # e.g. a statement cancelled for this job only: the probe succeeds
        assert await run_once(deps) == 1
        assert outage.probes == 1
        stats = await deps.jobs.stats()
        assert stats.get("dead", 0) == 1 and stats["pending"] == 0

    asyncio.run(scenario())


def test_giving_jobs_back_survives_a_broken_connection() -> None:
    async def scenario() -> None:
        deps = make_deps()
        outage = Outage(deps)
        await add_messages(deps, ANA, "t", ["one"])
        release, calls = deps.jobs.release, []

        async def flaky_release(jobs: Any) -> int:
            calls.append(len(jobs))
            if len(calls) == 1:  # the first connection the pool hands out is a broken one
                raise StorageUnavailable("the database is unavailable (OperationalError)")
            return await release(jobs)

        deps.jobs.release = flaky_release  # type: ignore[method-assign]
        outage.store = outage.writes = True
        with pytest.raises(StorageUnavailable):
            await run_once(deps)
        assert calls == [1, 1]
        assert (await deps.jobs.stats())["running"] == 0  # claimable at once, not after the lease

    asyncio.run(scenario())
