"""The background worker: claims jobs from the outbox and hands each kind to its service.

A round claims up to ``worker_batch_size`` jobs (fairly across tenants) and works through them
in claim order: indexing jobs in groups (one embedding call for many messages, committed group
by group), the others one by one. A job that fails is retried with exponential backoff and ends
as a dead letter with its error after ``job_max_attempts``; one bad job never blocks the rest.

While a round runs its leases are renewed (:mod:`.leases`). A round that has run
:data:`ROUND_SECONDS` gives back what it has not started and the next claim decides again, so
no tenant's backlog holds the worker for long. Told to stop, the worker claims nothing more,
lets the work in hand run ``worker_shutdown_seconds``, then gives back what is unfinished.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from ..domain.errors import StorageUnavailable
from ..domain.model import Job, MemoryItem, Scope
from ..ports import StoredResponse
from . import consolidation, facts, summaries
from .deps import Deps
from .indexing import CALL_CHARS, call_sizes, job_items, process_jobs
from .ingest import EXTRACT_JOB, INDEX_JOB, INDEX_MEMORIES_JOB, SUMMARIZE_JOB
from .leases import holding

log = logging.getLogger(__name__)

BATCHED = (INDEX_JOB, INDEX_MEMORIES_JOB)

ROUND_SECONDS = 2.0
"""A round that has run this long (and has served every tenant it claimed for) starts nothing
new: it gives back the jobs it has not started and the worker claims again. Claims are
round-robin by tenant, so this is what bounds how long another tenant's new message waits
behind one tenant's backlog of long texts (a 64-job round of them took minutes). A claim and a
release cost a few milliseconds, so short rounds are cheap."""


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


async def run_once(
    deps: Deps,
    *,
    stop: threading.Event | None = None,
    abandon: threading.Event | None = None,
    round_seconds: float = ROUND_SECONDS,
) -> int:
    """One worker round; returns how many jobs it worked on: finished (done or failed), or, for a
    large job, moved forward and given back (0: nothing was ready).

    ``stop``: once set, start no new work (what is not started is given back). ``abandon``: once
    set, embedding gives up between calls; the caller then cancels the round, which gives back
    every unfinished job. After ``round_seconds`` the round starts nothing new either, once every
    tenant it claimed jobs for has had one unit done: the claim put each tenant's oldest job
    first, so a round that ended after the first tenant's long unit would serve that tenant again
    and again while the next one waited.
    """
    deps = deps.for_worker()
    s = deps.settings
    if stop is not None and stop.is_set():
        return 0
    jobs = await deps.jobs.claim(s.worker_batch_size, s.job_lease_seconds, kinds=[*BATCHED, *SINGLE])
    if not jobs:
        return 0
    started, finished = time.monotonic(), 0
    unserved = {job.tenant_id for job in jobs}  # each tenant claimed gets a unit before the round may end
    async with holding(deps, jobs) as held:
        units = _units(deps, jobs)
        failed: set[int | None] = set()  # jobs whose remaining slices are skipped
        moved: set[int | None] = set()  # large jobs moved forward, given back unfinished
        try:
            while not (stop is not None and stop.is_set()):
                if not unserved and time.monotonic() - started >= round_seconds:
                    break
                unit = await anext(units, None)
                if unit is None:
                    break
                if isinstance(unit, Slice) and unit.job.id in failed:
                    continue
                jobs_of = _jobs_of(unit)
                ok = await _guarded(deps, jobs_of, _handler(unit, jobs_of, abandon))
                unserved -= {job.tenant_id for job in jobs_of}
                if isinstance(unit, Slice):
                    if not ok:
                        failed.add(unit.job.id)
                    elif not unit.last:
                        moved.add(unit.job.id)
                        continue  # more of this job to come: it stays held
                    moved.discard(unit.job.id)
                held.finished(jobs_of)
                finished += len(jobs_of)
        finally:
            await units.aclose()
    return finished + len(moved)


@dataclass(frozen=True)
class Slice:
    """Part of a new-messages job too large for one embedding call: its turns are indexed and
    committed, and the job completed with the last slice. A round may end between slices: the
    job is given back, and the next round skips the turns already indexed."""

    job: Job
    items: list[MemoryItem]
    last: bool


Unit = Job | Slice | list[tuple[Job, list[MemoryItem]]]
"""A single job, a slice of a large indexing job, or a group of indexing jobs with their items,
embedded and committed together."""


def _jobs_of(unit: Unit) -> list[Job]:
    if isinstance(unit, Slice):
        return [unit.job]
    return [unit] if isinstance(unit, Job) else [job for job, _ in unit]


def _handler(
    unit: Unit, jobs: list[Job], abandon: threading.Event | None
) -> Callable[[Deps, list[Job]], Awaitable[None]]:
    if isinstance(unit, Job):
        return lambda d, js: SINGLE[js[0].kind](d, js[0])
    if isinstance(unit, Slice):
        return lambda d, js: process_jobs(d, js, loaded=[unit.items], abandon=abandon, complete=unit.last)
    loaded = [items for _, items in unit]

    def index(d: Deps, js: list[Job]) -> Awaitable[None]:  # a retry of one job alone reads it again
        return process_jobs(d, js, loaded=loaded if js is jobs else None, abandon=abandon)

    return index


async def _units(deps: Deps, jobs: list[Job]) -> AsyncGenerator[Unit, None]:
    """The round's work in claim order (fair across tenants): indexing jobs grouped up to
    ``embed_batch_size`` texts and :data:`~.indexing.CALL_CHARS` characters (one embedding call,
    one commit), each group placed where its first job was claimed; other jobs one by one; a new-
    messages job too large for one call in slices, its first in place, the rest after all else.
    A job's items are read only when its group is formed, so a round cut short reads no more."""
    s = deps.settings
    group: list[tuple[Job, list[MemoryItem]]] = []
    after_group: list[Job] = []  # single jobs claimed after the open group's first job
    deferred: list[Slice] = []
    texts = chars = 0
    for job in jobs:
        if job.kind not in BATCHED:
            if group:
                after_group.append(job)
            else:
                yield job
            continue
        items = await job_items(deps, job)
        sizes = [min(len(i.content), s.embed_max_chars) for i in items]
        size = sum(sizes)
        if group and (texts + len(items) > s.embed_batch_size or chars + size > CALL_CHARS):
            yield group
            for single in after_group:
                yield single
            group, after_group, texts, chars = [], [], 0, 0
        if job.kind == INDEX_JOB and (len(items) > s.embed_batch_size or size > CALL_CHARS):  # sliced
            slices = await _slices(deps, job, items, sizes)
            yield slices[0]
            deferred += slices[1:]  # the rest after everyone else's work: one job must not hold the round
            continue
        group.append((job, items))
        texts, chars = texts + len(items), chars + size
    if group:
        yield group
    for single in after_group:
        yield single
    for part in deferred:
        yield part


