"""The worker round: fair groups, rounds bounded in time, leases renewed while work runs, and a
stop that gives back what is unfinished (in-memory adapters, hand-written embedders)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from hipocampo.adapters.clock import FakeClock
from hipocampo.adapters.embedders.fake import FakeEmbedder
from hipocampo.domain.model import Scope, turn_memory_id
from hipocampo.ports import Embedder
from hipocampo.services.deps import Deps
from hipocampo.services.indexing import call_sizes
from hipocampo.services.ingest import add_messages
from hipocampo.services.worker import Worker, run_once
from hipocampo.settings import Settings
from hipocampo.testing import build_memory_deps

ACME = Scope("acme", "ana")
GLOBEX = Scope("globex", "bob")
ENGINE_ONLY = {"embedder": "fake", "tokenizer": "chars", "extraction": False, "summaries": False}


def make_deps(embedder: Embedder | None = None, **settings: Any) -> Deps:
    return build_memory_deps(Settings(**(ENGINE_ONLY | settings)), embedder=embedder, clock=FakeClock())


class GatedEmbedder:
    """FakeEmbedder whose document calls wait at a gate: ``entered`` is set when a call is
    inside, and the call returns once ``gate`` is opened. Counts the texts it embedded."""

    def __init__(self) -> None:
        self._inner = FakeEmbedder()
        self.name, self.dim = self._inner.name, self._inner.dim
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.texts: list[str] = []

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        self.entered.set()
        assert self.gate.wait(30), "the test never opened the gate"
        self.texts += texts
        return self._inner.embed_documents(texts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._inner.embed_query(text)


async def indexed(deps: Deps, scope: Scope, message_id: str) -> bool:
    return bool(await deps.memories.get_many(scope, [turn_memory_id(message_id)]))


def test_calls_are_bounded_by_texts_and_characters() -> None:
    assert call_sizes([10] * 5, 2, 1000) == [2, 2, 1]
    assert call_sizes([400, 400, 400, 10], 32, 1000) == [2, 2]
    assert call_sizes([5000, 10, 10], 32, 1000) == [1, 2]  # a long text goes alone
    assert call_sizes([], 32, 1000) == []


def test_a_round_serves_another_tenant_before_the_rest_of_a_backlog() -> None:
    async def scenario(deps: Deps) -> None:
        for i in range(40):  # each job too long to share an embedding call: a unit of its own
            await add_messages(deps, ACME, "t", [f"backlog message {i}.{j} " + "x" * 3000 for j in range(3)])
        (victim,) = await add_messages(deps, GLOBEX, "t", ["the victim's new message"])
        # The claim puts acme's oldest job first; the round still serves globex before it ends.
        assert await run_once(deps, round_seconds=0) == 2
        assert await indexed(deps, GLOBEX, victim.id)
        stats = await deps.jobs.stats("acme")
        assert stats["running"] == 0 and stats["pending"] > 30  # given back, claimable at once
        while await run_once(deps):
            pass
        assert (await deps.jobs.stats())["pending"] == 0

    asyncio.run(scenario(make_deps(worker_batch_size=64)))


def test_groups_keep_each_embedding_call_small() -> None:
    class Recording(FakeEmbedder):
        calls: list[int] = []

        def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
            self.calls.append(sum(len(t) for t in texts))
            return super().embed_documents(texts)

    embedder = Recording()

    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ACME, "t", [f"long message {i} " + "y" * 6000 for i in range(6)])
        for i in range(6):
            await add_messages(deps, ACME, "u", [f"long message {i} " + "z" * 6000])
        while await run_once(deps):
            pass
        assert embedder.calls and max(embedder.calls) <= 8192 + 200  # capped texts, one per call here
        assert (await deps.jobs.stats())["pending"] == 0

    asyncio.run(scenario(make_deps(embedder, embed_max_chars=4096)))


def test_a_stopped_round_gives_back_what_it_has_not_started_without_counting_attempts() -> None:
    stop = threading.Event()

    class StopAfterFirstCall(FakeEmbedder):
        def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
            stop.set()  # SIGTERM arrives while the first group is being embedded
            return super().embed_documents(texts)

    async def scenario(deps: Deps) -> None:
        for i in range(5):
            await add_messages(deps, Scope("acme", f"user{i}"), "t", [f"message {i}"])
        assert await run_once(deps, stop=stop) == 1  # the group in hand finishes
        stats = await deps.jobs.stats()
        assert (stats["pending"], stats["running"]) == (4, 0)
        stop.clear()
        claimed = await deps.jobs.claim(10, 60)
        assert len(claimed) == 4 and all(j.attempts == 1 for j in claimed)

    asyncio.run(scenario(make_deps(StopAfterFirstCall(), worker_batch_size=10, embed_batch_size=1)))


def test_leases_are_renewed_while_a_long_batch_runs() -> None:
    embedder = GatedEmbedder()

    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ACME, "t", ["a batch that outlives its lease"])
        round_ = asyncio.create_task(run_once(deps))
        while not embedder.entered.is_set():
            await asyncio.sleep(0.01)
        for _ in range(10):  # ten leases go by on the queue's clock while the batch embeds
            deps.clock.advance(0.3)  # type: ignore[attr-defined]
            await asyncio.sleep(0.15)  # the round renews every third of the lease
            assert await deps.jobs.claim(10, 1.0) == []  # a second worker finds nothing to take
        embedder.gate.set()
        assert await round_ == 1
        assert (await deps.jobs.stats())["running"] == 0

    asyncio.run(scenario(make_deps(embedder, job_lease_seconds=0.4)))


def test_stop_gives_back_work_that_outlasts_the_grace() -> None:
    embedder = GatedEmbedder()

    async def scenario(deps: Deps) -> None:
        await add_messages(deps, ACME, "t", ["stuck in a slow embedding call"])
        worker = Worker(deps)
        running = asyncio.create_task(worker.run())
        while not embedder.entered.is_set():
            await asyncio.sleep(0.01)
        started = time.monotonic()
        worker.stop()
        await asyncio.wait_for(running, 5)
        assert time.monotonic() - started < 2  # the grace (0.3 s), not the stuck call
        stats = await deps.jobs.stats()
        assert (stats["pending"], stats["running"], stats["retrying"]) == (1, 0, 0)
        (job,) = await deps.jobs.claim(10, 60)
        assert job.attempts == 1  # the interrupted claim was not counted
        embedder.gate.set()  # let the orphaned call end

    asyncio.run(scenario(make_deps(embedder, worker_shutdown_seconds=0.3, worker_poll_seconds=0.01)))


def test_stop_lets_a_short_batch_finish_within_the_grace() -> None:
    embedder = GatedEmbedder()

    async def scenario(deps: Deps) -> None:
        (message,) = await add_messages(deps, ACME, "t", ["almost done"])
        worker = Worker(deps)
        running = asyncio.create_task(worker.run())
        while not embedder.entered.is_set():
            await asyncio.sleep(0.01)
        worker.stop()
        asyncio.get_running_loop().call_later(0.2, embedder.gate.set)  # finishes inside the grace
        await asyncio.wait_for(running, 5)
        assert await indexed(deps, ACME, message.id)
        assert (await deps.jobs.stats())["pending"] == 0

    asyncio.run(scenario(make_deps(embedder, worker_shutdown_seconds=5, worker_poll_seconds=0.01)))


def test_a_huge_job_is_sliced_and_does_not_hold_a_round() -> None:
    async def scenario(deps: Deps) -> None:
        big = await add_messages(deps, ACME, "t", [f"one of many turns, number {i}" for i in range(50)])
        (victim,) = await add_messages(deps, GLOBEX, "t", ["the victim's new message"])
        assert await run_once(deps, round_seconds=0) == 2  # the victim's job, and acme's moved forward
        assert await indexed(deps, GLOBEX, victim.id)
        assert sum([await indexed(deps, ACME, m.id) for m in big]) == 8  # one slice, then given back
        (job,) = await deps.jobs.claim(10, 60)
        assert (job.tenant_id, job.attempts) == ("acme", 1)  # released, no attempt counted
        await deps.jobs.release([job])
        rounds = 0
        while await run_once(deps, round_seconds=0):
            rounds += 1
        assert rounds == 6  # the other 42 turns, a slice of up to eight per round, none done twice
        assert all([await indexed(deps, ACME, m.id) for m in big])
        assert await deps.memories.count(ACME) == 50  # slices done twice are upserted, not duplicated
        assert (await deps.jobs.stats())["pending"] == 0

    asyncio.run(scenario(make_deps(embed_batch_size=8)))


def test_a_failed_slice_fails_its_job_once_and_skips_the_rest() -> None:
    class FailsOnce(FakeEmbedder):
        failures = 0

        def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
            if any("turn 12" in t for t in texts) and not self.failures:
                self.failures += 1
                raise RuntimeError("the model ran out of memory")
            return super().embed_documents(texts)

    embedder = FailsOnce()

    async def scenario(deps: Deps) -> None:
        messages = await add_messages(deps, ACME, "t", [f"turn {i}" for i in range(30)])
        assert await run_once(deps) == 1  # the job failed once, the slices after the failure skipped
        stats = await deps.jobs.stats()
        assert (stats["pending"], stats["retrying"]) == (1, 1)
        assert not await indexed(deps, ACME, messages[-1].id)
        deps.clock.advance(60)  # type: ignore[attr-defined]
        assert await run_once(deps) == 1
        assert all([await indexed(deps, ACME, m.id) for m in messages])
        assert (await deps.jobs.stats())["pending"] == 0

    asyncio.run(scenario(make_deps(embedder, embed_batch_size=8, job_backoff_seconds=1)))
