"""The job queue (outbox) in process memory: lease-based claims fair across tenants, lease
renewal and release, retries, dead letters.

For tests and single-process experiments; jobs are lost when the process exits.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ...domain.fairness import fair_pick
from ...domain.model import Job, JobStatus, as_utc
from ...ports import Clock
from .rows import JobRow
from .state import InMemoryDatabase, State, page


def job_rows(state: State, jobs: Sequence[Job], now: datetime) -> list[JobRow]:
    """Rows for ``jobs``, ids included, without writing them: a payload that is not JSON raises
    here, before the caller has changed anything. Write them with :func:`insert_jobs`."""
    first = state.last_rid["jobs"] + 1
    return [
        JobRow(
            id=first + i,
            kind=j.kind,
            tenant_id=j.tenant_id,
            user_id=j.user_id,
            payload=json.dumps(j.payload),
            status=JobStatus.PENDING.value,
            attempts=0,
            run_after=as_utc(j.run_after) if j.run_after is not None else now,
            locked_until=None,
            last_error=None,
            created_at=now,
            updated_at=now,
        )
        for i, j in enumerate(jobs)
    ]


def insert_jobs(state: State, rows: Sequence[JobRow]) -> None:
    for row in rows:
        state.jobs[row.id] = row
        state.last_rid["jobs"] = row.id


def _job(row: JobRow) -> Job:
    return Job(
        id=row.id,
        kind=row.kind,
        payload=json.loads(row.payload),
        tenant_id=row.tenant_id,
        user_id=row.user_id,
        status=JobStatus(row.status),
        attempts=row.attempts,
        last_error=row.last_error,
        run_after=row.run_after,
    )


class InMemoryJobQueue:
    """The :class:`~hipocampo.ports.JobQueue` port over an :class:`InMemoryDatabase`.

    For tests and single-process experiments; behaves as ``SqliteJobQueue`` does."""

    def __init__(self, db: InMemoryDatabase, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def enqueue(self, jobs: Sequence[Job]) -> None:
        now = as_utc(self._clock.now())

        def write(st: State) -> None:
            insert_jobs(st, job_rows(st, jobs, now))

        await self._db.write(write)

    async def claim(self, limit: int, lease_seconds: float, kinds: Sequence[str] | None = None) -> list[Job]:
        now = as_utc(self._clock.now())
        until = now + timedelta(seconds=lease_seconds)
        wanted = set(kinds) if kinds else None

        def claim(st: State) -> list[Job]:
            # A running job whose lease expired was held by a worker that died: take it over.
            queues: dict[str, list[int]] = {}
            for row in st.jobs.values():  # in id order
                if (wanted is None or row.kind in wanted) and (
                    (row.status == "pending" and row.run_after <= now)
                    or (row.status == "running" and row.locked_until is not None and row.locked_until < now)
                ):
                    queues.setdefault(row.tenant_id, []).append(row.id)

            def fetch(tenant: str, after: int, n: int) -> list[int]:
                return [i for i in queues[tenant] if i > after][:n]

            claimed = []
            for job_id in fair_pick(queues, fetch, limit):
                row = st.jobs[job_id]
                new = replace(row, status="running", attempts=row.attempts + 1, locked_until=until, updated_at=now)
                st.jobs[job_id] = new
                claimed.append(_job(new))
            return claimed

        return await self._db.write(claim)

    async def extend(self, jobs: Sequence[Job], lease_seconds: float) -> list[int]:
        now = as_utc(self._clock.now())
        until = now + timedelta(seconds=lease_seconds)

        def write(st: State) -> list[int]:
            renewed = []
            for job_id in _held(st, jobs):
                st.jobs[job_id] = replace(st.jobs[job_id], locked_until=until, updated_at=now)
                renewed.append(job_id)
            return renewed

        return await self._db.write(write) if jobs else []

    async def release(self, jobs: Sequence[Job]) -> int:
        now = as_utc(self._clock.now())

        def write(st: State) -> int:
            held = _held(st, jobs)
            for job_id in held:
                row = st.jobs[job_id]
                st.jobs[job_id] = replace(
                    row, status="pending", attempts=max(row.attempts - 1, 0), locked_until=None, updated_at=now
                )
            return len(held)

        return await self._db.write(write) if jobs else 0

    async def complete(self, job_ids: Sequence[int]) -> None:
        if not job_ids:
            return

        def write(st: State) -> None:
            for job_id in job_ids:
                st.jobs.pop(job_id, None)

        await self._db.write(write)

    async def fail(self, job_id: int, error: str, *, retry_at: datetime | None) -> None:
        now = as_utc(self._clock.now())
        if retry_at is None:
            changes = {"status": "dead", "last_error": error, "updated_at": now}
        else:
            changes = {
                "status": "pending",
                "last_error": error,
                "run_after": as_utc(retry_at),
                "locked_until": None,
                "updated_at": now,
            }

        def write(st: State) -> None:
            row = st.jobs.get(job_id)
            if row is not None:
                st.jobs[job_id] = replace(row, **changes)  # type: ignore[arg-type]

        await self._db.write(write)

    async def stats(self, tenant_id: str | None = None) -> dict[str, int]:
        counts = {s.value: 0 for s in JobStatus if s is not JobStatus.DONE}
        counts["retrying"] = 0
        for row in self._db.view().jobs.values():
            if tenant_id is not None and row.tenant_id != tenant_id:
                continue
            counts[row.status] = counts.get(row.status, 0) + 1
            counts["retrying"] += row.status == "pending" and row.last_error is not None
        return counts

    async def dead(self, limit: int = 50, tenant_id: str | None = None) -> list[Job]:
        rows = [
            r
            for r in self._db.view().jobs.values()
            if r.status == "dead" and (tenant_id is None or r.tenant_id == tenant_id)
        ]
        return [_job(r) for r in page(rows, limit)]

    async def requeue_dead(self, tenant_id: str | None = None) -> int:
        now = as_utc(self._clock.now())

        def write(st: State) -> int:
            dead = [
                r for r in st.jobs.values() if r.status == "dead" and (tenant_id is None or r.tenant_id == tenant_id)
            ]
            for row in dead:
                st.jobs[row.id] = replace(row, status="pending", attempts=0, run_after=now, updated_at=now)
            return len(dead)

        return await self._db.write(write)


def _held(st: State, jobs: Sequence[Job]) -> list[int]:
    """Ids of ``jobs`` whose claim still holds: running, with the attempts it was claimed with."""
    held = []
    for job in jobs:
        row = st.jobs.get(job.id) if job.id is not None else None
        if row is not None and row.status == "running" and row.attempts == job.attempts:
            held.append(row.id)
    return held