async def _slices(deps: Deps, job: Job, items: list[MemoryItem], sizes: list[int]) -> list[Slice]:
    """A large new-messages job's slices, one embedding call each. Turns already indexed (by an
    earlier round that gave the job back part-done: messages do not change) are left out, so each
    round moves the job forward; with nothing left, one empty slice completes it. (Jobs of edited
    memories are not sliced: what was indexed may have changed since.)"""
    done = await deps.vectors.get(Scope(job.tenant_id, job.user_id), [i.id for i in items])
    kept = [k for k, item in enumerate(items) if item.id not in done]
    items, sizes = [items[k] for k in kept], [sizes[k] for k in kept]
    s = deps.settings
    bounds = list(itertools.accumulate(call_sizes(sizes, s.embed_batch_size, CALL_CHARS), initial=0))
    slices = [Slice(job, items[a:b], last=b == len(items)) for a, b in itertools.pairwise(bounds)]
    return slices or [Slice(job, [], last=True)]


async def _guarded(deps: Deps, jobs: list[Job], handle: Callable[[Deps, list[Job]], Awaitable[None]]) -> bool:
    """Run ``handle``; False when any of ``jobs`` failed (and was scheduled for a retry)."""
    try:
        await handle(deps, jobs)
        return True
    except Exception as exc:  # isolate the poison job: retry each alone before failing it
        if isinstance(exc, StorageUnavailable) and await _store_down(deps):
            raise  # not these jobs' fault: the round ends and gives them back, no attempt counted
        if len(jobs) == 1:
            await _fail(deps, jobs[0], exc)
            return False
        ok = True
        for job in jobs:
            try:
                await handle(deps, [job])
            except Exception as single_exc:
                await _fail(deps, job, single_exc)
                ok = False
        return ok


async def _store_down(deps: Deps) -> bool:
    """Whether the store itself cannot take a write now (a Postgres restart or failover, a
    read-only disk), as opposed to one job's work failing. Counting such failures as the jobs'
    attempts would kill jobs (and leave messages unindexed) after a few outages, and retrying a
    group's jobs one by one would only meet the outage again, each call waiting for the pool."""
    try:
        await deps.uow.probe_write()
    except StorageUnavailable:
        return True
    return False


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
        self._stop = threading.Event()  # read by the round between units
        self._abandon = threading.Event()  # read by embedding between calls, once the grace is over
        self._stopped = asyncio.Event()
        s = deps.settings
        self._next_consolidation = (
            consolidation.next_run(deps.clock.now(), s.consolidation_hour) if s.consolidation else None
        )

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        """Claim nothing more; the round in hand gets ``worker_shutdown_seconds`` to finish, then
        gives back what is unfinished. Call on the worker's loop (a signal handler added with
        ``loop.add_signal_handler`` is)."""
        self._stopping = True
        self._stop.set()
        self._stopped.set()
        self._wake.set()

    async def run(self) -> None:
        while not self._stopping:
            pause = self._deps.settings.worker_poll_seconds
            try:
                await self._maybe_schedule()
                done = await self._round()
            except StorageUnavailable as exc:  # the store is down: its jobs were given back, wait for it
                log.warning("worker round stopped, the store is unavailable: %s", exc)
                done, pause = 0, max(pause, exc.retry_after_seconds or 0)
            except Exception:  # the queue itself failed (e.g. database locked too long): keep going
                log.exception("worker round failed")
                done = 0
            if done == 0 and not self._stopping:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), pause)
                except asyncio.TimeoutError:
                    pass

    async def _round(self) -> int:
        """One round, cut short when a stop outlasts its grace (its jobs are then given back)."""
        round_ = asyncio.ensure_future(run_once(self._deps, stop=self._stop, abandon=self._abandon))
        stopped = asyncio.ensure_future(self._stopped.wait())
        try:
            await asyncio.wait({round_, stopped}, return_when=asyncio.FIRST_COMPLETED)
            if not round_.done():  # asked to stop mid-round: it starts nothing new, and gets a grace
                await asyncio.wait({round_}, timeout=self._deps.settings.worker_shutdown_seconds)
            if not round_.done():
                log.warning(
                    "stopping: work still running after %.0f s; giving its jobs back",
                    self._deps.settings.worker_shutdown_seconds,
                )
                self._abandon.set()
                round_.cancel()
                await asyncio.wait({round_})
                return 0
            return round_.result()
        finally:
            stopped.cancel()
            if not round_.done():  # run() itself was cancelled: leave nothing running
                round_.cancel()

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
