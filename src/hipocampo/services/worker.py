"""The background worker: claims jobs from the outbox and hands each kind to its service.

Indexing jobs are processed in batches (one embedding call for many messages); the others one by
one. A job that fails is retried with exponential backoff and ends as a dead letter with its
error after ``job_max_attempts``; one bad job never blocks the rest of its batch.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import timedelta

from ..domain.model import Job, Scope
from ..ports import StoredResponse
from . import consolidation, facts, summaries
from .deps import Deps
from .indexing import process_jobs
from .ingest import EXTRACT_JOB, INDEX_JOB, INDEX_MEMORIES_JOB, SUMMARIZE_JOB

log = logging.getLogger(__name__)

BATCHED = (INDEX_JOB, INDEX_MEMORIES_JOB)


async def _extract(deps: Deps, job: Job) -> None:
    scope, ids = Scope(job.tenant_id, job.user_id), job.payload.get("message_ids") or []
    async with deps.uow.transaction():  # the rules' facts commit first: they stand whatever the LLM does
        await facts.mine_messages(deps, scope, ids)
        if deps.chat is None:
            await deps.jobs.complete([job.id])  # type: ignore[list-item]
    if deps.chat is not None:
        found = await facts.ask_llm(deps, scope, ids)  # no transaction open while the model thinks
        async with deps.uow.transaction():
            await facts.mine_messages(deps, scope, ids, rules=False, llm_facts=found)
            await deps.jobs.complete([job.id])  # type: ignore[list-item]


async def _summarize(deps: Deps, job: Job) -> None:
    policy = summaries.SummaryPolicy.from_settings(deps.settings)
    # Re-running is harmless (nothing new to fold), so the summary and the completion need not share a transaction.
    await summaries.maybe_summarize(
        deps, Scope(job.tenant_id, job.user_id), job.payload["thread_id"], policy, llm=deps.chat
    )
    await deps.jobs.complete([job.id])  # type: ignore[list-item]


SYSTEM_TENANT = "_system"
"""Where the worker keeps its own once-only claims in the idempotency store."""


def consolidation_policy(deps: Deps) -> consolidation.ConsolidationPolicy:
    return consolidation.ConsolidationPolicy(lookback_days=deps.settings.consolidation_lookback_days)


async def _consolidate(deps: Deps, job: Job) -> None:
    await consolidation.run_job(deps, job, consolidation_policy(deps))


SINGLE: dict[str, Callable[[Deps, Job], Awaitable[None]]] = {
    EXTRACT_JOB: _extract,
    SUMMARIZE_JOB: _summarize,
    consolidation.CONSOLIDATE_JOB: _consolidate,
}


async def schedule_consolidation(deps: Deps) -> int:
    """Queue a consolidation job for every user (the nightly run); returns how many."""
    jobs = [Job(consolidation.CONSOLIDATE_JOB, {}, t, u) for t, u in await deps.memories.scopes()]
    if jobs:
        await deps.jobs.enqueue(jobs)
    return len(jobs)


async def run_once(deps: Deps) -> int:
    """One worker round; returns how many jobs it finished (done or failed)."""
    s = deps.settings
    jobs = await deps.jobs.claim(s.worker_batch_size, s.job_lease_seconds, kinds=[*BATCHED, *SINGLE])
    if not jobs:
        return 0
    batch = [j for j in jobs if j.kind in BATCHED]
    if batch:
        await _guarded(deps, batch, process_jobs)
    for job in jobs:
        if job.kind in SINGLE:
            await _guarded(deps, [job], lambda d, js: SINGLE[js[0].kind](d, js[0]))
    return len(jobs)


async def _guarded(deps: Deps, jobs: list[Job], handle: Callable[[Deps, list[Job]], Awaitable[None]]) -> None:
    try:
        await handle(deps, jobs)
    except Exception as exc:  # isolate the poison job: retry each alone before failing it
        if len(jobs) == 1:
            await _fail(deps, jobs[0], exc)
            return
        for job in jobs:
            try:
                await handle(deps, [job])
            except Exception as single_exc:
                await _fail(deps, job, single_exc)


async def _fail(deps: Deps, job: Job, exc: Exception) -> None:
    s = deps.settings
    error = f"{type(exc).__name__}: {exc}"
    if job.attempts >= s.job_max_attempts:
        log.error("job %s is dead after %d attempts: %s", job.id, job.attempts, error)
        await deps.jobs.fail(job.id, error, retry_at=None)  # type: ignore[arg-type]
    else:
        delay = s.job_backoff_seconds * 2 ** max(job.attempts - 1, 0)
        log.warning("job %s failed (attempt %d), retrying in %.1fs: %s", job.id, job.attempts, delay, error)
        await deps.jobs.fail(job.id, error, retry_at=deps.clock.now() + timedelta(seconds=delay))  # type: ignore[arg-type]


class Worker:
    """Drains the job queue until stopped. Run one in-process, or many as separate processes."""

    def __init__(self, deps: Deps) -> None:
        self._deps = deps
        self._wake = asyncio.Event()
        self._stopping = False
        s = deps.settings
        self._next_consolidation = (
            consolidation.next_run(deps.clock.now(), s.consolidation_hour) if s.consolidation else None
        )

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            try:
                await self._maybe_schedule()
                done = await run_once(self._deps)
            except Exception:  # the queue itself failed (e.g. database locked too long): keep going
                log.exception("worker round failed")
                done = 0
            if done == 0 and not self._stopping:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self._deps.settings.worker_poll_seconds)
                except asyncio.TimeoutError:
                    pass


    async def _maybe_schedule(self) -> None:
        now = self._deps.clock.now()
        due = self._next_consolidation
        if due is None or now < due:
            return
        self._next_consolidation = consolidation.next_run(now, self._deps.settings.consolidation_hour)
        # Every worker (and every API server running one) wakes at the hour: the first to claim the
        # night in the shared store queues the jobs, the others skip.
        claim = StoredResponse("nightly-consolidation", 200, None, now)
        if not await self._deps.idempotency.put(SYSTEM_TENANT, f"consolidation:{due.date().isoformat()}", claim):
            log.info("nightly consolidation of %s already queued by another worker", due.date())
            return
        log.info("nightly consolidation: %d users queued", await schedule_consolidation(self._deps))


async def wait_idle(deps: Deps, timeout: float | None = None, worker: Worker | None = None) -> dict[str, int]:
    """Wait until no job is pending or running (dead letters do not count). Returns queue stats."""
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    while True:
        stats = await deps.jobs.stats()
        if stats.get("pending", 0) + stats.get("running", 0) == 0:
            return stats
        if deadline is not None and loop.time() > deadline:
            raise TimeoutError(f"jobs still waiting after {timeout}s: {stats}")
        if worker is not None:
            worker.wake()
        await asyncio.sleep(0.02)
